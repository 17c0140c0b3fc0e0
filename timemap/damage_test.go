package timemap

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/offtopic/offtopic/internal/testcorpus"
)

// readAllBounded is readAll run with a guard, so that a reader that loops
// fails the test instead of hanging it.
func readAllBounded(t *testing.T, path string) ([]readRec, []*RecordError) {
	t.Helper()
	type result struct {
		recs  []readRec
		rerrs []*RecordError
	}
	done := make(chan result, 1)
	go func() {
		recs, rerrs := readAllNoFatal(path)
		done <- result{recs, rerrs}
	}()
	select {
	case r := <-done:
		return r.recs, r.rerrs
	case <-time.After(60 * time.Second):
		t.Fatalf("%s: reading does not end", path)
		return nil, nil
	}
}

// readAllNoFatal reads every record of path, returning records (bodies
// drained into Payload) and record errors; a fatal read error comes last,
// as a RecordError with offset -1. Unlike readAll it may run off the test
// goroutine.
func readAllNoFatal(path string) ([]readRec, []*RecordError) {
	rr, err := OpenRecords(path, ReadOptions{})
	if err != nil {
		return nil, []*RecordError{{File: path, Offset: -1, Err: err}}
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
			return recs, append(rerrs, &RecordError{File: path, Offset: -1, Err: err})
		}
		body, err := io.ReadAll(rec.Body)
		if err != nil {
			return recs, append(rerrs, &RecordError{File: path, Offset: -1, Err: fmt.Errorf("reading body at %d: %w", rec.Loc.Offset, err)})
		}
		recs = append(recs, readRec{rec, body})
	}
	return recs, append(rerrs, &RecordError{File: path, Offset: -1, Err: errors.New("too many records (loop?)")})
}

// gzipMembers returns the start offsets of the gzip members of b (one record
// each) found by decompressing member by member.
func gzipMembers(t *testing.T, b []byte) []int64 {
	t.Helper()
	var offs []int64
	br := bytes.NewReader(b)
	for br.Len() > 0 {
		off := int64(len(b) - br.Len())
		zr, err := gzip.NewReader(br)
		if err != nil {
			t.Fatalf("member at %d: %v", off, err)
		}
		zr.Multistream(false)
		if _, err := io.Copy(io.Discard, zr); err != nil {
			t.Fatalf("member at %d: %v", off, err)
		}
		offs = append(offs, off)
	}
	return offs
}

// TestCutGzipWARCEnds cuts a .warc.gz of the dev corpus inside record
// headers (issue 12 item 0: gowarc's lenient header parser looped forever
// on the cut member): every record before the cut is read, the cut one is
// reported with the offset of its member, and reading ends.
func TestCutGzipWARCEnds(t *testing.T) {
	src, err := os.ReadFile(testcorpus.Path(t, "corpus/dev/ARCHIVEIT-3001-CRAWL-20050110033641-00000.warc.gz"))
	if err != nil {
		t.Fatal(err)
	}
	members := gzipMembers(t, src)
	for _, tc := range []struct {
		name   string
		cut    int64 // file length
		member int   // index of the cut member
	}{
		{"reported", 1374802, -1},
		{"member 100 + 30", members[100] + 30, 100},
		{"member 101 + 60", members[101] + 60, 101},
		{"member 102 + 12", members[102] + 12, 102},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := tc.member
			if m < 0 {
				for m = 0; m+1 < len(members) && members[m+1] <= tc.cut; m++ {
				}
			}
			path := writeTemp(t, "cut.warc.gz", src[:tc.cut])
			recs, rerrs := readAllBounded(t, path)
			if len(recs) != m {
				t.Errorf("%d records, want the %d before the cut member", len(recs), m)
			}
			if len(rerrs) != 1 || rerrs[0].Offset != members[m] || !errors.Is(rerrs[0].Err, errTruncated) {
				t.Errorf("record errors %v, want one truncated record at offset %d", rerrs, members[m])
			}
		})
	}
}

// plainFixture returns the records of the plain pywb-example-extra WARC
// fixture, split at record starts, and their offsets.
func plainDevWARC(t *testing.T) []byte {
	t.Helper()
	src, err := os.ReadFile(testcorpus.Path(t, "corpus/dev/ARCHIVEIT-3002-CRAWL-20070713104904-00002.warc.gz"))
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	plain, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return plain
}

// TestPlainWARCDamageReported damages an uncompressed WARC of the dev corpus
// (issue 12 items 0 and 12): each kind of damage is reported once with the
// file and the offset where it is, and every other record is read.
func TestPlainWARCDamageReported(t *testing.T) {
	plain := plainDevWARC(t)
	recs := splitWARC(t, plain)
	total := len(recs)
	offs := make([]int, len(recs))
	for i := 1; i < len(recs); i++ {
		offs[i] = offs[i-1] + len(recs[i-1])
	}
	const k = 40 // the damaged record
	setCL := func(rec []byte, f func(n int) string) []byte {
		i := bytes.Index(rec, []byte("Content-Length: "))
		j := i + bytes.IndexByte(rec[i:], '\r')
		var n int
		fmt.Sscan(string(rec[i+16:j]), &n)
		return append(append(append([]byte(nil), rec[:i+16]...), f(n)...), rec[j:]...)
	}
	join := func(k int, rec []byte) []byte {
		out := append([]byte(nil), bytes.Join(recs[:k], nil)...)
		out = append(out, rec...)
		return append(out, bytes.Join(recs[k+1:], nil)...)
	}
	for _, tc := range []struct {
		name     string
		file     []byte
		wantRecs int
		wantOff  int
		wantErr  string
	}{
		{"negative Content-Length", join(k, setCL(recs[k], func(int) string { return "-5" })), total - 1, offs[k], `bad Content-Length "-5"`},
		// 100 bytes of block and the end-of-record marker are left over.
		{"Content-Length 100 short", join(k, setCL(recs[k], func(n int) string { return fmt.Sprint(n - 100) })), total, offs[k+1] - 104, "104 bytes of garbage before the record at offset " + fmt.Sprint(offs[k+1])},
		{"500 junk bytes", join(k, append(append([]byte(nil), recs[k]...), bytes.Repeat([]byte("junk "), 100)...)), total, offs[k+1], "500 bytes of garbage before the record at offset " + fmt.Sprint(offs[k+1]+500)},
		{"Content-Length 100 long", join(k, setCL(recs[k], func(n int) string { return fmt.Sprint(n + 100) })), total - 1, offs[k], "runs into the next record at offset " + fmt.Sprint(offs[k+1])},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := writeTemp(t, "damaged.warc", tc.file)
			got, rerrs := readAllBounded(t, path)
			if len(got) != tc.wantRecs {
				t.Errorf("%d records, want %d", len(got), tc.wantRecs)
			}
			if len(rerrs) != 1 {
				t.Fatalf("record errors %v, want 1", rerrs)
			}
			e := rerrs[0]
			if e.File != path || e.Offset != int64(tc.wantOff) || !strings.Contains(e.Error(), tc.wantErr) {
				t.Errorf("record error %v, want %s at offset %d", e, tc.wantErr, tc.wantOff)
			}
		})
	}
}

// hugeRecordWARC returns a .warc.gz holding a response whose body is size
// zero bytes, followed by handWARC.
func hugeRecordWARC(t *testing.T, size int64) []byte {
	t.Helper()
	head := "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n"
	var b bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&b, gzip.BestSpeed)
	fmt.Fprintf(zw, "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: http://example.com/huge\r\n"+
		"WARC-Date: 2014-01-03T03:03:20Z\r\nContent-Type: application/http; msgtype=response\r\n"+
		"Content-Length: %d\r\n\r\n%s", int64(len(head))+size, head)
	if _, err := io.CopyN(zw, zeros{}, size); err != nil {
		t.Fatal(err)
	}
	zw.Write([]byte("\r\n\r\n"))
	zw.Close()
	zw = gzip.NewWriter(&b)
	zw.Write([]byte(handWARC))
	zw.Close()
	return b.Bytes()
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) { clear(p); return len(p), nil }

// dirBytes sums the sizes of the files under dir.
func dirBytes(t *testing.T, dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(_ string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}

// TestHugeRecordSpooledToCap reads a record whose block is 64 MiB (issue 12
// item 13): no more than the body cap and room for the HTTP head reaches the
// temp directory, the body is cut at the cap and says so, the rest of the
// block is skipped, and the record after it is read.
func TestHugeRecordSpooledToCap(t *testing.T) {
	const size = 64 << 20
	path := writeTemp(t, "huge.warc.gz", hugeRecordWARC(t, size))
	tmp := t.TempDir()
	const maxBody = 4 << 20
	opts := ReadOptions{TempDir: tmp, MaxBodyBytes: maxBody}
	rr, err := OpenRecords(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Close()
	rec, err := rr.Next()
	if err != nil {
		t.Fatal(err)
	}
	if spooled := dirBytes(t, tmp); spooled > opts.spoolCap() {
		t.Errorf("%d bytes spooled for a body capped at %d", spooled, maxBody)
	}
	body, err := io.ReadAll(rec.Body)
	if err != nil {
		t.Fatal(err)
	}
	if !rec.BodyCut || len(body) != maxBody || rec.ContentLength <= size {
		t.Errorf("BodyCut %v, %d body bytes, Content-Length %d; want cut at %d", rec.BodyCut, len(body), rec.ContentLength, maxBody)
	}
	rec, err = rr.Next()
	if err != nil || rec.TargetURI != "http://example.com/" || rec.BodyCut {
		t.Fatalf("record after the huge one: %+v, %v", rec, err)
	}
	if _, err := rr.Next(); err != io.EOF {
		t.Errorf("after the last record: %v", err)
	}
	// BuildIndex counts the cut payload.
	idx, err := BuildIndex(context.Background(), []string{path}, IndexOptions{Read: opts})
	if err != nil {
		t.Fatal(err)
	}
	defer idx.Close()
	if st := idx.Stats(); st.Cut != 1 || st.Captures != 2 {
		t.Errorf("index stats: %d cut of %d captures, want 1 of 2", st.Cut, st.Captures)
	}
}
