package extract

import (
	"fmt"
	"net/http"
	"strings"
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

// BenchmarkExtractReal extracts the distinct HTML payloads of real-1068 as
// detect does (TextOnly, one StemCache shared by every page): real pages
// cost more than generated ones.
func BenchmarkExtractReal(b *testing.B) {
	benchPages(b, htmlOf(loadCollection(b, "real-1068")), Options{TextOnly: true, Stems: NewStemCache(0)}, false)
}

func benchExtract(b *testing.B, base Options, withURL bool) {
	benchPages(b, corpusHTML(b), base, withURL)
}

func benchPages(b *testing.B, html []corpusResponse, base Options, withURL bool) {
	var pages []corpusResponse
	seen := map[string]bool{}
	for _, r := range html {
		if !seen[r.digest] {
			seen[r.digest] = true
			pages = append(pages, r)
		}
	}
	if len(pages) == 0 {
		b.Skip("no HTML pages")
	}
	var size int64
	for _, p := range pages {
		size += int64(len(p.body))
	}
	b.SetBytes(size / int64(len(pages)))
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

// BenchmarkExtractEmbedded extracts a client-rendered page whose text is in
// a Next.js data script of about 1 MiB (the cap of one blob): the cost of
// a thin page's embedded data at its largest.
func BenchmarkExtractEmbedded(b *testing.B) {
	var items strings.Builder
	for i := 0; items.Len() < maxBlob-4096; i++ {
		fmt.Fprintf(&items, `{"id":"item-%d","slug":"story-%d","url":"https://news.example/story-%d","title":"Story number %d of the day","teaser":%q,"image":{"src":"/img/%d.jpg","alt":"A picture"}},`, i, i, i, i, story, i)
	}
	page := []byte(`<!doctype html><html><head><title>News</title></head><body><div id="__next"></div><script id="__NEXT_DATA__" type="application/json">{"props":{"pageProps":{"items":[` +
		strings.TrimSuffix(items.String(), ",") + `]}},"page":"/"}</script><script src="/_next/main.js"></script></body></html>`)
	h := http.Header{"Content-Type": {"text/html; charset=utf-8"}}
	b.SetBytes(int64(len(page)))
	b.ReportAllocs()
	for b.Loop() {
		if doc, err := Extract(h, page, Options{TextOnly: true}); err != nil || doc.Embedded != EmbeddedState {
			b.Fatal(err, doc.Embedded)
		}
	}
}
