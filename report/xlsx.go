package report

import (
	"archive/zip"
	"bufio"
	"bytes"
	"container/heap"
	"encoding/xml"
	"fmt"
	"io"
	"io/fs"
	"math"
	"net/url"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/offtopic/offtopic/similarity"
)

// Sheet names of the XLSX report, in workbook order.
const (
	SheetSummary  = "Summary"
	SheetTimeMaps = "TimeMaps"
	SheetCaptures = "Captures"
	SheetTimeline = "Timeline"
)

// DecisionColumn heads the column of the Captures sheet that a curator fills
// in with one of DecisionOn, DecisionOff or DecisionUnsure.
const DecisionColumn = "curator decision"

// Values offered by the drop-down of the decision column.
const (
	DecisionOn     = similarity.VerdictOn
	DecisionOff    = similarity.VerdictOff
	DecisionUnsure = "unsure"
)

// TimelineTimeMaps is how many of the most affected TimeMaps (most off-topic
// captures) the Timeline sheet charts.
const TimelineTimeMaps = 10

// MaxXLSXLinks is how many URI-M cells of the Captures sheet get a hyperlink:
// Excel refuses more than about 65,530 hyperlinks in one worksheet, so later
// rows carry the URI-M as plain text.
const MaxXLSXLinks = excelize.TotalSheetHyperlinks

// Header of the Captures sheet around the measure columns.
var (
	capHeadBefore = []string{"uri_r", "uri_m", "datetime", "status", "mime", "title", "word_count", "byte_count", "extractor", "lang"}
	capHeadAfter  = []string{"verdict", "reason", "t0", DecisionColumn, "key", "timestamp"}
)

// XLSXCapturesHeader is the header row of the Captures sheet. The last two
// columns (key, timestamp) are hidden: with them a reviewed workbook can be
// matched back to the captures (see ReadDecisions).
func XLSXCapturesHeader() []string {
	h := slices.Clone(capHeadBefore)
	h = append(h, similarity.StandardMeasureNames()...)
	return append(h, capHeadAfter...)
}

// XLSXWriter writes the XLSX report: Summary, TimeMaps, Captures (a row per
// capture, with a drop-down for the curator's decision) and Timeline (charts
// of the measures over time for the most affected TimeMaps). Rows are
// streamed to disk-backed buffers as TimeMaps arrive; what is kept in memory
// is a small note per TimeMap, the URI-Ms to link, and the series of the
// TimeMaps the Timeline charts.
type XLSXWriter struct {
	w    io.Writer
	run  *Run
	rule similarity.Rule
	// thr is the highlighting threshold of each measure of StandardMeasureNames.
	thr []similarity.Threshold

	f          *excelize.File
	tms, caps  *excelize.StreamWriter
	st         xlsxStyles
	tmRow      int
	capRow     int
	row        []any
	links      []xlsxLink // URI-M hyperlinks of the Captures sheet
	maxLinks   int        // MaxXLSXLinks; lowered by tests
	linksEnded bool       // a URI-M was left unlinked because of MaxXLSXLinks

	sum    xlsxTotals
	t0s    []t0Note
	top    timelineHeap
	closed bool
}

type xlsxStyles struct {
	header, date, score, share, link, wrap int
	low, off                               int // conditional formats (dxf)
}

// xlsxTotals are the counts the Summary sheet reports.
type xlsxTotals struct {
	timeMaps, captures, on, off, notScored int
	scored, below, decided                 []int // per measure of StandardMeasureNames
}

// xlsxLink is the hyperlink of the URI-M cell of a Captures row.
type xlsxLink struct {
	row int
	url string
}

// t0Note records a TimeMap whose t0 was not its first capture.
type t0Note struct {
	urir, first, t0, reason string
}

// NewXLSXWriter starts an XLSX report that Close writes to w. run describes
// the detection run; its rule decides the thresholds shown and highlighted.
func NewXLSXWriter(w io.Writer, run *Run) (*XLSXWriter, error) {
	rule, err := run.Rule()
	if err != nil {
		return nil, err
	}
	x := &XLSXWriter{w: w, run: run, rule: rule, f: excelize.NewFile(), maxLinks: MaxXLSXLinks}
	x.sum.scored = make([]int, len(similarity.StandardMeasureNames()))
	x.sum.below = make([]int, len(similarity.StandardMeasureNames()))
	x.sum.decided = make([]int, len(similarity.StandardMeasureNames()))
	for _, m := range similarity.StandardMeasureNames() {
		x.thr = append(x.thr, thresholdOf(rule, m))
	}
	if err := x.setup(); err != nil {
		x.f.Close()
		return nil, fmt.Errorf("xlsx report: %w", err)
	}
	return x, nil
}

// thresholdOf is the rule's threshold of a measure, or its default.
func thresholdOf(rule similarity.Rule, m string) similarity.Threshold {
	for _, t := range rule {
		if t.Measure == m {
			return t
		}
	}
	d, _ := similarity.LookupMeasure(m)
	return similarity.Threshold{Measure: m, Value: d.Threshold}
}

func (x *XLSXWriter) setup() error {
	f := x.f
	if err := f.SetSheetName(f.GetSheetName(0), SheetSummary); err != nil {
		return err
	}
	for _, s := range []string{SheetTimeMaps, SheetCaptures, SheetTimeline} {
		if _, err := f.NewSheet(s); err != nil {
			return err
		}
	}
	var err error
	newStyle := func(s *excelize.Style) int {
		if err != nil {
			return 0
		}
		var id int
		id, err = f.NewStyle(s)
		return id
	}
	dateFmt, scoreFmt := "yyyy-mm-dd hh:mm:ss", "0.000"
	x.st = xlsxStyles{
		header: newStyle(&excelize.Style{Font: &excelize.Font{Bold: true}, Fill: excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{"DDEBF7"}}}),
		date:   newStyle(&excelize.Style{CustomNumFmt: &dateFmt}),
		score:  newStyle(&excelize.Style{CustomNumFmt: &scoreFmt}), // as reasons print them; the cell keeps the full value
		share:  newStyle(&excelize.Style{NumFmt: 10}),
		link:   newStyle(&excelize.Style{Font: &excelize.Font{Color: "0563C1", Underline: "single"}}),
		wrap:   newStyle(&excelize.Style{Alignment: &excelize.Alignment{Vertical: "top"}}),
	}
	if err != nil {
		return err
	}
	if x.st.low, err = f.NewConditionalStyle(&excelize.Style{Font: &excelize.Font{Color: "9C0006"},
		Fill: excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{"FFC7CE"}}}); err != nil {
		return err
	}
	if x.st.off, err = f.NewConditionalStyle(&excelize.Style{Font: &excelize.Font{Color: "9C0006", Bold: true}}); err != nil {
		return err
	}

	// TimeMaps: panes and widths go before the first row.
	if x.tms, err = f.NewStreamWriter(SheetTimeMaps); err != nil {
		return err
	}
	if err := frozenHeader(x.tms); err != nil {
		return err
	}
	for i, wd := range []float64{50, 10, 10, 10, 10, 10, 10, 20, 60, 60} {
		if err := x.tms.SetColWidth(i+1, i+1, wd); err != nil {
			return err
		}
	}
	if err := x.tms.SetRow("A1", x.header([]string{"uri_r", "captures", "scored", "on-topic", "off-topic", "not scored",
		"off-topic share", "first off-topic", "t0", "t0 reason"})); err != nil {
		return err
	}
	x.tmRow = 1

	if x.caps, err = f.NewStreamWriter(SheetCaptures); err != nil {
		return err
	}
	if err := frozenHeader(x.caps); err != nil {
		return err
	}
	head := XLSXCapturesHeader()
	widths := map[string]float64{"uri_r": 40, "uri_m": 60, "datetime": 20, "mime": 14, "title": 40, "reason": 50, DecisionColumn: 16}
	for i, h := range head {
		wd, ok := widths[h]
		if !ok {
			wd = 11
		}
		if err := x.caps.SetColWidth(i+1, i+1, wd); err != nil {
			return err
		}
	}
	if err := x.caps.SetColVisible(len(head)-1, len(head), false); err != nil {
		return err
	}
	if err := x.caps.SetRow("A1", x.header(head)); err != nil {
		return err
	}
	x.capRow = 1
	x.row = make([]any, len(head))
	return nil
}

func frozenHeader(sw *excelize.StreamWriter) error {
	return sw.SetPanes(&excelize.Panes{Freeze: true, YSplit: 1, TopLeftCell: "A2", ActivePane: "bottomLeft",
		Selection: []excelize.Selection{{SQRef: "A2", ActiveCell: "A2", Pane: "bottomLeft"}}})
}

func (x *XLSXWriter) header(names []string) []any {
	row := make([]any, len(names))
	for i, n := range names {
		row[i] = excelize.Cell{StyleID: x.st.header, Value: n}
	}
	return row
}

// text is a text cell from a page or an input: neutralised, capped, and
// always written as a string (an inline string, never a formula).
func text(s string) any {
	if s == "" {
		return nil
	}
	return SafeCell(s)
}

// linkable reports whether a URI-M can be a hyperlink: an absolute http(s)
// URL short enough to survive SafeCell unchanged.
func linkable(s string) bool {
	if len(s) > MaxCellChars || strings.ContainsAny(s, " \t\r\n\"<>") {
		return false
	}
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

// Write adds one TimeMap: its row of the TimeMaps sheet and a row per capture
// of the Captures sheet.
func (x *XLSXWriter) Write(r *similarity.TimeMapResult) error {
	if x.closed {
		return fmt.Errorf("xlsx report: write after close")
	}
	on, off, ns := r.Counts()
	x.sum.timeMaps++
	x.sum.captures += len(r.Captures)
	x.sum.on, x.sum.off, x.sum.notScored = x.sum.on+on, x.sum.off+off, x.sum.notScored+ns

	var firstOff time.Time
	for i := range r.Captures {
		c := &r.Captures[i]
		if c.Verdict == similarity.VerdictOff && firstOff.IsZero() {
			firstOff = c.Datetime
		}
		if err := x.captureRow(c); err != nil {
			return fmt.Errorf("xlsx report: TimeMap %s: %w", r.URIR, err)
		}
	}

	x.tmRow++
	row := []any{text(r.URIR), len(r.Captures), on + off, on, off, ns, nil, nil, text(r.T0), text(r.T0Reason)}
	if on+off > 0 {
		row[6] = excelize.Cell{StyleID: x.st.share, Value: float64(off) / float64(on+off)}
	}
	if !firstOff.IsZero() {
		row[7] = excelize.Cell{StyleID: x.st.date, Value: firstOff.UTC()}
	}
	if err := x.tms.SetRow("A"+strconv.Itoa(x.tmRow), row); err != nil {
		return fmt.Errorf("xlsx report: TimeMap %s: %w", r.URIR, err)
	}

	if len(r.Captures) > 0 && r.T0 != r.Captures[0].URIM {
		x.t0s = append(x.t0s, t0Note{urir: r.URIR, first: r.Captures[0].URIM, t0: r.T0, reason: r.T0Reason})
	}
	if off > 0 {
		x.top.offer(r, off, on+off)
	}
	return nil
}

func (x *XLSXWriter) captureRow(c *similarity.CaptureResult) error {
	x.capRow++
	row := x.row
	clear(row)
	row[0] = text(c.URIR)
	row[1] = text(c.URIM)
	if linkable(c.URIM) {
		if len(x.links) < x.maxLinks {
			x.links = append(x.links, xlsxLink{row: x.capRow, url: c.URIM})
			row[1] = excelize.Cell{StyleID: x.st.link, Value: row[1]}
		} else {
			x.linksEnded = true
		}
	}
	if !c.Datetime.IsZero() {
		row[2] = excelize.Cell{StyleID: x.st.date, Value: c.Datetime.UTC()}
	}
	row[3] = c.Status
	row[4] = text(c.MIME)
	row[5] = text(c.Title)
	row[6] = c.WordCount
	row[7] = c.ByteCount
	row[8] = text(c.Extractor)
	row[9] = text(c.Lang)
	n := len(capHeadBefore)
	var crossed []similarity.Threshold
	if c.Verdict == similarity.VerdictOff {
		crossed = x.rule.Crossed(c.Scores)
	}
	for i, m := range similarity.StandardMeasureNames() {
		s, ok := c.Scores[m]
		if !ok || math.IsNaN(s) || math.IsInf(s, 0) {
			continue
		}
		row[n+i] = excelize.Cell{StyleID: x.st.score, Value: s}
		x.sum.scored[i]++
		if x.thr[i].Crossed(s) {
			x.sum.below[i]++
		}
		if slices.ContainsFunc(crossed, func(t similarity.Threshold) bool { return t.Measure == m }) {
			x.sum.decided[i]++
		}
	}
	n += len(similarity.StandardMeasureNames())
	row[n] = text(c.Verdict)
	row[n+1] = text(c.Reason)
	if c.IsT0 {
		row[n+2] = "t0"
	}
	// row[n+3]: the curator's decision, empty
	k := similarity.KeyOf(c)
	row[n+4] = text(k.Key)
	row[n+5] = k.TS
	return x.caps.SetRow("A"+strconv.Itoa(x.capRow), row)
}

// Close writes the Summary and Timeline sheets, adds the Captures sheet's
// filter, drop-down and highlighting, and writes the workbook to w.
func (x *XLSXWriter) Close() error {
	if x.closed {
		return nil
	}
	x.closed = true
	defer x.f.Close()
	if err := x.finishCaptures(); err != nil {
		return fmt.Errorf("xlsx report: Captures sheet: %w", err)
	}
	if err := x.tms.Flush(); err != nil {
		return fmt.Errorf("xlsx report: TimeMaps sheet: %w", err)
	}
	if err := x.timeline(); err != nil {
		return fmt.Errorf("xlsx report: Timeline sheet: %w", err)
	}
	if err := x.summary(); err != nil {
		return fmt.Errorf("xlsx report: Summary sheet: %w", err)
	}
	if err := x.save(); err != nil {
		return fmt.Errorf("xlsx report: %w", err)
	}
	return nil
}

// finishCaptures adds what must come between NewStreamWriter and Flush
// (excelize drops it silently otherwise): autofilter, drop-down and
// conditional formats over the data rows.
func (x *XLSXWriter) finishCaptures() error {
	head := XLSXCapturesHeader()
	last := max(x.capRow, 2)
	lastCol, _ := excelize.ColumnNumberToName(len(head))
	if err := x.f.AutoFilter(SheetCaptures, "A1:"+lastCol+strconv.Itoa(last), nil); err != nil {
		return err
	}
	col := func(i int) string { c, _ := excelize.ColumnNumberToName(i + 1); return c }
	dec := col(slices.Index(head, DecisionColumn))
	dv := excelize.NewDataValidation(true)
	dv.Sqref = fmt.Sprintf("%s2:%s%d", dec, dec, last)
	if err := dv.SetDropList([]string{DecisionOn, DecisionOff, DecisionUnsure}); err != nil {
		return err
	}
	dv.SetError(excelize.DataValidationErrorStyleStop, "Curator decision", "Choose on-topic, off-topic or unsure.")
	if err := x.f.AddDataValidation(SheetCaptures, dv); err != nil {
		return err
	}
	for i, t := range x.thr {
		c := col(len(capHeadBefore) + i)
		formula := fmt.Sprintf("AND(ISNUMBER(%s2),%s2%s%s)", c, c, t.Op(), strconv.FormatFloat(t.Value, 'f', -1, 64))
		if err := x.f.SetConditionalFormat(SheetCaptures, fmt.Sprintf("%s2:%s%d", c, c, last),
			[]excelize.ConditionalFormatOptions{{Type: "formula", Criteria: formula, Format: &x.st.low}}); err != nil {
			return err
		}
	}
	v := col(slices.Index(head, "verdict"))
	if err := x.f.SetConditionalFormat(SheetCaptures, fmt.Sprintf("%s2:%s%d", v, v, last),
		[]excelize.ConditionalFormatOptions{{Type: "cell", Criteria: "==", Value: `"` + similarity.VerdictOff + `"`, Format: &x.st.off}}); err != nil {
		return err
	}
	return x.caps.Flush()
}

// summary writes the Summary sheet (the first of the workbook).
func (x *XLSXWriter) summary() error {
	sw, err := x.f.NewStreamWriter(SheetSummary)
	if err != nil {
		return err
	}
	if err := sw.SetColWidth(1, 1, 34); err != nil {
		return err
	}
	if err := sw.SetColWidth(2, 7, 18); err != nil {
		return err
	}
	if err := sw.SetColWidth(3, 4, 60); err != nil {
		return err
	}
	n := 0
	put := func(vals ...any) error {
		n++
		return sw.SetRow("A"+strconv.Itoa(n), vals)
	}
	bold := func(s string) any { return excelize.Cell{StyleID: x.st.header, Value: s} }
	run := x.run
	if run == nil {
		run = &Run{}
	}
	rows := [][]any{
		{bold("offtopic report")},
		{"tool", text(strings.TrimSpace(run.Tool + " " + run.Version))},
		{"started (UTC)", nil},
		{"archive URL", text(run.ArchiveURL)},
		{"inputs", len(run.Inputs)},
	}
	if !run.Started.IsZero() {
		rows[2][1] = excelize.Cell{StyleID: x.st.date, Value: run.Started.UTC()}
	}
	for _, r := range rows {
		if err := put(r...); err != nil {
			return err
		}
	}
	for _, in := range run.Inputs {
		if err := put(nil, text(in)); err != nil {
			return err
		}
	}
	if err := put("rule (off-topic when a score is below)", text(x.rule.String())); err != nil {
		return err
	}
	opts := make([]string, 0, len(run.Options))
	for k := range run.Options {
		opts = append(opts, k)
	}
	slices.Sort(opts)
	for _, k := range opts {
		if err := put("option "+SafeCell(k), text(run.Options[k])); err != nil {
			return err
		}
	}
	share := func(a, b int) any {
		if b == 0 {
			return nil
		}
		return excelize.Cell{StyleID: x.st.share, Value: float64(a) / float64(b)}
	}
	s := x.sum
	for _, r := range [][]any{
		nil,
		{bold("counts")},
		{"TimeMaps", s.timeMaps},
		{"captures", s.captures},
		{"scored", s.on + s.off},
		{"on-topic", s.on},
		{"off-topic", s.off, share(s.off, s.on+s.off)},
		{"not scored", s.notScored},
		nil,
		{bold("measure"), bold("in rule"), bold("threshold"), bold("scored"), bold("below threshold"), bold("off-topic by this measure")},
	} {
		if err := put(r...); err != nil {
			return err
		}
	}
	for i, m := range similarity.StandardMeasureNames() {
		in := "no (default threshold, highlighted only)"
		if x.rule.Has(m) {
			in = "yes"
		}
		if err := put(m, in, x.thr[i].Value, s.scored[i], s.below[i], s.decided[i]); err != nil {
			return err
		}
	}
	notes := []string{
		"A capture is off-topic when any measure of the rule is below its threshold (see each capture's reason); scores below a measure's threshold are highlighted on the Captures sheet.",
		"Dates are UTC. Text from archived pages that a spreadsheet could read as a formula starts with an apostrophe; text cells are capped at " + strconv.Itoa(MaxCellChars) + " characters.",
		"Review: choose on-topic, off-topic or unsure in the \"" + DecisionColumn + "\" column of the Captures sheet, then give the workbook to offtopic evaluate --gold or offtopic prune --decisions.",
	}
	if x.linksEnded {
		notes = append(notes, fmt.Sprintf("Only the first %d URI-Ms are hyperlinks (Excel allows about 65,530 per sheet); later ones are plain text.", len(x.links)))
	}
	if err := put(); err != nil {
		return err
	}
	if err := put(bold("notes")); err != nil {
		return err
	}
	for _, t := range notes {
		if err := put(t); err != nil {
			return err
		}
	}
	if err := put(); err != nil {
		return err
	}
	if err := put(bold(fmt.Sprintf("t0 other than the first capture (%d TimeMaps)", len(x.t0s)))); err != nil {
		return err
	}
	if len(x.t0s) > 0 {
		if err := put(bold("uri_r"), bold("first capture"), bold("t0"), bold("why")); err != nil {
			return err
		}
	}
	for _, t := range x.t0s {
		t0 := text(t.t0)
		if t.t0 == "" {
			t0 = "(none)"
		}
		if err := put(text(t.urir), text(t.first), t0, text(t.reason)); err != nil {
			return err
		}
	}
	return sw.Flush()
}

// timeline writes the Timeline sheet: for each of the most affected TimeMaps
// a block of scored captures (date, then each measure) and a line chart of it.
func (x *XLSXWriter) timeline() error {
	sw, err := x.f.NewStreamWriter(SheetTimeline)
	if err != nil {
		return err
	}
	if err := sw.SetColWidth(1, 1, 20); err != nil {
		return err
	}
	tops := x.top.ranked()
	title := fmt.Sprintf("Measures over time for the %d TimeMaps with the most off-topic captures", len(tops))
	if len(tops) == 0 {
		title = "No TimeMap has an off-topic capture."
	}
	if err := sw.SetRow("A1", []any{excelize.Cell{StyleID: x.st.header, Value: title}}); err != nil {
		return err
	}
	n := 3
	for k, t := range tops {
		var used []int // measures with any score in this TimeMap
		for i := range similarity.StandardMeasureNames() {
			if slices.ContainsFunc(t.points, func(p timePoint) bool { return !math.IsNaN(p.scores[i]) }) {
				used = append(used, i)
			}
		}
		start := n
		label := fmt.Sprintf("%d. off-topic %d of %d scored: ", k+1, t.off, t.scored)
		if err := sw.SetRow("A"+strconv.Itoa(n), []any{excelize.Cell{StyleID: x.st.header, Value: label}, text(t.urir)}); err != nil {
			return err
		}
		n++
		head := []string{"datetime"}
		for _, i := range used {
			head = append(head, similarity.StandardMeasureNames()[i])
		}
		if err := sw.SetRow("A"+strconv.Itoa(n), x.header(head)); err != nil {
			return err
		}
		n++
		first := n
		for _, p := range t.points {
			row := []any{excelize.Cell{StyleID: x.st.date, Value: p.at.UTC()}}
			for _, i := range used {
				if v := p.scores[i]; !math.IsNaN(v) {
					row = append(row, v)
				} else {
					row = append(row, nil)
				}
			}
			if err := sw.SetRow("A"+strconv.Itoa(n), row); err != nil {
				return err
			}
			n++
		}
		lastRow := n - 1
		if len(t.points) > 0 && len(used) > 0 {
			ch := &excelize.Chart{Type: excelize.Line, Title: excelize.ChartTitle{Paragraph: []excelize.RichTextRun{{Text: chartTitle(t.urir)}}},
				Legend: excelize.ChartLegend{Position: "bottom"}, Dimension: excelize.ChartDimension{Width: 720, Height: 320},
				ShowBlanksAs: "span"}
			for j := range used {
				c, _ := excelize.ColumnNumberToName(j + 2)
				ch.Series = append(ch.Series, excelize.ChartSeries{
					Name:       fmt.Sprintf("%s!$%s$%d", SheetTimeline, c, first-1),
					Categories: fmt.Sprintf("%s!$A$%d:$A$%d", SheetTimeline, first, lastRow),
					Values:     fmt.Sprintf("%s!$%s$%d:$%s$%d", SheetTimeline, c, first, c, lastRow),
				})
			}
			if err := x.f.AddChart(SheetTimeline, "K"+strconv.Itoa(start), ch); err != nil {
				return err
			}
		}
		n = max(n, start+18) + 1 // leave room for the chart
	}
	return sw.Flush()
}

// chartTitle is a URI-R shortened for a chart title.
func chartTitle(s string) string {
	if r := []rune(s); len(r) > 80 {
		s = string(r[:79]) + "…"
	}
	return s
}

// timePoint is one scored capture of a charted TimeMap; scores follow
// StandardMeasureNames, NaN where a measure has no score.
type timePoint struct {
	at     time.Time
	scores []float64
}

// timelineEntry is a candidate for the Timeline sheet.
type timelineEntry struct {
	key, urir   string
	off, scored int
	seq         int // arrival order: earlier (lower key) wins ties
	points      []timePoint
}

// worse orders candidates: fewer off-topic captures, then a lower share, then
// later arrival.
func (a *timelineEntry) worse(b *timelineEntry) bool {
	if a.off != b.off {
		return a.off < b.off
	}
	if sa, sb := float64(a.off)/float64(a.scored), float64(b.off)/float64(b.scored); sa != sb {
		return sa < sb
	}
	return a.seq > b.seq
}

// timelineHeap keeps the TimelineTimeMaps most affected TimeMaps seen so far,
// the least affected on top.
type timelineHeap struct {
	items []*timelineEntry
	seq   int
}

func (h *timelineHeap) Len() int           { return len(h.items) }
func (h *timelineHeap) Less(i, j int) bool { return h.items[i].worse(h.items[j]) }
func (h *timelineHeap) Swap(i, j int)      { h.items[i], h.items[j] = h.items[j], h.items[i] }
func (h *timelineHeap) Push(v any)         { h.items = append(h.items, v.(*timelineEntry)) }
func (h *timelineHeap) Pop() any {
	v := h.items[len(h.items)-1]
	h.items = h.items[:len(h.items)-1]
	return v
}

// offer considers a TimeMap for the Timeline; its series is copied only when
// it is kept.
func (h *timelineHeap) offer(r *similarity.TimeMapResult, off, scored int) {
	h.seq++
	e := &timelineEntry{key: r.Key, urir: r.URIR, off: off, scored: scored, seq: h.seq}
	if len(h.items) >= TimelineTimeMaps {
		if !h.items[0].worse(e) {
			return
		}
		heap.Pop(h)
	}
	for _, c := range r.Captures {
		if len(c.Scores) == 0 {
			continue
		}
		p := timePoint{at: c.Datetime, scores: make([]float64, len(similarity.StandardMeasureNames()))}
		for i, m := range similarity.StandardMeasureNames() {
			if s, ok := c.Scores[m]; ok && !math.IsInf(s, 0) {
				p.scores[i] = s
			} else {
				p.scores[i] = math.NaN()
			}
		}
		e.points = append(e.points, p)
	}
	heap.Push(h, e)
}

// ranked returns the kept TimeMaps, most affected first.
func (h *timelineHeap) ranked() []*timelineEntry {
	out := slices.Clone(h.items)
	slices.SortFunc(out, func(a, b *timelineEntry) int {
		if b.worse(a) {
			return -1
		}
		if a.worse(b) {
			return 1
		}
		return 0
	})
	return out
}

// save writes the workbook to x.w. excelize adds hyperlinks one by one with a
// linear search (quadratic for a large sheet), so the URI-M links of the
// Captures sheet are spliced in as excelize writes the package: linkZip
// stands in for its zip writer, streams every part to w, and adds the
// <hyperlinks> element and its relationships to the Captures sheet on the
// way. (excelize's WriteTo would also build the whole file in memory first.)
func (x *XLSXWriter) save() error {
	sheet := ""
	for id, name := range x.f.GetSheetMap() {
		if name == SheetCaptures {
			// excelize names the parts of new sheets by their sheet id.
			sheet = "xl/worksheets/sheet" + strconv.Itoa(id) + ".xml"
		}
	}
	lz := &linkZip{zw: zip.NewWriter(x.w), sheet: sheet, links: x.links}
	lz.rels = path.Join(path.Dir(sheet), "_rels", path.Base(sheet)+".rels")
	x.f.SetZipWriter(func(io.Writer) excelize.ZipWriter { return lz })
	if _, err := x.f.WriteToBuffer(); err != nil {
		return err
	}
	return lz.err
}

// linkZip is the zip writer excelize writes the workbook through. It passes
// every part on to zw, splicing hyperlinks into the sheet part (after its
// </sheetData>: cell text is XML-escaped, so that tag cannot occur in a cell)
// and their relationships into the sheet's relationships part.
type linkZip struct {
	zw          *zip.Writer
	sheet, rels string
	links       []xlsxLink

	cur      io.Writer     // the open sheet part
	win      []byte        // last bytes of the sheet, to find </sheetData>
	tail     *bytes.Buffer // the sheet after </sheetData>
	relsPart *bytes.Buffer // the sheet's relationships, if excelize has some
	sawSheet bool
	err      error
}

var sheetDataEnd = []byte("</sheetData>")

// Create implements excelize.ZipWriter.
func (z *linkZip) Create(name string) (io.Writer, error) {
	if err := z.finishSheet(); err != nil {
		return nil, err
	}
	switch name {
	case z.sheet:
		w, err := z.zw.Create(name)
		if err != nil {
			return nil, err
		}
		z.cur, z.sawSheet = w, true
		return sheetWriter{z}, nil
	case z.rels:
		z.relsPart = new(bytes.Buffer)
		return z.relsPart, nil
	}
	return z.zw.Create(name)
}

// sheetWriter receives the sheet part.
type sheetWriter struct{ z *linkZip }

func (s sheetWriter) Write(p []byte) (int, error) {
	z := s.z
	if z.tail != nil {
		return z.tail.Write(p)
	}
	// Look for </sheetData> across the previous bytes and p.
	joined := append(z.win, p...)
	if i := bytes.Index(joined, sheetDataEnd); i >= 0 {
		cut := i + len(sheetDataEnd) - len(z.win) // end of the tag within p
		if _, err := z.cur.Write(p[:cut]); err != nil {
			return 0, err
		}
		z.tail = bytes.NewBuffer(slices.Clone(p[cut:]))
		return len(p), nil
	}
	if len(joined) > len(sheetDataEnd) {
		joined = joined[len(joined)-len(sheetDataEnd):]
	}
	z.win = append(z.win[:0], joined...)
	return z.cur.Write(p)
}

// finishSheet writes what followed </sheetData> with the hyperlinks added.
func (z *linkZip) finishSheet() error {
	if z.cur == nil {
		return nil
	}
	w := z.cur
	z.cur = nil
	if z.tail == nil {
		return fmt.Errorf("%s: no </sheetData>", z.sheet)
	}
	var links bytes.Buffer
	for i, l := range z.links {
		fmt.Fprintf(&links, `<hyperlink ref="B%d" r:id="%s"/>`, l.row, linkID(i))
	}
	tail := z.tail.String()
	if i := strings.Index(tail, "</hyperlinks>"); i >= 0 {
		tail = tail[:i] + links.String() + tail[i:]
	} else if len(z.links) > 0 {
		// CT_Worksheet: hyperlinks come before all of these.
		at := len(tail)
		for _, el := range []string{"<printOptions", "<pageMargins", "<pageSetup", "<headerFooter", "<rowBreaks", "<colBreaks",
			"<customProperties", "<cellWatches", "<ignoredErrors", "<smartTags", "<drawing", "<legacyDrawing", "<legacyDrawingHF",
			"<drawingHF", "<picture", "<oleObjects", "<controls", "<webPublishItems", "<tableParts", "<extLst", "</worksheet>"} {
			if i := strings.Index(tail, el); i >= 0 && i < at {
				at = i
			}
		}
		tail = tail[:at] + "<hyperlinks>" + links.String() + "</hyperlinks>" + tail[at:]
	}
	_, err := io.WriteString(w, tail)
	return err
}

// AddFS implements excelize.ZipWriter.
func (z *linkZip) AddFS(fsys fs.FS) error { return z.zw.AddFS(fsys) }

// Close writes the sheet's relationships and ends the zip; it does not close
// the underlying writer.
func (z *linkZip) Close() error {
	if z.err != nil {
		return z.err
	}
	z.err = z.close()
	return z.err
}

func (z *linkZip) close() error {
	if err := z.finishSheet(); err != nil {
		return err
	}
	if !z.sawSheet {
		return fmt.Errorf("no part %s for the %s sheet", z.sheet, SheetCaptures)
	}
	if len(z.links) > 0 || z.relsPart != nil {
		head := xml.Header + `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">`
		tail := `</Relationships>`
		if z.relsPart != nil {
			s := z.relsPart.String()
			i := strings.LastIndex(s, tail)
			if i < 0 {
				return fmt.Errorf("%s: no %s", z.rels, tail)
			}
			head, tail = s[:i], s[i:]
		}
		out, err := z.zw.Create(z.rels)
		if err != nil {
			return err
		}
		bw := bufio.NewWriter(out)
		bw.WriteString(head)
		for i, l := range z.links {
			bw.WriteString(`<Relationship Id="`)
			bw.WriteString(linkID(i))
			bw.WriteString(`" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink" Target="`)
			xml.EscapeText(bw, []byte(l.url))
			bw.WriteString(`" TargetMode="External"/>`)
		}
		bw.WriteString(tail)
		if err := bw.Flush(); err != nil {
			return err
		}
	}
	return z.zw.Close()
}

// linkID is the relationship id of the hyperlink of links[i]; the prefix
// keeps it apart from excelize's rIdN.
func linkID(i int) string { return "rIdOTLink" + strconv.Itoa(i+1) }
