package timemap

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// splitWARC splits a plain WARC into its records (by "WARC/1.0\r\n" starts).
func splitWARC(t *testing.T, b []byte) [][]byte {
	t.Helper()
	var recs [][]byte
	sep := []byte("WARC/1.0\r\n")
	for len(b) > 0 {
		i := bytes.Index(b[1:], sep)
		if i < 0 {
			recs = append(recs, b)
			break
		}
		recs = append(recs, b[:i+1])
		b = b[i+1:]
	}
	return recs
}

func TestCorruptRecordsAreSkipped(t *testing.T) {
	src, err := os.ReadFile(fixture(t, "warc/pywb-example.warc"))
	if err != nil {
		t.Fatal(err)
	}
	recs := splitWARC(t, src)
	if len(recs) != 6 {
		t.Fatalf("split into %d records", len(recs))
	}
	// Record 2 (a response) loses the second half of its block; record 4 gets
	// a garbage Content-Length.
	bad := append([][]byte(nil), recs...)
	bad[2] = bad[2][:len(bad[2])/2]
	bad[4] = bytes.Replace(bad[4], []byte("Content-Length: "), []byte("Content-Length: x"), 1)
	dir := t.TempDir()

	plain := filepath.Join(dir, "bad.warc")
	if err := os.WriteFile(plain, bytes.Join(bad, nil), 0o644); err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	for _, r := range bad {
		zw := gzip.NewWriter(&gz)
		zw.Write(r)
		zw.Close()
	}
	// A damaged gzip member after the good ones.
	zw := gzip.NewWriter(&gz)
	zw.Write(recs[1])
	zw.Close()
	b := gz.Bytes()
	b = append(b[:len(b)-40], b[len(b)-20:]...)
	gzPath := filepath.Join(dir, "bad.warc.gz")
	var tail bytes.Buffer
	zw = gzip.NewWriter(&tail)
	zw.Write(recs[5])
	zw.Close()
	if err := os.WriteFile(gzPath, append(b, tail.Bytes()...), 0o644); err != nil {
		t.Fatal(err)
	}

	for _, path := range []string{plain, gzPath} {
		t.Run(filepath.Base(path), func(t *testing.T) {
			got, rerrs := readAll(t, path)
			if len(rerrs) < 2 {
				t.Errorf("record errors %v, want >= 2", rerrs)
			}
			for _, e := range rerrs {
				if e.File != path || e.Err == nil || !strings.Contains(e.Error(), "offset") {
					t.Errorf("RecordError %#v", e)
				}
			}
			var types []string
			for _, r := range got {
				types = append(types, r.Type)
			}
			// warcinfo, request, (truncated response skipped), request?, ...:
			// whatever follows the bad records must still come out.
			if len(got) < 4 || got[len(got)-1].Type != "revisit" && got[len(got)-1].Type != "response" {
				t.Errorf("records after the bad ones: %v", types)
			}
			t.Logf("types %v; errors %v", types, rerrs)
		})
	}
}
