package timemap

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestParseLinkFormatFiles(t *testing.T) {
	tests := []struct {
		file, original, self, timegate string
		n                              int
		first, last                    time.Time
		from                           time.Time
	}{
		{"wayback.link", "http://example.com:80/", "https://web.archive.org/web/timemap/link/http://example.com/", "https://web.archive.org", 4,
			time.Date(2002, 1, 20, 14, 25, 10, 0, time.UTC), time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2002, 7, 20, 21, 29, 4, 0, time.UTC)},
		{"pywb.link", "http://example.com?example=1", "http://localhost:8080/pywb/timemap/link/http://example.com?example=1", "http://localhost:8080/pywb/timegate/http://example.com?example=1", 2,
			time.Date(2014, 1, 3, 3, 3, 21, 0, time.UTC), time.Date(2014, 1, 3, 3, 3, 41, 0, time.UTC), time.Date(2014, 1, 3, 3, 3, 21, 0, time.UTC)},
		{"memgator.link", "http://www.cs.odu.edu/", "http://memgator.cs.odu.edu/timemap/link/http://www.cs.odu.edu/", "http://memgator.cs.odu.edu/timegate/http://www.cs.odu.edu/", 3,
			time.Date(1996, 12, 7, 23, 57, 30, 0, time.UTC), time.Date(2019, 3, 19, 12, 37, 12, 0, time.UTC), time.Date(1996, 12, 7, 23, 57, 30, 0, time.UTC)},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			f, err := os.Open(filepath.Join("testdata", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			tm, err := ParseLinkFormat(f)
			if err != nil {
				t.Fatal(err)
			}
			if tm.Original != tt.original || tm.Self != tt.self || tm.TimeGate != tt.timegate {
				t.Errorf("original %q self %q timegate %q", tm.Original, tm.Self, tm.TimeGate)
			}
			if len(tm.Mementos) != tt.n {
				t.Fatalf("%d mementos, want %d", len(tm.Mementos), tt.n)
			}
			if !tm.Mementos[0].Datetime.Equal(tt.first) || !tm.Mementos[tt.n-1].Datetime.Equal(tt.last) || !tm.From.Equal(tt.from) {
				t.Errorf("first %v last %v from %v", tm.Mementos[0].Datetime, tm.Mementos[tt.n-1].Datetime, tm.From)
			}
		})
	}
	t.Run("memgator extras", func(t *testing.T) {
		f, _ := os.Open(filepath.Join("testdata", "memgator.link"))
		defer f.Close()
		tm, err := ParseLinkFormat(f)
		if err != nil {
			t.Fatal(err)
		}
		if got := tm.Links[2].Params["license"]; got != "https://creativecommons.org/licenses/by/4.0/" {
			t.Errorf("license = %q", got)
		}
		if !slices.Equal(tm.Mementos[2].Rels, []string{"last", "memento"}) {
			t.Errorf("bare rel token set parsed as %q", tm.Mementos[2].Rels)
		}
	})
}

func TestParseLinkFormatErrors(t *testing.T) {
	for _, in := range []string{
		`http://example.com/; rel="original"`,
		`<http://example.com/; rel="original"`,
		// A datetime that is no date is no longer an error (issue 23 item
		// 10): see TestLinkFormatOddDatetimes.
		`<http://a/>; rel="original"; title="unterminated`,
	} {
		if _, err := ParseLinkFormat(strings.NewReader(in)); err == nil {
			t.Errorf("ParseLinkFormat(%q): no error", in)
		}
	}
}

func TestParseTimeMapJSON(t *testing.T) {
	f, err := os.Open(filepath.Join("testdata", "memgator.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tm, err := ParseTimeMapJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	if tm.Original != "http://www.cs.odu.edu/" || len(tm.Mementos) != 3 || tm.TimeGate == "" ||
		!tm.Until.Equal(time.Date(2019, 3, 19, 12, 37, 12, 0, time.UTC)) {
		t.Errorf("parsed %+v", tm)
	}
}

func sampleTimeMap() *TimeMap {
	tm := &TimeMap{Key: "com,example)/page?a=1&b=2", URIR: "http://www.example.com/page?b=2&a=1"}
	for i, d := range []time.Time{
		time.Date(2005, 1, 10, 3, 36, 41, 0, time.UTC),
		time.Date(2006, 2, 12, 10, 36, 32, 0, time.UTC),
		time.Date(2007, 4, 25, 16, 50, 27, 0, time.UTC),
	} {
		tm.Captures = append(tm.Captures, Capture{Key: tm.Key, URIR: tm.URIR, Time: d, Status: 200, MIME: "text/html",
			Loc: Location{File: "/data/a.warc.gz", Offset: int64(1000 * i), Length: 500}})
	}
	return tm
}

func TestLinkFormatRoundTrip(t *testing.T) {
	opts := LinkOptions{ArchivePrefix: "http://archive.example.org/3001/"}
	for n := 1; n <= 3; n++ {
		tm := sampleTimeMap()
		tm.Captures = tm.Captures[:n]
		var buf bytes.Buffer
		if err := WriteLinkFormat(&buf, tm, opts); err != nil {
			t.Fatal(err)
		}
		got, err := ParseLinkFormat(&buf)
		if err != nil {
			t.Fatalf("%v\n%s", err, buf.String())
		}
		if got.Original != tm.URIR || got.Self != "http://archive.example.org/3001/timemap/link/"+tm.URIR ||
			got.TimeGate != "http://archive.example.org/3001/"+tm.URIR {
			t.Errorf("got %+v", got)
		}
		if len(got.Mementos) != n || !got.From.Equal(tm.Captures[0].Time) || !got.Until.Equal(tm.Captures[n-1].Time) {
			t.Fatalf("n=%d: got %+v", n, got)
		}
		for i, m := range got.Mementos {
			c := tm.Captures[i]
			if m.URI != URIM(opts.ArchivePrefix, c) || !m.Datetime.Equal(c.Time) {
				t.Errorf("memento %d = %+v", i, m)
			}
			first, last := slices.Contains(m.Rels, "first"), slices.Contains(m.Rels, "last")
			if first != (i == 0) || last != (i == n-1) {
				t.Errorf("n=%d memento %d rels %q", n, i, m.Rels)
			}
		}
	}
	if got := URIM("http://archive.example.org/3001/", sampleTimeMap().Captures[0]); got != "http://archive.example.org/3001/20050110033641/http://www.example.com/page?b=2&a=1" {
		t.Errorf("URIM = %q", got)
	}
}

func TestTimeMapJSONRoundTrip(t *testing.T) {
	tm := sampleTimeMap()
	var buf bytes.Buffer
	if err := WriteTimeMapJSON(&buf, tm, LinkOptions{ArchivePrefix: "http://archive.example.org/3001"}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"original_uri": "http://www.example.com/page?b=2&a=1"`, `"first": {`, `"last": {`, `"timemap_uri": {`, `"link_format":`} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("JSON lacks %s:\n%s", want, buf.String())
		}
	}
	got, err := ParseTimeMapJSON(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Mementos) != 3 || !got.Mementos[2].Datetime.Equal(tm.Captures[2].Time) || got.Mementos[0].URI != URIM("http://archive.example.org/3001", tm.Captures[0]) {
		t.Errorf("got %+v", got)
	}
}

// TestCDXJ writes the CDXJ index of fixture WARCs and reads it back; it also
// reads pywb's own CDXJ of the same WARC and compares the entries.
func TestCDXJ(t *testing.T) {
	path := fixture(t, "warc/pywb-iana.warc.gz")
	idx, _ := buildIndex(t, []string{path}, IndexOptions{})
	var buf bytes.Buffer
	if err := WriteCDXJ(&buf, idx.Captures()); err != nil {
		t.Fatal(err)
	}
	if idx.Err() != nil {
		t.Fatal(idx.Err())
	}
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if !slices.IsSorted(lines) {
		t.Error("CDXJ lines not sorted")
	}
	var ours []Capture
	for c, err := range ReadCDXJ(bytes.NewReader(buf.Bytes()), filepath.Dir(path)) {
		if err != nil {
			t.Fatal(err)
		}
		ours = append(ours, c)
	}
	var all []Capture
	for c := range idx.Captures() {
		all = append(all, c)
	}
	if len(ours) != len(all) || len(ours) != 171 {
		t.Fatalf("read back %d captures, index has %d", len(ours), len(all))
	}
	for i := range ours {
		a, b := ours[i], all[i]
		if a.Key != b.Key || !a.Time.Equal(b.Time) || a.URIR != b.URIR || a.Loc != b.Loc || a.Revisit != b.Revisit || (!a.Revisit && a.Status != b.Status) {
			t.Fatalf("line %d: read %+v, index %+v", i+1, a, b)
		}
	}
	// pywb's index of the same file: same keys, times, offsets and lengths.
	f, err := os.Open(fixture(t, "cdxj/pywb-iana.cdxj"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	type k struct {
		key, ts string
		off     int64
	}
	pywb := map[k]Capture{}
	for c, err := range ReadCDXJ(f, "") {
		if err != nil {
			t.Fatal(err)
		}
		pywb[k{c.Key, c.Timestamp14(), c.Loc.Offset}] = c
	}
	if len(pywb) != len(ours) {
		t.Errorf("pywb has %d entries, we have %d", len(pywb), len(ours))
	}
	for _, c := range ours {
		p, ok := pywb[k{c.Key, c.Timestamp14(), c.Loc.Offset}]
		if !ok {
			t.Errorf("no pywb entry for %s %s @%d", c.Key, c.Timestamp14(), c.Loc.Offset)
			continue
		}
		if p.Loc.Length != c.Loc.Length || p.MIME != c.MIME || p.Status != c.Status || normDigest(p.Digest) != normDigest(c.Digest) {
			t.Errorf("%s %s: pywb %+v, ours %+v", c.Key, c.Timestamp14(), p, c)
		}
	}
}

func TestWriteCDXJLine(t *testing.T) {
	c := sampleTimeMap().Captures[0]
	c.Digest = "sha1:B2LTWWPUOYAH7UIPQ7ZUPQ4VMBSVC36A"
	got := string(appendCDXJ(nil, c))
	want := `com,example)/page?a=1&b=2 20050110033641 {"url": "http://www.example.com/page?b=2&a=1", "mime": "text/html", "status": "200", "digest": "B2LTWWPUOYAH7UIPQ7ZUPQ4VMBSVC36A", "length": "500", "offset": "0", "filename": "a.warc.gz"}` + "\n"
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	_ = context.Background
}
