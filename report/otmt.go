package report

import (
	"bufio"
	"encoding/json"
	"io"

	"github.com/offtopic/offtopic/similarity"
)

// OTMTWriter streams results in the output schema of OTMT (the Off-Topic
// Memento Toolkit): TimeMap URI -> URI-M -> "timemap measures" -> measure ->
// {"comparison score", "topic status"}, plus "overall topic status", and two
// fields of this tool's: the "off-topic kind" of an off-topic capture and the
// "reason" of any verdict but on-topic.
type OTMTWriter struct {
	w     *bufio.Writer
	rule  similarity.Rule
	first bool
}

// NewOTMTWriter opens the top-level JSON object; rule says which measures
// made an off-topic capture off-topic.
func NewOTMTWriter(w io.Writer, rule similarity.Rule) *OTMTWriter {
	bw := bufio.NewWriter(w)
	bw.WriteString("{")
	return &OTMTWriter{w: bw, rule: rule, first: true}
}

type otmtMeasure struct {
	Score  float64 `json:"comparison score"`
	Status string  `json:"topic status"`
}

type otmtMemento struct {
	Measures map[string]otmtMeasure `json:"timemap measures"`
	Overall  string                 `json:"overall topic status"`
	Datetime string                 `json:"memento-datetime"`
	Status   int                    `json:"http status"`
	// Kind and Reason are this tool's: the kind of an off-topic capture, and
	// why a capture is off-topic or was not scored.
	Kind   similarity.Kind `json:"off-topic kind,omitempty"`
	Reason string          `json:"reason,omitempty"`
	T0     bool            `json:"t0,omitempty"`
}

// Write adds one TimeMap. A measure's "topic status" is "off-topic" only
// where that measure crossed its threshold and made the capture off-topic.
func (o *OTMTWriter) Write(r *similarity.TimeMapResult) error {
	mems := make(map[string]otmtMemento, len(r.Captures))
	for _, c := range r.Captures {
		m := otmtMemento{Measures: map[string]otmtMeasure{}, Overall: c.Verdict, Datetime: c.Datetime.UTC().Format("20060102150405"),
			Status: c.Status, T0: c.IsT0}
		if c.Verdict != similarity.VerdictOn {
			m.Reason, m.Kind = c.Reason, c.Kind
		}
		crossed := map[string]bool{}
		if c.Verdict == similarity.VerdictOff {
			for _, t := range o.rule.Crossed(c.Scores) {
				crossed[t.Measure] = true
			}
		}
		for name, s := range c.Scores {
			st := similarity.VerdictOn
			if crossed[name] {
				st = similarity.VerdictOff
			}
			m.Measures[name] = otmtMeasure{s, st}
		}
		mems[c.URIM] = m
	}
	key, err := json.Marshal(r.URIT)
	if err != nil {
		return err
	}
	val, err := json.Marshal(mems)
	if err != nil {
		return err
	}
	if !o.first {
		o.w.WriteString(",")
	}
	o.first = false
	o.w.WriteString("\n")
	o.w.Write(key)
	o.w.WriteString(": ")
	_, err = o.w.Write(val)
	return err
}

// Close ends the JSON object and flushes.
func (o *OTMTWriter) Close() error {
	o.w.WriteString("\n}\n")
	return o.w.Flush()
}
