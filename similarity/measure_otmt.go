package similarity

import (
	"hash/fnv"
	"math"
	"math/bits"
	"slices"
	"strings"
	"unicode"

	"gonum.org/v1/gonum/mat"
)

// The measures OTMT offers beyond the paper's (Jones, Weigle & Nelson 2018):
// Sørensen-Dice, Levenshtein and normalised Levenshtein over term
// sequences, Simhash on terms and on raw text, and LSI. Each is computed
// only when selected. All but levenshtein are similarities (lower = more
// off-topic) where OTMT reports distances: sorensen = 1 - OTMT's distance,
// nlevenshtein = 1 - OTMT's, the Simhashes = 1 - Hamming distance / 64.

// LevenshteinCap is the number of leading terms of each document that
// levenshtein and nlevenshtein compare: the edit distance costs
// len(a)*len(b) steps, so a pair costs at most 1,000,000.
const LevenshteinCap = 1000

// LSIDims is the number of LSI dimensions (OTMT's default number of topics).
const LSIDims = 10

// LSISample bounds the documents the LSI space of a TimeMap is fitted on
// (t0 and an even sample of the rest); every capture is then projected into
// it. The fit costs LSISample^2 dot products and one eigendecomposition of
// an LSISample x LSISample matrix at most.
const LSISample = 300

// otmtMeasures are registered in the registry (measure.go).
var otmtMeasures = [...]Measure{
	{Name: MeasureSorensen, Doc: "Sørensen-Dice similarity of the term sets", Threshold: 0.10, Min: 0, Max: 1, SweepLo: 0, SweepHi: 1, Extra: true,
		score: func(s *scoring, i int) (float64, bool) {
			a, b := s.prep[i].tf.ids, s.prep[s.t0].tf.ids
			return sorensen(common(a, b), len(a), len(b)), true
		}},
	{Name: MeasureLevenshtein, Doc: "edit distance between the term sequences (first 1000 terms)", Threshold: 150, Direction: HigherIsOff,
		Min: 0, Max: LevenshteinCap, SweepLo: 0, SweepHi: LevenshteinCap, Extra: true, prepare: prepareTermIDs,
		score: func(s *scoring, i int) (float64, bool) {
			return float64(levenshtein(s.prep[i].ids, s.prep[s.t0].ids)), true
		}},
	{Name: MeasureNLevenshtein, Doc: "1 - edit distance / length of the longer term sequence (first 1000 terms)", Threshold: 0.05, Min: 0, Max: 1, SweepLo: 0, SweepHi: 1, Extra: true,
		prepare: prepareTermIDs,
		score: func(s *scoring, i int) (float64, bool) {
			a, b := s.prep[i].ids, s.prep[s.t0].ids
			if len(a) == 0 && len(b) == 0 {
				return 1, true
			}
			return 1 - float64(levenshtein(a, b))/float64(max(len(a), len(b))), true
		}},
	{Name: MeasureTFSimhash, Doc: "1 - Hamming distance / 64 of the 64-bit Simhashes of the term counts", Threshold: 0.60, Min: 0, Max: 1, SweepLo: 0, SweepHi: 1, Extra: true,
		prepare: prepareTermSimhash,
		score: func(s *scoring, i int) (float64, bool) {
			return hammingSim(s.prep[i].termHash, s.prep[s.t0].termHash), true
		}},
	{Name: MeasureRawSimhash, Doc: "1 - Hamming distance / 64 of the 64-bit Simhashes of the text's 4-character shingles", Threshold: 0.60, Min: 0, Max: 1, SweepLo: 0, SweepHi: 1, Extra: true,
		prepare: prepareRawSimhash,
		score: func(s *scoring, i int) (float64, bool) {
			return hammingSim(s.prep[i].rawHash, s.prep[s.t0].rawHash), true
		}},
	{Name: MeasureLSI, Doc: "cosine in the TimeMap's 10-dimensional LSI space (truncated SVD of its TF-IDF matrix)", Threshold: 0.15, Min: -1, Max: 1, SweepLo: 0, SweepHi: 1, Extra: true,
		prepare: prepareLSI,
		score: func(s *scoring, i int) (float64, bool) {
			if s.lsi == nil {
				return 0, false
			}
			return cosDense(s.lsi[i], s.lsi[s.t0]), true
		}},
}

// Sorensen is the Sørensen-Dice coefficient 2|A∩B| / (|A|+|B|) of two term
// sets, 0 when both are empty.
func Sorensen[V any, W any](a map[string]V, b map[string]W) float64 {
	return sorensen(overlap(a, b), len(a), len(b))
}

// prepareTermIDs gives every prepared capture its first LevenshteinCap
// terms as the TimeMap's term ids, done once per TimeMap for both
// Levenshtein measures.
func prepareTermIDs(s *scoring) error {
	if s.idsDone {
		return nil
	}
	s.idsDone = true
	for _, p := range s.prep {
		if p == nil {
			continue
		}
		terms := p.doc.Terms[:min(len(p.doc.Terms), LevenshteinCap)]
		p.ids = make([]int32, len(terms))
		for j, t := range terms {
			p.ids[j] = s.voc.ids[t]
		}
	}
	return nil
}

// levenshtein is the edit distance (insertions, deletions, substitutions of
// one term) between two sequences, in O(len(a)*len(b)) time and
// O(min(len)) memory.
func levenshtein(a, b []int32) int {
	if slices.Equal(a, b) {
		return 0
	}
	if len(a) < len(b) {
		a, b = b, a
	}
	row := make([]int, len(b)+1)
	for j := range row {
		row[j] = j
	}
	for i := 1; i <= len(a); i++ {
		diag := row[0]
		row[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			next := min(row[j]+1, row[j-1]+1, diag+cost)
			diag, row[j] = row[j], next
		}
	}
	return row[len(b)]
}

// featureHash is a 64-bit hash of a feature: FNV-1a, whose high bits mix
// poorly for short strings, finished with SplitMix64's mixer.
func featureHash(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return mix64(h.Sum64())
}

func mix64(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// simhash is Charikar's 64-bit Simhash of weighted features, given by their
// hashes: bit k is set when the features whose hash has bit k set outweigh
// those whose hash has it clear.
func simhash(features map[uint64]int) uint64 {
	var v [64]int
	for h, w := range features {
		for k := range v {
			if h&(1<<k) != 0 {
				v[k] += w
			} else {
				v[k] -= w
			}
		}
	}
	var out uint64
	for k, x := range v {
		if x > 0 {
			out |= 1 << k
		}
	}
	return out
}

// termSimhash is the Simhash of a document's terms (tf over terms' ids)
// weighted by their counts.
func termSimhash(tf sparse, terms []string) uint64 {
	feats := make(map[uint64]int, len(tf.ids))
	for k, id := range tf.ids {
		feats[featureHash(terms[id])] += int(tf.w[k])
	}
	return simhash(feats)
}

// prepareTermSimhash hashes each prepared capture's term counts once.
func prepareTermSimhash(s *scoring) error {
	for _, p := range s.prep {
		if p != nil {
			p.termHash = termSimhash(p.tf, s.voc.terms)
		}
	}
	return nil
}

// shingleWidth is the length in characters of raw_simhash's shingles.
const shingleWidth = 4

// textSimhash is the Simhash of a text's overlapping 4-character shingles,
// counted, over its letters and digits lower-cased (as the Python simhash
// package that OTMT uses tokenises raw content). A text shorter than a
// shingle is one feature.
func textSimhash(text string) uint64 {
	var rs []rune
	for _, r := range text {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			rs = append(rs, unicode.ToLower(r))
		}
	}
	feats := map[uint64]int{}
	for i := 0; i == 0 || i+shingleWidth <= len(rs); i++ {
		if len(rs) == 0 {
			break
		}
		// FNV-1a over the shingle's runes, without building a string.
		h := uint64(14695981039346656037)
		for _, r := range rs[i:min(i+shingleWidth, len(rs))] {
			for r != 0 {
				h ^= uint64(r & 0xff)
				h *= 1099511628211
				r >>= 8
			}
		}
		feats[mix64(h)]++
	}
	return simhash(feats)
}

// hammingSim is 1 - the Hamming distance of two 64-bit hashes / 64.
func hammingSim(a, b uint64) float64 { return 1 - float64(bits.OnesCount64(a^b))/64 }

// prepareRawSimhash hashes each prepared capture's text. The text is the
// whole extracted text when raw_simhash is selected (detection then keeps it
// past the excerpt).
func prepareRawSimhash(s *scoring) error {
	for _, p := range s.prep {
		if p != nil {
			p.rawHash = textSimhash(p.doc.Text)
		}
	}
	return nil
}

// prepareLSI fits the TimeMap's LSI space: the truncated SVD A ≈ U_k Σ_k W_kᵀ
// of the TF-IDF matrix A of a sample of its captures (rows), computed from
// the eigendecomposition of the Gram matrix A Aᵀ = U Σ² Uᵀ (small: one row
// and column per sampled capture, however large the vocabulary). Every
// capture d is then placed at d W_k = (A d) U_k Σ_k⁻¹, which for a sampled
// capture is its row of U_k Σ_k.
func prepareLSI(s *scoring) error {
	var docs []int
	for i, p := range s.prep {
		if p != nil {
			docs = append(docs, i)
		}
	}
	// Sparse rows over the vocabulary in term order, so that every sum runs
	// in the same order however the terms were numbered.
	order := make([]int32, len(s.voc.terms))
	for id := range order {
		order[id] = int32(id)
	}
	slices.SortFunc(order, func(a, b int32) int { return strings.Compare(s.voc.terms[a], s.voc.terms[b]) })
	rank := make([]int32, len(order))
	for r, id := range order {
		rank[id] = int32(r)
	}
	rows := make([]sparse, len(s.prep))
	for _, i := range docs {
		rows[i] = renumber(s.prep[i].vec, rank)
	}
	sample := lsiSample(docs, s.t0, LSISample)
	n := len(sample)
	gram := mat.NewSymDense(n, nil)
	for a := range n {
		for b := a; b < n; b++ {
			gram.SetSym(a, b, rows[sample[a]].dot(rows[sample[b]]))
		}
	}
	var eig mat.EigenSym
	if !eig.Factorize(gram, true) {
		return nil // no LSI score for this TimeMap
	}
	vals := eig.Values(nil)
	var vecs mat.Dense
	eig.VectorsTo(&vecs)
	// The k largest eigenvalues (Values are ascending), ignoring null ones.
	var dims []int
	top := vals[len(vals)-1]
	for c := len(vals) - 1; c >= 0 && len(dims) < LSIDims; c-- {
		if vals[c] > 1e-9*top && vals[c] > 0 {
			dims = append(dims, c)
		}
	}
	if len(dims) == 0 {
		return nil
	}
	s.lsi = make([][]float64, len(s.prep))
	proj := make([]float64, n)
	for _, i := range docs {
		for a := range n {
			proj[a] = rows[i].dot(rows[sample[a]])
		}
		v := make([]float64, len(dims))
		for k, c := range dims {
			var x float64
			for a := range n {
				x += proj[a] * vecs.At(a, c)
			}
			v[k] = x / math.Sqrt(vals[c])
		}
		s.lsi[i] = v
	}
	return nil
}

// lsiSample picks at most n of docs, always t0, the rest evenly spread.
func lsiSample(docs []int, t0, n int) []int {
	if len(docs) <= n {
		return docs
	}
	out := []int{t0}
	step := float64(len(docs)) / float64(n-1)
	for k := 0; k < n-1; k++ {
		if i := docs[int(float64(k)*step)]; i != t0 {
			out = append(out, i)
		}
	}
	return out
}

// renumber is v with its ids renumbered by rank.
func renumber(v sparse, rank []int32) sparse {
	type entry struct {
		i int32
		w float64
	}
	es := make([]entry, len(v.ids))
	for k, id := range v.ids {
		es[k] = entry{rank[id], v.w[k]}
	}
	slices.SortFunc(es, func(a, b entry) int { return int(a.i) - int(b.i) })
	r := sparse{ids: make([]int32, len(es)), w: make([]float64, len(es))}
	for k, e := range es {
		r.ids[k], r.w[k] = e.i, e.w
	}
	return r
}

// cosDense is the cosine of two dense vectors, 0 when either is zero.
func cosDense(a, b []float64) float64 {
	var ab, aa, bb float64
	for k := range a {
		ab += a[k] * b[k]
		aa += a[k] * a[k]
		bb += b[k] * b[k]
	}
	if aa == 0 || bb == 0 {
		return 0
	}
	return clamp(ab/math.Sqrt(aa*bb), -1, 1)
}
