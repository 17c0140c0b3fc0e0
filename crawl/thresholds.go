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
	return learnThreshold(scores, seed, false)
}

// LearnThresholdMixed is LearnThreshold for examples that mix on- and
// off-topic documents (the outlinks of reference documents are related
// stories and a few random ones): in each split the training scores are cut
// in two by Otsu's method on a log scale (relevance is a product of
// similarities, so groups differ by factors), and the split's threshold is
// the middle of the gap between the groups.
func LearnThresholdMixed(scores []float64, seed int64) (threshold, heldOut float64) {
	return learnThreshold(scores, seed, true)
}

// otsuCut returns the threshold between the two groups of scores that
// Otsu's cut on log(score + 0.001) separates best: the midpoint between the
// highest score of the lower group and the lowest of the upper one; 0 when
// there are fewer than two distinct scores.
func otsuCut(scores []float64) float64 {
	s := append([]float64(nil), scores...)
	sort.Float64s(s)
	l := make([]float64, len(s))
	total := 0.0
	for i, x := range s {
		l[i] = math.Log(max(0, x) + 0.001)
		total += l[i]
	}
	best, cut, sumLow := -1.0, 0, 0.0
	for i := 1; i < len(l); i++ {
		sumLow += l[i-1]
		if s[i] == s[i-1] {
			continue
		}
		nl, nh := float64(i), float64(len(l)-i)
		ml, mh := sumLow/nl, (total-sumLow)/nh
		if v := nl * nh * (ml - mh) * (ml - mh); v > best {
			best, cut = v, i
		}
	}
	if cut == 0 {
		return 0
	}
	return (s[cut-1] + s[cut]) / 2
}

func learnThreshold(scores []float64, seed int64, mixed bool) (threshold, heldOut float64) {
	if len(scores) == 0 {
		return 0, 0
	}
	rng := rand.New(rand.NewPCG(uint64(seed), 0x6b6c65696e))
	s := append([]float64(nil), scores...)
	sort.Float64s(s)
	for range Splits {
		rng.Shuffle(len(s), func(i, j int) { s[i], s[j] = s[j], s[i] })
		n := int(math.Ceil(0.6 * float64(len(s))))
		train, test := s[:n], s[n:]
		var t float64
		if mixed {
			t = otsuCut(train)
		} else {
			t = meanMinusSD(train)
		}
		threshold += t
		if len(test) > 0 {
			pass := 0
			for _, x := range test {
				if x >= t {
					pass++
				}
			}
			heldOut += float64(pass) / float64(len(test))
		} else {
			heldOut++
		}
	}
	return threshold / Splits, heldOut / Splits
}

// learnThreshold learns the threshold from the archived outlinks of the
// reference documents.
func (c *crawler) learnThreshold(ctx context.Context, refs []refDoc) (float64, error) {
	scores, err := c.exampleScores(ctx, refs)
	if err != nil {
		return 0, err
	}
	t, _ := LearnThreshold(scores, c.opts.Seed)
	return t, nil
}

// exampleScores scores the archived outlinks of the reference documents
// (or, when they link nothing, the spec's seeds), which stand for what the
// curator considers on topic.
func (c *crawler) exampleScores(ctx context.Context, refs []refDoc) ([]float64, error) {
	var urls []string
	for _, r := range refs {
		for _, l := range r.links {
			urls = append(urls, l.URL)
		}
	}
	if len(urls) == 0 {
		urls = c.opts.Spec.Seeds
	}
	var scores []float64
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
			scores = append(scores, c.relevance(s.topic, s.temp))
		}
	}
	if len(scores) == 0 {
		return nil, fmt.Errorf("thresholds: none of the reference documents' outlinks (or seeds) is archived")
	}
	return scores, nil
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
