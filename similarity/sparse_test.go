package similarity

import (
	"fmt"
	"maps"
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

// TestVocabCounts: a document's counts, of all its terms and of its text's
// (its first content terms), are each term's occurrences, ids ascending,
// over documents that share terms with those before them.
func TestVocabCounts(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	voc := newVocab()
	naive := func(terms []string) map[string]float64 {
		m := map[string]float64{}
		for _, t := range terms {
			m[t]++
		}
		return m
	}
	check := func(what string, s sparse, want map[string]float64) {
		got := map[string]float64{}
		for k, id := range s.ids {
			if k > 0 && s.ids[k-1] >= id {
				t.Fatalf("%s: ids not ascending: %v", what, s.ids)
			}
			got[voc.terms[id]] = s.w[k]
		}
		if !maps.Equal(got, want) {
			t.Fatalf("%s: %v, want %v", what, got, want)
		}
	}
	for range 500 {
		terms := make([]string, rng.IntN(40))
		for i := range terms {
			terms[i] = fmt.Sprint("t", rng.IntN(60))
		}
		content := 0
		if len(terms) > 0 {
			content = rng.IntN(len(terms) + 1)
		}
		all, text := voc.counts(terms, content)
		check("all", all, naive(terms))
		check("text", text, naive(terms[:content]))
	}
	if slices.ContainsFunc(voc.cnt, func(n int32) bool { return n != 0 }) {
		t.Error("counts left counts behind")
	}
}

// TestSortIDs: sortIDs sorts a document's distinct ids as slices.Sort does,
// whether they are few or most of the vocabulary (by its bitmap), and
// leaves the bitmap clear for the next document.
func TestSortIDs(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	v := newVocab()
	for _, tc := range []struct{ vocab, ids int }{{10, 3}, {100, 100}, {1000, 5}, {1000, 40}, {5000, 4000}, {70000, 2000}, {70000, 200}, {64, 64}, {65, 1}} {
		for len(v.terms) < tc.vocab {
			v.id(fmt.Sprintf("t%d", len(v.terms)))
		}
		for range 20 {
			ids := make([]int32, 0, tc.ids)
			for _, id := range rng.Perm(len(v.terms))[:tc.ids] {
				ids = append(ids, int32(id))
			}
			want := slices.Clone(ids)
			slices.Sort(want)
			v.sortIDs(ids)
			if !slices.Equal(ids, want) {
				t.Fatalf("%d of %d ids: sorted %v, want %v", tc.ids, len(v.terms), ids, want)
			}
			if i := slices.IndexFunc(v.bits[:cap(v.bits)], func(w uint64) bool { return w != 0 }); i >= 0 {
				t.Fatalf("%d of %d ids: bitmap word %d left set", tc.ids, len(v.terms), i)
			}
		}
	}
	if v.bits == nil {
		t.Error("the bitmap was never used")
	}
}

// TestVocabReset: a vocabulary reset and used for another TimeMap numbers
// and counts its documents as a new one does, after TimeMaps of few terms
// (whose tables it keeps) and of many (whose it lets go), and holds none of
// the TimeMap before's terms.
func TestVocabReset(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	reused := newVocab()
	for tm := range 30 {
		distinct := 50
		if tm%7 == 3 {
			distinct = 2 * maxClearedMap // a TimeMap of long pages
		}
		fresh := newVocab()
		reused.reset()
		if len(reused.ids) != 0 || len(reused.terms) != 0 {
			t.Fatalf("TimeMap %d: reset left %d ids, %d terms", tm, len(reused.ids), len(reused.terms))
		}
		for range 5 {
			terms := make([]string, 200+rng.IntN(distinct))
			for i := range terms {
				terms[i] = fmt.Sprintf("t%d-%d", tm%3, rng.IntN(distinct))
			}
			content := rng.IntN(len(terms) + 1)
			a1, t1 := fresh.counts(terms, content)
			a2, t2 := reused.counts(terms, content)
			for _, pair := range [][2]sparse{{a1, a2}, {t1, t2}} {
				if !slices.Equal(pair[0].ids, pair[1].ids) || !slices.Equal(pair[0].w, pair[1].w) {
					t.Fatalf("TimeMap %d: reused vocabulary counts %v %v, a new one %v %v", tm, pair[1].ids, pair[1].w, pair[0].ids, pair[0].w)
				}
			}
		}
		if !slices.Equal(fresh.terms, reused.terms) {
			t.Fatalf("TimeMap %d: terms %d, want %d", tm, len(reused.terms), len(fresh.terms))
		}
	}
}
