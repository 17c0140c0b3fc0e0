package timemap

import (
	"os"
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

// readRec is a record read with its body drained into Payload.
type readRec struct {
	*Record
	Payload []byte
}

// readAll reads every record of path, returning records (bodies drained into
// Payload) and record errors; a read error that ends the file fails tb.
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

// writeFile writes data to a file named name in dir, replacing it, and
// returns its path. Fuzz targets reuse one dir from input to input.
func writeFile(tb testing.TB, dir, name string, data []byte) string {
	tb.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		tb.Fatal(err)
	}
	return p
}

// writeTemp writes data to a file named name in a new temporary dir.
func writeTemp(tb testing.TB, name string, data []byte) string {
	tb.Helper()
	return writeFile(tb, tb.TempDir(), name, data)
}
