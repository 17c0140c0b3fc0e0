package timemap

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/offtopic/offtopic/internal/testcorpus"
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

// largeFixture reports whether reading the records of fixture across members
// takes seconds (each record is read again from its member by ReadResponse):
// such cases skip under -short.
func largeFixture(fixture string) bool {
	return fixture == "warc/pywb-iana.warc.gz" || fixture == "arc/aut-example.arc.gz"
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
		{"warc/pywb-iana.warc.gz", 64 << 10}, // members larger than the buffers (large: not under -short)
		{"warc/pywb-iana.warc.gz", 5000},
	} {
		t.Run(tc.fixture+"/"+itoa(int64(tc.size)), func(t *testing.T) {
			if largeFixture(tc.fixture) {
				testcorpus.SkipShort(t, tc.fixture+" cut into members")
			}
			src := plainFixture(t, tc.fixture)
			whole, werrs := readAll(t, writeTemp(t, "whole.warc.gz", gzipFixed(src, len(src))))
			if len(werrs) > 0 || len(whole) == 0 {
				t.Fatalf("whole-stream read: %d records, errors %v", len(whole), werrs)
			}
			got, rerrs := readAll(t, writeTemp(t, "fixed.warc.gz", gzipFixed(src, tc.size)))
			payloads := NewPayloads()
			defer payloads.Close()
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
				if r.Type == "response" && r.HTTP != nil {
					// The payload reader's fast path for one-record members
					// read only the first member of a record's run.
					_, body, err := payloads.Read(context.Background(), Capture{Payload: r.Loc})
					if err != nil || !bytes.Equal(body, r.Payload) {
						t.Fatalf("record %d: Payloads.Read(%+v): %d bytes, %v; want %d", i, r.Loc, len(body), err, len(r.Payload))
					}
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

// TestARCRecordAcrossMembers: the same for ARC files whose writer cut gzip
// members at fixed sizes (issue 23 item 2).
func TestARCRecordAcrossMembers(t *testing.T) {
	for _, tc := range []struct {
		fixture string
		size    int
	}{
		{"arc/pywb-example.arc", 100},
		{"arc/pywb-example.arc", 700},
		{"arc/aut-example.arc.gz", 5000}, // large: not under -short
		{"arc/aut-example.arc.gz", 64 << 10},
	} {
		t.Run(tc.fixture+"/"+itoa(int64(tc.size)), func(t *testing.T) {
			if largeFixture(tc.fixture) {
				testcorpus.SkipShort(t, tc.fixture+" cut into members")
			}
			src := plainFixture(t, tc.fixture)
			whole, werrs := readAll(t, writeTemp(t, "whole.arc.gz", gzipFixed(src, len(src))))
			if len(whole) == 0 {
				t.Fatalf("whole-stream read: no records, errors %v", werrs)
			}
			got, rerrs := readAll(t, writeTemp(t, "fixed.arc.gz", gzipFixed(src, tc.size)))
			if len(rerrs) != len(werrs) {
				t.Errorf("record errors %v, a whole-stream reader has %v", rerrs, werrs)
			}
			if len(got) != len(whole) {
				t.Fatalf("%d records read, a whole-stream reader reads %d", len(got), len(whole))
			}
			for i, r := range got {
				w := whole[i]
				if r.TargetURI != w.TargetURI || !r.Date.Equal(w.Date) || !bytes.Equal(r.Payload, w.Payload) {
					t.Fatalf("record %d: %s (%d bytes), want %s (%d bytes)", i, r.TargetURI, len(r.Payload), w.TargetURI, len(w.Payload))
				}
				if i%30 != 0 && i != len(got)-1 {
					continue // each re-read decompresses from the first member of its run
				}
				resp, err := ReadResponse(r.Loc, -1)
				if err != nil {
					t.Fatalf("record %d: ReadResponse(%+v): %v", i, r.Loc, err)
				}
				if resp.Record.TargetURI != r.TargetURI || !bytes.Equal(resp.Body, r.Payload) {
					t.Fatalf("record %d: ReadResponse(%+v) read %s (%d bytes), want %s (%d bytes)", i, r.Loc, resp.Record.TargetURI, len(resp.Body), r.TargetURI, len(r.Payload))
				}
			}
		})
	}
}

// TestPayloadAcrossMembers: a response record split across members from
// its first byte is located by its first member with the run's length;
// the payload reader's fast path read only the first member and returned
// the body cut short, without an error.
func TestPayloadAcrossMembers(t *testing.T) {
	body := strings.Repeat("<p>lighthouse keepers</p>\n", 200)
	rec := "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: http://example.com/\r\n" +
		"WARC-Date: 2014-01-03T03:03:21Z\r\nContent-Type: application/http; msgtype=response\r\n" +
		"Content-Length: " + itoa(int64(len("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n")+len(body))) + "\r\n\r\n" +
		"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n" + body + "\r\n\r\n"
	for _, size := range []int{500, 2000, len(rec) - 3} {
		t.Run(itoa(int64(size)), func(t *testing.T) {
			got, rerrs := readAll(t, writeTemp(t, "one.warc.gz", gzipFixed([]byte(rec), size)))
			if len(got) != 1 || len(rerrs) != 0 || got[0].Loc.Length == 0 {
				t.Fatalf("records %d, errors %v, location %+v; want one record with a length", len(got), rerrs, got)
			}
			p := NewPayloads()
			defer p.Close()
			_, b, err := p.Read(context.Background(), Capture{Payload: got[0].Loc})
			if err != nil || string(b) != body {
				t.Errorf("Payloads.Read: %d bytes, %v; want %d", len(b), err, len(body))
			}
		})
	}
}

// plainFixture is a fixture's bytes, inflated where it is gzipped.
func plainFixture(t *testing.T, name string) []byte {
	t.Helper()
	src, err := os.ReadFile(fixture(t, name))
	if err != nil {
		t.Fatal(err)
	}
	if zr, err := gzip.NewReader(bytes.NewReader(src)); err == nil {
		if src, err = io.ReadAll(zr); err != nil {
			t.Fatal(err)
		}
	}
	return src
}
