package prune

import (
	"bytes"
	"context"
	"iter"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/offtopic/offtopic/internal/testcorpus"
	"github.com/offtopic/offtopic/similarity"
	"github.com/offtopic/offtopic/timemap"
)

// detect runs detection with default settings over files.
func detect(t *testing.T, files []string) []*similarity.TimeMapResult {
	t.Helper()
	out, err := similarity.DetectFiles(context.Background(), files, similarity.Config{Options: similarity.DefaultOptions(), ArchiveURL: "http://a/"})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func seq(rs []*similarity.TimeMapResult) iter.Seq2[*similarity.TimeMapResult, error] {
	return func(yield func(*similarity.TimeMapResult, error) bool) {
		for _, r := range rs {
			if !yield(r, nil) {
				return
			}
		}
	}
}

// captureKeys lists "key timestamp" of every capture in files.
func captureKeys(t *testing.T, files []string) map[string]bool {
	t.Helper()
	idx, err := timemap.BuildIndex(context.Background(), files, timemap.IndexOptions{OnError: func(err error) { t.Errorf("read back: %v", err) }})
	if err != nil {
		t.Fatal(err)
	}
	defer idx.Close()
	out := map[string]bool{}
	for c := range idx.Captures() {
		out[c.Key+" "+c.Timestamp14()] = true
	}
	return out
}

// checkCopy prunes files by results and checks that the copy holds exactly
// the captures that were not off-topic, and that every record is accounted for.
func checkCopy(t *testing.T, files []string, results []*similarity.TimeMapResult) *Summary {
	t.Helper()
	plan, err := NewPlan(seq(results), nil, UnsureKeep)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "clean")
	sum, err := Copy(context.Background(), plan, files, out)
	if err != nil {
		t.Fatal(err)
	}
	want := captureKeys(t, files)
	all := len(want)
	for _, r := range results {
		for _, c := range r.Captures {
			if _, out := plan.excludes(c.Loc); out {
				delete(want, r.Key+" "+c.Datetime.UTC().Format("20060102150405"))
			}
		}
	}
	// The plan's count of captures left out is what the copy lacks.
	if all-len(want) != plan.Excluded() {
		t.Errorf("%d captures left out, plan says %d (%d off-topic, %d kept for revisits)", all-len(want), plan.Excluded(), plan.OffTopic, len(plan.KeptOff))
	}
	var outFiles []string
	for _, f := range files {
		outFiles = append(outFiles, filepath.Join(out, filepath.Base(f)))
	}
	got := captureKeys(t, outFiles)
	if len(got) != len(want) {
		t.Errorf("copy holds %d captures, want %d", len(got), len(want))
	}
	for k := range want {
		if !got[k] {
			t.Errorf("kept capture %s missing from the copy", k)
		}
	}
	var in, kept, ex int
	for _, fc := range sum.Files {
		in, kept, ex = in+fc.Records, kept+fc.Kept, ex+fc.Excluded
	}
	if in != kept+ex || ex == 0 {
		t.Errorf("%d records in, %d kept + %d excluded", in, kept, ex)
	}
	if sum.Captures != len(want) {
		t.Errorf("index.cdxj has %d captures, want %d", sum.Captures, len(want))
	}
	b, err := os.ReadFile(filepath.Join(out, "excluded.tsv"))
	if err != nil || strings.Count(string(b), "\n") != ex+1 {
		t.Errorf("excluded.tsv: %d lines (%v), want header + %d", strings.Count(string(b), "\n"), err, ex)
	}
	return sum
}

func sampleFiles(t *testing.T) []string {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "sample", "*.warc.gz"))
	if len(files) == 0 {
		t.Fatal("sample collection missing")
	}
	return files
}

func TestCopySample(t *testing.T) {
	files := sampleFiles(t)
	sum := checkCopy(t, files, detect(t, files))
	types := map[string]int{}
	for _, e := range sum.Excluded {
		types[e.Type]++
	}
	// 4 off-topic responses and the request written beside each.
	if types["response"] != 4 || types["request"] != 4 || len(types) != 2 {
		t.Errorf("excluded records by type: %v, want 4 responses and their 4 requests", types)
	}
}

func TestCopyDevCorpus(t *testing.T) {
	dir := testcorpus.Corpus(t, "dev")
	files, _ := filepath.Glob(filepath.Join(dir, "*.warc.gz"))
	if len(files) == 0 {
		t.Skipf("no WARC in %s", dir)
	}
	sum := checkCopy(t, files, detect(t, files))
	types := map[string]int{}
	for _, e := range sum.Excluded {
		types[e.Type]++
	}
	t.Logf("dev corpus: excluded records by type %v", types)
	if types["request"] == 0 || types["metadata"] == 0 {
		t.Errorf("paired request and metadata records not excluded: %v", types)
	}
}

// TestCopyWholeFileGzip prunes one record out of a file gzipped as a single
// member: the rest must come out readable, each record a member of its own.
func TestCopyWholeFileGzip(t *testing.T) {
	src := testcorpus.Path(t, "fixtures/warc/pywb-example-bad.warc.gz.bad")
	idx, err := timemap.BuildIndex(context.Background(), []string{src}, timemap.IndexOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// The off-topic capture is a response no revisit depends on (a response
	// that a kept revisit still needs is never dropped).
	var res []*similarity.TimeMapResult
	needed := map[timemap.Location]bool{}
	for tm := range idx.TimeMaps(context.Background()) {
		r := &similarity.TimeMapResult{Key: tm.Key, URIR: tm.URIR}
		for _, c := range tm.Captures {
			if c.Revisit {
				needed[c.Payload] = true
			}
			r.Captures = append(r.Captures, similarity.CaptureResult{URIR: c.URIR, Datetime: c.Time, Loc: c.Loc, Revisit: c.Revisit, Payload: c.Payload, Verdict: similarity.VerdictOn})
		}
		res = append(res, r)
	}
	idx.Close()
	marked := false
	for _, r := range res {
		for i := range r.Captures {
			if c := &r.Captures[i]; !marked && !c.Revisit && !needed[c.Loc] {
				c.Verdict, marked = similarity.VerdictOff, true
			}
		}
	}
	if !marked {
		t.Fatal("fixture has no response free of revisits")
	}
	checkCopy(t, []string{src}, res)
}

func TestACL(t *testing.T) {
	files := sampleFiles(t)
	plan, err := NewPlan(seq(detect(t, files)), nil, UnsureKeep)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	sum, err := WriteACL(&buf, plan)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if sum.Rules != 4 || len(lines) != 4 || sum.Covered != 4 || len(sum.Uncovered) != 0 {
		t.Fatalf("rules %+v:\n%s", sum, buf.String())
	}
	for i, l := range lines {
		if !strings.Contains(l, "### - {\"access\":\"exclude\"") || !strings.Contains(l, `"after":"2009`) {
			t.Errorf("rule %q: want an exact-match exclude after the last on-topic capture", l)
		}
		if i > 0 && lines[i-1] < l {
			t.Errorf("rules not in reverse order: %q before %q", lines[i-1], l)
		}
	}
	var idx bytes.Buffer
	kept, err := WriteKeptIndex(context.Background(), &idx, plan, files, nil)
	if err != nil || kept != 10 || strings.Count(idx.String(), "\n") != 10 {
		t.Errorf("kept index: %d captures (%v), want 14 - 4 off-topic", kept, err)
	}
}

func TestCopyRefusesToMix(t *testing.T) {
	files := sampleFiles(t)
	plan, _ := NewPlan(seq(nil), nil, UnsureKeep)
	out := t.TempDir()
	os.WriteFile(filepath.Join(out, "old.txt"), []byte("x"), 0o644)
	if _, err := Copy(context.Background(), plan, files, out); err == nil || !strings.Contains(err.Error(), "holds files prune did not write") {
		t.Errorf("Copy into a folder it did not write: %v", err)
	}
	if b, err := os.ReadFile(filepath.Join(out, "old.txt")); err != nil || string(b) != "x" {
		t.Errorf("a refused Copy touched the folder's file: %q, %v", b, err)
	}
	if _, err := Copy(context.Background(), plan, files, filepath.Dir(files[0])); err == nil {
		t.Error("Copy over its own input directory must fail")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	fresh := filepath.Join(t.TempDir(), "clean")
	if _, err := Copy(ctx, plan, files, fresh); err == nil {
		t.Error("cancelled Copy reported success")
	}
	if _, err := os.Stat(fresh); !os.IsNotExist(err) {
		t.Error("cancelled Copy left output behind")
	}
	left, _ := filepath.Glob(filepath.Join(filepath.Dir(fresh), ".clean.partial-*"))
	if len(left) > 0 {
		t.Errorf("temporary output left: %v", left)
	}
}

// TestCopyReplacesItsOwn: a second copy into the same folder replaces the
// first (prune, review, prune again), and a copy with a file added by hand
// beside it is not replaced.
func TestCopyReplacesItsOwn(t *testing.T) {
	files := sampleFiles(t)
	out := filepath.Join(t.TempDir(), "clean")
	none, _ := NewPlan(seq(nil), nil, UnsureKeep)
	first, err := Copy(context.Background(), none, files, out)
	if err != nil {
		t.Fatal(err)
	}
	plan, _ := NewPlan(seq(detect(t, files)), nil, UnsureKeep)
	second, err := Copy(context.Background(), plan, files, out)
	if err != nil {
		t.Fatalf("a second copy into %s: %v", out, err)
	}
	if second.Captures >= first.Captures {
		t.Errorf("the second copy indexes %d captures, the first %d: want fewer (it left one out)", second.Captures, first.Captures)
	}
	idx, _ := os.ReadFile(filepath.Join(out, "index.cdxj"))
	if n := strings.Count(string(idx), "\n"); n != second.Captures {
		t.Errorf("index.cdxj holds %d lines, want the second copy's %d captures", n, second.Captures)
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(out), ".clean.*")); len(left) > 0 {
		t.Errorf("left beside the copy: %v", left)
	}
	os.WriteFile(filepath.Join(out, "notes.txt"), []byte("mine"), 0o644)
	if _, err := Copy(context.Background(), none, files, out); err == nil {
		t.Error("Copy replaced a folder holding a file it did not write")
	}
	if _, err := os.Stat(filepath.Join(out, "notes.txt")); err != nil {
		t.Errorf("the curator's file is gone: %v", err)
	}
}
