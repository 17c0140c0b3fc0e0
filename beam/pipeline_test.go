package offtopicbeam

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	"github.com/offtopic/offtopic/report"
	"github.com/offtopic/offtopic/similarity"
	"github.com/offtopic/offtopic/timemap"
)

// TestMain runs the pipelines of the tests on Prism, in process, unless
// --runner says otherwise.
func TestMain(m *testing.M) {
	ptest.MainWithDefault(m, "prism")
}

// collections are the WARC sets the pipeline is checked on: the sample, and
// the dev corpus where the shared directory is there.
func collections(t *testing.T) map[string][]string {
	t.Helper()
	sets := map[string][]string{}
	sample, _ := filepath.Glob(filepath.Join("..", "testdata", "sample", "*.warc.gz"))
	if len(sample) == 0 {
		t.Fatal("no sample collection in ../testdata/sample")
	}
	sets["sample"] = AbsInputs(sample)
	dir := os.Getenv("OFFTOPIC_SHARED")
	if dir == "" {
		dir = filepath.Join("..", "..", "shared")
	}
	if dev, _ := filepath.Glob(filepath.Join(dir, "corpus", "dev", "*.warc.gz")); len(dev) > 0 {
		sets["dev"] = AbsInputs(dev)
	} else {
		t.Logf("dev corpus not found under %s (set OFFTOPIC_SHARED): sample only", dir)
	}
	return sets
}

// singleProcess is the reference: similarity.Detect over BuildIndex of all
// files, as `offtopic detect` runs it; the TimeMap lines of its results file.
func singleProcess(t *testing.T, files []string, cfg Config) []string {
	t.Helper()
	ctx := context.Background()
	canon, err := timemap.ParseCanonMode(cfg.Canonicalize)
	if err != nil {
		t.Fatal(err)
	}
	idx, err := timemap.BuildIndex(ctx, files, timemap.IndexOptions{Canon: canon, TempDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer idx.Close()
	opts, err := cfg.Options()
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	rw, err := report.NewResultsWriter(&buf, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := similarity.Detect(ctx, idx, similarity.Config{Options: opts, ArchiveURL: cfg.ArchiveURL, TempDir: t.TempDir(),
		ReadPayload: timemap.ReadPayload}, rw.Write); err != nil {
		t.Fatal(err)
	}
	return lines(t, buf.Bytes())
}

// lines splits a results file into its TimeMap lines (the run line dropped).
func lines(t *testing.T, b []byte) []string {
	t.Helper()
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		if l := sc.Text(); l != "" && !strings.HasPrefix(l, `{"run":`) {
			out = append(out, l)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// runBeam runs the pipeline over an input list with the given lines and
// returns the results file.
func runBeam(t *testing.T, inputLines []string, cfg Config) []byte {
	t.Helper()
	dir := t.TempDir()
	in := filepath.Join(dir, "input.txt")
	if err := os.WriteFile(in, []byte(strings.Join(inputLines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg.Inputs = []string{in}
	cfg.Output = filepath.Join(dir, "results.jsonl")
	cfg.TempDir = dir
	p, s := beam.NewPipelineWithRoot()
	if _, err := Build(s, cfg); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if err := ptest.Run(p); err != nil {
		t.Fatalf("pipeline: %v", err)
	}
	t.Logf("pipeline over %d input lines: %.1f s", len(inputLines), time.Since(start).Seconds())
	b, err := os.ReadFile(cfg.Output)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func compare(t *testing.T, got, want []string) {
	t.Helper()
	t.Logf("%d TimeMap lines (single process: %d)", len(got), len(want))
	if len(got) != len(want) {
		t.Errorf("%d TimeMap lines, want %d (single process)", len(got), len(want))
	}
	diffs := 0
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			if diffs++; diffs <= 3 {
				t.Errorf("line %d differs:\n beam:   %.400s\n single: %.400s", i+1, got[i], want[i])
			}
		}
	}
	if diffs > 0 {
		t.Errorf("%d of %d TimeMap lines differ", diffs, len(want))
	}
}

// TestPipelineEqualsSingleProcess is the acceptance check: on Prism, WARC
// paths in, the TimeMap lines of the results equal those of a single-process
// run byte for byte.
func TestPipelineEqualsSingleProcess(t *testing.T) {
	for name, files := range collections(t) {
		t.Run(name, func(t *testing.T) {
			cfg := DefaultConfig()
			want := singleProcess(t, files, cfg)
			if len(want) == 0 {
				t.Fatal("single process gave no results")
			}
			out := runBeam(t, files, cfg)
			if !bytes.HasPrefix(out, []byte(`{"run":{"tool":"offtopic-beam"`)) {
				t.Errorf("results file does not start with its run line: %.100s", out)
			}
			compare(t, lines(t, out), want)
		})
	}
}

// TestPipelineCaptureLines feeds the pipeline `offtopic map` output (capture
// lines) instead of WARC paths, with other scoring options.
func TestPipelineCaptureLines(t *testing.T) {
	files := collections(t)["sample"]
	cfg := DefaultConfig()
	cfg.Measures, cfg.Score, cfg.IDF, cfg.Plain = "cosine,sekernel", "jaccard", "collection", true
	var capLines []string
	for _, f := range files {
		idx, err := timemap.BuildIndex(context.Background(), []string{f}, timemap.IndexOptions{TempDir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		for c := range idx.Captures() {
			if err := timemap.WriteCaptureLine(&buf, c); err != nil {
				t.Fatal(err)
			}
		}
		idx.Close()
		capLines = append(capLines, strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")...)
	}
	compare(t, lines(t, runBeam(t, capLines, cfg)), singleProcess(t, files, cfg))
}

// singleProcessIndex is the reference for index input: similarity.Detect over
// timemap.OpenIndex, as `offtopic detect --index` runs it.
func singleProcessIndex(t *testing.T, index, warcDir string, cfg Config) []string {
	t.Helper()
	idx, err := timemap.OpenIndex([]string{index}, timemap.CDXOptions{WARCDir: warcDir, TempDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	opts, err := cfg.Options()
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	rw, err := report.NewResultsWriter(&buf, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := similarity.Detect(context.Background(), idx, similarity.Config{Options: opts, ArchiveURL: cfg.ArchiveURL,
		TempDir: t.TempDir(), ReadPayload: timemap.ReadPayload}, rw.Write); err != nil {
		t.Fatal(err)
	}
	return lines(t, buf.Bytes())
}

// TestPipelineCDXJ feeds the pipeline a CDXJ index, as a path and as lines,
// and compares with `offtopic detect --index` over the same index.
func TestPipelineCDXJ(t *testing.T) {
	for name, files := range collections(t) {
		t.Run(name, func(t *testing.T) {
			idx, err := timemap.BuildIndex(context.Background(), files, timemap.IndexOptions{TempDir: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			err = timemap.WriteCDXJ(&buf, idx.Captures())
			idx.Close()
			if err != nil {
				t.Fatal(err)
			}
			index := filepath.Join(t.TempDir(), "index.cdxj")
			if err := os.WriteFile(index, buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			cfg := DefaultConfig()
			cfg.WARCDir = filepath.Dir(files[0])
			want := singleProcessIndex(t, index, cfg.WARCDir, cfg)
			if len(want) == 0 {
				t.Fatal("single process gave no results")
			}
			t.Run("path", func(t *testing.T) { compare(t, lines(t, runBeam(t, []string{index}, cfg)), want) })
			t.Run("lines", func(t *testing.T) {
				compare(t, lines(t, runBeam(t, strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n"), cfg)), want)
			})
		})
	}
}
