package timemap

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/nlnwa/gowarc/v2"
)

// gowarcCount counts the records plain gowarc v2.0.1 returns for path with
// its default options, to document the losses our layer makes up for.
func gowarcCount(t *testing.T, path string) (n int, statuses []int) {
	t.Helper()
	r, err := gowarc.NewWarcFileReader(path, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for {
		rec, _, _, err := r.Next()
		if err != nil {
			return n, statuses
		}
		n++
		if b, ok := rec.Block().(gowarc.HttpResponseBlock); ok {
			statuses = append(statuses, b.HttpStatusCode())
		}
		rec.Close()
	}
}

func TestWholeFileGzip(t *testing.T) {
	path := fixture(t, "warc/pywb-example-bad.warc.gz.bad")
	if n, _ := gowarcCount(t, path); n != 1 {
		t.Logf("note: gowarc alone now reads %d records (was 1)", n)
	}
	recs, rerrs := readAll(t, path)
	if len(recs) != 6 || len(rerrs) != 0 {
		t.Fatalf("got %d records, %v errors; want 6, none", len(recs), rerrs)
	}
	for i, r := range recs {
		if r.Loc.Offset != 0 {
			t.Errorf("record %d: Offset = %d, want 0 (one member)", i, r.Loc.Offset)
		}
		if (i == 0) != (r.Loc.MemberOffset == 0) {
			t.Errorf("record %d: MemberOffset = %d", i, r.Loc.MemberOffset)
		}
		if r.Loc.Length != 0 {
			t.Errorf("record %d: Length = %d, want 0 (not random-accessible)", i, r.Loc.Length)
		}
		if r.Type == "response" {
			resp, err := ReadResponse(r.Loc, 0)
			if err != nil {
				t.Fatalf("ReadResponse(%+v): %v", r.Loc, err)
			}
			if resp.Status != r.HTTP.Status || !bytes.Equal(resp.Body, r.Payload) {
				t.Errorf("ReadResponse(%+v) = %d, %d bytes; scan had %d, %d bytes", r.Loc, resp.Status, len(resp.Body), r.HTTP.Status, len(r.Payload))
			}
		}
	}
}

func TestAngleBracketTargetURI(t *testing.T) {
	recs, _ := readAll(t, fixture(t, "warc/aut-issue-514.warc"))
	n := 0
	for _, r := range recs {
		if r.Type != "response" && r.Type != "request" && r.Type != "resource" {
			continue
		}
		n++
		if !strings.Contains(r.TargetURI, "://") || strings.ContainsAny(r.TargetURI, "<>") {
			t.Errorf("%s record at %d: TargetURI = %q", r.Type, r.Loc.Offset, r.TargetURI)
		}
	}
	if n != 6 {
		t.Errorf("checked %d records, want 6", n)
	}
}

func TestLenientHTTPHead(t *testing.T) {
	t.Run("Content-Length -1", func(t *testing.T) {
		recs, _ := readAll(t, fixture(t, "warc/pywb-iana.warc.gz"))
		var responses, minus1 int
		for _, r := range recs {
			if r.Type != "response" {
				continue
			}
			responses++
			if r.HTTP == nil || r.HTTP.Status == 0 || len(r.HTTP.Header) == 0 {
				t.Errorf("response at %d: HTTP head %+v", r.Loc.Offset, r.HTTP)
				continue
			}
			if r.HTTP.Header.Get("Content-Length") == "-1" {
				minus1++
			}
		}
		if responses != 48 || minus1 != 25 {
			t.Errorf("responses = %d, with Content-Length -1 = %d; want 48, 25", responses, minus1)
		}
	})
	tests := []struct {
		file, proto string
		status      int
		header      string
	}{
		{"warc/pywb-example-extra.warc", "HTTPX/1.1", 200, "Content-Type"},
		{"warc/pywb-missing-status-text.warc", "HTTP/1.0", 302, "Location"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			recs, _ := readAll(t, fixture(t, tt.file))
			found := false
			for _, r := range recs {
				if r.HTTP != nil && r.HTTP.Proto == tt.proto {
					found = true
					if r.HTTP.Status != tt.status || r.HTTP.Header.Get(tt.header) == "" {
						t.Errorf("head = %+v", r.HTTP)
					}
				}
			}
			if !found {
				t.Errorf("no record with proto %s", tt.proto)
			}
		})
	}
}

func TestBodiesStayRaw(t *testing.T) {
	recs, _ := readAll(t, fixture(t, "warc/aut-issue-493.warc"))
	gz := 0
	for _, r := range recs {
		if r.Type == "response" && r.HTTP != nil && strings.EqualFold(r.HTTP.Header.Get("Content-Encoding"), "gzip") && r.HTTP.Status == 200 {
			if !bytes.HasPrefix(r.Payload, []byte{0x1f, 0x8b}) {
				t.Errorf("response at %d: body starts %q, want gzip magic", r.Loc.Offset, r.Payload[:min(8, len(r.Payload))])
			}
			gz++
		}
	}
	if gz == 0 {
		t.Error("no gzip-encoded response found")
	}
}

func TestMaxBodyBytes(t *testing.T) {
	rr, err := OpenRecords(fixture(t, "warc/pywb-example.warc.gz"), ReadOptions{MaxBodyBytes: 10})
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Close()
	for {
		rec, err := rr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(rec.Body)
		if len(b) > 10 {
			t.Errorf("%s body %d bytes, cap 10", rec.Type, len(b))
		}
	}
}

// TestReadResponseMatchesScan re-reads every response of several files by
// its location and compares with the scan.
func TestReadResponseMatchesScan(t *testing.T) {
	for _, f := range []string{"warc/pywb-example.warc", "warc/pywb-example.warc.gz", "warc/pywb-iana.warc.gz",
		"warc/aut-issue-493.warc", "warc/pywb-example-extra.warc", "arc/pywb-example.arc", "arc/pywb-example.arc.gz", "arc/aut-example.arc.gz"} {
		t.Run(f, func(t *testing.T) {
			recs, _ := readAll(t, fixture(t, f))
			n := 0
			for _, r := range recs {
				if r.Type != "response" {
					continue
				}
				n++
				resp, err := ReadResponse(r.Loc, 0)
				if err != nil {
					t.Fatalf("ReadResponse(%+v): %v", r.Loc, err)
				}
				status := 0
				if r.HTTP != nil {
					status = r.HTTP.Status
				}
				if resp.Status != status || !bytes.Equal(resp.Body, r.Payload) || resp.Record.TargetURI != r.TargetURI {
					t.Errorf("ReadResponse(%+v) = %d %q %d bytes; scan %d %q %d bytes", r.Loc, resp.Status, resp.Record.TargetURI, len(resp.Body), status, r.TargetURI, len(r.Payload))
				}
			}
			if n == 0 {
				t.Error("no responses")
			}
		})
	}
}

func TestBrokenARC(t *testing.T) {
	tests := []struct {
		file      string
		good      []string // target URIs of the records that come out
		minErrors int
	}{
		{"arc/pywb-bad.arc", []string{"http://example.com/"}, 3},
		// Its last record, cut short by the end of the file, is kept with the bytes there are (and reported).
		{"arc/aut-badexample.arc.gz", []string{"filedesc://IAH-20080430204825-00000-blackbook.arc", "dns:www.archive.org", "http://www.archive.org/robots.txt", "http://www.archive.org/"}, 3},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			path := fixture(t, tt.file)
			recs, rerrs := readAll(t, path)
			var got []string
			for _, r := range recs {
				got = append(got, r.TargetURI)
			}
			if strings.Join(got, " ") != strings.Join(tt.good, " ") {
				t.Errorf("records %q, want %q", got, tt.good)
			}
			if len(rerrs) < tt.minErrors {
				t.Errorf("%d record errors, want >= %d: %v", len(rerrs), tt.minErrors, rerrs)
			}
			for _, e := range rerrs {
				if e.File != path || !strings.Contains(e.Error(), "offset") || e.Err == nil {
					t.Errorf("bad RecordError %#v", e)
				}
			}
			t.Logf("errors: %v", rerrs)
		})
	}
}
