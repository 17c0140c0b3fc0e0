package report

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/xuri/excelize/v2"

	"github.com/offtopic/offtopic/similarity"
)

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
