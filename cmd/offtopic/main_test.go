package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/csv"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/offtopic/offtopic/internal/testcorpus"
)

func runCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), append([]string{"offtopic"}, args...), strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

// runWithStdin runs the CLI with stdin.
func runWithStdin(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), append([]string{"offtopic"}, args...), strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

func sampleFiles(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "..", "testdata", "sample", "*.warc.gz"))
	if err != nil || len(files) == 0 {
		t.Fatalf("sample collection missing: %v", err)
	}
	return files
}

var confusionLine = regexp.MustCompile(`TP=(\d+) FP=(\d+) TN=(\d+) FN=(\d+) accuracy=([\d.]+) precision=([\d.]+) recall=([\d.]+) F1=([\d.]+)`)

// firstConfusion returns accuracy and F1 of the first confusion line.
func firstConfusion(t *testing.T, out string) (acc, f1 float64) {
	t.Helper()
	m := confusionLine.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no confusion line in:\n%s", out)
	}
	acc, _ = strconv.ParseFloat(m[5], 64)
	f1, _ = strconv.ParseFloat(m[8], 64)
	return acc, f1
}

func TestDetectSample(t *testing.T) {
	files := sampleFiles(t)
	before := hashes(t, files)
	dir := t.TempDir()
	code, _, stderr := runCLI(t, append([]string{"detect", "-q", "--out-dir", dir}, files...)...)
	if code != 0 {
		t.Fatalf("detect exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "6 TimeMaps, 14 captures: 8 on-topic, 4 off-topic, 2 not scored") {
		t.Errorf("summary line unexpected: %s", stderr)
	}
	for _, name := range []string{"results.jsonl", "offtopic.json", "offtopic.csv"} {
		if fi, err := os.Stat(filepath.Join(dir, name)); err != nil || fi.Size() == 0 {
			t.Errorf("%s not written: %v", name, err)
		}
	}
	leftovers, _ := filepath.Glob(filepath.Join(dir, ".*tmp*"))
	if len(leftovers) > 0 {
		t.Errorf("temporary files left behind: %v", leftovers)
	}
	f, _ := os.Open(filepath.Join(dir, "offtopic.csv"))
	rows, err := csv.NewReader(f).ReadAll()
	f.Close()
	if err != nil || len(rows) != 15 {
		t.Fatalf("CSV: %d rows (%v), want header + 14", len(rows), err)
	}
	verdicts := map[string]int{}
	vc := slices.Index(rows[0], "verdict")
	for _, r := range rows[1:] {
		verdicts[r[vc]]++
	}
	if verdicts["off-topic"] != 4 || verdicts["not scored"] != 2 {
		t.Errorf("CSV verdicts %v", verdicts)
	}

	code, out, stderr := runCLI(t, "evaluate", "--gold", filepath.Join("..", "..", "testdata", "sample", "gold.tsv"), dir)
	if code != 0 {
		t.Fatalf("evaluate exit %d: %s", code, stderr)
	}
	if acc, f1 := firstConfusion(t, out); acc != 1 || f1 != 1 {
		t.Errorf("sample: accuracy %v F1 %v, want 1 and 1:\n%s", acc, f1, out)
	}
	if after := hashes(t, files); after != before {
		t.Error("detect changed its input files")
	}
}

func hashes(t *testing.T, files []string) string {
	h := sha256.New()
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		h.Write(b)
	}
	return string(h.Sum(nil))
}

func TestDetectBadInput(t *testing.T) {
	files := sampleFiles(t)
	dir := t.TempDir()
	garbage := filepath.Join(dir, "garbage.warc")
	os.WriteFile(garbage, []byte("this is not a WARC file\n"), 0o644)
	missing := filepath.Join(dir, "missing.warc.gz")
	tests := []struct {
		name     string
		args     []string
		wantCode int
		wantErr  string
	}{
		{"no files", []string{"detect"}, 2, "no input: give WARC/ARC files"},
		{"bad measure", []string{"detect", "--measures", "nosuch=1", files[0]}, 2, "unknown measure"},
		{"nothing readable", []string{"detect", "-q", "--out-dir", filepath.Join(dir, "a"), missing, garbage}, 1, "missing.warc.gz"},
		{"one bad file, rest goes on", append([]string{"detect", "-q", "--out-dir", filepath.Join(dir, "b"), missing}, files...), 1, "1 of 4 input files could not be read (see above); the others' results are written"},
		{"strict", append([]string{"detect", "-q", "--strict", "--out-dir", filepath.Join(dir, "c"), missing}, files...), 1, "--strict"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := runCLI(t, tc.args...)
			if code != tc.wantCode || !strings.Contains(stderr, tc.wantErr) {
				t.Errorf("exit %d, stderr %q; want exit %d mentioning %q", code, stderr, tc.wantCode, tc.wantErr)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(dir, "a", "results.jsonl")); err == nil {
		t.Error("a failed run left a results file")
	}
}

func TestTimemapCommand(t *testing.T) {
	dir := t.TempDir()
	code, _, stderr := runCLI(t, append([]string{"timemap", "--out-dir", dir}, sampleFiles(t)...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	count := func(name string) int {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return strings.Count(string(b), "\n")
	}
	if n := count("index.cdxj"); n != 14 {
		t.Errorf("index.cdxj has %d lines, want 14 captures", n)
	}
	if n := count("timemaps.jsonl"); n != 6 {
		t.Errorf("timemaps.jsonl has %d lines, want 6 TimeMaps", n)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "timemaps.link"))
	if n := strings.Count(string(b), `rel="original"`); n != 6 {
		t.Errorf("timemaps.link has %d TimeMaps, want 6", n)
	}
}

func TestVersionAndHelp(t *testing.T) {
	if code, out, _ := runCLI(t, "--version"); code != 0 || !strings.Contains(out, version) {
		t.Errorf("--version: exit %d, %q", code, out)
	}
	if code, out, _ := runCLI(t, "detect", "--help"); code != 0 || !strings.Contains(out, "Examples:") {
		t.Errorf("detect --help: exit %d, %q", code, out)
	}
}

// TestDevCorpusQuality runs the acceptance check: default settings on
// the labelled dev collection reach F1 >= 0.90 and accuracy >= 0.95.
func TestDevCorpusQuality(t *testing.T) {
	dev := testcorpus.Corpus(t, "dev")
	files, _ := filepath.Glob(filepath.Join(dev, "*.warc.gz"))
	out := t.TempDir()
	code, _, stderr := runCLI(t, append([]string{"detect", "-q", "--out-dir", out}, files...)...)
	if code != 0 {
		t.Fatalf("detect exit %d: %s", code, stderr)
	}
	code, res, stderr := runCLI(t, "evaluate", "--gold", filepath.Join(dev, "gold.tsv"), out)
	if code != 0 {
		t.Fatalf("evaluate exit %d: %s", code, stderr)
	}
	acc, f1 := firstConfusion(t, res)
	t.Logf("dev corpus: accuracy %.4f F1 %.4f", acc, f1)
	if f1 < 0.90 || acc < 0.95 {
		t.Errorf("dev corpus: accuracy %.4f F1 %.4f, want >= 0.95 and >= 0.90:\n%s", acc, f1, res)
	}
}

// TestMeaninglessSettings: thresholds and numbers that mean nothing are
// refused with a message naming the flag, before any input is read.
func TestMeaninglessSettings(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--measures", "cosine=NaN"}, "threshold of cosine is NaN"},
		{[]string{"--measures", "cosine=+Inf"}, "threshold of cosine is +Inf"},
		{[]string{"--measures", "wordcount=-Inf"}, "threshold of wordcount is -Inf"},
		{[]string{"--measures", "cosine=1.5"}, "outside its range [0, 1]"},
		{[]string{"--measures", "wordcount=-2"}, "outside its range [-1, 1]"},
		{[]string{"--measures", "levenshtein=-1"}, "outside its range [0, 1000]"},
		{[]string{"--score", "jaccard=NaN"}, "--score: threshold of jaccard is NaN"},
		{[]string{"--workers", "-1"}, "--workers is -1"},
		{[]string{"--min-t0-words", "-5"}, "--min-t0-words is -5"},
		{[]string{"--continuity", "NaN"}, "--continuity"},
		{[]string{"--continuity", "-0.5"}, "--continuity"},
	}
	for _, tc := range tests {
		args := append(append([]string{"detect", "-q", "--out-dir", t.TempDir()}, tc.args...), "no-such-input.warc.gz")
		code, _, stderr := runCLI(t, args...)
		if code != 2 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and %q", tc.args, code, stderr, tc.want)
		}
	}
}
