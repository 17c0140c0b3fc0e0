package report

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/xuri/excelize/v2"

	"github.com/offtopic/offtopic/similarity"
)

// share is a TimeMap's off-topic share of its scored captures, -1 when none
// was scored.
func (t *xlsxTimeMap) share() float64 {
	if t.on+t.off == 0 {
		return -1
	}
	return float64(t.off) / float64(t.on+t.off)
}

// sortTimeMaps puts TimeMaps in the order both the TimeMaps and the
// Captures sheets list them: pages first, the most off-topic share first,
// then the most off-topic captures, then as written (in key order).
func sortTimeMaps(tms []xlsxTimeMap) {
	slices.SortStableFunc(tms, func(a, b xlsxTimeMap) int {
		if pa, pb := a.kind == kindPage, b.kind == kindPage; pa != pb {
			if pa {
				return -1
			}
			return 1
		}
		if sa, sb := a.share(), b.share(); sa != sb {
			if sa > sb {
				return -1
			}
			return 1
		}
		return b.off - a.off
	})
}

// timeMapsSheet writes the TimeMaps sheet in the order of sortTimeMaps, with
// a filter; each URI-R links to its captures on the Captures sheet, each t0
// to its capture in the archive.
func (x *XLSXWriter) timeMapsSheet() error {
	if x.audit != nil {
		return x.documentsSheet()
	}
	sw, err := x.f.NewStreamWriter(SheetTimeMaps)
	if err != nil {
		return err
	}
	if err := freezeURIAndHeader(sw); err != nil {
		return err
	}
	head := []string{"uri_r", "kind", "captures", "scored", "on-topic", "off-topic", "kept on-topic by the reading", "not scored",
		"off-topic share", "first off-topic", "t0", "t0 reason", "off-topic kinds"}
	for i, wd := range []float64{50, 12, 10, 10, 10, 10, 12, 10, 12, 20, 40, 50, 30} {
		if err := sw.SetColWidth(i+1, i+1, wd); err != nil {
			return err
		}
	}
	if err := sw.SetRow("A1", x.header(head)); err != nil {
		return err
	}
	for i := range x.tmRows {
		t := &x.tmRows[i]
		n := i + 2
		row := []any{text(t.urir), text(t.kind), t.captures, t.on + t.off, t.on, t.off, t.guarded, t.notScored, nil, nil, text(t.t0), text(t.t0Reason), kindLabels(t.offKinds)}
		if t.on+t.off > 0 {
			row[8] = excelize.Cell{StyleID: x.st.share, Value: t.share()}
		}
		if !t.firstOff.IsZero() {
			row[9] = excelize.Cell{StyleID: x.st.date, Value: t.firstOff.UTC()}
		}
		// Links: the URI-R to its first capture on the Captures sheet, t0 to
		// its capture in the archive.
		if t.captures > 0 && len(x.tmLinks) < x.maxLinks {
			x.tmLinks = append(x.tmLinks, xlsxLink{cell: "A" + strconv.Itoa(n), location: "'" + SheetCaptures + "'!A" + strconv.Itoa(t.row)})
			row[0] = excelize.Cell{StyleID: x.st.link, Value: row[0]}
		}
		if linkable(t.t0) {
			if len(x.tmLinks) < x.maxLinks {
				x.tmLinks = append(x.tmLinks, xlsxLink{cell: "K" + strconv.Itoa(n), url: t.t0})
				row[10] = excelize.Cell{StyleID: x.st.link, Value: row[10]}
			} else {
				x.linksEnded = true
			}
		}
		if err := sw.SetRow("A"+strconv.Itoa(n), row); err != nil {
			return err
		}
	}
	if err := x.f.AutoFilter(SheetTimeMaps, fmt.Sprintf("A1:M%d", max(len(x.tmRows)+1, 2)), nil); err != nil {
		return err
	}
	return sw.Flush()
}

// summaryRows collects the Summary sheet's rows; the sheet is small, so
// its rows are written once all are in.
type summaryRows struct {
	rows [][]any
	bold func(string) any
	// paras are the rows of long texts: a text from a column to the last,
	// wrapped in the cells merged between them.
	paras map[int]int
}

func (r *summaryRows) put(vals ...any) { r.rows = append(r.rows, vals) }

// para puts a row whose last value, in column col (0: A), is a long text to
// be wrapped across the columns from there to the last.
func (r *summaryRows) para(col int, vals ...any) {
	if r.paras == nil {
		r.paras = map[int]int{}
	}
	r.paras[len(r.rows)] = col
	r.put(append(vals, make([]any, max(0, col+1-len(vals)))...)...)
}

// summaryWidths are the widths of the Summary's columns, A to F: printed
// landscape one page wide, they keep the text at its size (long texts wrap
// across them; before, a note of 400 characters in one cell made the sheet
// print at a third of its size).
var summaryWidths = []float64{34, 18, 18, 18, 18, 18}

// summaryRow writes row i of r: a long text wrapped in merged cells, with
// the height its lines take.
func (x *XLSXWriter) summaryRow(sw *excelize.StreamWriter, r *summaryRows, i int) error {
	row, cell := r.rows[i], "A"+strconv.Itoa(i+1)
	col, ok := r.paras[i]
	if !ok {
		return sw.SetRow(cell, row)
	}
	s, _ := row[col].(string)
	width := 0.0
	for _, w := range summaryWidths[col:] {
		width += w
	}
	lines := max(1, int(math.Ceil(float64(utf8.RuneCountInString(s))*1.1/width)))
	row[col] = excelize.Cell{StyleID: x.st.para, Value: s}
	if err := sw.SetRow(cell, row, excelize.RowOpts{Height: 15 * float64(lines)}); err != nil {
		return err
	}
	from, _ := excelize.CoordinatesToCellName(col+1, i+1)
	to, _ := excelize.CoordinatesToCellName(len(summaryWidths), i+1)
	return sw.MergeCell(from, to)
}

// summary writes the Summary sheet (the first of the workbook): the run, the
// counts, the measures, notes, and the TimeMaps whose t0 was not the first
// capture.
func (x *XLSXWriter) summary() error {
	sw, err := x.f.NewStreamWriter(SheetSummary)
	if err != nil {
		return err
	}
	for i, w := range summaryWidths {
		if err := sw.SetColWidth(i+1, i+1, w); err != nil {
			return err
		}
	}
	r := &summaryRows{bold: func(s string) any { return excelize.Cell{StyleID: x.st.header, Value: s} }}
	x.summaryRun(r)
	x.summaryCounts(r)
	x.summaryMeasures(r)
	x.summaryNotes(r)
	x.summaryT0s(r)
	for i := range r.rows {
		if err := x.summaryRow(sw, r, i); err != nil {
			return err
		}
	}
	return sw.Flush()
}

// summaryRun describes the run: tool, start, archive, inputs, rule, options.
func (x *XLSXWriter) summaryRun(r *summaryRows) {
	run := x.run
	if run == nil {
		run = &Run{}
	}
	var started any
	if !run.Started.IsZero() {
		started = excelize.Cell{StyleID: x.st.date, Value: run.Started.UTC()}
	}
	r.put(r.bold("offtopic report"))
	r.put("tool", text(strings.TrimSpace(run.Tool+" "+run.Version)))
	r.put("started (UTC)", started)
	r.put("archive URL", text(run.ArchiveURL))
	r.put("inputs", len(run.Inputs))
	for _, in := range run.Inputs {
		r.para(1, nil, text(in))
	}
	r.put("rule (off-topic when a score is below)", text(x.rule.String()))
	for _, k := range slices.Sorted(maps.Keys(run.Options)) {
		r.put("option "+SafeCell(k), text(run.Options[k]))
	}
}

// summaryCounts counts TimeMaps, captures and verdicts, off-topic ones by
// kind.
func (x *XLSXWriter) summaryCounts(r *summaryRows) {
	share := func(a, b int) any {
		if b == 0 {
			return nil
		}
		return excelize.Cell{StyleID: x.st.share, Value: float64(a) / float64(b)}
	}
	s := x.sum
	r.put()
	r.put(r.bold("counts"))
	r.put("TimeMaps", s.timeMaps)
	r.put("captures", s.captures)
	r.put("scored", s.on+s.off)
	r.put("on-topic", s.on)
	r.put("off-topic", s.off, share(s.off, s.on+s.off))
	r.put("not scored", s.notScored)
	for i, k := range similarity.Kinds() {
		if n := s.offKinds[i]; n > 0 {
			r.put("  off-topic: "+k.Label(), n, share(n, s.off))
		}
	}
}

// summaryMeasures lists each measure: in the rule or not, its threshold,
// how many scores crossed it and how many captures it made off-topic.
func (x *XLSXWriter) summaryMeasures(r *summaryRows) {
	r.put()
	r.put(r.bold("measure"), r.bold("in rule"), r.bold("threshold"), r.bold("scored"), r.bold("below threshold"), r.bold("off-topic by this measure"))
	for i, m := range similarity.StandardMeasureNames() {
		in := "no (reported at its default threshold; not shaded)"
		if x.rule.Has(m) {
			in = "yes"
		}
		r.put(m, in, x.thr[i].Value, x.sum.scored[i], x.sum.below[i], x.sum.decided[i])
	}
}

// summaryNotes says how to read and review the workbook.
func (x *XLSXWriter) summaryNotes(r *summaryRows) {
	notes := []string{
		"A capture is off-topic when any measure of the rule is below its threshold (see each capture's reason). On the Captures sheet the scores that made a capture off-topic are shaded red; those below their threshold in a capture the curator's reading kept on-topic, amber. Measures outside the rule are reported, not shaded.",
		"The Captures sheet lists pages most off-topic first, as the TimeMaps sheet does (each URI-R there links to its captures). Printed, each sheet is one page wide, landscape, with its header row on every page; the Captures sheet prints the capture, verdict, decision, reason and scores.",
		"Dates are UTC. Text from archived pages that a spreadsheet could read as a formula starts with an apostrophe; text cells are capped at " + strconv.Itoa(MaxCellChars) + " characters.",
		"Review: choose on-topic, off-topic or unsure in the \"" + DecisionColumn + "\" column of the Captures sheet (beside the verdict), then give the workbook to offtopic evaluate --gold or offtopic prune --decisions.",
		"Text: each capture's excerpt; beside off-topic captures and those the curator's reading kept on-topic (on-topic although a score is below its threshold), t0's excerpt too.",
	}
	if x.run.DefaultArchive() {
		cmd := x.run.Command()
		notes = append(notes, "URI-Ms point at "+DefaultArchiveURL+", the archive URL "+cmd+" uses when none is given: they open only while a Wayback serves the collection there. Run offtopic "+cmd+" with --archive-url set to the collection's Wayback (for Archive-It: https://wayback.archive-it.org/COLLECTION-ID).")
	}
	if x.linksEnded {
		notes = append(notes, fmt.Sprintf("Only the first %d URI-Ms are hyperlinks (Excel allows about 65,530 per sheet); later ones are plain text.", x.capLinks))
	}
	r.put()
	r.put(r.bold("notes"))
	for _, t := range notes {
		r.para(0, t)
	}
}

// summaryT0s lists the TimeMaps whose t0 was not their first capture.
func (x *XLSXWriter) summaryT0s(r *summaryRows) {
	r.put()
	r.put(r.bold(fmt.Sprintf("t0 other than the first capture (%d TimeMaps)", len(x.t0s))))
	if len(x.t0s) > 0 {
		r.put(r.bold("uri_r"), r.bold("first capture"), r.bold("t0"), r.bold("why"))
	}
	for _, t := range x.t0s {
		t0 := text(t.t0)
		if t.t0 == "" {
			t0 = "(none)"
		}
		r.para(3, text(t.urir), text(t.first), t0, text(t.reason))
	}
}

// freezeURIAndHeader keeps a sheet's header row and its first column (the
// URI-R) in view.
func freezeURIAndHeader(sw *excelize.StreamWriter) error {
	return sw.SetPanes(&excelize.Panes{Freeze: true, XSplit: 1, YSplit: 1, TopLeftCell: "B2", ActivePane: "bottomRight",
		Selection: []excelize.Selection{{SQRef: "B2", ActiveCell: "B2", Pane: "bottomRight"}}})
}
