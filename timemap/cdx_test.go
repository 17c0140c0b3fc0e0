package timemap

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func readCDXAll(t testing.TB, path string, opts CDXOptions) ([]Capture, []error) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var caps []Capture
	var errs []error
	for c, err := range ReadCDX(f, path, opts) {
		if err != nil {
			errs = append(errs, err)
			continue
		}
		caps = append(caps, c)
	}
	return caps, errs
}

func TestReadCDXFixtures(t *testing.T) {
	var files []string
	for _, pat := range []string{"cdx/*.cdx", "cdxj/*.cdxj"} {
		m, err := filepath.Glob(fixture(t, pat))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) == 0 {
		t.Skip("no CDX fixtures")
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			caps, errs := readCDXAll(t, path, CDXOptions{})
			if len(caps) == 0 {
				t.Errorf("no captures")
			}
			if filepath.Base(path) != "pywb-bad.cdx" && len(errs) > 0 {
				t.Errorf("errors: %v", errs)
			}
			for _, c := range caps {
				if c.Key == "" || c.URIR == "" || c.Time.IsZero() {
					t.Errorf("incomplete capture %+v", c)
				}
				if c.Key != Canonicalize(c.URIR, CanonSURT) {
					t.Errorf("key %q not recomputed from %q", c.Key, c.URIR)
				}
				if c.Revisit != c.Payload.IsZero() {
					t.Errorf("revisit %v with payload %+v", c.Revisit, c.Payload)
				}
			}
		})
	}
}

func TestReadCDXLines(t *testing.T) {
	ts := time.Date(2014, 1, 3, 3, 3, 21, 0, time.UTC)
	tests := []struct {
		name    string
		in      string
		want    []Capture
		errLine []int
	}{
		{
			name: "cdx11 header",
			in: " CDX N b a m s k r M S V g\n" +
				"com,example)/?example=1 20140103030321 http://example.com?example=1 text/html 200 B2LTWWPUOYAH7UIPQ7ZUPQ4VMBSVC36A - - 1043 333 example.warc.gz\n",
			want: []Capture{{Key: "com,example)/?example=1", URIR: "http://example.com?example=1", Time: ts, Status: 200, MIME: "text/html",
				Digest: "sha1:B2LTWWPUOYAH7UIPQ7ZUPQ4VMBSVC36A", Length: 1043,
				Loc: Location{File: "/w/example.warc.gz", Offset: 333, Length: 1043}, Payload: Location{File: "/w/example.warc.gz", Offset: 333, Length: 1043}}},
		},
		{
			name: "cdx9 header, revisit",
			in: " CDX N b a m s k r V g\n" +
				"com,example)/ 20140103030321 http://example.com/ warc/revisit - ABC - 7 a.warc\n",
			want: []Capture{{Key: "com,example)/", URIR: "http://example.com/", Time: ts, Digest: "ABC", Revisit: true,
				Loc: Location{File: "/w/a.warc", Offset: 7}}},
		},
		{
			name: "no header: 11 and 9 fields, other legend letters",
			in: "com,example)/ 20140103030321 http://example.com/ text/html 200 - - - 10 20 a.warc\n" +
				"com,example)/ 20140103030321 http://example.com/ unk - - - 20 /abs/a.warc\n",
			want: []Capture{
				{Key: "com,example)/", URIR: "http://example.com/", Time: ts, Status: 200, MIME: "text/html", Length: 10,
					Loc: Location{File: "/w/a.warc", Offset: 20, Length: 10}, Payload: Location{File: "/w/a.warc", Offset: 20, Length: 10}},
				{Key: "com,example)/", URIR: "http://example.com/", Time: ts,
					Loc: Location{File: "/abs/a.warc", Offset: 20}, Payload: Location{File: "/abs/a.warc", Offset: 20}},
			},
		},
		{
			name: "custom legend, non-SURT key, CDXJ line without final newline",
			in: " CDX a b g V\n" +
				"http://WWW.Example.com/A 20140103030321 a.warc 5\n" +
				`example.com/b 20140103030321 {"url": "http://example.com/b", "mime": "text/html; charset=utf-8", "status": "404", "offset": "9", "length": "3", "filename": "b.warc", "member_offset": "4"}`,
			want: []Capture{
				{Key: "com,example)/a", URIR: "http://WWW.Example.com/A", Time: ts,
					Loc: Location{File: "/w/a.warc", Offset: 5}, Payload: Location{File: "/w/a.warc", Offset: 5}},
				{Key: "com,example)/b", URIR: "http://example.com/b", Time: ts, Status: 404, MIME: "text/html", Length: 3,
					Loc: Location{File: "/w/b.warc", Offset: 9, Length: 3, MemberOffset: 4}, Payload: Location{File: "/w/b.warc", Offset: 9, Length: 3, MemberOffset: 4}},
			},
		},
		{
			name: "skipped lines and errors",
			in: "!meta {}\n\n" +
				"dns:example.com 20140103030321 dns:example.com text/dns - - - - 1 2 a.warc\n" +
				"com,example)/ 20140103030321 http://example.com/ warc/request - - - - 1 2 a.warc\n" +
				"com,example)/ 2014x103030321 http://example.com/ text/html 200 - - - 1 2 a.warc\n" +
				"com,example)/ 20140103030321 http://example.com/ text/html 2x0 - - - 1 2 a.warc\n" +
				"com,example)/ 20140103030321 http://example.com/ text/html 200 - - - 1 a.warc\n" +
				"com,example)/ 20140103030321 {\"url\": broken}\n" +
				"com,example)/ 20140103030321 http://example.com/ text/html 200 - - - 1 -5 a.warc\n" +
				"com,example)/ 20140103030321 - text/html 200 - - - 1 5 a.warc\n",
			errLine: []int{5, 6, 7, 8, 9, 10},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, gz := range []bool{false, true} {
				in := []byte(tt.in)
				if gz {
					var b bytes.Buffer
					zw := gzip.NewWriter(&b)
					zw.Write(in)
					zw.Close()
					in = b.Bytes()
				}
				var got []Capture
				var lines []int
				for c, err := range ReadCDX(bytes.NewReader(in), "test.cdx", CDXOptions{WARCDir: "/w"}) {
					if err != nil {
						var ce *CDXError
						if !errors.As(err, &ce) || ce.File != "test.cdx" || !strings.Contains(err.Error(), "test.cdx:") {
							t.Errorf("error %v does not name the file and line", err)
						} else {
							lines = append(lines, ce.Line)
						}
						continue
					}
					got = append(got, c)
				}
				if len(got) != len(tt.want) {
					t.Fatalf("gz=%v: got %d captures %+v, want %d", gz, len(got), got, len(tt.want))
				}
				for i := range got {
					if !got[i].Time.Equal(tt.want[i].Time) {
						t.Errorf("capture %d time %v, want %v", i, got[i].Time, tt.want[i].Time)
					}
					got[i].Time = tt.want[i].Time
					if got[i] != tt.want[i] {
						t.Errorf("gz=%v capture %d:\n got %+v\nwant %+v", gz, i, got[i], tt.want[i])
					}
				}
				if fmt.Sprint(lines) != fmt.Sprint(tt.errLine) && (len(lines) > 0 || len(tt.errLine) > 0) {
					t.Errorf("gz=%v: error lines %v, want %v", gz, lines, tt.errLine)
				}
			}
		})
	}
}

func TestReadCDXBadFixture(t *testing.T) {
	path := fixture(t, "cdx/pywb-bad.cdx")
	caps, errs := readCDXAll(t, path, CDXOptions{})
	t.Logf("%d captures, errors: %v", len(caps), errs)
	for _, err := range errs {
		var ce *CDXError
		if !errors.As(err, &ce) || ce.Line == 0 || !strings.Contains(err.Error(), "pywb-bad.cdx:") {
			t.Errorf("error without file and line: %v", err)
		}
	}
}
