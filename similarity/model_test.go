package similarity

import (
	"fmt"
	"iter"
	"maps"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/offtopic/offtopic/extract"
	"github.com/offtopic/offtopic/internal/testcorpus"
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

// TestLocalTopic: the topic localTopic gives a TimeMap is, at the TimeMap's
// terms and in length, the centroid of the references most similar to t0
// (t0 itself excluded), as the definition computes it over maps.
func TestLocalTopic(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 2))
	s := NewModelStats()
	var ins []Input
	for i := range 600 {
		in := synthInput(rng, fmt.Sprintf("k%04d", i), 2)
		s.Add(in, 5)
		ins = append(ins, in)
	}
	m := s.Model()
	refTerms := make([]string, len(m.refTerm))
	for term, r := range m.refTerm {
		refTerms[r] = term
	}
	for _, in := range ins[:40] {
		voc := newVocab()
		tf := tfOf(voc, in.Docs[0].Terms)
		cidf := make([]float64, len(voc.terms))
		for id, term := range voc.terms {
			cidf[id] = m.DF.IDF(term)
		}
		v := tf.weigh(cidf, &voc.wChunk)
		at, n := m.localTopic(v, v.norm(), voc)

		// The definition, over maps.
		u := unit(tfidf(termCounts(in.Docs[0].Terms), m.DF))
		type scored struct {
			i int
			s float64
		}
		var all []scored
		for i, r := range m.refs {
			var d float64
			for k, id := range r.ids {
				d += r.w[k] * u[refTerms[id]]
			}
			if s := math.Round(d*1e9) / 1e9; s <= 0.999 {
				all = append(all, scored{i, s})
			}
		}
		sort.SliceStable(all, func(a, b int) bool { return all[a].s > all[b].s })
		c := Vector{}
		for _, b := range all[:neighbours(len(m.refs))] {
			r := m.refs[b.i]
			for k, id := range r.ids {
				c[refTerms[id]] += r.w[k]
			}
		}
		if want := norm(c); math.Abs(n-want) > 1e-12*want {
			t.Errorf("%s: length %v, want %v", in.TimeMap.Key, n, want)
		}
		for id, term := range voc.terms {
			if math.Abs(at[id]-c[term]) > 1e-12 {
				t.Errorf("%s: weight of %s %v, want %v", in.TimeMap.Key, term, at[id], c[term])
			}
		}
	}
}

// TestModelTermsCapped: a page of more distinct terms than a page of text
// holds adds no more than maxModelTerms of them to the model (issue 38: a
// megabyte of distinct hexadecimal tokens a page).
func TestModelTermsCapped(t *testing.T) {
	var terms []string
	for i := range maxModelTerms + 5000 {
		terms = append(terms, fmt.Sprintf("%08x", i*2654435761))
	}
	in := Input{TimeMap: &timemap.TimeMap{Key: "k", Captures: []timemap.Capture{{Digest: "sha1:A", Status: 200, MIME: "text/html"}}}, Errs: []string{""},
		Docs: []*extract.Document{{Terms: terms, ContentTerms: len(terms), ContentWords: len(terms), WordCount: len(terms), Extractor: extract.ExtractorBody}}}
	s := NewModelStats()
	s.Add(in, 5)
	if len(s.DF) != maxModelTerms || len(s.Centroid) != maxModelTerms || len(s.Sample[0].TF) != maxModelTerms {
		t.Errorf("the model took %d, %d and %d terms of the page, want %d", len(s.DF), len(s.Centroid), len(s.Sample[0].TF), maxModelTerms)
	}
	if s.DF[terms[0]] != 1 || s.DF[terms[len(terms)-1]] != 0 {
		t.Error("not the first terms in text order")
	}
}

// TestSampleAdd: adding documents one at a time keeps the SampleSize of
// lowest (hash, key), in order, whatever order they come in, their term
// counts as given, duplicates once.
func TestSampleAdd(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	var all []SampleDoc
	for i := range 2 * SampleSize {
		tf := map[string]int{}
		for range 1 + rng.IntN(20) {
			tf[fmt.Sprintf("t%d", rng.IntN(500))] += 1 + rng.IntN(3)
		}
		all = append(all, SampleDoc{Hash: uint64(rng.IntN(SampleSize)), Key: fmt.Sprintf("k%d", i), TF: tf})
	}
	all = append(all, all[:SampleSize/2]...) // TimeMaps met twice
	want := slices.Clone(all)
	slices.SortFunc(want, sampleOrder)
	want = slices.CompactFunc(want, func(a, b SampleDoc) bool { return sampleOrder(a, b) == 0 })[:SampleSize]
	for _, order := range []string{"as made", "shuffled", "highest first"} {
		docs := slices.Clone(all)
		switch order {
		case "shuffled":
			rng.Shuffle(len(docs), func(i, j int) { docs[i], docs[j] = docs[j], docs[i] })
		case "highest first":
			slices.SortFunc(docs, func(a, b SampleDoc) int { return sampleOrder(b, a) })
		}
		var got []SampleDoc
		for _, d := range docs {
			got = sampleAdd(got, d)
		}
		if len(got) != SampleSize {
			t.Fatalf("%s: %d kept, want %d", order, len(got), SampleSize)
		}
		for i := range got {
			if sampleOrder(got[i], want[i]) != 0 || !maps.Equal(got[i].TF, want[i].TF) {
				t.Fatalf("%s: kept[%d] = %d %s %v, want %d %s %v", order, i, got[i].Hash, got[i].Key, got[i].TF, want[i].Hash, want[i].Key, want[i].TF)
			}
		}
	}
}

// TestModelStatsHoldNoPage: the statistics' terms are copies of their own,
// never the documents' bytes (a page's terms share one allocation, which a
// key would hold whole), however often a term comes back.
func TestModelStatsHoldNoPage(t *testing.T) {
	s := NewModelStats()
	var pages []string
	for i := range 3 {
		// Every page repeats terms of the one before, whose keys are there.
		page := strings.Repeat(fmt.Sprintf("alpha beta gamma w%d ", i), 20)
		pages = append(pages, page)
		tm := &timemap.TimeMap{Key: fmt.Sprintf("k%d", i), URIR: "http://example.org/"}
		tm.Captures = []timemap.Capture{{URIR: tm.URIR, Key: tm.Key, Time: time.Unix(1e9, 0), Status: 200, MIME: "text/html", Digest: tm.Key}}
		terms := strings.Fields(page)
		s.Add(Input{TimeMap: tm, Docs: []*extract.Document{{Terms: terms, ContentTerms: len(terms), WordCount: len(terms)}}, URIMs: []string{""}, Errs: []string{""}}, 5)
	}
	for name, keys := range map[string]iter.Seq[string]{"df": maps.Keys(s.DF), "centroid": maps.Keys(s.Centroid), "sample": maps.Keys(s.Sample[0].TF)} {
		n := 0
		for k := range keys {
			n++
			if testcorpus.SharesBytes(k, pages) {
				t.Errorf("%s term %q is a page's bytes", name, k)
			}
		}
		if n == 0 {
			t.Errorf("%s holds no term", name)
		}
	}
	if s.DF["alpha"] != 3 {
		t.Errorf("df(alpha) = %d, want 3", s.DF["alpha"])
	}
}
