package report

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/offtopic/offtopic/similarity"
)

// TestHTMLCuratorInBrowser is what a curator's second week tripped on: a
// sweep by kind that undid a mark made by hand, the count of marks not saved
// wrong after loading a file and reloading, a worklist and a page's captures
// cut off at 1280 pixels, a measure drawn without a colour key.
func TestHTMLCuratorInBrowser(t *testing.T) {
	chromium := findChromium(t)
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	dir := t.TempDir()
	results := append(htmlFixture(), htmlGuardAndCSS()...)
	gen := htmlSynthetic(40, 8)
	for i := range 40 {
		results = append(results, gen(i))
	}
	// Every measure a default run scores, as its report shows them.
	for _, r := range results {
		for i := range r.Captures {
			c := &r.Captures[i]
			if c.Scores == nil {
				continue
			}
			for j, m := range []string{"cosine", "jaccard", "tfintersection", "wordcount", "bytecount", "topic", "content"} {
				if _, ok := c.Scores[m]; !ok {
					c.Scores[m] = 0.1 * float64(j%5)
				}
			}
		}
	}
	page := filepath.Join(dir, "offtopic.html")
	if err := os.WriteFile(page, renderHTML(t, results), 0o644); err != nil {
		t.Fatal(err)
	}
	c, ev := watchedPage(t, chromium)
	if err := c.call("Emulation.setDeviceMetricsOverride", map[string]any{"width": 1280, "height": 800, "deviceScaleFactor": 1, "mobile": false}, nil); err != nil {
		t.Fatal(err)
	}
	c.open(t, ev, page)
	c.waitFor(t, "the marks' store to open", `document.getElementById('review').getAttribute('data-store') === 'open'`)
	js := func(expr string) {
		t.Helper()
		var ok bool
		if err := c.eval("(function(){"+expr+"; return true;})()", &ok); err != nil || !ok {
			t.Fatalf("%s: %v", expr, err)
		}
	}
	text := func(expr string) string {
		t.Helper()
		var s string
		if err := c.eval(expr, &s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	fits := func(what, sel string) {
		t.Helper()
		var w struct{ Scroll, Client, Right, View float64 }
		if err := c.eval(`(function(){var e=document.querySelector(`+jsString(sel)+`); return {Scroll: e.scrollWidth, Client: e.clientWidth,
			Right: e.getBoundingClientRect().right, View: document.documentElement.clientWidth};})()`, &w); err != nil {
			t.Fatalf("%s: %v", sel, err)
		}
		if w.Scroll > w.Client+1 || w.Right > w.View+1 {
			t.Errorf("at 1280 pixels %s is cut off: %.0f pixels wide in a box of %.0f, its right edge at %.0f of %.0f", what, w.Scroll, w.Client, w.Right, w.View)
		}
	}
	fits("the worklist (its Decided column)", ".listwrap")

	// Point 11: at 1280 pixels a page's captures show their text, and each
	// measure drawn has its colour in the legend.
	id := pageOfKind(t, results, similarity.KindError)
	js(`location.hash = '#tm-` + strconv.Itoa(id) + `'`)
	c.waitFor(t, "the page to open", `document.getElementById('open-`+strconv.Itoa(id)+`')`)
	fits("the page's captures (their text)", "#open-"+strconv.Itoa(id)+" .tmbody")
	fits("the page's captures (their text)", "#open-"+strconv.Itoa(id)+" .caps-wrap")
	var keys []struct {
		Name, Colour string
	}
	c.eval(`Array.from(document.querySelectorAll('.legend i[class^="m-"]')).map(i => ({Name: i.className, Colour: getComputedStyle(i).backgroundColor}))`, &keys)
	if len(keys) == 0 {
		t.Fatal("the legend names no measure")
	}
	for _, k := range keys {
		if k.Colour == "" || k.Colour == "rgba(0, 0, 0, 0)" || k.Colour == "transparent" {
			t.Errorf("the legend's key of %s has no colour", k.Name)
		}
	}

	// Point 4: a capture of kind error marked unsure by hand keeps its mark
	// when every capture of that kind is marked off-topic, and the toast
	// says so.
	row := kindRow(t, results[id], similarity.KindError)
	js(fmt.Sprintf(`document.querySelector('#open-%d .caps tbody tr:nth-child(%d) button[data-d="unsure"]').click()`, id, row+1))
	js(`document.getElementById('mk-kind').value = 'error'; document.getElementById('mk-as').value = 'off-topic'; document.getElementById('mk-apply').click()`)
	if d := text(fmt.Sprintf(`(document.querySelector('#open-%d .caps tbody tr:nth-child(%d) button[aria-pressed=true]') || {}).title || ''`, id, row+1)); d != "unsure" {
		t.Errorf("after marking every capture of kind error off-topic, the capture marked unsure by hand is %q", d)
	}
	if msg := text(`document.getElementById('toast').textContent`); !strings.Contains(msg, "1 already marked otherwise kept their marks (1 unsure)") {
		t.Errorf("after marking by kind, the toast says %q; want it to say the unsure mark was kept", msg)
	}

	loadedMarksSaved(t, c, ev, dir)
	if problems, _ := ev.take(); len(problems) > 0 {
		t.Errorf("console errors:\n%s", strings.Join(problems, "\n"))
	}
}

// loadedMarksSaved (point 6): loading a file that holds the marks made
// counts none as not saved, and so does a reload after it.
func loadedMarksSaved(t *testing.T, c *cdp, ev *pageEvents, dir string) {
	t.Helper()
	text := func(expr string) string {
		t.Helper()
		var s string
		if err := c.eval(expr, &s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	marked, err := strconv.Atoi(text(`document.getElementById('nunsaved').textContent`))
	if err != nil || marked < 2 {
		t.Fatalf("%d marks not saved before loading (%v), want the ones just made", marked, err)
	}
	var csv string
	if err := c.eval(`(function(){var out=['key,timestamp,uri_m,uri_r,curator decision'];
		return new Promise(function (ok, fail) { var q = indexedDB.open('offtopic'); q.onerror = fail;
		q.onsuccess = function () { var g = q.result.transaction('marks').objectStore('marks').getAll();
		g.onsuccess = function () { g.result.forEach(function (r) { if (!r.d) { return; } var sp = r.ck.lastIndexOf(' ');
		out.push(['"' + r.ck.slice(0, sp) + '"', r.ck.slice(sp + 1), '', '', r.d].join(',')); }); ok(out.join('\n') + '\n'); q.result.close(); }; }; });})()`, &csv); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "decisions.csv")
	os.WriteFile(file, []byte(csv), 0o644)
	loadFile(t, c, file)
	if !c.poll(`document.getElementById('nunsaved').textContent === '0'`, 5*time.Second) {
		t.Errorf("after loading a file of every mark, %s marks are counted as not saved", text(`document.getElementById('nunsaved').textContent`))
	}
	c.waitFor(t, "the marks to be stored", `(document.getElementById('review').getAttribute('data-writing') || '0') === '0'`)
	if err := c.call("Page.reload", map[string]any{"ignoreCache": true}, nil); err != nil {
		t.Fatal(err)
	}
	select {
	case <-ev.loaded:
	case <-time.After(30 * time.Second):
		t.Fatal("page did not reload in 30s")
	}
	c.waitFor(t, "the marks' store to open", `document.getElementById('review').getAttribute('data-store') === 'open'`)
	if n := text(`document.getElementById('nunsaved').textContent`); n != "0" {
		t.Errorf("after loading a file of every mark and reloading, %s marks are counted as not saved", n)
	}
}

// pageOfKind is the index of the first result with an off-topic capture of
// kind k.
func pageOfKind(t *testing.T, results []*similarity.TimeMapResult, k similarity.Kind) int {
	t.Helper()
	for i, r := range results {
		if kindRow(nil, r, k) >= 0 {
			return i
		}
	}
	t.Fatalf("no page with a capture of kind %s", k)
	return -1
}

// kindRow is the index of r's first off-topic capture of kind k, -1 if none
// (t nil) or a failure.
func kindRow(t *testing.T, r *similarity.TimeMapResult, k similarity.Kind) int {
	for i, c := range r.Captures {
		if c.Kind == k && c.Verdict == similarity.VerdictOff {
			return i
		}
	}
	if t != nil {
		t.Fatalf("%s has no capture of kind %s", r.URIR, k)
	}
	return -1
}

// loadFile chooses path in the report's Load decisions input.
func loadFile(t *testing.T, c *cdp, path string) {
	t.Helper()
	var obj struct {
		Result struct {
			ObjectID string `json:"objectId"`
		} `json:"result"`
	}
	if err := c.call("Runtime.evaluate", map[string]any{"expression": `document.getElementById('load')`}, &obj); err != nil || obj.Result.ObjectID == "" {
		t.Fatalf("find the load button: %v", err)
	}
	if err := c.call("DOM.setFileInputFiles", map[string]any{"files": []string{path}, "objectId": obj.Result.ObjectID}, nil); err != nil {
		t.Fatalf("choose the decisions file: %v", err)
	}
}

// TestHTMLAuditCloseCallInBrowser: an audited document a hair below the
// threshold reads below it (topic and distance), and the note on links
// names the command that wrote the audit.
func TestHTMLAuditCloseCallInBrowser(t *testing.T) {
	chromium := findChromium(t)
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	in := time.Date(2016, 5, 1, 0, 0, 0, 0, time.UTC)
	run := *auditRun
	run.Measures, run.ArchiveURL = "topic=0.085", DefaultArchiveURL
	doc := auditedDoc("http://hair.example/", 0.08497, in, "meta", true)
	doc.Captures[0].Verdict = similarity.VerdictOff
	page := filepath.Join(t.TempDir(), "offtopic.html")
	if err := os.WriteFile(page, renderHTMLRun(t, &run, []*similarity.TimeMapResult{doc}), 0o644); err != nil {
		t.Fatal(err)
	}
	c, ev := watchedPage(t, chromium)
	c.open(t, ev, page)
	var row struct{ Topic, Dist, Note string }
	if err := c.eval(`(function(){var r = document.querySelector('#tms tbody tr[data-id]'); return {Topic: r.cells[1].textContent, Dist: r.cells[2].textContent,
		Note: (document.getElementById('default-archive') || {}).textContent || ''};})()`, &row); err != nil {
		t.Fatal(err)
	}
	if row.Topic != "0.08497" || row.Dist != "\u22120.00003" {
		t.Errorf("a document at topic 0.08497 against a threshold of 0.085 reads topic %q, distance %q; want 0.08497 and \u22120.00003", row.Topic, row.Dist)
	}
	if !strings.Contains(row.Note, "Run offtopic crawl audit with --archive-url") {
		t.Errorf("an audit's note on links says %q; want it to name crawl audit", row.Note)
	}
}
