package state

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/offtopic/offtopic/extract"
	"github.com/offtopic/offtopic/internal/testcorpus"
	"github.com/offtopic/offtopic/similarity"
	"github.com/offtopic/offtopic/timemap"
)

// config is the detection both a run with a state and one without use.
func config() similarity.Config {
	return similarity.Config{Options: similarity.DefaultOptions(), Workers: 2, EachCollection: true, ArchiveURL: "http://archive.example/c"}
}

// encode is results as results.jsonl holds them, one JSON line each.
func encode(t testing.TB, rs []*similarity.TimeMapResult) string {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	for _, r := range rs {
		if err := enc.Encode(r); err != nil {
			t.Fatal(err)
		}
	}
	return b.String()
}

// full is one run over files without a state.
func full(t testing.TB, files []string) string {
	t.Helper()
	rs, err := similarity.DetectFiles(context.Background(), files, config())
	if err != nil {
		t.Fatal(err)
	}
	return encode(t, rs)
}

// withState runs detect over files with the state at path and commits it.
func withState(t testing.TB, path string, files []string) (string, *Run) {
	t.Helper()
	st, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	cfg := config()
	notes := similarity.NewPayloadNotes(cfg.Options, extract.Options{})
	pl := timemap.NewPayloads()
	defer pl.Close()
	cfg.ReadPayload = pl.Read
	ctx := context.Background()
	run, err := st.Begin(ctx, files, Options{Settings: "test", EachCollection: true,
		Index: timemap.IndexOptions{Workers: 2, Note: notes.Note, WantsNote: notes.Wants}})
	if err != nil {
		t.Fatal(err)
	}
	var rs []*similarity.TimeMapResult
	if _, err := run.Judge(ctx, cfg, func(r *similarity.TimeMapResult) error { rs = append(rs, r); return nil }); err != nil {
		run.Abort()
		t.Fatal(err)
	}
	if err := run.Commit(nil); err != nil {
		t.Fatal(err)
	}
	return encode(t, rs), run
}

// TestGrownEqualsFull: a state run over part of a collection, then over all
// of it, gives what one run over all of it gives; a third run with nothing
// new gives it from the state alone.
func TestGrownEqualsFull(t *testing.T) { onCollections(t, grownEqualsFull) }

// onCollections runs check on the WARCs of testdata's sample and of the
// dev corpus (skipped where ../shared is absent), each a subtest.
func onCollections(t *testing.T, check func(t *testing.T, files []string)) {
	for _, tt := range []struct {
		name string
		dir  func(t *testing.T) string
	}{
		{"sample", func(*testing.T) string { return "../testdata/sample" }},
		{"dev", func(t *testing.T) string { return testcorpus.Corpus(t, "dev") }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			files, _ := filepath.Glob(filepath.Join(tt.dir(t), "*.warc.gz"))
			check(t, files)
		})
	}
}

func grownEqualsFull(t *testing.T, files []string) {
	if len(files) < 3 {
		t.Fatalf("%d files", len(files))
	}
	want := full(t, files)
	path := filepath.Join(t.TempDir(), DefaultName)
	cut := len(files) - max(1, len(files)/10)
	first, _ := withState(t, path, files[:cut])
	if first != full(t, files[:cut]) {
		t.Fatal("first run with a state differs from a run without")
	}
	got, run := withState(t, path, files)
	if got != want {
		diffLines(t, got, want)
	}
	info := run.Info()
	if info.NewFiles != len(files)-cut || info.Rejudged == 0 || info.NewCaptures == 0 {
		t.Errorf("grown run: %+v", info)
	}
	again, run := withState(t, path, files)
	if !run.Unchanged() || again != want {
		t.Errorf("third run: unchanged %v, results equal %v", run.Unchanged(), again == want)
	}
}

func diffLines(t *testing.T, got, want string) {
	t.Helper()
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range min(len(g), len(w)) {
		if g[i] != w[i] {
			t.Fatalf("line %d differs:\n got %.600s\nwant %.600s", i+1, g[i], w[i])
		}
	}
	t.Fatalf("%d lines, want %d", len(g), len(w))
}

// TestSecondRunRefused: a state held by a run refuses another.
func TestSecondRunRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), DefaultName)
	st, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := Open(path); err == nil || !strings.Contains(err.Error(), "another offtopic run") {
		t.Fatalf("second Open: %v", err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatal(err)
	}
}

// TestShrunkChangedAborted: a file no longer given, a file changed in
// place, and a run aborted after it judged: each next run gives what a run
// without a state over the same files gives.
func TestShrunkChangedAborted(t *testing.T) {
	dir := t.TempDir()
	var files []string
	src, _ := filepath.Glob("../testdata/sample/*.warc.gz")
	for _, f := range src {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, filepath.Base(f))
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	path := filepath.Join(dir, DefaultName)
	withState(t, path, files)
	// A run over all but the first file.
	if got, _ := withState(t, path, files[1:]); got != full(t, files[1:]) {
		t.Error("run without a file differs from a run over the others")
	}
	// The last file replaced by the first's content, under its own name.
	b, _ := os.ReadFile(files[0])
	if err := os.WriteFile(files[2], b, 0o644); err != nil {
		t.Fatal(err)
	}
	got, run := withState(t, path, files)
	if got != full(t, files) {
		t.Error("run after a file changed in place differs from a run over the files")
	}
	if info := run.Info(); info.NewFiles != 2 {
		t.Errorf("after one file dropped and one changed, %d files read, want 2", info.NewFiles)
	}
	// A run that judged and was aborted leaves the state as it was.
	st, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	r, err := st.Begin(context.Background(), files[:2], Options{Settings: "test", EachCollection: true,
		Index: timemap.IndexOptions{Workers: 2}})
	if err != nil {
		t.Fatal(err)
	}
	cfg := config()
	cfg.ReadPayload = timemap.NewPayloads().Read
	if _, err := r.Judge(context.Background(), cfg, func(*similarity.TimeMapResult) error { return nil }); err != nil {
		t.Fatal(err)
	}
	r.Abort()
	st.Close()
	again, run := withState(t, path, files)
	if !run.Unchanged() || again != got {
		t.Errorf("after an aborted run: unchanged %v, results as before %v", run.Unchanged(), again == got)
	}
}

// TestDecisions: decisions taken in are kept with who, when and from which
// file, a later file decides again, and one the verdicts disagree with is
// listed.
func TestDecisions(t *testing.T) {
	files, _ := filepath.Glob("../testdata/sample/*.warc.gz")
	path := filepath.Join(t.TempDir(), DefaultName)
	_, _ = withState(t, path, files)
	rs, err := similarity.DetectFiles(context.Background(), files, config())
	if err != nil {
		t.Fatal(err)
	}
	var on, off similarity.GoldKey
	for _, r := range rs {
		for i := range r.Captures {
			switch r.Captures[i].Verdict {
			case similarity.VerdictOn:
				on = similarity.KeyOf(&r.Captures[i])
			case similarity.VerdictOff:
				off = similarity.KeyOf(&r.Captures[i])
			}
		}
	}
	st, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	when := time.Date(2026, 11, 25, 14, 30, 0, 0, time.UTC)
	sum, err := st.ImportDecisions(ctx, "week1.csv", map[similarity.GoldKey]string{on: "on-topic", off: "off-topic"}, "ann", when)
	if err != nil || sum.New != 2 {
		t.Fatalf("first import: %+v, %v", sum, err)
	}
	sum, err = st.ImportDecisions(ctx, "week2.csv", map[similarity.GoldKey]string{on: "off-topic", off: "off-topic"}, "bob", when.Add(7*24*time.Hour))
	if err != nil || sum.Changed != 1 || sum.Same != 1 {
		t.Fatalf("second import: %+v, %v", sum, err)
	}
	ds, err := st.Decisions(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if d := ds[on]; d.Decision != "off-topic" || d.Who != "bob" || !d.When.Equal(when.Add(7*24*time.Hour)) || filepath.Base(d.From) != "week2.csv" {
		t.Errorf("decision %+v", d)
	}
	cs, err := st.Contradictions(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 1 || cs[0].Key != on || cs[0].Verdict != similarity.VerdictOn {
		t.Errorf("contradictions %+v, want the on-topic capture decided off-topic", cs)
	}
}
