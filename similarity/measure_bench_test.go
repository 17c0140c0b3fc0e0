package similarity

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/offtopic/offtopic/extract"
	"github.com/offtopic/offtopic/timemap"
)

// BenchmarkScoreMeasures scores one made-up TimeMap (40 captures of 600
// terms drawn from a 3,000-term vocabulary) with the default measures, then
// with each of OTMT's further measures added, then with all: what selecting
// a measure costs per TimeMap.
func BenchmarkScoreMeasures(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 5))
	tm := &timemap.TimeMap{Key: "k", URIR: "http://k/"}
	in := Input{TimeMap: tm}
	for i := range 40 {
		terms := make([]string, 600)
		for j := range terms {
			terms[j] = fmt.Sprintf("t%d", int(rng.ExpFloat64()*300)%3000)
		}
		tm.Captures = append(tm.Captures, timemap.Capture{Key: "k", URIR: "http://k/", Status: 200, MIME: "text/html",
			Time: time.Date(2010, 1, 1+i, 0, 0, 0, 0, time.UTC)})
		in.Docs = append(in.Docs, &extract.Document{Terms: terms, WordCount: 900, ByteCount: 9000, Text: fmt.Sprint(terms)})
		in.URIMs = append(in.URIMs, fmt.Sprint(i))
	}
	base := []string{MeasureCosine, MeasureJaccard, MeasureTFIntersection, MeasureWordCount, MeasureByteCount}
	cases := []struct {
		name     string
		measures []string
	}{{"default", base}}
	for _, m := range Measures() {
		if m.Extra {
			cases = append(cases, struct {
				name     string
				measures []string
			}{"+" + m.Name, append(append([]string(nil), base...), m.Name)})
		}
	}
	cases = append(cases, struct {
		name     string
		measures []string
	}{"all", MeasureNames()})
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			for range b.N {
				if _, err := Score(context.Background(), in, nil, Options{Measures: c.measures}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
