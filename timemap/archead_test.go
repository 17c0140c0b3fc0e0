package timemap

import (
	"bytes"
	"compress/gzip"
	"os"
	"strings"
	"testing"
	"time"
)

// TestARCHeaderLenient damages the URL record header line of a real ARC
// file as crawlers wrote them (issue 23 item 3): a URL holding spaces was
// dropped without a word, a date longer than 14 digits lost its record.
// The URL is all fields but the last four (spaces kept as %20), the date
// its first 14 digits; what is still skipped is reported.
func TestARCHeaderLenient(t *testing.T) {
	src, err := os.ReadFile(fixture(t, "arc/pywb-example.arc"))
	if err != nil {
		t.Fatal(err)
	}
	const line = "http://example.com/ 93.184.216.119 20140216050221 text/html 1591"
	if !bytes.Contains(src, []byte(line)) {
		t.Fatal("fixture changed")
	}
	when := time.Date(2014, 2, 16, 5, 2, 21, 0, time.UTC)
	for _, tc := range []struct {
		name, line string
		uri        string // of the record read, "" when none is
		errs       int    // record errors
		msg        string // in the first
	}{
		{"as written", line, "http://example.com/", 0, ""},
		{"URL with spaces", "http://example.com/a b c.html 93.184.216.119 20140216050221 text/html 1591", "http://example.com/a%20b%20c.html", 0, ""},
		{"17-digit date", "http://example.com/ 93.184.216.119 20140216050221123 text/html 1591", "http://example.com/", 0, ""},
		{"date not digits", "http://example.com/ 93.184.216.119 2014021605022x text/html 1591", "", 1, "bad ARC date"},
		{"URL with spaces, bad length", "http://example.com/a b 93.184.216.119 20140216050221 text/html x", "", 1, "bad ARC length"},
	} {
		for _, gz := range []bool{false, true} {
			name := tc.name
			data := bytes.Replace(src, []byte(line), []byte(tc.line), 1)
			ext := ".arc"
			if gz {
				name += " gz"
				var b bytes.Buffer
				zw := gzip.NewWriter(&b)
				zw.Write(data)
				zw.Close()
				data, ext = b.Bytes(), ".arc.gz"
			}
			t.Run(name, func(t *testing.T) {
				recs, rerrs := readAll(t, writeTemp(t, "x"+ext, data))
				if len(rerrs) != tc.errs {
					t.Fatalf("record errors %v, want %d", rerrs, tc.errs)
				}
				if tc.errs > 0 && !strings.Contains(rerrs[0].Error(), tc.msg) {
					t.Errorf("record error %v, want %q", rerrs[0], tc.msg)
				}
				var got []readRec
				for _, r := range recs {
					if r.Type == "response" {
						got = append(got, r)
					}
				}
				if tc.uri == "" {
					if len(got) != 0 {
						t.Fatalf("read %s, want no response", got[0].TargetURI)
					}
					return
				}
				if len(got) != 1 || got[0].TargetURI != tc.uri || !got[0].Date.Equal(when) || got[0].HTTP == nil || got[0].HTTP.Status != 200 {
					t.Fatalf("responses %+v, want one of %s at %v", got, tc.uri, when)
				}
			})
		}
	}
}

// TestARCSkippedAfterBodyReported: lines after a record's body that are no
// header line were skipped without a word; they are now reported.
func TestARCSkippedAfterBodyReported(t *testing.T) {
	arc := "filedesc://x.arc 0.0.0.0 20050101000000 text/plain 9\n1 0 test\n\n\n" +
		"http://example.com/ 1.2.3.4 20050101000000 text/html 5\nhello\nnot a header line\n" +
		"http://example.com/b 1.2.3.4 20050101000000 text/html 5\nworld\n"
	recs, rerrs := readAll(t, writeTemp(t, "x.arc", []byte(arc)))
	if len(recs) != 3 {
		t.Errorf("%d records, want 3", len(recs))
	}
	if len(rerrs) != 1 || !strings.Contains(rerrs[0].Error(), "18 bytes skipped") || rerrs[0].Offset != int64(strings.Index(arc, "not a")) {
		t.Errorf("record errors %v, want 18 bytes skipped at %d", rerrs, strings.Index(arc, "not a"))
	}
}
