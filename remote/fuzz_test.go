package remote

import (
	"bytes"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/offtopic/offtopic/internal/testcorpus"
	"github.com/offtopic/offtopic/timemap"
)

// addSeeds adds the files of fixtures/<dir> (and of dirs under it) whose
// names end in one of exts to f's seed corpus.
func addSeeds(f *testing.F, dir string, exts ...string) {
	d := testcorpus.Dir()
	if d == "" {
		return
	}
	for _, pat := range []string{"*", "*/*"} {
		files, _ := filepath.Glob(filepath.Join(d, "fixtures", dir, pat))
		for _, p := range files {
			for _, e := range exts {
				if strings.HasSuffix(p, e) {
					if b, err := os.ReadFile(p); err == nil {
						f.Add(b)
					}
				}
			}
		}
	}
}

// checkingSink returns a sink whose captures are checked: each has a URI-R
// and a time.
func checkingSink(t *testing.T) *sink {
	return &sink{s: &CDXServer{}, q: Query{}, origs: map[string]timemap.Capture{}, seen: map[entry]bool{},
		prefix: "http://archive.example/web", yield: func(c timemap.Capture, err error) bool {
			if err == nil && (c.URIR == "" || c.Time.IsZero() || c.Key == "") {
				t.Fatalf("capture without URI-R, key or time: %+v", c)
			}
			return true
		}}
}

// FuzzWaybackCDX: the Internet Archive dialect reads any answer, plain or
// JSON, without panicking, and yields only whole captures.
func FuzzWaybackCDX(f *testing.F) {
	addSeeds(f, "cdx-api", ".txt", ".json")
	f.Add([]byte("[[\"urlkey\",\"timestamp\",\"original\"],\n[\"a\",\"2001\",\"http://x/\"],\n[],\n[\"key\"]]"))
	f.Fuzz(func(t *testing.T, b []byte) {
		parseWayback(bytes.NewReader(b), "http://cdx.example/cdx", checkingSink(t))
	})
}

// FuzzPywbCDX: pywb's output=json lines and CDXJ lines.
func FuzzPywbCDX(f *testing.F) {
	addSeeds(f, "cdxj", ".cdxj")
	addSeeds(f, "timemap", ".cdxj")
	f.Add([]byte(`{"urlkey": "com,example)/", "timestamp": "20140103030321", "url": "http://example.com/", "status": "200"}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		parsePywb(bytes.NewReader(b), "http://cdx.example/coll/cdx", checkingSink(t))
	})
}

// FuzzOutbackCDX: OutbackCDX's CDX11 lines and JSON arrays.
func FuzzOutbackCDX(f *testing.F) {
	addSeeds(f, "cdx", ".cdx")
	f.Add([]byte(`[["urlkey","timestamp","original","mimetype","statuscode","digest","length","offset","filename"],["a","2001","http://x/","text/html","200","D","1","0","f.warc.gz"]]`))
	f.Fuzz(func(t *testing.T, b []byte) {
		k := checkingSink(t)
		emit := func(n int, r entry) bool { return k.row("u", n, r) }
		parseCDX11(bytes.NewReader(b), "http://cdx.example/idx", k, emit)
		parseOutbackJSON(bytes.NewReader(b), "http://cdx.example/idx", checkingSink(t), emit)
	})
}

// FuzzArchiveItPage: Archive-It collection pages: seeds are http(s) URLs,
// skipped seeds URLs of other schemes.
func FuzzArchiveItPage(f *testing.F) {
	for _, name := range []string{"archiveit-page1.html", "archiveit-page2.html"} {
		if b, err := os.ReadFile(filepath.Join("testdata", "archiveit", name)); err == nil {
			f.Add(b)
		}
	}
	base, _ := url.Parse("https://archive-it.org/collections/1234?page=1")
	f.Fuzz(func(t *testing.T, b []byte) {
		doc, err := html.Parse(bytes.NewReader(b))
		if err != nil {
			return
		}
		seeds, skipped, next := parseArchiveItPage(doc, base, "1234")
		for _, s := range seeds {
			if !timemap.IsHTTPURI(s) {
				t.Fatalf("seed %q is not an http(s) URL", s)
			}
		}
		for _, s := range skipped {
			if timemap.IsHTTPURI(s) || !isSeedURL(s) {
				t.Fatalf("skipped seed %q is an http(s) URL or no URL", s)
			}
		}
		if next != "" {
			if _, err := url.Parse(next); err != nil {
				t.Fatalf("next page %q: %v", next, err)
			}
		}
	})
}

// FuzzTimeMapDocument: any TimeMap document (link-format, JSON, CDXJ, CDXJ
// object resource stream, whatever the declared type) reads without
// panicking, and every memento it lists has a URI-M.
func FuzzTimeMapDocument(f *testing.F) {
	addSeeds(f, "timemap", ".link", ".json", ".cdxj")
	f.Add([]byte("!context [\"http://tools.ietf.org/html/rfc7089\"]\n!meta {\"original_uri\": \"http://x/\"}\n20130202100000 {\"uri\": \"http://a/m\", \"rel\": \"memento\", \"datetime\": \"Sat, 02 Feb 2013 10:00:00 GMT\"}\n"))
	// Issue 23 items 11 and 12: a pywb urlkey holding "{"; pywb's and the
	// Internet Archive's JSON TimeMaps.
	f.Add([]byte("com,example)/{a} 20090101000000 {\"url\": \"http://example.com/{a}\"}\n"))
	f.Add([]byte(`{"urlkey": "com,example)/", "timestamp": "20140103030321", "url": "http://example.com/", "status": "200"}` + "\n"))
	f.Add([]byte("[[\"urlkey\",\"timestamp\",\"original\"],\n[\"a\",\"2001\",\"http://x/\"],\n[],\n[\"key\"]]"))
	base, _ := url.Parse("http://archive.example/pywb/timemap/cdxj/http://x/")
	f.Fuzz(func(t *testing.T, b []byte) {
		ltm, err := parseTimeMap("application/octet-stream", b, base, "")
		if err != nil {
			return
		}
		for _, m := range ltm.Mementos {
			if m.URI == "" && m.Datetime.IsZero() && len(m.Rels) == 0 {
				t.Fatalf("empty memento from %q", b)
			}
		}
	})
}
