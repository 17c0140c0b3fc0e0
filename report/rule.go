package report

import "github.com/offtopic/offtopic/similarity"

// ruleThreshold is the rule's threshold of a measure, nil when it has none.
func ruleThreshold(rule similarity.Rule, measure string) *similarity.Threshold {
	for i := range rule {
		if rule[i].Measure == measure {
			return &rule[i]
		}
	}
	return nil
}

// thresholdOf is the rule's threshold of a measure, or the measure's default
// where the rule does not use it.
func thresholdOf(rule similarity.Rule, measure string) similarity.Threshold {
	if t := ruleThreshold(rule, measure); t != nil {
		return *t
	}
	d, _ := similarity.LookupMeasure(measure)
	return similarity.Threshold{Measure: measure, Value: d.Threshold}
}

// crosses reports whether the rule has the measure and the score crosses it.
func crosses(rule similarity.Rule, measure string, score float64) bool {
	t := ruleThreshold(rule, measure)
	return t != nil && t.Crossed(score)
}
