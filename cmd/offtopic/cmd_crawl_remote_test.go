package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/offtopic/offtopic/crawl"
	"github.com/offtopic/offtopic/report"
	"github.com/offtopic/offtopic/timemap"
)

// TestCrawlRemoteEqualsLocal: crawling the sample through a CDX server and
// raw mementos collects the same documents, in the same order, as crawling
// its WARCs, and writes a WARC that timemap reads back.
func TestCrawlRemoteEqualsLocal(t *testing.T) {
	files := sampleFiles(t)
	dir := t.TempDir()
	spec := filepath.Join(dir, "spec.json")
	os.WriteFile(spec, []byte(`{"name": "lights", "reference_documents": ["http://www.coastallights-society.org/lens.html"],
		"keywords": ["lighthouse keeper", "lens"], "event_start": "2008-01-01", "event_end": "2009-12-31",
		"lead_days": 30, "cooldown_days": 30, "seeds": ["http://www.coastallights-society.org/"], "alpha": 0.5}`), 0o644)
	local := filepath.Join(dir, "local")
	if code, _, stderr := runCLI(t, "crawl", "-q", "--local-idf", "--spec", spec, "--archive", filepath.Dir(files[0]), "--out", local); code != 0 {
		t.Fatalf("local crawl: %s", stderr)
	}
	a := newTestArchive(t, files)
	remote := filepath.Join(dir, "remote")
	if code, _, stderr := runCLI(t, "crawl", "-q", "--local-idf", "--spec", spec, "--cdx-server", a.URL+"/cdx", "--cdx-kind", "wayback",
		"--memento-prefix", a.URL+"/web", "--cache-dir", filepath.Join(dir, "cache"), "--rate", "0", "--out", remote); code != 0 {
		t.Fatalf("remote crawl: %s", stderr)
	}
	order := func(out string) []string {
		entries, err := crawl.ReadLog(filepath.Join(out, "crawl.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		var urls []string
		for _, e := range entries {
			urls = append(urls, e.URL+" "+e.Capture.Timestamp14())
		}
		return urls
	}
	lo, ro := order(local), order(remote)
	if len(lo) < 2 || strings.Join(lo, "\n") != strings.Join(ro, "\n") {
		t.Errorf("crawl logs differ:\nlocal:\n%s\nremote:\n%s", strings.Join(lo, "\n"), strings.Join(ro, "\n"))
	}
	warcs, _ := filepath.Glob(filepath.Join(remote, "*.warc.gz"))
	if len(warcs) != 1 {
		t.Fatalf("remote crawl wrote %v", warcs)
	}
	code, _, stderr := runCLI(t, "timemap", "--out-dir", filepath.Join(dir, "tm"), warcs[0])
	if code != 0 || !strings.Contains(stderr, " "+strconv.Itoa(len(ro))+" captures") {
		t.Errorf("timemap on the remote crawl's WARC (want %d captures): exit %d: %s", len(ro), code, stderr)
	}
	// The remote crawl's collection audited through the same CDX server: the
	// reference documents come from it, the background from its paging API.
	// The local crawl's against its archive: the background from the archive.
	for _, c := range []struct {
		name, coll, from string
		source           []string
	}{
		{"cdx-server", remote, "CDX server", []string{"--cdx-server", a.URL + "/cdx", "--cdx-kind", "wayback", "--memento-prefix", a.URL + "/web", "--cache-dir", filepath.Join(dir, "cache"), "--rate", "0"}},
		{"archive", local, "archive", []string{"--archive", filepath.Dir(files[0])}},
	} {
		out := filepath.Join(dir, "audit-"+c.name)
		if code, _, stderr := runCLI(t, append(append([]string{"crawl", "audit", "-q", "--spec", spec, "-o", out}, c.source...), c.coll)...); code != 0 {
			t.Fatalf("audit through --%s: exit %d: %s", c.name, code, stderr)
		}
		f, err := os.Open(filepath.Join(out, "results.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		var run report.Run
		for r, err := range report.ReadResults(f, "results.jsonl", &run) {
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Captures) != 1 || r.Captures[0].Reason == "" {
				t.Errorf("audit through --%s: %s: %d captures, reason %q", c.name, r.URIR, len(r.Captures), r.Captures[0].Reason)
			}
			n++
		}
		f.Close()
		if n != len(ro) || run.Options["background_from"] != c.from || run.Options["background"] == "0" {
			t.Errorf("audit through --%s: %d documents (want %d), run %+v: want the background from the %s", c.name, n, len(ro), run, c.from)
		}
	}
	// The CDX server's background came through its paging API: how many
	// pages the sites' captures fill, then pages of them.
	var numPages, pages int
	a.mu.Lock()
	for p := range a.hits {
		if strings.HasPrefix(p, "/cdx?") && strings.Contains(p, "matchType=domain") {
			if strings.Contains(p, "showNumPages=true") {
				numPages++
			} else if strings.Contains(p, "page=") {
				pages++
			}
		}
	}
	a.mu.Unlock()
	if numPages == 0 || pages == 0 {
		t.Errorf("audit through --cdx-server: %d showNumPages and %d page requests, want the background drawn through paging", numPages, pages)
	}
}

// TestCrawlTimeGateAcrossArchives: two archives each hold part of the
// sample, behind a fake aggregator whose TimeGate redirects to the memento
// closest to Accept-Datetime in either; the crawl collects documents from
// both, fetched from the archive that holds each.
func TestCrawlTimeGateAcrossArchives(t *testing.T) {
	files := sampleFiles(t)
	archives := []*testArchive{newTestArchive(t, files[:1]), newTestArchive(t, files[1:])}
	gates := 0
	agg := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		uri, ok := strings.CutPrefix(r.URL.RequestURI(), "/timegate/")
		if !ok {
			http.NotFound(w, r)
			return
		}
		gates++
		at, err := http.ParseTime(r.Header.Get("Accept-Datetime"))
		if err != nil {
			http.Error(w, "bad Accept-Datetime", http.StatusBadRequest)
			return
		}
		key := timemap.Canonicalize(uri, timemap.CanonSURT)
		var best string
		var bestD time.Duration = -1
		for _, a := range archives {
			tm := a.byKey[key]
			if tm == nil {
				continue
			}
			for _, c := range tm.Captures {
				d := c.Time.Sub(at)
				if d < 0 {
					d = -d
				}
				if bestD < 0 || d < bestD {
					best, bestD = a.URL+"/web/"+c.Timestamp14()+"/"+c.URIR, d
				}
			}
		}
		if best == "" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Vary", "accept-datetime")
		http.Redirect(w, r, best, http.StatusFound)
	}))
	defer agg.Close()
	dir := t.TempDir()
	spec := filepath.Join(dir, "spec.json")
	os.WriteFile(spec, []byte(`{"name": "lights", "reference_documents": ["http://www.coastallights-society.org/lens.html"],
		"keywords": ["lighthouse keeper", "lens"], "event_start": "2007-06-01", "event_end": "2008-12-31",
		"lead_days": 30, "cooldown_days": 30, "seeds": ["http://www.coastallights-society.org/"], "alpha": 0.5}`), 0o644)
	out := filepath.Join(dir, "out")
	// The archives the aggregator redirects to stand for public ones but
	// are on loopback, which only --allow-private lets the client reach.
	if code, _, stderr := runCLI(t, "crawl", "-q", "--spec", spec, "--timegate", agg.URL+"/timegate/",
		"--cache-dir", filepath.Join(dir, "cache"), "--rate", "0", "--out", out, "--allow-private"); code != 0 {
		t.Fatalf("crawl through the aggregator: %s", stderr)
	}
	entries, err := crawl.ReadLog(filepath.Join(out, "crawl.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	from := map[string]int{}
	for _, e := range entries {
		for i, a := range archives {
			if strings.HasPrefix(e.Capture.URIM, a.URL+"/") {
				from[fmt.Sprint(i)]++
			}
		}
	}
	if gates == 0 || len(entries) < 2 || from["0"] == 0 || from["1"] == 0 {
		t.Errorf("%d TimeGate requests, %d documents, from archives %v: want documents from both", gates, len(entries), from)
	}
	warcs, _ := filepath.Glob(filepath.Join(out, "*.warc.gz"))
	if len(warcs) != 1 {
		t.Fatalf("crawl wrote %v", warcs)
	}
	w, _ := os.ReadFile(warcs[0])
	if len(w) == 0 {
		t.Error("empty WARC")
	}
}
