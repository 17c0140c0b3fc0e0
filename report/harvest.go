package report

import (
	"fmt"
	"html/template"
	"io"
	"math"
	"strconv"
	"strings"
)

// Harvest is what a focused crawl's harvest page shows: for each strategy
// crawled, the relevant pages collected (with an evaluation) and the
// accumulated relevance, against the documents crawled, with the budgets
// marked.
type Harvest struct {
	// Title names the collection.
	Title string
	// Budgets are marked on the document axis.
	Budgets []int
	Lines   []HarvestLine
	// ArchiveRelevant is how many relevant pages the archive holds, drawn
	// as the ceiling of the relevant pages a crawl can collect (0: not
	// known).
	ArchiveRelevant int
}

// HarvestLine is one strategy's crawl.
type HarvestLine struct {
	Name string
	// Relevance[i] is the relevance accumulated over the first i+1 documents.
	Relevance []float64
	// Relevant[i] is the relevant pages among the first i+1 documents (nil
	// without an evaluation).
	Relevant []int
}

// harvestStyle is the page's only style sheet (allowed by its hash).
const harvestStyle = `body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222}
h1{font-size:1.3em;margin-bottom:.3em}h2{font-size:1.1em;margin:1.2em 0 .3em}
.legend{display:flex;flex-wrap:wrap;gap:6px 18px;margin:.2em 0 .6em;padding:6px 10px;border:1px solid #ccc;background:#fafafa}
.legend span{white-space:nowrap}.legend i{display:inline-block;width:22px;height:0;border-top:3px solid;vertical-align:middle;margin-right:5px}
.legend i.ceiling{border-top:2px dashed #555}.legend i.budget{border-top:2px dashed #999}
.note{color:#555;font-size:13px;margin:.2em 0}
svg{background:#fff;border:1px solid #ccc}.axis{stroke:#444}.budget{stroke:#999;stroke-dasharray:4 3}.ceiling{stroke:#555;stroke-dasharray:6 3}
.grid{stroke:#eee}.lbl{font-size:11px;fill:#444}.ttl{font-size:12px;fill:#222}polyline{fill:none;stroke-width:2}
table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 8px;text-align:right}th:first-child,td:first-child{text-align:left}
.c0{stroke:#1f77b4;color:#1f77b4}.c1{stroke:#d62728;color:#d62728}.c2{stroke:#2ca02c;color:#2ca02c}.c3{stroke:#9467bd;color:#9467bd}.c4{stroke:#ff7f0e;color:#ff7f0e}.c5{stroke:#8c564b;color:#8c564b}`

var harvestTemplate = template.Must(template.New("harvest").Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{{.CSP}}">
<meta name="referrer" content="no-referrer">
<title>Harvest: {{.Title}}</title><style>{{.Style}}</style></head>
<body><h1>Harvest: {{.Title}}</h1>
<div class="legend" id="legend">{{range .Legend}}<span><i class="{{.Class}}"></i>{{.Name}}</span>{{end}}{{if .Ceiling}}<span><i class="ceiling"></i>relevant pages the archive holds ({{.Ceiling}})</span>{{end}}{{if .Budgets}}<span><i class="budget"></i>budgets (documents)</span>{{end}}</div>
{{range .Charts}}<h2>{{.Name}}</h2>{{if .Note}}<p class="note">{{.Note}}</p>{{end}}
<svg id="{{.ID}}" width="{{$.W}}" height="{{$.H}}" viewBox="0 0 {{$.W}} {{$.H}}" role="img" aria-label="{{.Name}} against documents crawled">
{{range .YTicks}}<line class="grid" x1="{{$.X0}}" y1="{{.Y}}" x2="{{$.X1}}" y2="{{.Y}}"/><text class="lbl" x="{{$.YLabelX}}" y="{{.TextY}}" text-anchor="end">{{.Label}}</text>
{{end}}{{range .XTicks}}<text class="lbl" x="{{.X}}" y="{{$.XLabelY}}" text-anchor="middle">{{.Label}}</text>
{{end}}<line class="axis" x1="{{$.X0}}" y1="{{$.Y0}}" x2="{{$.X1}}" y2="{{$.Y0}}"/><line class="axis" x1="{{$.X0}}" y1="{{$.Y0}}" x2="{{$.X0}}" y2="{{$.Y1}}"/>
<text class="ttl" x="{{$.XMid}}" y="{{$.XTitleY}}" text-anchor="middle">documents crawled</text>
{{range .Budgets}}<line class="budget" x1="{{.X}}" y1="{{$.Y0}}" x2="{{.X}}" y2="{{$.Y1}}"/><text class="lbl budget-label" x="{{.X}}" y="{{$.BudgetY}}" text-anchor="middle">{{.Label}}</text>
{{end}}{{if .HasCeiling}}<line class="ceiling" x1="{{$.X0}}" y1="{{.CeilingY}}" x2="{{$.X1}}" y2="{{.CeilingY}}"/><text class="lbl" x="{{$.CeilingX}}" y="{{.CeilingTextY}}">{{.CeilingLabel}}</text>
{{end}}{{range .Lines}}<polyline class="{{.Class}}" points="{{.Points}}"><title>{{.Name}}</title></polyline>
{{end}}</svg>
{{end}}<h2>At the budgets</h2>
<table id="budgets"><thead><tr><th>strategy</th>{{range .Budgets}}<th>@{{.}}</th>{{end}}</tr></thead><tbody>
{{range .Rows}}<tr><td class="{{.Class}}">{{.Name}}</td>{{range .Cells}}<td>{{.}}</td>{{end}}</tr>
{{end}}</tbody></table>
<p class="note">Relevant pages come from the relevance list given to <code>--evaluate</code>{{if .Ceiling}}; the archive holds {{.Ceiling}} of them{{end}}.
Accumulated relevance is the sum of each strategy's own scores: strategies score differently, so it is not comparable across them.</p>
</body></html>
`))

// Geometry of the harvest page's charts.
const (
	hvW, hvH                       = 760, 330
	hvLeft, hvRight, hvTop, hvBott = 56, 30, 24, 46
)

// harvestChart is one chart of the harvest page.
type harvestChart struct {
	Name, ID, Note string
	YTicks         []harvestTick
	XTicks         []harvestTick
	Budgets        []harvestTick
	Lines          []harvestPolyline
	HasCeiling     bool
	CeilingY       string
	CeilingTextY   string
	CeilingLabel   string
}

type harvestTick struct{ X, Y, TextY, Label string }

type harvestPolyline struct{ Name, Class, Points string }

// WriteHarvestHTML writes the harvest page: one self-contained file with no
// script, a strict Content-Security-Policy, every name escaped. The legend
// comes first, then the relevant pages collected (with an evaluation), the
// fair comparison of strategies, then the accumulated relevance.
func WriteHarvestHTML(w io.Writer, h *Harvest) error {
	maxX := 1
	for _, l := range h.Lines {
		maxX = max(maxX, len(l.Relevance))
	}
	for _, b := range h.Budgets {
		maxX = max(maxX, b)
	}
	var charts []*harvestChart
	relevant := func(l HarvestLine) []float64 {
		out := make([]float64, len(l.Relevant))
		for i, v := range l.Relevant {
			out[i] = float64(v)
		}
		return out
	}
	if c := harvestChartOf(h, maxX, "Relevant pages collected", "relevant", "", relevant, true); c != nil {
		charts = append(charts, c)
	}
	if c := harvestChartOf(h, maxX, "Accumulated relevance", "relevance",
		"The sum of each strategy's own relevance scores: not comparable across strategies, which score differently.",
		func(l HarvestLine) []float64 { return l.Relevance }, false); c != nil {
		charts = append(charts, c)
	}
	type row struct {
		Name, Class string
		Cells       []string
	}
	var rows []row
	var legend []harvestPolyline
	for i, l := range h.Lines {
		r := row{Name: l.Name, Class: fmt.Sprintf("c%d", i%6)}
		legend = append(legend, harvestPolyline{Name: l.Name, Class: r.Class})
		for _, b := range h.Budgets {
			cell := "–"
			if k := min(b, len(l.Relevance)) - 1; k >= 0 {
				cell = fmt.Sprintf("%.1f", l.Relevance[k])
				if k < len(l.Relevant) {
					cell = fmt.Sprintf("%d relevant, %.1f", l.Relevant[k], l.Relevance[k])
				}
			}
			r.Cells = append(r.Cells, cell)
		}
		rows = append(rows, r)
	}
	ceiling := 0
	if len(charts) > 0 && charts[0].HasCeiling {
		ceiling = h.ArchiveRelevant
	}
	return harvestTemplate.Execute(w, map[string]any{
		"Title": h.Title, "CSP": contentSecurityPolicy("", harvestStyle), "Style": template.CSS(harvestStyle),
		"Charts": charts, "Budgets": h.Budgets, "Rows": rows, "Legend": legend, "Ceiling": ceiling,
		"W": hvW, "H": hvH, "X0": hvLeft, "X1": hvW - hvRight, "Y0": hvH - hvBott, "Y1": hvTop, "XMid": (hvLeft + hvW - hvRight) / 2,
		"YLabelX": hvLeft - 6, "CeilingX": hvLeft + 6, "XLabelY": hvH - hvBott + 15, "XTitleY": hvH - 10, "BudgetY": hvTop - 8,
	})
}

// harvestChartOf draws one measure of the crawls against documents crawled,
// nil when no line has any value; ceiling draws h.ArchiveRelevant.
func harvestChartOf(h *Harvest, maxX int, name, id, note string, get func(HarvestLine) []float64, ceiling bool) *harvestChart {
	ymax, any := 0.0, false
	for _, l := range h.Lines {
		for _, v := range get(l) {
			ymax, any = math.Max(ymax, v), true
		}
	}
	if !any {
		return nil
	}
	c := &harvestChart{Name: name, ID: id, Note: note}
	if ceiling && h.ArchiveRelevant > 0 {
		// Room above the ceiling: its line is not the chart's edge.
		ymax = math.Max(ymax, 1.08*float64(h.ArchiveRelevant))
		c.HasCeiling = true
	}
	step := niceStep(ymax, 4)
	ymax = math.Max(step, math.Ceil(ymax/step)*step)
	x := func(i float64) float64 { return hvLeft + i*float64(hvW-hvLeft-hvRight)/float64(maxX) }
	y := func(v float64) float64 { return float64(hvH-hvBott) - v/ymax*float64(hvH-hvTop-hvBott) }
	for k := 0; float64(k)*step <= ymax+step/2; k++ {
		v := float64(k) * step
		c.YTicks = append(c.YTicks, harvestTick{Y: coord(y(v)), TextY: coord(y(v) + 4), Label: tickLabel(v, step)})
	}
	xstep := math.Max(1, niceStep(float64(maxX), 6))
	for k := 0; float64(k)*xstep <= float64(maxX)+xstep/2; k++ {
		v := float64(k) * xstep
		c.XTicks = append(c.XTicks, harvestTick{X: coord(x(v)), Label: tickLabel(v, xstep)})
	}
	for _, b := range h.Budgets {
		c.Budgets = append(c.Budgets, harvestTick{X: coord(x(float64(b))), Label: strconv.Itoa(b)})
	}
	if c.HasCeiling {
		// The label under the line, at the left: budgets are labelled
		// above the plot, lines mostly rise to the right.
		c.CeilingY, c.CeilingTextY = coord(y(float64(h.ArchiveRelevant))), coord(y(float64(h.ArchiveRelevant))+13)
		c.CeilingLabel = fmt.Sprintf("%d relevant pages in the archive", h.ArchiveRelevant)
	}
	for i, l := range h.Lines {
		pts := []string{coord(x(0)) + "," + coord(y(0))}
		for j, v := range get(l) {
			pts = append(pts, coord(x(float64(j+1)))+","+coord(y(v)))
		}
		c.Lines = append(c.Lines, harvestPolyline{l.Name, fmt.Sprintf("c%d", i%6), strings.Join(pts, " ")})
	}
	return c
}

// tickLabel prints an axis value with as many decimals as its step needs.
func tickLabel(v, step float64) string {
	return strconv.FormatFloat(v, 'f', max(0, int(-math.Floor(math.Log10(step)))), 64)
}

// niceStep is a round step (1, 2 or 5 times a power of ten) that cuts
// [0, span] into about n parts.
func niceStep(span float64, n int) float64 {
	if span <= 0 {
		return 1
	}
	raw := span / float64(n)
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= raw {
			return m * p
		}
	}
	return 10 * p
}
