package similarity

import (
	"math"
	"math/rand/v2"
	"sort"
	"sync"
)

// Model is what detection knows about the whole collection: document
// frequencies (for collection-wide IDF), the collection's topic (a centroid
// of the t0 candidates of every TimeMap), and the search engine behind
// SEKernel. It holds aggregated statistics only, never the documents.
type Model struct {
	// DF is document frequencies over every distinct payload.
	DF IDF
	// Engine answers SEKernel's queries; nil when SEKernel is not computed.
	Engine SearchEngine
	// Topic is the collection's topic vector (collection IDF, unit length).
	Topic Vector
	// TypicalTopicSim is the median similarity of TimeMaps' first captures to Topic.
	TypicalTopicSim float64
	// refs are unit vectors of a bounded sample of first captures, the
	// neighbours from which a TimeMap's own topic is drawn.
	refs []Vector
}

// neighbours is how many similar first captures make a TimeMap's topic: a
// quarter of the reference sample (10 to 200), wide enough to stand for the
// TimeMap's subject rather than its own story, narrow enough to tell apart
// the subjects of a collection that mixes several.
func neighbours(refs int) int {
	return min(200, max(10, refs/4))
}

// LocalTopic is the topic of the part of the collection a document belongs
// to: the centroid of the first captures most similar to it
// (itself excluded). A collection mixing subjects (or several collections
// scored together) thus gives each TimeMap the topic of its own subject.
func (m *Model) LocalTopic(tf map[string]int) Vector {
	if m == nil || len(m.refs) == 0 {
		return nil
	}
	v := unit(tfidf(tf, m.DF))
	type scored struct {
		i int
		s float64
	}
	k := neighbours(len(m.refs))
	best := make([]scored, 0, k+1)
	for i, r := range m.refs {
		// Rounded, so that summation noise (map order) cannot change which
		// neighbours are chosen; ties keep the earlier reference.
		s := math.Round(dot(v, r)*1e9) / 1e9
		if s > 0.999 { // the document itself, or an identical one
			continue
		}
		if len(best) < k || s > best[len(best)-1].s {
			j := sort.Search(len(best), func(k int) bool { return best[k].s < s })
			best = append(best, scored{})
			copy(best[j+1:], best[j:])
			best[j] = scored{i, s}
			if len(best) > k {
				best = best[:k]
			}
		}
	}
	c := Vector{}
	for _, b := range best {
		for t, w := range m.refs[b.i] {
			c[t] += w
		}
	}
	return unit(c)
}

// Vec is a document's vector with collection IDF.
func (m *Model) Vec(tf map[string]int) Vector { return tfidf(tf, m.DF) }

// TopicSim is the cosine of a document's terms (collection IDF) with the
// collection's topic; 0 without a model.
func (m *Model) TopicSim(tf map[string]int) float64 {
	if m == nil || len(m.Topic) == 0 {
		return 0
	}
	return Cosine(m.Vec(tf), m.Topic)
}

// ModelBuilder accumulates a Model from a stream of TimeMaps. Its methods are
// safe for concurrent use.
type ModelBuilder struct {
	mu       sync.Mutex
	df       *dfTable
	seen     map[string]bool
	engine   *BM25
	centroid map[string]float64
	sample   []map[string]int
	nFirst   int
	rng      *rand.Rand
	minWords int
}

// refTerms is the number of heaviest terms kept per reference document.
const refTerms = 200

// prune keeps the n heaviest terms of v, ties broken by term so that the
// result does not depend on map order.
func prune(v Vector, n int) Vector {
	if len(v) <= n {
		return v
	}
	terms := make([]string, 0, len(v))
	for t := range v {
		terms = append(terms, t)
	}
	sort.Slice(terms, func(i, j int) bool {
		if v[terms[i]] != v[terms[j]] {
			return v[terms[i]] > v[terms[j]]
		}
		return terms[i] < terms[j]
	})
	out := make(Vector, n)
	for _, t := range terms[:n] {
		out[t] = v[t]
	}
	return out
}

// sampleSize bounds how many first captures are kept to estimate the typical
// similarity to the topic.
const sampleSize = 5000

// NewModelBuilder starts a model; withEngine builds the BM25 index that
// SEKernel needs (it holds the collection's terms, so it is built only then).
func NewModelBuilder(withEngine bool, minT0Words int) *ModelBuilder {
	b := &ModelBuilder{df: newDFTable(), seen: map[string]bool{}, centroid: map[string]float64{},
		rng: rand.New(rand.NewPCG(1, 2)), minWords: minT0Words}
	if minT0Words == 0 {
		b.minWords = 20
	}
	if withEngine {
		b.engine = NewBM25()
	}
	return b
}

// Add takes one TimeMap's documents into the model: each distinct payload
// once into the document frequencies and the search index, and the TimeMap's
// first capture with text into the topic.
func (b *ModelBuilder) Add(in Input) {
	first := -1
	for i, c := range in.TimeMap.Captures {
		doc := at(in.Docs, i)
		if scorable(c, doc, atS(in.Errs, i)) != "" {
			continue
		}
		if first < 0 && doc.WordCount >= b.minWords {
			first = i
		}
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	for i, c := range in.TimeMap.Captures {
		doc := at(in.Docs, i)
		if doc == nil || len(doc.Terms) == 0 {
			continue
		}
		id := c.Digest
		if id == "" {
			id = c.URIR + c.Timestamp14()
		}
		if b.seen[id] {
			continue
		}
		b.seen[id] = true
		b.df.add(termCounts(doc.Terms))
		if b.engine != nil {
			b.engine.Add(id, doc.Terms)
		}
	}
	if first >= 0 {
		tf := termCounts(in.Docs[first].Terms)
		for t, w := range unit(tfidf(tf, flat{})) {
			b.centroid[t] += w
		}
		b.nFirst++
		if len(b.sample) < sampleSize {
			b.sample = append(b.sample, tf)
		} else if j := b.rng.IntN(b.nFirst); j < sampleSize {
			b.sample[j] = tf
		}
	}
}

// flat weighs every term 1: tfidf(tf, flat{}) is the raw term-count vector.
type flat struct{}

// IDF implements IDF.
func (flat) IDF(string) float64 { return 1 }

// Build ends accumulation and returns the model.
func (b *ModelBuilder) Build() *Model {
	b.mu.Lock()
	defer b.mu.Unlock()
	m := &Model{DF: b.df}
	if b.engine != nil {
		b.engine.Freeze()
		m.Engine = b.engine
	}
	if b.nFirst > 0 {
		m.Topic = make(Vector, len(b.centroid))
		for t, w := range b.centroid {
			m.Topic[t] = w * b.df.IDF(t)
		}
		sims := make([]float64, len(b.sample))
		m.refs = make([]Vector, len(b.sample))
		for i, tf := range b.sample {
			sims[i] = m.TopicSim(tf)
			m.refs[i] = unit(prune(tfidf(tf, m.DF), refTerms))
		}
		sort.Float64s(sims)
		m.TypicalTopicSim = sims[len(sims)/2]
	}
	b.seen, b.sample = nil, nil
	return m
}
