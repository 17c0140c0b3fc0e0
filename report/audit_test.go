package report

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/offtopic/offtopic/similarity"
)

// auditRun is the run of an audit against an event whose window is 2016.
var auditRun = &Run{Tool: "offtopic", Measures: "topic=0.2", ArchiveURL: "http://wayback.test/coll",
	Options: map[string]string{"audit": "referendum<2016>", "window": "2016-01-01/2016-12-31"}}

// auditDoc is an audited document as crawl audit writes it.
func auditDoc(urir string, topic float64, published time.Time, from string, inWindow bool) *similarity.TimeMapResult {
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
		auditDoc("http://z.example/tie", 0.25, in, "meta", true),
		auditDoc("http://a.example/tie", 0.25, in, "jsonld", true),
		auditDoc("http://far.example/", 0.9, in, "byline", true),
		auditDoc("http://below.example/", 0.05, in, "meta", true),
		auditDoc("http://old.example/", 0.7, out, "first-capture", false),
		auditDoc("http://near.example/", 0.19, in, "url", true),
		auditDoc("http://undated.example/", 0.3, time.Time{}, "", false),
	}
}

func renderAudit(t testing.TB) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewHTMLWriter(&buf, auditRun)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range auditFixture() {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
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
		`<b>3</b><span>on-topic, in the window</span>`, `data-col="dist"`, `closest to the topic threshold first`, `referendum&lt;2016&gt;`} {
		if !strings.Contains(text, want) {
			t.Errorf("the audit's page lacks %s", want)
		}
	}
	// A detection run's page has none of it.
	det := string(renderHTML(t, htmlFixture()))
	dm, _ := pageData(t, []byte(det))
	if dm.Audit != nil || strings.Contains(det, `data-col="dist"`) || len(dm.Rows[0]) != 13 {
		t.Errorf("a detection run's page has an audit's data: %+v, %d fields a row", dm.Audit, len(dm.Rows[0]))
	}
}
