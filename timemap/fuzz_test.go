package timemap

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/offtopic/offtopic/internal/testcorpus"
)

// Fuzz targets for the parsers of local archive files. Under plain go test
// they run their seeds only: small fixture files of ../shared (when present)
// and the hand-made inputs below. Crashers found by fuzzing are kept in
// testdata/fuzz as regression inputs.

// fuzzSeedFiles returns the contents of the fixture files rel (gunzipped
// when gunzip is set and the file is gzipped) that are at most max bytes,
// or nothing when ../shared is absent.
func fuzzSeedFiles(gunzip bool, max int, rels ...string) [][]byte {
	dir := testcorpus.Dir()
	if dir == "" {
		return nil
	}
	var out [][]byte
	for _, rel := range rels {
		b, err := os.ReadFile(filepath.Join(dir, "fixtures", rel))
		if err != nil {
			continue
		}
		if gunzip && len(b) > 2 && b[0] == 0x1f && b[1] == 0x8b {
			zr, err := gzip.NewReader(bytes.NewReader(b))
			if err != nil {
				continue
			}
			if b, err = io.ReadAll(zr); err != nil {
				continue
			}
		}
		if len(b) <= max {
			out = append(out, b)
		}
	}
	return out
}

var warcSeedFixtures = []string{
	"warc/pywb-example.warc", "warc/pywb-example-extra.warc", "warc/pywb-missing-status-text.warc",
	"warc/aut-issue-514.warc", "warc/pywb-example2.warc.gz", "warc/pywb-httpbin-resource.warc.gz",
	"warc/pywb-example-wget-1-14.warc.gz", "warc/pywb-example-url-agnostic-revisit.warc.gz",
	"warc/aut-example.txt.warc.gz",
}

const handWARC = "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: http://example.com/\r\n" +
	"WARC-Date: 2014-01-03T03:03:21Z\r\nContent-Type: application/http; msgtype=response\r\n" +
	"Content-Length: 49\r\n\r\nHTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<p>hi\r\n\r\n"

// checkRecords reads every record of path and checks what holds for any
// input: reading ends, each result consumes input (no more results than
// bytes), locations and error offsets lie inside the file, bodies read
// without error, and a record re-read by its location is the same record.
func checkRecords(t *testing.T, path string, size int) {
	rr, err := OpenRecords(path, ReadOptions{})
	if err != nil {
		return
	}
	defer rr.Close()
	type seen struct {
		loc        Location
		typ, uri   string
		bodyLength int
	}
	var recs []seen
	for n := 0; ; n++ {
		if n > size+1 {
			t.Fatalf("more than %d results from %d bytes: reading does not progress", n, size)
		}
		rec, err := rr.Next()
		if err == io.EOF {
			break
		}
		var re *RecordError
		if errors.As(err, &re) {
			if re.Offset < 0 || re.Offset > int64(size) || re.File != path {
				t.Fatalf("record error %v: offset outside the file of %d bytes", re, size)
			}
			continue
		}
		if err != nil {
			break // fatal for the file
		}
		l := rec.Loc
		if l.File != path || l.Offset < 0 || l.Offset+l.Length > int64(size) || l.MemberOffset < 0 {
			t.Fatalf("record at %+v outside the file of %d bytes", l, size)
		}
		body, err := io.ReadAll(rec.Body)
		if err != nil {
			t.Fatalf("record at %+v: reading body: %v", l, err)
		}
		recs = append(recs, seen{l, rec.Type, rec.TargetURI, len(body)})
	}
	for _, s := range recs {
		r, err := ReadResponse(s.loc, 0)
		if err != nil {
			t.Fatalf("ReadResponse(%+v) of a record read by scanning: %v", s.loc, err)
		}
		if r.Record.Type != s.typ || r.Record.TargetURI != s.uri || len(r.Body) != s.bodyLength {
			t.Fatalf("ReadResponse(%+v) = %s %s, %d body bytes; scanning read %s %s, %d", s.loc,
				r.Record.Type, r.Record.TargetURI, len(r.Body), s.typ, s.uri, s.bodyLength)
		}
	}
}

// FuzzWARCPlain reads uncompressed WARC files.
func FuzzWARCPlain(f *testing.F) {
	for _, b := range fuzzSeedFiles(true, 64<<10, warcSeedFixtures...) {
		f.Add(b)
	}
	f.Add([]byte(handWARC + handWARC))
	f.Add([]byte(strings.Replace(handWARC, "Content-Length: 49", "Content-Length: -5", 1) + handWARC))
	f.Add([]byte(handWARC[:60]))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		checkRecords(t, writeFile(t, dir, "fuzz.warc", data), len(data))
	})
}

// gzipRecords compresses data one gzip member per record (split before each
// "WARC/" at a line start), as WARC writers do.
func gzipRecords(data []byte) []byte {
	var out bytes.Buffer
	for len(data) > 0 {
		i := bytes.Index(data[1:], []byte("\nWARC/"))
		n := len(data)
		if i >= 0 {
			n = i + 2
		}
		zw := gzip.NewWriter(&out)
		zw.Write(data[:n])
		zw.Close()
		data = data[n:]
	}
	return out.Bytes()
}

// FuzzWARCGzip reads gzipped WARC files made of the input, one member per
// record, cut at cut bytes from the end and with one byte flipped at flip
// (when non-zero): the damage real files carry.
func FuzzWARCGzip(f *testing.F) {
	for _, b := range fuzzSeedFiles(true, 64<<10, warcSeedFixtures...) {
		f.Add(b, uint32(0), uint32(0))
		f.Add(b, uint32(len(b)/3), uint32(0))
		f.Add(b, uint32(0), uint32(len(b)/2))
	}
	f.Add([]byte(handWARC+handWARC), uint32(200), uint32(0))
	f.Add([]byte(handWARC+handWARC), uint32(0), uint32(100))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte, cut, flip uint32) {
		gz := gzipRecords(data)
		if len(gz) > 0 && cut > 0 {
			gz = gz[:len(gz)-int(cut%uint32(len(gz)))]
		}
		if len(gz) > 0 && flip > 0 {
			gz[flip%uint32(len(gz))] ^= 0x5a
		}
		checkRecords(t, writeFile(t, dir, "fuzz.warc.gz", gz), len(gz))
	})
}

// FuzzARC reads ARC files, plain and gzipped.
func FuzzARC(f *testing.F) {
	for _, b := range fuzzSeedFiles(true, 64<<10, "arc/pywb-example.arc", "arc/pywb-bad.arc", "arc/aut-badexample.arc.gz") {
		f.Add(b, false)
		f.Add(b, true)
	}
	f.Add([]byte("filedesc://x.arc 0.0.0.0 20050101000000 text/plain 9\n1 0 test\n\n\nhttp://example.com/ 1.2.3.4 20050101000000 text/html 5\nhello\n"), false)
	// Issue 23 item 3: URLs holding spaces, dates longer than 14 digits.
	f.Add([]byte("filedesc://x.arc 0.0.0.0 20050101000000 text/plain 9\n1 0 test\n\n\nhttp://example.com/a b 1.2.3.4 20050101000000 text/html 5\nhello\n"), false)
	f.Add([]byte("http://example.com/a  b  c 1.2.3.4 20050101000000999 text/html 5\nhello\nhttp://x/ 1 2 3 4 5 6 7 8 9 10\n"), true)
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte, gz bool) {
		name := "fuzz.arc"
		if gz {
			var b bytes.Buffer
			zw := gzip.NewWriter(&b)
			zw.Write(data)
			zw.Close()
			data, name = b.Bytes(), "fuzz.arc.gz"
		}
		checkRecords(t, writeFile(t, dir, name, data), len(data))
	})
}

// FuzzCDX reads CDX and CDXJ index lines: every line is a capture, a
// skipped line or an error naming its line.
func FuzzCDX(f *testing.F) {
	for _, b := range fuzzSeedFiles(false, 64<<10, "cdx/pywb-example.cdx", "cdx/pywb-bad.cdx", "cdx/pywb-post-test.cdx",
		"cdx/pywb-example-arc-test.cdx", "cdxj/pywb-example.cdxj", "cdxj/pywb-example-no-digest.cdxj") {
		f.Add(b)
	}
	f.Add([]byte(" CDX N b a m s k r M S V g\ncom,example)/ 20140103030321 http://example.com/ text/html 200 ABC - - 1043 333 example.warc.gz\n"))
	f.Add([]byte("com,example)/ 20140103030321 {\"url\": \"http://example.com/\", \"status\": \"200\", \"offset\": \"1\", \"length\": \"2\", \"filename\": \"a.warc\"}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		lines := bytes.Count(data, []byte("\n")) + 1
		n := 0
		for c, err := range ReadCDX(bytes.NewReader(data), "fuzz.cdx", CDXOptions{}) {
			n++
			if n > lines+1 {
				t.Fatalf("more than %d results from %d lines", n, lines)
			}
			if err != nil {
				var ce *CDXError
				if !errors.As(err, &ce) {
					t.Fatalf("error %v is not a *CDXError", err)
				}
				continue
			}
			if c.Key == "" && c.URIR != "" {
				t.Fatalf("capture of %q without key", c.URIR)
			}
		}
	})
}

// FuzzCDXJ reads CDXJ lines and checks that what ReadCDXJ reads, WriteCDXJ
// writes back to lines ReadCDXJ reads alike.
func FuzzCDXJ(f *testing.F) {
	for _, b := range fuzzSeedFiles(false, 64<<10, "cdxj/pywb-example.cdxj", "cdxj/pywb-example-no-digest.cdxj",
		"cdxj/pywb-dupes.cdxj", "timemap/pywb-example-query.cdxj") {
		f.Add(b)
	}
	f.Add([]byte("com,example)/ 20140103030321 {\"url\": \"http://example.com/\", \"mime\": \"text/html\", \"status\": \"200\", \"digest\": \"sha1:B2L\", \"offset\": \"1\", \"length\": \"2\", \"filename\": \"a.warc\"}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var caps []Capture
		for c, err := range ReadCDXJ(bytes.NewReader(data), "") {
			if err == nil {
				caps = append(caps, c)
			} else if !strings.Contains(err.Error(), "CDXJ line") {
				t.Fatalf("error %v does not name the line", err)
			}
		}
		var b bytes.Buffer
		if err := WriteCDXJ(&b, func(yield func(Capture) bool) {
			for _, c := range caps {
				if !yield(c) {
					return
				}
			}
		}); err != nil {
			return
		}
		i := 0
		for c, err := range ReadCDXJ(&b, "") {
			if err != nil {
				t.Fatalf("re-reading what WriteCDXJ wrote: %v\n%s", err, b.Bytes())
			}
			if i >= len(caps) {
				t.Fatalf("re-read more captures than written")
			}
			w := caps[i]
			// JSON cannot hold invalid UTF-8: such URLs come back with U+FFFD.
			if (utf8.ValidString(w.URIR) && c.URIR != w.URIR) || !c.Time.Equal(w.Time) || (!w.Revisit && c.Status != w.Status) || c.Revisit != w.Revisit ||
				c.Loc.Offset != w.Loc.Offset || c.Loc.Length != w.Loc.Length || c.Loc.MemberOffset != w.Loc.MemberOffset ||
				(w.Loc.File != "" && c.Loc.File != filepath.Base(w.Loc.File)) {
				// WriteCDXJ writes file base names (resolved against a
				// directory when read) and, as pywb, no status for revisits.
				t.Fatalf("capture %d re-read as %+v, was %+v", i, c, w)
			}
			i++
		}
		if i != len(caps) {
			t.Fatalf("re-read %d captures of %d", i, len(caps))
		}
	})
}

// FuzzGzipLead reads per-record gzipped WARC files made of the input with
// lead bytes before the first member (issue 23 item 1): the gzip-or-plain
// decision searches past them for the first member or record. Named .bin so
// that the file name does not decide the format.
func FuzzGzipLead(f *testing.F) {
	for _, b := range fuzzSeedFiles(true, 64<<10, warcSeedFixtures...) {
		f.Add(b, []byte("x"))
	}
	f.Add([]byte(handWARC+handWARC), []byte{0x1e, 0x8b, 0x08})
	f.Add([]byte(handWARC+handWARC), []byte{0x1f, 0x8b, 0x08, 0, 0})
	f.Add([]byte(handWARC+handWARC), []byte("WARC/1.0\r\n"))
	f.Add([]byte(handWARC+handWARC), bytes.Repeat([]byte("junk "), 300))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data, lead []byte) {
		gz := append(bytes.Clone(lead), gzipRecords(data)...)
		checkRecords(t, writeFile(t, dir, "fuzz.bin", gz), len(gz))
	})
}

// FuzzWARCGzipFixed reads WARC files made of the input gzipped as members
// of a fixed size, records going on from one member to the next (issue 23
// item 2).
func FuzzWARCGzipFixed(f *testing.F) {
	for _, b := range fuzzSeedFiles(true, 64<<10, warcSeedFixtures...) {
		f.Add(b, uint16(1000))
		f.Add(b, uint16(97))
	}
	f.Add([]byte(handWARC+handWARC), uint16(3))
	f.Add([]byte(handWARC+handWARC), uint16(len(handWARC)-2))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte, size uint16) {
		gz := gzipFixed(data, max(int(size), 1))
		checkRecords(t, writeFile(t, dir, "fuzz.warc.gz", gz), len(gz))
	})
}

// FuzzARCGzipFixed reads ARC files made of the input gzipped as members of
// a fixed size, records going on from one member to the next (issue 23
// item 2).
func FuzzARCGzipFixed(f *testing.F) {
	for _, b := range fuzzSeedFiles(true, 64<<10, "arc/pywb-example.arc", "arc/pywb-bad.arc", "arc/aut-badexample.arc.gz") {
		f.Add(b, uint16(100))
		f.Add(b, uint16(7))
	}
	f.Add([]byte("filedesc://x.arc 0.0.0.0 20050101000000 text/plain 9\n1 0 test\n\n\nhttp://example.com/ 1.2.3.4 20050101000000 text/html 5\nhello\n"), uint16(30))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte, size uint16) {
		gz := gzipFixed(data, max(int(size), 1))
		checkRecords(t, writeFile(t, dir, "fuzz.arc.gz", gz), len(gz))
	})
}
