package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	neturl "net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/offtopic/offtopic/extract"
	"github.com/offtopic/offtopic/internal/testcorpus"
	"github.com/offtopic/offtopic/report"
	"github.com/offtopic/offtopic/similarity"
	"github.com/offtopic/offtopic/timemap"
)

// testArchive serves a collection of WARCs as a Wayback-style archive:
// link-format TimeMaps at /timemap/link/<URI-R>, raw mementos at
// /web/<ts>id_/<URI-R> (original headers as X-Archive-Orig-*), rewritten ones
// at /web/<ts>/<URI-R>, and an Internet Archive style CDX API at /cdx.
type testArchive struct {
	*httptest.Server
	tms   []*timemap.TimeMap
	byURL map[string]timemap.Capture
	byKey map[string]*timemap.TimeMap
	mu    sync.Mutex
	hits  map[string]int // successful answers per path
	// onMemento, when set, is called before each raw memento is served.
	onMemento func(n int64)
	mementos  atomic.Int64
	// down, when set and true, makes every memento answer 503.
	down *atomic.Bool
}

func newTestArchive(t *testing.T, files []string) *testArchive {
	t.Helper()
	idx, err := timemap.BuildIndex(context.Background(), files, timemap.IndexOptions{})
	if err != nil {
		t.Fatal(err)
	}
	a := &testArchive{byURL: map[string]timemap.Capture{}, byKey: map[string]*timemap.TimeMap{}, hits: map[string]int{}}
	for tm := range idx.TimeMaps(context.Background()) {
		a.tms = append(a.tms, tm)
		a.byKey[tm.Key] = tm
		for _, c := range tm.Captures {
			a.byURL[c.Timestamp14()+"/"+c.URIR] = c
		}
	}
	idx.Close()
	a.Server = httptest.NewServer(http.HandlerFunc(a.serve))
	t.Cleanup(a.Close)
	return a
}

func (a *testArchive) hit(path string) {
	a.mu.Lock()
	a.hits[path]++
	a.mu.Unlock()
}

func (a *testArchive) serve(w http.ResponseWriter, r *http.Request) {
	p := r.URL.RequestURI()
	switch {
	case strings.HasPrefix(p, "/timemap/link/"):
		urir := strings.TrimPrefix(p, "/timemap/link/")
		if tm := a.byKey[timemap.Canonicalize(urir, timemap.CanonSURT)]; tm != nil {
			{
				a.hit(p)
				w.Header().Set("Content-Type", "application/link-format")
				timemap.WriteLinkFormat(w, tm, timemap.LinkOptions{ArchivePrefix: a.URL + "/web"})
				return
			}
		}
		http.NotFound(w, r)
	case strings.HasPrefix(p, "/tg/"): // a TimeGate: the latest memento, and the TimeMap in Link
		urir := strings.TrimPrefix(p, "/tg/")
		tm := a.byKey[timemap.Canonicalize(urir, timemap.CanonSURT)]
		if tm == nil {
			http.NotFound(w, r)
			return
		}
		a.hit(p)
		last := tm.Captures[len(tm.Captures)-1]
		w.Header().Set("Link", "<"+tm.URIR+">; rel=\"original\", <"+a.URL+"/timemap/link/"+tm.URIR+">; rel=\"timemap\"; type=\"application/link-format\"")
		w.Header().Set("Location", a.URL+"/web/"+last.Timestamp14()+"/"+last.URIR)
		w.WriteHeader(http.StatusFound)
	case strings.HasPrefix(p, "/web/"):
		rest := strings.TrimPrefix(p, "/web/")
		ts, urir, _ := strings.Cut(rest, "/")
		raw := strings.HasSuffix(ts, "id_")
		c, ok := a.byURL[strings.TrimSuffix(ts, "id_")+"/"+urir]
		if !ok {
			http.NotFound(w, r)
			return
		}
		if raw && a.onMemento != nil {
			a.onMemento(a.mementos.Add(1))
		}
		if a.down != nil && a.down.Load() {
			http.Error(w, "archive down", http.StatusServiceUnavailable)
			return
		}
		resp, err := timemap.ReadResponse(c.Payload, 0)
		if err != nil {
			http.Error(w, err.Error(), 500)
			return
		}
		body, _ := extract.Decode(resp.Header, resp.Body, 1<<24)
		for k, vs := range resp.Header {
			if k == "Content-Length" || k == "Transfer-Encoding" || k == "Content-Encoding" {
				continue
			}
			for _, v := range vs {
				w.Header().Add("X-Archive-Orig-"+k, v)
			}
		}
		w.Header().Set("Content-Type", resp.Header.Get("Content-Type"))
		w.Header().Set("Memento-Datetime", c.Time.UTC().Format(http.TimeFormat))
		w.Header().Set("Link", "<"+c.URIR+">; rel=\"original\"")
		if !raw { // the archive's banner and rewriting
			body = append([]byte("<div id=banner>Archived page <a href=\"/web/\">home</a></div>"), body...)
		}
		a.hit(p)
		w.WriteHeader(resp.Status)
		w.Write(body)
	case r.URL.Path == "/cdx":
		// The Internet Archive's CDX API: exact and domain matches, paged
		// (showNumPages, page=i) by cdxPage captures.
		q := r.URL.Query()
		url := q.Get("url")
		a.hit(p)
		var tms []*timemap.TimeMap
		if q.Get("matchType") == "domain" {
			for _, tm := range a.tms {
				if h := hostOf(tm.URIR); h == url || strings.HasSuffix(h, "."+url) {
					tms = append(tms, tm)
				}
			}
		} else if tm := a.byKey[timemap.Canonicalize(url, timemap.CanonSURT)]; tm != nil {
			tms = append(tms, tm)
		}
		rows := [][]string{}
		for _, tm := range tms {
			for _, c := range tm.Captures {
				mime, status := c.MIME, fmt.Sprint(c.Status)
				if c.Revisit {
					mime, status = "warc/revisit", "-"
				}
				rows = append(rows, []string{c.Key, c.Timestamp14(), c.URIR, mime, status, strings.TrimPrefix(c.Digest, "sha1:"), fmt.Sprint(c.Length)})
			}
		}
		if q.Get("showNumPages") == "true" {
			fmt.Fprintln(w, (len(rows)+cdxPage-1)/cdxPage)
			return
		}
		if pg := q.Get("page"); pg != "" {
			n, _ := strconv.Atoi(pg)
			rows = rows[min(len(rows), n*cdxPage):min(len(rows), (n+1)*cdxPage)]
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(append([][]string{{"urlkey", "timestamp", "original", "mimetype", "statuscode", "digest", "length"}}, rows...))
	default:
		http.NotFound(w, r)
	}
}

// cdxPage is how many captures a page of the test archive's CDX API holds.
const cdxPage = 5

// hostOf is the host of u, "" when it has none.
func hostOf(u string) string {
	pu, err := neturl.Parse(u)
	if err != nil {
		return ""
	}
	return pu.Hostname()
}

// readCaptures reads every capture result of a results file.
func readCaptures(t *testing.T, dir string) []similarity.CaptureResult {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, "results.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []similarity.CaptureResult
	for r, err := range report.ReadResults(f, "results", nil) {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, r.Captures...)
	}
	return out
}

// verdicts reads a results file as canonical URI-R + timestamp -> verdict.
func verdicts(t *testing.T, dir string) map[string]string {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, "results.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]string{}
	for r, err := range report.ReadResults(f, "results", nil) {
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range r.Captures {
			k := similarity.KeyOf(&c)
			out[k.Key+" "+k.TS] = c.Verdict
		}
	}
	return out
}

func sameVerdicts(t *testing.T, what string, want, got map[string]string) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %d captures, want %d", what, len(got), len(want))
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %s is %q, from the WARCs %q", what, k, got[k], v)
		}
	}
}

// TestSourcesAgree: the sample read from remote TimeMaps, from a CDX server
// and from a CDXJ index gives the verdicts that reading its WARCs gives.
func TestSourcesAgree(t *testing.T) {
	sets := map[string][]string{"sample": sampleFiles(t)}
	if dev := devFiles(); len(dev) > 0 {
		sets["dev"] = dev
	} else {
		t.Log("dev corpus absent or -short: comparing sources on the sample only")
	}
	for name, files := range sets {
		t.Run(name, func(t *testing.T) { sourcesAgree(t, files) })
	}
}

// devFiles lists the dev corpus's WARCs: none where ../shared is absent or
// under -short (the fast loop compares on the sample only).
func devFiles() []string {
	dir := testcorpus.Dir()
	if dir == "" || testing.Short() {
		return nil
	}
	files, _ := filepath.Glob(filepath.Join(dir, "corpus", "dev", "*.warc.gz"))
	return files
}

func sourcesAgree(t *testing.T, files []string) {
	dir := t.TempDir()
	warcOut := filepath.Join(dir, "warc")
	if code, _, stderr := runCLI(t, append([]string{"detect", "-q", "--out-dir", warcOut}, files...)...); code != 0 {
		t.Fatalf("detect: %s", stderr)
	}
	want := verdicts(t, warcOut)
	a := newTestArchive(t, files)
	fast := []string{"--rate", "1000", "--per-host", "8", "--cache-dir", filepath.Join(dir, "cache")}

	var uriTs, seeds []string
	for _, tm := range a.tms {
		uriTs = append(uriTs, a.URL+"/timemap/link/"+tm.URIR)
		seeds = append(seeds, tm.URIR)
	}
	list := filepath.Join(dir, "uri-t.txt")
	os.WriteFile(list, []byte(strings.Join(uriTs, "\n")), 0o644)
	seedFile := filepath.Join(dir, "seeds.txt")
	os.WriteFile(seedFile, []byte(strings.Join(seeds, "\n")), 0o644)

	tmOut := filepath.Join(dir, "tm")
	if code, _, stderr := runCLI(t, append([]string{"detect", "-q", "--out-dir", tmOut, "--timemap", "@" + list}, fast...)...); code != 0 {
		t.Fatalf("detect --timemap: %s", stderr)
	}
	sameVerdicts(t, "--timemap", want, verdicts(t, tmOut))

	cdxOut := filepath.Join(dir, "cdx")
	if code, _, stderr := runCLI(t, append([]string{"detect", "-q", "--out-dir", cdxOut, "--cdx-server", a.URL + "/cdx", "--cdx-kind", "wayback",
		"--memento-prefix", a.URL + "/web", "--seeds", seedFile}, fast...)...); code != 0 {
		t.Fatalf("detect --cdx-server: %s", stderr)
	}
	sameVerdicts(t, "--cdx-server", want, verdicts(t, cdxOut))

	idxDir := filepath.Join(dir, "idx")
	if code, _, stderr := runCLI(t, append([]string{"timemap", "--out-dir", idxDir}, files...)...); code != 0 {
		t.Fatalf("timemap: %s", stderr)
	}
	idxOut := filepath.Join(dir, "index")
	if code, _, stderr := runCLI(t, "detect", "-q", "--out-dir", idxOut, "--index", filepath.Join(idxDir, "index.cdxj"),
		"--warc-dir", filepath.Dir(files[0])); code != 0 {
		t.Fatalf("detect --index: %s", stderr)
	}
	sameVerdicts(t, "--index", want, verdicts(t, idxOut))

	if len(want) > 20 {
		return
	}
	// A seed list narrows an index run to the seeds' TimeMaps.
	one := filepath.Join(dir, "one-seed.txt")
	os.WriteFile(one, []byte("http://www.coastallights-society.org/lens.html\n"), 0o644)
	seedOut := filepath.Join(dir, "seed")
	if code, _, stderr := runCLI(t, "detect", "-q", "--out-dir", seedOut, "--index", filepath.Join(idxDir, "index.cdxj"),
		"--warc-dir", filepath.Dir(files[0]), "--seeds", one); code != 0 {
		t.Fatalf("detect --index --seeds: %s", stderr)
	}
	if got := verdicts(t, seedOut); len(got) != 3 {
		t.Errorf("--seeds: %d captures, want the lens page's 3: %v", len(got), got)
	}
}

// TestRemoteResume: a remote run cut off halfway (the archive fails after a
// few mementos) resumes from the cache and fetches nothing twice: every
// answer the test server gave successfully is asked for once over both runs.
func TestRemoteResume(t *testing.T) {
	files := sampleFiles(t)
	dir := t.TempDir()
	a := newTestArchive(t, files)
	var uriTs []string
	for _, tm := range a.tms {
		uriTs = append(uriTs, a.URL+"/timemap/link/"+tm.URIR)
	}
	args := []string{"detect", "-q", "--out-dir", filepath.Join(dir, "out"), "--cache-dir", filepath.Join(dir, "cache"),
		"--rate", "1000", "--retries", "0"}
	for _, u := range uriTs {
		args = append(args, "--timemap", u)
	}
	var down atomic.Bool
	a.onMemento = func(n int64) {
		if n > 5 {
			down.Store(true)
		}
	}
	a.down = &down
	t0 := time.Now()
	code, _, stderr := runCLI(t, args...)
	t.Logf("run 1: %v", time.Since(t0))
	if !strings.Contains(stderr, "skipped") {
		t.Fatalf("the first run met no outage (exit %d): %s", code, stderr)
	}
	first := len(a.hits)
	failed := 0
	for _, c := range readCaptures(t, filepath.Join(dir, "out")) {
		if strings.HasPrefix(c.Reason, "fetch failed:") && strings.Contains(c.Reason, "503") {
			failed++
		}
	}
	if failed == 0 {
		t.Error("captures that could not be fetched are not reported with their reason")
	}
	down.Store(false)
	a.onMemento = nil
	if code, _, stderr := runCLI(t, args...); code != 0 {
		t.Fatalf("resumed run: %s", stderr)
	}
	for p, n := range a.hits {
		if n > 1 {
			t.Errorf("%s fetched %d times", p, n)
		}
	}
	if first == 0 || len(a.hits) <= first {
		t.Errorf("first run fetched %d URLs, both runs %d: want a partial first run", first, len(a.hits))
	}
	sameVerdicts(t, "resumed --timemap run", verdictsOfWARC(t, files), verdicts(t, filepath.Join(dir, "out")))
	// A third run is served from the cache alone.
	if code, _, stderr := runCLI(t, args...); code != 0 || !strings.Contains(stderr, "offtopic: 0 requests") {
		t.Errorf("cached rerun: exit %d: %s", code, stderr)
	}
}

// verdictsOfWARC runs detect over files and returns its verdicts.
func verdictsOfWARC(t *testing.T, files []string) map[string]string {
	t.Helper()
	dir := t.TempDir()
	if code, _, stderr := runCLI(t, append([]string{"detect", "-q", "--out-dir", dir}, files...)...); code != 0 {
		t.Fatalf("detect: %s", stderr)
	}
	return verdicts(t, dir)
}

// TestRemoteFlags runs the sample through the remote flags: --no-cache
// fetches each memento once; uri_t and the offtopic.json keys are the URI-Ts
// fetched; TimeMaps lost to an error or without mementos are counted in the
// summary; --cdx-* narrow the CDX query; --timegate finds the TimeMaps of
// the seeds.
func TestRemoteFlags(t *testing.T) {
	files := sampleFiles(t)
	dir := t.TempDir()
	a := newTestArchive(t, files)
	want := verdictsOfWARC(t, files)
	broken := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { http.Error(w, "oops", 500) }))
	defer broken.Close()
	fast := []string{"--rate", "1000", "--retries", "0", "--temp-dir", dir}
	var uriTs, seeds []string
	captures := 0
	for _, tm := range a.tms {
		uriTs = append(uriTs, a.URL+"/timemap/link/"+tm.URIR)
		seeds = append(seeds, tm.URIR)
		captures += len(tm.Captures)
	}
	seedFile := filepath.Join(dir, "seeds.txt")
	os.WriteFile(seedFile, []byte(strings.Join(seeds, "\n")), 0o644)
	list := filepath.Join(dir, "uri-t.txt")
	os.WriteFile(list, []byte(strings.Join(append(uriTs, a.URL+"/timemap/link/http://not-archived.example/", broken.URL+"/timemap/link/x"), "\n")), 0o644)

	out := filepath.Join(dir, "nocache")
	code, _, stderr := runCLI(t, append([]string{"detect", "-q", "--out-dir", out, "--timemap", "@" + list, "--no-cache"}, fast...)...)
	if code != 0 {
		t.Fatalf("detect --no-cache: exit %d: %s", code, stderr)
	}
	sameVerdicts(t, "--no-cache", want, verdicts(t, out))
	raw := 0
	for p, n := range a.hits {
		if n != 1 {
			t.Errorf("--no-cache: %s fetched %d times", p, n)
		}
		if strings.HasPrefix(p, "/web/") {
			raw++
		}
	}
	if raw != captures {
		t.Errorf("--no-cache: %d mementos fetched, want %d", raw, captures)
	}
	if !strings.Contains(stderr, "1 TimeMaps dropped for errors, 1 without mementos") {
		t.Errorf("summary does not count the lost TimeMaps: %s", stderr)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "offtopic-run-cache-*")); len(left) != 0 {
		t.Errorf("--no-cache left %v", left)
	}
	for _, r := range readResults(t, out) {
		if r.URIT != a.URL+"/timemap/link/"+r.URIR {
			t.Errorf("uri_t %q of %s, want the URI-T fetched", r.URIT, r.URIR)
		}
	}
	js, err := os.ReadFile(filepath.Join(out, "offtopic.json"))
	if err != nil {
		t.Fatal(err)
	}
	var otmt map[string]json.RawMessage
	if err := json.Unmarshal(js, &otmt); err != nil {
		t.Fatal(err)
	}
	for k := range otmt {
		if !strings.HasPrefix(k, a.URL+"/timemap/link/") {
			t.Errorf("offtopic.json key %q is not a URI-T fetched", k)
		}
	}

	tgOut := filepath.Join(dir, "timegate")
	if code, _, stderr := runCLI(t, append([]string{"detect", "-q", "--out-dir", tgOut, "--timegate", a.URL + "/tg/", "--seeds", seedFile, "--cache-dir", filepath.Join(dir, "cache")}, fast...)...); code != 0 {
		t.Fatalf("detect --timegate: exit %d: %s", code, stderr)
	}
	sameVerdicts(t, "--timegate", want, verdicts(t, tgOut))

	a.mu.Lock()
	clear(a.hits)
	a.mu.Unlock()
	cdxOut := filepath.Join(dir, "cdx")
	if code, _, stderr := runCLI(t, append([]string{"detect", "-q", "--out-dir", cdxOut, "--cdx-server", a.URL + "/cdx", "--memento-prefix", a.URL + "/web",
		"--seeds", seedFile, "--cdx-from", "2004", "--cdx-to", "20301231", "--cdx-limit", "1", "--cdx-filter", "statuscode:200", "--cache-dir", filepath.Join(dir, "cache")}, fast...)...); code != 0 {
		t.Fatalf("detect --cdx-server with --cdx-*: exit %d: %s", code, stderr)
	}
	asked := 0
	for p := range a.hits {
		if strings.HasPrefix(p, "/cdx?") {
			asked++
			for _, q := range []string{"from=2004", "to=20301231", "limit=1", "filter=statuscode%3A200"} {
				if !strings.Contains(p, q) {
					t.Errorf("CDX query %s lacks %s", p, q)
				}
			}
		}
	}
	if asked != len(seeds) {
		t.Errorf("%d CDX queries, want one per seed (%d)", asked, len(seeds))
	}
	for _, r := range readResults(t, cdxOut) {
		if len(r.Captures) != 1 {
			t.Errorf("--cdx-limit 1: %s has %d captures", r.URIR, len(r.Captures))
		}
	}
	if code, _, stderr := runCLI(t, "detect", "-q", "--out-dir", filepath.Join(dir, "bad"), "--cdx-server", a.URL+"/cdx", "--seeds", seedFile, "--cdx-from", "2004-01"); code == 0 || !strings.Contains(stderr, "--cdx-from") {
		t.Errorf("bad --cdx-from: exit %d: %s", code, stderr)
	}
}

// readResults reads the TimeMap results of a results file.
func readResults(t *testing.T, dir string) []*similarity.TimeMapResult {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, "results.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []*similarity.TimeMapResult
	for r, err := range report.ReadResults(f, "results", nil) {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}

// TestArchiveItCollectionMissing: detect --archiveit of a collection that
// does not exist or is private says which on stderr, without the error
// page's HTML, and exits 1 (issue 23 item 9).
func TestArchiveItCollectionMissing(t *testing.T) {
	tests := []struct {
		status int
		want   string
	}{
		{http.StatusNotFound, "Archive-It collection 999 does not exist"},
		{http.StatusForbidden, "Archive-It collection 999 is private"},
	}
	for _, tc := range tests {
		t.Run(http.StatusText(tc.status), func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/html")
				w.WriteHeader(tc.status)
				fmt.Fprint(w, "<!DOCTYPE html><html><body><h1>Page not found</h1></body></html>")
			}))
			defer srv.Close()
			code, _, stderr := runCLI(t, "detect", "-q", "--no-cache", "--archiveit", "999", "--archiveit-site", srv.URL, "--archiveit-wayback", srv.URL, "-d", t.TempDir())
			if code != 1 || !strings.Contains(stderr, tc.want) || strings.Contains(stderr, "<html") {
				t.Errorf("exit %d, want 1 and %q without HTML:\n%s", code, tc.want, stderr)
			}
		})
	}
}
