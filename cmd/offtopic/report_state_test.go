package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/offtopic/offtopic/report"
	"github.com/offtopic/offtopic/state"
)

// TestReportFromState: reports made again from the results of a grown
// collection's run are those detect wrote (what is new since the previous
// run included), show decisions taken in since, and find the state beside
// the results or where --state says; results away from their state get
// no news and no decisions.
func TestReportFromState(t *testing.T) {
	dir := t.TempDir()
	files := sampleFiles(t)
	review := filepath.Join(dir, "review")
	db := filepath.Join(review, state.DefaultName)
	detect := func(files []string) {
		t.Helper()
		if code, _, stderr := runCLI(t, append([]string{"detect", "-q", "--state", db, "--report-dir", review}, files...)...); code != 0 {
			t.Fatalf("detect --state: exit %d: %s", code, stderr)
		}
	}
	detect(files[:len(files)-1])
	detect(files)
	remake := func(out string, args ...string) (page, book []byte, stderr string) {
		t.Helper()
		code, _, stderr := runCLI(t, append([]string{"report", "--format", "html,xlsx", "--out-dir", out}, args...)...)
		if code != 0 {
			t.Fatalf("report %s: exit %d: %s", strings.Join(args, " "), code, stderr)
		}
		return readFile(t, filepath.Join(out, report.FileName("html"))), xlsxText(t, filepath.Join(out, report.FileName("xlsx"))), stderr
	}
	page, book, stderr := remake(filepath.Join(dir, "again"), review)
	if !bytes.Equal(page, readFile(t, filepath.Join(review, report.FileName("html")))) {
		t.Error("the HTML report made again from the results is not the one detect wrote")
	}
	if !bytes.Equal(book, xlsxText(t, filepath.Join(review, report.FileName("xlsx")))) {
		t.Error("the XLSX report made again from the results is not the one detect wrote")
	}
	if !strings.Contains(stderr, "what was new since") || !bytes.Contains(page, []byte(`id="news-card"`)) || !bytes.Contains(book, []byte("New since ")) {
		t.Errorf("the reports made again say nothing of what was new; report says:\n%s", stderr)
	}

	if n := decidedRows(book); n != 0 {
		t.Errorf("before any decision, the XLSX report shows %d", n)
	}

	// Decisions taken in after detect show in reports made again.
	decisions := filepath.Join(dir, "decisions.csv")
	writeDecisions(t, decisions, review, 2)
	if code, _, stderr := runCLI(t, "decisions", "import", "--state", db, decisions); code != 0 {
		t.Fatalf("decisions import: exit %d: %s", code, stderr)
	}
	page, book, _ = remake(filepath.Join(dir, "decided"), review)
	if !bytes.Contains(page, []byte(`"decided":[[`)) || !bytes.Contains(page, []byte(`id="news-card"`)) {
		t.Error("the HTML report made again after decisions were taken in shows no decision or no news")
	}
	if n := decidedRows(book); n != 2 {
		t.Errorf("the XLSX report made again shows %d decisions on its Captures sheet, want the 2 taken in", n)
	}

	// The results away from their state: nothing from it, unless named.
	away := filepath.Join(dir, "away")
	if err := os.MkdirAll(away, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(away, report.FileName("jsonl")), readFile(t, filepath.Join(review, report.FileName("jsonl"))), 0o644); err != nil {
		t.Fatal(err)
	}
	page, _, _ = remake(filepath.Join(dir, "alone"), away)
	if bytes.Contains(page, []byte(`"decided":[[`)) || bytes.Contains(page, []byte(`id="news-card"`)) {
		t.Error("results without a state beside them got news or decisions")
	}
	named, _, _ := remake(filepath.Join(dir, "named"), "--state", db, away)
	if want, _, _ := remake(filepath.Join(dir, "beside"), review); !bytes.Equal(named, want) {
		t.Error("report --state STATE differs from report with the state beside the results")
	}
	if code, _, stderr := runCLI(t, "report", "--state", filepath.Join(dir, "none.sqlite"), away); code != 2 {
		t.Errorf("report --state with no such file: exit %d, want 2: %s", code, stderr)
	}
}

// decidedRows counts the rows of the Captures sheet (as xlsxText writes
// it) with a curator decision.
func decidedRows(book []byte) int {
	_, captures, _ := strings.Cut(string(book), "## "+report.SheetCaptures+"\n")
	captures, _, _ = strings.Cut(captures, "\n## ")
	lines := strings.Split(captures, "\n")
	col := slices.Index(strings.Split(lines[0], "\t"), report.DecisionColumn)
	n := 0
	for _, l := range lines[1:] {
		if f := strings.Split(l, "\t"); col >= 0 && col < len(f) && f[col] != "" {
			n++
		}
	}
	return n
}
