package report

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/offtopic/offtopic/similarity"
)

// auditRun is the run of an audit against an event whose window is 2016.
var auditRun = &Run{Tool: "offtopic", Measures: "topic=0.2", ArchiveURL: "http://wayback.test/coll",
	Options: map[string]string{"audit": "referendum<2016>", "window": "2016-01-01/2016-12-31"}}

// auditedDoc is an audited document as crawl audit writes it.
func auditedDoc(urir string, topic float64, published time.Time, from string, inWindow bool) *similarity.TimeMapResult {
	v := similarity.VerdictOn
	if topic < 0.2 || !inWindow {
		v = similarity.VerdictOff
	}
	when := time.Date(2017, 3, 1, 12, 0, 0, 0, time.UTC)
	return &similarity.TimeMapResult{Key: strings.TrimPrefix(urir, "http://"), URIR: urir, URIT: "http://wayback.test/coll/timemap/link/" + urir,
		T0Reason: "audit against the event's reference documents",
		Captures: []similarity.CaptureResult{{URIR: urir, URIM: "http://wayback.test/coll/" + when.Format("20060102150405") + "/" + urir, Datetime: when,
			Status: 200, MIME: "text/html", Scores: map[string]float64{similarity.MeasureTopic: topic, "temp_r": 0.5},
			Verdict: v, Reason: fmt.Sprintf("topic %.3f", topic), Title: "title of " + urir,
			Published: &similarity.Published{Time: published, From: from, InWindow: inWindow}}}}
}

// auditFixture is an audit's documents: below the threshold, topical but
// outside the window, on-topic, two at the same distance from the
// threshold (written out of URI order), and an undated one.
func auditFixture() []*similarity.TimeMapResult {
	in := time.Date(2016, 5, 1, 0, 0, 0, 0, time.UTC)
	out := time.Date(2019, 7, 1, 0, 0, 0, 0, time.UTC)
	return []*similarity.TimeMapResult{
		auditedDoc("http://z.example/tie", 0.25, in, "meta", true),
		auditedDoc("http://a.example/tie", 0.25, in, "jsonld", true),
		auditedDoc("http://far.example/", 0.9, in, "byline", true),
		auditedDoc("http://below.example/", 0.05, in, "meta", true),
		auditedDoc("http://old.example/", 0.7, out, "first-capture", false),
		auditedDoc("http://near.example/", 0.19, in, "url", true),
		auditedDoc("http://undated.example/", 0.3, time.Time{}, "", false),
	}
}

func renderAudit(t testing.TB) []byte {
	t.Helper()
	return renderHTMLRun(t, auditRun, auditFixture())
}

// TestHTMLAuditData checks what an audit's worklist is drawn from: each
// document's topic, publication date and its source, window and verdict
// (off-topic apart from outside the window), and the cards' counts.
func TestHTMLAuditData(t *testing.T) {
	page := renderAudit(t)
	m, _ := pageData(t, page)
	if m.Audit == nil || m.Audit.Threshold != 0.2 || m.Audit.From != "2016-01-01" || m.Audit.To != "2016-12-31" {
		t.Fatalf("meta audit = %+v, want threshold 0.2 and the window of 2016", m.Audit)
	}
	if m.Name != "referendum-2016" {
		t.Errorf("meta name %q, want the event's", m.Name)
	}
	tests := []struct {
		urir      string
		topic     float64
		published float64
		from      string
		win, why  float64
	}{
		{"http://z.example/tie", 0.25, 20160501, "meta", 1, auditOn},
		{"http://a.example/tie", 0.25, 20160501, "jsonld", 1, auditOn},
		{"http://far.example/", 0.9, 20160501, "byline", 1, auditOn},
		{"http://below.example/", 0.05, 20160501, "meta", 1, auditBelow},
		{"http://old.example/", 0.7, 20190701, "first-capture", 0, auditOutside},
		{"http://near.example/", 0.19, 20160501, "url", 1, auditBelow},
		{"http://undated.example/", 0.3, 0, "", 0, auditOutside},
	}
	if len(m.Rows) != len(tests) {
		t.Fatalf("%d rows, want %d", len(m.Rows), len(tests))
	}
	for i, tc := range tests {
		row := m.Rows[i]
		if len(row) != 14 {
			t.Errorf("row %d has %d fields, want 14 (with the audit's)", i, len(row))
			continue
		}
		a, _ := row[13].([]any)
		if row[0] != tc.urir || len(a) != 6 || a[0] != tc.topic || a[1] != tc.published || a[2] != tc.from || a[3] != tc.win || a[4] != 0.5 || a[5] != tc.why {
			t.Errorf("row %d = %v %v, want %s topic %v published %v from %q window %v why %v", i, row[0], a, tc.urir, tc.topic, tc.published, tc.from, tc.win, tc.why)
		}
	}
	text := string(page)
	for _, want := range []string{`<b>2</b><span>off-topic: topic below the threshold</span>`, `<b>2</b><span>topical, published outside the window</span>`,
		`<b>3</b><span>on-topic, in the window</span>`, `data-col="dist"`, `closest to the topic threshold first`, `referendum&lt;2016&gt;`, `<title>Audit against the event referendum&lt;2016&gt;</title>`} {
		if !strings.Contains(text, want) {
			t.Errorf("the audit's page lacks %s", want)
		}
	}
	// Results from before documents were dated say nothing of the window:
	// the page does not say "outside" either.
	undated := auditedDoc("http://older.example/", 0.5, time.Time{}, "", true)
	undated.Captures[0].Published = nil
	om, _ := pageData(t, renderHTMLRun(t, auditRun, []*similarity.TimeMapResult{undated}))
	if a, _ := om.Rows[0][13].([]any); len(a) != 6 || a[1] != 0.0 || a[3] != nil || a[5] != float64(auditOn) {
		t.Errorf("a document the results do not date: %v, want undated, window unknown, on-topic", om.Rows[0][13])
	}

	// A detection run's page has none of it.
	det := string(renderHTML(t, htmlFixture()))
	dm, _ := pageData(t, []byte(det))
	if dm.Audit != nil || strings.Contains(det, `data-col="dist"`) || len(dm.Rows[0]) != 13 {
		t.Errorf("a detection run's page has an audit's data: %+v, %d fields a row", dm.Audit, len(dm.Rows[0]))
	}
}

// TestXLSXAudit checks an audit's workbook: the TimeMaps sheet lists
// documents closest to the topic threshold first (ties by URI) with their
// publication date, its source, the window and the verdict, "outside the
// window" said as such; the Captures sheet follows that order, says why a
// document was flagged and has the publication columns; decisions still
// read back.
func TestXLSXAudit(t *testing.T) {
	p := writeXLSX(t, auditRun, auditFixture())
	f := openXLSX(t, p)
	tm, err := f.GetRows(SheetTimeMaps)
	if err != nil {
		t.Fatal(err)
	}
	wantHead := []string{"uri_r", "topic", "from the threshold", "published", "date from", "window", "time score", "verdict"}
	if !slices.Equal(tm[0], wantHead) {
		t.Fatalf("TimeMaps header %v, want %v", tm[0], wantHead)
	}
	want := [][]string{
		{"http://near.example/", "0.190", "-0.010", "2016-05-01 00:00:00", "url", "in", "0.500", "off-topic"},
		{"http://a.example/tie", "0.250", "0.050", "2016-05-01 00:00:00", "jsonld", "in", "0.500", "on-topic"},
		{"http://z.example/tie", "0.250", "0.050", "2016-05-01 00:00:00", "meta", "in", "0.500", "on-topic"},
		{"http://undated.example/", "0.300", "0.100", "", "", "outside", "0.500", "outside the window"},
		{"http://below.example/", "0.050", "-0.150", "2016-05-01 00:00:00", "meta", "in", "0.500", "off-topic"},
		{"http://old.example/", "0.700", "0.500", "2019-07-01 00:00:00", "first capture", "outside", "0.500", "outside the window"},
		{"http://far.example/", "0.900", "0.700", "2016-05-01 00:00:00", "byline", "in", "0.500", "on-topic"},
	}
	if len(tm) != len(want)+1 {
		t.Fatalf("%d document rows, want %d", len(tm)-1, len(want))
	}
	for i, w := range want {
		if !slices.Equal(tm[i+1], w) {
			t.Errorf("TimeMaps row %d = %q, want %q", i+2, tm[i+1], w)
		}
		ok, link, _ := f.GetCellHyperLink(SheetTimeMaps, fmt.Sprintf("A%d", i+2))
		if !ok || link != fmt.Sprintf("'%s'!A%d", SheetCaptures, i+2) {
			t.Errorf("TimeMaps A%d links to %q (%v), want its Captures row", i+2, link, ok)
		}
	}
	caps, err := f.GetRows(SheetCaptures)
	if err != nil {
		t.Fatal(err)
	}
	head := caps[0]
	idx := func(name string) int {
		i := slices.Index(head, name)
		if i < 0 {
			t.Fatalf("Captures has no column %q: %v", name, head)
		}
		return i
	}
	cell := func(row []string, name string) string {
		if i := idx(name); i < len(row) {
			return row[i]
		}
		return ""
	}
	for i, w := range want {
		row := caps[i+1]
		kind := map[string]string{"off-topic": "topic below the threshold", "outside the window": "outside the window", "on-topic": ""}[w[7]]
		if cell(row, "uri_r") != w[0] || cell(row, "off-topic kind") != kind || cell(row, "published") != w[3] || cell(row, "date from") != w[4] || cell(row, "window") != w[5] {
			t.Errorf("Captures row %d = %s kind %q published %q from %q window %q; want %v with kind %q",
				i+2, cell(row, "uri_r"), cell(row, "off-topic kind"), cell(row, "published"), cell(row, "date from"), cell(row, "window"), w, kind)
		}
	}
	// A curator's decisions read back from the audit's workbook.
	dec := column(t, DecisionColumn)
	if err := f.SetCellStr(SheetCaptures, dec+"7", "on-topic"); err != nil { // old.example: topical, outside the window
		t.Fatal(err)
	}
	edited := filepath.Join(t.TempDir(), "edited.xlsx")
	if err := f.SaveAs(edited); err != nil {
		t.Fatal(err)
	}
	got, err := ReadDecisions(edited)
	if err != nil {
		t.Fatal(err)
	}
	old := auditFixture()[4]
	if len(got) != 1 || got[similarity.KeyOf(&old.Captures[0])] != DecisionOn {
		t.Errorf("decisions read back %v, want old.example on-topic", got)
	}
}
