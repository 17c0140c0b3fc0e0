package report

import (
	"bufio"
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"fmt"
	"html/template"
	"io"
	"math"
	"net/url"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/offtopic/offtopic/similarity"
)

// assets holds the page template, its style sheet and its script. The file
// system is read-only; templates are parsed from it by each constructor.
//
//go:embed assets
var assets embed.FS

// HTMLExcerptChars caps each text excerpt shown in an HTML report.
const HTMLExcerptChars = 220

// histBins is the number of bins of each overview histogram.
const histBins = 20

// HTMLWriter writes the HTML report: one self-contained page (no external
// assets, no network) with an overview, a sortable and filterable table of
// TimeMaps and a section per TimeMap with a timeline of its scores and its
// captures. Sections are rendered as results arrive into a temporary file;
// only counts, histograms and one small row per TimeMap stay in memory. Close
// writes the page to the underlying writer and removes the temporary file.
type HTMLWriter struct {
	w     io.Writer
	run   *Run
	rule  similarity.Rule
	tmpl  *template.Template
	css   template.CSS
	js    template.JS
	csp   string
	spool *os.File
	// spoolPath is the temporary file to remove at Close; "" when it was
	// unlinked right after creation.
	spoolPath string
	sw        *bufio.Writer
	written   int64
	stats     htmlStats
	hists     map[string]*histogram
	rows      []htmlRow
	err       error
	closed    bool
}

// htmlStats are the overview's counts.
type htmlStats struct {
	TimeMaps, Captures, On, Off, NotScored, Scored, WithOff, NoT0 int
}

// htmlRow is what the TimeMaps table keeps of one TimeMap.
type htmlRow struct {
	ID                           int
	URIR, Filter                 string
	Captures, On, Off, NotScored int
	Share                        float64
	HasT0                        bool
	MinV, MinS, First, Last      string
	FirstV, LastV                int64
	spoolOff, spoolLen           int64
}

// NewHTMLWriter starts an HTML report that Close writes to w. run describes
// the detection run; its rule decides which scores are marked as crossing a
// threshold.
func NewHTMLWriter(w io.Writer, run *Run) (*HTMLWriter, error) {
	rule, err := run.Rule()
	if err != nil {
		return nil, err
	}
	tmpl, css, js, err := parseHTMLAssets("assets/html.tmpl")
	if err != nil {
		return nil, err
	}
	spool, err := os.CreateTemp("", "offtopic-html-*.part")
	if err != nil {
		return nil, fmt.Errorf("html report: %w", err)
	}
	h := &HTMLWriter{w: w, run: run, rule: rule, tmpl: tmpl, css: css, js: js,
		csp: contentSecurityPolicy(string(js), string(css)), spool: spool, hists: map[string]*histogram{}}
	// Unlink at once where the system allows it, so that nothing is left
	// behind even when Close is never called.
	if os.Remove(spool.Name()) != nil {
		h.spoolPath = spool.Name()
	}
	h.sw = bufio.NewWriterSize(countingWriter{spool, &h.written}, 64<<10)
	return h, nil
}

// parseHTMLAssets parses a page template with the shared style sheet and script.
func parseHTMLAssets(names ...string) (*template.Template, template.CSS, template.JS, error) {
	css, err := assets.ReadFile("assets/report.css")
	if err != nil {
		return nil, "", "", err
	}
	js, err := assets.ReadFile("assets/report.js")
	if err != nil {
		return nil, "", "", err
	}
	t, err := template.New("page").Funcs(template.FuncMap{
		"pct":  func(a, b int) string { return pct1(ratioOf(a, b)) },
		"pct1": pct1,
		"f3":   func(v float64) string { return strconv.FormatFloat(v, 'f', 3, 64) },
	}).ParseFS(assets, names...)
	if err != nil {
		return nil, "", "", fmt.Errorf("html report template: %w", err)
	}
	return t, template.CSS(css), template.JS(js), nil
}

// contentSecurityPolicy allows nothing but the page's own script and style
// sheet (by hash) and data: images: no network, frames, forms or plugins.
// script is "" for a page without a script.
func contentSecurityPolicy(script, style string) string {
	src := "'none'"
	if script != "" {
		src = "'" + CSPHash(script) + "'"
	}
	return "default-src 'none'; script-src " + src + "; style-src '" + CSPHash(style) +
		"'; img-src data:; connect-src 'none'; frame-src 'none'; object-src 'none'; base-uri 'none'; form-action 'none'"
}

// CSPHash is the Content-Security-Policy source ("sha256-...") that allows an
// inline script or style element with exactly this content.
func CSPHash(content string) string {
	sum := sha256.Sum256([]byte(content))
	return "sha256-" + base64.StdEncoding.EncodeToString(sum[:])
}

type countingWriter struct {
	w io.Writer
	n *int64
}

func (c countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	*c.n += int64(n)
	return n, err
}

// Write renders one TimeMap's section into the temporary file and keeps its
// counts for the overview and the table.
func (h *HTMLWriter) Write(r *similarity.TimeMapResult) error {
	if h.err != nil {
		return h.err
	}
	if h.closed {
		return fmt.Errorf("html report: write after close")
	}
	id := len(h.rows)
	on, off, ns := r.Counts()
	h.stats.TimeMaps++
	h.stats.Captures += len(r.Captures)
	h.stats.On += on
	h.stats.Off += off
	h.stats.NotScored += ns
	h.stats.Scored += on + off
	if off > 0 {
		h.stats.WithOff++
	}
	if r.T0 == "" {
		h.stats.NoT0++
	}
	for i := range r.Captures {
		c := &r.Captures[i]
		if c.Verdict == similarity.VerdictNotScored || c.IsT0 {
			continue
		}
		for m, s := range c.Scores {
			hg := h.hists[m]
			if hg == nil {
				hg = newHistogram(m)
				h.hists[m] = hg
			}
			hg.add(s, ruleThreshold(h.rule, m))
		}
	}
	row := htmlRow{ID: id, URIR: r.URIR, Filter: strings.ToLower(r.URIR), Captures: len(r.Captures),
		On: on, Off: off, NotScored: ns, Share: ratioOf(off, on+off), HasT0: r.T0 != "", MinV: "9", MinS: "–"}
	key := h.keyMeasure()
	minScore := math.Inf(1)
	var first, last time.Time
	for i := range r.Captures {
		c := &r.Captures[i]
		if s, ok := c.Scores[key]; ok && c.Verdict != similarity.VerdictNotScored && s < minScore {
			minScore = s
		}
		if first.IsZero() || c.Datetime.Before(first) {
			first = c.Datetime
		}
		if last.IsZero() || c.Datetime.After(last) {
			last = c.Datetime
		}
	}
	if !math.IsInf(minScore, 1) {
		row.MinV, row.MinS = strconv.FormatFloat(minScore, 'f', 4, 64), fmtScore(minScore)
	}
	if !first.IsZero() {
		row.First, row.FirstV = first.UTC().Format("2006-01-02"), first.Unix()
		row.Last, row.LastV = last.UTC().Format("2006-01-02"), last.Unix()
	}
	row.spoolOff = h.written + int64(h.sw.Buffered())
	if err := h.tmpl.ExecuteTemplate(h.sw, "section", h.section(id, r)); err != nil {
		h.err = fmt.Errorf("html report: %w", err)
		return h.err
	}
	row.spoolLen = h.written + int64(h.sw.Buffered()) - row.spoolOff
	h.rows = append(h.rows, row)
	return nil
}

// keyMeasure is the measure whose lowest score the TimeMaps table shows: the
// first of the rule.
func (h *HTMLWriter) keyMeasure() string { return h.rule[0].Measure }

// Close writes the page (head, overview, table and the sections, most
// off-topic first) to the underlying writer and removes the temporary file.
func (h *HTMLWriter) Close() error {
	if h.closed {
		return h.err
	}
	h.closed = true
	defer h.cleanup()
	if h.err != nil {
		return h.err
	}
	if err := h.sw.Flush(); err != nil {
		h.err = fmt.Errorf("html report: spool: %w", err)
		return h.err
	}
	// Most off-topic first: share, then count, then key order.
	sort.SliceStable(h.rows, func(i, j int) bool {
		a, b := &h.rows[i], &h.rows[j]
		if a.Share != b.Share {
			return a.Share > b.Share
		}
		return a.Off > b.Off
	})
	bw := bufio.NewWriterSize(h.w, 64<<10)
	if err := h.tmpl.ExecuteTemplate(bw, "top", h.topData()); err != nil {
		h.err = fmt.Errorf("html report: %w", err)
		return h.err
	}
	for _, row := range h.rows {
		if _, err := io.Copy(bw, io.NewSectionReader(h.spool, row.spoolOff, row.spoolLen)); err != nil {
			h.err = fmt.Errorf("html report: %w", err)
			return h.err
		}
	}
	if err := h.tmpl.ExecuteTemplate(bw, "bottom", h.pageData()); err != nil {
		h.err = fmt.Errorf("html report: %w", err)
		return h.err
	}
	if err := bw.Flush(); err != nil {
		h.err = fmt.Errorf("html report: %w", err)
	}
	return h.err
}

func (h *HTMLWriter) cleanup() {
	h.spool.Close()
	if h.spoolPath != "" {
		os.Remove(h.spoolPath)
	}
	h.rows = nil
}

// htmlPage is what every page template gets.
type htmlPage struct {
	CSP, Title, Subtitle, Footer string
	CSS                          template.CSS
	JS                           template.JS
}

func (h *HTMLWriter) pageData() htmlPage {
	return newHTMLPage(h.run, "Off-topic captures", h.csp, h.css, h.js)
}

func newHTMLPage(run *Run, title, csp string, css template.CSS, js template.JS) htmlPage {
	p := htmlPage{CSP: csp, Title: title, CSS: css, JS: js}
	var sub []string
	tool := "offtopic"
	if run != nil {
		if run.Tool != "" {
			tool = run.Tool
		}
		if run.Version != "" {
			tool += " " + run.Version
		}
		if !run.Started.IsZero() {
			sub = append(sub, "run started "+run.Started.UTC().Format("2006-01-02 15:04 UTC"))
		}
		if n := len(run.Inputs); n > 0 {
			sub = append(sub, plural(n, "input file", "input files"))
		}
		if run.ArchiveURL != "" {
			sub = append(sub, "archive "+run.ArchiveURL)
		}
	}
	p.Subtitle = strings.Join(append([]string{tool}, sub...), " · ")
	p.Footer = "Written by " + tool + ". A self-contained page: it loads nothing and runs no script but its own."
	return p
}

// htmlTop is the data of the page's head, overview and TimeMaps table.
type htmlTop struct {
	htmlPage
	S          htmlStats
	Rule       string
	KeyMeasure string
	Hists      []histChart
	RunLines   []string
	Rows       []htmlRow
}

func (h *HTMLWriter) topData() htmlTop {
	t := htmlTop{htmlPage: h.pageData(), S: h.stats, Rule: h.rule.String(), KeyMeasure: h.keyMeasure(), Rows: h.rows}
	for _, m := range similarity.MeasureNames() {
		if hg := h.hists[m]; hg != nil {
			t.Hists = append(t.Hists, hg.chart(m, h.rule))
		}
	}
	t.RunLines = runLines(h.run)
	return t
}

// runLines describes the run's inputs and options for the overview.
func runLines(run *Run) []string {
	if run == nil {
		return nil
	}
	var out []string
	if n := len(run.Inputs); n > 0 {
		in := run.Inputs
		if n > 3 {
			in = in[:3]
		}
		s := "inputs: " + strings.Join(in, ", ")
		if n > 3 {
			s += fmt.Sprintf(" and %d more", n-3)
		}
		out = append(out, s)
	}
	keys := make([]string, 0, len(run.Options))
	for k := range run.Options {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		out = append(out, k+": "+run.Options[k])
	}
	return out
}

// htmlSection is one TimeMap's section.
type htmlSection struct {
	ID                       int
	URIR, URIRLink, URITLink string
	On, Off, NotScored       int
	HasT0                    bool
	T0Date, T0Reason         string
	T0Title, T0Excerpt       string
	Chart                    *timeline
	Measures                 []string
	Captures                 []htmlCapture
}

// htmlCapture is one row of a TimeMap's captures.
type htmlCapture struct {
	Date, URIM, Link       string
	Status, Words          int
	Verdict, VClass        string
	IsT0                   bool
	Scores                 []htmlScore
	Reason, Title, Excerpt string
}

type htmlScore struct {
	S       string
	Crossed bool
}

func (h *HTMLWriter) section(id int, r *similarity.TimeMapResult) htmlSection {
	on, off, ns := r.Counts()
	s := htmlSection{ID: id, URIR: r.URIR, URIRLink: httpLink(r.URIR), URITLink: httpLink(r.URIT),
		On: on, Off: off, NotScored: ns, HasT0: r.T0 != "", T0Reason: r.T0Reason}
	present := map[string]bool{}
	for i := range r.Captures {
		c := &r.Captures[i]
		for m := range c.Scores {
			present[m] = true
		}
		if c.IsT0 {
			s.T0Date = c.Datetime.UTC().Format("2006-01-02 15:04")
			s.T0Title, s.T0Excerpt = cutText(c.Title, 120), cutText(c.Excerpt, HTMLExcerptChars)
		}
	}
	for _, m := range similarity.MeasureNames() {
		if present[m] {
			s.Measures = append(s.Measures, m)
		}
	}
	s.Captures = make([]htmlCapture, len(r.Captures))
	for i := range r.Captures {
		c := &r.Captures[i]
		hc := htmlCapture{Date: c.Datetime.UTC().Format("2006-01-02 15:04"), URIM: c.URIM, Link: httpLink(c.URIM),
			Status: c.Status, Words: c.WordCount, Verdict: c.Verdict, VClass: verdictClass(c.Verdict), IsT0: c.IsT0,
			Reason: cutText(c.Reason, 300), Title: cutText(c.Title, 120), Excerpt: cutText(c.Excerpt, HTMLExcerptChars)}
		hc.Scores = make([]htmlScore, len(s.Measures))
		for j, m := range s.Measures {
			if v, ok := c.Scores[m]; ok {
				hc.Scores[j] = htmlScore{S: fmtScore(v), Crossed: c.Verdict != similarity.VerdictNotScored && crosses(h.rule, m, v)}
			}
		}
		s.Captures[i] = hc
	}
	s.Chart = newTimeline(r, s.Measures, h.rule)
	return s
}

// ruleThreshold is the rule's threshold of a measure, nil when it has none.
func ruleThreshold(rule similarity.Rule, measure string) *similarity.Threshold {
	for i := range rule {
		if rule[i].Measure == measure {
			return &rule[i]
		}
	}
	return nil
}

// crosses reports whether the rule has the measure and the score crosses it.
func crosses(rule similarity.Rule, measure string, score float64) bool {
	t := ruleThreshold(rule, measure)
	return t != nil && t.Crossed(score)
}

func verdictClass(v string) string {
	switch v {
	case similarity.VerdictOff:
		return "off"
	case similarity.VerdictOn:
		return "on"
	}
	return "ns"
}

// httpLink returns u when it is an absolute http or https URL with a host,
// and "" otherwise: a report links to nothing else (no javascript:, data:
// or relative addresses from archived data).
func httpLink(u string) string {
	if u == "" || strings.ContainsAny(u, " \t\r\n\x00") {
		return ""
	}
	p, err := url.Parse(u)
	if err != nil || p.Host == "" {
		return ""
	}
	switch strings.ToLower(p.Scheme) {
	case "http", "https":
		return u
	}
	return ""
}

// cutText shortens s to at most n bytes at a word boundary where it can,
// with an ellipsis, and replaces invalid UTF-8 and control characters.
func cutText(s string, n int) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, s)
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	if sp := strings.LastIndexByte(s[:cut], ' '); sp > n*2/3 {
		cut = sp
	}
	return strings.TrimRight(s[:cut], " ") + "…"
}

func fmtScore(v float64) string {
	s := strconv.FormatFloat(v, 'f', 3, 64)
	if s == "-0.000" {
		return "0.000"
	}
	return s
}

func ratioOf(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

func pct1(f float64) string { return strconv.FormatFloat(100*f, 'f', 1, 64) + "%" }

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// coord formats an SVG coordinate.
func coord(v float64) string { return strconv.FormatFloat(math.Round(v*10)/10, 'f', -1, 64) }

// measureRange is the axis of a measure's histogram (Measure.PlotRange).
func measureRange(m string) (lo, hi float64) {
	def, _ := similarity.LookupMeasure(m)
	return def.PlotRange()
}

// histogram counts one measure's scores in fixed bins; scores outside the
// axis count in the end bins.
type histogram struct {
	lo, hi           float64
	bins             [histBins]int
	clamped, crossed int
}

func newHistogram(m string) *histogram {
	lo, hi := measureRange(m)
	return &histogram{lo: lo, hi: hi}
}

func (hg *histogram) add(s float64, thr *similarity.Threshold) {
	if thr != nil && thr.Crossed(s) {
		hg.crossed++
	}
	i := int(math.Floor((s - hg.lo) / (hg.hi - hg.lo) * histBins))
	if i < 0 || i >= histBins {
		if s != hg.hi {
			hg.clamped++
		}
		i = min(max(i, 0), histBins-1)
	}
	hg.bins[i]++
}

// histChart is a histogram ready to draw.
type histChart struct {
	Measure          string
	W, H             int
	X0, X1, Y0       string
	Bars             []histBar
	Ticks            []svgText
	Max              string
	HasThr           bool
	Thr              string
	ThrX             string
	Crossed, Clamped int
}

type histBar struct {
	X, Y, W, H, Label string
	Cross             bool
}

type svgText struct {
	X, Y, Label string
}

func (hg *histogram) chart(m string, rule similarity.Rule) histChart {
	const w, h, left, right, top, bottom = 300, 120, 8.0, 292.0, 14.0, 102.0
	c := histChart{Measure: m, W: w, H: h, X0: coord(left), X1: coord(right), Y0: coord(bottom), Clamped: hg.clamped, Crossed: hg.crossed}
	maxN := 0
	for _, n := range hg.bins {
		maxN = max(maxN, n)
	}
	c.Max = "max " + strconv.Itoa(maxN) + " per bin"
	thr := ruleThreshold(rule, m)
	bw := (right - left) / histBins
	x := func(v float64) float64 { return left + (v-hg.lo)/(hg.hi-hg.lo)*(right-left) }
	for i, n := range hg.bins {
		a := hg.lo + float64(i)*(hg.hi-hg.lo)/histBins
		b := a + (hg.hi-hg.lo)/histBins
		bh := 0.0
		if maxN > 0 {
			bh = float64(n) / float64(maxN) * (bottom - top)
		}
		if n > 0 && bh < 1 {
			bh = 1
		}
		bar := histBar{X: coord(left + float64(i)*bw + 0.5), Y: coord(bottom - bh), W: coord(bw - 1), H: coord(bh),
			Label: fmt.Sprintf("%s in [%s, %s): %d", m, fmtScore(a), fmtScore(b), n)}
		bar.Cross = thr != nil && thr.Crossed(a)
		c.Bars = append(c.Bars, bar)
	}
	step := (hg.hi - hg.lo) / 4
	for i := 0; i <= 4; i++ {
		v := hg.lo + float64(i)*step
		c.Ticks = append(c.Ticks, svgText{X: coord(math.Min(math.Max(x(v), left+8), right-8)), Y: coord(bottom + 13), Label: strconv.FormatFloat(v, 'f', -1, 64)})
	}
	if thr != nil {
		c.HasThr = true
		c.Thr = strconv.FormatFloat(thr.Value, 'f', -1, 64)
		c.ThrX = coord(x(math.Min(math.Max(thr.Value, hg.lo), hg.hi)))
	}
	return c
}

// timeline is a TimeMap's scores over time, ready to draw.
type timeline struct {
	W, H                                    int
	Left, Right, Top, Bottom, PlotH, LabelX string
	Lines                                   []tlLine
	Dots                                    []tlDot
	Thresholds                              []tlThr
	YTicks                                  []tlTick
	XTicks                                  []tlTick
	Bands                                   []tlBand
	Marks                                   []tlMark
	Legend                                  []string
}

type tlLine struct{ Measure, Points string }
type tlDot struct{ Measure, X, Y string }
type tlThr struct{ Y, TY, Label string }
type tlTick struct{ X, Y, TY, Label string }
type tlBand struct{ X, W, Label string }
type tlMark struct{ Class, D, Label string }

// newTimeline draws each measure of a TimeMap against capture time on one
// axis (similarities in [0, 1], changes from -1), the rule's thresholds and
// the off-topic and unscored captures.
func newTimeline(r *similarity.TimeMapResult, measures []string, rule similarity.Rule) *timeline {
	if len(r.Captures) == 0 {
		return nil
	}
	const w, h, left, right, top, bottom = 1000, 170, 44.0, 990.0, 8.0, 146.0
	tl := &timeline{W: w, H: h, Left: coord(left), Right: coord(right), Top: coord(top), Bottom: coord(bottom),
		PlotH: coord(bottom - top), LabelX: coord(left - 5), Legend: measures}
	lo, hi := 0.0, 1.0
	for _, m := range measures {
		if def, _ := similarity.LookupMeasure(m); def.Min < 0 {
			lo = -1
		}
	}
	tmin, tmax := r.Captures[0].Datetime, r.Captures[0].Datetime
	for i := range r.Captures {
		c := &r.Captures[i]
		if c.Datetime.Before(tmin) {
			tmin = c.Datetime
		}
		if c.Datetime.After(tmax) {
			tmax = c.Datetime
		}
		if c.Verdict == similarity.VerdictNotScored {
			continue
		}
		for _, s := range c.Scores {
			if s > hi {
				hi = math.Min(math.Ceil(s*4)/4, 1.5)
			}
		}
	}
	span := tmax.Sub(tmin).Seconds()
	xOf := func(t time.Time) float64 {
		if span <= 0 {
			return (left + right) / 2
		}
		return left + 6 + t.Sub(tmin).Seconds()/span*(right-left-12)
	}
	yOf := func(v float64) float64 {
		v = math.Min(math.Max(v, lo), hi)
		return bottom - (v-lo)/(hi-lo)*(bottom-top)
	}
	step := 0.25
	if hi-lo > 1.25 {
		step = 0.5
	}
	for v := lo; v <= hi+1e-9; v += step {
		y := yOf(v)
		tl.YTicks = append(tl.YTicks, tlTick{Y: coord(y), TY: coord(y + 3), Label: strconv.FormatFloat(math.Round(v*100)/100, 'f', -1, 64)})
	}
	tl.XTicks = timeTicks(tmin, tmax, xOf, bottom+15)
	for _, t := range rule {
		if !slices.Contains(measures, t.Measure) {
			continue
		}
		y := yOf(t.Value)
		tl.Thresholds = append(tl.Thresholds, tlThr{Y: coord(y), TY: coord(y - 3), Label: t.Measure + " < " + strconv.FormatFloat(t.Value, 'f', -1, 64)})
	}
	caps := make([]*similarity.CaptureResult, len(r.Captures))
	for i := range r.Captures {
		caps[i] = &r.Captures[i]
	}
	sort.SliceStable(caps, func(i, j int) bool { return caps[i].Datetime.Before(caps[j].Datetime) })
	for _, m := range measures {
		var pts strings.Builder
		n := 0
		for _, c := range caps {
			s, ok := c.Scores[m]
			if !ok || c.Verdict == similarity.VerdictNotScored {
				continue
			}
			x, y := coord(xOf(c.Datetime)), coord(yOf(s))
			if n > 0 {
				pts.WriteByte(' ')
			}
			pts.WriteString(x + "," + y)
			n++
			if rule.Has(m) {
				tl.Dots = append(tl.Dots, tlDot{Measure: m, X: x, Y: y})
			}
		}
		if n > 0 {
			tl.Lines = append(tl.Lines, tlLine{Measure: m, Points: pts.String()})
		}
	}
	bandW := 8.0
	for _, c := range caps {
		x := xOf(c.Datetime)
		date := c.Datetime.UTC().Format("2006-01-02")
		switch c.Verdict {
		case similarity.VerdictOff:
			tl.Bands = append(tl.Bands, tlBand{X: coord(x - bandW/2), W: coord(bandW), Label: date + " off-topic: " + cutText(c.Reason, 160)})
			tl.Marks = append(tl.Marks, tlMark{Class: "offmark", D: fmt.Sprintf("M%s %sl-5 8h10z", coord(x), coord(bottom+1)), Label: date + " off-topic"})
		case similarity.VerdictNotScored:
			tl.Marks = append(tl.Marks, tlMark{Class: "nsmark", D: fmt.Sprintf("M%s %sl-3 6h6z", coord(x), coord(bottom+1)), Label: date + " not scored: " + cutText(c.Reason, 160)})
		}
	}
	return tl
}

// timeTicks labels years when the TimeMap spans two or more, else the first
// and last dates.
func timeTicks(tmin, tmax time.Time, xOf func(time.Time) float64, y float64) []tlTick {
	tmin, tmax = tmin.UTC(), tmax.UTC()
	years := tmax.Year() - tmin.Year()
	var out []tlTick
	if years < 2 {
		out = append(out, tlTick{X: coord(xOf(tmin) + 20), TY: coord(y), Label: tmin.Format("2006-01-02")})
		if tmax.Sub(tmin) > 0 {
			out = append(out, tlTick{X: coord(xOf(tmax) - 20), TY: coord(y), Label: tmax.Format("2006-01-02")})
		}
		return out
	}
	step := (years + 9) / 10
	for yr := tmin.Year() + 1; yr <= tmax.Year(); yr += step {
		t := time.Date(yr, 1, 1, 0, 0, 0, 0, time.UTC)
		out = append(out, tlTick{X: coord(xOf(t)), TY: coord(y), Label: strconv.Itoa(yr)})
	}
	return out
}
