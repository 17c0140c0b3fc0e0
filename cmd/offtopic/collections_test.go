package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestDetectEachCollection: files of two Archive-It collections given
// together are judged as two runs over each collection's files alone would
// judge them (each against its own model), or as one with --one-collection.
func TestDetectEachCollection(t *testing.T) {
	dir := t.TempDir()
	var one, two, all []string
	for i, f := range sampleFiles(t) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		id := []string{"1", "1", "2"}[i%3]
		to := filepath.Join(dir, "ARCHIVEIT-"+id+"-"+filepath.Base(f))
		if err := os.WriteFile(to, b, 0o644); err != nil {
			t.Fatal(err)
		}
		if id == "1" {
			one = append(one, to)
		} else {
			two = append(two, to)
		}
		all = append(all, to)
	}
	csvRows := func(args ...string) ([]string, string) {
		t.Helper()
		out := filepath.Join(t.TempDir(), "out.csv")
		code, _, stderr := runCLI(t, append([]string{"detect", "--csv", out}, args...)...)
		if code != 0 {
			t.Fatalf("detect %v: exit %d: %s", args, code, stderr)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		rows := strings.Split(strings.TrimSpace(string(b)), "\n")[1:]
		slices.Sort(rows)
		return rows, stderr
	}
	split, stderr := csvRows(all...)
	if !strings.Contains(stderr, "files of 2 Archive-It collections (1, 2): each judged against its own model") {
		t.Errorf("no word of the two collections on stderr:\n%s", stderr)
	}
	a, _ := csvRows(one...)
	b, _ := csvRows(two...)
	if want := slices.Sorted(slices.Values(append(a, b...))); !slices.Equal(split, want) {
		t.Errorf("judged together:\n%s\nwant as judged apart:\n%s", strings.Join(split, "\n"), strings.Join(want, "\n"))
	}
	merged, stderr := csvRows(append([]string{"--one-collection"}, all...)...)
	if strings.Contains(stderr, "Archive-It collections") || !strings.Contains(stderr, "6 TimeMaps, 14 captures") {
		t.Errorf("--one-collection: %s", stderr)
	}
	if slices.Equal(merged, split) {
		t.Error("--one-collection judged as the collections apart")
	}
}
