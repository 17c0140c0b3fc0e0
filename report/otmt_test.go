package report

import (
	"bytes"
	"encoding/json"
	"io"
	"math"
	"testing"

	"github.com/offtopic/offtopic/similarity"
)

// otmtReference is the OTMT JSON of one TimeMap as encoding/json writes it
// from maps of these structs (how OTMTWriter wrote it before it wrote JSON
// itself).
func otmtReference(rule similarity.Rule, r *similarity.TimeMapResult) ([]byte, error) {
	type measure struct {
		Score  float64 `json:"comparison score"`
		Status string  `json:"topic status"`
	}
	type memento struct {
		Measures map[string]measure `json:"timemap measures"`
		Overall  string             `json:"overall topic status"`
		Datetime string             `json:"memento-datetime"`
		Status   int                `json:"http status"`
		Kind     similarity.Kind    `json:"off-topic kind,omitempty"`
		Reason   string             `json:"reason,omitempty"`
		T0       bool               `json:"t0,omitempty"`
	}
	mems := map[string]memento{}
	for _, c := range r.Captures {
		m := memento{Measures: map[string]measure{}, Overall: c.Verdict, Datetime: c.Datetime.UTC().Format("20060102150405"), Status: c.Status, T0: c.IsT0}
		if c.Verdict != similarity.VerdictOn {
			m.Reason, m.Kind = c.Reason, c.Kind
		}
		crossed := map[string]bool{}
		if c.Verdict == similarity.VerdictOff {
			for _, t := range rule.Crossed(c.Scores) {
				crossed[t.Measure] = true
			}
		}
		for name, s := range c.Scores {
			st := similarity.VerdictOn
			if crossed[name] {
				st = similarity.VerdictOff
			}
			m.Measures[name] = measure{s, st}
		}
		mems[c.URIM] = m
	}
	key, err := json.Marshal(r.URIT)
	if err != nil {
		return nil, err
	}
	val, err := json.Marshal(mems)
	return append(append(key, ": "...), val...), err
}

// TestOTMTAsJSONMarshal: OTMTWriter writes what encoding/json writes of
// the OTMT structs, hostile text, duplicate URI-Ms and captures without
// scores included.
func TestOTMTAsJSONMarshal(t *testing.T) {
	rule, err := similarity.ParseRule("cosine=0.10,wordcount=-0.85")
	if err != nil {
		t.Fatal(err)
	}
	rs := htmlFixture()
	dup := syntheticTimeMap(7, 4)
	dup.Captures[2].URIM = dup.Captures[1].URIM
	dup.Captures[3].Scores = nil
	dup.URIT = "http://t.example/<script>&\u2028"
	dup.Captures[0].URIM = "http://m.example/?a=<b>&c=\"d\""
	rs = append(rs, dup, sampleResult(), syntheticTimeMap(8, 10))
	var want bytes.Buffer
	want.WriteString("{")
	for i, r := range rs {
		b, err := otmtReference(rule, r)
		if err != nil {
			t.Fatal(err)
		}
		if i > 0 {
			want.WriteString(",")
		}
		want.WriteString("\n")
		want.Write(b)
	}
	want.WriteString("\n}\n")
	var got bytes.Buffer
	w := NewOTMTWriter(&got, rule)
	for _, r := range rs {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if got.String() != want.String() {
		g, wt := got.String(), want.String()
		i := 0
		for i < len(g) && i < len(wt) && g[i] == wt[i] {
			i++
		}
		t.Fatalf("differs at byte %d:\n got %.200q\nwant %.200q", i, g[max(0, i-50):], wt[max(0, i-50):])
	}
	nan := syntheticTimeMap(9, 2)
	nan.Captures[1].Scores["cosine"] = math.NaN()
	if err := NewOTMTWriter(io.Discard, rule).Write(nan); err == nil {
		t.Error("a NaN score written without error")
	}
}
