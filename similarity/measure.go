package similarity

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Measure names, as OTMT spells them (lsi is OTMT's gensim_lsi, which
// ParseRule also accepts).
const (
	MeasureCosine         = "cosine"
	MeasureJaccard        = "jaccard"
	MeasureTFIntersection = "tfintersection"
	MeasureSEKernel       = "sekernel"
	MeasureWordCount      = "wordcount"
	MeasureByteCount      = "bytecount"
	// MeasureTopic is the similarity of a capture to the collection's topic,
	// relative to the typical first capture (1 = as close as is typical).
	MeasureTopic = "topic"
	// MeasureContent is the cosine of the content alone (the page without
	// its site chrome), which the curator's reading compares besides the
	// whole page's.
	MeasureContent      = "content"
	MeasureSorensen     = "sorensen"
	MeasureLevenshtein  = "levenshtein"
	MeasureNLevenshtein = "nlevenshtein"
	MeasureTFSimhash    = "tf_simhash"
	MeasureRawSimhash   = "raw_simhash"
	MeasureLSI          = "lsi"
)

// Direction says on which side of its threshold a measure's score is off-topic.
type Direction int

const (
	// LowerIsOff: a similarity; a capture scoring below the threshold is off-topic.
	LowerIsOff Direction = iota
	// HigherIsOff: a distance; a capture scoring above the threshold is off-topic.
	HigherIsOff
)

// Family groups measures by what a crossing of their threshold means.
type Family int

const (
	// Content measures compare the words of a capture with t0's: a page whose
	// stories rotate (a front page, a blog) crosses them without leaving its
	// subject, so the curator's reading may overrule them (see reading).
	Content Family = iota
	// Size measures compare the amount of text; their collapses are never guarded.
	Size
	// TopicFamily holds the measure of similarity to the collection's topic.
	TopicFamily
)

// Measure is one way of scoring a capture against its TimeMap's t0. The
// registry (Measures) holds every measure; detection, evaluation, the sweep
// and the reports iterate over it.
type Measure struct {
	// Name is how flags, results and reports spell the measure.
	Name string
	// Doc says in a line what the score is.
	Doc string
	// Threshold is the default single-measure threshold.
	Threshold float64
	// Direction says which side of a threshold is off-topic.
	Direction Direction
	// Min and Max bound every score (Max may be +Inf); thresholds outside
	// are meaningless and ParseRule rejects them.
	Min, Max float64
	// SweepLo and SweepHi are the range of thresholds a sweep tries.
	SweepLo, SweepHi float64
	// Family says what a crossing means (see Family).
	Family Family
	// Extra marks a measure that OTMT offers beyond the paper's: computed only
	// when selected, shown by results and the HTML report then, but given no
	// column in the fixed-column reports (CSV, XLSX).
	Extra bool

	// always marks a measure computed whatever the rule: the curator's
	// reading reads it.
	always bool
	// prepare does the measure's per-TimeMap work once (nil: none).
	prepare func(s *scoring) error
	// score scores capture i against t0; ok is false where the measure has
	// no score for it.
	score func(s *scoring, i int) (v float64, ok bool)
}

// The registry, in report order: the paper's measures and topic, then
// OTMT's further ones (measure_otmt.go). It is never written: Measures hands
// out copies.
var registry = append(paperMeasures[:], otmtMeasures[:]...)

var paperMeasures = [...]Measure{
	{Name: MeasureCosine, Doc: "cosine of the TF-IDF vectors", Threshold: 0.15, Min: 0, Max: 1, SweepLo: 0, SweepHi: 1,
		score: func(s *scoring, i int) (float64, bool) {
			p, t0 := s.prep[i], s.prep[s.t0]
			return cosine(p.vec, p.norm, t0.vec, t0.norm), true
		}},
	{Name: MeasureJaccard, Doc: "Jaccard similarity of the term sets", Threshold: 0.05, Min: 0, Max: 1, SweepLo: 0, SweepHi: 1,
		score: func(s *scoring, i int) (float64, bool) {
			a, b := s.prep[i].tf.ids, s.prep[s.t0].tf.ids
			return jaccard(common(a, b), len(a), len(b)), true
		}},
	{Name: MeasureTFIntersection, Doc: "share of the 20 most frequent terms in common", Threshold: 0, Min: 0, Max: 1, SweepLo: 0, SweepHi: 1,
		score: func(s *scoring, i int) (float64, bool) {
			return topIntersection(s.topTerms(i), s.topTerms(s.t0)), true
		}},
	{Name: MeasureSEKernel, Doc: "Jaccard similarity with t0's terms expanded by a search over the collection", Threshold: 0.05, Min: 0, Max: 1, SweepLo: 0, SweepHi: 1,
		prepare: prepareSEKernel, score: scoreSEKernel},
	{Name: MeasureWordCount, Doc: "relative change of the word count", Threshold: -0.85, Min: -1, Max: 1, SweepLo: -1, SweepHi: 0, Family: Size,
		score: func(s *scoring, i int) (float64, bool) {
			return Change(s.prep[i].doc.WordCount, s.prep[s.t0].doc.WordCount), true
		}},
	{Name: MeasureByteCount, Doc: "relative change of the payload size", Threshold: -0.65, Min: -1, Max: 1, SweepLo: -1, SweepHi: 0, Family: Size,
		score: func(s *scoring, i int) (float64, bool) {
			return Change(s.prep[i].doc.ByteCount, s.prep[s.t0].doc.ByteCount), true
		}},
	{Name: MeasureContent, Doc: "cosine of the TF-IDF vectors of the content without the site's chrome", Threshold: 0.10, Min: 0, Max: 1, SweepLo: 0, SweepHi: 1,
		always: true,
		score: func(s *scoring, i int) (float64, bool) {
			return contentCosine(s.prep[i], s.prep[s.t0]), true
		}},
	{Name: MeasureTopic, Doc: "similarity to the TimeMap's subject in the collection, relative to t0's", Threshold: 0.35, Min: 0, Max: math.Inf(1), SweepLo: 0, SweepHi: 1, Family: TopicFamily,
		prepare: prepareTopic, score: scoreTopic},
}

// Measures returns every measure in report order.
func Measures() []Measure { return slices.Clone(registry[:]) }

// MeasureNames returns the names of every measure in report order.
func MeasureNames() []string {
	names := make([]string, len(registry))
	for i := range registry {
		names[i] = registry[i].Name
	}
	return names
}

// StandardMeasureNames returns, in report order, the names of the measures
// that are not Extra: the columns of the fixed-column reports.
func StandardMeasureNames() []string {
	var names []string
	for i := range registry {
		if !registry[i].Extra {
			names = append(names, registry[i].Name)
		}
	}
	return names
}

// LookupMeasure finds a measure by name.
func LookupMeasure(name string) (Measure, bool) {
	if m := lookup(name); m != nil {
		return *m, true
	}
	return Measure{}, false
}

func lookup(name string) *Measure {
	for i := range registry {
		if registry[i].Name == name {
			return &registry[i]
		}
	}
	return nil
}

// aliases are other tools' names of a measure.
var aliases = map[string]string{"gensim_lsi": MeasureLSI}

// SweepThresholds are the 21 thresholds a sweep tries, evenly spaced from
// SweepLo to SweepHi.
func (m Measure) SweepThresholds() []float64 {
	out := make([]float64, 21)
	step := (m.SweepHi - m.SweepLo) / 20
	for i := range out {
		out[i] = math.Round((m.SweepLo+float64(i)*step)*1e6) / 1e6
	}
	return out
}

// PlotRange is the axis a chart of the measure's scores shows: [Min, Max],
// with an unbounded end drawn at 1.5 times the sweep range.
func (m Measure) PlotRange() (lo, hi float64) {
	lo, hi = m.Min, m.Max
	if math.IsInf(hi, 1) {
		hi = m.SweepLo + 1.5*(m.SweepHi-m.SweepLo)
	}
	return lo, hi
}

// CheckThreshold says why t is no threshold of the measure (nil when it is one).
func (m Measure) CheckThreshold(t float64) error {
	switch {
	case math.IsNaN(t) || math.IsInf(t, 0):
		return fmt.Errorf("threshold of %s is %v: want a number in [%s]", m.Name, t, m.rangeText())
	case t < m.Min || t > m.Max:
		return fmt.Errorf("threshold of %s is %v, outside its range [%s]", m.Name, t, m.rangeText())
	}
	return nil
}

func (m Measure) rangeText() string {
	hi := "∞"
	if !math.IsInf(m.Max, 1) {
		hi = strconv.FormatFloat(m.Max, 'f', -1, 64)
	}
	return strconv.FormatFloat(m.Min, 'f', -1, 64) + ", " + hi
}

// DefaultMeasures is the paper's best combination: cosine < 0.10 OR
// word-count change < -0.85.
const DefaultMeasures = "cosine=0.10,wordcount=-0.85"

// Threshold is one selected measure and the score beyond which a capture is
// off-topic.
type Threshold struct {
	Measure string  `json:"measure"`
	Value   float64 `json:"threshold"`
}

// Op is the comparison under which a score is off-topic: "<" for
// similarities, ">" for distances, and "<=" for tfintersection at 0, whose
// threshold 0 means "nothing in common".
func (t Threshold) Op() string {
	if m := lookup(t.Measure); m != nil && m.Direction == HigherIsOff {
		return ">"
	}
	if t.Measure == MeasureTFIntersection && t.Value == 0 {
		return "<="
	}
	return "<"
}

// Crossed reports whether score is on the off-topic side of the threshold.
func (t Threshold) Crossed(score float64) bool {
	switch t.Op() {
	case ">":
		return score > t.Value
	case "<=":
		return score <= t.Value
	}
	return score < t.Value
}

// Rule combines thresholds with OR, as in the paper: a capture is off-topic
// when any selected measure crosses its threshold.
type Rule []Threshold

// ParseRule reads the OTMT -tm syntax: "cosine=0.10,wordcount=-0.85"; a bare
// name takes the measure's default threshold. A threshold must be a number
// within the measure's range.
func ParseRule(s string) (Rule, error) {
	var r Rule
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		name, val, hasVal := strings.Cut(part, "=")
		name = strings.ToLower(strings.TrimSpace(name))
		if a, ok := aliases[name]; ok {
			name = a
		}
		m := lookup(name)
		if m == nil {
			return nil, fmt.Errorf("unknown measure %q (known: %s)", name, strings.Join(MeasureNames(), ", "))
		}
		v := m.Threshold
		if hasVal {
			var err error
			if v, err = strconv.ParseFloat(strings.TrimSpace(val), 64); err != nil {
				return nil, fmt.Errorf("threshold of %s: %w", name, err)
			}
			if err := m.CheckThreshold(v); err != nil {
				return nil, err
			}
		}
		if r.Has(name) {
			return nil, fmt.Errorf("measure %s given twice", name)
		}
		r = append(r, Threshold{Measure: name, Value: v})
	}
	if len(r) == 0 {
		return nil, fmt.Errorf("no measure in %q", s)
	}
	return r, nil
}

// String gives the rule back in the syntax ParseRule reads.
func (r Rule) String() string {
	parts := make([]string, len(r))
	for i, t := range r {
		parts[i] = t.Measure + "=" + strconv.FormatFloat(t.Value, 'f', -1, 64)
	}
	return strings.Join(parts, ",")
}

// Has reports whether the rule uses the measure.
func (r Rule) Has(measure string) bool {
	return slices.ContainsFunc(r, func(t Threshold) bool { return t.Measure == measure })
}

// Crossed returns the thresholds that scores cross, in rule order. Measures
// without a score are skipped.
func (r Rule) Crossed(scores map[string]float64) []Threshold {
	var out []Threshold
	for _, t := range r {
		if s, ok := scores[t.Measure]; ok && t.Crossed(s) {
			out = append(out, t)
		}
	}
	return out
}
