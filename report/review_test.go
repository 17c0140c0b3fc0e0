package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/offtopic/offtopic/similarity"
)

// reviewRun is xlsxRun with a collection state's review: the lighthouse
// page judged again, its first capture new and off-topic, its last one
// changed from off-topic, a decision on its t0.
func reviewRun(results []*similarity.TimeMapResult) *Run {
	run := xlsxRun()
	rv := NewReview(time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC))
	lh := results[1]
	rv.Judged[lh.Key] = true
	rv.New[similarity.KeyOf(&lh.Captures[0])] = true
	rv.Changed[similarity.KeyOf(&lh.Captures[2])] = similarity.VerdictOff
	rv.Decisions[similarity.KeyOf(&lh.Captures[1])] = Decision{Decision: DecisionOff, Who: "ann", When: time.Date(2023, 12, 1, 0, 0, 0, 0, time.UTC), From: "/d/week1.csv"}
	run.Review = rv
	return run
}

// TestReviewHTML: with a state's review, the page opens on what is new
// and carries the state's decisions for its script to adopt.
func TestReviewHTML(t *testing.T) {
	results := xlsxResults()
	page := string(renderHTMLRun(t, reviewRun(results), results))
	for _, want := range []string{
		`<option value="new" selected>new since 2024-01-01 00:00 UTC</option>`,
		`id="news-card"><b>1</b><span>new since 2024-01-01 00:00 UTC: 1 captures (1 off-topic), 1 verdicts changed`,
		`id="decided-card"><b>1</b>`, `1 against this run`,
		`"news":[1]`, `"decided":[["org,lighthouse)/ 20100101000000","off-topic",`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page has no %s", want)
		}
	}
	plain := string(renderHTMLRun(t, xlsxRun(), results))
	if strings.Contains(plain, `news-card`) || strings.Contains(plain, `"decided"`) {
		t.Error("a page without a state's review shows news or decisions")
	}
}

// TestReviewXLSX: the workbook opens on the New sheet, which lists the new
// off-topic capture and the changed verdict, and the Captures sheet holds
// the state's decision.
func TestReviewXLSX(t *testing.T) {
	results := xlsxResults()
	f := openXLSX(t, writeXLSX(t, reviewRun(results), results))
	if got := f.GetSheetList(); len(got) != 5 || got[0] != SheetNew || f.GetActiveSheetIndex() != 0 {
		t.Fatalf("sheets %v, active %d: want New first and active", got, f.GetActiveSheetIndex())
	}
	rows, err := f.GetRows(SheetNew)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 4 || rows[2][0] != "new, off-topic" || rows[3][0] != "verdict changed" || rows[3][5] != similarity.VerdictOff {
		t.Errorf("New sheet rows %q", rows)
	}
	col := column(t, DecisionColumn)
	caps, err := f.GetRows(SheetCaptures)
	if err != nil {
		t.Fatal(err)
	}
	decided := 0
	for _, row := range caps[1:] {
		i := int(col[0] - 'A')
		if i < len(row) && row[i] != "" {
			decided++
			if row[i] != DecisionOff || !strings.Contains(strings.Join(row, " "), "20100101000000") {
				t.Errorf("decision %q on row %q", row[i], row)
			}
		}
	}
	if decided != 1 {
		t.Errorf("%d decisions on the Captures sheet, want the state's one", decided)
	}
}

// TestReviewInBrowser: the page opens its worklist on the pages with
// something new, and counts the state's decision as decided and saved (not
// asked again, nothing unsaved).
func TestReviewInBrowser(t *testing.T) {
	chromium := findChromium(t)
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	results := xlsxResults()
	page := filepath.Join(t.TempDir(), "offtopic.html")
	if err := os.WriteFile(page, renderHTMLRun(t, reviewRun(results), results), 0o644); err != nil {
		t.Fatal(err)
	}
	c, ev := watchedPage(t, chromium)
	c.open(t, ev, page)
	c.waitFor(t, "the marks' store to open", `document.getElementById('review').getAttribute('data-store') !== 'opening'`)
	var got struct {
		Show    string
		Rows    []string
		Decided string
		Unsaved string
	}
	if err := c.eval(`({Show: document.getElementById('show').value,
		Rows: Array.from(document.querySelectorAll('#tms tbody tr[data-id]')).map(r => r.cells[0].textContent),
		Decided: document.getElementById('ndec').textContent, Unsaved: document.getElementById('nunsaved').textContent})`, &got); err != nil {
		t.Fatal(err)
	}
	if got.Show != "new" || len(got.Rows) != 1 || !strings.Contains(got.Rows[0], "lighthouse.org") {
		t.Errorf("worklist shows %q: %q, want the lighthouse page alone under new", got.Show, got.Rows)
	}
	if !strings.Contains(got.Decided, "1") || strings.Contains(got.Unsaved, "1") {
		t.Errorf("decided %q, unsaved %q: want the state's decision counted, none unsaved", got.Decided, got.Unsaved)
	}
	if problems, dialogs := ev.take(); len(problems) > 0 || len(dialogs) > 0 {
		t.Errorf("console errors %v, dialogs %v", problems, dialogs)
	}
}
