package report

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"net/url"
	"os"
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
	capHeadBefore = []string{"uri_r", "uri_m", "datetime", "verdict", DecisionColumn, "off-topic kind", "reason"}
	capHeadAfter  = []string{"title", "excerpt", "t0 excerpt", "status", "mime", "word_count", "byte_count", "extractor", "lang", "t0", "key", "timestamp"}
)

// XLSXExcerptChars caps the excerpt cells of the Captures sheet.
const XLSXExcerptChars = 300

// XLSXCapturesHeader is the header row of the Captures sheet: the capture,
// its verdict and the curator's decision first, then the reason, the scores
// and the text (the capture's excerpt, and t0's beside off-topic captures and
// those the curator's reading kept on-topic). The last two columns (key, timestamp) are
// hidden: with them a reviewed workbook can be matched back to the captures
// (see ReadDecisions).
func XLSXCapturesHeader() []string { return capturesHeader(false) }

// auditColumns follow the scores on the Captures sheet of an audit: when
// the document was published, how that was found, and whether it lies in
// the event's window.
func auditColumns() []string { return []string{"published", "date from", "window"} }

// capturesHeader is the Captures sheet's header; an audit's has
// auditColumns after the scores.
func capturesHeader(audit bool) []string {
	h := slices.Clone(capHeadBefore)
	h = append(h, similarity.StandardMeasureNames()...)
	if audit {
		h = append(h, auditColumns()...)
	}
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

	f *excelize.File
	// news is what the New sheet lists (a collection's state).
	news []xlsxNews
	// spool holds each TimeMap's rows of the Captures sheet (row records,
	// see appendRow) until Close writes the sheet in the order of the
	// TimeMaps sheet; spoolPath is the file to remove at Close ("" when it
	// was unlinked at once).
	spool     *os.File
	spoolPath string
	sw        *bufio.Writer
	spoolAt   int64
	st        xlsxStyles
	capRow    int            // the Captures sheet's last row
	head      []string       // the Captures sheet's header
	col       map[string]int // Captures column of each header name
	row       []any
	rec       []byte        // a TimeMap's row records
	tmRows    []xlsxTimeMap // the TimeMaps sheet, written sorted at Close
	tmLinks   []xlsxLink    // hyperlinks of the TimeMaps sheet
	links     []xlsxLink    // URI-M hyperlinks of the Captures sheet, made as its rows are written
	maxLinks  int           // MaxXLSXLinks; lowered by tests
	// linkable counts the URI-Ms that can be hyperlinks; capLinks how
	// many of them are (the first maxLinks); linksEnded is set when a URI-M
	// was left unlinked because of MaxXLSXLinks.
	linkable, capLinks int
	linksEnded         bool

	// audit is set for an audit against an event (see Run.Audit).
	audit *xlsxAudit

	sum    xlsxTotals
	t0s    []t0Note
	top    timelineHeap
	closed bool
}

type xlsxStyles struct {
	header, date, score, share, link, wrap int
	// para wraps a long text (the Summary's notes) in its merged cells.
	para int
	// decided shades a score that made its capture off-topic; kept one that
	// crossed its threshold in a capture the curator's reading kept on-topic.
	decided, kept int
	off           int // conditional format (dxf) of the off-topic verdict
}

// xlsxTotals are the counts the Summary sheet reports.
type xlsxTotals struct {
	timeMaps, captures, on, off, notScored int
	scored, below, decided                 []int // per measure of StandardMeasureNames
	offKinds                               [numKinds]int
}

// xlsxLink is the hyperlink of a cell ("B12"): to url, or, when location
// is set, to a place in the workbook ("'Captures'!A12").
type xlsxLink struct {
	cell     string
	url      string
	location string
}

// kindLabels names the kinds of a bit set over similarity.Kinds ("" when
// none).
func kindLabels(bits int) string {
	var out []string
	for i, k := range similarity.Kinds() {
		if bits&(1<<i) != 0 {
			out = append(out, k.Label())
		}
	}
	return strings.Join(out, ", ")
}

// xlsxTimeMap is a row of the TimeMaps sheet.
type xlsxTimeMap struct {
	urir, urit, kind, t0, t0Reason        string
	captures, on, off, guarded, notScored int
	firstOff                              time.Time
	// offKinds has bit i set when an off-topic capture is of kind i of
	// similarity.Kinds.
	offKinds int
	// doc is what an audit says of its document (nil elsewhere).
	doc *auditDoc
	// at and n locate the TimeMap's results in the spool; row is the row
	// of the Captures sheet its captures start on.
	at     int64
	n, row int
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
	spool, err := os.CreateTemp("", "offtopic-xlsx-*.part")
	if err != nil {
		return nil, fmt.Errorf("xlsx report: %w", err)
	}
	x := &XLSXWriter{w: w, run: run, rule: rule, f: excelize.NewFile(), maxLinks: MaxXLSXLinks, spool: spool, sw: bufio.NewWriterSize(spool, 64<<10)}
	if _, _, ok := run.Audit(); ok {
		x.audit = &xlsxAudit{threshold: thresholdOf(rule, similarity.MeasureTopic).Value}
	}
	// Unlink at once where the system allows it: nothing is left behind
	// even when Close is never called.
	if os.Remove(spool.Name()) != nil {
		x.spoolPath = spool.Name()
	}
	x.sum.scored = make([]int, len(similarity.StandardMeasureNames()))
	x.sum.below = make([]int, len(similarity.StandardMeasureNames()))
	x.sum.decided = make([]int, len(similarity.StandardMeasureNames()))
	x.head = capturesHeader(x.audit != nil)
	x.col = map[string]int{}
	for i, h := range x.head {
		x.col[h] = i
	}
	x.row = make([]any, len(x.head))
	for _, m := range similarity.StandardMeasureNames() {
		x.thr = append(x.thr, thresholdOf(rule, m))
	}
	if err := x.setup(); err != nil {
		x.cleanup()
		return nil, fmt.Errorf("xlsx report: %w", err)
	}
	return x, nil
}

// cleanup closes the workbook and removes the spool.
func (x *XLSXWriter) cleanup() {
	x.f.Close()
	x.spool.Close()
	if x.spoolPath != "" {
		os.Remove(x.spoolPath)
	}
}

func (x *XLSXWriter) setup() error {
	f := x.f
	first, sheets := SheetSummary, []string{SheetTimeMaps, SheetCaptures, SheetTimeline}
	if x.hasNews() {
		// The workbook opens on what is new: the first sheet.
		first, sheets = SheetNew, append([]string{SheetSummary}, sheets...)
	}
	if err := f.SetSheetName(f.GetSheetName(0), first); err != nil {
		return err
	}
	for _, s := range sheets {
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
		para:   newStyle(&excelize.Style{Alignment: &excelize.Alignment{Vertical: "top", WrapText: true}}),
	}
	if err != nil {
		return err
	}
	x.st.decided = newStyle(&excelize.Style{CustomNumFmt: &scoreFmt, Font: &excelize.Font{Color: "9C0006", Bold: true},
		Fill: excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{"FFC7CE"}}})
	x.st.kept = newStyle(&excelize.Style{CustomNumFmt: &scoreFmt, Font: &excelize.Font{Color: "7F5F00"},
		Fill: excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{"FFEB9C"}}})
	if err != nil {
		return err
	}
	for _, s := range []string{SheetSummary, SheetTimeMaps, SheetCaptures, SheetTimeline} {
		if err := fitToWidth(f, s); err != nil {
			return err
		}
	}
	if x.st.off, err = f.NewConditionalStyle(&excelize.Style{Font: &excelize.Font{Color: "9C0006", Bold: true}}); err != nil {
		return err
	}

	return nil
}

// startCaptures starts the Captures sheet: widths, frozen panes (the header
// and the URI-R column), the header row. Its other rows are written as the
// workbook is saved (see save).
func (x *XLSXWriter) startCaptures() (*excelize.StreamWriter, error) {
	caps, err := x.f.NewStreamWriter(SheetCaptures)
	if err != nil {
		return nil, err
	}
	// The URI-R column stays in view beside the header.
	if err := caps.SetPanes(&excelize.Panes{Freeze: true, XSplit: 1, YSplit: 1, TopLeftCell: "B2", ActivePane: "bottomRight",
		Selection: []excelize.Selection{{SQRef: "B2", ActiveCell: "B2", Pane: "bottomRight"}}}); err != nil {
		return nil, err
	}
	widths := map[string]float64{"uri_r": 40, "uri_m": 30, "datetime": 18, "verdict": 11, DecisionColumn: 16, "off-topic kind": 22, "reason": 40, "mime": 14,
		"title": 30, "excerpt": 60, "t0 excerpt": 60}
	for i, h := range x.head {
		wd, ok := widths[h]
		if !ok {
			wd = 11
		}
		if err := caps.SetColWidth(i+1, i+1, wd); err != nil {
			return nil, err
		}
	}
	if err := caps.SetColVisible(len(x.head)-1, len(x.head), false); err != nil {
		return nil, err
	}
	return caps, caps.SetRow("A1", x.header(x.head))
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

	tm := xlsxTimeMap{urir: r.URIR, urit: r.URIT, kind: timeMapKind(r), t0: r.T0, t0Reason: r.T0Reason,
		captures: len(r.Captures), on: on, off: off, notScored: ns}
	if x.audit != nil && len(r.Captures) > 0 {
		tm.doc = x.auditDoc(&r.Captures[0])
	}
	for i := range r.Captures {
		c := &r.Captures[i]
		if c.Verdict == similarity.VerdictOff && tm.firstOff.IsZero() {
			tm.firstOff = c.Datetime
		}
		if k := kindIndex(c.Kind); k >= 0 {
			tm.offKinds |= 1 << k
		}
		if x.guarded(c) {
			tm.guarded++
		}
	}
	// The captures' rows wait in the spool: the Captures sheet lists them
	// in the order of the TimeMaps sheet, known only at Close.
	if err := x.captureRows(r); err != nil {
		return fmt.Errorf("xlsx report: TimeMap %s: %w", r.URIR, err)
	}
	if _, err := x.sw.Write(x.rec); err != nil {
		return fmt.Errorf("xlsx report: spool: %w", err)
	}
	tm.at, tm.n = x.spoolAt, len(x.rec)
	x.spoolAt += int64(len(x.rec))
	x.tmRows = append(x.tmRows, tm)

	if len(r.Captures) > 0 && r.T0 != r.Captures[0].URIM {
		x.t0s = append(x.t0s, t0Note{urir: r.URIR, first: r.Captures[0].URIM, t0: r.T0, reason: r.T0Reason})
	}
	if off > 0 {
		x.top.offer(r, off, on+off)
	}
	x.noteNews(r)
	return nil
}

// guarded reports whether an on-topic capture crossed thresholds of the
// rule (and so was kept on-topic by the curator's reading).
func (x *XLSXWriter) guarded(c *similarity.CaptureResult) bool {
	return c.Verdict == similarity.VerdictOn && !c.IsT0 && len(x.rule.Crossed(c.Scores)) > 0
}

// captureRows encodes r's rows of the Captures sheet into x.rec.
func (x *XLSXWriter) captureRows(r *similarity.TimeMapResult) error {
	x.rec = x.rec[:0]
	t0Excerpt := ""
	for j := range r.Captures {
		if c := &r.Captures[j]; c.IsT0 {
			t0Excerpt = c.Excerpt
		}
	}
	for j := range r.Captures {
		c := &r.Captures[j]
		t0x := ""
		if c.Verdict == similarity.VerdictOff || x.guarded(c) {
			t0x = t0Excerpt
		}
		if err := x.captureRow(c, t0x); err != nil {
			return err
		}
	}
	return nil
}

// writeCaptures starts the Captures sheet: the row each TimeMap's captures
// start on, in the order of the (sorted) TimeMaps sheet, how many URI-Ms
// are hyperlinks, the header and what spans the rows. The rows follow as
// the workbook is saved (captureSheetRows).
func (x *XLSXWriter) writeCaptures() error {
	if err := x.sw.Flush(); err != nil {
		return fmt.Errorf("spool: %w", err)
	}
	x.capRow = 1
	for i := range x.tmRows {
		tm := &x.tmRows[i]
		tm.row = x.capRow + 1
		x.capRow += tm.captures
	}
	x.capLinks, x.linksEnded = min(x.linkable, x.maxLinks), x.linkable > x.maxLinks
	caps, err := x.startCaptures()
	if err != nil {
		return err
	}
	return x.finishCaptures(caps)
}

// captureSheetRows writes the Captures sheet's rows after its header, each
// TimeMap's read back from the spool, and returns the URI-M hyperlinks.
func (x *XLSXWriter) captureSheetRows(w io.Writer) ([]xlsxLink, error) {
	bw := bufio.NewWriterSize(w, 64<<10)
	rw := newRowWriter(bw, len(x.head))
	uriM := x.col["uri_m"]
	var buf []byte
	n := 1
	for i := range x.tmRows {
		tm := &x.tmRows[i]
		buf = slices.Grow(buf[:0], tm.n)[:tm.n]
		if _, err := x.spool.ReadAt(buf, tm.at); err != nil {
			return nil, fmt.Errorf("spool: %w", err)
		}
		for b := buf; len(b) > 0; {
			r, rest, err := nextRow(b)
			if err != nil {
				return nil, fmt.Errorf("TimeMap %s: %w", tm.urir, err)
			}
			b = rest
			n++
			styled := -1
			if r.link != "" && len(x.links) < x.capLinks {
				x.links = append(x.links, xlsxLink{cell: "B" + strconv.Itoa(n), url: r.link})
				styled = uriM
			}
			if err := rw.write(r, n, styled, x.st.link); err != nil {
				return nil, err
			}
		}
	}
	return x.links, bw.Flush()
}

// captureRow appends c's row of the Captures sheet to x.rec and counts it
// into the Summary's figures.
func (x *XLSXWriter) captureRow(c *similarity.CaptureResult, t0Excerpt string) error {
	row := x.row
	clear(row)
	set := func(name string, v any) { row[x.col[name]] = v }
	set("uri_r", text(c.URIR))
	set("uri_m", text(c.URIM))
	link := "" // a hyperlink if among the first maxLinks in the sheet's order
	if linkable(c.URIM) {
		link = c.URIM
		x.linkable++
	}
	if !c.Datetime.IsZero() {
		set("datetime", excelize.Cell{StyleID: x.st.date, Value: c.Datetime.UTC()})
	}
	set("verdict", text(c.Verdict))
	if k := kindIndex(c.Kind); k >= 0 {
		set("off-topic kind", text(c.Kind.Label()))
		x.sum.offKinds[k]++
	}
	if x.audit != nil {
		x.auditCells(c, set)
	}
	// the curator's decision: the collection state's, else empty
	if d, ok := x.run.Review.decision(c); ok {
		set(DecisionColumn, text(d.Decision))
	}
	set("reason", text(c.Reason))
	set("title", text(c.Title))
	set("excerpt", text(cutText(c.Excerpt, XLSXExcerptChars)))
	set("t0 excerpt", text(cutText(t0Excerpt, XLSXExcerptChars)))
	set("status", c.Status)
	set("mime", text(c.MIME))
	set("word_count", c.WordCount)
	set("byte_count", c.ByteCount)
	set("extractor", text(c.Extractor))
	set("lang", text(c.Lang))
	if c.IsT0 {
		set("t0", "t0")
	}
	k := similarity.KeyOf(c)
	set("key", text(k.Key))
	set("timestamp", k.TS)
	n := len(capHeadBefore)
	// Shaded: the scores of the rule's measures that crossed their
	// thresholds, red where they made the capture off-topic, amber where
	// the curator's reading kept it on-topic all the same. Measures outside
	// the rule are reported, never shaded: they decided nothing.
	var crossed []similarity.Threshold
	shade := x.st.score
	switch {
	case c.Verdict == similarity.VerdictOff:
		crossed, shade = x.rule.Crossed(c.Scores), x.st.decided
	case x.guarded(c):
		crossed, shade = x.rule.Crossed(c.Scores), x.st.kept
	}
	for i, m := range similarity.StandardMeasureNames() {
		s, ok := c.Scores[m]
		if !ok || math.IsNaN(s) || math.IsInf(s, 0) {
			continue
		}
		style := x.st.score
		x.sum.scored[i]++
		if x.thr[i].Crossed(s) {
			x.sum.below[i]++
		}
		if slices.ContainsFunc(crossed, func(t similarity.Threshold) bool { return t.Measure == m }) {
			style = shade
			if c.Verdict == similarity.VerdictOff {
				x.sum.decided[i]++
			}
		}
		row[n+i] = excelize.Cell{StyleID: style, Value: s}
	}
	var err error
	x.rec, err = appendRow(x.rec, link, row)
	return err
}

// Close writes the Summary and Timeline sheets, adds the Captures sheet's
// filter, drop-down and highlighting, and writes the workbook to w.
func (x *XLSXWriter) Close() error {
	if x.closed {
		return nil
	}
	x.closed = true
	defer x.cleanup()
	if x.audit != nil {
		x.sortDocuments(x.tmRows)
	} else {
		sortTimeMaps(x.tmRows)
	}
	if err := x.writeCaptures(); err != nil {
		return fmt.Errorf("xlsx report: Captures sheet: %w", err)
	}
	if err := x.timeMapsSheet(); err != nil {
		return fmt.Errorf("xlsx report: TimeMaps sheet: %w", err)
	}
	if err := x.timeline(); err != nil {
		return fmt.Errorf("xlsx report: Timeline sheet: %w", err)
	}
	if err := x.summary(); err != nil {
		return fmt.Errorf("xlsx report: Summary sheet: %w", err)
	}
	if err := x.newsSheet(); err != nil {
		return fmt.Errorf("xlsx report: New sheet: %w", err)
	}
	if err := x.save(); err != nil {
		return fmt.Errorf("xlsx report: %w", err)
	}
	return nil
}

// finishCaptures adds what must come between NewStreamWriter and Flush
// (excelize drops it silently otherwise): autofilter, drop-down, the
// verdict's conditional format and the print area over the data rows.
func (x *XLSXWriter) finishCaptures(caps *excelize.StreamWriter) error {
	head := x.head
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
	// Printed, the sheet is the capture, its verdict and decision, the
	// reason and the scores (the text columns are for the screen).
	lastScore := col(len(capHeadBefore) + len(similarity.StandardMeasureNames()) - 1)
	if x.audit != nil {
		lastScore = col(slices.Index(head, "window"))
	}
	if err := printArea(x.f, SheetCaptures, "$A$1:$"+lastScore+"$"+strconv.Itoa(last)); err != nil {
		return err
	}
	v := col(slices.Index(head, "verdict"))
	if err := x.f.SetConditionalFormat(SheetCaptures, fmt.Sprintf("%s2:%s%d", v, v, last),
		[]excelize.ConditionalFormatOptions{{Type: "cell", Criteria: "==", Value: `"` + similarity.VerdictOff + `"`, Format: &x.st.off}}); err != nil {
		return err
	}
	return caps.Flush()
}
