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
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"

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
	// news sums up what is new since the previous run of the collection's
	// state (Run.Review); newRows are the rows that have any, decided the
	// state's decisions as the page's script adopts them.
	news    htmlNews
	newRows []int
	decided [][5]any
	err     error
	closed  bool
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

// Command is the command that wrote the run's results, as a curator runs it
// again: "crawl audit" for an audit, else "detect".
func (r *Run) Command() string {
	if _, _, ok := r.Audit(); ok {
		return "crawl audit"
	}
	return "detect"
}

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
	if audit && len(r.Captures) > 0 {
		row.Audit = h.auditRow(&r.Captures[0])
	}
	h.review(id, r)
	h.count(&row)
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

// count adds a TimeMap's row to the overview's counts.
func (h *HTMLWriter) count(row *htmlRow) {
	st := &h.stats
	st.TimeMaps++
	st.Captures += row.Captures
	st.On += row.On
	st.Off += row.Off
	st.Guarded += row.Guarded
	st.NotScored += row.NotScored
	st.Scored += row.On + row.Off
	if row.Kind != kindPage {
		st.Other++
		st.OtherCaptures += row.Captures
		h.kinds[row.Kind]++
		return
	}
	st.Pages++
	st.PageCaptures += row.Captures
	if row.Off > 0 {
		st.PagesWithOff++
	}
	if row.Guarded > 0 {
		st.PagesGuarded++
	}
	if !row.HasT0 {
		st.PagesNoT0++
	}
}

// auditRow is an audited document's row, counted in the audit's cards.
func (h *HTMLWriter) auditRow(c *similarity.CaptureResult) *auditRow {
	a := newAuditRow(c)
	a.Why = auditWhy(c.Verdict, crosses(h.rule, similarity.MeasureTopic, a.Topic))
	switch a.Why {
	case auditBelow:
		h.stats.BelowTopic++
	case auditOutside:
		h.stats.Outside++
	}
	return a
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
	// News are the rows with captures new or changed since the previous
	// run (a collection's state), opened first; Decided the state's
	// decisions as [capture key, decision, URI-M, URI-R, row].
	News    []int    `json:"news,omitempty"`
	Decided [][5]any `json:"decided,omitempty"`
}

// writeData writes the meta block with the worklist's rows: each is
// [uri_r, kind index, captures, off-topic, on-topic, not scored, guarded,
// lowest key score or null, first day, last day (yyyymmdd), 1 if it has t0,
// SURT key, off-topic kinds (bits)], and for an audit one more: [topic or
// null, published (yyyymmdd, 0 when undated), date source, 1 if in the
// window (0 outside, null when the results do not say), time score or
// null, verdict (auditOn...)];
// the row's index is its TimeMap's id.
func (h *HTMLWriter) writeData(w io.Writer) error {
	m := htmlMeta{ID: h.reportID(), Name: h.run.CollectionName(), Prefix: h.prefix, Key: h.keyMeasure(), Kinds: []string{kindPage},
		News: h.newRows, Decided: h.decided}
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
			var win any // null: the results say nothing of the window
			if a.Dated {
				win = 0
				if a.InWindow {
					win = 1
				}
			}
			// The topic unrounded: a document a hair below the threshold
			// reads below it.
			topic := jsonScore(a.Topic)
			if topic != nil {
				topic = json.Number(strconv.FormatFloat(a.Topic, 'g', -1, 64))
			}
			m.Rows[i] = append(m.Rows[i], []any{topic, a.Published, a.From, win, jsonScore(a.Time), a.Why})
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

// htmlScore is a score cell of the evaluation page.
type htmlScore struct {
	S       string
	Crossed bool
}
