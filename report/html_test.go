package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"

	"github.com/offtopic/offtopic/similarity"
)

// Hostile strings an archived page can carry into a report.
const (
	hostileTitle   = `<script>alert(1)</script><img src=x onerror=alert(2)>`
	hostileExcerpt = `Buy now <a href="javascript:alert(3)">click</a> </textarea><svg onload=alert(4)> "quoted" & 'single'`
	hostileURIR    = `javascript:alert(5)//`
	hostileURIM    = `javascript:alert(6)`
)

var htmlTestRun = &Run{Tool: "offtopic", Version: "test", Started: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
	Inputs: []string{"news-2016/a.warc.gz", "news-2016/b.warc.gz"}, Measures: "cosine=0.10,wordcount=-0.85", ArchiveURL: "http://archive.test/c",
	Options: map[string]string{"continuity": "0.1"}}

// htmlTimeMap makes a TimeMap of n captures a year apart whose scores fall
// from t0 on; the captures from offFrom on are off-topic.
func htmlTimeMap(key, urir string, n, offFrom int) *similarity.TimeMapResult {
	at := time.Date(2006, 5, 1, 12, 0, 0, 0, time.UTC)
	r := &similarity.TimeMapResult{Key: key, URIR: urir, URIT: "http://archive.test/c/timemap/link/" + urir,
		T0: "http://archive.test/c/20060501120000/" + urir, T0Reason: "first capture with HTTP 200, an HTML type and text"}
	for i := 0; i < n; i++ {
		d := at.AddDate(i, i%5, i*3)
		c := similarity.CaptureResult{URIR: urir, URIM: fmt.Sprintf("http://archive.test/c/%s/%s", d.Format("20060102150405"), urir),
			Datetime: d, Status: 200, MIME: "text/html", WordCount: 400 - 20*i, ByteCount: 5000 - 100*i,
			Title:   "Lighthouse preservation society " + key,
			Excerpt: fmt.Sprintf("The society looks after the old lighthouse on the point; capture %d reports on the lens, the keepers' cottage and the volunteers who restore them.", i),
			Scores:  map[string]float64{}}
		cos := math.Max(0, 1-0.12*float64(i))
		wc := -0.05 * float64(i)
		if i >= offFrom {
			cos, wc = 0.02+0.01*float64(i%3), -0.9
			c.Title, c.Excerpt = "Domain for sale", "This domain may be for sale. Buy this domain today."
		}
		c.Scores[similarity.MeasureCosine] = cos
		c.Scores[similarity.MeasureWordCount] = wc
		c.Scores[similarity.MeasureJaccard] = cos * 0.8
		c.Scores[similarity.MeasureTopic] = math.Min(1.2, cos+0.3)
		switch {
		case i == 0:
			c.IsT0, c.Verdict, c.Reason = true, similarity.VerdictOn, "t0"
		case i >= offFrom:
			c.Verdict, c.Kind = similarity.VerdictOff, similarity.KindParked
			if i%2 == 1 {
				c.Kind = similarity.KindError
			}
			c.Reason = fmt.Sprintf("%s: it says so; cosine %.3f < 0.1; wordcount -0.900 < -0.85", c.Kind.Label(), cos)
		default:
			c.Verdict, c.Reason = similarity.VerdictOn, "no threshold crossed"
		}
		if i == 2 {
			c.Status, c.Verdict, c.Reason, c.Scores = 404, similarity.VerdictNotScored, "HTTP status 404", nil
		}
		r.Captures = append(r.Captures, c)
	}
	return r
}

// htmlHostileTimeMap is a TimeMap whose archived data tries to inject markup
// and script into the report.
func htmlHostileTimeMap() *similarity.TimeMapResult {
	r := htmlTimeMap("hostile)/", hostileURIR, 4, 2)
	r.URIT = "javascript:alert(7)"
	for i := range r.Captures {
		c := &r.Captures[i]
		c.URIR = hostileURIR
		c.Title, c.Excerpt = hostileTitle, hostileExcerpt
	}
	r.Captures[3].URIM = hostileURIM
	r.Captures[1].URIM = "data:text/html,<script>alert(8)</script>"
	r.Captures[3].Reason = `cosine 0.02 < 0.1 <b onmouseover=alert(9)>`
	return r
}

// htmlFixture is a small collection: on-topic pages, pages that went off
// topic, a TimeMap without t0 and the hostile TimeMap.
func htmlFixture() []*similarity.TimeMapResult {
	noT0 := htmlTimeMap("org,parked)/", "http://parked.example.org/", 3, 0)
	noT0.T0, noT0.T0Reason = "", "no capture with HTTP 200, an HTML type and at least 20 words"
	for i := range noT0.Captures {
		c := &noT0.Captures[i]
		c.Verdict, c.Reason, c.Scores, c.IsT0, c.Kind = similarity.VerdictNotScored, "no t0", nil, false, ""
	}
	return []*similarity.TimeMapResult{
		htmlTimeMap("com,example)/", "http://example.com/", 12, 99),
		htmlHostileTimeMap(),
		htmlTimeMap("org,lights)/about", "https://lights.example.org/about", 9, 6),
		htmlTimeMap("org,lights)/", "https://lights.example.org/", 14, 10),
		noT0,
		htmlTimeMap("org,museum)/", "http://museum.example.org/", 5, 3),
	}
}

func renderHTML(t testing.TB, results []*similarity.TimeMapResult) []byte {
	t.Helper()
	return renderHTMLRun(t, htmlTestRun, results)
}

// renderHTMLRun renders results as the HTML report of run.
func renderHTMLRun(t testing.TB, run *Run, results []*similarity.TimeMapResult) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewHTMLWriter(&buf, run)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range results {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// inertCheck walks a page with an HTML tokenizer, as a browser would, and
// reports everything that could run or load: scripts whose hash the CSP does
// not allow, event-handler attributes, links other than http(s) and
// fragments, elements that load or submit. It returns the page's text.
func inertCheck(t *testing.T, page []byte, wantScript bool) string {
	t.Helper()
	z := html.NewTokenizer(bytes.NewReader(page))
	var csp, script, style string
	scripts, styles := 0, 0
	var data []string // contents of data blocks
	inData := false
	var text strings.Builder
	var stack []string
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			if z.Err() != io.EOF {
				t.Fatalf("tokenize: %v", z.Err())
			}
			break
		}
		tok := z.Token()
		switch tt {
		case html.TextToken:
			if len(stack) > 0 {
				switch stack[len(stack)-1] {
				case "script":
					if inData {
						data[len(data)-1] += tok.Data
					} else {
						script += tok.Data
					}
					continue
				case "style":
					style += tok.Data
					continue
				}
			}
			text.WriteString(tok.Data)
		case html.EndTagToken:
			if len(stack) > 0 && stack[len(stack)-1] == tok.Data {
				stack = stack[:len(stack)-1]
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			switch tok.Data {
			case "script":
				inData = false
				for _, a := range tok.Attr {
					if a.Key == "type" && a.Val == "application/json" {
						inData = true
					}
				}
				if inData {
					data = append(data, "")
				} else {
					scripts++
				}
			case "style":
				styles++
			case "img", "iframe", "frame", "object", "embed", "form", "base", "link", "audio", "video", "source", "input type=image", "foreignobject", "use", "image":
				t.Errorf("element <%s> in the page", tok.Data)
			}
			if tt == html.StartTagToken && (tok.Data == "script" || tok.Data == "style") {
				stack = append(stack, tok.Data)
			}
			attrs := map[string]string{}
			for _, a := range tok.Attr {
				attrs[a.Key] = a.Val
				if strings.HasPrefix(a.Key, "on") {
					t.Errorf("event handler attribute %s=%q on <%s>", a.Key, a.Val, tok.Data)
				}
				switch a.Key {
				case "href", "src", "xlink:href", "action", "formaction", "srcdoc", "data", "poster":
					v := strings.ToLower(strings.TrimSpace(a.Val))
					if !strings.HasPrefix(v, "http://") && !strings.HasPrefix(v, "https://") && !strings.HasPrefix(v, "#") {
						t.Errorf("<%s %s=%q>: not an http(s) link or fragment", tok.Data, a.Key, a.Val)
					}
				case "style":
					t.Errorf("style attribute on <%s>: the CSP allows none", tok.Data)
				}
			}
			if tok.Data == "a" && attrs["target"] != "" && attrs["rel"] != "noopener noreferrer" {
				t.Errorf("<a href=%q target=%q> without rel=noopener noreferrer", attrs["href"], attrs["target"])
			}
			if tok.Data == "meta" && strings.EqualFold(attrs["http-equiv"], "Content-Security-Policy") {
				if csp != "" {
					t.Errorf("two CSP meta tags")
				}
				csp = attrs["content"]
			}
			if tok.Data == "meta" && strings.EqualFold(attrs["http-equiv"], "refresh") {
				t.Errorf("meta refresh in the page")
			}
		}
	}
	if csp == "" {
		t.Fatal("no Content-Security-Policy meta tag")
	}
	for _, want := range []string{"default-src 'none'", "img-src data:", "connect-src 'none'", "frame-src 'none'", "form-action 'none'", "base-uri 'none'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("CSP %q lacks %q", csp, want)
		}
	}
	if strings.Contains(csp, "unsafe-inline") || strings.Contains(csp, "unsafe-eval") {
		t.Errorf("CSP %q allows unsafe sources", csp)
	}
	if wantScript {
		if scripts != 1 {
			t.Errorf("%d script elements, want exactly the report's own", scripts)
		}
		if !strings.Contains(csp, "script-src '"+CSPHash(script)+"'") {
			t.Errorf("CSP %q does not allow the page's script (hash %s)", csp, CSPHash(script))
		}
	} else {
		if scripts != 0 {
			t.Errorf("%d script elements, want none", scripts)
		}
		if !strings.Contains(csp, "script-src 'none'") {
			t.Errorf("CSP %q allows scripts on a page without one", csp)
		}
	}
	if styles != 1 || !strings.Contains(csp, "style-src '"+CSPHash(style)+"'") {
		t.Errorf("%d style elements; CSP %q must allow exactly the page's style sheet (hash %s)", styles, csp, CSPHash(style))
	}
	// Data blocks are JSON, and their strings are text the script shows.
	for _, d := range data {
		var v any
		if err := json.Unmarshal([]byte(d), &v); err != nil {
			t.Errorf("data block is not JSON: %v", err)
		}
		jsonStrings(v, &text)
	}
	return text.String()
}

// jsonStrings appends every string in a decoded JSON value to b.
func jsonStrings(v any, b *strings.Builder) {
	switch x := v.(type) {
	case string:
		b.WriteString(x)
		b.WriteByte('\n')
	case []any:
		for _, e := range x {
			jsonStrings(e, b)
		}
	case map[string]any:
		for _, e := range x {
			jsonStrings(e, b)
		}
	}
}

// pageMeta is the meta block of an HTML report, decoded.
type pageMeta struct {
	ID     string
	Name   string
	Prefix string
	Key    string
	Kinds  []string
	Audit  *auditMeta
	Rows   [][]any
}

// pageData decodes the meta block and every TimeMap's data block.
func pageData(t *testing.T, page []byte) (pageMeta, map[int]htmlDetail) {
	t.Helper()
	var m pageMeta
	details := map[int]htmlDetail{}
	z := html.NewTokenizer(bytes.NewReader(page))
	id := ""
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			break
		}
		tok := z.Token()
		switch tt {
		case html.StartTagToken:
			id = ""
			if tok.Data == "script" {
				for _, a := range tok.Attr {
					if a.Key == "id" {
						id = a.Val
					}
				}
			}
		case html.TextToken:
			switch {
			case id == "meta":
				if err := json.Unmarshal([]byte(tok.Data), &m); err != nil {
					t.Fatalf("meta: %v", err)
				}
			case strings.HasPrefix(id, "d-"):
				n, _ := strconv.Atoi(id[2:])
				var d htmlDetail
				if err := json.Unmarshal([]byte(tok.Data), &d); err != nil {
					t.Fatalf("%s: %v", id, err)
				}
				details[n] = d
			}
			id = ""
		}
	}
	return m, details
}

func TestHTMLHostileCaptureRendersInert(t *testing.T) {
	page := renderHTML(t, htmlFixture())
	text := inertCheck(t, page, true)
	// The hostile strings are there, as text a curator can read.
	for _, s := range []string{hostileTitle, `<a href="javascript:alert(3)">click</a>`, `</textarea><svg onload=alert(4)>`, hostileURIR, hostileURIM, `<b onmouseover=alert(9)>`} {
		if !strings.Contains(text, s) {
			t.Errorf("page text lacks %q", s)
		}
	}
	// And nowhere as markup.
	for _, s := range []string{"<script>alert", "<img", "<svg onload", "<a href=\"javascript", "<b onmouseover", "href=\"data:", "href=\"javascript"} {
		if bytes.Contains(page, []byte(s)) {
			t.Errorf("page contains %q as markup", s)
		}
	}
}

func TestHTMLContent(t *testing.T) {
	page := string(renderHTML(t, htmlFixture()))
	for _, want := range []string{
		`<b>6</b><span>pages (TimeMaps with HTML)`,              // overview counts
		`<b>cosine &lt; 0.1</b> or <b>wordcount &lt; -0.85</b>`, // the rule
		`read as a curator reads a page`,                        // with the curator's reading
		`aria-label="histogram of cosine"`,                      // a histogram per measure
		`aria-label="histogram of wordcount"`,
		`class="thr"`,                       // threshold lines
		`id="meta"`, `id="d-0"`, `id="d-5"`, // data for the worklist and each TimeMap
		`continuity: 0.1`,
		`Pages to review`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	// The worklist comes before the histograms.
	if w, h := strings.Index(page, `id="worklist"`), strings.Index(page, `id="scores"`); w < 0 || h < 0 || w > h {
		t.Errorf("worklist at %d, histograms at %d: the worklist must come first", w, h)
	}
	if strings.Contains(page, `id="default-archive"`) {
		t.Error("the default-archive note is shown for a run with its own archive URL")
	}
	def := *htmlTestRun
	def.ArchiveURL = DefaultArchiveURL
	var buf bytes.Buffer
	w, err := NewHTMLWriter(&buf, &def)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(htmlFixture()[0])
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `id="default-archive"`) {
		t.Error("no note that URI-Ms point at the default archive URL")
	}
}

// TestHTMLAudit: the report of an audit against an event (crawl audit)
// states the audit's rule, the event and its window, and neither counts nor
// tags documents as pages without a t0 (each is compared with the event's
// reference documents).
func TestHTMLAudit(t *testing.T) {
	run := &Run{Tool: "offtopic", Measures: "topic=0.1167", Options: map[string]string{"audit": "budget<2005>", "window": "2005-02-14/2005-03-30"}}
	doc := &similarity.TimeMapResult{Key: "org,example)/a", URIR: "http://example.org/a", URIT: "http://example.org/a", T0Reason: "audit against the event's reference documents",
		Captures: []similarity.CaptureResult{{URIR: "http://example.org/a", Datetime: time.Date(2005, 4, 15, 0, 0, 0, 0, time.UTC), Status: 200, MIME: "text/html",
			Scores: map[string]float64{similarity.MeasureTopic: 0.06}, Verdict: similarity.VerdictOff, Reason: "topic 0.060 < threshold 0.117"}}}
	for _, audit := range []bool{true, false} {
		r := *run
		if !audit {
			r.Options = nil
		}
		var buf bytes.Buffer
		w, err := NewHTMLWriter(&buf, &r)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Write(doc); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		page := buf.String()
		has := func(s string) bool { return strings.Contains(page, s) }
		if audit != has(`against the event <b>budget&lt;2005&gt;</b>`) || audit != has(`<b>2005-02-14 to 2005-03-30</b>`) {
			t.Errorf("audit %v: the event and its window stated %v, %v", audit, has(`budget&lt;2005&gt;`), has(`2005-02-14 to 2005-03-30`))
		}
		if !has(`<b>topic &lt; 0.1167</b>`) {
			t.Errorf("audit %v: the threshold is not stated", audit)
		}
		if audit == has(`pages without t0`) || audit == has(`against its page's t0`) {
			t.Errorf("audit %v: the t0 card and rule shown %v, %v", audit, has(`pages without t0`), has(`against its page's t0`))
		}
	}
}

// htmlGuardAndCSS are a page with a capture kept on-topic by the curator's reading
// and a stylesheet's TimeMap (not a page: nothing in it is scored).
func htmlGuardAndCSS() []*similarity.TimeMapResult {
	g := htmlTimeMap("org,rotating)/", "http://rotating.example.org/", 4, 99)
	c := &g.Captures[3]
	c.Scores[similarity.MeasureCosine], c.Scores[similarity.MeasureTopic] = 0.05, 0.8
	c.Reason = "cosine 0.050 < 0.1, but still on its subject in the collection (topic 0.800 >= 0.35)"
	css := &similarity.TimeMapResult{Key: "org,rotating)/style.css", URIR: "http://rotating.example.org/style.css", T0Reason: "no capture with HTTP 200 and an HTML type"}
	for i := 0; i < 3; i++ {
		d := time.Date(2007+i, 1, 1, 0, 0, 0, 0, time.UTC)
		css.Captures = append(css.Captures, similarity.CaptureResult{URIR: css.URIR, Datetime: d, Status: 200, MIME: "text/css",
			URIM: "http://archive.test/c/" + d.Format("20060102150405") + "/" + css.URIR, Verdict: similarity.VerdictNotScored, Reason: "not HTML (text/css)"})
	}
	return []*similarity.TimeMapResult{g, css}
}

// TestHTMLData checks the data the page's script renders from: one row per
// TimeMap with its counts, each TimeMap's captures with verdicts, what decided
// them and URI-Ms that come back exactly.
func TestHTMLData(t *testing.T) {
	results := append(htmlFixture(), htmlGuardAndCSS()...)
	page := renderHTML(t, results)
	text := string(page)
	m, details := pageData(t, page)
	if len(m.Rows) != len(results) || len(details) != len(results) {
		t.Fatalf("%d rows and %d data blocks for %d TimeMaps", len(m.Rows), len(details), len(results))
	}
	if m.Prefix != "http://archive.test/c/" || m.Key != "cosine" {
		t.Errorf("meta prefix %q key %q", m.Prefix, m.Key)
	}
	codes := map[string]float64{similarity.VerdictOn: codeOn, similarity.VerdictOff: codeOff, similarity.VerdictNotScored: codeNS}
	guarded, guardedPages := 0, 0
	for id, r := range results {
		n := guarded
		row := m.Rows[id]
		on, off, ns := r.Counts()
		if row[0] != r.URIR || row[2] != float64(len(r.Captures)) || row[3] != float64(off) || row[4] != float64(on) || row[5] != float64(ns) || row[11] != r.Key {
			t.Errorf("row %d = %v; want %s with %d captures, %d off, %d on, %d not scored", id, row, r.URIR, len(r.Captures), off, on, ns)
		}
		d := details[id]
		if len(d.C) != len(r.Captures) || d.Key != r.Key {
			t.Fatalf("TimeMap %d: %d captures, key %q", id, len(d.C), d.Key)
		}
		for i, c := range d.C {
			rc := &r.Captures[i]
			want := codes[rc.Verdict]
			if rc.Verdict == similarity.VerdictOn && !rc.IsT0 && rc.Scores[similarity.MeasureCosine] < 0.1 {
				want = codeGuarded
				guarded++
			}
			if c[1] != want {
				t.Errorf("%s: verdict code %v, want %v", rc.URIM, c[1], want)
			}
			if rc.IsT0 != (d.T0 == i) {
				t.Errorf("%s: t0 is capture %d", rc.URIM, d.T0)
			}
			urim := m.Prefix + c[0].(string) + "/" + r.URIR
			if len(c) > 9 && c[9] != "" {
				urim = c[9].(string)
			}
			if urim != rc.URIM {
				t.Errorf("URI-M %q comes back as %q", rc.URIM, urim)
			}
			nolink := len(c) > 10 && c[10] == float64(1)
			if nolink != (httpLink(rc.URIM) == "") {
				t.Errorf("%s: not-linked flag %v", rc.URIM, nolink)
			}
			// The off-topic fixtures cross cosine and wordcount: both decided.
			if rc.Verdict == similarity.VerdictOff && rc.Reason != "" && strings.Contains(rc.Reason, "wordcount") {
				mask := int(c[5].(float64))
				for _, name := range []string{"cosine", "wordcount"} {
					if j := slices.Index(d.M, name); j < 0 || mask&(1<<j) == 0 {
						t.Errorf("%s: %s not marked as deciding (mask %b of %v)", rc.URIM, name, mask, d.M)
					}
				}
				if j := slices.Index(d.M, "jaccard"); mask&(1<<j) != 0 {
					t.Errorf("%s: jaccard marked as deciding", rc.URIM)
				}
			}
		}
		if guarded > n {
			guardedPages++
		}
	}
	// Pages and other types, the guard and the not-scored breakdown.
	if !slices.Contains(m.Kinds, "text/css") || m.Rows[len(results)-1][1] == float64(0) {
		t.Errorf("the stylesheet's TimeMap is not of its own kind: kinds %v, row %v", m.Kinds, m.Rows[len(results)-1])
	}
	for _, want := range []string{
		`<b>7</b><span>pages (TimeMaps with HTML), `,
		`<b>1</b><span>TimeMaps of other types, 3 captures`,
		`<li><span>text/css</span> <b>1</b></li>`,
		`<li><span>not HTML (text/css)</span> <b>3</b></li>`,
		fmt.Sprintf(`<b>%d</b><span>kept on-topic by the curator's reading, on %d pages</span>`, guarded, guardedPages),
		fmt.Sprintf(`%d kept on-topic by the curator's reading</figcaption>`, guarded),
	} {
		if !strings.Contains(text, want) {
			t.Errorf("page lacks %q", want)
		}
	}
}

func TestHTMLTempFileRemoved(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	w, err := NewHTMLWriter(io.Discard, htmlTestRun)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range htmlFixture() {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if err := w.Write(htmlFixture()[0]); err == nil {
		t.Error("Write after Close succeeded")
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 0 {
		t.Errorf("temporary files left: %v", ents)
	}
}

func TestHTMLEmptyAndBadRule(t *testing.T) {
	page := renderHTML(t, nil)
	inertCheck(t, page, true)
	if !bytes.Contains(page, []byte("</html>")) {
		t.Error("empty report is not a complete page")
	}
	if _, err := NewHTMLWriter(io.Discard, &Run{Measures: "nonsense=1"}); err == nil {
		t.Error("NewHTMLWriter accepted an unknown measure")
	}
}

func TestHTTPLink(t *testing.T) {
	for in, want := range map[string]bool{
		"http://a.example/x":              true,
		"HTTPS://a.example/x?q=<b>":       true,
		"javascript:alert(1)":             false,
		"JavaScript:alert(1)//http://x":   false,
		"data:text/html,<script>":         false,
		"//evil.example/":                 false,
		"/relative":                       false,
		"http:/x":                         false,
		"http://a.example/\njavascript:x": false,
		"vbscript:msgbox":                 false,
		"":                                false,
	} {
		if got := httpLink(in) != ""; got != want {
			t.Errorf("httpLink(%q) linked = %v, want %v", in, got, want)
		}
	}
}

func TestCutText(t *testing.T) {
	if got := cutText("short", 10); got != "short" {
		t.Errorf("cutText short = %q", got)
	}
	long := strings.Repeat("word ", 100)
	got := cutText(long, 50)
	if len(got) > 50+len("…") || !strings.HasSuffix(got, "word…") {
		t.Errorf("cutText long = %q", got)
	}
	got = cutText(strings.Repeat("é", 100)+"\x00\xff", 51)
	if !strings.HasSuffix(got, "…") || strings.ToValidUTF8(got, "?") != got {
		t.Errorf("cutText multibyte = %q", got)
	}
}

// htmlSynthetic makes n TimeMaps of k captures each with varied scores,
// deterministically.
func htmlSynthetic(n, k int) func(i int) *similarity.TimeMapResult {
	return func(i int) *similarity.TimeMapResult {
		offFrom := k
		if i%4 == 0 {
			offFrom = 1 + (i/4)%k
		}
		return htmlTimeMap(fmt.Sprintf("com,site%05d)/", i), fmt.Sprintf("http://site%05d.example.com/", i), k, offFrom)
	}
}

// BenchmarkHTML100k renders 10,000 TimeMaps of 10 captures (100,000
// captures) to io.Discard.
func BenchmarkHTML100k(b *testing.B) {
	const n, k = 10000, 10
	gen := htmlSynthetic(n, k)
	results := make([]*similarity.TimeMapResult, 100)
	for i := range results {
		results[i] = gen(i)
	}
	b.ReportAllocs()
	var out countWriter
	var heap uint64
	for b.Loop() {
		out = 0
		w, err := NewHTMLWriter(&out, htmlTestRun)
		if err != nil {
			b.Fatal(err)
		}
		for i := 0; i < n; i++ {
			r := results[i%len(results)]
			if err := w.Write(r); err != nil {
				b.Fatal(err)
			}
		}
		// What the writer holds until Close: counts, histograms, a row
		// per TimeMap (the fixtures are shared, so this is the writer's).
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		heap = max(heap, ms.HeapAlloc)
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n*k)/b.Elapsed().Seconds()*float64(b.N), "captures/s")
	b.ReportMetric(float64(out)/1e6, "MB-page")
	b.ReportMetric(float64(heap)/1e6, "MB-heap-before-close")
}

// countWriter counts what is written to it.
type countWriter int64

func (c *countWriter) Write(p []byte) (int, error) {
	*c += countWriter(len(p))
	return len(p), nil
}

// htmlEvaluation judges the fixture against a gold standard that agrees with
// most verdicts, disagrees with a few (the hostile capture among them) and
// labels a capture detection never saw.
func htmlEvaluation() (*similarity.Evaluation, []*similarity.TimeMapResult) {
	results := htmlFixture()
	gold := similarity.Gold{}
	n := 0
	for _, r := range results {
		for i := range r.Captures {
			c := &r.Captures[i]
			if c.Verdict == similarity.VerdictNotScored {
				continue
			}
			off := c.Verdict == similarity.VerdictOff
			if n%7 == 3 || c.URIM == hostileURIM {
				off = !off // a wrong verdict
			}
			n++
			gold[similarity.KeyOf(c)] = similarity.GoldLabel{URIM: c.URIM, Off: off}
		}
	}
	gold[similarity.GoldKey{Key: "org,unseen)/", TS: "20100101000000"}] = similarity.GoldLabel{URIM: "http://archive.test/c/20100101000000/http://unseen.org/", Off: true}
	return similarity.Evaluate(gold, results), results
}

func TestEvaluationHTML(t *testing.T) {
	ev, results := htmlEvaluation()
	var buf bytes.Buffer
	if err := WriteEvaluationHTML(&buf, htmlTestRun, ev, EvalOptions{Results: results}); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	text := inertCheck(t, buf.Bytes(), false)
	if !strings.Contains(text, hostileTitle) || !strings.Contains(text, hostileURIM) {
		t.Error("the hostile miss is not listed as text")
	}
	c := ev.Confusion
	for _, want := range []string{
		fmt.Sprintf("TP %d", c.TP), fmt.Sprintf("FN %d", c.FN), fmt.Sprintf("FP %d", c.FP), fmt.Sprintf("TN %d", c.TN),
		`aria-label="ROC curve of cosine"`, `aria-label="ROC curve of wordcount"`,
		`aria-label="F1 against threshold of cosine"`,
		"AUC " + strconv.FormatFloat(ev.AUC["cosine"], 'f', 3, 64),
		"threshold 0.1 of the rule", // the chosen threshold marked
		"no verdict",                // the gold capture detection never saw
		"The society looks after",   // t0's text beside a miss
	} {
		if !strings.Contains(page, want) {
			t.Errorf("evaluation page lacks %q", want)
		}
	}
	misses := c.FN + c.FP
	if !strings.Contains(page, fmt.Sprintf("Wrong verdicts (%d)", misses)) {
		t.Errorf("evaluation page does not count %d wrong verdicts", misses)
	}

	buf.Reset()
	if err := WriteEvaluationHTML(&buf, htmlTestRun, ev, EvalOptions{MaxMisses: 2}); err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(buf.String(), `<tr class="v-off">`); got != 2 {
		t.Errorf("MaxMisses 2 lists %d misses", got)
	}
	if !strings.Contains(buf.String(), fmt.Sprintf("%d more are not listed", misses-2)) {
		t.Error("capped miss list does not say how many more")
	}
}

// TestHTMLReplayLink: a redirect's row links the capture it showed when
// replayed; a hostile URI-M there is not carried into the page.
func TestHTMLReplayLink(t *testing.T) {
	r := htmlTimeMap("org,example)/", "http://example.org/", 4, 2)
	r.Captures[2].Replay = &similarity.Replay{How: similarity.HowRedirect, URL: "http://sale.example/", URIM: "http://archive.test/c/20090612120030/http://sale.example/"}
	r.Captures[3].Replay = &similarity.Replay{How: similarity.HowRedirect, URL: "http://x.example/", URIM: "javascript:alert(3)"}
	page := string(renderHTML(t, []*similarity.TimeMapResult{r}))
	if !strings.Contains(page, `"http://archive.test/c/20090612120030/http://sale.example/"`) {
		t.Error("the capture the redirect showed is not in the page's data")
	}
	if strings.Contains(page, "alert(3)") {
		t.Error("a hostile replay URI-M reached the page")
	}
}
