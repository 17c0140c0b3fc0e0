package similarity

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"github.com/offtopic/offtopic/extract"
	"github.com/offtopic/offtopic/internal/testcorpus"
	"github.com/offtopic/offtopic/timemap"
)

// devFiles returns the dev corpus WARCs, skipping where ../shared is absent.
func devFiles(b testing.TB) []string {
	dir := testcorpus.Path(b, "corpus/dev")
	files, _ := filepath.Glob(filepath.Join(dir, "*.warc.gz"))
	if len(files) == 0 {
		b.Skipf("no WARCs in %s", dir)
	}
	return files
}

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

// BenchmarkDetectDev measures extract + score over the dev corpus on all
// cores (index built once, outside the timer), reported as captures/s.
func BenchmarkDetectDev(b *testing.B) {
	ctx := context.Background()
	idx, err := timemap.BuildIndex(ctx, devFiles(b), timemap.IndexOptions{})
	if err != nil {
		b.Fatal(err)
	}
	defer idx.Close()
	b.ResetTimer()
	var captures int
	for range b.N {
		st, err := Detect(ctx, idx, Config{Options: Options{TopicCheck: true, TopicGuard: DefaultTopicGuard}, ReadPayload: timemap.ReadPayload},
			func(*TimeMapResult) error { return nil })
		if err != nil {
			b.Fatal(err)
		}
		captures += st.Captures
	}
	b.ReportMetric(float64(captures)/b.Elapsed().Seconds(), "captures/s")
}
