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
