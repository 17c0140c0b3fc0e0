package report

import (
	"container/heap"
	"fmt"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/offtopic/offtopic/similarity"
)

// timeline writes the Timeline sheet: for each of the most affected TimeMaps
// a block of scored captures (date, then each measure) and a line chart of
// it, each block on a page of its own when printed (a page break never cuts
// a chart). The sheet is small (TimelineTimeMaps blocks), written cell by
// cell: a stream writer could not place page breaks.
func (x *XLSXWriter) timeline() error {
	sw := &sheetRows{f: x.f, sheet: SheetTimeline}
	if err := x.f.SetColWidth(SheetTimeline, "A", "A", 30); err != nil {
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
		if k > 0 {
			if err := x.f.InsertPageBreak(SheetTimeline, "A"+strconv.Itoa(start)); err != nil {
				return err
			}
		}
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
				Legend: excelize.ChartLegend{Position: "bottom", ShowLegendKey: true}, Dimension: excelize.ChartDimension{Width: 760, Height: 340},
				ShowBlanksAs: "span",
				// Dates under the plot, not where the axis crosses 0
				// (word count changes go below it).
				XAxis: excelize.ChartAxis{NumFmt: excelize.ChartNumFmt{CustomNumFmt: "yyyy-mm"}, Font: small, MajorGridLines: true,
					TickLabelPosition: excelize.ChartTickLabelLow},
				YAxis: excelize.ChartAxis{NumFmt: excelize.ChartNumFmt{CustomNumFmt: "0.0"}, Font: small, MajorGridLines: true}}
			for j, i := range used {
				c, _ := excelize.ColumnNumberToName(j + 2)
				// Colours set, not left to the application: LibreOffice
				// draws unset ones white, markers and legend keys alike.
				colour := excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{measureColour(similarity.StandardMeasureNames()[i])}}
				ch.Series = append(ch.Series, excelize.ChartSeries{
					Name:       fmt.Sprintf("%s!$%s$%d", SheetTimeline, c, first-1),
					Categories: fmt.Sprintf("%s!$A$%d:$A$%d", SheetTimeline, first, lastRow),
					Values:     fmt.Sprintf("%s!$%s$%d:$%s$%d", SheetTimeline, c, first, c, lastRow),
					Fill:       colour,
					Line:       excelize.LineOptions{Type: excelize.LineSolid, Width: 1.25},
					Marker:     excelize.ChartMarker{Symbol: "circle", Size: 5, Fill: colour},
				})
			}
			if err := x.f.AddChart(SheetTimeline, "K"+strconv.Itoa(start), ch); err != nil {
				return err
			}
		}
		n = max(n, start+18) + 1 // leave room for the chart
	}
	return nil
}

// sheetRows writes rows into a sheet through the File, as a stream writer's
// SetRow does (an excelize.Cell carries its style).
type sheetRows struct {
	f     *excelize.File
	sheet string
}

// SetRow writes vals from cell on.
func (w *sheetRows) SetRow(cell string, vals []any) error {
	col, row, err := excelize.CellNameToCoordinates(cell)
	if err != nil {
		return err
	}
	for i, v := range vals {
		name, err := excelize.CoordinatesToCellName(col+i, row)
		if err != nil {
			return err
		}
		if c, ok := v.(excelize.Cell); ok {
			if err := w.f.SetCellStyle(w.sheet, name, name, c.StyleID); err != nil {
				return err
			}
			v = c.Value
		}
		if v == nil {
			continue
		}
		if err := w.f.SetCellValue(w.sheet, name, v); err != nil {
			return err
		}
	}
	return nil
}

// measureColour is a measure's colour in charts, as in the HTML report
// (grey for a measure it does not know).
func measureColour(m string) string {
	switch m {
	case similarity.MeasureCosine:
		return "1F77B4"
	case similarity.MeasureJaccard:
		return "FF7F0E"
	case similarity.MeasureTFIntersection:
		return "9467BD"
	case similarity.MeasureSEKernel:
		return "8C564B"
	case similarity.MeasureWordCount:
		return "2CA02C"
	case similarity.MeasureByteCount:
		return "17BECF"
	case similarity.MeasureTopic:
		return "E377C2"
	}
	return "7F7F7F"
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
