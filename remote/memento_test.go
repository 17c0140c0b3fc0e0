package remote

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/offtopic/offtopic/internal/testcorpus"
	"github.com/offtopic/offtopic/timemap"
)

// rmArchive is a fake Wayback-style archive on loopback. It serves
// TimeMaps from a map of path to (content type, body), a TimeGate in both
// styles, and mementos under /web/<ts><mod>/<URI-R>: with a banner and
// rewritten links without a modifier, raw with id_. It counts requests
// received and answers served per URL (path and query).
type rmArchive struct {
	t         *testing.T
	srv       *httptest.Server
	docs      map[string][2]string // path -> content type, body ("{{base}}" is replaced)
	mementos  map[string]string    // URI-R -> comma-separated 14-digit timestamps held
	received  rmCounter
	served    rmCounter
	onRequest func(n int64, r *http.Request) // called with the running request count
	requests  atomic.Int64
}

func newRMArchive(t *testing.T) *rmArchive {
	a := &rmArchive{t: t, docs: map[string][2]string{}, mementos: map[string]string{}}
	a.srv = httptest.NewServer(a)
	t.Cleanup(a.srv.Close)
	return a
}

func (a *rmArchive) base() string { return a.srv.URL }

func (a *rmArchive) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	key := r.URL.RequestURI()
	a.received.add(key)
	n := a.requests.Add(1)
	if a.onRequest != nil {
		a.onRequest(n, r)
		if r.Context().Err() != nil {
			return
		}
	}
	if a.serve(w, r) {
		a.served.add(key)
	}
}

func (a *rmArchive) serve(w http.ResponseWriter, r *http.Request) bool {
	p := r.URL.RequestURI()
	if d, ok := a.docs[p]; ok {
		if d[0] != "" {
			w.Header().Set("Content-Type", d[0])
		}
		io.WriteString(w, strings.ReplaceAll(d[1], "{{base}}", a.base()))
		return true
	}
	switch {
	case strings.HasPrefix(p, "/tg302/"):
		urir := strings.TrimPrefix(p, "/tg302/")
		if r.Header.Get("Accept-Datetime") == "" {
			http.Error(w, "no Accept-Datetime", 400)
			return true
		}
		w.Header().Set("Vary", "accept-datetime")
		w.Header().Set("Location", "/web/20100103202051/"+urir)
		w.WriteHeader(http.StatusFound)
		return true
	case strings.HasPrefix(p, "/tg200/"):
		urir := strings.TrimPrefix(p, "/tg200/")
		at, err := http.ParseTime(r.Header.Get("Accept-Datetime"))
		if err != nil {
			http.Error(w, "bad Accept-Datetime", 400)
			return true
		}
		w.Header().Set("Vary", "accept-datetime")
		w.Header().Set("Content-Location", a.base()+"/web/"+at.Add(time.Hour).Format("20060102150405")+"/"+urir)
		w.Header().Set("Memento-Datetime", at.Add(time.Hour).Format(http.TimeFormat))
		io.WriteString(w, "<html>memento</html>")
		return true
	case strings.HasPrefix(p, "/web/"):
		return a.serveMemento(w, r)
	}
	http.NotFound(w, r)
	return true
}

func (a *rmArchive) serveMemento(w http.ResponseWriter, r *http.Request) bool {
	prefix, ts, mod, urir, ok := timemap.SplitURIM(r.URL.RequestURI())
	if !ok || prefix != "/web/" {
		http.NotFound(w, r)
		return true
	}
	held := a.mementos[urir]
	if held == "" {
		http.NotFound(w, r) // not archived: no Memento-Datetime
		return true
	}
	if !strings.Contains(held, ts) {
		// Redirect to the nearest (here: first) capture held, keeping the modifier.
		first, _, _ := strings.Cut(held, ",")
		w.Header().Set("Location", "/web/"+first+mod+"/"+urir) // not http.Redirect: it cleans "//"
		w.WriteHeader(http.StatusFound)
		return true
	}
	t, _ := timemap.ParseTimestamp(ts)
	h := w.Header()
	h.Set("Memento-Datetime", t.Format(http.TimeFormat))
	h.Set("Link", fmt.Sprintf(`<%s>; rel="original", <%s/timemap/link/%s>; rel="timemap"; type="application/link-format"`, urir, a.base(), urir))
	h.Set("X-Archive-Orig-Content-Type", "text/html; charset=ISO-8859-1")
	h.Set("X-Archive-Orig-Server", "Apache/1.3")
	h.Set("X-Archive-Orig-Transfer-Encoding", "chunked")
	h.Set("X-Archive-Orig-Content-Length", "9999")
	h.Set("Content-Type", "text/html; charset=utf-8")
	if strings.HasSuffix(urir, "/gone") {
		h.Set("X-Archive-Orig-Status", "404 Not Found")
	}
	if strings.HasSuffix(urir, "/moved") {
		h.Set("Location", "/web/"+ts+mod+"/"+urir+"-new")
		w.WriteHeader(http.StatusMovedPermanently) // an archived redirect
		return true
	}
	if mod == "id_" {
		fmt.Fprintf(w, `<html><body><a href="%s/about">raw %s</a></body></html>`, urir, ts)
		return true
	}
	fmt.Fprintf(w, `<html><body><div id="wm-banner">Wayback banner</div><a href="/web/%s/%s/about">rewritten %s</a></body></html>`, ts, urir, ts)
	return true
}

func rmCaptureTimes(tm *timemap.TimeMap) []string {
	var s []string
	for _, c := range tm.Captures {
		s = append(s, c.Timestamp14())
	}
	return s
}

// pywbJSONLines turns CDXJ lines into pywb's output=json lines: the urlkey
// and timestamp go into the object.
func pywbJSONLines(t *testing.T, cdxj string) string {
	var b strings.Builder
	for line := range strings.Lines(cdxj) {
		key, rest, _ := strings.Cut(strings.TrimSpace(line), " ")
		ts, js, _ := strings.Cut(rest, " ")
		var f map[string]any
		if err := json.Unmarshal([]byte(js), &f); err != nil {
			t.Fatal(err)
		}
		f["urlkey"], f["timestamp"] = key, ts
		out, _ := json.Marshal(f)
		b.Write(out)
		b.WriteByte('\n')
	}
	return b.String()
}

func TestFetchTimeMapFormats(t *testing.T) {
	a := newRMArchive(t)
	quirks, err := os.ReadFile(filepath.Join("testdata", "quirks.link"))
	if err != nil {
		t.Fatal(err)
	}
	a.docs["/timemap/link/http://example.com/page"] = [2]string{"application/link-format", string(quirks)}
	a.docs["/timemap/json/http://example.com/j"] = [2]string{"application/json; charset=utf-8", `{"original_uri": "http://example.com/j",
 "mementos": {"list": [
  {"datetime": "2012-01-02T03:04:05Z", "uri": "{{base}}/web/20120102030405/http://example.com/j"},
  {"datetime": "Mon, 01 Jan 2001 00:00:00 GMT", "uri": "{{base}}/web/20010101000000/http://example.com/j"}]}}`}
	cdxj := `com,example)/c 20090101000000 {"url": "http://example.com/c", "mime": "text/html", "status": "200", "digest": "AAA"}
com,example)/c 20090201000000 {"url": "http://example.com/c", "mime": "warc/revisit", "digest": "AAA"}
`
	a.docs["/pywb/timemap/cdxj/http://example.com/c"] = [2]string{"text/x-cdxj", cdxj}
	// Issue 23 item 12: pywb's /timemap/json/ (one CDX object per line,
	// the lines of the fixture pywb-example-query.cdxj) was read as one
	// MemGator object ("not archived"); the Internet Archive's
	// /web/timemap/json/ (rows under a header row, the shape of the
	// fixture ia-cdx-archive-org-limit3.json) was refused.
	a.docs["/pywb/timemap/json/http://example.com/c"] = [2]string{"application/x-ndjson", pywbJSONLines(t, readFixture(t, "pywb-example-query.cdxj"))}
	ia, err := os.ReadFile(testcorpus.Path(t, "fixtures/cdx-api/ia-cdx-archive-org-limit3.json"))
	if err != nil {
		t.Fatal(err)
	}
	a.docs["/web/timemap/json/http://www.archive.org/"] = [2]string{"application/json", string(ia)}
	a.docs["/sniff/ia-json"] = [2]string{"text/plain", string(ia)}
	// Issue 23 item 11: a urlkey holding "{" was taken for MemGator/ipwb.
	a.docs["/pywb/timemap/cdxj/http://example.com/b"] = [2]string{"text/x-cdxj",
		`com,example)/b?q={x} 20090101000000 {"url": "http://example.com/b?q={x}", "mime": "text/html", "status": "200"}
com,example)/b?q={x} 20090201000000 {"url": "http://example.com/b?q={x}", "mime": "text/html", "status": "200"}
`}
	a.docs["/pywb/timemap/cdxj/http://example.com/b2"] = [2]string{"text/x-cdxj",
		`com,example)/{a} 20090101000000 {"url": "http://example.com/{a}", "mime": "text/html", "status": "200"}
`}
	a.docs["/sniff/cdxj"] = [2]string{"text/plain", cdxj}
	a.docs["/sniff/link"] = [2]string{"text/plain", string(quirks)}
	a.docs["/sniff/json"] = [2]string{"", `{"original_uri": "http://example.com/j", "mementos": {"list": [{"datetime": "2012-01-02T03:04:05Z", "uri": "http://a.test/web/20120102030405/http://example.com/j"}]}}`}
	// Issue 23 item 10: datetimes the parser did not know dropped the
	// whole TimeMap; the last is no date, its URI-M's timestamp stands in.
	a.docs["/odd/link"] = [2]string{"application/link-format", `<http://example.com/o>; rel="original",
<{{base}}/web/20130202100000/http://example.com/o>; rel="first memento"; datetime="Sat, 2 Feb 2013 10:00:00 +0000",
<{{base}}/web/20140303100000/http://example.com/o>; rel="memento"; datetime="mon, 03 mar 2014 10:00:00 UTC",
<{{base}}/web/20150404100000/http://example.com/o>; rel="memento"; datetime="2015-04-04T10:00:00Z",
<{{base}}/web/20160505100000/http://example.com/o>; rel="last memento"; datetime="5 May 2016, teatime"`}
	a.docs["/odd/json"] = [2]string{"application/json", `{"original_uri": "http://example.com/o", "mementos": {"list": [
  {"datetime": "2013-02-02 10:00:00", "uri": "{{base}}/web/20130202100000/http://example.com/o"},
  {"datetime": "not a date", "uri": "{{base}}/web/20160505100000/http://example.com/o"}]}}`}

	for _, tc := range []struct {
		path, prefix, urir, key string
		times                   []string
		firstURIM               string
	}{
		{"/timemap/link/http://example.com/page", "", "http://example.com/page", "com,example)/page",
			[]string{"20100103202051", "20100601000000", "20101201000000", "20110301100000"},
			"http://archive.test/web/20100103202051/http://example.com/page"},
		{"/sniff/link", "", "http://example.com/page", "com,example)/page",
			[]string{"20100103202051", "20100601000000", "20101201000000", "20110301100000"}, ""},
		{"/timemap/json/http://example.com/j", "", "http://example.com/j", "com,example)/j",
			[]string{"20010101000000", "20120102030405"}, "{{base}}/web/20010101000000/http://example.com/j"},
		{"/sniff/json", "", "http://example.com/j", "com,example)/j", []string{"20120102030405"}, ""},
		{"/odd/link", "", "http://example.com/o", "com,example)/o",
			[]string{"20130202100000", "20140303100000", "20150404100000", "20160505100000"}, "{{base}}/web/20130202100000/http://example.com/o"},
		{"/odd/json", "", "http://example.com/o", "com,example)/o", []string{"20130202100000", "20160505100000"}, ""},
		{"/pywb/timemap/cdxj/http://example.com/c", "", "http://example.com/c", "com,example)/c",
			[]string{"20090101000000", "20090201000000"}, "{{base}}/pywb/20090101000000/http://example.com/c"},
		{"/pywb/timemap/cdxj/http://example.com/b", "", "http://example.com/b?q={x}", "com,example)/b?q={x}",
			[]string{"20090101000000", "20090201000000"}, "{{base}}/pywb/20090101000000/http://example.com/b?q={x}"},
		{"/pywb/timemap/cdxj/http://example.com/b2", "", "http://example.com/{a}", "com,example)/{a}",
			[]string{"20090101000000"}, "{{base}}/pywb/20090101000000/http://example.com/{a}"},
		{"/pywb/timemap/json/http://example.com/c", "", "http://example.com?example=1", "com,example)/?example=1",
			[]string{"20140103030321", "20140103030341"}, "{{base}}/pywb/20140103030321/http://example.com?example=1"},
		{"/web/timemap/json/http://www.archive.org/", "", "http://www.archive.org:80/", "org,archive)/",
			[]string{"19970126045828", "19971011050034", "19971211122953"}, "{{base}}/web/19970126045828/http://www.archive.org:80/"},
		{"/sniff/ia-json", "http://a.test/web", "http://www.archive.org:80/", "org,archive)/",
			[]string{"19970126045828", "19971011050034", "19971211122953"}, "http://a.test/web/19970126045828/http://www.archive.org:80/"},
		{"/sniff/cdxj", "http://a.test/coll", "http://example.com/c", "com,example)/c",
			[]string{"20090101000000", "20090201000000"}, "http://a.test/coll/20090101000000/http://example.com/c"},
	} {
		t.Run(tc.path, func(t *testing.T) {
			tm, err := FetchTimeMap(context.Background(), NewClient(ClientOptions{RatePerHost: -1, ArchiveHosts: []string{a.base()}}), a.base()+tc.path, TimeMapOptions{ArchivePrefix: tc.prefix})
			if err != nil {
				t.Fatal(err)
			}
			if tm.URIR != tc.urir || tm.Key != tc.key || !slices.Equal(rmCaptureTimes(tm), tc.times) {
				t.Errorf("got %s %s %v", tm.URIR, tm.Key, rmCaptureTimes(tm))
			}
			for _, c := range tm.Captures {
				if c.Key != tc.key || c.URIR != tc.urir || c.Status != 0 || c.MIME != "" || c.URIM == "" {
					t.Errorf("capture %+v", c)
				}
			}
			if want := strings.ReplaceAll(tc.firstURIM, "{{base}}", a.base()); want != "" && tm.Captures[0].URIM != want {
				t.Errorf("first URI-M %s, want %s", tm.Captures[0].URIM, want)
			}
		})
	}
	// The relative URI-M was resolved against the TimeMap's URL, and the
	// JSON alternate (rel="timemap" type="application/json") not fetched.
	tm, _ := FetchTimeMap(context.Background(), http.DefaultClient, a.base()+"/timemap/link/http://example.com/page", TimeMapOptions{})
	if got := tm.Captures[2].URIM; got != a.base()+"/web/20101201000000im_/http://example.com/page" {
		t.Errorf("relative URI-M resolved to %s", got)
	}
	if n := a.received.get("/timemap/json/http://example.com/page"); n != 0 {
		t.Errorf("JSON alternate fetched %d times", n)
	}
}

func TestFetchTimeMapPagedAndIndex(t *testing.T) {
	a := newRMArchive(t)
	line := func(ts string) string {
		tt, _ := timemap.ParseTimestamp(ts)
		return fmt.Sprintf("<{{base}}/web/%s/http://example.com/>; rel=\"memento\"; datetime=\"%s\",\n", ts, tt.Format(http.TimeFormat))
	}
	orig := "<http://example.com/>; rel=\"original\",\n"
	// Three pages linked by next/prev (and one back-link with rel="timemap").
	a.docs["/paged/1"] = [2]string{"application/link-format", orig +
		`<{{base}}/paged/1>; rel="self"; type="application/link-format"; from="Thu, 01 Jan 2004 00:00:00 GMT"; until="Sat, 01 Jan 2005 00:00:00 GMT",` + "\n" +
		`<{{base}}/paged/2>; rel="next timemap"; type="application/link-format"; from="Sun, 01 Jan 2006 00:00:00 GMT"; until="Mon, 01 Jan 2007 00:00:00 GMT",` + "\n" +
		line("20040101000000") + line("20050101000000")}
	a.docs["/paged/2"] = [2]string{"application/link-format", orig +
		`</paged/1>; rel="prev"; type="application/link-format",` + "\n" +
		`</paged/3>; rel="next"; from="Mon, 01 Jan 2007 00:00:00 GMT",` + "\n" +
		line("20060101000000") + line("20070101000000")}
	a.docs["/paged/3"] = [2]string{"application/link-format", orig +
		`<{{base}}/paged/2>; rel="prev timemap",` + "\n" +
		`<{{base}}/paged/1>; rel="timemap",` + "\n" +
		line("20070101000000") + line("20080101000000")}
	// An index pointing to two sub-TimeMaps, one of which links back.
	a.docs["/index"] = [2]string{"application/link-format", orig +
		`<{{base}}/sub/a>; rel="timemap"; type="application/link-format"; from="Thu, 01 Jan 2004 00:00:00 GMT",` + "\n" +
		`<{{base}}/sub/b>; rel="timemap"; type="application/link-format",` + "\n"}
	a.docs["/sub/a"] = [2]string{"application/link-format", orig + line("20040101000000") + line("20050101000000")}
	a.docs["/sub/b"] = [2]string{"application/link-format", orig +
		`<{{base}}/index>; rel="timemap"; type="application/link-format",` + "\n" +
		line("20050101000000") + line("20090101000000")}
	// A chain of index TimeMaps deeper than the limit.
	for i := 0; i < 4; i++ {
		a.docs[fmt.Sprintf("/deep/%d", i)] = [2]string{"application/link-format", orig +
			fmt.Sprintf("</deep/%d>; rel=\"timemap\",\n", i+1) + line(fmt.Sprintf("200%d0101000000", i))}
	}
	c := NewClient(ClientOptions{RatePerHost: -1, ArchiveHosts: []string{a.base()}})
	for _, tc := range []struct {
		path  string
		times []string
		pages []string
	}{
		{"/paged/1", []string{"20040101000000", "20050101000000", "20060101000000", "20070101000000", "20080101000000"}, []string{"/paged/1", "/paged/2", "/paged/3"}},
		{"/index", []string{"20040101000000", "20050101000000", "20090101000000"}, []string{"/index", "/sub/a", "/sub/b"}},
	} {
		tm, err := FetchTimeMap(context.Background(), c, a.base()+tc.path, TimeMapOptions{})
		if err != nil {
			t.Fatalf("%s: %v", tc.path, err)
		}
		if got := rmCaptureTimes(tm); !slices.Equal(got, tc.times) {
			t.Errorf("%s: mementos %v, want %v", tc.path, got, tc.times)
		}
		for _, p := range tc.pages {
			if n := a.received.get(p); n != 1 {
				t.Errorf("%s: page %s fetched %d times", tc.path, p, n)
			}
		}
	}
	_, err := FetchTimeMap(context.Background(), c, a.base()+"/deep/0", TimeMapOptions{MaxDepth: 2})
	if err == nil || !strings.Contains(err.Error(), "deeper than 2") {
		t.Errorf("deep chain: %v", err)
	}
	_, err = FetchTimeMap(context.Background(), c, a.base()+"/paged/1", TimeMapOptions{MaxPages: 2})
	if err == nil || !strings.Contains(err.Error(), "more than 2 pages") {
		t.Errorf("page limit: %v", err)
	}
	_, err = FetchTimeMap(context.Background(), c, a.base()+"/timemap/link/http://nowhere.example/", TimeMapOptions{})
	if !errors.Is(err, ErrNotArchived) || !strings.Contains(err.Error(), "/timemap/link/http://nowhere.example/") {
		t.Errorf("missing TimeMap: %v", err)
	}
}

// TestFetchTimeMapRealShapes serves the TimeMaps of real archives kept in
// testdata (Wayback, pywb, MemGator link-format and JSON).
func TestFetchTimeMapRealShapes(t *testing.T) {
	a := newRMArchive(t)
	for _, tc := range []struct {
		file, ct, urir string
	}{
		{"wayback.link", "application/link-format", "http://example.com:80/"},
		{"pywb.link", "application/link-format", "http://example.com?example=1"},
		{"memgator.link", "application/link-format", "http://www.cs.odu.edu/"},
		{"memgator.json", "application/json", "http://www.cs.odu.edu/"},
	} {
		b, err := os.ReadFile(filepath.Join("..", "timemap", "testdata", tc.file))
		if err != nil {
			t.Fatal(err)
		}
		a.docs["/real/"+tc.file] = [2]string{tc.ct, string(b)}
		tm, err := FetchTimeMap(context.Background(), http.DefaultClient, a.base()+"/real/"+tc.file, TimeMapOptions{})
		if err != nil {
			t.Errorf("%s: %v", tc.file, err)
			continue
		}
		if tm.URIR != tc.urir || len(tm.Captures) == 0 {
			t.Errorf("%s: %s with %d captures", tc.file, tm.URIR, len(tm.Captures))
		}
		for _, c := range tm.Captures {
			if _, ts, ok := timemap.ParseURIM(c.URIM); !ok || ts != c.Timestamp14() {
				t.Errorf("%s: URI-M %s does not parse to its time %s", tc.file, c.URIM, c.Timestamp14())
			}
		}
	}
	if n := a.received.get("/timemap/json/http://www.cs.odu.edu/"); n != 0 {
		t.Errorf("JSON alternate fetched")
	}
}

func TestTimeMapsFromURIsGoesOn(t *testing.T) {
	a := newRMArchive(t)
	a.docs["/tm/ok"] = [2]string{"application/link-format", "<http://example.com/>; rel=\"original\",\n<{{base}}/web/20040101000000/http://example.com/>; rel=\"memento\"; datetime=\"Thu, 01 Jan 2004 00:00:00 GMT\""}
	src := NewTimeMapSource(NewClient(ClientOptions{RatePerHost: -1, ArchiveHosts: []string{a.base()}}), []string{a.base() + "/tm/missing", a.base() + "/tm/ok"}, TimeMapOptions{})
	var got []string
	for tm, err := range src.TimeMaps(context.Background()) {
		if err != nil {
			got = append(got, "error")
			if !strings.Contains(err.Error(), a.base()+"/tm/missing") {
				t.Errorf("error does not name the URI-T: %v", err)
			}
			continue
		}
		got = append(got, tm.Key)
	}
	if !slices.Equal(got, []string{"error", "com,example)/"}) {
		t.Errorf("got %v", got)
	}
}

func TestTimeGate(t *testing.T) {
	a := newRMArchive(t)
	a.mementos["http://x.example/"] = "20100103202051"
	at := time.Date(2010, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name string
		doer Doer
		path string
		urim string
		dt   time.Time
	}{
		{"302", NewClient(ClientOptions{RatePerHost: -1, ArchiveHosts: []string{a.base()}}), "/tg302/http://x.example/", "/web/20100103202051/http://x.example/", time.Date(2010, 1, 3, 20, 20, 51, 0, time.UTC)},
		{"302 followed by http.Client", http.DefaultClient, "/tg302/http://x.example/", "/web/20100103202051/http://x.example/", time.Date(2010, 1, 3, 20, 20, 51, 0, time.UTC)},
		{"200 Content-Location", NewClient(ClientOptions{RatePerHost: -1, ArchiveHosts: []string{a.base()}}), "/tg200/http://x.example/", "/web/20100101010000/http://x.example/", at.Add(time.Hour)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			uriM, dt, err := TimeGate(context.Background(), tc.doer, a.base()+tc.path, at)
			if err != nil || uriM != a.base()+tc.urim || !dt.Equal(tc.dt) {
				t.Errorf("got %s %v %v, want %s %v", uriM, dt, err, a.base()+tc.urim, tc.dt)
			}
		})
	}
	if _, _, err := TimeGate(context.Background(), http.DefaultClient, a.base()+"/nothing/", at); !errors.Is(err, ErrNotArchived) {
		t.Errorf("missing TimeGate: %v", err)
	}
}

func TestFetchMementoRawAndOriginalHeaders(t *testing.T) {
	a := newRMArchive(t)
	a.mementos["http://x.example/"] = "20100103202051,20110101000000"
	a.mementos["http://x.example/gone"] = "20100103202051"
	a.mementos["http://x.example/moved"] = "20100103202051"
	c := NewClient(ClientOptions{RatePerHost: -1, ArchiveHosts: []string{a.base()}})
	ctx := context.Background()
	capt := timemap.Capture{URIR: "http://x.example/", Key: "example,x)/", Time: time.Date(2010, 1, 3, 20, 20, 51, 0, time.UTC),
		URIM: a.base() + "/web/20100103202051/http://x.example/"}

	m, err := FetchMemento(ctx, c, capt, MementoOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if body := string(m.Body); !strings.Contains(body, `href="http://x.example//about"`) || strings.Contains(body, "banner") {
		t.Errorf("not the raw memento: %s", body)
	}
	if m.URIM != a.base()+"/web/20100103202051id_/http://x.example/" || m.Status != 200 || m.Original != "http://x.example/" ||
		!m.MementoDatetime.Equal(capt.Time) {
		t.Errorf("memento %+v", m)
	}
	if m.Header.Get("Content-Type") != "text/html; charset=ISO-8859-1" || m.Header.Get("Server") != "Apache/1.3" ||
		m.Header.Get("Transfer-Encoding") != "" || m.Header.Get("Content-Length") != fmt.Sprint(len(m.Body)) {
		t.Errorf("original headers %v", m.Header)
	}
	got := m.Capture(capt)
	if got.Status != 200 || got.MIME != "text/html" || !got.Time.Equal(capt.Time) || got.URIM != capt.URIM || !strings.HasPrefix(got.Digest, "sha1:") {
		t.Errorf("capture %+v", got)
	}

	// Without id_: the banner and the rewritten links.
	m, err = FetchMemento(ctx, c, capt, MementoOptions{NotRaw: true})
	if err != nil || !strings.Contains(string(m.Body), "banner") {
		t.Errorf("NotRaw: %v %s", err, m.Body)
	}

	if err := m.Check(capt); err != nil {
		t.Errorf("the capture asked for is not its own memento: %v", err)
	}
	// The digest is the body's as served, not the one an index gave.
	indexed := capt
	indexed.Digest = timemap.PayloadDigest(nil)
	if got := m.Capture(indexed); got.Digest != timemap.PayloadDigest(m.Body) {
		t.Errorf("digest %s, want the served body's %s", got.Digest, timemap.PayloadDigest(m.Body))
	}

	// A capture the archive does not hold: redirected to a nearby one,
	// which is another capture, reported as such and never scored as this.
	near := capt
	near.URIM = a.base() + "/web/20100601000000/http://x.example/"
	near.Time = time.Date(2010, 6, 1, 0, 0, 0, 0, time.UTC)
	m, err = FetchMemento(ctx, c, near, MementoOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var sub *SubstituteError
	if err := m.Check(near); !errors.As(err, &sub) || !sub.ServedTime.Equal(capt.Time) || !strings.Contains(err.Error(), "20100601000000") {
		t.Errorf("the nearby capture served for another: %v", err)
	}
	if _, _, err := MementoReader(c, MementoOptions{})(ctx, near); !errors.As(err, &sub) {
		t.Errorf("MementoReader reads the nearby capture as the one asked for: %v", err)
	}
	// A capture without a time takes the one served.
	untimed := near
	untimed.Time = time.Time{}
	if err := m.Check(untimed); err != nil || !m.Capture(untimed).Time.Equal(capt.Time) {
		t.Errorf("a capture of unknown time: %v", err)
	}

	// An archived 404 (X-Archive-Orig-Status) and an archived redirect are mementos.
	gone := timemap.Capture{URIR: "http://x.example/gone", URIM: a.base() + "/web/20100103202051/http://x.example/gone"}
	if m, err := FetchMemento(ctx, c, gone, MementoOptions{}); err != nil || m.Status != 404 || m.Header.Get("Status") != "" {
		t.Errorf("archived 404: %v %v", m, err)
	}
	moved := timemap.Capture{URIR: "http://x.example/moved", URIM: a.base() + "/web/20100103202051/http://x.example/moved"}
	if m, err := FetchMemento(ctx, c, moved, MementoOptions{}); err != nil || m.Status != 301 {
		t.Errorf("archived redirect: %v %v", m, err)
	}
	// Not archived: an error naming the URI-M.
	none := timemap.Capture{URIR: "http://y.example/", URIM: a.base() + "/web/20100103202051/http://y.example/"}
	if _, err := FetchMemento(ctx, c, none, MementoOptions{}); !errors.Is(err, ErrNotArchived) || !strings.Contains(err.Error(), "http://y.example/") {
		t.Errorf("not archived: %v", err)
	}
	// Built from a prefix when the capture names no URI-M.
	bare := timemap.Capture{URIR: "http://x.example/", Time: capt.Time}
	if m, err := FetchMemento(ctx, c, bare, MementoOptions{ArchivePrefix: a.base() + "/web"}); err != nil || m.Status != 200 {
		t.Errorf("from prefix: %v %v", m, err)
	}
	h, body, err := MementoReader(c, MementoOptions{})(ctx, capt)
	if err != nil || h.Get("Content-Type") == "" || !strings.Contains(string(body), "raw") {
		t.Errorf("MementoReader: %v %v", h, err)
	}
}

// rmResolveRun fetches the TimeMap at uriT and all its mementos through a
// fresh Client over the cache in dir.
func rmResolveRun(ctx context.Context, t *testing.T, dir, uriT string) (*Client, []*timemap.TimeMap, int, error) {
	cache, err := OpenCache(dir)
	if err != nil {
		t.Fatal(err)
	}
	c := NewClient(ClientOptions{Cache: cache, RatePerHost: -1, ArchiveHosts: []string{uriT}})
	var failed atomic.Int32
	src := ResolveMementos(NewTimeMapSource(c, []string{uriT}, TimeMapOptions{}), c, MementoOptions{Workers: 1}, func(timemap.Capture, error) { failed.Add(1) })
	var tms []*timemap.TimeMap
	for tm, err := range src.TimeMaps(ctx) {
		if err != nil {
			return c, tms, int(failed.Load()), err
		}
		tms = append(tms, tm)
	}
	return c, tms, int(failed.Load()), nil
}

func TestInterruptedRunResumes(t *testing.T) {
	a := newRMArchive(t)
	var tmap strings.Builder
	tmap.WriteString("<http://r.example/>; rel=\"original\"")
	var held []string
	for i := 0; i < 20; i++ {
		ts := fmt.Sprintf("201001%02d000000", i+1)
		held = append(held, ts)
		tt, _ := timemap.ParseTimestamp(ts)
		fmt.Fprintf(&tmap, ",\n<{{base}}/web/%s/http://r.example/>; rel=\"memento\"; datetime=%q", ts, tt.Format(http.TimeFormat))
	}
	a.mementos["http://r.example/"] = strings.Join(held, ",")
	a.docs["/timemap/link/http://r.example/"] = [2]string{"application/link-format", tmap.String()}
	uriT := a.base() + "/timemap/link/http://r.example/"
	dir := t.TempDir()

	// First run: interrupted when the 12th request (the 11th memento) arrives.
	ctx, cancel := context.WithCancel(context.Background())
	var once sync.Once
	a.onRequest = func(n int64, r *http.Request) {
		if n == 12 {
			once.Do(cancel)
			<-r.Context().Done()
		}
	}
	_, _, _, err := rmResolveRun(ctx, t, dir, uriT)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted run: %v", err)
	}
	a.onRequest = nil
	if n := a.served.total(); n != 11 {
		t.Fatalf("first run served %d answers, want 11", n)
	}

	// Rerun: only the 10 missing mementos are fetched.
	c, tms, failed, err := rmResolveRun(context.Background(), t, dir, uriT)
	if err != nil || len(tms) != 1 || failed != 0 {
		t.Fatalf("rerun: %v, %d TimeMaps, %d failed", err, len(tms), failed)
	}
	if st := c.Stats(); st.Requests != 10 || st.CacheHits != 11 || st.CacheMisses != 10 {
		t.Errorf("rerun stats %+v, want 10 requests and misses (mementos 11-20) and 11 hits (the TimeMap, mementos 1-10)", st)
	}
	for _, cp := range tms[0].Captures {
		if cp.Status != 200 || cp.MIME != "text/html" {
			t.Errorf("capture not resolved: %+v", cp)
		}
	}
	a.served.mu.Lock()
	for u, n := range a.served.n {
		if n != 1 {
			t.Errorf("%s served %d times", u, n)
		}
	}
	if len(a.served.n) != 21 {
		t.Errorf("%d URLs served, want 21", len(a.served.n))
	}
	a.served.mu.Unlock()

	// A third run fetches nothing at all.
	before := a.requests.Load()
	c, _, _, err = rmResolveRun(context.Background(), t, dir, uriT)
	if err != nil || a.requests.Load() != before || c.Stats().CacheHits != 21 {
		t.Errorf("third run: %v, %d requests, stats %+v", err, a.requests.Load()-before, c.Stats())
	}
}

func TestResolveMementosKeepsFailures(t *testing.T) {
	a := newRMArchive(t)
	a.mementos["http://r.example/"] = "20100101000000,20100102000000,20100103000000,20100104000000,20100105000000"
	var tmap strings.Builder
	tmap.WriteString("<http://r.example/>; rel=\"original\"")
	for _, ts := range []string{"20100101000000", "20100102000000", "20100103000000", "20100104000000", "20100105000000"} {
		tt, _ := timemap.ParseTimestamp(ts)
		fmt.Fprintf(&tmap, ",\n<{{base}}/web/%s/http://r.example/>; rel=\"memento\"; datetime=%q", ts, tt.Format(http.TimeFormat))
	}
	// A memento of another URI-R the archive does not hold.
	tmap.WriteString(",\n<{{base}}/web/20100106000000/http://gone.example/>; rel=\"memento\"; datetime=\"Wed, 06 Jan 2010 00:00:00 GMT\"")
	a.docs["/tm"] = [2]string{"application/link-format", tmap.String()}
	c := NewClient(ClientOptions{RatePerHost: -1, ArchiveHosts: []string{a.base()}})
	var failed []string
	src := ResolveMementos(NewTimeMapSource(c, []string{a.base() + "/tm"}, TimeMapOptions{}), c, MementoOptions{},
		func(cp timemap.Capture, err error) { failed = append(failed, cp.Timestamp14()+" "+err.Error()) })
	var n int
	for tm, err := range src.TimeMaps(context.Background()) {
		if err != nil {
			t.Fatal(err)
		}
		n++
		if len(tm.Captures) != 6 {
			t.Fatalf("%d captures, want 6 (none dropped)", len(tm.Captures))
		}
		for i, cp := range tm.Captures {
			want := 200
			if i == 5 {
				want = 0
			}
			if cp.Status != want {
				t.Errorf("capture %d status %d, want %d", i, cp.Status, want)
			}
		}
	}
	if n != 1 || len(failed) != 1 || !strings.Contains(failed[0], "20100106000000 ") || !strings.Contains(failed[0], "not archived") {
		t.Errorf("failures %v", failed)
	}
}

// TestFetchMementoArchivedRedirectLocation: an archived redirect whose
// Location the archive gives as its own header (pywb's id_), the original
// or rewritten to a URI-M, keeps the original Location (issue 38, 9).
func TestFetchMementoArchivedRedirectLocation(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Memento-Datetime", "Fri, 01 Jan 2010 00:00:00 GMT")
		if strings.Contains(r.URL.Path, "rewritten") {
			w.Header().Set("Location", "/web/20100101000000/http://y.example/new")
		} else {
			w.Header().Set("Location", "http://y.example/new")
		}
		w.WriteHeader(http.StatusMovedPermanently)
	}))
	defer srv.Close()
	c := NewClient(ClientOptions{RatePerHost: -1, ArchiveHosts: []string{srv.URL}})
	for _, p := range []string{"plain", "rewritten"} {
		capt := timemap.Capture{URIR: "http://y.example/" + p, URIM: srv.URL + "/web/20100101000000/http://y.example/" + p}
		m, err := FetchMemento(context.Background(), c, capt, MementoOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if m.Status != 301 || m.Header.Get("Location") != "http://y.example/new" {
			t.Errorf("%s: status %d, Location %q", p, m.Status, m.Header.Get("Location"))
		}
	}
}
