package similarity

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Measure names, as OTMT spells them.
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
)

// AllMeasures lists every measure in report order.
var AllMeasures = []string{MeasureCosine, MeasureJaccard, MeasureTFIntersection, MeasureSEKernel, MeasureWordCount, MeasureByteCount, MeasureTopic}

// DefaultThreshold is each measure's single-measure threshold from Table 2 of
// AlNoamany et al. (IJDL 2016). A capture is off-topic for a measure when its
// score is below the threshold.
func DefaultThreshold(measure string) (float64, bool) {
	switch measure {
	case MeasureCosine:
		return 0.15, true
	case MeasureWordCount:
		return -0.85, true
	case MeasureSEKernel:
		return 0.05, true
	case MeasureByteCount:
		return -0.65, true
	case MeasureJaccard:
		return 0.05, true
	case MeasureTFIntersection:
		return 0.00, true
	case MeasureTopic:
		return 0.35, true
	}
	return 0, false
}

// DefaultMeasures is the paper's best combination: cosine < 0.10 OR
// word-count change < -0.85.
const DefaultMeasures = "cosine=0.10,wordcount=-0.85"

// Threshold is one selected measure and the score below which a capture is
// off-topic.
type Threshold struct {
	Measure string  `json:"measure"`
	Value   float64 `json:"threshold"`
}

// Crossed reports whether score is on the off-topic side of the threshold.
// Scores equal to the threshold count as off-topic only for tfintersection,
// whose threshold 0 means "nothing in common".
func (t Threshold) Crossed(score float64) bool {
	if t.Measure == MeasureTFIntersection && t.Value == 0 {
		return score <= 0
	}
	return score < t.Value
}

// Rule combines thresholds with OR, as in the paper: a capture is off-topic
// when any selected measure crosses its threshold.
type Rule []Threshold

// ParseRule reads the OTMT -tm syntax: "cosine=0.10,wordcount=-0.85"; a bare
// name takes the measure's default threshold.
func ParseRule(s string) (Rule, error) {
	var r Rule
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		name, val, hasVal := strings.Cut(part, "=")
		name = strings.ToLower(strings.TrimSpace(name))
		def, ok := DefaultThreshold(name)
		if !ok {
			return nil, fmt.Errorf("unknown measure %q (known: %s)", name, strings.Join(AllMeasures, ", "))
		}
		if hasVal {
			v, err := strconv.ParseFloat(strings.TrimSpace(val), 64)
			if err != nil {
				return nil, fmt.Errorf("threshold of %s: %w", name, err)
			}
			def = v
		}
		if slices.ContainsFunc(r, func(t Threshold) bool { return t.Measure == name }) {
			return nil, fmt.Errorf("measure %s given twice", name)
		}
		r = append(r, Threshold{Measure: name, Value: def})
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
