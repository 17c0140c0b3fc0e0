package similarity

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/offtopic/offtopic/extract"
	"github.com/offtopic/offtopic/internal/testcorpus"
	"github.com/offtopic/offtopic/timemap"
)

// devFiles returns the dev corpus WARCs, skipping where ../shared is absent.
func devFiles(b testing.TB) []string {
	dir := testcorpus.Path(b, "corpus/dev")
	files, _ := filepath.Glob(filepath.Join(dir, "*.warc.gz"))
	if len(files) == 0 {
		b.Skipf("no WARC in %s", dir)
	}
	return files
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
	b.ReportAllocs()
	b.ResetTimer()
	var captures int
	for range b.N {
		st, err := Detect(ctx, idx, Config{Options: DefaultOptions(), ReadPayload: timemap.ReadPayload},
			func(*TimeMapResult) error { return nil })
		if err != nil {
			b.Fatal(err)
		}
		captures += st.Captures
	}
	b.ReportMetric(float64(captures)/b.Elapsed().Seconds(), "captures/s")
}

// BenchmarkScoreDev measures the score pass alone over the dev corpus: the
// model built and every TimeMap prepared (read and extracted) outside the
// timer, then Score for every TimeMap, as captures/s.
func BenchmarkScoreDev(b *testing.B) {
	ctx := context.Background()
	idx, err := timemap.BuildIndex(ctx, devFiles(b), timemap.IndexOptions{})
	if err != nil {
		b.Fatal(err)
	}
	defer idx.Close()
	pl := timemap.NewPayloads()
	defer pl.Close()
	cfg, err := Config{Options: DefaultOptions(), ReadPayload: pl.Read}.withDefaults()
	if err != nil {
		b.Fatal(err)
	}
	cache := extract.NewCache(cfg.CacheBytes)
	mb := NewModelBuilder(false, cfg.MinT0Words)
	var ins []*Input
	for tm, err := range idx.TimeMaps(ctx) {
		if err != nil {
			b.Fatal(err)
		}
		in, _ := Prepare(ctx, tm, &cfg, cache)
		mb.Add(*in)
		ins = append(ins, in)
	}
	model := mb.Build()
	b.ReportAllocs()
	b.ResetTimer()
	captures := 0
	for b.Loop() {
		for _, in := range ins {
			if _, err := Score(ctx, *in, model, cfg.Options); err != nil {
				b.Fatal(err)
			}
			captures += len(in.TimeMap.Captures)
		}
	}
	b.ReportMetric(float64(captures)/b.Elapsed().Seconds(), "captures/s")
}
