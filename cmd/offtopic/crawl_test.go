package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/offtopic/offtopic/internal/testcorpus"
)

func TestCrawlCommandDev(t *testing.T) {
	dev := testcorpus.Path(t, "corpus/event-dev")
	if testing.Short() {
		t.Skip("dev corpus crawl skipped in -short mode")
	}
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"offtopic", "crawl", "--spec", filepath.Join(dev, "election2005", "spec.json"),
		"--archive", filepath.Join(dev, "archive"), "--out", out, "--target", "30", "-q",
		"--evaluate", filepath.Join(dev, "election2005", "relevant.tsv"), "--budgets", "10,30"}, nil, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("crawl exit %d: %s", code, stderr.String())
	}
	if !strings.Contains(stdout.String(), "ctg") {
		t.Errorf("no evaluation table: %q", stdout.String())
	}
	log, err := os.ReadFile(filepath.Join(out, "crawl.jsonl"))
	if err != nil || bytes.Count(log, []byte("\n")) != 30 {
		t.Fatalf("crawl log: %v, %d lines", err, bytes.Count(log, []byte("\n")))
	}
	stdout.Reset()
	stderr.Reset()
	det := t.TempDir()
	if code := run(context.Background(), []string{"offtopic", "detect", "--out-dir", det, filepath.Join(out, "election2005.warc.gz")}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("detect on the crawl's WARC: exit %d: %s", code, stderr.String())
	}
}
