package crawl

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
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
		train, test := s[:n], s[n:]
		var mean, sq float64
		for _, x := range train {
			mean += x
		}
		mean /= float64(len(train))
		for _, x := range train {
			sq += (x - mean) * (x - mean)
		}
		t := math.Max(0, mean-math.Sqrt(sq/float64(len(train))))
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

// learnThreshold scores the archived outlinks of the reference documents.
func (c *crawler) learnThreshold(ctx context.Context, refs []refDoc) (float64, error) {
	var scores []float64
	seen := map[string]bool{}
	for _, r := range refs {
		for _, l := range r.links {
			if seen[l.URL] {
				continue
			}
			seen[l.URL] = true
			s, _, err := c.fetch(ctx, l.URL)
			if err != nil {
				return 0, fmt.Errorf("crawl: thresholds: %w", err)
			}
			if s != nil {
				scores = append(scores, c.relevance(s.topic, s.temp))
			}
		}
	}
	if len(scores) == 0 {
		return 0, fmt.Errorf("crawl: thresholds: none of the reference documents' outlinks is archived")
	}
	t, _ := LearnThreshold(scores, c.opts.Seed)
	return t, nil
}
