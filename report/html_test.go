package report

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"regexp"
	"runtime"
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
	Inputs: []string{"a.warc.gz", "b.warc.gz"}, Measures: "cosine=0.10,wordcount=-0.85", ArchiveURL: "http://archive.test/c",
	Options: map[string]string{"topic-guard": "0.35"}}

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
			c.Verdict, c.Reason = similarity.VerdictOff, fmt.Sprintf("cosine %.3f < 0.1; wordcount -0.900 < -0.85", cos)
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
		c.Verdict, c.Reason, c.Scores, c.IsT0 = similarity.VerdictNotScored, "no t0", nil, false
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
	var buf bytes.Buffer
	w, err := NewHTMLWriter(&buf, htmlTestRun)
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
					script += tok.Data
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
				scripts++
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
	return text.String()
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
		`<b>6</b><span>TimeMaps`,           // overview counts
		`cosine=0.1,wordcount=-0.85`,       // the rule
		`aria-label="histogram of cosine"`, // a histogram per measure
		`aria-label="histogram of wordcount"`,
		`class="thr"`,                  // threshold lines
		`class="offband"`,              // off-topic captures on the timeline
		`polyline class="ln m-cosine"`, // each measure over time
		`id="tm-0"`, `id="tm-5"`,       // a section per TimeMap
		`href="http://archive.test/c/20060501120000/http://example.com/" rel="noopener noreferrer" target="_blank"`,
		`Buy this domain today.`, // capture text beside t0's
		`The society looks after`,
		`no t0`,
		`topic-guard: 0.35`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
}

// TestHTMLMostOffTopicFirst checks the default order of the table and of the
// sections: off-topic share, descending.
func TestHTMLMostOffTopicFirst(t *testing.T) {
	page := string(renderHTML(t, htmlFixture()))
	rows := regexp.MustCompile(`<td class="uri"><a href="#tm-(\d+)">`).FindAllStringSubmatch(page, -1)
	sections := regexp.MustCompile(`<details class="tm[^"]*" id="tm-(\d+)">`).FindAllStringSubmatch(page, -1)
	var got, sec []string
	for _, m := range rows {
		got = append(got, m[1])
	}
	for _, m := range sections {
		sec = append(sec, m[1])
	}
	// Off-topic shares: museum 2/4, lights/about 3/8, hostile 1/3,
	// lights 4/13, example 0, parked 0 (none scored).
	want := []string{"5", "2", "1", "3", "0", "4"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("table order %v, want %v", got, want)
	}
	if strings.Join(sec, ",") != strings.Join(want, ",") {
		t.Errorf("section order %v, want %v", sec, want)
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
	var out int64
	var heap uint64
	for b.Loop() {
		out = 0
		w, err := NewHTMLWriter(countingWriter{io.Discard, &out}, htmlTestRun)
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
