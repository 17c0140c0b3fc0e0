package timemap

import (
	"os"
	"path/filepath"
	"testing"
)

// sharedDir returns the shared directory holding fixtures and corpora, or
// skips the test when it is absent.
func sharedDir(tb testing.TB) string {
	tb.Helper()
	dir := os.Getenv("OFFTOPIC_SHARED")
	if dir == "" {
		dir = filepath.Join("..", "..", "shared")
	}
	if _, err := os.Stat(filepath.Join(dir, "fixtures")); err != nil {
		tb.Skipf("shared fixtures not found at %s (set OFFTOPIC_SHARED): %v", dir, err)
	}
	return dir
}

func fixture(tb testing.TB, rel string) string {
	tb.Helper()
	return filepath.Join(sharedDir(tb), "fixtures", rel)
}

// readAll reads every record of path, returning records (bodies drained into
// Payload) and record errors.
type readRec struct {
	*Record
	Payload []byte
}

func readAll(tb testing.TB, path string) ([]readRec, []*RecordError) {
	tb.Helper()
	recs, rerrs := readAllNoFatal(path)
	for _, e := range rerrs {
		if e.Offset < 0 {
			tb.Fatalf("%s: %v", path, e.Err)
		}
	}
	return recs, rerrs
}
