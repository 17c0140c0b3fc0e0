package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/offtopic/offtopic/similarity"
)

// TestCompressedInputs: a .warc.zst is read as the gzipped WARC is, and
// pruned into a .warc.zst; a .warc.bz2 or .warc.xz among the inputs is
// refused by name (detect scores the others and exits 1), and prune fails
// without writing anything, never an empty copy (issue 38, 8).
func TestCompressedInputs(t *testing.T) {
	good := "../../testdata/sample/SAMPLE-LIGHTS-20090415093000-00001.warc.gz"
	t.Run("zstd", func(t *testing.T) {
		dir := t.TempDir()
		in := filepath.Join("..", "..", "timemap", "testdata", "compressed", "sample-dict.warc.zst")
		want := verdictsOfWARC(t, sampleFiles(t))
		out := filepath.Join(dir, "out")
		if code, _, stderr := runCLI(t, "detect", "-q", "--out-dir", out, in); code != 0 {
			t.Fatalf("detect: exit %d: %s", code, stderr)
		}
		sameVerdicts(t, ".warc.zst", want, verdicts(t, out))
		pruned := filepath.Join(dir, "pruned")
		if code, _, stderr := runCLI(t, "prune", "--strict", "--results", out, "-d", pruned, in); code != 0 {
			t.Fatalf("prune: exit %d: %s", code, stderr)
		}
		again := filepath.Join(dir, "again")
		if code, _, stderr := runCLI(t, "detect", "-q", "--out-dir", again, filepath.Join(pruned, "sample-dict.warc.zst")); code != 0 {
			t.Fatalf("detect of the pruned copy: exit %d: %s", code, stderr)
		}
		for k, v := range verdicts(t, again) {
			if v == similarity.VerdictOff || want[k] == similarity.VerdictOff {
				t.Errorf("%s: %s in the pruned copy (%s before)", k, v, want[k])
			}
		}
	})
	for _, name := range []string{"sample.warc.bz2", "sample.warc.xz"} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			in := filepath.Join("..", "..", "timemap", "testdata", "compressed", name)
			out := filepath.Join(dir, "out")
			code, _, stderr := runCLI(t, "detect", "-q", "--out-dir", out, in, good)
			if code != 1 || !strings.Contains(stderr, name) || !strings.Contains(stderr, "-compressed: not read") ||
				!strings.Contains(stderr, "1 of 2 input files could not be read") {
				t.Errorf("detect: exit %d: %s", code, stderr)
			}
			if caps := readCaptures(t, out); len(caps) == 0 {
				t.Error("the readable file's captures are not written")
			}
			for _, strict := range []string{"--keep-damaged", "--strict"} {
				pruned := filepath.Join(dir, "pruned"+strict)
				code, _, stderr = runCLI(t, "prune", strict, "--results", out, "-d", pruned, in, good)
				if code != 1 || !strings.Contains(stderr, "-compressed: not read") {
					t.Errorf("prune %s: exit %d: %s", strict, code, stderr)
				}
				if _, err := os.Stat(filepath.Join(pruned, name)); err == nil {
					t.Errorf("prune %s wrote a copy of %s", strict, name)
				}
			}
		})
	}
	// A file no record can be read from is not copied empty either.
	dir := t.TempDir()
	junk := filepath.Join(dir, "junk.warc")
	if err := os.WriteFile(junk, []byte(strings.Repeat("not a WARC record\n", 100)), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	runCLI(t, "detect", "-q", "--out-dir", out, good)
	code, _, stderr := runCLI(t, "prune", "--results", out, "-d", filepath.Join(dir, "pruned"), junk, good)
	if code != 1 || !strings.Contains(stderr, "no record could be read") {
		t.Errorf("prune of a file of no record: exit %d: %s", code, stderr)
	}
	if fi, err := os.Stat(filepath.Join(dir, "pruned", "junk.warc")); err == nil {
		t.Errorf("prune wrote a copy of %d bytes of a file of no record", fi.Size())
	}
}
