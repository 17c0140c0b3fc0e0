package crawl

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"

	"github.com/offtopic/offtopic/timemap"
)

// Klein mode (Klein et al., "Focused crawl of web archives to build event
// collections"): a relevance threshold learnt from the documents the
// reference documents link to, which stand for what the curator considers
// on topic.

// Splits is the number of random 60/40 splits a threshold is learnt from.
const Splits = 10

// LearnThreshold learns a TTR threshold from the scores of example documents
// by Splits random 60/40 splits: each split's threshold is the mean minus one
// standard deviation of its 60% (so that most on-topic documents pass), and
// the threshold is the mean of the splits' thresholds. heldOut is the mean
// share of each split's 40% at or above its threshold. Deterministic for a seed.
func LearnThreshold(scores []float64, seed int64) (threshold, heldOut float64) {
	if len(scores) == 0 {
		return 0, 0
	}
	rng := rand.New(rand.NewPCG(uint64(seed), 0x6b6c65696e))
	s := append([]float64(nil), scores...)
	sort.Float64s(s)
	for range Splits {
		rng.Shuffle(len(s), func(i, j int) { s[i], s[j] = s[j], s[i] })
		n := int(math.Ceil(0.6 * float64(len(s))))
		t := meanMinusSD(s[:n])
		threshold += t
		heldOut += shareAtLeast(s[n:], t, 1)
	}
	return threshold / Splits, heldOut / Splits
}

// LearnThresholdBalanced learns the threshold of an audit at the balance
// point of examples (documents that stand for the event: the reference
// documents' outlinks) and background (a sample of the archive, nearly all
// about other things): the score at which the share of examples it would
// flag equals the share of background it would keep (the equal error rate).
// It takes Splits random 60/40 splits of both sets (as LearnThreshold does of
// the examples)
// and averages the splits' cuts; heldOut and falsePass are the mean shares
// of held-out examples and background at or above each split's cut.
//
// The balance point lies below the cut that best separates the two sets
// (Youden's J, the audit's rule before; see the tests), and that is the
// point of it: the
// outlinks mix related stories with navigation and random ones, so the
// related stories the contrast would cut away, those whose scores reach
// down into the background's upper tail, are the event's least typical
// pages, and a collection's relevant pages reach further down still (the
// reference documents link their closest relations). Flagging a relevant
// page costs the curator a page lost from the collection; keeping an
// off-topic one costs a glance in the review, so the audit errs towards
// keeping. Deterministic for a seed.
func LearnThresholdBalanced(examples, background []float64, seed int64) (threshold, heldOut, falsePass float64) {
	return learnSplits(examples, background, seed, balanceCut)
}

// learnSplits averages cut over Splits random 60/40 splits of examples and
// background, with the held-out shares passing each split's cut.
func learnSplits(examples, background []float64, seed int64, cut func(pos, neg []float64) float64) (threshold, heldOut, falsePass float64) {
	if len(examples) == 0 {
		return 0, 0, 0
	}
	rng := rand.New(rand.NewPCG(uint64(seed), 0x6b6c65696e))
	ex := append([]float64(nil), examples...)
	bg := append([]float64(nil), background...)
	sort.Float64s(ex)
	sort.Float64s(bg)
	split := func(s []float64) (train, test []float64) {
		rng.Shuffle(len(s), func(i, j int) { s[i], s[j] = s[j], s[i] })
		n := int(math.Ceil(0.6 * float64(len(s))))
		return s[:n], s[n:]
	}
	for range Splits {
		exTrain, exTest := split(ex)
		bgTrain, bgTest := split(bg)
		t := cut(exTrain, bgTrain)
		threshold += t
		heldOut += shareAtLeast(exTest, t, 1)
		falsePass += shareAtLeast(bgTest, t, 0)
	}
	return threshold / Splits, heldOut / Splits, falsePass / Splits
}

// balanceCut is the cut at which the share of pos below it comes closest to
// the share of neg at or above it, placed halfway between the lowest score
// it admits and the next lower score of either set; of equally close cuts
// the lowest (it keeps the most examples). 0 when pos is empty, and without
// neg the cut that keeps every example.
func balanceCut(pos, neg []float64) float64 {
	if len(pos) == 0 {
		return 0
	}
	all := make([]float64, 0, len(pos)+len(neg))
	all = append(append(all, pos...), neg...)
	sort.Sort(sort.Reverse(sort.Float64Slice(all)))
	sp := append([]float64(nil), pos...)
	sn := append([]float64(nil), neg...)
	sort.Float64s(sp)
	sort.Float64s(sn)
	// atLeast is the share of sorted xs at or above x.
	atLeast := func(xs []float64, x float64) float64 {
		if len(xs) == 0 {
			return 0
		}
		return float64(len(xs)-sort.SearchFloat64s(xs, x)) / float64(len(xs))
	}
	best, cut := math.Inf(1), 0.0
	for i := 0; i < len(all); {
		x := all[i]
		for i < len(all) && all[i] == x {
			i++
		}
		gap := math.Abs((1 - atLeast(sp, x)) - atLeast(sn, x))
		if gap <= best {
			best, cut = gap, 0
			if i < len(all) {
				cut = (x + all[i]) / 2
			}
		}
	}
	return cut
}

// shareAtLeast is the share of xs at or above t (empty when none).
func shareAtLeast(xs []float64, t, empty float64) float64 {
	if len(xs) == 0 {
		return empty
	}
	n := 0
	for _, x := range xs {
		if x >= t {
			n++
		}
	}
	return float64(n) / float64(len(xs))
}

// learnThreshold learns the threshold from the archived outlinks of the
// reference documents.
func (c *crawler) learnThreshold(ctx context.Context, refs []refDoc) (float64, error) {
	docs, err := c.exampleDocs(ctx, refs)
	if err != nil {
		return 0, err
	}
	scores := make([]float64, len(docs))
	for i, s := range docs {
		scores[i] = c.relevance(s.topic, s.temp)
	}
	t, _ := LearnThreshold(scores, c.opts.Seed)
	return t, nil
}

// exampleDocs reads and rates the archived outlinks of the reference
// documents (or, when they link nothing, the spec's seeds), which stand for
// what the curator considers on topic.
func (c *crawler) exampleDocs(ctx context.Context, refs []refDoc) ([]*scored, error) {
	var urls []string
	for _, r := range refs {
		for _, l := range r.links {
			urls = append(urls, l.URL)
		}
	}
	if len(urls) == 0 {
		urls = c.opts.Spec.Seeds
	}
	var docs []*scored
	seen := map[string]bool{}
	for _, u := range urls {
		u = timemap.CleanURI(u)
		if seen[u] {
			continue
		}
		seen[u] = true
		s, _, err := c.fetch(ctx, u)
		if err != nil {
			return nil, fmt.Errorf("thresholds: %w", err)
		}
		if s != nil {
			docs = append(docs, s)
		}
	}
	if len(docs) == 0 {
		return nil, fmt.Errorf("thresholds: none of the reference documents' outlinks (or seeds) is archived")
	}
	return docs, nil
}

// meanMinusSD is the mean of xs minus one standard deviation, at least 0.
func meanMinusSD(xs []float64) float64 {
	var mean, sq float64
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	for _, x := range xs {
		sq += (x - mean) * (x - mean)
	}
	return math.Max(0, mean-math.Sqrt(sq/float64(len(xs))))
}
