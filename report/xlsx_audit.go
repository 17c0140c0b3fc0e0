package report

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/xuri/excelize/v2"

	"github.com/offtopic/offtopic/similarity"
)

// xlsxAudit is what the workbook of an audit against an event needs: the
// topic threshold documents are flagged below.
type xlsxAudit struct{ threshold float64 }

// auditDoc is what the TimeMaps sheet of an audit shows of a document.
type auditDoc struct {
	topic, time float64 // NaN where missing
	published   *similarity.Published
	why         int // auditOn, auditBelow, auditOutside or auditNS
}

// auditDoc reads an audited document off its capture.
func (x *XLSXWriter) auditDoc(c *similarity.CaptureResult) *auditDoc {
	d := &auditDoc{topic: math.NaN(), time: math.NaN(), published: c.Published}
	if s, ok := c.Scores[similarity.MeasureTopic]; ok {
		d.topic = s
	}
	if s, ok := c.Scores["temp_r"]; ok {
		d.time = s
	}
	d.why = auditWhy(c.Verdict, crosses(x.rule, similarity.MeasureTopic, d.topic))
	return d
}

// auditCells fills an audited capture's cells: why it was flagged (in the
// off-topic kind column: off-topic, or published outside the window) and
// its publication date, the date's source and the window.
func (x *XLSXWriter) auditCells(c *similarity.CaptureResult, set func(string, any)) {
	topic, ok := c.Scores[similarity.MeasureTopic]
	switch why := auditWhy(c.Verdict, ok && crosses(x.rule, similarity.MeasureTopic, topic)); why {
	case auditBelow:
		set("off-topic kind", "topic below the threshold")
	case auditOutside:
		set("off-topic kind", auditVerdict(why))
	}
	p := c.Published
	if p == nil {
		return
	}
	if !p.Time.IsZero() {
		set("published", excelize.Cell{StyleID: x.st.date, Value: p.Time.UTC()})
	}
	set("date from", text(strings.ReplaceAll(p.From, "-", " ")))
	set("window", windowText(p.InWindow))
}

func windowText(in bool) string {
	if in {
		return "in"
	}
	return "outside"
}

// distance is how far a document's topic is from the threshold (+Inf
// unscored).
func (d *auditDoc) distance(thr float64) float64 {
	if d == nil || math.IsNaN(d.topic) {
		return math.Inf(1)
	}
	return math.Abs(d.topic - thr)
}

// sortDocuments puts an audit's documents closest to the topic threshold
// first (where the verdict is least sure), ties by URI.
func (x *XLSXWriter) sortDocuments(tms []xlsxTimeMap) {
	slices.SortStableFunc(tms, func(a, b xlsxTimeMap) int {
		return cmp.Or(cmp.Compare(a.doc.distance(x.audit.threshold), b.doc.distance(x.audit.threshold)), strings.Compare(a.urir, b.urir))
	})
}

// documentsSheet is the TimeMaps sheet of an audit: a row per document,
// closest to the threshold first, with its topic, the distance to the
// threshold, when it was published and how that was found, whether that
// is in the window, its time score and verdict. Each URI-R links to its row
// on the Captures sheet.
func (x *XLSXWriter) documentsSheet() error {
	sw, err := x.f.NewStreamWriter(SheetTimeMaps)
	if err != nil {
		return err
	}
	if err := freezeURIAndHeader(sw); err != nil {
		return err
	}
	head := []string{"uri_r", "topic", "from the threshold", "published", "date from", "window", "time score", "verdict"}
	for i, wd := range []float64{60, 10, 12, 18, 14, 10, 10, 20} {
		if err := sw.SetColWidth(i+1, i+1, wd); err != nil {
			return err
		}
	}
	if err := sw.SetRow("A1", x.header(head)); err != nil {
		return err
	}
	score := func(v float64) any {
		if math.IsNaN(v) {
			return nil
		}
		return excelize.Cell{StyleID: x.st.score, Value: v}
	}
	for i := range x.tmRows {
		t := &x.tmRows[i]
		n := strconv.Itoa(i + 2)
		d := t.doc
		if d == nil {
			d = &auditDoc{topic: math.NaN(), time: math.NaN(), why: auditNS}
		}
		row := []any{text(t.urir), score(d.topic), nil, nil, nil, nil, score(d.time), auditVerdict(d.why)}
		if !math.IsNaN(d.topic) {
			row[2] = excelize.Cell{StyleID: x.st.score, Value: d.topic - x.audit.threshold}
		}
		if p := d.published; p != nil {
			if !p.Time.IsZero() {
				row[3] = excelize.Cell{StyleID: x.st.date, Value: p.Time.UTC()}
			}
			row[4], row[5] = text(strings.ReplaceAll(p.From, "-", " ")), windowText(p.InWindow)
		}
		if t.captures > 0 && len(x.tmLinks) < x.maxLinks {
			x.tmLinks = append(x.tmLinks, xlsxLink{cell: "A" + n, location: "'" + SheetCaptures + "'!A" + strconv.Itoa(t.row)})
			row[0] = excelize.Cell{StyleID: x.st.link, Value: row[0]}
		}
		if err := sw.SetRow("A"+n, row); err != nil {
			return err
		}
	}
	if err := x.f.AutoFilter(SheetTimeMaps, "A1:H"+strconv.Itoa(max(len(x.tmRows)+1, 2)), nil); err != nil {
		return err
	}
	return sw.Flush()
}
