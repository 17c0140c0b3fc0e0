package report

import (
	"bufio"
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"math"
	"net/url"
	"os"
	"regexp"
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

// DefaultArchiveURL is the archive URL detect gives local captures' URI-Ms
// when --archive-url is not set: a Wayback on the curator's own machine,
// which is rarely running. Reports say so when a run used it.
const DefaultArchiveURL = "http://localhost:8080/collection"

// histBins is the number of bins of each overview histogram.
const histBins = 20

// maxReasonKinds caps the distinct reasons the "not scored" breakdown keeps;
// the rest count as "other".
const maxReasonKinds = 200

// HTMLWriter writes the HTML report: one self-contained page (no external
// assets, no network) that opens at any collection size. The page holds the
// overview (counts of pages and of other types, verdicts, the captures kept
// on-topic by the curator's reading, why captures were not scored), a worklist of
// pages most off-topic first and histograms of the scores, all rendered in Go;
// each TimeMap's captures travel as compact JSON in an inert data block that
// the page's script renders (with textContent, never as markup) only when the
// curator opens that TimeMap. The script also keeps the curator's review
// decisions and saves them as a decisions file (see ReadDecisions).
//
// Data blocks are written as results arrive into a temporary file; only
// counts, histograms and one small row per TimeMap stay in memory. Close
// writes the page to the underlying writer and removes the temporary file.
type HTMLWriter struct {
	w     io.Writer
	run   *Run
	rule  similarity.Rule
	plain bool // the run applied the paper's plain rule
	// prefix is the archive URL with a trailing slash: URI-Ms of the form
	// prefix + timestamp + "/" + URI-R are not repeated in the page.
	prefix string
	tmpl   *template.Template
	css    template.CSS
	js     template.JS
	csp    string
	spool  *os.File
	// spoolPath is the temporary file to remove at Close; "" when it was
	// unlinked right after creation.
	spoolPath string
	sw        *bufio.Writer
	stats     htmlStats
	kinds     map[string]int
	reasons   map[string]int
	hists     map[string]*histogram
	rows      []htmlRow
	err       error
	closed    bool
}

// htmlStats are the overview's counts. Pages are TimeMaps with at least one
// HTML capture; the measures apply to nothing else.
type htmlStats struct {
	TimeMaps, Captures                    int
	Pages, PageCaptures                   int
	Other, OtherCaptures                  int
	On, Off, Guarded, NotScored, Scored   int
	PagesWithOff, PagesGuarded, PagesNoT0 int
	// OffKinds counts off-topic captures by kind, in the order of
	// similarity.Kinds.
	OffKinds [numKinds]int
	// Of an audit: documents below the topic threshold, and documents
	// topical enough but published outside the event's window.
	BelowTopic, Outside int
}

// numKinds is the number of kinds of off-topic (similarity.Kinds).
const numKinds = 11

// kindIndex is the position of a kind in similarity.Kinds, -1 for none.
func kindIndex(k similarity.Kind) int {
	if k == "" {
		return -1
	}
	return slices.Index(similarity.Kinds(), k)
}

// htmlRow is what the worklist keeps of one TimeMap; it goes into the page
// as a JSON array (see rowJSON).
type htmlRow struct {
	URIR, Key                             string
	Kind                                  string
	Captures, On, Off, NotScored, Guarded int
	MinKey                                float64 // NaN when nothing was scored
	First, Last                           int     // yyyymmdd
	HasT0                                 bool
	// OffKinds has bit i set when an off-topic capture is of kind i of
	// similarity.Kinds.
	OffKinds int
	// Audit is what an audit's worklist shows of its document; nil
	// elsewhere.
	Audit *auditRow
}

// auditRow is what an audit's worklist shows of a document: its topic
// score and time score (NaN where missing), when it was published (yyyymmdd,
// 0 when undated) and how that was found, and whether that is in the window.
type auditRow struct {
	Topic, Time float64
	Published   int
	From        string
	InWindow    bool
	// Why is the verdict: auditOn, auditBelow, auditOutside or auditNS.
	Why int
}

// Verdicts of an audited document, as the page's data has them.
const (
	auditOn      = 0
	auditBelow   = 1 // off-topic: topic below the threshold
	auditOutside = 2 // topical, published outside the window
	auditNS      = 3
)

// newAuditRow reads an audited document's row off its capture.
func newAuditRow(c *similarity.CaptureResult) *auditRow {
	a := &auditRow{Topic: math.NaN(), Time: math.NaN()}
	if s, ok := c.Scores[similarity.MeasureTopic]; ok {
		a.Topic = s
	}
	if s, ok := c.Scores["temp_r"]; ok {
		a.Time = s
	}
	if p := c.Published; p != nil {
		a.From, a.InWindow = cutText(p.From, 40), p.InWindow
		if !p.Time.IsZero() {
			a.Published = yyyymmdd(p.Time)
		}
	}
	return a
}

// yyyymmdd is a time's UTC day as a number.
func yyyymmdd(t time.Time) int {
	t = t.UTC()
	return t.Year()*10000 + int(t.Month())*100 + t.Day()
}

// NewHTMLWriter starts an HTML report that Close writes to w. run describes
// the detection run; its rule decides which scores are marked
// as having decided a verdict.
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
	h := &HTMLWriter{w: w, run: run, rule: rule, plain: run.plain(), tmpl: tmpl, css: css, js: js,
		csp: contentSecurityPolicy(string(js), string(css)), spool: spool,
		kinds: map[string]int{}, reasons: map[string]int{}, hists: map[string]*histogram{}}
	if run != nil && run.ArchiveURL != "" {
		if p := strings.TrimRight(run.ArchiveURL, "/") + "/"; httpLink(p+"x") != "" {
			h.prefix = p
		}
	}
	// Unlink at once where the system allows it, so that nothing is left
	// behind even when Close is never called.
	if os.Remove(spool.Name()) != nil {
		h.spoolPath = spool.Name()
	}
	h.sw = bufio.NewWriterSize(spool, 64<<10)
	return h, nil
}

// Audit returns the event and its window ("start/end") when the run is an
// audit of an extracted collection against an event (crawl audit), where
// every document is compared with the event's reference documents, not with
// a t0 of its own.
func (r *Run) Audit() (event, window string, ok bool) {
	if r == nil || r.Options["audit"] == "" {
		return "", "", false
	}
	return r.Options["audit"], r.Options["window"], true
}

// plain reports whether the run applied the paper's plain rule, without
// the curator's reading.
func (r *Run) plain() bool { return r != nil && r.Options["plain"] == "true" }

// DefaultArchive reports whether the run's URI-Ms point at DefaultArchiveURL.
func (r *Run) DefaultArchive() bool {
	return r != nil && strings.TrimRight(r.ArchiveURL, "/") == DefaultArchiveURL
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
		"num":  thousands,
		"add":  func(a, b int) int { return a + b },
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

// Verdict codes of the page's data: what the script shows and filters on.
const (
	codeOn      = 0
	codeOff     = 1
	codeNS      = 2
	codeGuarded = 3 // on-topic although the rule's thresholds were crossed
)

// guarded reports whether an on-topic capture crossed thresholds of the rule
// (and so was kept on-topic by the curator's reading).
func (h *HTMLWriter) guarded(c *similarity.CaptureResult) bool {
	return c.Verdict == similarity.VerdictOn && !c.IsT0 && len(h.rule.Crossed(c.Scores)) > 0
}

// Write adds one TimeMap: its counts to the overview and its captures, as a
// data block, to the temporary file.
func (h *HTMLWriter) Write(r *similarity.TimeMapResult) error {
	if h.err != nil {
		return h.err
	}
	if h.closed {
		return fmt.Errorf("html report: write after close")
	}
	id := len(h.rows)
	_, _, audit := h.run.Audit()
	row := htmlRow{URIR: r.URIR, Key: r.Key, Kind: timeMapKind(r), Captures: len(r.Captures), MinKey: math.NaN(), HasT0: r.T0 != "" || audit}
	key := h.keyMeasure()
	for i := range r.Captures {
		c := &r.Captures[i]
		d := yyyymmdd(c.Datetime)
		if row.First == 0 || d < row.First {
			row.First = d
		}
		if d > row.Last {
			row.Last = d
		}
		switch {
		case c.Verdict == similarity.VerdictOff:
			row.Off++
			if k := kindIndex(c.Kind); k >= 0 {
				row.OffKinds |= 1 << k
				h.stats.OffKinds[k]++
			}
		case c.Verdict == similarity.VerdictOn:
			row.On++
			if h.guarded(c) {
				row.Guarded++
			}
		default:
			row.NotScored++
			h.countReason(c.Reason)
			continue
		}
		if s, ok := c.Scores[key]; ok && !c.IsT0 && (math.IsNaN(row.MinKey) || s < row.MinKey) {
			row.MinKey = s
		}
		if c.IsT0 {
			continue
		}
		off := c.Verdict == similarity.VerdictOff
		for m, s := range c.Scores {
			hg := h.hists[m]
			if hg == nil {
				hg = newHistogram(m)
				h.hists[m] = hg
			}
			hg.add(s, h.threshold(m), off)
		}
	}
	st := &h.stats
	if audit && len(r.Captures) > 0 {
		a := newAuditRow(&r.Captures[0])
		switch v := r.Captures[0].Verdict; {
		case v == similarity.VerdictOff && crosses(h.rule, similarity.MeasureTopic, a.Topic):
			a.Why = auditBelow
			st.BelowTopic++
		case v == similarity.VerdictOff:
			a.Why = auditOutside
			st.Outside++
		case v != similarity.VerdictOn:
			a.Why = auditNS
		}
		row.Audit = a
	}
	st.TimeMaps++
	st.Captures += len(r.Captures)
	st.On += row.On
	st.Off += row.Off
	st.Guarded += row.Guarded
	st.NotScored += row.NotScored
	st.Scored += row.On + row.Off
	if row.Kind == kindPage {
		st.Pages++
		st.PageCaptures += len(r.Captures)
		if row.Off > 0 {
			st.PagesWithOff++
		}
		if row.Guarded > 0 {
			st.PagesGuarded++
		}
		if !row.HasT0 {
			st.PagesNoT0++
		}
	} else {
		st.Other++
		st.OtherCaptures += len(r.Captures)
		h.kinds[row.Kind]++
	}
	if _, err := fmt.Fprintf(h.sw, `<script type="application/json" id="d-%d">`, id); err != nil {
		return h.fail(err)
	}
	b, err := json.Marshal(h.detail(r))
	if err != nil {
		return h.fail(err)
	}
	h.sw.Write(b)
	if _, err := h.sw.WriteString("</script>\n"); err != nil {
		return h.fail(err)
	}
	h.rows = append(h.rows, row)
	return nil
}

func (h *HTMLWriter) fail(err error) error {
	h.err = fmt.Errorf("html report: %w", err)
	return h.err
}

// threshold is the line a measure's histogram draws: the rule's threshold.
func (h *HTMLWriter) threshold(m string) *similarity.Threshold { return ruleThreshold(h.rule, m) }

// countReason adds a not-scored capture's reason to the breakdown.
func (h *HTMLWriter) countReason(reason string) {
	k := reasonKind(reason)
	if _, ok := h.reasons[k]; !ok && len(h.reasons) >= maxReasonKinds {
		k = "other"
	}
	h.reasons[k]++
}

// reasonKind groups why a capture was not scored: its reason, without the
// detail that differs from capture to capture.
func reasonKind(reason string) string {
	switch {
	case reason == "":
		return "no reason given"
	case strings.HasPrefix(reason, "no capture qualifies as t0"):
		return "its page has no t0"
	}
	return cutText(reason, 60)
}

// kindPage is the kind of a TimeMap with an HTML capture.
const kindPage = "page"

// timeMapKind is "page" for a TimeMap with an HTML capture, else its most
// common media type ("unknown" when none is recorded).
func timeMapKind(r *similarity.TimeMapResult) string {
	n := map[string]int{}
	best := ""
	for i := range r.Captures {
		m := r.Captures[i].MIME
		if similarity.IsHTML(m) {
			return kindPage
		}
		if m == "" || len(m) > 80 {
			continue
		}
		n[m]++
		if best == "" || n[m] > n[best] || n[m] == n[best] && m < best {
			best = m
		}
	}
	if best == "" {
		return "unknown"
	}
	return best
}

// keyMeasure is the measure whose lowest score the worklist shows: the
// first of the rule.
func (h *HTMLWriter) keyMeasure() string { return h.rule[0].Measure }

// deciding matches the thresholds a reason names ("cosine 0.040 < 0.1").
var deciding = regexp.MustCompile(`([a-z]+) -?[0-9.]+ < `)

// htmlDetail is one TimeMap's data block. Captures are arrays, in this order
// (trailing empty fields left out): timestamp (14 digits), verdict code,
// HTTP status, words, scores (in the order of M, null where missing), a bit
// mask of the scores that decided the verdict (for guarded captures: the
// thresholds crossed), reason, title, excerpt, URI-M ("" when it is the
// archive URL + timestamp + URI-R), 1 when the URI-M is not to be linked,
// the capture's key where it differs from the TimeMap's, the kind of an
// off-topic capture (1 + its index in the meta block's off-topic kinds),
// the URI-M of the capture a redirect or frameset showed when replayed.
type htmlDetail struct {
	Key      string   `json:"k"`
	URIT     string   `json:"t,omitempty"`
	T0       int      `json:"t0"`
	T0Reason string   `json:"t0r,omitempty"`
	M        []string `json:"m"`
	C        [][]any  `json:"c"`
}

func (h *HTMLWriter) detail(r *similarity.TimeMapResult) htmlDetail {
	d := htmlDetail{Key: r.Key, URIT: httpLink(r.URIT), T0: -1, T0Reason: cutText(r.T0Reason, 300)}
	if h.prefix != "" && d.URIT == h.prefix+"timemap/link/"+r.URIR {
		d.URIT = "-" // the archive's TimeMap of the URI-R: the script makes the link
	}
	for _, m := range similarity.MeasureNames() {
		for i := range r.Captures {
			if _, ok := r.Captures[i].Scores[m]; ok {
				d.M = append(d.M, m)
				break
			}
		}
	}
	d.C = make([][]any, len(r.Captures))
	for i := range r.Captures {
		c := &r.Captures[i]
		ts := c.Datetime.UTC().Format("20060102150405")
		code, mask := codeNS, 0
		switch c.Verdict {
		case similarity.VerdictOff:
			code = codeOff
			for _, m := range deciding.FindAllStringSubmatch(c.Reason, -1) {
				if j := slices.Index(d.M, m[1]); j >= 0 {
					mask |= 1 << j
				}
			}
		case similarity.VerdictOn:
			code = codeOn
			if h.guarded(c) {
				code = codeGuarded
				for _, t := range h.rule.Crossed(c.Scores) {
					mask |= 1 << slices.Index(d.M, t.Measure)
				}
			}
		}
		if c.IsT0 {
			d.T0 = i
		}
		var scores []any
		if len(c.Scores) > 0 {
			scores = make([]any, len(d.M))
			for j, m := range d.M {
				if v, ok := c.Scores[m]; ok {
					scores[j] = json.Number(shortScore(v))
				}
			}
		}
		var reason, title, excerpt string
		if code != codeOn || c.IsT0 {
			title, excerpt = cutText(c.Title, 120), cutText(c.Excerpt, HTMLExcerptChars)
			if !c.IsT0 {
				reason = cutText(c.Reason, 300)
			}
		}
		urim, nolink := c.URIM, 0
		if h.prefix != "" && urim == h.prefix+ts+"/"+r.URIR {
			urim = ""
		} else if httpLink(urim) == "" {
			nolink = 1
		}
		ckey := ""
		if k := similarity.KeyOf(c).Key; k != r.Key {
			ckey = k
		}
		shown := ""
		if c.Replay != nil {
			shown = httpLink(c.Replay.URIM)
		}
		row := []any{ts, code, c.Status, c.WordCount, scores, mask, reason, title, excerpt, urim, nolink, ckey, kindIndex(c.Kind) + 1, shown}
		for len(row) > 2 && isZero(row[len(row)-1]) {
			row = row[:len(row)-1]
		}
		d.C[i] = row
	}
	return d
}

func isZero(v any) bool {
	switch x := v.(type) {
	case string:
		return x == ""
	case int:
		return x == 0
	case []any:
		return x == nil
	}
	return false
}

// Close writes the page (overview, worklist, histograms, then the data) to
// the underlying writer and removes the temporary file.
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
		return h.fail(fmt.Errorf("spool: %w", err))
	}
	bw := bufio.NewWriterSize(h.w, 64<<10)
	if err := h.tmpl.ExecuteTemplate(bw, "top", h.topData()); err != nil {
		return h.fail(err)
	}
	if err := h.writeData(bw); err != nil {
		return h.fail(err)
	}
	// The script comes before the TimeMaps' data: it draws the worklist as
	// soon as the rows are in, while the browser goes on reading the data.
	if err := h.tmpl.ExecuteTemplate(bw, "script", h.pageData()); err != nil {
		return h.fail(err)
	}
	if _, err := io.Copy(bw, io.NewSectionReader(h.spool, 0, math.MaxInt64)); err != nil {
		return h.fail(err)
	}
	if err := h.tmpl.ExecuteTemplate(bw, "bottom", h.pageData()); err != nil {
		return h.fail(err)
	}
	if err := bw.Flush(); err != nil {
		return h.fail(err)
	}
	return nil
}

// htmlMeta is what the page's script needs besides the rows.
type htmlMeta struct {
	// ID names the report, so that review decisions kept in the browser
	// stay with this report.
	ID string `json:"id"`
	// Name names the collection in the saved decisions file's name.
	Name   string   `json:"name"`
	Prefix string   `json:"prefix"`
	Rule   [][2]any `json:"rule"`
	Key    string   `json:"key"`
	Kinds  []string `json:"kinds"`
	// OffKinds are the kinds of off-topic, as [name, label] in the order of
	// similarity.Kinds: rows and captures refer to them by position.
	OffKinds [][2]string `json:"offkinds"`
	// Audit is set for an audit: the topic threshold and the window.
	Audit *auditMeta `json:"audit,omitempty"`
	Rows  [][]any    `json:"rows"`
}

// auditMeta is what the script needs of an audit: the topic threshold and
// the event's window (yyyy-mm-dd).
type auditMeta struct {
	Threshold float64 `json:"thr"`
	From      string  `json:"from"`
	To        string  `json:"to"`
}

// writeData writes the meta block with the worklist's rows: each is
// [uri_r, kind index, captures, off-topic, on-topic, not scored, guarded,
// lowest key score or null, first day, last day (yyyymmdd), 1 if it has t0,
// SURT key, off-topic kinds (bits)], and for an audit one more: [topic or
// null, published (yyyymmdd, 0 when undated), date source, 1 if in the
// window, time score or null, verdict (auditOn...)];
// the row's index is its TimeMap's id.
func (h *HTMLWriter) writeData(w io.Writer) error {
	m := htmlMeta{ID: h.reportID(), Name: h.run.CollectionName(), Prefix: h.prefix, Key: h.keyMeasure(), Kinds: []string{kindPage}}
	for _, t := range h.rule {
		m.Rule = append(m.Rule, [2]any{t.Measure, t.Value})
	}
	for _, k := range similarity.Kinds() {
		m.OffKinds = append(m.OffKinds, [2]string{string(k), k.Label()})
	}
	if _, win, ok := h.run.Audit(); ok {
		from, to, _ := strings.Cut(win, "/")
		m.Audit = &auditMeta{From: from, To: to}
		if t := ruleThreshold(h.rule, similarity.MeasureTopic); t != nil {
			m.Audit.Threshold = t.Value
		}
	}
	kindIdx := map[string]int{kindPage: 0}
	m.Rows = make([][]any, len(h.rows))
	for i, r := range h.rows {
		k, ok := kindIdx[r.Kind]
		if !ok {
			k = len(m.Kinds)
			kindIdx[r.Kind] = k
			m.Kinds = append(m.Kinds, r.Kind)
		}
		minKey := jsonScore(r.MinKey)
		t0 := 0
		if r.HasT0 {
			t0 = 1
		}
		m.Rows[i] = []any{r.URIR, k, r.Captures, r.Off, r.On, r.NotScored, r.Guarded, minKey, r.First, r.Last, t0, r.Key, r.OffKinds}
		if a := r.Audit; a != nil {
			win := 0
			if a.InWindow {
				win = 1
			}
			m.Rows[i] = append(m.Rows[i], []any{jsonScore(a.Topic), a.Published, a.From, win, jsonScore(a.Time), a.Why})
		}
	}
	if _, err := io.WriteString(w, `<script type="application/json" id="meta">`); err != nil {
		return err
	}
	enc := json.NewEncoder(w) // escapes <, > and &: the block cannot end early
	if err := enc.Encode(m); err != nil {
		return err
	}
	_, err := io.WriteString(w, "</script>\n")
	return err
}

// jsonScore is a score for the page's data: null when NaN.
func jsonScore(v float64) any {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return json.Number(shortScore(v))
}

// reportID is a short name of this report for the browser's storage.
func (h *HTMLWriter) reportID() string {
	s := sha256.New()
	if h.run != nil {
		fmt.Fprintln(s, h.run.Started.UnixNano(), h.run.Inputs, h.run.Measures)
	}
	fmt.Fprintln(s, h.stats.TimeMaps, h.stats.Captures)
	return base64.RawURLEncoding.EncodeToString(s.Sum(nil)[:9])
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
	// DefaultArchive is set when URI-Ms point at DefaultArchiveURL.
	DefaultArchive bool
	ArchiveURL     string
}

func (h *HTMLWriter) pageData() htmlPage {
	return newHTMLPage(h.run, "Off-topic captures", h.csp, h.css, h.js)
}

func newHTMLPage(run *Run, title, csp string, css template.CSS, js template.JS) htmlPage {
	p := htmlPage{CSP: csp, Title: title, CSS: css, JS: js, DefaultArchive: run.DefaultArchive(), ArchiveURL: DefaultArchiveURL}
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

// htmlTop is the data of the page's overview, worklist and histograms.
type htmlTop struct {
	htmlPage
	S          htmlStats
	Rule       []similarity.Threshold
	Plain      bool
	KeyMeasure string
	Kinds      []countOf
	Reasons    []countOf
	// OffKinds breaks off-topic captures down by kind, largest first.
	OffKinds []kindCount
	Hists    []histChart
	RunLines []string
	// Audit is set for an audit of an extracted collection against an
	// event (see Run.Audit).
	Audit *htmlAudit
	// FileName is the collection's part of the saved decisions file's name.
	FileName string
}

// htmlAudit is what the overview says of an audit's rule.
type htmlAudit struct{ Event, From, To string }

// kindCount is how many off-topic captures are of one kind.
type kindCount struct {
	Kind, Label string
	N           int
}

// countOf is one line of a breakdown.
type countOf struct {
	Name string
	N    int
}

func (h *HTMLWriter) topData() htmlTop {
	t := htmlTop{htmlPage: h.pageData(), S: h.stats, Rule: h.rule, Plain: h.plain, KeyMeasure: h.keyMeasure(),
		Kinds: sortedCounts(h.kinds), Reasons: sortedCounts(h.reasons), FileName: h.run.CollectionName()}
	for _, m := range similarity.MeasureNames() {
		if hg := h.hists[m]; hg != nil {
			t.Hists = append(t.Hists, hg.chart(m, h.threshold(m), h.rule.Has(m)))
		}
	}
	for i, k := range similarity.Kinds() {
		if n := h.stats.OffKinds[i]; n > 0 {
			t.OffKinds = append(t.OffKinds, kindCount{string(k), k.Label(), n})
		}
	}
	sort.SliceStable(t.OffKinds, func(i, j int) bool { return t.OffKinds[i].N > t.OffKinds[j].N })
	t.RunLines = runLines(h.run)
	if ev, win, ok := h.run.Audit(); ok {
		from, to, _ := strings.Cut(win, "/")
		t.Audit = &htmlAudit{Event: ev, From: from, To: to}
	}
	return t
}

// sortedCounts lists a breakdown, largest first.
func sortedCounts(m map[string]int) []countOf {
	out := make([]countOf, 0, len(m))
	for k, n := range m {
		out = append(out, countOf{k, n})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].N != out[j].N {
			return out[i].N > out[j].N
		}
		return out[i].Name < out[j].Name
	})
	return out
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

// thousands formats n with thin spaces between groups of three digits.
func thousands(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteRune(',')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
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

// shortScore is a score with 3 decimals and no trailing zeros, for the page's data.
func shortScore(v float64) string {
	s := strconv.FormatFloat(math.Round(v*1000)/1000, 'f', -1, 64)
	if s == "-0" {
		return "0"
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

// measureRange is the axis of a measure's histogram: similarities lie in
// [0, 1], changes in [-1, ∞) (shown up to +1), topic around 1.
func measureRange(m string) (lo, hi float64) {
	switch m {
	case similarity.MeasureWordCount, similarity.MeasureByteCount:
		return -1, 1
	case similarity.MeasureTopic:
		return 0, 1.5
	}
	return 0, 1
}

// histogram counts one measure's scores in fixed bins; scores outside the
// axis count in the end bins.
type histogram struct {
	lo, hi  float64
	bins    [histBins]int
	clamped int
	// crossedOff and crossedOn count the scores across the threshold of
	// off-topic and of on-topic captures.
	crossedOff, crossedOn int
}

func newHistogram(m string) *histogram {
	lo, hi := measureRange(m)
	return &histogram{lo: lo, hi: hi}
}

func (hg *histogram) add(s float64, thr *similarity.Threshold, off bool) {
	if thr != nil && thr.Crossed(s) {
		if off {
			hg.crossedOff++
		} else {
			hg.crossedOn++
		}
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
	Measure    string
	W, H       int
	X0, X1, Y0 string
	Bars       []histBar
	Ticks      []svgText
	Max        string
	HasThr     bool
	Thr        string
	ThrX       string
	Clamped    int
	// InRule is set for a measure of the rule.
	InRule                bool
	CrossedOff, CrossedOn int
}

type histBar struct {
	X, Y, W, H, Label string
	Cross             bool
}

type svgText struct {
	X, Y, Label string
}

func (hg *histogram) chart(m string, thr *similarity.Threshold, inRule bool) histChart {
	const w, h, left, right, top, bottom = 300, 120, 8.0, 292.0, 14.0, 102.0
	c := histChart{Measure: m, W: w, H: h, X0: coord(left), X1: coord(right), Y0: coord(bottom), Clamped: hg.clamped,
		InRule: inRule, CrossedOff: hg.crossedOff, CrossedOn: hg.crossedOn}
	maxN := 0
	for _, n := range hg.bins {
		maxN = max(maxN, n)
	}
	c.Max = "max " + strconv.Itoa(maxN) + " per bin"
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

// htmlScore is a score cell of the evaluation page.
type htmlScore struct {
	S       string
	Crossed bool
}
