package similarity

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestSparseMatchesMaps: the sparse vectors over a vocabulary give the
// scores of the map-based measures, for documents that overlap, coincide,
// share nothing or are empty.
func TestSparseMatchesMaps(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	words := func(n, vocab int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = fmt.Sprintf("w%d", int(rng.ExpFloat64()*float64(vocab)/4)%vocab)
		}
		return out
	}
	long := words(400, 300)
	cases := []struct {
		name string
		a, b []string
	}{
		{"overlapping", long, words(300, 300)},
		{"identical", long, long},
		{"disjoint", strings.Fields("lighthouse lens keeper"), strings.Fields("casino poker slots slots")},
		{"one empty", nil, long},
		{"both empty", nil, nil},
		{"ties", strings.Fields("b a c b a c d"), strings.Fields("a b")},
		{"more terms than a chunk", words(3*chunk, 2*chunk), long},
	}
	idf := newDFTable(10, map[string]int{"w1": 9, "w2": 3, "lighthouse": 1})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			voc := newVocab()
			sa, sb := tfOf(voc, c.a), tfOf(voc, c.b)
			ma, mb := termCounts(c.a), termCounts(c.b)
			for _, s := range []sparse{sa, sb} {
				if !slices.IsSorted(s.ids) || len(slices.Compact(slices.Clone(s.ids))) != len(s.ids) {
					t.Fatalf("ids not ascending and distinct: %v", s.ids)
				}
			}
			if got, want := len(sa.ids), len(ma); got != want {
				t.Errorf("%d distinct terms, want %d", got, want)
			}
			for k, id := range sa.ids {
				if n := ma[voc.terms[id]]; float64(n) != sa.w[k] {
					t.Errorf("count of %s = %v, want %d", voc.terms[id], sa.w[k], n)
				}
			}
			w := make([]float64, len(voc.terms))
			for id, term := range voc.terms {
				w[id] = idf.IDF(term)
			}
			va, vb := sa.weigh(w, &voc.wChunk), sb.weigh(w, &voc.wChunk)
			got := cosine(va, va.norm(), vb, vb.norm())
			if want := Cosine(tfidf(ma, idf), tfidf(mb, idf)); math.Abs(got-want) > 1e-12 {
				t.Errorf("cosine = %v, want %v", got, want)
			}
			if got := sa.dotDense(denseOf(vb, len(voc.terms))); math.Abs(got-sa.dot(vb)) > 1e-9 {
				t.Errorf("dotDense = %v, dot = %v", got, sa.dot(vb))
			}
			inter := common(sa.ids, sb.ids)
			if got, want := jaccard(inter, len(sa.ids), len(sb.ids)), Jaccard(ma, mb); got != want {
				t.Errorf("jaccard = %v, want %v", got, want)
			}
			if got, want := sorensen(inter, len(sa.ids), len(sb.ids)), Sorensen(ma, mb); got != want {
				t.Errorf("sorensen = %v, want %v", got, want)
			}
			var top []string
			for _, id := range topIDs(sa, voc.terms, 5) {
				top = append(top, voc.terms[id])
			}
			if want := topTerms(ma, 5); !slices.Equal(top, want) {
				t.Errorf("top terms %v, want %v", top, want)
			}
			ta, tb := topIDs(sa, voc.terms, 20), topIDs(sb, voc.terms, 20)
			if got, want := topIntersection(ta, tb), TFIntersection(ma, mb, 20); got != want {
				t.Errorf("tfintersection = %v, want %v", got, want)
			}
		})
	}
}

func denseOf(s sparse, n int) []float64 {
	d := make([]float64, n)
	for k, id := range s.ids {
		d[id] = s.w[k]
	}
	return d
}

// tfOf is the term counts of terms in voc.
func tfOf(voc *vocab, terms []string) sparse {
	tf, _ := voc.counts(terms, 0)
	return tf
}
