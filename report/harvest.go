package report

import (
	"fmt"
	"html/template"
	"io"
	"math"
	"strings"
)

// Harvest is what a focused crawl's harvest page shows: for each strategy
// crawled, the accumulated relevance and (with an evaluation) the relevant
// pages collected, against the documents crawled, with the budgets marked.
type Harvest struct {
	// Title names the collection.
	Title string
	// Budgets are marked on the document axis.
	Budgets []int
	Lines   []HarvestLine
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
h1{font-size:1.3em}h2{font-size:1.1em;margin-top:1.5em}
svg{background:#fff;border:1px solid #ccc}.axis{stroke:#444}.budget{stroke:#999;stroke-dasharray:4 3}
.lbl{font-size:11px;fill:#444}polyline{fill:none;stroke-width:2}
table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 8px;text-align:right}th:first-child,td:first-child{text-align:left}
.c0{stroke:#1f77b4;color:#1f77b4}.c1{stroke:#d62728;color:#d62728}.c2{stroke:#2ca02c;color:#2ca02c}.c3{stroke:#9467bd;color:#9467bd}.c4{stroke:#ff7f0e;color:#ff7f0e}.c5{stroke:#8c564b;color:#8c564b}`

var harvestTemplate = template.Must(template.New("harvest").Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{{.CSP}}">
<meta name="referrer" content="no-referrer">
<title>Harvest: {{.Title}}</title><style>{{.Style}}</style></head>
<body><h1>Harvest: {{.Title}}</h1>
{{range .Charts}}<h2>{{.Name}}</h2>
<svg id="{{.ID}}" width="{{$.W}}" height="{{$.H}}" viewBox="0 0 {{$.W}} {{$.H}}" role="img" aria-label="{{.Name}} against documents crawled">
<line class="axis" x1="{{$.X0}}" y1="{{$.Y0}}" x2="{{$.X1}}" y2="{{$.Y0}}"/><line class="axis" x1="{{$.X0}}" y1="{{$.Y0}}" x2="{{$.X0}}" y2="{{$.Y1}}"/>
<text class="lbl" x="{{$.X1}}" y="{{$.LY}}" text-anchor="end">documents crawled ({{$.MaxX}})</text>
<text class="lbl" x="{{$.X0}}" y="{{$.TY}}">{{.YMax}}</text>
{{range .Budgets}}<line class="budget" x1="{{.X}}" y1="{{$.Y0}}" x2="{{.X}}" y2="{{$.Y1}}"/><text class="lbl budget-label" x="{{.X}}" y="{{$.LY}}" text-anchor="middle">{{.N}}</text>
{{end}}{{range .Lines}}<polyline class="{{.Class}}" points="{{.Points}}"><title>{{.Name}}</title></polyline>
{{end}}</svg>
{{end}}<h2>At the budgets</h2>
<table id="budgets"><thead><tr><th>strategy</th>{{range .Budgets}}<th>@{{.}}</th>{{end}}</tr></thead><tbody>
{{range .Rows}}<tr><td class="{{.Class}}">{{.Name}}</td>{{range .Cells}}<td>{{.}}</td>{{end}}</tr>
{{end}}</tbody></table>
<p>Relevance accumulated is the sum of the strategy's own scores (not comparable across scoring rules);
relevant pages come from the relevance list given to <code>--evaluate</code>.</p>
</body></html>
`))

// WriteHarvestHTML writes the harvest page: one self-contained file with no
// script, a strict Content-Security-Policy, every name escaped.
func WriteHarvestHTML(w io.Writer, h *Harvest) error {
	const width, height, left, right, top, bottom = 760, 320, 50, 20, 20, 30
	maxX := 1
	for _, l := range h.Lines {
		maxX = max(maxX, len(l.Relevance))
	}
	for _, b := range h.Budgets {
		maxX = max(maxX, b)
	}
	x := func(i int) float64 { return left + float64(i)*float64(width-left-right)/float64(maxX) }
	type point = struct {
		X float64
		N int
	}
	type line struct{ Name, Class, Points string }
	type chart struct {
		Name, ID string
		YMax     string
		Budgets  []point
		Lines    []line
	}
	var budgets []point
	for _, b := range h.Budgets {
		budgets = append(budgets, point{x(b), b})
	}
	mk := func(name, id string, get func(l HarvestLine) []float64, format string) *chart {
		ymax := 0.0
		any := false
		for _, l := range h.Lines {
			for _, v := range get(l) {
				ymax, any = math.Max(ymax, v), true
			}
		}
		if !any {
			return nil
		}
		if ymax <= 0 {
			ymax = 1
		}
		c := &chart{Name: name, ID: id, YMax: fmt.Sprintf(format, ymax), Budgets: budgets}
		for i, l := range h.Lines {
			var pts []string
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", x(0), float64(height-bottom)))
			for j, v := range get(l) {
				y := float64(height-bottom) - v/ymax*float64(height-top-bottom)
				pts = append(pts, fmt.Sprintf("%.1f,%.1f", x(j+1), y))
			}
			c.Lines = append(c.Lines, line{l.Name, fmt.Sprintf("c%d", i%6), strings.Join(pts, " ")})
		}
		return c
	}
	var charts []*chart
	if c := mk("Accumulated relevance", "relevance", func(l HarvestLine) []float64 { return l.Relevance }, "%.1f"); c != nil {
		charts = append(charts, c)
	}
	if c := mk("Relevant pages collected", "relevant", func(l HarvestLine) []float64 {
		out := make([]float64, len(l.Relevant))
		for i, v := range l.Relevant {
			out[i] = float64(v)
		}
		return out
	}, "%.0f"); c != nil {
		charts = append(charts, c)
	}
	type row struct {
		Name, Class string
		Cells       []string
	}
	var rows []row
	for i, l := range h.Lines {
		r := row{Name: l.Name, Class: fmt.Sprintf("c%d", i%6)}
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
	return harvestTemplate.Execute(w, map[string]any{
		"Title": h.Title, "CSP": contentSecurityPolicy("", harvestStyle), "Style": template.CSS(harvestStyle),
		"Charts": charts, "Budgets": h.Budgets, "Rows": rows, "MaxX": maxX,
		"W": width, "H": height, "X0": left, "X1": width - right, "Y0": height - bottom, "Y1": top,
		"LY": height - 8, "TY": top - 6,
	})
}
