package similarity

import (
	"cmp"
	"hash/fnv"
	"maps"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"
)

// Model is what detection knows about the whole collection: document
// frequencies (for collection-wide IDF), the collection's topic (a centroid
// of the t0 candidates of every TimeMap), a fixed-size sample of first
// captures from which each TimeMap's own subject is drawn, and the search
// engine behind SEKernel. It holds aggregated statistics only, never the
// documents, and its size does not grow with the number of TimeMaps (the
// document-frequency table grows with the vocabulary only).
type Model struct {
	// DF is document frequencies over every distinct payload of each TimeMap.
	DF IDF
	// Engine answers SEKernel's queries; nil when SEKernel is not computed.
	Engine SearchEngine
	// Topic is the collection's topic vector (collection IDF, unit length).
	Topic Vector
	// TypicalTopicSim is the median similarity of the sampled first captures
	// to Topic.
	TypicalTopicSim float64
	// TypicalTerms is the median number of terms of the sampled first
	// captures.
	TypicalTerms int
	// topicNorm is the length of Topic.
	topicNorm float64
	// refTerm numbers the terms of the sample of first captures, the
	// neighbours from which a TimeMap's own topic is drawn; refs are their
	// unit vectors over those numbers, and post their inverted index (term
	// number -> references holding it, with the weight).
	refTerm map[string]int32
	refs    []sparse
	post    [][]refWeight
	// centroids holds localTopic's scratch (*centroid), so that concurrent
	// scorers reuse it instead of allocating one per TimeMap.
	centroids sync.Pool
}

type refWeight struct {
	ref int32
	w   float64
}

// SampleSize is how many first captures the model keeps to draw each
// TimeMap's subject from. The sample has the same size whatever the size of
// the collection, so a page's neighbourhood is the same share of its
// collection at 300 seeds and at 30,000: the verdict does not depend on how
// big the collection around a page is, and the cost of scoring one TimeMap
// is fixed.
const SampleSize = 400

// neighbours is how many similar first captures make a TimeMap's topic: a
// quarter of the reference sample, wide enough to stand for the TimeMap's
// subject rather than its own story, narrow enough to tell apart the
// subjects of a collection that mixes several.
func neighbours(refs int) int {
	return max(min(10, refs), refs/4)
}

// centroid is localTopic's scratch: a dense vector over the reference
// terms, zero but for the numbers in touched.
type centroid struct {
	w       []float64
	touched []int32
}

// localTopic is the topic of the part of the collection a TimeMap belongs
// to: the centroid of the sampled first captures most similar to its t0
// (t0 itself excluded). A collection mixing subjects (or several collections
// scored together) thus gives each TimeMap the topic of its own subject. v is
// t0's vector with collection IDF over the TimeMap's vocabulary voc, vn its
// length. It returns the centroid's weights at voc's ids (0 where it has
// none) and its length; nil when there is no topic.
func (m *Model) localTopic(v sparse, vn float64, voc *vocab) ([]float64, float64) {
	if m == nil || len(m.refs) == 0 || vn == 0 {
		return nil, 0
	}
	refOf, all := m.nearest(v, vn, voc)
	c, _ := m.centroids.Get().(*centroid)
	if c == nil {
		c = &centroid{w: make([]float64, len(m.refTerm))}
	}
	for _, b := range all {
		r := m.refs[b.i]
		for k, t := range r.ids {
			if c.w[t] == 0 {
				c.touched = append(c.touched, t)
			}
			c.w[t] += r.w[k]
		}
	}
	var sum float64
	for _, t := range c.touched {
		sum += c.w[t] * c.w[t]
	}
	at := make([]float64, len(voc.terms))
	for id, r := range refOf {
		if r >= 0 {
			at[id] = c.w[r]
		}
	}
	for _, t := range c.touched {
		c.w[t] = 0
	}
	c.touched = c.touched[:0]
	m.centroids.Put(c)
	return at, math.Sqrt(sum)
}

// scored is a reference with its similarity to a document.
type scored struct {
	i int
	s float64
}

// nearest returns the reference term of each of voc's ids (-1 where the
// reference sample has none) and the references most similar to the
// document v (collection IDF over voc's ids, length vn): the document's
// neighbours(n) nearest, in reference order, with their cosines.
func (m *Model) nearest(v sparse, vn float64, voc *vocab) ([]int32, []scored) {
	refOf := make([]int32, len(voc.terms))
	for id, t := range voc.terms {
		if r, ok := m.refTerm[t]; ok {
			refOf[id] = r
		} else {
			refOf[id] = -1
		}
	}
	// Every reference's dot product with v/vn at once, through the inverted
	// index: work in proportion to the postings of v's terms.
	dots := make([]float64, len(m.refs))
	for k, id := range v.ids {
		if r := refOf[id]; r >= 0 {
			w := v.w[k] / vn
			for _, p := range m.post[r] {
				dots[p.ref] += w * p.w
			}
		}
	}
	all := make([]scored, 0, len(m.refs))
	for i, d := range dots {
		// Rounded, so that summation noise cannot change which neighbours
		// are chosen; ties keep the earlier reference.
		s := math.Round(d*1e9) / 1e9
		if s > 0.999 { // the document itself, or an identical one
			continue
		}
		all = append(all, scored{i, s})
	}
	slices.SortFunc(all, func(a, b scored) int { return cmp.Or(cmp.Compare(b.s, a.s), cmp.Compare(a.i, b.i)) })
	all = all[:min(len(all), neighbours(len(m.refs)))]
	// In reference order, so that what is summed over them is the same bit
	// for bit whatever order the neighbours were found in.
	slices.SortFunc(all, func(a, b scored) int { return cmp.Compare(a.i, b.i) })
	return refOf, all
}

// termTotal is the number of terms counted in tf.
func termTotal(tf map[string]int) int {
	n := 0
	for _, c := range tf {
		n += c
	}
	return n
}

// TopicSim is the cosine of a document's terms (collection IDF) with the
// collection's topic; 0 without a model.
func (m *Model) TopicSim(tf map[string]int) float64 {
	if m == nil || m.topicNorm == 0 {
		return 0
	}
	return m.topicSimOf(tfidf(tf, m.DF))
}

// topicSimOf is TopicSim of a document's terms weighed by collection IDF.
func (m *Model) topicSimOf(v Vector) float64 {
	if m.topicNorm == 0 {
		return 0
	}
	if n := norm(v); n > 0 {
		return clamp(dot(v, m.Topic)/(n*m.topicNorm), 0, 1)
	}
	return 0
}

// ModelStats are the partial statistics of a collection model: what one part
// of a collection (a shard, a reducer's input, a Beam bundle) contributes.
// The statistics of parts merge associatively, commutatively and exactly
// (integer sums, and a bottom-k sample by a hash of the SURT key), so the
// model built from them is the same bit for bit however the collection was
// split and in whatever order the parts are merged.
type ModelStats struct {
	// Docs is the number of distinct payloads counted (each TimeMap's own
	// distinct payloads; the same payload in two TimeMaps counts twice).
	Docs int `json:"docs"`
	// DF maps a term to the number of those payloads that hold it.
	DF map[string]int `json:"df"`
	// Firsts is the number of TimeMaps with a first capture of text.
	Firsts int `json:"firsts"`
	// Centroid sums the first captures' unit term-count vectors, in fixed
	// point (units of 2^-32) so that sums are exact in any order.
	Centroid map[string]int64 `json:"centroid"`
	// Sample holds the SampleSize first captures whose keys hash lowest.
	Sample []SampleDoc `json:"sample"`
	// df counts the document frequencies of one Add's payloads.
	df dfCounts
	// shared, when set, takes the sample's documents instead of Sample.
	shared *sharedSample
}

// SampleDoc is one sampled first capture.
type SampleDoc struct {
	Hash uint64         `json:"hash"`
	Key  string         `json:"key"`
	TF   map[string]int `json:"tf"`
}

// fixedOne is 1 in the fixed point of ModelStats.Centroid.
const fixedOne = 1 << 32

// NewModelStats returns empty statistics.
func NewModelStats() *ModelStats {
	return &ModelStats{DF: map[string]int{}, Centroid: map[string]int64{}}
}

// firstWithText is the index of a TimeMap's first scorable capture with at
// least minWords words, -1 when there is none.
func firstWithText(in Input, minWords int) int {
	for i, c := range in.TimeMap.Captures {
		doc := at(in.Docs, i)
		if scorable(c, doc, at(in.Errs, i)) == "" && doc.WordCount >= minWords {
			return i
		}
	}
	return -1
}

// Add takes one TimeMap's documents into the statistics: each of its
// distinct payloads once into the document frequencies, and its first
// capture with at least minWords words into the topic and the sample.
func (s *ModelStats) Add(in Input, minWords int) {
	seen := map[string]bool{}
	for i, c := range in.TimeMap.Captures {
		doc := at(in.Docs, i)
		if doc == nil || len(doc.Terms) == 0 {
			continue
		}
		id := c.Digest
		if id == "" {
			id = c.Timestamp14()
		}
		if seen[id] {
			continue
		}
		seen[id] = true
		s.Docs++
		s.df.count(doc.Terms, s.DF)
	}
	s.df.addTo(s.DF)
	first := firstWithText(in, minWords)
	if first < 0 {
		return
	}
	tf := modelTerms(in.Docs[first].TextTerms())
	for t, w := range unit(tfidf(tf, flat{})) {
		addCount(s.Centroid, t, int64(math.Round(w*fixedOne)))
	}
	s.Firsts++
	h := fnv.New64a()
	h.Write([]byte(in.TimeMap.Key))
	d := SampleDoc{Hash: h.Sum64(), Key: in.TimeMap.Key, TF: tf}
	if s.shared != nil {
		s.shared.add(d)
		return
	}
	s.Sample = sampleAdd(s.Sample, d)
}

// sampleAdd adds d to docs, a sample bottomK keeps, when it belongs in it.
// The terms of the document it keeps are copied into one string of their
// own: they are the page's, whose bytes (all its terms, of every capture
// decoded with it) the sample would otherwise hold to the end of the pass.
func sampleAdd(docs []SampleDoc, d SampleDoc) []SampleDoc {
	if len(docs) >= SampleSize && sampleOrder(d, docs[len(docs)-1]) >= 0 {
		return docs
	}
	d.TF = ownKeys(d.TF)
	return bottomK(append(docs, d))
}

// sampleOrder orders sampled documents by hash, then key.
func sampleOrder(a, b SampleDoc) int {
	return cmp.Or(cmp.Compare(a.Hash, b.Hash), cmp.Compare(a.Key, b.Key))
}

// ownKeys returns tf with its keys copied into one allocation.
func ownKeys(tf map[string]int) map[string]int {
	keys, n := make([]string, 0, len(tf)), 0
	for t := range tf {
		keys = append(keys, t)
		n += len(t)
	}
	var b strings.Builder
	b.Grow(n)
	for _, t := range keys {
		b.WriteString(t)
	}
	all, at := b.String(), 0
	out := make(map[string]int, len(tf))
	for _, t := range keys {
		out[all[at:at+len(t)]] = tf[t]
		at += len(t)
	}
	return out
}

// sharedSample is one sample that several ModelStats gathering parts of a
// collection add to, so that they hold SampleSize documents between them
// rather than SampleSize each.
type sharedSample struct {
	mu   sync.Mutex
	docs []SampleDoc
}

func (p *sharedSample) add(d SampleDoc) {
	p.mu.Lock()
	p.docs = sampleAdd(p.docs, d)
	p.mu.Unlock()
}

// modelTerms counts the terms of a first capture as the model takes them:
// at most maxModelTerms distinct ones.
func modelTerms(terms []string) map[string]int {
	tf := termCounts(terms)
	if len(tf) <= maxModelTerms {
		return tf
	}
	tf = map[string]int{}
	for _, t := range terms {
		if _, ok := tf[t]; ok || len(tf) < maxModelTerms {
			tf[t]++
		}
	}
	return tf
}

// addCount adds n to m[t], keyed by a copy of t. A document's terms share
// their bytes, which a key would hold whole; and an assignment to a key
// there already puts the key given in its place (a map of strings keeps
// the newest equal key), so a copy made only for a new key was soon
// replaced by the next document's term: the document frequencies came to
// hold the term bytes of pages seen long before (25 of the 102 MB live at
// the end of the first pass over real-1068 with the 16 languages).
func addCount[N int | int64](m map[string]N, t string, n N) {
	m[strings.Clone(t)] += n
}

// maxModelTerms is the most distinct terms one document adds to the model
// (its document frequencies, and as a first capture its topic and
// sample): the first in text order. A page of more is a dump of data or a
// word list, whose rare terms say nothing of the collection's subject and
// would make the model grow with it (issue 38: 50 pages of a megabyte of
// distinct hexadecimal tokens took 2 GB); the longest page of real-1068 has
// 30,982.
const maxModelTerms = 1 << 15

// dfCounts counts how many of a TimeMap's payloads hold each term (each
// at most maxModelTerms distinct terms, the first in text order), one map
// lookup a term of a payload; addTo then adds each term's count to the
// document frequencies once, rather than once a payload.
type dfCounts struct {
	ids   map[string]int32
	terms []string
	n     []int   // payloads holding terms[id]
	last  []int32 // the last payload that held it (docs counted so far)
	docs  int32
}

// dfCountsTerms is how many terms dfCounts holds before it adds them to
// the document frequencies in the middle of a TimeMap: with the terms of
// the payload that passes it, at most 2*maxModelTerms (some 4 MB), which
// every worker holds. Most TimeMaps hold fewer (real-1068's longest, 20
// captures of pages of 30,000 distinct terms, holds 60,000; four times
// this bound held some 10 MB a worker, for no CPU measured).
const dfCountsTerms = maxModelTerms

// count counts the distinct terms of one payload, the counts so far added
// to df first when they hold more than dfCountsTerms terms (so that
// what a worker holds is bounded whatever the TimeMap).
func (c *dfCounts) count(terms []string, df map[string]int) {
	if len(c.terms) > dfCountsTerms {
		c.addTo(df)
	}
	if c.ids == nil {
		c.ids = make(map[string]int32, 1024)
	}
	c.docs++
	distinct := 0
	for _, t := range terms {
		id, ok := c.ids[t]
		if !ok {
			if distinct == maxModelTerms {
				break
			}
			id = int32(len(c.terms))
			c.ids[t] = id
			c.terms = append(c.terms, t)
			c.n = append(c.n, 0)
			c.last = append(c.last, 0)
		}
		if c.last[id] != c.docs {
			if distinct == maxModelTerms {
				break
			}
			distinct++
			c.last[id] = c.docs
			c.n[id]++
		}
	}
}

// addTo adds the counts to df and empties c.
func (c *dfCounts) addTo(df map[string]int) {
	for id, t := range c.terms {
		addCount(df, t, c.n[id])
	}
	if len(c.terms) > maxClearedMap {
		c.ids = nil
	} else {
		clear(c.ids)
	}
	clear(c.terms) // the terms are the payloads'
	c.terms, c.n, c.last, c.docs = c.terms[:0], c.n[:0], c.last[:0], 0
}

// bottomK keeps the SampleSize documents of lowest (hash, key), sorted.
func bottomK(docs []SampleDoc) []SampleDoc {
	slices.SortFunc(docs, sampleOrder)
	docs = slices.CompactFunc(docs, func(a, b SampleDoc) bool { return a.Key == b.Key && a.Hash == b.Hash })
	return docs[:min(len(docs), SampleSize)]
}

// Merge adds o's statistics to s.
func (s *ModelStats) Merge(o *ModelStats) { s.merge(o, false) }

// take is Merge for statistics no one uses after: their tables are taken
// rather than copied.
func (s *ModelStats) take(o *ModelStats) { s.merge(o, true) }

func (s *ModelStats) merge(o *ModelStats, owned bool) {
	s.Docs += o.Docs
	s.DF = mergeCounts(s.DF, o.DF, owned)
	s.Firsts += o.Firsts
	s.Centroid = mergeCounts(s.Centroid, o.Centroid, owned)
	s.Sample = bottomK(append(s.Sample, o.Sample...))
}

// mergeCounts adds o's counts to m and returns the sums: when o is the
// caller's to take (owned), in the larger of the two tables, the smaller
// added into it; else in m, or in a copy of o when m is empty (the first
// part merged), which copies o's table whole rather than adding its terms
// one by one into a table that grows with them.
func mergeCounts[N int | int64](m, o map[string]N, owned bool) map[string]N {
	switch {
	case owned && len(m) < len(o):
		m, o = o, m
	case !owned && len(m) == 0 && len(o) > 0:
		return maps.Clone(o)
	}
	for t, n := range o {
		m[t] += n
	}
	return m
}

// Model turns the statistics into a model (without a search engine).
func (s *ModelStats) Model() *Model {
	// The document frequencies are frozen while the topic is weighed
	// (from the map, the same IDF): the second pass waits for the model.
	var df *dfTable
	frozen := make(chan struct{})
	go func() {
		defer close(frozen)
		df = newDFTable(s.Docs, s.DF)
	}()
	m := &Model{}
	if s.Firsts > 0 {
		m.Topic = make(Vector, len(s.Centroid))
		for t, w := range s.Centroid {
			m.Topic[t] = float64(w) / fixedOne * smoothIDF(s.Docs, s.DF[t])
		}
		m.topicNorm = normInOrder(m.Topic)
	}
	<-frozen
	m.DF = df
	if s.Firsts == 0 {
		return m
	}
	// Rounded and normalised in term order: the model must be the same bit
	// for bit however it was built, and sums over maps run in random order.
	sims := make([]float64, len(s.Sample))
	terms := make([]int, len(s.Sample))
	refs := make([]Vector, len(s.Sample))
	// Each sample document on its own (the model is only read): on every
	// core, since the second pass waits for the model.
	parallelFor(len(s.Sample), func(i int) {
		d := s.Sample[i]
		v := tfidf(d.TF, df) // read by topicSimOf, then cut and scaled in place
		sims[i] = math.Round(m.topicSimOf(v)*1e9) / 1e9
		terms[i] = termTotal(d.TF)
		refs[i] = unitInOrder(prune(v, refTerms))
	})
	sort.Float64s(sims)
	m.TypicalTopicSim = sims[len(sims)/2]
	slices.Sort(terms)
	m.TypicalTerms = terms[len(terms)/2]
	// Reference terms numbered in term order, so that the model is the same
	// bit for bit however it was built.
	m.refTerm = map[string]int32{}
	var names []string
	for _, r := range refs {
		for t := range r {
			if _, ok := m.refTerm[t]; !ok {
				m.refTerm[t] = 0
				names = append(names, t)
			}
		}
	}
	slices.Sort(names)
	for id, t := range names {
		m.refTerm[t] = int32(id)
	}
	m.post = make([][]refWeight, len(names))
	m.refs = make([]sparse, len(refs))
	for i, r := range refs {
		v := sparse{ids: make([]int32, 0, len(r))}
		for t := range r {
			v.ids = append(v.ids, m.refTerm[t])
		}
		slices.Sort(v.ids)
		v.w = make([]float64, len(v.ids))
		for k, id := range v.ids {
			v.w[k] = r[names[id]]
			m.post[id] = append(m.post[id], refWeight{int32(i), v.w[k]})
		}
		m.refs[i] = v
	}
	return m
}

// normInOrder is the length of v, summed in term order.
func normInOrder(v Vector) float64 {
	var sum float64
	for _, t := range sortedTerms(v) {
		sum += v[t] * v[t]
	}
	return math.Sqrt(sum)
}

// unitInOrder scales v to length 1 in place, summing in term order.
func unitInOrder(v Vector) Vector {
	if n := normInOrder(v); n > 0 {
		for t := range v {
			v[t] /= n
		}
	}
	return v
}

// refTerms is the number of heaviest terms kept per reference document.
const refTerms = 200

// prune keeps the n heaviest terms of v, ties broken by term so that the
// result does not depend on map order.
func prune(v Vector, n int) Vector {
	if len(v) <= n {
		return v
	}
	type tw struct {
		t string
		w float64
	}
	all := make([]tw, 0, len(v))
	for t, w := range v {
		all = append(all, tw{t, w})
	}
	slices.SortFunc(all, func(a, b tw) int { return cmp.Or(cmp.Compare(b.w, a.w), strings.Compare(a.t, b.t)) })
	out := make(Vector, n)
	for _, e := range all[:n] {
		out[e.t] = e.w
	}
	return out
}

// ModelBuilder accumulates a Model from a stream of TimeMaps in one process.
// Its methods are safe for concurrent use.
type ModelBuilder struct {
	mu       sync.Mutex
	stats    *ModelStats
	engine   *BM25
	minWords int
}

// NewModelBuilder starts a model; withEngine builds the BM25 index that
// SEKernel needs (it holds the collection's terms, so it is built only then).
func NewModelBuilder(withEngine bool, minT0Words int) *ModelBuilder {
	b := &ModelBuilder{stats: NewModelStats(), minWords: t0MinWords(minT0Words)}
	if withEngine {
		b.engine = NewBM25()
	}
	return b
}

// t0MinWords is the fewest words of a TimeMap's first capture that goes
// into the model's topic (Options.MinT0Words, 20 when 0).
func t0MinWords(minT0Words int) int {
	if minT0Words == 0 {
		return 20
	}
	return minT0Words
}

// Add takes one TimeMap's documents into the model (see ModelStats.Add), and
// each distinct payload once into the search index.
func (b *ModelBuilder) Add(in Input) {
	b.mu.Lock()
	b.stats.Add(in, b.minWords)
	b.mu.Unlock()
	b.AddSearch(in)
}

// MergeStats adds statistics gathered elsewhere (by ModelStats.Add with the
// builder's minimum of words) to the model's.
func (b *ModelBuilder) MergeStats(s *ModelStats) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.stats.Merge(s)
}

// takeStats is MergeStats for statistics no one uses after (see take).
func (b *ModelBuilder) takeStats(s *ModelStats) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.stats.take(s)
}

// AddSearch takes each distinct payload of one TimeMap once into the
// search index, when the builder has one: the part of Add that depends on
// the order TimeMaps come in.
func (b *ModelBuilder) AddSearch(in Input) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.engine == nil {
		return
	}
	for i, c := range in.TimeMap.Captures {
		if doc := at(in.Docs, i); doc != nil && len(doc.Terms) > 0 {
			id := c.Digest
			if id == "" {
				id = c.URIR + c.Timestamp14()
			}
			b.engine.Add(id, doc.Terms)
		}
	}
}

// Stats returns the statistics gathered so far.
func (b *ModelBuilder) Stats() *ModelStats {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.stats
}

// Build ends accumulation and returns the model.
func (b *ModelBuilder) Build() *Model {
	b.mu.Lock()
	defer b.mu.Unlock()
	m := b.stats.Model()
	if b.engine != nil {
		b.engine.Freeze()
		m.Engine = b.engine
	}
	return m
}

// flat weighs every term 1: tfidf(tf, flat{}) is the raw term-count vector.
type flat struct{}

// IDF implements IDF.
func (flat) IDF(string) float64 { return 1 }
