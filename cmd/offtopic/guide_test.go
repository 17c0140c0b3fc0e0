package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestErrorsGuide: a mistaken command line says what was meant and what to
// give instead, and results read by default are named (issue 36 point 8).
func TestErrorsGuide(t *testing.T) {
	files := sampleFiles(t)
	var abs []string
	for _, f := range files {
		a, err := filepath.Abs(f)
		if err != nil {
			t.Fatal(err)
		}
		abs = append(abs, a)
	}
	gold, _ := filepath.Abs(filepath.Join(filepath.Dir(files[0]), "gold.tsv"))
	dir := t.TempDir()
	t.Chdir(dir)
	if code, _, stderr := runCLI(t, append([]string{"detect", "-q", "--report-dir", "offtopic-out"}, abs...)...); code != 0 {
		t.Fatalf("detect: %s", stderr)
	}
	other := filepath.Join(dir, "other.csv")
	os.WriteFile(other, []byte("key,timestamp,curator decision\n\"org,elsewhere)/\",20100101000000,off-topic\n"), 0o644)
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"a subcommand's help", []string{"crawl", "audit"}, exitUsage, "see offtopic crawl audit --help"},
		{"a gold standard given as the collection", []string{"detect", "-q", "-d", "x", gold}, exitUsage, "gold.tsv is not a WARC or ARC file (it starts "},
		{"the report given as decisions", []string{"prune", "--results", "offtopic-out", "--decisions", "offtopic-out/offtopic.html"}, exitUsage, "offtopic.html is an HTML page (the report itself?), not decisions"},
		{"a flag with two letters swapped", []string{"evaluate", "--glod", gold}, exitUsage, "(did you mean --gold?)"},
		{"evaluate's default results", []string{"evaluate", "--gold", gold}, exitOK, "reading offtopic-out/results.jsonl (no results named"},
		{"decisions of another run against the default results", []string{"prune", "--decisions", other}, exitUsage,
			"none of the 1 decisions in " + other + " is of a capture in offtopic-out/results.jsonl, the default results"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := runCLI(t, tc.args...)
			if code != tc.code || !strings.Contains(stderr, tc.want) {
				t.Errorf("offtopic %s: exit %d (want %d): %s\nwant %q", strings.Join(tc.args, " "), code, tc.code, stderr, tc.want)
			}
		})
	}
}
