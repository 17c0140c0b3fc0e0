package similarity

import (
	"math"
	"math/bits"
	"slices"
)

// vocab numbers the distinct terms of one TimeMap's captures with small
// integers, in order of first occurrence, so that scoring compares sorted
// slices of integers instead of looking strings up in maps.
type vocab struct {
	ids   map[string]int32
	terms []string
	// cnt is counts's scratch: zero for every id between calls.
	cnt  []int32
	seen []int32
	tids []int32  // counts's scratch: a document's terms' ids
	bits []uint64 // sortIDs's scratch: zero between calls
	// idChunk and wChunk are the chunks that vectors over the vocabulary
	// are carved from: a few allocations per TimeMap rather than some per
	// capture.
	idChunk []int32
	wChunk  []float64
}

// chunk is the least number of elements carve allocates at once.
const chunk = 4096

// carve returns the next n elements of *buf, starting a new chunk when the
// current one is full.
func carve[T any](buf *[]T, n int) []T {
	if cap(*buf)-len(*buf) < n {
		*buf = make([]T, 0, max(n, chunk))
	}
	b := *buf
	*buf = b[:len(b)+n]
	return b[len(b) : len(b)+n : len(b)+n]
}

func newVocab() *vocab { return &vocab{ids: map[string]int32{}} }

// maxClearedMap is the most entries a map of one TimeMap's terms holds for
// it to be cleared and used for the next rather than let go: clearing costs
// what a map grew to, which one TimeMap of long pages would make every
// later one pay.
const maxClearedMap = 1 << 14

// reset empties v for another TimeMap, keeping its tables' memory (its
// chunks from where the last began: what was carved from them is not used
// after a TimeMap is scored).
func (v *vocab) reset() {
	if len(v.terms) > maxClearedMap {
		*v = vocab{ids: map[string]int32{}}
		return
	}
	clear(v.ids)
	clear(v.terms) // the documents' strings
	// cnt and bits are zero between counts.
	v.terms, v.cnt, v.seen, v.tids = v.terms[:0], v.cnt[:0], v.seen[:0], v.tids[:0]
	v.idChunk, v.wChunk = v.idChunk[:0], v.wChunk[:0]
}

// id returns the term's id, numbering it if it is new.
func (v *vocab) id(t string) int32 {
	id, ok := v.ids[t]
	if !ok {
		id = int32(len(v.terms))
		v.ids[t] = id
		v.terms = append(v.terms, t)
		v.cnt = append(v.cnt, 0)
	}
	return id
}

// counts is a document's term counts as a sparse vector: those of all its
// terms and those of its first content terms (its text's), each term looked
// up once and counted once: the text's counts are taken, then the rest's
// added to them.
func (v *vocab) counts(terms []string, content int) (all, text sparse) {
	ids := v.tids[:0]
	for _, t := range terms {
		ids = append(ids, v.id(t))
	}
	v.tids = ids
	seen := v.tally(v.seen[:0], ids[:content])
	v.sortIDs(seen)
	text = v.vector(seen)
	k := len(seen)
	seen = v.tally(seen, ids[content:])
	v.seen = seen
	v.sortIDs(seen[k:])
	all = sparse{ids: carve(&v.idChunk, len(seen)), w: carve(&v.wChunk, len(seen))}
	mergeSorted(all.ids, seen[:k], seen[k:])
	for j, id := range all.ids {
		all.w[j] = float64(v.cnt[id])
		v.cnt[id] = 0
	}
	return all, text
}

// sortIDs sorts ids, distinct ids of v: by a bitmap of v's ids when they
// are not much fewer than its bitmap's words (a document's terms are often
// most of its TimeMap's vocabulary), else by comparison.
func (v *vocab) sortIDs(ids []int32) {
	words := (len(v.terms) + 63) / 64
	if words > 4*len(ids) {
		slices.Sort(ids)
		return
	}
	if cap(v.bits) < words {
		v.bits = make([]uint64, words, 2*words)
	}
	b := v.bits[:words]
	for _, id := range ids {
		b[id>>6] |= 1 << (id & 63)
	}
	k := 0
	for w, x := range b {
		for ; x != 0; x &= x - 1 {
			ids[k] = int32(w<<6 + bits.TrailingZeros64(x))
			k++
		}
		b[w] = 0
	}
}

// tally counts ids in v.cnt, appending to seen those it counts first.
func (v *vocab) tally(seen, ids []int32) []int32 {
	for _, id := range ids {
		if v.cnt[id] == 0 {
			seen = append(seen, id)
		}
		v.cnt[id]++
	}
	return seen
}

// vector is the counts of ids (ascending, counted in v.cnt) as a sparse
// vector; the counts stay.
func (v *vocab) vector(ids []int32) sparse {
	s := sparse{ids: carve(&v.idChunk, len(ids)), w: carve(&v.wChunk, len(ids))}
	copy(s.ids, ids)
	for k, id := range s.ids {
		s.w[k] = float64(v.cnt[id])
	}
	return s
}

// mergeSorted writes the merge of the ascending a and b (disjoint) to out,
// len(a)+len(b) long.
func mergeSorted(out, a, b []int32) {
	i, j := 0, 0
	for k := range out {
		if j >= len(b) || i < len(a) && a[i] < b[j] {
			out[k] = a[i]
			i++
		} else {
			out[k] = b[j]
			j++
		}
	}
}

// sparse is a vector over a vocab's ids: ids ascending, w their weights.
type sparse struct {
	ids []int32
	w   []float64
}

// weigh is the vector with the same terms and weights w[k]*idf[ids[k]],
// its weights carved from buf.
func (s sparse) weigh(idf []float64, buf *[]float64) sparse {
	out := sparse{ids: s.ids, w: carve(buf, len(s.w))}
	for k, id := range s.ids {
		out.w[k] = s.w[k] * idf[id]
	}
	return out
}

// minus is a less b: the terms of a left with a weight above zero (b's
// terms that a lacks are passed over), carved from ids and ws; its ids are
// never nil, so that a made vector tells from one not made yet.
func minus(a, b sparse, ids *[]int32, ws *[]float64) sparse {
	out := sparse{ids: carve(ids, len(a.ids))[:0], w: carve(ws, len(a.ids))[:0]}
	if out.ids == nil {
		out.ids = []int32{}
	}
	y := 0
	for x, id := range a.ids {
		for y < len(b.ids) && b.ids[y] < id {
			y++
		}
		w := a.w[x]
		if y < len(b.ids) && b.ids[y] == id {
			w -= b.w[y]
		}
		if w > 1e-12 {
			out.ids = append(out.ids, id)
			out.w = append(out.w, w)
		}
	}
	return out
}

// norm is the Euclidean length, summed in id order.
func (s sparse) norm() float64 {
	var sum float64
	for _, w := range s.w {
		sum += w * w
	}
	return math.Sqrt(sum)
}

// dot is the dot product, summed in id order.
func (s sparse) dot(o sparse) float64 {
	var sum float64
	for a, b := 0, 0; a < len(s.ids) && b < len(o.ids); {
		switch x, y := s.ids[a], o.ids[b]; {
		case x < y:
			a++
		case x > y:
			b++
		default:
			sum += s.w[a] * o.w[b]
			a++
			b++
		}
	}
	return sum
}

// dotDense is the dot product with a dense vector indexed by id.
func (s sparse) dotDense(d []float64) float64 {
	var sum float64
	for k, id := range s.ids {
		if x := d[id]; x != 0 {
			sum += s.w[k] * x
		}
	}
	return sum
}

// common is the number of ids in both of two ascending id lists.
func common(a, b []int32) int {
	n := 0
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] < b[j]:
			i++
		case a[i] > b[j]:
			j++
		default:
			n++
			i++
			j++
		}
	}
	return n
}

// cosine is the cosine of two vectors given their norms, 0 when either is
// zero.
func cosine(a sparse, na float64, b sparse, nb float64) float64 {
	if na == 0 || nb == 0 {
		return 0
	}
	return clamp(a.dot(b)/(na*nb), 0, 1)
}

// jaccard is |A∩B| / |A∪B| of two term sets of sizes na and nb with inter
// terms in common, 0 when both are empty.
func jaccard(inter, na, nb int) float64 {
	union := na + nb - inter
	if union == 0 {
		return 0
	}
	return float64(inter) / float64(union)
}

// sorensen is 2|A∩B| / (|A|+|B|) of two term sets of sizes na and nb with
// inter terms in common, 0 when both are empty.
func sorensen(inter, na, nb int) float64 {
	if na+nb == 0 {
		return 0
	}
	return 2 * float64(inter) / float64(na+nb)
}
