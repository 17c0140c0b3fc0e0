package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/offtopic/offtopic/internal/testcorpus"
	"github.com/offtopic/offtopic/report"
	"github.com/offtopic/offtopic/similarity"
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
	if h, err := os.ReadFile(filepath.Join(out, "harvest.html")); err != nil || !bytes.Contains(h, []byte("Relevant pages collected")) ||
		!bytes.Contains(h, []byte(" relevant pages in the archive")) {
		t.Errorf("harvest page: %v, %d bytes, without the relevant pages collected and the archive's", err, len(h))
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

func TestCrawlAuditDev(t *testing.T) {
	dev := testcorpus.Path(t, "corpus/event-dev")
	if testing.Short() {
		t.Skip("dev corpus crawl skipped in -short mode")
	}
	ctx := context.Background()
	out := t.TempDir()
	spec := filepath.Join(dev, "election2005", "spec.json")
	var stdout, stderr bytes.Buffer
	if code := run(ctx, []string{"offtopic", "crawl", "--spec", spec, "--archive", filepath.Join(dev, "archive"), "--out", out,
		"--strategy", "unfocused", "--target", "40", "-q"}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("crawl exit %d: %s", code, stderr.String())
	}
	audit := t.TempDir()
	stdout.Reset()
	if code := run(ctx, []string{"offtopic", "crawl", "audit", "--spec", spec, "--archive", filepath.Join(dev, "archive"), "--out-dir", audit, "-q",
		"--archive-url", "https://wayback.test/coll/", "--evaluate", filepath.Join(dev, "election2005", "relevant.tsv"), out}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("audit exit %d: %s", code, stderr.String())
	}
	for _, name := range []string{"offtopic.html", "offtopic.xlsx", "offtopic.json", "offtopic.csv"} {
		if st, err := os.Stat(filepath.Join(audit, name)); err != nil || st.Size() == 0 {
			t.Errorf("audit report %s: %v", name, err)
		}
	}
	f, err := os.Open(filepath.Join(audit, "results.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n, off := 0, 0
	for r, err := range report.ReadResults(f, "results.jsonl", nil) {
		if err != nil {
			t.Fatal(err)
		}
		n++
		if len(r.Captures) != 1 {
			t.Fatalf("%s: %d captures, want one per document", r.URIR, len(r.Captures))
		}
		c := r.Captures[0]
		if _, ok := c.Scores[similarity.MeasureTopic]; !ok || c.Reason == "" {
			t.Errorf("%s: no topic score or reason: %+v", r.URIR, c)
		}
		// Links go to the archive (--archive-url), never to the live page.
		if !strings.HasPrefix(c.URIM, "https://wayback.test/coll/") || r.URIT != "https://wayback.test/coll/timemap/link/"+r.URIR {
			t.Errorf("%s: URI-M %q, URI-T %q: want them in the archive at --archive-url", r.URIR, c.URIM, r.URIT)
		}
		if p := c.Published; p == nil || p.From == "" || p.InWindow != strings.Contains(c.Reason, "inside the event's window") {
			t.Errorf("%s: published %+v, reason %q", r.URIR, p, c.Reason)
		}
		if c.Verdict == similarity.VerdictOff {
			off++
		}
	}
	if n != 40 || off == 0 || off == n {
		t.Errorf("audit: %d documents, %d flagged: want 40 with some but not all flagged", n, off)
	}
	// Recall of the relevant pages must stay high: the audit prunes, it must
	// not throw away the event.
	var recall float64
	for _, l := range strings.Split(stdout.String(), "\n") {
		if v, ok := strings.CutPrefix(l, "recall\t"); ok {
			fmt.Sscanf(v, "%g", &recall)
		}
	}
	if recall < 0.8 {
		t.Errorf("audit recall %.2f, want at least 0.8:\n%s", recall, stdout.String())
	}
	// prune works on the audit's results: the off-topic documents are left out.
	clean := filepath.Join(t.TempDir(), "clean")
	if code := run(ctx, []string{"offtopic", "prune", "--results", audit, "--out-dir", clean, filepath.Join(out, "election2005.warc.gz")}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("prune exit %d: %s", code, stderr.String())
	}
	ex, err := os.ReadFile(filepath.Join(clean, "excluded.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(strings.TrimSpace(string(ex)), "\n"); got < off {
		t.Errorf("prune excluded %d lines (with header), want the %d flagged documents:\n%s", got, off, ex)
	}
}
