// Package testcorpus locates the shared test material (../shared beside the
// checkout, or $OFFTOPIC_SHARED) for tests, and skips a test with a message
// where it is absent.
package testcorpus

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// Dir returns the shared directory, or "" when it cannot be found. It looks
// at $OFFTOPIC_SHARED, then at ../shared beside the module root.
func Dir() string {
	if d := os.Getenv("OFFTOPIC_SHARED"); d != "" {
		return d
	}
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return ""
	}
	// file is <root>/internal/testcorpus/testcorpus.go; shared sits beside <root>.
	root := filepath.Dir(filepath.Dir(filepath.Dir(file)))
	d := filepath.Join(filepath.Dir(root), "shared")
	if _, err := os.Stat(d); err != nil {
		return ""
	}
	return d
}

// Path returns the shared path rel (e.g. "corpus/dev" or
// "fixtures/warc/x.warc.gz"), or skips tb with a message naming what is
// missing.
func Path(tb testing.TB, rel string) string {
	tb.Helper()
	d := Dir()
	if d == "" {
		tb.Skipf("shared test material not found (../shared beside the checkout, or set OFFTOPIC_SHARED): %s needed", rel)
	}
	p := filepath.Join(d, rel)
	if _, err := os.Stat(p); err != nil {
		tb.Skipf("shared test material not found: %v (set OFFTOPIC_SHARED)", err)
	}
	return p
}

// SkipShort skips tb under go test -short with a message naming what the
// test reads (a whole corpus, a large fixture, many damaged copies of one):
// the fast loop leaves such tests to CI, which runs them all.
func SkipShort(tb testing.TB, what string) {
	tb.Helper()
	if testing.Short() {
		tb.Skipf("-short: skipped, reads %s", what)
	}
}

// Corpus returns the shared corpus name (e.g. "dev", "event-dev"), as Path
// does, and skips tb under -short: a whole corpus is for the full run.
func Corpus(tb testing.TB, name string) string {
	tb.Helper()
	SkipShort(tb, "corpus/"+name)
	return Path(tb, "corpus/"+name)
}
