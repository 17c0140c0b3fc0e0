//go:build unix

package report

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/offtopic/offtopic/similarity"
)

// BenchmarkHTMLOpen writes HTML reports of synthetic collections (10
// captures per TimeMap) and opens each from file:// in headless Chromium at
// 1280x800: ms-worklist is the time from navigation until the worklist is
// drawn (the first screen is usable), MB-page the page's size. Set
// OFFTOPIC_BENCH_RESULTS to a results file to open its report as well.
// Skips where Chromium is absent.
func BenchmarkHTMLOpen(b *testing.B) {
	chromium := findChromium(b)
	type input struct {
		name    string
		run     *Run
		results func(yield func(*similarity.TimeMapResult) bool)
	}
	synthetic := func(n int) func(yield func(*similarity.TimeMapResult) bool) {
		gen := htmlSynthetic(n, 10)
		return func(yield func(*similarity.TimeMapResult) bool) {
			for i := 0; i < n; i++ {
				if !yield(gen(i)) {
					return
				}
			}
		}
	}
	inputs := []input{{"52k", htmlTestRun, synthetic(5200)}, {"1M", htmlTestRun, synthetic(100000)}}
	if p := os.Getenv("OFFTOPIC_BENCH_RESULTS"); p != "" {
		var run Run
		f, err := os.Open(p)
		if err != nil {
			b.Fatal(err)
		}
		for _, err := range ReadResults(f, p, &run) { // the run line comes first
			if err != nil {
				b.Fatal(err)
			}
			break
		}
		f.Close()
		inputs = append(inputs, input{"file", &run, func(yield func(*similarity.TimeMapResult) bool) {
			f, err := os.Open(p)
			if err != nil {
				b.Fatal(err)
			}
			defer f.Close()
			for r, err := range ReadResults(f, p, nil) {
				if err != nil {
					b.Fatal(err)
				}
				if !yield(r) {
					return
				}
			}
		}})
	}
	br := startChromium(b, chromium)
	c := br.page(b)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ev := c.watch(ctx)
	for _, m := range []string{"Page.enable", "Runtime.enable"} {
		if err := c.call(m, nil, nil); err != nil {
			b.Fatal(err)
		}
	}
	if err := c.call("Emulation.setDeviceMetricsOverride", map[string]any{"width": 1280, "height": 800, "deviceScaleFactor": 1, "mobile": false}, nil); err != nil {
		b.Fatal(err)
	}
	for _, in := range inputs {
		b.Run(in.name, func(b *testing.B) {
			page := filepath.Join(b.TempDir(), "offtopic.html")
			f, err := os.Create(page)
			if err != nil {
				b.Fatal(err)
			}
			w, err := NewHTMLWriter(f, in.run)
			if err != nil {
				b.Fatal(err)
			}
			for r := range in.results {
				if err := w.Write(r); err != nil {
					b.Fatal(err)
				}
			}
			if err := w.Close(); err != nil {
				b.Fatal(err)
			}
			st, _ := f.Stat()
			f.Close()
			var ms, parsed float64
			for b.Loop() {
				c.call("Page.navigate", map[string]any{"url": "about:blank"}, nil)
				<-ev.loaded
				if err := c.call("Page.navigate", map[string]any{"url": "file://" + page}, nil); err != nil {
					b.Fatal(err)
				}
				select {
				case <-ev.loaded:
				case <-time.After(5 * time.Minute):
					b.Fatal("page did not load in 5 minutes")
				}
				var got struct {
					Mark, Parsed float64
					Rows         int
				}
				if err := c.eval(`({Mark: (performance.getEntriesByName('offtopic-worklist')[0] || {startTime: -1}).startTime,
					Parsed: performance.getEntriesByType('navigation')[0].domInteractive,
					Rows: document.querySelectorAll('#tms tbody tr[data-id]').length})`, &got); err != nil {
					b.Fatal(err)
				}
				if got.Mark < 0 || got.Rows == 0 {
					b.Fatalf("the worklist was not drawn: %+v", got)
				}
				ms, parsed = got.Mark, got.Parsed
			}
			b.ReportMetric(ms, "ms-worklist")
			b.ReportMetric(parsed, "ms-parsed")
			b.ReportMetric(float64(st.Size())/1e6, "MB-page")
		})
	}
}
