package report

import (
	"io"
	"os"
	"testing"

	"github.com/offtopic/offtopic/similarity"
)

// BenchmarkWriters writes each output format of 10,000 TimeMaps of 10
// captures (100,000 captures) to io.Discard: what a run pays for its
// outputs once the results are made. Set OFFTOPIC_BENCH_RESULTS to a
// results file to write its TimeMaps instead (the 10x collection's: see
// docs/quality.md).
func BenchmarkWriters(b *testing.B) {
	run := xlsxRun()
	var rs []*similarity.TimeMapResult
	if p := os.Getenv("OFFTOPIC_BENCH_RESULTS"); p != "" {
		f, err := os.Open(p)
		if err != nil {
			b.Fatal(err)
		}
		run = &Run{}
		for r, err := range ReadResults(f, p, run) {
			if err != nil {
				b.Fatal(err)
			}
			rs = append(rs, r)
		}
		f.Close()
	} else {
		for i := range 10000 {
			rs = append(rs, syntheticTimeMap(i, 10))
		}
	}
	rule, err := run.Rule()
	if err != nil {
		b.Fatal(err)
	}
	for _, tt := range []struct {
		name string
		open func() (Writer, error)
	}{
		{"jsonl", func() (Writer, error) { return NewResultsWriter(io.Discard, run) }},
		{"json", func() (Writer, error) { return NewOTMTWriter(io.Discard, rule), nil }},
		{"csv", func() (Writer, error) { return NewCSVWriter(io.Discard) }},
		{"xlsx", func() (Writer, error) { return NewXLSXWriter(io.Discard, run) }},
		{"html", func() (Writer, error) { return NewHTMLWriter(io.Discard, run) }},
	} {
		b.Run(tt.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				w, err := tt.open()
				if err != nil {
					b.Fatal(err)
				}
				for _, r := range rs {
					if err := w.Write(r); err != nil {
						b.Fatal(err)
					}
				}
				if err := w.Close(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
