package crawl

import (
	"fmt"
	"math"
	"net/http"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/offtopic/offtopic/extract"
	"github.com/offtopic/offtopic/internal/testcorpus"
	"github.com/offtopic/offtopic/timemap"
)

func day(s string) time.Time {
	t, err := time.Parse("2006-01-02", s)
	if err != nil {
		panic(err)
	}
	return t
}

func TestTempRHalfLife(t *testing.T) {
	ev := Event{Start: day("2005-04-05"), End: day("2005-05-05"), Lead: 30 * 24 * time.Hour, Cooldown: 14 * 24 * time.Hour}
	cases := []struct {
		at   time.Time
		want float64
	}{
		{day("2005-04-05"), 1},
		{day("2005-04-20"), 1},
		{day("2005-05-05"), 1},
		{day("2005-03-06"), 0.5},  // one lead time before the start
		{day("2005-02-04"), 0.25}, // two
		{day("2005-05-19"), 0.5},  // one cool-down after the end
		{day("2005-06-02"), 0.25},
		{time.Time{}, 0},
	}
	for _, c := range cases {
		if got := ev.TempR(c.at); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("TempR(%s) = %v, want %v", c.at.Format("2006-01-02"), got, c.want)
		}
	}
	// The window a relevant page is published in is where TempR >= 0.5.
	for d := day("2005-01-01"); d.Before(day("2005-07-01")); d = d.Add(6 * time.Hour) {
		if got, want := ev.InWindow(d), ev.TempR(d) >= 0.5; got != want {
			t.Errorf("InWindow(%s) = %v, TempR %v", d, got, ev.TempR(d))
		}
	}
	if ev.InWindow(time.Time{}) {
		t.Error("InWindow(zero time) = true")
	}
	noLead := Event{Start: ev.Start, End: ev.End}
	if noLead.InWindow(day("2005-04-04")) || !noLead.InWindow(day("2005-04-05")) {
		t.Error("no lead time: the window must be the span")
	}
	if got := noLead.TempR(day("2005-04-04")); got != 0 {
		t.Errorf("no lead time: TempR before start = %v, want 0", got)
	}
	if got := noLead.TempR(day("2005-05-06")); got != 0 {
		t.Errorf("no cool-down: TempR after end = %v, want 0", got)
	}
}

func TestKeywordBoost(t *testing.T) {
	kw := StemKeywords([]string{"general election", "vote"}, "en")
	if len(kw) != 2 || strings.Join(kw[0], " ") != "general elect" {
		t.Fatalf("stemmed keywords = %q", kw)
	}
	for f, want := range map[string]float64{"general elect": 2, "vote": 2, "elect": 1.5, "elect result": 1.5, "weather": 1, "local weather": 1} {
		if got := KeywordBoost(f, kw); got != want {
			t.Errorf("KeywordBoost(%q) = %v, want %v", f, got, want)
		}
	}
	df := NewDocFreq()
	ref := NewReference([][]string{{"vote", "weather", "count"}}, kw, df)
	if ref.Vector["vote"] != 2*Weigh(map[string]float64{"vote": 2}, df)["vote"] {
		t.Errorf("reference weight of a keyword not doubled: %v", ref.Vector)
	}
}

func TestFeaturesAndCosine(t *testing.T) {
	f := Features([]string{"general", "elect", "general", "elect"})
	if f["general"] != 2 || f["general elect"] != 2 || f["elect general"] != 1 {
		t.Errorf("Features = %v", f)
	}
	// TopicR is the same to the last bit on every call: a resumed crawl
	// rebuilds the frontier's order exactly.
	var doc, refTerms []string
	for i := range 300 {
		doc = append(doc, fmt.Sprintf("t%d", i%97))
		refTerms = append(refTerms, fmt.Sprintf("t%d", i%89))
	}
	df := NewDocFreq()
	df.Add(Features(doc))
	ref := NewReference([][]string{refTerms}, nil, df)
	first := ref.TopicR(doc, df)
	if first <= 0 || first >= 1 {
		t.Fatalf("TopicR = %v", first)
	}
	for range 50 {
		if got := ref.TopicR(doc, df); got != first {
			t.Fatalf("TopicR %v then %v: summation order changed", first, got)
		}
	}
	if got := ref.TopicR([]string{"unseen"}, df); got != 0 {
		t.Errorf("TopicR of a document sharing nothing = %v", got)
	}
	if got := TTR(0.5, 0.2, 1); math.Abs(got-0.6) > 1e-12 {
		t.Errorf("TTR = %v", got)
	}
}

func TestSelectSnapshot(t *testing.T) {
	ev := Event{Start: day("2005-04-05"), End: day("2005-05-05")}
	loc := timemap.Location{File: "x.warc.gz", Offset: 1, Length: 1}
	cap := func(d string, status int) timemap.Capture {
		return timemap.Capture{URIR: "http://a/", Time: day(d), Status: status, Loc: loc, Payload: loc}
	}
	cases := []struct {
		name string
		caps []timemap.Capture
		want string
	}{
		{"earliest inside", []timemap.Capture{cap("2005-03-01", 200), cap("2005-04-20", 200), cap("2005-04-10", 200), cap("2005-06-01", 200)}, "2005-04-10"},
		{"closest before", []timemap.Capture{cap("2005-01-01", 200), cap("2005-03-30", 200), cap("2005-06-01", 200)}, "2005-03-30"},
		{"closest after", []timemap.Capture{cap("2005-01-01", 200), cap("2005-05-10", 200)}, "2005-05-10"},
		{"skips errors", []timemap.Capture{cap("2005-04-10", 404), cap("2005-06-01", 200)}, "2005-06-01"},
	}
	for _, c := range cases {
		got, ok := SelectSnapshot(c.caps, ev)
		if !ok || got.Time.Format("2006-01-02") != c.want {
			t.Errorf("%s: got %v %v, want %s", c.name, got.Time, ok, c.want)
		}
	}
	if _, ok := SelectSnapshot([]timemap.Capture{cap("2005-04-10", 500)}, ev); ok {
		t.Error("only a failed capture: selected one")
	}
}

func TestParseSpec(t *testing.T) {
	_, err := ParseSpec([]byte(`{"name":"","event_start":"2005-05-01","event_end":"2005-04-01","alpha":2,"lead_days":-1}`))
	if err == nil {
		t.Fatal("invalid spec accepted")
	}
	for _, want := range []string{"name", "reference_documents", "event_end", "alpha", "lead_days"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %s", err, want)
		}
	}
	if _, err := ParseSpec([]byte(`{"name":"x","keywords":["a"],"seeds":["http://a/"],"event_start":"2005-04-01","event_end":"2005-05-01","alhpa":1}`)); err == nil {
		t.Error("unknown field accepted")
	}
	s, err := ParseSpec([]byte(`{"name":"x","keywords":["a"],"seeds":["http://a/"],"event_start":"2005-04-01","event_end":"2005-05-01"}`))
	if err != nil {
		t.Fatal(err)
	}
	if s.AlphaOr() != 0.5 || !s.Event().End.Equal(day("2005-05-01").Add(24*time.Hour-time.Second)) {
		t.Errorf("defaults: alpha %v, end %v", s.AlphaOr(), s.Event().End)
	}
}

// TestReadPage checks what the crawl takes from extract's one parse of a
// page: links with anchor text, archive rewriting undone, and the date.
func TestReadPage(t *testing.T) {
	body := `<html><head><script type="application/ld+json">{"dateModified":"2005-09-01","datePublished":"2005-04-12T10:00:00Z"}</script></head>
<body><a href="/2005/04/13/b.html">B story</a> <a href="http://web.archive.org/web/20050101000000/http://other.example/x#frag">X</a>
<a href="http://web.archive.org/web/20050102000000/http://other.example/x">X again</a>
<a href="http://other.example/history/httpd.html">httpd</a><a href="#top">top</a><a href="mailto:a@b">m</a></body></html>`
	doc, _ := extract.Extract(http.Header{"Content-Type": {"text/html"}}, []byte(body), extract.Options{BaseURL: "http://news.example/2005/04/12/a.html"})
	links := pageLinks(doc.Links)
	want := []extract.Link{
		{URL: "http://news.example/2005/04/13/b.html", Anchor: "B story"},
		{URL: "http://other.example/x", Anchor: "X"},
		{URL: "http://other.example/history/httpd.html", Anchor: "httpd"},
	}
	if !slices.Equal(links, want) {
		t.Errorf("links = %+v, want %+v", links, want)
	}
	if got, from := pageTime(doc, nil); from != extract.PublishedFromJSONLD || !got.Equal(time.Date(2005, 4, 12, 10, 0, 0, 0, time.UTC)) {
		t.Errorf("published %v from %q", got, from)
	}
}

func TestPageTime(t *testing.T) {
	caps := []timemap.Capture{
		{Time: day("2005-04-20"), Status: 200},
		{Time: day("2005-04-02"), Status: 404},
		{Time: day("2005-04-10"), Status: 200},
	}
	const plain = "http://x/story.php?id=1"
	cases := []struct {
		name, url, body, lastMod string
		want                     time.Time
		wantFrom                 string
	}{
		{"byline", plain, `<p class="byline">Published 23 April 2005 12:32</p><p>Last updated 04 May 2005</p>`, "", day("2005-04-23").Add(12*time.Hour + 32*time.Minute), "byline"},
		{"url", "http://x/2005/04/02/y.html", `<p>no date</p>`, "Tue, 05 Apr 2005 08:00:00 GMT", day("2005-04-02"), "url"},
		{"no header: first successful capture", plain, "", "", day("2005-04-10"), "first-capture"},
		{"Last-Modified before the first capture", plain, "", "Tue, 05 Apr 2005 08:00:00 GMT", day("2005-04-05").Add(8 * time.Hour), "last-modified"},
		{"Last-Modified after the first capture is no publication date", plain, "", "Tue, 26 Apr 2005 08:00:00 GMT", day("2005-04-10"), "first-capture"},
		{"implausible Last-Modified", plain, "", "Thu, 01 Jan 1970 00:00:00 GMT", day("2005-04-10"), "first-capture"},
		{"unparseable Last-Modified", plain, "", "yesterday", day("2005-04-10"), "first-capture"},
	}
	for _, c := range cases {
		h := http.Header{"Content-Type": {"text/html"}}
		if c.lastMod != "" {
			h.Set("Last-Modified", c.lastMod)
		}
		doc, _ := extract.Extract(h, []byte(c.body), extract.Options{BaseURL: c.url})
		got, from := pageTime(doc, caps)
		if !got.Equal(c.want) || from != c.wantFrom {
			t.Errorf("%s: %s (%s), want %s (%s)", c.name, got, from, c.want, c.wantFrom)
		}
	}
}

func TestSample(t *testing.T) {
	var caps []timemap.Capture
	want := map[string]bool{}
	for i := range 30 {
		u := fmt.Sprintf("http://site/%d", i)
		c := timemap.Capture{URIR: u, Time: day("2005-01-01"), Status: 200, MIME: "text/html", Loc: timemap.Location{File: "f", Offset: int64(i)}}
		switch i % 4 {
		case 1:
			c.Status = 404
		case 2:
			c.MIME = "image/png"
		case 3:
			c.Revisit = true
		default:
			want[u] = true
		}
		caps = append(caps, c)
	}
	a := NewLocalArchive(caps)
	all := a.Sample(100, 1)
	if len(all) != len(want) {
		t.Errorf("Sample(100) = %d URLs, want the %d with a successful HTML capture", len(all), len(want))
	}
	for _, u := range all {
		if !want[u] {
			t.Errorf("Sample gave %s, which has no successful HTML capture", u)
		}
	}
	some := a.Sample(3, 7)
	if len(some) != 3 || !slices.Equal(some, a.Sample(3, 7)) {
		t.Errorf("Sample(3, 7) = %v then %v: want 3 URLs, the same for a seed", some, a.Sample(3, 7))
	}
	if slices.Equal(some, a.Sample(3, 8)) && slices.Equal(some, a.Sample(3, 9)) {
		t.Errorf("Sample ignores its seed: %v", some)
	}
}

func TestYoudenCut(t *testing.T) {
	cases := []struct {
		name     string
		pos, neg []float64
		lo, hi   float64 // the cut must fall in (lo, hi)
	}{
		{"apart", []float64{0.2, 0.25, 0.3}, []float64{0.01, 0.02, 0.05}, 0.05, 0.2},
		{"a random example among the positives", []float64{0.03, 0.15, 0.2, 0.25, 0.9}, []float64{0.01, 0.02, 0.04, 0.05, 0.06, 0.08}, 0.08, 0.15},
		{"background tail above some examples", []float64{0.12, 0.15, 0.2, 0.3}, []float64{0.02, 0.05, 0.07, 0.09, 0.13}, 0.09, 0.12},
		{"no background: keep every example", []float64{0.1, 0.2}, nil, -1e-12, 0.1},
		{"no examples", nil, []float64{0.1, 0.2}, -1e-12, 1e-12},
	}
	for _, c := range cases {
		if got := youdenCut(c.pos, c.neg); got <= c.lo || got >= c.hi {
			t.Errorf("%s: youdenCut = %v, want in (%v, %v)", c.name, got, c.lo, c.hi)
		}
	}
}

func TestLearnThresholdContrast(t *testing.T) {
	// Examples mix related stories with random ones; Klein's mean - SD is
	// dragged near 0 by the random half, the contrast with the background
	// keeps the related stories and few background pages.
	ex := []float64{0.01, 0.03, 0.05, 0.12, 0.15, 0.18, 0.2, 0.22, 0.25, 0.3, 0.9, 1}
	var bg []float64
	for i := range 200 {
		bg = append(bg, 0.01+0.1*float64(i%20)/20) // 0.01 to 0.105
	}
	klein, _ := LearnThreshold(ex, 1)
	th, held, fp := learnThresholdContrast(ex, bg, 1)
	if !(klein < 0.05 && th > 0.08 && th < 0.12) {
		t.Errorf("thresholds: Klein %v, contrast %v: want Klein near 0 and contrast between the background and the related stories", klein, th)
	}
	if held < 0.5 || held > 1 || fp > 0.2 {
		t.Errorf("held-out examples passing %v, background passing %v", held, fp)
	}
	if th2, _, _ := learnThresholdContrast(ex, bg, 1); th2 != th {
		t.Errorf("not deterministic for a seed: %v then %v", th, th2)
	}
	if th, held, fp := learnThresholdContrast(nil, bg, 1); th != 0 || held != 0 || fp != 0 {
		t.Errorf("no examples: %v %v %v, want zeros", th, held, fp)
	}
}

// learnThresholdContrast, the audit's rule before the balance point (which
// the tests measure it against), learns the threshold of an audit: the score that
// best separates examples (documents that stand for the event: the
// reference documents' outlinks, related stories and a few random ones)
// from background (a random sample of the archive, nearly all about other
// things). As LearnThreshold it takes Splits random 60/40 splits, here of
// both sets; each split's threshold is the cut that maximises Youden's J on
// its 60% (share of examples at or above minus share of background at or
// above; a lone off-topic example cannot pull it down as it pulls a mean),
// and the threshold is their mean. heldOut is the mean share of each split's
// held-out examples at or above its threshold, falsePass that of its held-out
// background. Deterministic for a seed.
func learnThresholdContrast(examples, background []float64, seed int64) (threshold, heldOut, falsePass float64) {
	return learnSplits(examples, background, seed, youdenCut)
}

// youdenCut is the threshold that maximises the share of pos at or above it
// minus the share of neg at or above it, placed halfway between the lowest
// score it admits and the next lower score of either set; of equal cuts the
// lowest (it keeps the most examples). 0 when pos is empty or nothing beats
// keeping everything.
func youdenCut(pos, neg []float64) float64 {
	type pt struct {
		x   float64
		pos bool
	}
	all := make([]pt, 0, len(pos)+len(neg))
	for _, x := range pos {
		all = append(all, pt{x, true})
	}
	for _, x := range neg {
		all = append(all, pt{x, false})
	}
	sort.Slice(all, func(i, j int) bool { return all[i].x > all[j].x })
	var np, nn, best float64
	cut := 0.0
	for i := 0; i < len(all); {
		x := all[i].x
		for ; i < len(all) && all[i].x == x; i++ {
			if all[i].pos {
				np++
			} else {
				nn++
			}
		}
		j := np / float64(max(1, len(pos)))
		if len(neg) > 0 {
			j -= nn / float64(len(neg))
		}
		if j >= best {
			best, cut = j, 0
			if i < len(all) {
				cut = (x + all[i].x) / 2
			}
		}
	}
	return cut
}

// TestDocFreqHoldsNoPage: the background document frequencies keep copies
// of the features, never a page's bytes, however often a feature comes back
// (a map of strings puts the key it is given in the place of an equal one).
func TestDocFreqHoldsNoPage(t *testing.T) {
	d := NewDocFreq()
	pages := []string{strings.Repeat("election vote first ", 10), strings.Repeat("election vote second ", 10), strings.Repeat("election third ", 10)}
	for _, page := range pages {
		d.Add(Features(strings.Fields(page)))
	}
	for f := range d.df {
		if testcorpus.SharesBytes(f, pages) {
			t.Errorf("feature %q is a page's bytes", f)
		}
	}
	if d.df["election"] != 3 {
		t.Errorf("df(election) = %d, want 3", d.df["election"])
	}
}
