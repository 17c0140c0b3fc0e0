package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/offtopic/offtopic/internal/testcorpus"
)

// TestDetectEachCollection: files of two Archive-It collections given
// together are judged each against its own collection's model (a page gets
// the rows a run over its collection's files alone gives), or against one
// with --one-collection.
func TestDetectEachCollection(t *testing.T) {
	files := testcorpus.TwoCollections(t, t.TempDir())
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
		var rows []string
		for _, r := range strings.Split(strings.TrimSpace(string(b)), "\n")[1:] {
			if strings.HasPrefix(r, "http://site1-") {
				rows = append(rows, r)
			}
		}
		slices.Sort(rows)
		return rows, stderr
	}
	both, stderr := csvRows(files...)
	if !strings.Contains(stderr, "2 Archive-It collections (by the ids in the files' names),\nofftopic: each judged against its own model") {
		t.Errorf("no word of the two collections on stderr:\n%s", stderr)
	}
	alone, stderr := csvRows(files[0])
	if strings.Contains(stderr, "Archive-It collections") {
		t.Errorf("one collection said to be several:\n%s", stderr)
	}
	if len(both) != 16 || !slices.Equal(both, alone) {
		t.Errorf("collection 1's rows judged with collection 2:\n%s\nwant as judged alone:\n%s", strings.Join(both, "\n"), strings.Join(alone, "\n"))
	}
	one, stderr := csvRows(append([]string{"--one-collection"}, files...)...)
	if strings.Contains(stderr, "Archive-It collections") || slices.Equal(one, alone) {
		t.Errorf("--one-collection judged as each collection alone:\n%s", stderr)
	}
}
