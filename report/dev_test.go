package report

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/offtopic/offtopic/internal/atomicfile"
	"github.com/offtopic/offtopic/internal/testcorpus"
	"github.com/offtopic/offtopic/similarity"
)

// devResults runs detection with default settings on the dev corpus, or
// skips where ../shared is absent.
func devResults(t *testing.T) []*similarity.TimeMapResult {
	t.Helper()
	dir := testcorpus.Corpus(t, "dev") // skips under -short and where ../shared is absent
	files, _ := filepath.Glob(filepath.Join(dir, "*.warc.gz"))
	if len(files) == 0 {
		t.Skipf("no WARC files in %s", dir)
	}
	out, err := similarity.DetectFiles(context.Background(), files, similarity.Config{Options: similarity.DefaultOptions(), ArchiveURL: "http://localhost:8080/dev"})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestDevCorpusReports writes every report of the dev corpus and checks that
// the XLSX (read back, and exported by LibreOffice) and the HTML (loaded in
// headless Chromium) hold the same counts as the OTMT JSON.
func TestDevCorpusReports(t *testing.T) {
	results := devResults(t)
	dir := t.TempDir()
	run := &Run{Tool: "offtopic", Version: "test", Started: time.Now(), Measures: similarity.DefaultMeasures}
	for _, f := range ReportFormats {
		af, err := atomicfile.Create(filepath.Join(dir, FileName(f)))
		if err != nil {
			t.Fatal(err)
		}
		w, err := New(f, af, run)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range results {
			if err := w.Write(r); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if err := af.Commit(); err != nil {
			t.Fatal(err)
		}
	}

	// The JSON's counts are the reference.
	b, err := os.ReadFile(filepath.Join(dir, FileName("json")))
	if err != nil {
		t.Fatal(err)
	}
	var otmt map[string]map[string]struct {
		Overall string `json:"overall topic status"`
	}
	if err := json.Unmarshal(b, &otmt); err != nil {
		t.Fatal(err)
	}
	captures, off := 0, 0
	for _, mems := range otmt {
		for _, m := range mems {
			captures++
			if m.Overall == similarity.VerdictOff {
				off++
			}
		}
	}
	if len(otmt) != len(results) || off == 0 {
		t.Fatalf("JSON: %d TimeMaps, %d captures, %d off-topic", len(otmt), captures, off)
	}

	// XLSX read back.
	x := openXLSX(t, filepath.Join(dir, FileName("xlsx")))
	rows, err := x.GetRows(SheetCaptures)
	x.Close()
	if err != nil {
		t.Fatal(err)
	}
	vcol := slices.Index(XLSXCapturesHeader(), "verdict")
	xoff := 0
	for _, r := range rows[1:] {
		if vcol < len(r) && r[vcol] == similarity.VerdictOff {
			xoff++
		}
	}
	if len(rows)-1 != captures || xoff != off {
		t.Errorf("XLSX Captures: %d rows, %d off-topic; JSON: %d captures, %d off-topic", len(rows)-1, xoff, captures, off)
	}

	t.Run("libreoffice", func(t *testing.T) {
		out := t.TempDir()
		sheet := slices.Index([]string{SheetSummary, SheetTimeMaps, SheetCaptures, SheetTimeline}, SheetCaptures) + 1
		soffice(t, "--convert-to", "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,true,false,false,"+strconv.Itoa(sheet), "--outdir", out, filepath.Join(dir, FileName("xlsx")))
		matches, _ := filepath.Glob(filepath.Join(out, "*.csv"))
		if len(matches) != 1 {
			t.Fatalf("LibreOffice wrote %v", matches)
		}
		cb, _ := os.ReadFile(matches[0])
		lrows, err := csv.NewReader(bytes.NewReader(cb)).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		loff := 0
		for _, r := range lrows[1:] {
			if r[vcol] == similarity.VerdictOff {
				loff++
			}
		}
		if len(lrows)-1 != captures || loff != off {
			t.Errorf("LibreOffice CSV: %d rows, %d off-topic; JSON: %d captures, %d off-topic", len(lrows)-1, loff, captures, off)
		}
	})
	t.Run("chromium", func(t *testing.T) { devHTMLInBrowser(t, dir, len(otmt), captures, off) })
}

// devHTMLInBrowser loads the dev corpus's HTML report in headless Chromium
// and checks its TimeMap table against the JSON's counts.
func devHTMLInBrowser(t *testing.T, dir string, timemaps, captures, off int) {
	chromium := findChromium(t)
	br := startChromium(t, chromium)
	c := br.page(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ev := c.watch(ctx)
	for _, m := range []string{"Page.enable", "Runtime.enable", "Log.enable"} {
		if err := c.call(m, nil, nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.call("Page.navigate", map[string]any{"url": "file://" + filepath.Join(dir, FileName("html"))}, nil); err != nil {
		t.Fatal(err)
	}
	select {
	case <-ev.loaded:
	case <-time.After(60 * time.Second):
		t.Fatal("HTML report did not load in 60s")
	}
	var got struct{ Rows, Off, Captures, Shown int }
	// The worklist's data (the table shows a page of it at a time).
	if err := c.eval(`(() => { const rows = JSON.parse(document.getElementById('meta').textContent).rows;
		return {Rows: rows.length, Off: rows.reduce((s, r) => s + r[3], 0), Captures: rows.reduce((s, r) => s + r[2], 0),
			Shown: document.querySelectorAll('#tms tbody tr[data-id]').length}; })()`, &got); err != nil {
		t.Fatal(err)
	}
	if got.Shown == 0 {
		t.Error("the worklist shows no page")
	}
	if got.Rows != timemaps || got.Off != off || got.Captures != captures {
		t.Errorf("HTML: %d TimeMaps, %d captures, %d off-topic; JSON: %d, %d, %d", got.Rows, got.Captures, got.Off, timemaps, captures, off)
	}
	if problems, dialogs := ev.take(); len(problems)+len(dialogs) > 0 {
		t.Errorf("HTML of the dev corpus: console problems %v, dialogs %v", problems, dialogs)
	}
}
