package crawl

import (
	"math"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/offtopic/offtopic/extract"
	"github.com/offtopic/offtopic/similarity"
)

// Features turns a document's terms (stemmed, stop words removed, in text
// order) into unigram and bigram counts; a bigram is two adjacent stems joined
// by a space.
func Features(terms []string) map[string]float64 {
	f := make(map[string]float64, 2*len(terms))
	for i, t := range terms {
		f[t]++
		if i > 0 {
			f[terms[i-1]+" "+t]++
		}
	}
	return f
}

// DocFreq is a background document-frequency table: in how many documents of
// a corpus each feature occurs, growing as the crawl reads; its IDF is
// similarity's (a similarity.IDF). It is safe for concurrent use.
type DocFreq struct {
	mu sync.RWMutex
	n  int
	df map[string]int
}

var _ similarity.IDF = (*DocFreq)(nil)

// NewDocFreq returns an empty table.
func NewDocFreq() *DocFreq { return &DocFreq{df: map[string]int{}} }

// Add counts one document's features.
func (d *DocFreq) Add(features map[string]float64) {
	d.mu.Lock()
	d.n++
	for f := range features {
		d.df[strings.Clone(f)]++ // a copy: the key given replaces an equal one, and a term may be a page's bytes
	}
	d.mu.Unlock()
}

// Docs is the number of documents counted.
func (d *DocFreq) Docs() int {
	d.mu.RLock()
	defer d.mu.RUnlock()
	return d.n
}

// IDF is the smoothed inverse document frequency log((1+N)/(1+df)) + 1.
func (d *DocFreq) IDF(feature string) float64 {
	d.mu.RLock()
	defer d.mu.RUnlock()
	return math.Log(float64(1+d.n)/float64(1+d.df[feature])) + 1
}

// Weigh builds the TF-IDF vector of features with Gossen et al.'s
// sublinear term frequency: (1 + log tf) * idf.
func Weigh(features map[string]float64, df *DocFreq) similarity.Vector {
	v := make(similarity.Vector, len(features))
	df.mu.RLock()
	n := float64(1 + df.n)
	for f, tf := range features {
		v[f] = (1 + math.Log(tf)) * (math.Log(n/float64(1+df.df[f])) + 1)
	}
	df.mu.RUnlock()
	return v
}

// KeywordBoost is the factor a feature of the reference vector gets for its
// overlap with the keywords, as in Gossen et al.: 2 when it equals a keyword
// (both stemmed, e.g. the bigram "general elect" for "general election"),
// 1.5 when it shares a stem with one, 1 otherwise.
func KeywordBoost(feature string, keywords [][]string) float64 {
	fs := strings.Fields(feature)
	best := 1.0
	for _, kw := range keywords {
		if len(kw) == 0 {
			continue
		}
		if strings.Join(kw, " ") == feature {
			return 2
		}
		for _, f := range fs {
			for _, k := range kw {
				if f == k {
					best = 1.5
				}
			}
		}
	}
	return best
}

// StemKeywords turns keywords into stem sequences the way documents' terms
// are made (stop words removed, stemmed).
func StemKeywords(keywords []string, lang string) [][]string {
	var out [][]string
	for _, k := range keywords {
		if t := extract.Terms(k, lang); len(t) > 0 {
			out = append(out, t)
		}
	}
	return out
}

// Reference is the topic of a collection: the TF-IDF vector of its reference
// documents' main text, boosted by the keywords. It is made by NewReference,
// and its Vector must not change afterwards.
type Reference struct {
	Vector   similarity.Vector
	Keywords [][]string
	// ordered is Vector with its terms sorted once, for TopicR.
	ordered *similarity.Ordered
}

// NewReference builds the reference vector from the reference documents'
// terms (their features summed) and the stemmed keywords, which also count
// as reference text (so that keywords alone make a topic).
func NewReference(docs [][]string, keywords [][]string, df *DocFreq) *Reference {
	sum := map[string]float64{}
	for _, terms := range docs {
		for f, c := range Features(terms) {
			sum[f] += c
		}
	}
	for _, kw := range keywords {
		for f, c := range Features(kw) {
			sum[f] += c
		}
	}
	v := Weigh(sum, df)
	for f := range v {
		v[f] *= KeywordBoost(f, keywords)
	}
	return &Reference{Vector: v, Keywords: keywords, ordered: similarity.NewOrdered(v)}
}

// TopicR is the cosine between the reference vector and the document's
// vector built the same way (without the keyword boost), summed in term
// order (similarity.CosineInOrder) so that a resumed crawl scores exactly as
// an uninterrupted one.
func (r *Reference) TopicR(terms []string, df *DocFreq) float64 {
	return r.ordered.Cosine(Weigh(Features(terms), df))
}

// TopTerms returns the n heaviest features of the reference vector.
func (r *Reference) TopTerms(n int) []string {
	fs := make([]string, 0, len(r.Vector))
	for f := range r.Vector {
		fs = append(fs, f)
	}
	sort.Slice(fs, func(i, j int) bool {
		if r.Vector[fs[i]] != r.Vector[fs[j]] {
			return r.Vector[fs[i]] > r.Vector[fs[j]]
		}
		return fs[i] < fs[j]
	})
	if len(fs) > n {
		fs = fs[:n]
	}
	return fs
}

// TempR is the temporal relevance of a document dated t: 1 inside the event
// span, and outside it a half-life decay: 0.5^(dt/Lead) before the start and
// 0.5^(dt/Cooldown) after the end, so that Lead (Cooldown) is the time at which
// relevance has dropped to 0.5. Without a lead (cool-down) time relevance is 0
// before the start (after the end). A zero t has relevance 0.
func (e Event) TempR(t time.Time) float64 {
	switch {
	case t.IsZero():
		return 0
	case t.Before(e.Start):
		if e.Lead <= 0 {
			return 0
		}
		return math.Pow(0.5, float64(e.Start.Sub(t))/float64(e.Lead))
	case t.After(e.End):
		if e.Cooldown <= 0 {
			return 0
		}
		return math.Pow(0.5, float64(t.Sub(e.End))/float64(e.Cooldown))
	}
	return 1
}

// Contains reports whether t is inside the event span.
func (e Event) Contains(t time.Time) bool { return !t.Before(e.Start) && !t.After(e.End) }

// InWindow reports whether t lies inside the span widened by the lead and
// cool-down times (where TempR is at least 0.5): the time a relevant page is
// published in. A zero t is outside.
func (e Event) InWindow(t time.Time) bool {
	from, to := e.Window()
	return !t.IsZero() && !t.Before(from) && !t.After(to)
}

// Window is the span widened by the lead and cool-down times.
func (e Event) Window() (from, to time.Time) { return e.Start.Add(-e.Lead), e.End.Add(e.Cooldown) }

// distance is how far t lies outside the event span (0 inside).
func (e Event) distance(t time.Time) time.Duration {
	switch {
	case t.Before(e.Start):
		return e.Start.Sub(t)
	case t.After(e.End):
		return t.Sub(e.End)
	}
	return 0
}

// TTR mixes topical and temporal relevance: alpha*topic + (1-alpha)*temp.
func TTR(alpha, topic, temp float64) float64 { return alpha*topic + (1-alpha)*temp }
