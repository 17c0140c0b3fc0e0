package timemap

import (
	"errors"
	"io"
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
	rr, err := OpenRecords(path, ReadOptions{})
	if err != nil {
		tb.Fatalf("OpenRecords(%s): %v", path, err)
	}
	defer rr.Close()
	var recs []readRec
	var rerrs []*RecordError
	for i := 0; i < 100000; i++ {
		rec, err := rr.Next()
		if err == io.EOF {
			return recs, rerrs
		}
		var re *RecordError
		if errors.As(err, &re) {
			rerrs = append(rerrs, re)
			continue
		}
		if err != nil {
			tb.Fatalf("%s: Next: %v", path, err)
		}
		body, err := io.ReadAll(rec.Body)
		if err != nil {
			tb.Fatalf("%s: reading body at %d: %v", path, rec.Loc.Offset, err)
		}
		recs = append(recs, readRec{rec, body})
	}
	tb.Fatalf("%s: too many records (loop?)", path)
	return nil, nil
}
