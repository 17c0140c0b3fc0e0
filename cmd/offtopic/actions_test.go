package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/offtopic/offtopic/similarity"
)

// TestActionsWithoutCLI runs commands as their options' run(ctx, env),
// without urfave/cli: detect, evaluate, report and prune on the sample
// collection (issue 37 item 5).
func TestActionsWithoutCLI(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	var stdout, stderr bytes.Buffer
	e := env{stdout: &stdout, stderr: &stderr}
	def := similarity.DefaultSettings()
	detect := &detectOptions{
		out: outputOptions{outDir: out},
		scoring: scoringOptions{measures: def.Measures, score: def.Score, idf: def.IDF, canonicalize: "surt", archiveURL: defaultArchiveURL,
			minT0Words: def.MinT0Words, continuity: def.Continuity},
		runOpts: runOptions{quiet: true},
	}
	e.args = sampleFiles(t)
	if err := detect.run(ctx, e); err != nil {
		t.Fatalf("detect: %v\n%s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "6 TimeMaps, 14 captures: 8 on-topic, 4 off-topic, 2 not scored") {
		t.Errorf("detect said:\n%s", stderr.String())
	}
	gold := filepath.Join(filepath.Dir(e.args[0]), "gold.tsv")
	stdout.Reset()
	e.args = []string{out}
	if err := (&evaluateOptions{gold: gold}).run(ctx, e); err != nil || !strings.Contains(stdout.String(), "F1=1.0000") {
		t.Errorf("evaluate: %v\n%s", err, stdout.String())
	}
	if err := (&reportOptions{format: "html", outDir: filepath.Join(dir, "rep")}).run(ctx, e); err != nil {
		t.Errorf("report: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "rep", "offtopic.html")); err != nil {
		t.Errorf("report wrote no page: %v", err)
	}
	e.args = nil
	if err := (&pruneOptions{results: out, unsure: "keep", mode: "copy"}).run(ctx, e); err != nil {
		t.Errorf("prune: %v\n%s", err, stderr.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "out-pruned", "index.cdxj")); err != nil {
		t.Errorf("prune wrote no copy: %v", err)
	}
}
