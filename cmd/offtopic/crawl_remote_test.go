package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/offtopic/offtopic/crawl"
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
}
