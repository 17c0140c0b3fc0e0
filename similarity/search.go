package similarity

import (
	"context"
	"math"
	"sort"
)

// SearchEngine answers a keyword query with the terms of its best result
// snippets. SEKernel uses it to expand a document's terms; the default engine
// runs offline over the collection itself, and a web search backend can be
// added behind the same interface.
type SearchEngine interface {
	Search(ctx context.Context, query []string, k int) ([][]string, error)
}

// BM25 is an offline SearchEngine: an Okapi BM25 index over passages of the
// collection's texts, returning the best passages as snippets.
// Build it with Add, then Freeze; it is safe for concurrent Search after Freeze.
type BM25 struct {
	// K1 and B are the usual BM25 parameters (1.2 and 0.75 by default).
	K1, B float64
	// PassageLen is the number of terms per passage (40 by default).
	PassageLen int

	passages [][]string
	postings map[string][]posting
	totalLen int
	seen     map[string]bool
}

type posting struct {
	passage int32
	tf      int32
}

// NewBM25 returns an empty index with default parameters.
func NewBM25() *BM25 {
	return &BM25{K1: 1.2, B: 0.75, PassageLen: 40, postings: map[string][]posting{}, seen: map[string]bool{}}
}

// Add indexes a document's terms as passages; a document id already added
// (such as a payload digest seen before) is skipped.
func (e *BM25) Add(id string, terms []string) {
	if id != "" {
		if e.seen[id] {
			return
		}
		e.seen[id] = true
	}
	for start := 0; start < len(terms); start += e.PassageLen {
		p := terms[start:min(start+e.PassageLen, len(terms))]
		idx := int32(len(e.passages))
		e.passages = append(e.passages, p)
		e.totalLen += len(p)
		for t, n := range termCounts(p) {
			e.postings[t] = append(e.postings[t], posting{idx, int32(n)})
		}
	}
}

// Freeze ends indexing and frees what only Add needs.
func (e *BM25) Freeze() { e.seen = nil }

// Len is the number of passages indexed.
func (e *BM25) Len() int { return len(e.passages) }

// Search implements SearchEngine.
func (e *BM25) Search(ctx context.Context, query []string, k int) ([][]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	n := float64(len(e.passages))
	if n == 0 {
		return nil, nil
	}
	avg := float64(e.totalLen) / n
	scores := map[int32]float64{}
	for _, q := range query {
		ps := e.postings[q]
		if len(ps) == 0 {
			continue
		}
		idf := math.Log(1 + (n-float64(len(ps))+0.5)/(float64(len(ps))+0.5))
		for _, p := range ps {
			tf := float64(p.tf)
			dl := float64(len(e.passages[p.passage]))
			scores[p.passage] += idf * tf * (e.K1 + 1) / (tf + e.K1*(1-e.B+e.B*dl/avg))
		}
	}
	ids := make([]int32, 0, len(scores))
	for id := range scores {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool {
		if scores[ids[i]] != scores[ids[j]] {
			return scores[ids[i]] > scores[ids[j]]
		}
		return ids[i] < ids[j]
	})
	if len(ids) > k {
		ids = ids[:k]
	}
	out := make([][]string, len(ids))
	for i, id := range ids {
		out[i] = e.passages[id]
	}
	return out, nil
}

// seKernelSet is SEKernel's expansion of t0's terms: terms with the terms of
// the top snippets returned for query (t0's five most frequent terms).
func seKernelSet(ctx context.Context, eng SearchEngine, terms, query []string) (map[string]bool, error) {
	set := make(map[string]bool, len(terms))
	for _, t := range terms {
		set[t] = true
	}
	snippets, err := eng.Search(ctx, query, 10)
	if err != nil {
		return nil, err
	}
	for _, s := range snippets {
		for _, t := range s {
			set[t] = true
		}
	}
	return set, nil
}
