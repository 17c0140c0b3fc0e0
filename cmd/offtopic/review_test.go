package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"github.com/offtopic/offtopic/report"
	"github.com/offtopic/offtopic/similarity"
)

// TestReviewRoundTrip: detect, render the spreadsheet, let a curator decide
// two captures against the verdicts, then evaluate against and prune by
// those decisions.
func TestReviewRoundTrip(t *testing.T) {
	files := sampleFiles(t)
	dir := t.TempDir()
	out, reports := filepath.Join(dir, "out"), filepath.Join(dir, "reports")
	if code, _, stderr := runCLI(t, append([]string{"detect", "-q", "--out-dir", out, "--report-dir", reports}, files...)...); code != 0 {
		t.Fatalf("detect: %s", stderr)
	}
	for _, f := range report.ReportFormats {
		if fi, err := os.Stat(filepath.Join(reports, report.FileName(f))); err != nil || fi.Size() == 0 {
			t.Errorf("--report-dir lacks %s: %v", report.FileName(f), err)
		}
	}
	// report re-renders from the results file alone.
	if code, _, stderr := runCLI(t, "report", "--format", "xlsx,html", "--out-dir", filepath.Join(dir, "again"), out); code != 0 {
		t.Fatalf("report: %s", stderr)
	}
	xlsx := filepath.Join(dir, "again", "offtopic.xlsx")

	// The curator overrules: the parked home page is fine (a decision), and
	// an on-topic lens page is not.
	f, err := excelize.OpenFile(xlsx)
	if err != nil {
		t.Fatal(err)
	}
	rows, _ := f.GetRows(report.SheetCaptures)
	head := report.XLSXCapturesHeader()
	ucol, vcol, dcol := slices.Index(head, "uri_r"), slices.Index(head, "verdict"), slices.Index(head, report.DecisionColumn)
	decided := 0
	csv := "key,timestamp,uri_m,uri_r,curator decision\n" // the same decisions as the HTML report saves them
	kcol, tcol := slices.Index(head, "key"), slices.Index(head, "timestamp")
	for i, r := range rows[1:] {
		var d string
		switch {
		case r[ucol] == "http://www.coastallights-society.org/" && r[vcol] == similarity.VerdictOff:
			d = "on-topic"
		case strings.HasSuffix(r[ucol], "/lens.html") && r[vcol] == similarity.VerdictOn && !strings.HasPrefix(r[ucol], "https"):
			if decided == 1 {
				d = "Off-topic"
			}
		}
		if d != "" {
			cell, _ := excelize.CoordinatesToCellName(dcol+1, i+2)
			f.SetCellStr(report.SheetCaptures, cell, d)
			csv += fmt.Sprintf("%q,%s,,,%s\n", r[kcol], r[tcol], d)
			decided++
		}
	}
	reviewed := filepath.Join(dir, "reviewed.xlsx")
	if err := f.SaveAs(reviewed); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if decided != 2 {
		t.Fatalf("made %d decisions, want 2", decided)
	}

	decisionsCSV := filepath.Join(dir, "decisions.csv")
	if err := os.WriteFile(decisionsCSV, []byte(csv), 0o644); err != nil {
		t.Fatal(err)
	}

	// Evaluated against the decisions, detection disagrees on both.
	code, res, stderr := runCLI(t, "evaluate", "--gold", reviewed, "--report", reports, out)
	if code != 0 {
		t.Fatalf("evaluate --gold xlsx: %s", stderr)
	}
	if !strings.Contains(res, "TP=0 FP=1 TN=0 FN=1") || !strings.Contains(res, "off-topic is the positive class") {
		t.Errorf("against the decisions: %s", res)
	}
	if code, res, stderr := runCLI(t, "evaluate", "--gold", decisionsCSV, "--misses", "5", out); code != 0 || !strings.Contains(res, "TP=0 FP=1 TN=0 FN=1") || !strings.Contains(res, "wrong verdicts: 2") {
		t.Errorf("evaluate --gold decisions.csv: exit %d: %s%s", code, res, stderr)
	}
	if _, err := os.Stat(filepath.Join(reports, "evaluation.html")); err != nil {
		t.Errorf("evaluate --report wrote no page: %v", err)
	}

	// Prune honours the decisions: 4 off-topic - 1 overruled + 1 decided.
	clean := filepath.Join(dir, "clean")
	code, _, stderr = runCLI(t, "prune", "--results", out, "--decisions", reviewed, "--out-dir", clean)
	if code != 0 {
		t.Fatalf("prune: %s", stderr)
	}
	// The parts of the summary add up to its whole.
	if !strings.Contains(stderr, "2 curator decisions: 1 off-topic, 1 on-topic, 0 unsure\n") ||
		!strings.Contains(stderr, "4 captures left out: 3 off-topic by verdict, 1 by curator decision\n") || !strings.Contains(stderr, "(10 captures)") {
		t.Errorf("prune summary: %s", stderr)
	}
	if code, _, stderr := runCLI(t, "prune", "--results", out, "--decisions", decisionsCSV, "--out-dir", filepath.Join(dir, "clean-csv")); code != 0 ||
		!strings.Contains(stderr, "4 captures left out: 3 off-topic by verdict, 1 by curator decision\n") || !strings.Contains(stderr, "(10 captures)") {
		t.Errorf("prune --decisions decisions.csv: exit %d: %s", code, stderr)
	}
	matches, _ := filepath.Glob(filepath.Join(clean, "*.warc.gz"))
	code, _, stderr = runCLI(t, append([]string{"timemap", "--out-dir", filepath.Join(dir, "tm")}, matches...)...)
	if code != 0 || !strings.Contains(stderr, "10 captures") {
		t.Errorf("timemap on the pruned copy: exit %d: %s", code, stderr)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "tm", "index.cdxj"))
	if !strings.Contains(string(b), "org,coastallights-society)/ 20110620140000") {
		t.Error("the capture the curator kept is not in the copy")
	}

	// ACL mode writes rules and a filtered index.
	acl := filepath.Join(dir, "acl")
	code, _, stderr = runCLI(t, "prune", "--results", out, "--mode", "acl", "--out-dir", acl)
	if code != 0 || !strings.Contains(stderr, "4 rules exclude 4 of 4") {
		t.Errorf("prune --mode acl: exit %d: %s", code, stderr)
	}
	kept, _ := os.ReadFile(filepath.Join(acl, "kept.cdxj"))
	if n := strings.Count(string(kept), "\n"); n != 10 {
		t.Errorf("kept.cdxj has %d captures, want 10", n)
	}
}

// TestReportDirAlone: --report-dir alone writes everything there and nothing
// into ./offtopic-out.
func TestReportDirAlone(t *testing.T) {
	var files []string
	for _, f := range sampleFiles(t) {
		abs, err := filepath.Abs(f)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, abs)
	}
	dir := t.TempDir()
	t.Chdir(dir)
	if code, _, stderr := runCLI(t, append([]string{"detect", "-q", "--report-dir", "reports"}, files...)...); code != 0 {
		t.Fatalf("detect: %s", stderr)
	}
	for _, f := range report.ReportFormats {
		if _, err := os.Stat(filepath.Join(dir, "reports", report.FileName(f))); err != nil {
			t.Errorf("--report-dir lacks %s: %v", report.FileName(f), err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "offtopic-out")); err == nil {
		t.Error("--report-dir alone also wrote ./offtopic-out")
	}
}
