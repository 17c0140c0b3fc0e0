package similarity

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/offtopic/offtopic/extract"
	"github.com/offtopic/offtopic/timemap"
)

// synthInput makes a TimeMap of n captures whose texts draw words from one
// of a few subjects.
func synthInput(rng *rand.Rand, key string, n int) Input {
	subjects := [][]string{{"vote", "party", "minister", "election", "poll"}, {"share", "market", "profit", "bank", "trade"}, {"phone", "chip", "software", "game", "web"}}
	s := subjects[rng.IntN(len(subjects))]
	tm := &timemap.TimeMap{Key: key, URIR: "http://" + key + "/"}
	in := Input{TimeMap: tm}
	for i := range n {
		var terms []string
		for range 30 + rng.IntN(30) {
			terms = append(terms, s[rng.IntN(len(s))], fmt.Sprintf("w%d", rng.IntN(200)))
		}
		tm.Captures = append(tm.Captures, timemap.Capture{URIR: tm.URIR, Key: key, Time: time.Unix(int64(1e9+i*86400), 0), Status: 200, MIME: "text/html", Digest: fmt.Sprintf("%s-%d", key, rng.IntN(n))})
		in.Docs = append(in.Docs, &extract.Document{Terms: terms, WordCount: len(terms)})
		in.URIMs = append(in.URIMs, "")
		in.Errs = append(in.Errs, "")
	}
	return in
}

// TestModelStatsMerge: statistics of parts merge to the statistics of the
// whole, exactly, in any grouping and order, and the sample stays bounded.
func TestModelStatsMerge(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 9))
	var ins []Input
	for i := range 1000 {
		ins = append(ins, synthInput(rng, fmt.Sprintf("k%04d", i), 1+rng.IntN(6)))
	}
	whole := NewModelStats()
	for _, in := range ins {
		whole.Add(in, 5)
	}
	if len(whole.Sample) != SampleSize {
		t.Fatalf("sample holds %d, want %d", len(whole.Sample), SampleSize)
	}
	for _, parts := range []int{2, 3, 8} {
		stats := make([]*ModelStats, parts)
		for i := range stats {
			stats[i] = NewModelStats()
		}
		for i, in := range ins {
			stats[(i*7+3)%parts].Add(in, 5)
		}
		// Merge in reverse order, as a tree.
		for len(stats) > 1 {
			var next []*ModelStats
			for i := len(stats) - 1; i >= 0; i -= 2 {
				if i == 0 {
					next = append(next, stats[0])
					break
				}
				stats[i].Merge(stats[i-1])
				next = append(next, stats[i])
			}
			stats = next
		}
		if !reflect.DeepEqual(stats[0], whole) {
			t.Errorf("%d parts merged differ from the whole", parts)
		}
		a, b := stats[0].Model(), whole.Model()
		if a.TypicalTopicSim != b.TypicalTopicSim || !reflect.DeepEqual(a.refs, b.refs) {
			t.Errorf("%d parts: model differs from the whole's", parts)
		}
	}
}

// TestLocalTopicFixedCost: the neighbourhood is drawn from a sample of fixed
// size, so the work per TimeMap does not grow with the collection.
func TestLocalTopicFixedCost(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, n := range []int{100, 4000} {
		s := NewModelStats()
		for i := range n {
			s.Add(synthInput(rng, fmt.Sprintf("k%05d", i), 1), 5)
		}
		m := s.Model()
		want := min(n, SampleSize)
		if len(m.refs) != want {
			t.Errorf("%d TimeMaps: %d references, want %d", n, len(m.refs), want)
		}
	}
}
