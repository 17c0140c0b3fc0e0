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
	"maps"
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
	caps       *excelize.StreamWriter
	st         xlsxStyles
	capRow     int
	col        map[string]int // Captures column of each header name
	row        []any
	tmRows     []xlsxTimeMap // the TimeMaps sheet, written sorted at Close
	tmLinks    []xlsxLink    // hyperlinks of the TimeMaps sheet
	links      []xlsxLink    // URI-M hyperlinks of the Captures sheet
	maxLinks   int           // MaxXLSXLinks; lowered by tests
	linksEnded bool          // a URI-M was left unlinked because of MaxXLSXLinks

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
	offKinds                               [numKinds]int
}

// xlsxLink is the hyperlink of a cell ("B12").
type xlsxLink struct {
	cell string
	url  string
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

	if x.caps, err = f.NewStreamWriter(SheetCaptures); err != nil {
		return err
	}
	// The URI-R column stays in view beside the header.
	if err := x.caps.SetPanes(&excelize.Panes{Freeze: true, XSplit: 1, YSplit: 1, TopLeftCell: "B2", ActivePane: "bottomRight",
		Selection: []excelize.Selection{{SQRef: "B2", ActiveCell: "B2", Pane: "bottomRight"}}}); err != nil {
		return err
	}
	head := XLSXCapturesHeader()
	x.col = map[string]int{}
	for i, h := range head {
		x.col[h] = i
	}
	widths := map[string]float64{"uri_r": 40, "uri_m": 30, "datetime": 18, "verdict": 11, DecisionColumn: 16, "off-topic kind": 22, "reason": 40, "mime": 14,
		"title": 30, "excerpt": 60, "t0 excerpt": 60}
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

	tm := xlsxTimeMap{urir: r.URIR, urit: r.URIT, kind: timeMapKind(r), t0: r.T0, t0Reason: r.T0Reason,
		captures: len(r.Captures), on: on, off: off, notScored: ns}
	t0Excerpt := ""
	for i := range r.Captures {
		if c := &r.Captures[i]; c.IsT0 {
			t0Excerpt = c.Excerpt
		}
	}
	for i := range r.Captures {
		c := &r.Captures[i]
		if c.Verdict == similarity.VerdictOff && tm.firstOff.IsZero() {
			tm.firstOff = c.Datetime
		}
		if k := kindIndex(c.Kind); k >= 0 {
			tm.offKinds |= 1 << k
		}
		guarded := c.Verdict == similarity.VerdictOn && !c.IsT0 && len(x.rule.Crossed(c.Scores)) > 0
		if guarded {
			tm.guarded++
		}
		t0x := ""
		if c.Verdict == similarity.VerdictOff || guarded {
			t0x = t0Excerpt
		}
		if err := x.captureRow(c, t0x); err != nil {
			return fmt.Errorf("xlsx report: TimeMap %s: %w", r.URIR, err)
		}
	}
	x.tmRows = append(x.tmRows, tm)

	if len(r.Captures) > 0 && r.T0 != r.Captures[0].URIM {
		x.t0s = append(x.t0s, t0Note{urir: r.URIR, first: r.Captures[0].URIM, t0: r.T0, reason: r.T0Reason})
	}
	if off > 0 {
		x.top.offer(r, off, on+off)
	}
	return nil
}

func (x *XLSXWriter) captureRow(c *similarity.CaptureResult, t0Excerpt string) error {
	x.capRow++
	row := x.row
	clear(row)
	set := func(name string, v any) { row[x.col[name]] = v }
	set("uri_r", text(c.URIR))
	set("uri_m", text(c.URIM))
	if linkable(c.URIM) {
		if len(x.links) < x.maxLinks {
			x.links = append(x.links, xlsxLink{cell: "B" + strconv.Itoa(x.capRow), url: c.URIM})
			set("uri_m", excelize.Cell{StyleID: x.st.link, Value: row[x.col["uri_m"]]})
		} else {
			x.linksEnded = true
		}
	}
	if !c.Datetime.IsZero() {
		set("datetime", excelize.Cell{StyleID: x.st.date, Value: c.Datetime.UTC()})
	}
	set("verdict", text(c.Verdict))
	if k := kindIndex(c.Kind); k >= 0 {
		set("off-topic kind", text(c.Kind.Label()))
		x.sum.offKinds[k]++
	}
	// the curator's decision stays empty
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
	if err := x.timeMapsSheet(); err != nil {
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

// timeMapsSheet writes the TimeMaps sheet: pages first, most off-topic first,
// with a filter, and links to each TimeMap and its t0 in the archive.
func (x *XLSXWriter) timeMapsSheet() error {
	sw, err := x.f.NewStreamWriter(SheetTimeMaps)
	if err != nil {
		return err
	}
	if err := sw.SetPanes(&excelize.Panes{Freeze: true, XSplit: 1, YSplit: 1, TopLeftCell: "B2", ActivePane: "bottomRight",
		Selection: []excelize.Selection{{SQRef: "B2", ActiveCell: "B2", Pane: "bottomRight"}}}); err != nil {
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
	share := func(t *xlsxTimeMap) float64 {
		if t.on+t.off == 0 {
			return -1
		}
		return float64(t.off) / float64(t.on+t.off)
	}
	slices.SortStableFunc(x.tmRows, func(a, b xlsxTimeMap) int {
		if pa, pb := a.kind == kindPage, b.kind == kindPage; pa != pb {
			if pa {
				return -1
			}
			return 1
		}
		if sa, sb := share(&a), share(&b); sa != sb {
			if sa > sb {
				return -1
			}
			return 1
		}
		return b.off - a.off
	})
	for i := range x.tmRows {
		t := &x.tmRows[i]
		n := i + 2
		row := []any{text(t.urir), text(t.kind), t.captures, t.on + t.off, t.on, t.off, t.guarded, t.notScored, nil, nil, text(t.t0), text(t.t0Reason), kindLabels(t.offKinds)}
		if t.on+t.off > 0 {
			row[8] = excelize.Cell{StyleID: x.st.share, Value: share(t)}
		}
		if !t.firstOff.IsZero() {
			row[9] = excelize.Cell{StyleID: x.st.date, Value: t.firstOff.UTC()}
		}
		// Links: the URI-R to its TimeMap in the archive, t0 to its capture.
		for _, l := range []struct {
			col int
			url string
		}{{0, t.urit}, {10, t.t0}} {
			if !linkable(l.url) {
				continue
			}
			if len(x.tmLinks) >= x.maxLinks {
				x.linksEnded = true
				continue
			}
			c, _ := excelize.ColumnNumberToName(l.col + 1)
			x.tmLinks = append(x.tmLinks, xlsxLink{cell: c + strconv.Itoa(n), url: l.url})
			row[l.col] = excelize.Cell{StyleID: x.st.link, Value: row[l.col]}
		}
		if err := sw.SetRow("A"+strconv.Itoa(n), row); err != nil {
			return err
		}
	}
	if err := x.f.AutoFilter(SheetTimeMaps, fmt.Sprintf("A1:M%d", max(len(x.tmRows)+1, 2)), nil); err != nil {
		return err
	}
	x.tmRows = nil
	return sw.Flush()
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
	} {
		if err := put(r...); err != nil {
			return err
		}
	}
	for i, k := range similarity.Kinds() {
		if n := s.offKinds[i]; n > 0 {
			if err := put("  off-topic: "+k.Label(), n, share(n, s.off)); err != nil {
				return err
			}
		}
	}
	for _, r := range [][]any{
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
		"Review: choose on-topic, off-topic or unsure in the \"" + DecisionColumn + "\" column of the Captures sheet (beside the verdict), then give the workbook to offtopic evaluate --gold or offtopic prune --decisions.",
		"Text: each capture's excerpt; beside off-topic captures and those the curator's reading kept on-topic (on-topic although a score is below its threshold), t0's excerpt too.",
	}
	if x.run.DefaultArchive() {
		notes = append(notes, "URI-Ms point at "+DefaultArchiveURL+", the archive URL detect uses when none is given: they open only while a Wayback serves the collection there. Run detect with --archive-url set to the collection's Wayback (for Archive-It: https://wayback.archive-it.org/COLLECTION-ID).")
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
			// A scatter chart: captures sit at their dates (a line chart
			// would space them evenly).
			small := excelize.Font{Size: 8, Color: "444444"}
			ch := &excelize.Chart{Type: excelize.Scatter, Title: excelize.ChartTitle{Paragraph: []excelize.RichTextRun{{Text: chartTitle(t.urir),
				Font: &excelize.Font{Size: 10, Bold: true}}}},
				Legend: excelize.ChartLegend{Position: "bottom"}, Dimension: excelize.ChartDimension{Width: 760, Height: 340},
				ShowBlanksAs: "span",
				XAxis:        excelize.ChartAxis{NumFmt: excelize.ChartNumFmt{CustomNumFmt: "yyyy-mm"}, Font: small, MajorGridLines: true},
				YAxis:        excelize.ChartAxis{NumFmt: excelize.ChartNumFmt{CustomNumFmt: "0.0"}, Font: small, MajorGridLines: true}}
			for j := range used {
				c, _ := excelize.ColumnNumberToName(j + 2)
				ch.Series = append(ch.Series, excelize.ChartSeries{
					Name:       fmt.Sprintf("%s!$%s$%d", SheetTimeline, c, first-1),
					Categories: fmt.Sprintf("%s!$A$%d:$A$%d", SheetTimeline, first, lastRow),
					Values:     fmt.Sprintf("%s!$%s$%d:$%s$%d", SheetTimeline, c, first, c, lastRow),
					Line:       excelize.LineOptions{Width: 1.5},
					Marker:     excelize.ChartMarker{Symbol: "circle", Size: 4},
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
	links := map[string][]xlsxLink{}
	for id, name := range x.f.GetSheetMap() {
		// excelize names the parts of new sheets by their sheet id.
		part := "xl/worksheets/sheet" + strconv.Itoa(id) + ".xml"
		switch name {
		case SheetCaptures:
			links[part] = x.links
		case SheetTimeMaps:
			links[part] = x.tmLinks
		}
	}
	lz := &linkZip{zw: zip.NewWriter(x.w), links: links}
	x.f.SetZipWriter(func(io.Writer) excelize.ZipWriter { return lz })
	if _, err := x.f.WriteToBuffer(); err != nil {
		return err
	}
	return lz.err
}

// linkZip is the zip writer excelize writes the workbook through. It passes
// every part on to zw, splicing hyperlinks into the sheet parts that have
// some (after their </sheetData>: cell text is XML-escaped, so that tag cannot
// occur in a cell) and their relationships into each sheet's relationships
// part.
type linkZip struct {
	zw    *zip.Writer
	links map[string][]xlsxLink // by sheet part

	sheet    string                   // the open sheet part
	cur      io.Writer                // its writer
	win      []byte                   // last bytes of the sheet, to find </sheetData>
	tail     *bytes.Buffer            // the sheet after </sheetData>
	relsPart map[string]*bytes.Buffer // the sheets' relationships that excelize wrote, by sheet part
	seen     map[string]bool
	err      error
}

// relsOf is the relationships part of a sheet part.
func relsOf(sheet string) string {
	return path.Join(path.Dir(sheet), "_rels", path.Base(sheet)+".rels")
}

var sheetDataEnd = []byte("</sheetData>")

// Create implements excelize.ZipWriter.
func (z *linkZip) Create(name string) (io.Writer, error) {
	if err := z.finishSheet(); err != nil {
		return nil, err
	}
	if z.seen == nil {
		z.seen, z.relsPart = map[string]bool{}, map[string]*bytes.Buffer{}
	}
	if _, ok := z.links[name]; ok {
		w, err := z.zw.Create(name)
		if err != nil {
			return nil, err
		}
		z.sheet, z.cur, z.win, z.tail = name, w, nil, nil
		z.seen[name] = true
		return sheetWriter{z}, nil
	}
	for sheet := range z.links {
		if name == relsOf(sheet) {
			b := new(bytes.Buffer)
			z.relsPart[sheet] = b
			return b, nil
		}
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
	for i, l := range z.links[z.sheet] {
		fmt.Fprintf(&links, `<hyperlink ref="%s" r:id="%s"/>`, l.cell, linkID(i))
	}
	tail := z.tail.String()
	if i := strings.Index(tail, "</hyperlinks>"); i >= 0 {
		tail = tail[:i] + links.String() + tail[i:]
	} else if links.Len() > 0 {
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

// Close writes the sheets' relationships and ends the zip; it does not close
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
	sheets := slices.Sorted(maps.Keys(z.links))
	for _, sheet := range sheets {
		links := z.links[sheet]
		if !z.seen[sheet] {
			return fmt.Errorf("no part %s for a sheet with hyperlinks", sheet)
		}
		rels := z.relsPart[sheet]
		if len(links) == 0 && rels == nil {
			continue
		}
		head := xml.Header + `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">`
		tail := `</Relationships>`
		if rels != nil {
			s := rels.String()
			i := strings.LastIndex(s, tail)
			if i < 0 {
				return fmt.Errorf("%s: no %s", relsOf(sheet), tail)
			}
			head, tail = s[:i], s[i:]
		}
		out, err := z.zw.Create(relsOf(sheet))
		if err != nil {
			return err
		}
		bw := bufio.NewWriter(out)
		bw.WriteString(head)
		for i, l := range links {
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
