package similarity

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/offtopic/offtopic/timemap"
)

// devFiles returns the dev corpus WARCs, skipping where ../shared is absent.
func devFiles(b testing.TB) []string {
	dir := os.Getenv("OFFTOPIC_SHARED")
	if dir == "" {
		dir = filepath.Join("..", "..", "shared")
	}
	files, _ := filepath.Glob(filepath.Join(dir, "corpus", "dev", "*.warc.gz"))
	if len(files) == 0 {
		b.Skipf("dev corpus not found under %s (set OFFTOPIC_SHARED)", dir)
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
