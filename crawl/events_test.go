package crawl

import (
	"bufio"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/offtopic/offtopic/extract"
	"github.com/offtopic/offtopic/internal/testcorpus"
)

// goldRow is one line of a corpus relevance list.
type goldRow struct {
	published                   time.Time
	topical, relevant, archived bool
}

func readGold(t testing.TB, path string) map[string]goldRow {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]goldRow{}
	sc := bufio.NewScanner(f)
	sc.Scan()
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		if len(f) < 5 {
			continue
		}
		p, _ := time.Parse(time.RFC3339, f[1])
		out[canon(f[0])] = goldRow{published: p, topical: f[3] == "1", relevant: f[4] == "1", archived: len(f) < 6 || f[5] == "1"}
	}
	return out
}

var devEvents = []struct{ archive, event string }{
	{"event-dev", "election2005"}, {"event-dev", "mobiles2005"},
	{"event-dev2", "consoles2004"}, {"event-dev2", "budget2005"}, {"event-dev2", "football2005"},
}

// TestDevEvents crawls the five dev events with the default and the
// strategies of Gossen et al. and checks that the default collects at least
// as many relevant pages as c-f and t-f at each budget (event size, 100,
// 200) and at least 1.5 times the unfocused crawl at the event's size. With
// OFFTOPIC_CRAWL_TABLE=1 it also crawls ct-f and prints docs/crawl.md's table
// (OFFTOPIC_CRAWL_STRATEGIES=a,b to choose, OFFTOPIC_CRAWL_DIAG=1 for where
// the first 100 documents went, OFFTOPIC_CRAWL_LIST=event to list the first
// documents of an event, OFFTOPIC_CRAWL_LINKS=1 for how many relevant pages
// each kind of page links to, OFFTOPIC_CRAWL_ORACLE=1 for what the default
// collects when it knows which pages are relevant and which are about the
// event: how far better estimates of unread pages could take it).
func TestDevEvents(t *testing.T) {
	if testing.Short() {
		t.Skip("dev events skipped in -short mode")
	}
	ctx := context.Background()
	archives := map[string]*LocalArchive{}
	strategies := []Strategy{Gated, CF, TF, Unfocused}
	if os.Getenv("OFFTOPIC_CRAWL_TABLE") != "" {
		strategies = []Strategy{Gated, CTF, CF, TF, Unfocused}
	}
	if s := os.Getenv("OFFTOPIC_CRAWL_STRATEGIES"); s != "" {
		strategies = nil
		for _, f := range strings.Split(s, ",") {
			st, err := ParseStrategy(f)
			if err != nil {
				t.Fatal(err)
			}
			strategies = append(strategies, st)
		}
	}
	for _, ev := range devEvents {
		dir := testcorpus.Path(t, filepath.Join("corpus", ev.archive))
		a := archives[ev.archive]
		if a == nil {
			var err error
			if a, err = OpenLocal(ctx, filepath.Join(dir, "archive"), "", nil); err != nil {
				t.Fatal(err)
			}
			archives[ev.archive] = a
		}
		spec, err := LoadSpec(filepath.Join(dir, ev.event, "spec.json"))
		if err != nil {
			t.Fatal(err)
		}
		rel, err := ReadRelevant(filepath.Join(dir, ev.event, "relevant.tsv"))
		if err != nil {
			t.Fatal(err)
		}
		gold := readGold(t, filepath.Join(dir, ev.event, "relevant.tsv"))
		if os.Getenv("OFFTOPIC_CRAWL_LINKS") != "" {
			linkNeighbourhood(t, ctx, ev.event, a, spec.Event(), gold)
		}
		budgets := []int{archivedRelevant(gold), 100, 200}
		spec.TargetSize = 200
		line := fmt.Sprintf("| %s %s (%d) |", ev.archive, ev.event, budgets[0])
		got := map[Strategy][]int{}
		if os.Getenv("OFFTOPIC_CRAWL_ORACLE") != "" {
			out := t.TempDir()
			r, err := Crawl(ctx, Options{Spec: spec, Archive: a, Out: out, oracle: func(u string) (bool, bool) {
				g := gold[canon(u)]
				return g.relevant && g.archived, g.topical
			}})
			if err != nil {
				t.Fatal(err)
			}
			n := RelevantAt(r.Log, rel, budgets)
			t.Logf("%s: the default knowing which pages are relevant and which are about the event: %d / %d / %d", ev.event, n[0], n[1], n[2])
		}
		var audits []*AuditReport
		for _, s := range strategies {
			out := t.TempDir()
			r, err := Crawl(ctx, Options{Spec: spec, Archive: a, Strategy: s, Out: out})
			if err != nil {
				t.Fatal(err)
			}
			if s == Unfocused {
				audits = append(audits, auditDev(t, ctx, ev.event+" unfocused at 200", spec, a, out, rel, 0.6))
			}
			if s == Gated {
				// The default crawl at the event's size, audited as a
				// curator would audit a focused collection.
				small := *spec
				small.TargetSize = budgets[0]
				sout := t.TempDir()
				if _, err := Crawl(ctx, Options{Spec: &small, Archive: a, Strategy: s, Out: sout}); err != nil {
					t.Fatal(err)
				}
				audits = append(audits, auditDev(t, ctx, fmt.Sprintf("%s default at %d", ev.event, budgets[0]), spec, a, sout, rel, 0.85))
			}
			n := RelevantAt(r.Log, rel, budgets)
			got[s] = n
			line += fmt.Sprintf(" %d / %d / %d |", n[0], n[1], n[2])
			if os.Getenv("OFFTOPIC_CRAWL_LIST") == ev.event {
				for _, e := range r.Log[:min(len(r.Log), budgets[0])] {
					g := gold[canon(e.URL)]
					t.Logf("%2d d%d rel=%v top=%v topic=%.3f temp=%.2f %s(%s) gold %s %s", e.N, e.Depth, g.relevant, g.topical, e.TopicR, e.TempR, e.DocTime.Format("2006-01-02"), e.DocTimeFrom, g.published.Format("2006-01-02"), e.Title)
				}
			}
			if os.Getenv("OFFTOPIC_CRAWL_DIAG") != "" {
				diagnose(t, ev.event, s, r.Log[:min(100, len(r.Log))], gold, spec.Event())
			}
		}
		t.Log(line)
		sameTopics(t, ev.event, audits)
		def := got[Gated]
		if def == nil {
			continue
		}
		for _, s := range []Strategy{CF, TF} {
			for i, b := range budgets {
				if o := got[s]; o != nil && def[i] < o[i] {
					t.Errorf("%s: default %d relevant at %d documents, %s %d: want at least as many", ev.event, def[i], b, s, o[i])
				}
			}
		}
		if u := got[Unfocused]; u != nil && float64(def[0]) < 1.5*float64(u[0]) {
			t.Errorf("%s: default %d relevant at %d documents, unfocused %d: want at least 1.5 times", ev.event, def[0], budgets[0], u[0])
		}
	}
}

// auditDev audits the crawl in out with its learnt threshold, as an
// archivist pruning an extracted set would, and checks precision and recall
// of what it keeps against the relevant pages: recall at least 0.95 (the
// audit's threshold is chosen for it), precision at least minPrecision.
//
// Precision follows the collection, not the threshold: on the default
// crawls at event size it is 0.86-0.92, but on the unfocused crawls at 200
// pages, where pages on neighbouring topics published in the window
// (politics beside the election, other sport beside the football) score as
// the least typical relevant pages do, no threshold that keeps recall at
// 0.95 reaches 0.85 on election2005, consoles2004 or football2005 (the best
// are 0.82, 0.81 and 0.74), and the learnt one gives 0.68-0.84. So the
// unfocused crawls assert 0.6.
func auditDev(t *testing.T, ctx context.Context, what string, spec *Spec, a *LocalArchive, out string, rel map[string]bool, minPrecision float64) *AuditReport {
	t.Helper()
	coll, err := OpenLocal(ctx, out, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := AuditCollection(ctx, coll, AuditOptions{Spec: spec, Archive: a, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	s := rep.Evaluate(rel)
	t.Logf("audit of %s: %d documents, %d relevant, %d kept, precision %.2f, recall %.2f (threshold %.3f, held out %.2f, background passing %.2f)",
		what, s.Documents, s.Relevant, s.Kept, s.Precision(), s.Recall(), rep.Threshold, rep.HeldOut, rep.FalsePass)
	if s.Precision() < minPrecision || s.Recall() < 0.95 {
		t.Errorf("audit of %s: precision %.2f, recall %.2f: want at least %.2f and 0.95", what, s.Precision(), s.Recall(), minPrecision)
	}
	return rep
}

// sameTopics checks that a page audited in two collections of an event
// scores the same in both, and that they got the same threshold: IDF comes
// from the archive's background, not the collection.
func sameTopics(t *testing.T, event string, reps []*AuditReport) {
	t.Helper()
	if len(reps) < 2 {
		return
	}
	topic := map[string]float64{}
	for _, d := range reps[0].Documents {
		topic[canon(d.Capture.URIR)] = d.Topic
	}
	both := 0
	for _, r := range reps[1:] {
		if r.Threshold != reps[0].Threshold {
			t.Errorf("%s: thresholds %.4f and %.4f for the same event and archive", event, reps[0].Threshold, r.Threshold)
		}
		for _, d := range r.Documents {
			if x, ok := topic[canon(d.Capture.URIR)]; ok {
				both++
				if math.Abs(x-d.Topic) > 1e-9 {
					t.Errorf("%s: %s scores %.4f in one collection, %.4f in the other", event, d.Capture.URIR, x, d.Topic)
				}
			}
		}
	}
	if both == 0 {
		t.Logf("%s: no page in both audited collections", event)
	}
}

// diagnose counts the documents of a crawl by gold topicality and by whether
// the crawler's date for them is inside the event span, and how the dates
// compare to the gold publication date.
func diagnose(t *testing.T, event string, s Strategy, log []Entry, gold map[string]goldRow, ev Event) {
	var rel, topNotRel, offInWin, offOut, noGold int
	from := map[string][2]int{} // source -> docs, wrong (more than 2 days from gold)
	var sumTopicRel, sumTopicOff float64
	var nTopicRel, nTopicOff int
	for _, e := range log {
		g, ok := gold[canon(e.URL)]
		if !ok {
			noGold++
			continue
		}
		switch {
		case g.relevant:
			rel++
		case g.topical:
			topNotRel++
		case e.TempR >= 0.5:
			offInWin++
		default:
			offOut++
		}
		if g.topical {
			sumTopicRel += e.TopicR
			nTopicRel++
		} else {
			sumTopicOff += e.TopicR
			nTopicOff++
		}
		x := from[e.DocTimeFrom]
		x[0]++
		if d := e.DocTime.Sub(g.published); d > 48*time.Hour || d < -48*time.Hour {
			x[1]++
		}
		from[e.DocTimeFrom] = x
	}
	t.Logf("%s %s first %d: relevant %d, topical-not-relevant %d, off-topic TempR>=.5 %d, off-topic other %d, no gold %d; mean TopicR topical %.3f off %.3f; dates (docs, wrong) %v",
		event, s, len(log), rel, topNotRel, offInWin, offOut, noGold, sumTopicRel/float64(max(1, nTopicRel)), sumTopicOff/float64(max(1, nTopicOff)), from)
}

// linkNeighbourhood reads the snapshot a crawl would collect of every page
// in the gold list and logs, for relevant pages, topical pages published
// outside the event's window and off-topic pages, how many relevant pages
// each links to on average: what reading a page of each kind reveals.
func linkNeighbourhood(t *testing.T, ctx context.Context, event string, a *LocalArchive, ev Event, gold map[string]goldRow) {
	type kind struct{ pages, links, relevant int }
	kinds := map[string]*kind{"relevant": {}, "topical outside the window": {}, "off-topic": {}}
	for k, g := range gold {
		snap, ok := SelectSnapshot(a.byKey[k], ev)
		if !ok {
			continue
		}
		h, body, err := a.Read(ctx, snap)
		if err != nil {
			t.Fatal(err)
		}
		doc, _ := extract.Extract(h, body, extract.Options{BaseURL: snap.URIR})
		name := "off-topic"
		switch {
		case g.relevant:
			name = "relevant"
		case g.topical:
			name = "topical outside the window"
		}
		x := kinds[name]
		x.pages++
		for _, l := range pageLinks(doc.Links) {
			if lg, ok := gold[canon(l.URL)]; ok {
				x.links++
				if lg.relevant && lg.archived {
					x.relevant++
				}
			}
		}
	}
	line := event + ": relevant pages linked per page:"
	for _, name := range []string{"relevant", "topical outside the window", "off-topic"} {
		x := kinds[name]
		line += fmt.Sprintf(" %s %.2f (%d pages, %.1f article links each);", name, float64(x.relevant)/float64(max(1, x.pages)), x.pages, float64(x.links)/float64(max(1, x.pages)))
	}
	t.Log(line)
}

func archivedRelevant(gold map[string]goldRow) int {
	n := 0
	for _, g := range gold {
		if g.relevant && g.archived {
			n++
		}
	}
	return n
}
