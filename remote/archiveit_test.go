package remote

import (
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

	mu    sync.Mutex
	paths []string
}

func (f *fakeArchiveIt) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	f.paths = append(f.paths, r.URL.RequestURI())
	f.mu.Unlock()
	switch {
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
