package report

import (
	"github.com/xuri/excelize/v2"

	"github.com/offtopic/offtopic/similarity"
)

// SheetNew is the sheet a workbook opens on when a collection's state says
// what is new since its previous run.
const SheetNew = "New"

// xlsxNews is one line of the New sheet: a capture new and off-topic, or
// whose verdict changed, or the first capture of a new TimeMap.
type xlsxNews struct {
	what, urir, urim, verdict, was, kind, reason, decision string
	at                                                     any
}

// hasNews reports whether the workbook has a New sheet: the run is one of
// a collection's state after its first.
func (x *XLSXWriter) hasNews() bool {
	rv := x.run.Review
	return rv != nil && !rv.Since.IsZero()
}

// noteNews keeps what of r is new since the previous run (Run.Review).
func (x *XLSXWriter) noteNews(r *similarity.TimeMapResult) {
	rv := x.run.Review
	if !x.hasNews() || !rv.Judged[r.Key] {
		return
	}
	newTM := rv.NewTimeMaps[r.Key]
	for i := range r.Captures {
		c := &r.Captures[i]
		isNew, was := rv.news(r.Key, c)
		what := ""
		switch {
		case was != "":
			what = "verdict changed"
		case isNew && c.Verdict == similarity.VerdictOff:
			what = "new, off-topic"
		case isNew && newTM && i == 0:
			what = "new page"
		default:
			continue
		}
		n := xlsxNews{what: what, urir: c.URIR, urim: c.URIM, verdict: c.Verdict, was: was, kind: c.Kind.Label(), reason: c.Reason}
		if !c.Datetime.IsZero() {
			n.at = c.Datetime.UTC()
		}
		if d, ok := rv.decision(c); ok {
			n.decision = d.Decision
		}
		x.news = append(x.news, n)
	}
}

// newsSheet fills the New sheet (the first, which the workbook opens on):
// what is new since the previous run.
func (x *XLSXWriter) newsSheet() error {
	if !x.hasNews() {
		return nil
	}
	rv, f := x.run.Review, x.f
	rows := [][]any{
		{text("New since " + rv.Since.UTC().Format("2006-01-02 15:04 UTC") + ": captures first seen and off-topic, verdicts that changed, pages first seen")},
		x.header([]string{"what", "uri_r", "uri_m", "datetime", "verdict", "verdict before", "off-topic kind", "reason", DecisionColumn}),
	}
	for _, n := range x.news {
		rows = append(rows, []any{n.what, text(n.urir), text(n.urim), excelize.Cell{StyleID: x.st.date, Value: n.at}, n.verdict, n.was, n.kind, text(n.reason), n.decision})
	}
	if len(x.news) == 0 {
		rows = append(rows, []any{"nothing new"})
	}
	for i, row := range rows {
		cell, _ := excelize.CoordinatesToCellName(1, i+1)
		if err := f.SetSheetRow(SheetNew, cell, &row); err != nil {
			return err
		}
	}
	for col, w := range map[string]float64{"A": 16, "B": 40, "C": 30, "D": 18, "E": 11, "F": 14, "G": 22, "H": 40, "I": 16} {
		if err := f.SetColWidth(SheetNew, col, col, w); err != nil {
			return err
		}
	}
	return nil
}
