package remote

import (
	"cmp"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/offtopic/offtopic/timemap"
)

// fakeArchiveIt serves the collection page fixtures and link-format
// TimeMaps for collection 1234.
type fakeArchiveIt struct {
	tb testing.TB
	// mementos per seed: capture times (14 digits); a seed not listed is 404.
	mementos map[string][]string
	// pages, when set, answer for collection pages by number ("1", "2")
	// instead of the fixtures.
	pages map[string]fakePage

	mu    sync.Mutex
	paths []string
}

func (f *fakeArchiveIt) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	f.paths = append(f.paths, r.URL.RequestURI())
	f.mu.Unlock()
	switch {
	case r.URL.Path == "/collections/1234" && f.pages[cmp.Or(r.URL.Query().Get("page"), "1")].status != 0:
		p := f.pages[cmp.Or(r.URL.Query().Get("page"), "1")]
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.WriteHeader(p.status)
		w.Write([]byte(p.body))
	case r.URL.Path == "/collections/1234":
		name := "archiveit-page1.html"
		switch r.URL.Query().Get("page") {
		case "", "1":
		case "2":
			name = "archiveit-page2.html"
		default:
			http.NotFound(w, r)
			return
		}
		b, err := os.ReadFile(filepath.Join("testdata", "archiveit", name))
		if err != nil {
			f.tb.Error(err)
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(b)
	case strings.HasPrefix(r.URL.Path, "/1234/timemap/link/"):
		seed := strings.TrimPrefix(r.URL.Path, "/1234/timemap/link/")
		times, ok := f.mementos[seed]
		if !ok {
			http.Error(w, "Resource Not In Archive", http.StatusNotFound)
			return
		}
		w.Header().Set("Content-Type", "application/link-format")
		fmt.Fprintf(w, "<%s>; rel=\"original\",\n<http://%s/1234/timemap/link/%s>; rel=\"self\"; type=\"application/link-format\",\n", seed, r.Host, seed)
		for i, ts := range times {
			t, _ := time.Parse("20060102150405", ts)
			rel := "memento"
			if i == 0 {
				rel = "first memento"
			}
			fmt.Fprintf(w, "<http://%s/1234/%s/%s>; rel=\"%s\"; datetime=\"%s\",\n", r.Host, ts, seed, rel, t.Format(http.TimeFormat))
		}
		fmt.Fprintf(w, "<http://%s/1234/%s>; rel=\"timegate\"\n", r.Host, seed)
	default:
		http.NotFound(w, r)
	}
}

// fakePage is a collection page's answer.
type fakePage struct {
	status int
	body   string
}

func startArchiveIt(tb testing.TB) (*fakeArchiveIt, *ArchiveIt) {
	f := &fakeArchiveIt{tb: tb, mementos: map[string][]string{
		"http://www.pointarena-light.example/":        {"20160120000000", "20090403101010", "20120101120000"},
		"https://keepers-assoc.example/news/":         {"20100601000000", "20151202000000"},
		"http://lightmuseum.example/":                 {"20110101000000"},
		"http://www.capeforlorn.example/history.html": {"20120808080808"},
		"http://fog-signals.example/":                 {"20110202000000", "20120202000000", "20130202000000"},
	}}
	ts := httptest.NewServer(f)
	tb.Cleanup(ts.Close)
	return f, &ArchiveIt{Collection: "1234", Doer: ts.Client(), BaseURL: ts.URL, CollectionBaseURL: ts.URL + "/"}
}

func TestArchiveItSeeds(t *testing.T) {
	f, a := startArchiveIt(t)
	seeds, err := a.Seeds(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"http://www.pointarena-light.example/",
		"https://keepers-assoc.example/news/",
		"http://lightmuseum.example/",
		"http://www.capeforlorn.example/history.html",
		"http://fog-signals.example/",
		"http://never-crawled.example/",
	}
	if !slices.Equal(seeds, want) {
		t.Fatalf("seeds\n%q\nwant\n%q", seeds, want)
	}
	if want := []string{"/collections/1234", "/collections/1234?page=2"}; !slices.Equal(f.paths, want) {
		t.Fatalf("pages fetched %q, want %q", f.paths, want)
	}
}

func TestArchiveItTimeMaps(t *testing.T) {
	_, a := startArchiveIt(t)
	var keys []string
	byKey := map[string]*timemap.TimeMap{}
	for tm, err := range a.TimeMaps(context.Background()) {
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, tm.Key)
		byKey[tm.Key] = tm
	}
	want := []string{"example,capeforlorn)/history.html", "example,fog-signals)/", "example,keepers-assoc)/news",
		"example,lightmuseum)/", "example,pointarena-light)/"}
	if !slices.Equal(keys, want) {
		t.Fatalf("keys %q, want %q (sorted; the uncaptured seed left out)", keys, want)
	}
	tm := byKey["example,pointarena-light)/"]
	if len(tm.Captures) != 3 || tm.URIR != "http://www.pointarena-light.example/" {
		t.Fatalf("TimeMap %+v", tm)
	}
	for i, c := range tm.Captures {
		if i > 0 && !c.Time.After(tm.Captures[i-1].Time) {
			t.Fatalf("captures out of time order: %+v", tm.Captures)
		}
		wantM := a.BaseURL + "/1234/" + c.Timestamp14() + "/http://www.pointarena-light.example/"
		if c.URIM != wantM || c.Key != tm.Key || c.URIR != tm.URIR {
			t.Fatalf("capture %+v, want URI-M %s", c, wantM)
		}
	}
	if got := tm.Captures[0].Timestamp14(); got != "20090403101010" {
		t.Fatalf("first capture %s", got)
	}
}

func TestArchiveItDefaults(t *testing.T) {
	a := &ArchiveIt{Collection: "1"}
	if a.wayback() != DefaultArchiveItWayback || a.site() != DefaultArchiveItSite {
		t.Fatalf("defaults %s %s", a.wayback(), a.site())
	}
	if _, err := (&ArchiveIt{}).Seeds(context.Background()); err == nil {
		t.Fatal("no collection accepted")
	}
}

// TestArchiveItCollectionTrouble: a collection page after the first that
// fails keeps the seeds read before it, with a warning; ftp:// seeds are
// listed as skipped; a collection that does not exist or is private says
// which, without the error page's HTML (issue 23 item 9).
func TestArchiveItCollectionTrouble(t *testing.T) {
	const errPage = "<!DOCTYPE html><html><head><title>Oops</title></head><body><h1>Something went wrong</h1></body></html>"
	page1 := []string{"example,capeforlorn)/history.html", "example,keepers-assoc)/news", "example,lightmuseum)/", "example,pointarena-light)/"}
	tests := []struct {
		name  string
		pages map[string]fakePage
		keys  []string
		errs  []string
	}{
		{"page 2 fails", map[string]fakePage{"2": {500, errPage}}, page1,
			[]string{"collection 1234: page 2 failed, the seeds after it are missing; going on with the 4 seeds of the pages before it", "HTTP 500"}},
		{"ftp seed", map[string]fakePage{"2": {200, `<html><body><div class="result-item"><h3 class="url"><a href="https://wayback.archive-it.org/1234/*/ftp://ftp.fog-signals.example/pub/">ftp://ftp.fog-signals.example/pub/</a></h3></div></body></html>`}}, page1,
			[]string{"seed ftp://ftp.fog-signals.example/pub/ is not an http(s) URL"}},
		{"not found", map[string]fakePage{"1": {404, errPage}}, nil, []string{"collection 1234 does not exist", "HTTP 404"}},
		{"gone", map[string]fakePage{"1": {410, errPage}}, nil, []string{"collection 1234 does not exist"}},
		{"private, forbidden", map[string]fakePage{"1": {403, errPage}}, nil, []string{"collection 1234 is private", "HTTP 403"}},
		{"private, says so", map[string]fakePage{"1": {200, "<html><body><h1>This collection is private.</h1></body></html>"}}, nil, []string{"collection 1234 is private"}},
		{"no seeds", map[string]fakePage{"1": {200, "<html><body><h1>Lighthouses</h1></body></html>"}}, nil, []string{"collection 1234 lists no public seeds"}},
		{"first page fails", map[string]fakePage{"1": {500, errPage}}, nil, []string{"collection 1234:", "HTTP 500"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, a := startArchiveIt(t)
			f.pages = tc.pages
			var keys, errs []string
			for tm, err := range a.TimeMaps(context.Background()) {
				if err != nil {
					errs = append(errs, err.Error())
					continue
				}
				keys = append(keys, tm.Key)
			}
			if !slices.Equal(keys, tc.keys) {
				t.Errorf("TimeMaps %q, want %q", keys, tc.keys)
			}
			all := strings.Join(errs, "\n")
			for _, w := range tc.errs {
				if !strings.Contains(all, w) {
					t.Errorf("errors lack %q:\n%s", w, all)
				}
			}
			if len(errs) != 1 || strings.Contains(all, "<") || strings.Contains(all, "Something went wrong") {
				t.Errorf("want one error without the page's HTML, got %d:\n%s", len(errs), all)
			}
		})
	}
}
