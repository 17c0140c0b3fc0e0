package timemap

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"testing"
)

// gzipFixed compresses data as gzip members of size decompressed bytes
// each, cut wherever size falls, as some writers do.
func gzipFixed(data []byte, size int) []byte {
	var out bytes.Buffer
	for len(data) > 0 {
		n := min(size, len(data))
		zw := gzip.NewWriter(&out)
		zw.Write(data[:n])
		zw.Close()
		data = data[n:]
	}
	return out.Bytes()
}

// TestRecordAcrossMembers reads WARC files whose writer cut gzip members at
// fixed sizes, so that record headers and blocks continue into the next
// member (issue 23 item 2: such records were reported truncated and lost).
// Every record a whole-stream reader gets is read, with no record error,
// and each is found again by its location.
func TestRecordAcrossMembers(t *testing.T) {
	for _, tc := range []struct {
		fixture string
		size    int
	}{
		{"warc/pywb-example.warc.gz", 100},  // headers cut too
		{"warc/pywb-example.warc.gz", 1000}, // blocks cut
		{"warc/pywb-example.warc.gz", 4096},
		{"warc/pywb-example-extra.warc", 777},
		{"warc/aut-example.txt.warc.gz", 1500},
		{"warc/pywb-iana.warc.gz", 64 << 10}, // members larger than the buffers
		{"warc/pywb-iana.warc.gz", 5000},
	} {
		t.Run(tc.fixture+"/"+itoa(int64(tc.size)), func(t *testing.T) {
			src, err := os.ReadFile(fixture(t, tc.fixture))
			if err != nil {
				t.Fatal(err)
			}
			if zr, err := gzip.NewReader(bytes.NewReader(src)); err == nil {
				if src, err = io.ReadAll(zr); err != nil {
					t.Fatal(err)
				}
			}
			whole, werrs := readAll(t, writeTemp(t, "whole.warc.gz", gzipFixed(src, len(src))))
			if len(werrs) > 0 || len(whole) == 0 {
				t.Fatalf("whole-stream read: %d records, errors %v", len(whole), werrs)
			}
			got, rerrs := readAll(t, writeTemp(t, "fixed.warc.gz", gzipFixed(src, tc.size)))
			for _, e := range rerrs {
				t.Errorf("record error: %v", e)
			}
			if len(got) != len(whole) {
				t.Fatalf("%d records read, a whole-stream reader reads %d", len(got), len(whole))
			}
			for i, r := range got {
				w := whole[i]
				if r.TargetURI != w.TargetURI || r.Type != w.Type || r.RecordID != w.RecordID || !bytes.Equal(r.Payload, w.Payload) {
					t.Fatalf("record %d: %s %s (%d bytes), want %s %s (%d bytes)", i, r.Type, r.TargetURI, len(r.Payload), w.Type, w.TargetURI, len(w.Payload))
				}
				resp, err := ReadResponse(r.Loc, -1)
				if err != nil {
					t.Fatalf("record %d: ReadResponse(%+v): %v", i, r.Loc, err)
				}
				if resp.Record.RecordID != r.RecordID {
					t.Fatalf("record %d: ReadResponse(%+v) read %s, want %s", i, r.Loc, resp.Record.RecordID, r.RecordID)
				}
			}
		})
	}
}

// TestCutRecordBeforeRecordMember: a record cut short whose next member
// starts a record is still reported truncated, and the next record read; it
// does not swallow the next member.
func TestCutRecordBeforeRecordMember(t *testing.T) {
	a := []byte(handWARC)
	cut := gzipFixed(a[:len(a)-20], len(a))
	for _, tc := range []struct {
		name string
		file []byte
	}{
		{"cut then record", append(bytes.Clone(cut), gzipFixed(a, len(a))...)},
		{"cut then white space and record", append(bytes.Clone(cut), gzipFixed(append([]byte("\r\n"), a...), len(a)+2)...)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, rerrs := readAll(t, writeTemp(t, "cut.warc.gz", tc.file))
			if len(got) != 1 || len(rerrs) != 1 || rerrs[0].Offset != 0 || !bytes.Contains([]byte(rerrs[0].Error()), []byte("truncated")) {
				t.Fatalf("%d records, errors %v; want 1 record and the first reported truncated at 0", len(got), rerrs)
			}
			if got[0].Loc.Offset != int64(len(cut)) {
				t.Errorf("record at %+v, want offset %d", got[0].Loc, len(cut))
			}
		})
	}
}
