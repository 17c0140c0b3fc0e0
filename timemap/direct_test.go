package timemap

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/offtopic/offtopic/internal/testcorpus"
)

// recordTrace reads every record of path, directly where the reader may or
// through gowarc for every record, and describes each record (all fields,
// the body's hash) or record error on one line.
func recordTrace(t *testing.T, path string, viaGowarc bool) []string {
	t.Helper()
	rr, err := OpenRecords(path, ReadOptions{})
	if err != nil {
		return []string{err.Error()}
	}
	defer rr.Close()
	if ws, ok := rr.src.(*warcSource); ok {
		ws.viaGowarc = viaGowarc
	}
	var out []string
	for {
		rec, err := rr.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			out = append(out, "error: "+err.Error())
			var re *RecordError
			if !errors.As(err, &re) {
				return out
			}
			continue
		}
		body, err := io.ReadAll(rec.Body)
		if err != nil {
			t.Fatalf("%s: body: %v", path, err)
		}
		if rec.Type == "request" {
			// gowarc hands out a request block re-rendered from its
			// parsed head; read directly, it is the bytes recorded.
			body = nil
		}
		http := "none"
		if rec.HTTP != nil {
			http = fmt.Sprintf("%+v", *rec.HTTP)
		}
		out = append(out, fmt.Sprintf("%s %q %s %q %s %q %q %q %q %s %q %q %d %v %+v http=%s cut=%v body=%x",
			rec.Format, rec.Version, rec.Type, rec.TargetURI, rec.Date, rec.RecordID, rec.PayloadDigest,
			rec.RefersTo, rec.RefersToTargetURI, rec.RefersToDate, rec.Profile, rec.ContentType,
			rec.ContentLength, rec.Fields, rec.Loc, http, rec.BodyCut, sha256.Sum256(body)))
	}
}

// TestDirectReadAgreesWithGowarc: records read directly (small blocks whose
// payload digest is stated) come out exactly as read through gowarc, on
// every WARC fixture (pywb, wget, wpull, Archive-It, broken ones included),
// on a WARC of the dev corpus and on damaged copies of one.
func TestDirectReadAgreesWithGowarc(t *testing.T) {
	testcorpus.SkipShort(t, "every WARC fixture, a WARC of corpus/dev and damaged copies of it, twice")
	files, err := filepath.Glob(fixture(t, "warc/*"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no WARC fixtures: %v", err)
	}
	files = append(files, filepath.Join(sharedDir(t), "corpus/dev/ARCHIVEIT-3001-CRAWL-20050110033641-00000.warc.gz"))
	plain := plainDevWARC(t)
	recs := splitWARC(t, plain)
	const k = 40
	damage := map[string]func(string) string{
		"negative-length": func(string) string { return "-5" },
		"short-length":    func(n string) string { return n[:len(n)-1] },
		"long-length":     func(n string) string { return n + "0" },
	}
	for name, f := range damage {
		rec := recs[k]
		i := bytes.Index(rec, []byte("Content-Length: ")) + len("Content-Length: ")
		j := i + bytes.IndexByte(rec[i:], '\r')
		bad := append(append(append([]byte(nil), rec[:i]...), f(string(rec[i:j]))...), rec[j:]...)
		file := append(append(bytes.Join(recs[:k], nil), bad...), bytes.Join(recs[k+1:], nil)...)
		files = append(files, writeTemp(t, name+".warc", file))
	}
	direct := 0
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			got, want := recordTrace(t, path, false), recordTrace(t, path, true)
			if len(got) != len(want) {
				t.Fatalf("%d records and errors read directly, %d through gowarc", len(got), len(want))
			}
			for i := range got {
				if got[i] != want[i] {
					d := 0
					for d < len(got[i]) && d < len(want[i]) && got[i][d] == want[i][d] {
						d++
					}
					from := max(d-200, 0)
					t.Errorf("item %d differs after %q:\ndirect ...%s\ngowarc ...%s", i, got[i][:min(len(got[i]), 120)], got[i][from:], want[i][from:])
				}
			}
			if strings.Contains(filepath.Base(path), "ARCHIVEIT") {
				direct = len(got)
			}
		})
	}
	if direct == 0 {
		t.Error("the dev WARC gave no records")
	}
}
