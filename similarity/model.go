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
}

// TopicSim is the cosine of a document's terms (collection IDF) with the
// collection's topic; 0 without a model.
func (m *Model) TopicSim(tf map[string]int) float64 {
	if m == nil || len(m.Topic) == 0 {
		return 0
	}
	return Cosine(tfidf(tf, m.DF), m.Topic)
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

// sampleSize bounds how many first captures are kept to estimate the typical
// similarity to the topic.
const sampleSize = 2000

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
		var n float64
		for _, c := range tf {
			n += float64(c * c)
		}
		n = math.Sqrt(n)
		for t, c := range tf {
			b.centroid[t] += float64(c) / n
		}
		b.nFirst++
		if len(b.sample) < sampleSize {
			b.sample = append(b.sample, tf)
		} else if j := b.rng.IntN(b.nFirst); j < sampleSize {
			b.sample[j] = tf
		}
	}
}

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
		for i, tf := range b.sample {
			sims[i] = m.TopicSim(tf)
		}
		sort.Float64s(sims)
		m.TypicalTopicSim = sims[len(sims)/2]
	}
	b.seen, b.sample = nil, nil
	return m
}
