package report

import (
	"math"
	"time"

	"github.com/offtopic/offtopic/similarity"
)

// auditRow is what an audit's worklist shows of a document: its topic
// score and time score (NaN where missing), when it was published (yyyymmdd,
// 0 when undated) and how that was found, and whether that is in the window.
type auditRow struct {
	Topic, Time float64
	Published   int
	From        string
	InWindow    bool
	// Dated is set when the results say when the document was published
	// (crawl audit writes it; older results do not).
	Dated bool
	// Why is the verdict: auditOn, auditBelow, auditOutside or auditNS.
	Why int
}

// newAuditRow reads an audited document's row off its capture.
func newAuditRow(c *similarity.CaptureResult) *auditRow {
	a := &auditRow{Topic: math.NaN(), Time: math.NaN()}
	if s, ok := c.Scores[similarity.MeasureTopic]; ok {
		a.Topic = s
	}
	if s, ok := c.Scores["temp_r"]; ok {
		a.Time = s
	}
	if p := c.Published; p != nil {
		a.From, a.InWindow, a.Dated = cutText(p.From, 40), p.InWindow, true
		if !p.Time.IsZero() {
			a.Published = yyyymmdd(p.Time)
		}
	}
	return a
}

// yyyymmdd is a time's UTC day as a number.
func yyyymmdd(t time.Time) int {
	t = t.UTC()
	return t.Year()*10000 + int(t.Month())*100 + t.Day()
}

// auditMeta is what the script needs of an audit: the topic threshold and
// the event's window (yyyy-mm-dd).
type auditMeta struct {
	Threshold float64 `json:"thr"`
	From      string  `json:"from"`
	To        string  `json:"to"`
}
