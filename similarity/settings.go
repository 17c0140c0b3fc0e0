package similarity

import (
	"errors"
	"fmt"
	"strings"
)

// Settings are a detection run's scoring settings as a user gives them: the
// flags of detect, reduce and model, and the fields of the Beam pipeline's
// configuration. They are the one place for the settings' defaults, their
// checks and their record in a results file; Options turns them into what
// Score takes.
type Settings struct {
	// Measures is the deciding rule in OTMT's -tm syntax ("cosine=0.10,...").
	Measures string `json:"measures"`
	// Score lists further measures to compute and report ("" for none).
	Score string `json:"score"`
	// IDF is "timemap" (as in the paper) or "collection".
	IDF string `json:"idf"`
	// MinT0Words is the least number of words a t0 needs.
	MinT0Words int `json:"min_t0_words"`
	// NoTopicCheck turns off the check of t0 against the collection's topic.
	NoTopicCheck bool `json:"no_topic_check"`
	// Plain is Options.Plain: the paper's plain rule, without the curator's
	// reading.
	Plain bool `json:"plain"`
	// Continuity is Options.Continuity (0: off).
	Continuity float64 `json:"continuity"`
}

// DefaultScore is the default Settings.Score: every measure of the paper but
// SEKernel, whose search index holds the whole collection.
const DefaultScore = "cosine,jaccard,tfintersection,wordcount,bytecount"

// DefaultSettings are the settings detect uses by default.
func DefaultSettings() Settings {
	return Settings{Measures: DefaultMeasures, Score: DefaultScore, IDF: "timemap", MinT0Words: DefaultMinT0Words, Continuity: DefaultContinuity}
}

// Options checks the settings and turns them into Options; errors name the
// setting as its flag does.
func (s Settings) Options() (Options, error) {
	rule, err := ParseRule(s.Measures)
	if err != nil {
		return Options{}, fmt.Errorf("--measures: %w", err)
	}
	var extra Rule
	if strings.TrimSpace(s.Score) != "" {
		if extra, err = ParseRule(s.Score); err != nil {
			return Options{}, fmt.Errorf("--score: %w", err)
		}
	}
	if s.MinT0Words < 0 {
		return Options{}, fmt.Errorf("--min-t0-words is %d: want 0 or more", s.MinT0Words)
	}
	if !(s.Continuity >= 0 && s.Continuity <= 1) {
		return Options{}, fmt.Errorf("--continuity is %v: want a cosine from 0 to 1", s.Continuity)
	}
	if s.IDF != "timemap" && s.IDF != "collection" {
		return Options{}, errors.New("--idf must be timemap or collection")
	}
	o := Options{Rule: rule, CollectionIDF: s.IDF == "collection", MinT0Words: s.MinT0Words,
		TopicCheck: !s.NoTopicCheck, Plain: s.Plain, Continuity: s.Continuity}
	for _, t := range extra {
		o.Measures = append(o.Measures, t.Measure)
	}
	return o, nil
}

// Record gives the settings as a results file's run line records them
// (besides the rule): name: value. o is what Options made of them.
func (s Settings) Record(o Options) map[string]string {
	return map[string]string{"idf": s.IDF, "min-t0-words": fmt.Sprint(o.MinT0Words),
		"topic-check": fmt.Sprint(o.TopicCheck), "plain": fmt.Sprint(o.Plain),
		"continuity": fmt.Sprint(o.Continuity)}
}
