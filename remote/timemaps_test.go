package remote

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/offtopic/offtopic/internal/testcorpus"
	"github.com/offtopic/offtopic/timemap"
)

// fixtureServer serves documents by path with a declared Content-Type;
// "{{base}}" in a body is the server's URL. Other paths are 404.
type fixtureServer struct {
	*httptest.Server
	docs map[string][2]string // path -> content type, body
}

func newFixtureServer(t *testing.T) *fixtureServer {
	f := &fixtureServer{docs: map[string][2]string{}}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		d, ok := f.docs[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		if strings.HasPrefix(d[0], "redirect:") {
			http.Redirect(w, r, strings.TrimPrefix(d[0], "redirect:"), http.StatusFound)
			return
		}
		if d[0] != "" {
			w.Header().Set("Content-Type", d[0])
		}
		w.Write([]byte(strings.ReplaceAll(d[1], "{{base}}", f.URL)))
	}))
	t.Cleanup(f.Close)
	return f
}

func readFixture(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(testcorpus.Path(t, "fixtures/timemap/"+name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestFetchTimeMapFixtures serves every real TimeMap of
// fixtures/timemap (counts from FACTS.md), under its own Content-Type and
// under one that contradicts the body: each lists exactly its distinct
// mementos, from the first to the last.
func TestFetchTimeMapFixtures(t *testing.T) {
	f := newFixtureServer(t)
	for _, tc := range []struct {
		file, ct, wrongCT string
		n                 int
		urir, first, last string
	}{
		{"ia-wayback-nytimes-head.link", "application/link-format", "application/json", 3, "http://www.nytimes.com:80/", "19961112181513", "19961219002950"},
		{"ia-wayback-jaytaylor.link", "application/link-format", "text/x-cdxj", 129, "http://www.jaytaylor.com:80/", "20010331114839", "20180519054157"},
		{"stanford-swap-openwayback-ennejah.link", "application/link-format", "text/html", 7, "http://ennejah.info/", "20090718213431", "20110615192424"},
		{"stanford-swap-pywb-ennejah.link", "application/link-format", "", 7, "http://ennejah.info/", "20090718213431", "20110615192424"},
		{"pywb-example-query.link", "application/link-format", "application/json", 2, "http://example.com?example=1", "20140103030321", "20140103030341"},
		{"ipwb-5mementos.link", "application/link-format", "application/cdxj+ors", 5, "http://memento.us/", "20130202100000", "20161231110001"},
		{"mediawiki-memento-kevan-lannister.link", "application/link-format", "text/plain", 126, "http://localhost:8099/index.php/Kevan_Lannister", "20070518022550", "20190520182419"},
		{"mediawiki-memento-kevan-lannister-page-after-20130522.link", "application/link-format", "application/json", 9, "http://localhost:8099/index.php/Kevan_Lannister", "20130523041237", "20190520182419"},
		{"memgator-icc-cpi-elements-of-crimes.json", "application/json", "application/link-format", 62, "https://www.icc-cpi.int/sites/default/files/Publications/Elements-of-Crimes.pdf", "20220408230745", "20231021010153"},
		{"memgator-archive-md-and-ia.json", "application/json", "text/x-cdxj", 2, "https://www.ft.com/content/2ebca647-3721-4b9d-932b-52a3d828505f", "20230627232301", "20230628135942"},
		{"memgator-single-memento.json", "application/json", "application/link-format", 1, "https://datasciencejobs.com/jobs/lead-data-scientist-verizon-united-states-8/", "20231013210812", "20231013210812"},
	} {
		body := readFixture(t, tc.file)
		for _, ct := range []string{tc.ct, tc.wrongCT} {
			path := "/" + strings.ReplaceAll(ct, "/", "_") + "/" + tc.file
			f.docs[path] = [2]string{ct, body}
			tm, err := FetchTimeMap(context.Background(), f.Client(), f.URL+path, TimeMapOptions{})
			if err != nil {
				t.Errorf("%s as %q: %v", tc.file, ct, err)
				continue
			}
			if len(tm.Captures) != tc.n || tm.URIR != tc.urir || tm.Captures[0].Timestamp14() != tc.first || tm.Captures[len(tm.Captures)-1].Timestamp14() != tc.last {
				t.Errorf("%s as %q: %d captures of %s from %s to %s, want %d of %s from %s to %s", tc.file, ct, len(tm.Captures), tm.URIR,
					tm.Captures[0].Timestamp14(), tm.Captures[len(tm.Captures)-1].Timestamp14(), tc.n, tc.urir, tc.first, tc.last)
			}
			if tm.URIT != f.URL+path {
				t.Errorf("%s: URIT %q, want the URI fetched", tc.file, tm.URIT)
			}
		}
	}
}

// TestFetchTimeMapEmptyAndHTML: MemGator's empty answer is "no mementos"
// whatever its type says; an HTML page is named as such.
func TestFetchTimeMapEmptyAndHTML(t *testing.T) {
	f := newFixtureServer(t)
	empty := readFixture(t, "memgator-empty-no-mementos.json")
	for _, ct := range []string{"application/json", "application/link-format", ""} {
		f.docs["/empty"] = [2]string{ct, empty}
		_, err := FetchTimeMap(context.Background(), f.Client(), f.URL+"/empty", TimeMapOptions{})
		if !errors.Is(err, ErrNoMementos) || !errors.Is(err, ErrNotArchived) {
			t.Errorf("empty body as %q: %v, want ErrNoMementos", ct, err)
		}
	}
	f.docs["/html"] = [2]string{"application/link-format", "<!DOCTYPE html><html><body>Wayback Machine</body></html>"}
	if _, err := FetchTimeMap(context.Background(), f.Client(), f.URL+"/html", TimeMapOptions{}); err == nil || !strings.Contains(err.Error(), "HTML page") {
		t.Errorf("HTML page: %v, want an error naming it", err)
	}
}

// TestFetchTimeMapURITAfterRedirect: URIT is the URI that answered.
func TestFetchTimeMapURITAfterRedirect(t *testing.T) {
	f := newFixtureServer(t)
	f.docs["/tm"] = [2]string{"redirect:/real/tm", ""}
	f.docs["/real/tm"] = [2]string{"application/link-format", readFixture(t, "pywb-example-query.link")}
	tm, err := FetchTimeMap(context.Background(), f.Client(), f.URL+"/tm", TimeMapOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if tm.URIT != f.URL+"/real/tm" {
		t.Errorf("URIT %q, want %q", tm.URIT, f.URL+"/real/tm")
	}
	if got := (timemap.LinkOptions{ArchivePrefix: "http://elsewhere"}).LinkTimeMapURI(tm); got != tm.URIT {
		t.Errorf("LinkTimeMapURI %q, want the URI-T fetched", got)
	}
}

// TestFetchTimeMapBrokenLinkedPage: a linked page that fails costs only
// itself. MemGator ends a TimeMap with a rel="timemap" link under its own
// base URL (unreachable here); a paged TimeMap's next page can be gone.
func TestFetchTimeMapBrokenLinkedPage(t *testing.T) {
	f := newFixtureServer(t)
	gone := httptest.NewServer(http.NotFoundHandler())
	goneURL := gone.URL
	gone.Close() // connection refused from now on
	full := strings.TrimRight(readFixture(t, "mediawiki-memento-kevan-lannister.link"), "\n")
	before := strings.TrimRight(readFixture(t, "mediawiki-memento-kevan-lannister-page-before-20130522.link"), "\n")
	after := readFixture(t, "mediawiki-memento-kevan-lannister-page-after-20130522.link")
	f.docs["/memgator"] = [2]string{"application/link-format", full + ",\n<" + goneURL + "/timemap/link/x>; rel=\"timemap\"; type=\"application/link-format\"\n"}
	f.docs["/paged-broken"] = [2]string{"application/link-format", before + ",\n<{{base}}/no-such-page>; rel=\"next\"\n"}
	f.docs["/paged"] = [2]string{"application/link-format", before + ",\n<{{base}}/after>; rel=\"next\"\n"}
	f.docs["/after"] = [2]string{"application/link-format", after}
	f.docs["/bad-page"] = [2]string{"application/link-format", "<x>; rel=\"memento\"; datetime=\"not a date\""}
	f.docs["/paged-garbled"] = [2]string{"application/link-format", before + ",\n<{{base}}/bad-page>; rel=\"next\"\n"}
	for _, tc := range []struct {
		path     string
		n, warns int
	}{
		{"/memgator", 126, 1},
		{"/paged-broken", 116, 1},
		{"/paged-garbled", 116, 1},
		{"/paged", 125, 0}, // the two pages hold 125 of the full map's 126
	} {
		var warns []error
		tm, err := FetchTimeMap(context.Background(), f.Client(), f.URL+tc.path, TimeMapOptions{OnWarning: func(err error) { warns = append(warns, err) }})
		if err != nil {
			t.Errorf("%s: %v", tc.path, err)
			continue
		}
		if len(tm.Captures) != tc.n || len(warns) != tc.warns {
			t.Errorf("%s: %d captures, %d warnings (%v), want %d and %d", tc.path, len(tm.Captures), len(warns), warns, tc.n, tc.warns)
		}
		for _, w := range warns {
			var pe *PageError
			if !errors.As(w, &pe) || pe.URIT != f.URL+tc.path {
				t.Errorf("%s: warning %v is not a PageError of the TimeMap", tc.path, w)
			}
		}
	}
	// The first page failing is the TimeMap failing.
	if _, err := FetchTimeMap(context.Background(), f.Client(), f.URL+"/bad-page", TimeMapOptions{}); err == nil {
		t.Error("a garbled first page gave no error")
	}
}

// orsFromJSON writes a MemGator JSON TimeMap as MemGator's CDXJ object
// resource stream (application/cdxj+ors, /timemap/cdxj/).
func orsFromJSON(t *testing.T, js string) string {
	var j timemap.JSONTimeMap
	if err := json.Unmarshal([]byte(js), &j); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("!context [\"http://tools.ietf.org/html/rfc7089\"]\n")
	fmt.Fprintf(&b, "!id {\"uri\": %q}\n", j.Self)
	b.WriteString("!keys [\"memento_datetime_YYYYMMDDhhmmss\"]\n")
	fmt.Fprintf(&b, "!meta {\"original_uri\": %q}\n", j.OriginalURI)
	fmt.Fprintf(&b, "!meta {\"timegate_uri\": %q}\n", j.TimeGateURI)
	fmt.Fprintf(&b, "!meta {\"timemap_uri\": {\"link_format\": %q, \"json_format\": %q}}\n", j.TimeMapURI.LinkFormat, j.TimeMapURI.JSONFormat)
	for i, m := range j.Mementos.List {
		rel := "memento"
		if i == 0 {
			rel = "first memento"
		}
		fmt.Fprintf(&b, "%s {\"uri\": %q, \"rel\": %q, \"datetime\": %q}\n", m.Datetime.UTC().Format("20060102150405"), m.URI, rel, m.Datetime.UTC().Format(http.TimeFormat))
	}
	return b.String()
}

// TestFetchTimeMapCDXJ reads MemGator's and ipwb's CDXJ object resource
// streams and pywb's CDXJ TimeMap, also at a URL without /timemap/ when the
// archive prefix is given.
func TestFetchTimeMapCDXJ(t *testing.T) {
	f := newFixtureServer(t)
	f.docs["/timemap/cdxj/icc"] = [2]string{"application/cdxj+ors", orsFromJSON(t, readFixture(t, "memgator-icc-cpi-elements-of-crimes.json"))}
	f.docs["/timemap/cdxj/single"] = [2]string{"application/cdxj+ors", orsFromJSON(t, readFixture(t, "memgator-single-memento.json"))}
	pywb := readFixture(t, "pywb-example-query.cdxj")
	f.docs["/pywb/timemap/cdxj/http://example.com"] = [2]string{"text/x-cdxj", pywb}
	f.docs["/coll/index.cdxj"] = [2]string{"text/x-cdxj", pywb}
	for _, tc := range []struct {
		path, prefix, urir string
		n                  int
		firstURIM          string
	}{
		{"/timemap/cdxj/icc", "", "https://www.icc-cpi.int/sites/default/files/Publications/Elements-of-Crimes.pdf", 62, ""},
		{"/timemap/cdxj/single", "", "https://datasciencejobs.com/jobs/lead-data-scientist-verizon-united-states-8/", 1, "https://web.archive.org/web/20231013210812/https://datasciencejobs.com/jobs/lead-data-scientist-verizon-united-states-8/"},
		{"/pywb/timemap/cdxj/http://example.com", "", "http://example.com?example=1", 2, "{{base}}/pywb/20140103030321/http://example.com?example=1"},
		{"/coll/index.cdxj", "http://archive.example/coll", "http://example.com?example=1", 2, "http://archive.example/coll/20140103030321/http://example.com?example=1"},
	} {
		tm, err := FetchTimeMap(context.Background(), f.Client(), f.URL+tc.path, TimeMapOptions{ArchivePrefix: tc.prefix})
		if err != nil {
			t.Errorf("%s: %v", tc.path, err)
			continue
		}
		want := strings.ReplaceAll(tc.firstURIM, "{{base}}", f.URL)
		if len(tm.Captures) != tc.n || tm.URIR != tc.urir || want != "" && tm.Captures[0].URIM != want {
			t.Errorf("%s: %d captures of %s, first %s; want %d of %s, first %s", tc.path, len(tm.Captures), tm.URIR, tm.Captures[0].URIM, tc.n, tc.urir, want)
		}
	}
	_, err := FetchTimeMap(context.Background(), f.Client(), f.URL+"/coll/index.cdxj", TimeMapOptions{})
	if err == nil || !strings.Contains(err.Error(), "--memento-prefix") {
		t.Errorf("CDXJ without /timemap/ and no prefix: %v, want an error naming the flag", err)
	}
}
