package extract

import (
	"testing"
	"time"
)

// BenchmarkExtract extracts the distinct HTML payloads of the dev corpus
// (skipped when the corpus is absent) and reports pages per second.
func BenchmarkExtract(b *testing.B) { benchExtract(b, Options{}, false) }

// BenchmarkExtractTextOnly is BenchmarkExtract with Options.TextOnly, as
// detect extracts: no links, no publication dates.
func BenchmarkExtractTextOnly(b *testing.B) { benchExtract(b, Options{TextOnly: true}, false) }

// BenchmarkExtractBaseURL is BenchmarkExtract with Options.BaseURL set to
// each capture's URI, so that relative links are resolved too.
func BenchmarkExtractBaseURL(b *testing.B) { benchExtract(b, Options{}, true) }

func benchExtract(b *testing.B, base Options, withURL bool) {
	var pages []corpusResponse
	seen := map[string]bool{}
	for _, r := range corpusHTML(b) {
		if !seen[r.digest] {
			seen[r.digest] = true
			pages = append(pages, r)
		}
	}
	if len(pages) == 0 {
		b.Skip("no HTML pages")
	}
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	n := 0
	for i := 0; b.Loop(); i++ {
		p := pages[i%len(pages)]
		opts := base
		if withURL {
			opts.BaseURL = p.uri
		}
		if _, err := Extract(p.header, p.body, opts); err != nil {
			b.Fatal(err)
		}
		n++
	}
	b.ReportMetric(float64(n)/time.Since(start).Seconds(), "pages/s")
}
