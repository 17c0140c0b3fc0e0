package similarity

import (
	"cmp"
	"math"
	"slices"
	"strings"
)

// Vector is a sparse term-weight vector.
type Vector map[string]float64

// termCounts counts the terms of a document.
func termCounts(terms []string) map[string]int {
	tf := make(map[string]int, len(terms)/2+1)
	for _, t := range terms {
		tf[t]++
	}
	return tf
}

// IDF gives the inverse document frequency of a term.
type IDF interface {
	IDF(term string) float64
}

// dfTable is document frequencies over a set of documents, with the smoothed
// IDF of scikit-learn's TfidfVectorizer: ln((1+N)/(1+df)) + 1. Smoothing keeps
// terms that occur in every document (common in a TimeMap of two captures)
// from vanishing.
type dfTable struct {
	n  int
	df *frozenCounts
}

// newDFTable returns the table of the document frequencies df of n
// documents (df is not kept).
func newDFTable(n int, df map[string]int) *dfTable {
	return &dfTable{n: n, df: freezeCounts(df)}
}

// IDF implements IDF.
func (d *dfTable) IDF(term string) float64 { return smoothIDF(d.n, d.df.get(term)) }

// smoothIDF is the smoothed IDF of a term held by df of n documents.
func smoothIDF(n, df int) float64 {
	return math.Log(float64(1+n)/float64(1+df)) + 1
}

// tfidf weights raw term counts by idf.
func tfidf(tf map[string]int, idf IDF) Vector {
	v := make(Vector, len(tf))
	for t, n := range tf {
		v[t] = float64(n) * idf.IDF(t)
	}
	return v
}

// Cosine is the cosine of the angle between a and b, 0 when either is empty.
func Cosine(a, b Vector) float64 {
	na, nb := norm(a), norm(b)
	if na == 0 || nb == 0 {
		return 0
	}
	return clamp(dot(a, b)/(na*nb), 0, 1)
}

// dot is the dot product of two sparse vectors.
func dot(a, b Vector) float64 {
	if len(a) > len(b) {
		a, b = b, a
	}
	var s float64
	for t, w := range a {
		s += w * b[t]
	}
	return s
}

// unit scales v to length 1 in place and returns it.
func unit(v Vector) Vector {
	n := norm(v)
	if n == 0 {
		return v
	}
	for t := range v {
		v[t] /= n
	}
	return v
}

func norm(v Vector) float64 {
	var s float64
	for _, w := range v {
		s += w * w
	}
	return math.Sqrt(s)
}

// Jaccard is |A∩B| / |A∪B| of two term sets, 0 when both are empty.
func Jaccard[V any, W any](a map[string]V, b map[string]W) float64 {
	return jaccard(overlap(a, b), len(a), len(b))
}

// overlap is the number of keys of a that b holds too.
func overlap[V any, W any](a map[string]V, b map[string]W) int {
	inter := 0
	for t := range a {
		if _, ok := b[t]; ok {
			inter++
		}
	}
	return inter
}

// topTerms returns the k most frequent terms, ties broken alphabetically so
// that results do not depend on map order.
func topTerms(tf map[string]int, k int) []string {
	type tc struct {
		t string
		n int
	}
	all := make([]tc, 0, len(tf))
	for t, n := range tf {
		all = append(all, tc{t, n})
	}
	slices.SortFunc(all, func(a, b tc) int { return cmp.Or(cmp.Compare(b.n, a.n), strings.Compare(a.t, b.t)) })
	terms := make([]string, min(k, len(all)))
	for i := range terms {
		terms[i] = all[i].t
	}
	return terms
}

// TFIntersection is the share of the k most frequent terms that two documents
// have in common: |top(a) ∩ top(b)| / max(|top(a)|, |top(b)|), in [0, 1].
func TFIntersection(a, b map[string]int, k int) float64 {
	return topIntersection(topTerms(a, k), topTerms(b, k))
}

// topIntersection is TFIntersection of two documents' top terms (a few
// dozen at most, each list without repeats).
func topIntersection[T comparable](ta, tb []T) float64 {
	if len(ta) == 0 || len(tb) == 0 {
		return 0
	}
	inter := 0
	for _, t := range tb {
		if slices.Contains(ta, t) {
			inter++
		}
	}
	return float64(inter) / float64(max(len(ta), len(tb)))
}

// Change is the relative change (n - n0) / n0 clamped to [-1, 1]; 0 when both
// are 0, 1 when only n0 is 0.
func Change(n, n0 int) float64 {
	if n0 == 0 {
		if n == 0 {
			return 0
		}
		return 1
	}
	return clamp(float64(n-n0)/float64(n0), -1, 1)
}

func clamp(x, lo, hi float64) float64 {
	return math.Max(lo, math.Min(hi, x))
}

// CosineInOrder is Cosine with every sum taken in term order. Map iteration
// order is random and float addition is not associative, so Cosine may
// differ in its last bits from one run to the next; CosineInOrder gives the
// same bits on every run, at the cost of sorting the terms. It is for
// callers that compare scores exactly (the crawl's frontier, which a resumed
// crawl must rebuild as it was). A caller that scores many vectors against
// one sorts that one once with NewOrdered.
func CosineInOrder(a, b Vector) float64 { return NewOrdered(a).Cosine(b) }

// Ordered is a Vector with its terms sorted and its squared norm summed in
// term order, for CosineInOrder against many vectors. The Vector must not
// change afterwards.
type Ordered struct {
	v     Vector
	terms []string
	norm2 float64
}

// NewOrdered sorts v's terms and sums its squared norm.
func NewOrdered(v Vector) *Ordered {
	o := &Ordered{v: v, terms: sortedTerms(v)}
	for _, t := range o.terms {
		o.norm2 += v[t] * v[t]
	}
	return o
}

// Cosine is CosineInOrder(v, b), bit for bit, where v is o's Vector. Both
// sums are taken in term order: b's norm over its terms, the dot product
// over the terms v and b share (the same order whichever side is walked).
func (o *Ordered) Cosine(b Vector) float64 {
	var dot, nb float64
	for _, t := range sortedTerms(b) {
		w := b[t]
		nb += w * w
		if y, ok := o.v[t]; ok {
			dot += w * y
		}
	}
	if o.norm2 == 0 || nb == 0 {
		return 0
	}
	return clamp(dot/math.Sqrt(o.norm2*nb), 0, 1)
}

// sortedTerms returns the terms of v in order.
func sortedTerms(v Vector) []string {
	terms := make([]string, 0, len(v))
	for t := range v {
		terms = append(terms, t)
	}
	slices.Sort(terms)
	return terms
}
