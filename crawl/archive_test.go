package crawl

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The test archive is generated: three topics on four hosts, pages linking
// mostly within their topic, captures at several dates inside and outside
// the event span, and links to URLs the archive lacks.

var topics = map[string][]string{
	"election": {"election", "vote", "ballot", "candidate", "party", "manifesto", "campaign", "poll", "parliament", "voters", "seat", "leader", "government", "tax"},
	"football": {"football", "goal", "match", "striker", "league", "cup", "referee", "keeper", "season", "transfer", "coach", "stadium", "fans", "penalty"},
	"cooking":  {"recipe", "oven", "butter", "flour", "sauce", "garlic", "roast", "bake", "onion", "pepper", "salad", "kitchen", "chef", "dessert"},
}

var hosts = []string{"http://dailypost.example", "http://www.eveningnews.example", "http://citytimes.example", "http://valleyherald.example"}

type testPage struct {
	url, topic, title string
	published         time.Time
	links             []string
}

func testPages() []testPage {
	rng := rand.New(rand.NewPCG(1, 2))
	var pages []testPage
	names := []string{"election", "football", "cooking"}
	for ti, topic := range names {
		for i := range 12 {
			host := hosts[(i+ti)%len(hosts)]
			// election pages spread from before to after the event (April 2005)
			pub := time.Date(2005, time.Month(2+i%6), 1+(i*3)%27, 9, 0, 0, 0, time.UTC)
			var u string
			if i%2 == 0 {
				u = fmt.Sprintf("%s/%s/%s-%d.html", host, pub.Format("2006/01/02"), topic, i)
			} else {
				u = fmt.Sprintf("%s/story.php?id=%d", host, 100*ti+i)
			}
			pages = append(pages, testPage{url: u, topic: topic, title: fmt.Sprintf("%s story %d", topic, i), published: pub})
		}
	}
	for i := range pages {
		p := &pages[i]
		for range 3 {
			j := rng.IntN(12)
			for k := range pages {
				if pages[k].topic == p.topic && k%12 == j && k != i {
					p.links = append(p.links, pages[k].url)
				}
			}
		}
		p.links = append(p.links, pages[rng.IntN(len(pages))].url, fmt.Sprintf("%s/missing/%s-%d.html", hosts[i%len(hosts)], p.topic, i))
	}
	return pages
}

func pageHTML(p testPage, rng *rand.Rand) string {
	var b strings.Builder
	fmt.Fprintf(&b, "<html><head><title>%s</title>", p.title)
	if strings.Contains(p.url, "story.php") {
		fmt.Fprintf(&b, `<meta property="article:published_time" content="%s">`, p.published.Format(time.RFC3339))
	}
	fmt.Fprintf(&b, "</head><body><h1>%s</h1><p>", p.title)
	words := topics[p.topic]
	for i := range 80 {
		if i%9 == 8 {
			b.WriteString("the news today said that ")
		}
		b.WriteString(words[rng.IntN(len(words))] + " ")
	}
	b.WriteString("</p><ul>")
	for i, l := range p.links {
		fmt.Fprintf(&b, `<li><a href="%s">related %d</a></li>`, l, i)
	}
	b.WriteString(`</ul><a href="/about">About</a></body></html>`)
	return b.String()
}

// writeTestArchive writes the generated archive (one WARC, one gzip member
// per record, no index) into dir and returns the page list.
func writeTestArchive(t testing.TB, dir string) []testPage {
	t.Helper()
	pages := testPages()
	rng := rand.New(rand.NewPCG(3, 4))
	var out bytes.Buffer
	for i, p := range pages {
		// captures: one before, one inside, one after the span (April 2005), in shuffled order of writing
		dates := []time.Time{p.published.AddDate(0, 0, 2), time.Date(2005, 1, 10+i%10, 0, 0, 0, 0, time.UTC), time.Date(2005, 4, 15+i%10, 0, 0, 0, 0, time.UTC), time.Date(2005, 8, 1, 0, 0, 0, 0, time.UTC)}
		for j, d := range dates {
			body := pageHTML(p, rng)
			http := fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
			rec := fmt.Sprintf("WARC/1.0\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:00000000-0000-0000-%04d-%012d>\r\nWARC-Date: %s\r\nWARC-Target-URI: %s\r\nContent-Type: application/http; msgtype=response\r\nContent-Length: %d\r\n\r\n%s\r\n\r\n",
				i, j, d.Format(time.RFC3339), p.url, len(http), http)
			zw := gzip.NewWriter(&out)
			zw.Write([]byte(rec))
			zw.Close()
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "TEST-00000.warc.gz"), out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return pages
}

func testSpec(t testing.TB, pages []testPage) *Spec {
	ref, _ := filepath.Abs(filepath.Join("testdata", "reference.html"))
	s := &Spec{Name: "test-election", ReferenceDocuments: []string{ref}, Keywords: []string{"general election", "vote"},
		EventStart: "2005-04-01", EventEnd: "2005-04-30", LeadDays: 10, CooldownDays: 10, TargetSize: 15}
	// seeds: mostly off-topic pages, two election pages, one missing URL
	for _, i := range []int{14, 27, 4, 15} {
		s.Seeds = append(s.Seeds, pages[i].url)
	}
	s.Seeds = append(s.Seeds, hosts[0]+"/missing/seed.html")
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	return s
}

func relevantTest(pages []testPage) map[string]bool {
	ev := Event{Start: day("2005-04-01"), End: day("2005-04-30").Add(24*time.Hour - time.Second), Lead: 10 * 24 * time.Hour, Cooldown: 10 * 24 * time.Hour}
	rel := map[string]bool{}
	for _, p := range pages {
		if p.topic == "election" && !p.published.Before(ev.Start.Add(-ev.Lead)) && !p.published.After(ev.End.Add(ev.Cooldown)) {
			rel[canon(p.url)] = true
		}
	}
	return rel
}

func TestCrawlTestArchive(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	pages := writeTestArchive(t, dir)
	a, err := OpenLocal(ctx, dir, "", nil) // no index: built once
	if err != nil {
		t.Fatal(err)
	}
	spec := testSpec(t, pages)
	rel := relevantTest(pages)
	got := map[Strategy]int{}
	for _, s := range []Strategy{CTF, Unfocused} {
		out := t.TempDir()
		res, err := Crawl(ctx, Options{Spec: spec, Archive: a, Strategy: s, Out: out})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Log) != 15 || res.Stopped != "target" {
			t.Fatalf("%s: %d documents, stopped %s", s, len(res.Log), res.Stopped)
		}
		if len(res.Missing) == 0 {
			t.Errorf("%s: no missing URLs", s)
		}
		got[s] = RelevantAt(res.Log, rel, []int{15})[0]
		for _, name := range []string{WARCName(spec), IndexFile, TimeMapsFile, LogFile, MissingFile, RelevanceFile, StateFile} {
			if _, err := os.Stat(filepath.Join(out, name)); err != nil {
				t.Errorf("%s: %v", s, err)
			}
		}
		// the collection re-opens as an archive holding exactly the collected snapshots
		coll, err := OpenLocal(ctx, out, "", nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range res.Log {
			cs, _ := coll.Resolve(ctx, e.URL)
			if len(cs) != 1 || cs[0].Timestamp14() != e.Snapshot {
				t.Errorf("%s: collection has %v for %s, want snapshot %s", s, cs, e.URL, e.Snapshot)
			}
		}
	}
	t.Logf("relevant in 15 documents: ct-f %d, unfocused %d", got[CTF], got[Unfocused])
	if got[CTF] <= got[Unfocused] {
		t.Errorf("ct-f collected %d relevant pages, unfocused %d: want more", got[CTF], got[Unfocused])
	}
}

func TestCrawlResume(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	pages := writeTestArchive(t, dir)
	a, err := OpenLocal(ctx, dir, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	spec := testSpec(t, pages)
	whole := t.TempDir()
	if _, err := Crawl(ctx, Options{Spec: spec, Archive: a, Out: whole}); err != nil {
		t.Fatal(err)
	}
	parts := t.TempDir()
	cctx, cancel := context.WithCancel(ctx)
	_, err = Crawl(cctx, Options{Spec: spec, Archive: a, Out: parts, SaveEvery: 1, Progress: func(s Stats) {
		if s.Crawled == 4 {
			cancel()
		}
	}})
	cancel()
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted crawl: err %v, want context.Canceled", err)
	}
	if _, err := Crawl(ctx, Options{Spec: spec, Archive: a, Out: parts, Resume: true}); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{LogFile, MissingFile, RelevanceFile, IndexFile, WARCName(spec)} {
		w, _ := os.ReadFile(filepath.Join(whole, name))
		p, _ := os.ReadFile(filepath.Join(parts, name))
		if name == IndexFile {
			w, p = bytes.ReplaceAll(w, []byte(whole), nil), bytes.ReplaceAll(p, []byte(parts), nil)
		}
		if !bytes.Equal(w, p) || len(w) == 0 {
			t.Errorf("%s differs between the resumed and the uninterrupted crawl:\n%s\n%s", name, w, p)
		}
	}
}

// TestCrawlThresholds: Klein mode learns a threshold from the examples (here
// the seeds: the reference document links nothing), keeps and follows only
// documents at or above it and not published after the grace period,
// counts the rest as rejected, is deterministic for a seed, and resumes
// with the same threshold.
func TestCrawlThresholds(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	pages := writeTestArchive(t, dir)
	a, err := OpenLocal(ctx, dir, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	spec := testSpec(t, pages)
	grace := spec.Event().End.Add(spec.Grace())
	for _, s := range []Strategy{Gated, CTF} {
		t.Run(string(s), func(t *testing.T) {
			out := t.TempDir()
			res, err := Crawl(ctx, Options{Spec: spec, Archive: a, Strategy: s, Out: out, Thresholds: true, Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			if res.Threshold == nil || *res.Threshold <= 0 {
				t.Fatalf("threshold %v, want a positive learnt threshold", res.Threshold)
			}
			th := *res.Threshold
			if res.Stats.Rejected == 0 {
				t.Errorf("no document rejected at threshold %.3f", th)
			}
			if len(res.Log) == 0 {
				t.Fatalf("nothing kept at threshold %.3f", th)
			}
			for _, e := range res.Log {
				if e.TTR < th || e.DocTime.After(grace) {
					t.Errorf("kept %s: relevance %.3f (threshold %.3f), dated %s (grace ends %s)", e.URL, e.TTR, th, e.DocTime.Format("2006-01-02"), grace.Format("2006-01-02"))
				}
			}
			// Kept documents are parents of the later ones: nothing below
			// the threshold was followed.
			kept := map[string]bool{}
			for _, r := range spec.Seeds {
				kept[r] = true
			}
			for _, e := range res.Log {
				if e.Parent != "" && !kept[e.Parent] {
					t.Errorf("%s was reached from %s, which was not kept", e.URL, e.Parent)
				}
				kept[e.URL] = true
			}
			again, err := Crawl(ctx, Options{Spec: spec, Archive: a, Strategy: s, Out: t.TempDir(), Thresholds: true, Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			if *again.Threshold != th || len(again.Log) != len(res.Log) {
				t.Errorf("same seed: threshold %v and %d documents, then %v and %d", th, len(res.Log), *again.Threshold, len(again.Log))
			}
			resumed, err := Crawl(ctx, Options{Spec: spec, Archive: a, Strategy: s, Out: out, Resume: true, Thresholds: true, Seed: 99})
			if err != nil {
				t.Fatal(err)
			}
			if resumed.Threshold == nil || *resumed.Threshold != th {
				t.Errorf("resumed threshold %v, want the saved %v", resumed.Threshold, th)
			}
		})
	}
	// Without Klein mode nothing is rejected.
	res, err := Crawl(ctx, Options{Spec: spec, Archive: a, Out: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if res.Threshold != nil || res.Stats.Rejected != 0 {
		t.Errorf("without thresholds: threshold %v, %d rejected", res.Threshold, res.Stats.Rejected)
	}
}

func TestLearnThreshold(t *testing.T) {
	cases := []struct {
		name   string
		scores []float64
		lo, hi float64
	}{
		{"tight", []float64{0.5, 0.5, 0.5, 0.5}, 0.5 - 1e-9, 0.5 + 1e-9},
		{"spread", []float64{0.2, 0.4, 0.6, 0.8, 0.5, 0.3, 0.7}, 0.15, 0.5},
		{"empty", nil, -1e-9, 1e-9},
	}
	for _, c := range cases {
		got, held := LearnThreshold(c.scores, 7)
		if got < c.lo || got > c.hi {
			t.Errorf("%s: threshold %v, want in [%v, %v]", c.name, got, c.lo, c.hi)
		}
		if len(c.scores) > 0 && (held < 0.5 || held > 1) {
			t.Errorf("%s: held-out share %v, want most held-out examples to pass", c.name, held)
		}
		if again, _ := LearnThreshold(c.scores, 7); again != got {
			t.Errorf("%s: not deterministic for a seed: %v then %v", c.name, got, again)
		}
	}
}
