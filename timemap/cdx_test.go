package timemap

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
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
			// Issue 38 item 12: a file name that leads out of --warc-dir is not read.
			name: "file names leading out of the WARC directory",
			in: " CDX N b a m s k r V g\n" +
				"com,example)/ 20140103030321 http://example.com/ text/html 200 ABC - 7 ../x.warc.gz\n" +
				`com,example)/ 20140103030321 {"url": "http://example.com/", "offset": "9", "filename": "a/../../y.warc.gz"}` + "\n" +
				"com,example)/ 20140103030321 http://example.com/ text/html 200 ABC - 7 a/../b.warc\n",
			want: []Capture{{Key: "com,example)/", URIR: "http://example.com/", Time: ts, Status: 200, MIME: "text/html", Digest: "ABC",
				Loc: Location{File: "/w/b.warc", Offset: 7}, Payload: Location{File: "/w/b.warc", Offset: 7}}},
			errLine: []int{2, 3},
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

// linkWARCs makes a directory where the WARCs named by an index (by the
// names pywb's fixtures use) link to the shared fixtures, and returns it.
func linkWARCs(t *testing.T, names map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, fix := range names {
		abs, err := filepath.Abs(fixture(t, fix))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(abs, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// openIndex opens an index whose OnError collects into the returned slice.
func openIndex(t testing.TB, paths []string, opts CDXOptions) (*CDXIndex, *[]error) {
	t.Helper()
	errs := new([]error)
	opts.OnError = func(err error) { *errs = append(*errs, err) }
	idx, err := OpenIndex(paths, opts)
	if err != nil {
		t.Fatalf("OpenIndex: %v", err)
	}
	return idx, errs
}

// captureLine is what the comparison with BuildIndex looks at.
func captureLine(c Capture) string {
	return fmt.Sprintf("%s %s %d %s rev=%v loc=%s:%d+%d payload=%s:%d", c.Key, c.Timestamp14(), c.Status, c.MIME, c.Revisit,
		c.Loc.File, c.Loc.Offset, c.Loc.Length, c.Payload.File, c.Payload.Offset)
}

func timeMapLines(tms []*TimeMap, line func(Capture) string) []string {
	var out []string
	for _, tm := range tms {
		for _, c := range tm.Captures {
			if c.Key != tm.Key {
				out = append(out, "KEY MISMATCH "+tm.Key)
			}
			out = append(out, line(c))
		}
	}
	return out
}

func diffLines(t *testing.T, got, want []string) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%d captures, want %d", len(got), len(want))
	}
	n := 0
	for i := 0; i < min(len(got), len(want)); i++ {
		if got[i] != want[i] {
			t.Errorf("capture %d:\n got %s\nwant %s", i, got[i], want[i])
			if n++; n > 10 {
				return
			}
		}
	}
}

func TestCDXIndexMatchesWARC(t *testing.T) {
	tests := []struct {
		name  string
		index string
		warcs map[string]string
		line  func(Capture) string
	}{
		{"pywb-example.cdx", "cdx/pywb-example.cdx", map[string]string{"example.warc.gz": "warc/pywb-example.warc.gz"}, captureLine},
		// This CDXJ has neither mime nor status.
		{"pywb-example.cdxj", "cdxj/pywb-example.cdxj", map[string]string{"example.warc.gz": "warc/pywb-example.warc.gz"},
			func(c Capture) string {
				return fmt.Sprintf("%s %s rev=%v %d payload=%d", c.Key, c.Timestamp14(), c.Revisit, c.Loc.Offset, c.Payload.Offset)
			}},
		{"pywb-iana.cdx", "cdx/pywb-iana.cdx", map[string]string{"iana.warc.gz": "warc/pywb-iana.warc.gz"}, nil},
		{"pywb-iana.cdxj", "cdxj/pywb-iana.cdxj", map[string]string{"iana.warc.gz": "warc/pywb-iana.warc.gz"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := linkWARCs(t, tt.warcs)
			var warcs []string
			for name := range tt.warcs {
				warcs = append(warcs, filepath.Join(dir, name))
			}
			bidx, _ := buildIndex(t, warcs, IndexOptions{})
			want := collect(t, bidx)
			idx, errp := openIndex(t, []string{fixture(t, tt.index)}, CDXOptions{WARCDir: dir})
			got := collect(t, idx)
			if len(*errp) > 0 {
				t.Errorf("errors: %v", *errp)
			}
			var gotKeys, wantKeys []string
			for _, tm := range got {
				gotKeys = append(gotKeys, tm.Key)
			}
			for _, tm := range want {
				wantKeys = append(wantKeys, tm.Key)
			}
			diffLines(t, gotKeys, wantKeys)
			line := tt.line
			if line == nil {
				line = func(c Capture) string {
					return fmt.Sprintf("%s %s %d %d", c.Key, c.Timestamp14(), c.Status, c.Loc.Offset)
				}
			}
			g, w := timeMapLines(got, line), timeMapLines(want, line)
			slices.Sort(g)
			slices.Sort(w)
			diffLines(t, g, w)
			for _, tm := range got {
				for _, c := range tm.Captures {
					if c.Payload.IsZero() {
						t.Errorf("%s %s: no payload location", c.Key, c.Timestamp14())
						continue
					}
					resp, err := ReadResponse(c.Payload, 0)
					if err != nil {
						t.Errorf("ReadResponse(%+v): %v", c.Payload, err)
						continue
					}
					if Canonicalize(resp.Record.TargetURI, CanonSURT) != c.Key || c.Status != 0 && resp.Status != c.Status {
						t.Errorf("%s %d: payload at %+v is %s %d", c.Key, c.Status, c.Payload, resp.Record.TargetURI, resp.Status)
					}
				}
			}
		})
	}
}

func TestCDXIndexDevCorpus(t *testing.T) {
	path, dir, want := devCDXJ(t)
	wantLines := timeMapLines(want, captureLine)
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	// One index per WARC, as collections often have: merged k-way.
	var perWARC []string
	lines := strings.SplitAfter(string(raw), "\n")
	byFile := map[string][]string{}
	for _, l := range lines {
		if l == "" {
			continue
		}
		i := strings.Index(l, `"filename": "`)
		f := l[i+len(`"filename": "`):]
		f = f[:strings.IndexByte(f, '"')]
		byFile[f] = append(byFile[f], l)
	}
	for f, ls := range byFile {
		p := filepath.Join(tmp, f+".cdxj")
		if err := os.WriteFile(p, []byte(strings.Join(ls, "")), 0o644); err != nil {
			t.Fatal(err)
		}
		perWARC = append(perWARC, p)
	}
	slices.Sort(perWARC)
	// Unsorted: lines shuffled (deterministically), gzipped, spilled in runs of 500.
	shuffled := slices.Clone(lines)
	for i := range shuffled {
		j := (i * 7919) % len(shuffled)
		shuffled[i], shuffled[j] = shuffled[j], shuffled[i]
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(strings.Join(shuffled, "")))
	zw.Close()
	unsorted := filepath.Join(tmp, "unsorted.cdxj.gz")
	if err := os.WriteFile(unsorted, gz.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		paths   []string
		opts    CDXOptions
		notices int
	}{
		{"one CDXJ", []string{path}, CDXOptions{WARCDir: dir}, 0},
		{"one CDXJ per WARC", perWARC, CDXOptions{WARCDir: dir}, 0},
		{"unsorted gzipped", []string{unsorted}, CDXOptions{WARCDir: dir, MaxInMemory: 500, TempDir: tmp}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			idx, errp := openIndex(t, tt.paths, tt.opts)
			got := collect(t, idx)
			if len(got) != len(want) || len(want) != 614 {
				t.Errorf("%d TimeMaps, BuildIndex %d (want 614)", len(got), len(want))
			}
			gotLines := timeMapLines(got, captureLine)
			if len(wantLines) != 5510 {
				t.Errorf("BuildIndex: %d captures, want 5510", len(wantLines))
			}
			diffLines(t, gotLines, wantLines)
			if len(*errp) != tt.notices {
				t.Errorf("errors: %v, want %d notices", *errp, tt.notices)
			}
			for _, err := range *errp {
				var ce *CDXError
				if !errors.As(err, &ce) || !ce.Notice {
					t.Errorf("not a notice: %v", err)
				}
			}
		})
	}
	if runs, _ := filepath.Glob(filepath.Join(tmp, "offtopic-index-*")); len(runs) > 0 {
		t.Errorf("sorted runs left behind: %v", runs)
	}
}

func TestCDXIndexBadFixture(t *testing.T) {
	idx, errp := openIndex(t, []string{fixture(t, "cdx/pywb-bad.cdx")}, CDXOptions{WARCDir: fixture(t, "warc")})
	tms := collect(t, idx)
	if len(tms) != 2 || len(tms[0].Captures) != 2 || len(tms[1].Captures) != 2 {
		t.Fatalf("TimeMaps %+v", tms)
	}
	// The revisits' digest matches no capture: reported with their lines.
	var lines []int
	for _, err := range *errp {
		var ce *CDXError
		if errors.As(err, &ce) {
			lines = append(lines, ce.Line)
		}
		if !strings.Contains(err.Error(), "pywb-bad.cdx:") {
			t.Errorf("error without file and line: %v", err)
		}
	}
	if fmt.Sprint(lines) != "[2 4]" {
		t.Errorf("reported lines %v, want [2 4] (%v)", lines, *errp)
	}
	// The good lines point at a file that is not there: reading them fails
	// with an error naming it.
	if _, err := ReadResponse(tms[0].Captures[1].Payload, 0); err == nil || !strings.Contains(err.Error(), "non-existent.warc") {
		t.Errorf("ReadResponse: %v", err)
	}
}
