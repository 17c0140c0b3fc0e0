package remote

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/offtopic/offtopic/internal/testcorpus"
	"github.com/offtopic/offtopic/timemap"
)

// recordedLinkHeaders returns the 22 TimeGate Link header values recorded
// in fixtures/timemap/pywb-link-headers.yaml (one quoted value per line).
func recordedLinkHeaders(t *testing.T) []string {
	b, err := os.ReadFile(testcorpus.Path(t, "fixtures/timemap/pywb-link-headers.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`(?m)^\s+'[^']*\{url\}': '(.*)'\s*$`)
	var vals []string
	for _, m := range re.FindAllStringSubmatch(string(b), -1) {
		vals = append(vals, m[1])
	}
	if len(vals) != 22 {
		t.Fatalf("%d Link values in the fixture, want 22", len(vals))
	}
	return vals
}

// TestAskTimeGateRecordedLinks answers with the Link headers real TimeGates
// sent (Internet Archive, Archive-It, UKWA with scheme-relative URIs,
// Rhizome): every answer names its URI-R and its TimeMap.
func TestAskTimeGateRecordedLinks(t *testing.T) {
	vals := recordedLinkHeaders(t)
	var cur string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		links, _ := timemap.ParseLinks(cur)
		loc := ""
		for _, l := range links {
			if l.HasRel("memento") && (loc == "" || len(l.Rels()) == 1) {
				loc = l.URI
			}
		}
		w.Header().Set("Link", cur)
		w.Header().Set("Location", loc)
		w.WriteHeader(http.StatusFound)
	}))
	defer srv.Close()
	client := NewClient(ClientOptions{RatePerHost: -1, ArchiveHosts: []string{srv.URL}})
	for i, v := range vals {
		cur = v
		a, err := AskTimeGate(context.Background(), client, srv.URL+"/tg/http://example.com/", time.Date(2014, 1, 26, 0, 0, 0, 0, time.UTC))
		if err != nil {
			t.Errorf("value %d: %v", i, err)
			continue
		}
		if a.Original == "" || !strings.HasPrefix(a.TimeMap, "http") || !strings.Contains(a.TimeMap, "timemap") {
			t.Errorf("value %d: original %q, TimeMap %q", i, a.Original, a.TimeMap)
		}
		if _, ts, ok := timemap.ParseURIM(a.URIM); !ok || a.Datetime.Format("20060102150405") != ts {
			t.Errorf("value %d: URI-M %q at %v", i, a.URIM, a.Datetime)
		}
	}
}

// TestTimeGateSource resolves URI-Rs through a TimeGate: one whose
// TimeGate names a TimeMap (served from a real TimeMap), one whose
// TimeGate names none (a TimeMap of the one memento), one it does not know.
func TestTimeGateSource(t *testing.T) {
	f := newFixtureServer(t)
	f.docs["/timemap/link/http://ennejah.info/"] = [2]string{"application/link-format", readFixture(t, "stanford-swap-openwayback-ennejah.link")}
	tg := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		urir := strings.TrimPrefix(r.URL.Path, "/tg/")
		switch urir {
		case "http://ennejah.info/":
			w.Header().Set("Link", `<http://ennejah.info/>; rel="original", <`+f.URL+`/timemap/link/http://ennejah.info/>; rel="timemap"; type="application/link-format"`)
			w.Header().Set("Location", f.URL+"/web/20110615192424/http://ennejah.info/")
		case "http://lonely.example/":
			w.Header().Set("Location", "/web/20200102030405/http://lonely.example/")
		default:
			http.NotFound(w, r)
			return
		}
		w.WriteHeader(http.StatusFound)
	})
	srv := httptest.NewServer(tg)
	defer srv.Close()
	// f stands for a public archive the aggregator names: on loopback in
	// the test, so it is named as an archive too.
	src := NewTimeGateSource(NewClient(ClientOptions{RatePerHost: -1, ArchiveHosts: []string{srv.URL, f.URL}}), srv.URL+"/tg", []string{"http://ennejah.info/", "http://lonely.example/", "http://unknown.example/"}, time.Time{}, TimeMapOptions{})
	var got []int
	var errs []error
	for tm, err := range src.TimeMaps(context.Background()) {
		if err != nil {
			errs = append(errs, err)
			continue
		}
		got = append(got, len(tm.Captures))
	}
	if len(got) != 2 || got[0] != 7 || got[1] != 1 {
		t.Errorf("TimeMaps of %v captures, want [7 1]", got)
	}
	if len(errs) != 1 || !errors.Is(errs[0], ErrNotArchived) || !strings.Contains(errs[0].Error(), "http://unknown.example/") {
		t.Errorf("errors %v, want one not-archived error naming the URI-R", errs)
	}
	uriM, at, err := Resolve(context.Background(), NewClient(ClientOptions{RatePerHost: -1, ArchiveHosts: []string{srv.URL}}), srv.URL+"/tg", "http://lonely.example/", time.Now())
	if err != nil || uriM != srv.URL+"/web/20200102030405/http://lonely.example/" || at.Format("20060102150405") != "20200102030405" {
		t.Errorf("Resolve: %q %v %v", uriM, at, err)
	}
}

// TestTimeGatePywbFramed: pywb's default TimeGate answers 200 with a page
// that frames the memento, which only its Link header names
// (rel="memento" with its datetime, rel="timemap"); a TimeGateSource reads
// the TimeMap it names (issue 38, 5).
func TestTimeGatePywbFramed(t *testing.T) {
	pw := testcorpus.Pywb(t)
	c := NewClient(ClientOptions{RatePerHost: -1, ArchiveHosts: []string{pw.URL}})
	ctx := context.Background()
	a, err := AskTimeGate(ctx, c, pw.URL+"/dev/http://www.commonjournal4.co.uk/", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	want := time.Date(2007, 6, 24, 1, 51, 40, 0, time.UTC)
	if a.URIM != pw.URL+"/dev/20070624015140mp_/http://www.commonjournal4.co.uk/" || !a.Datetime.Equal(want) ||
		a.TimeMap != pw.URL+"/dev/timemap/link/http://www.commonjournal4.co.uk/" || a.Original != "http://www.commonjournal4.co.uk/" {
		t.Errorf("answer %+v", a)
	}
	n := 0
	for tm, err := range NewTimeGateSource(c, pw.URL+"/dev/", []string{"http://www.commonjournal4.co.uk/", "http://weeklyrecord70.info/"}, time.Time{}, TimeMapOptions{}).TimeMaps(ctx) {
		if err != nil {
			t.Fatal(err)
		}
		n += len(tm.Captures)
	}
	if n != 9 {
		t.Errorf("%d captures through the TimeGate, want the TimeMaps' 9", n)
	}
	if miss := pw.Unrecorded(); len(miss) > 0 {
		t.Errorf("asked for what was not recorded: %v", miss)
	}
}
