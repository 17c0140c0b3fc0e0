package timemap

import (
	"path/filepath"
	"testing"

	"github.com/offtopic/offtopic/internal/testcorpus"
)

// sharedDir returns the shared directory holding fixtures and corpora, or
// skips the test when it is absent.
func sharedDir(tb testing.TB) string {
	tb.Helper()
	return filepath.Dir(testcorpus.Path(tb, "fixtures"))
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
