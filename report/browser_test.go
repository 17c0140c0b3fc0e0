//go:build unix

package report

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/net/websocket"

	"github.com/offtopic/offtopic/similarity"
)

// findChromium returns the headless browser to test pages in, or skips.
func findChromium(t testing.TB) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("browser test skipped: neither chromium nor chromium-browser is on PATH (Debian: apt-get install chromium; .ci/run installs it)")
	return ""
}

// cdp is a minimal Chrome DevTools Protocol client over one page's websocket.
type cdp struct {
	ws     *websocket.Conn
	mu     sync.Mutex
	nextID int
	wait   map[int]chan cdpMessage
	events chan cdpMessage
	done   chan struct{}
}

type cdpMessage struct {
	ID     int             `json:"id,omitempty"`
	Method string          `json:"method,omitempty"`
	Params json.RawMessage `json:"params,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  *struct {
		Message string `json:"message"`
	} `json:"error,omitempty"`
}

func dialCDP(wsURL string) (*cdp, error) {
	cfg, err := websocket.NewConfig(wsURL, "http://127.0.0.1")
	if err != nil {
		return nil, err
	}
	cfg.Dialer = nil
	ws, err := websocket.DialConfig(cfg)
	if err != nil {
		return nil, err
	}
	ws.MaxPayloadBytes = 64 << 20
	c := &cdp{ws: ws, wait: map[int]chan cdpMessage{}, events: make(chan cdpMessage, 1024), done: make(chan struct{})}
	go c.read()
	return c, nil
}

func (c *cdp) read() {
	defer close(c.done)
	for {
		var m cdpMessage
		if err := websocket.JSON.Receive(c.ws, &m); err != nil {
			return
		}
		if m.ID != 0 {
			c.mu.Lock()
			ch := c.wait[m.ID]
			delete(c.wait, m.ID)
			c.mu.Unlock()
			if ch != nil {
				ch <- m
			}
			continue
		}
		select {
		case c.events <- m:
		default: // a test that stops reading events must not block replies
		}
	}
}

// call sends a command and waits (bounded) for its result.
func (c *cdp) call(method string, params any, result any) error {
	c.mu.Lock()
	c.nextID++
	id := c.nextID
	ch := make(chan cdpMessage, 1)
	c.wait[id] = ch
	c.mu.Unlock()
	if params == nil {
		params = struct{}{}
	}
	if err := websocket.JSON.Send(c.ws, map[string]any{"id": id, "method": method, "params": params}); err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	select {
	case m := <-ch:
		if m.Error != nil {
			return fmt.Errorf("%s: %s", method, m.Error.Message)
		}
		if result != nil {
			return json.Unmarshal(m.Result, result)
		}
		return nil
	case <-c.done:
		return fmt.Errorf("%s: connection closed", method)
	case <-time.After(20 * time.Second):
		return fmt.Errorf("%s: no reply in 20s", method)
	}
}

// eval runs JavaScript in the page and decodes its (JSON-able) value.
func (c *cdp) eval(expr string, out any) error {
	var r struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		Exception *struct {
			Text      string `json:"text"`
			Exception struct {
				Description string `json:"description"`
			} `json:"exception"`
		} `json:"exceptionDetails"`
	}
	if err := c.call("Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true, "awaitPromise": true}, &r); err != nil {
		return err
	}
	if r.Exception != nil {
		return fmt.Errorf("evaluate %q: %s %s", expr, r.Exception.Text, r.Exception.Exception.Description)
	}
	if out != nil {
		return json.Unmarshal(r.Result.Value, out)
	}
	return nil
}

// browser is a headless Chromium started for one test.
type browser struct {
	cmd  *exec.Cmd
	port string
}

func startChromium(t testing.TB, path string) *browser {
	t.Helper()
	cmd := exec.Command(path, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-extensions",
		"--disable-default-apps", "--mute-audio", "--hide-scrollbars", "--window-size=1366,768",
		"--user-data-dir="+t.TempDir(), "--remote-debugging-port=0", "--remote-debugging-address=127.0.0.1",
		"--remote-allow-origins=http://127.0.0.1", "about:blank")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", path, err)
	}
	b := &browser{cmd: cmd}
	t.Cleanup(func() {
		// Chromium's helpers share its process group: end them all.
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		cmd.Wait()
	})
	found := make(chan string, 1)
	var log bytes.Buffer
	var logMu sync.Mutex
	go func() {
		re := regexp.MustCompile(`DevTools listening on ws://127\.0\.0\.1:(\d+)/`)
		sc := bufio.NewScanner(stderr)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			logMu.Lock()
			if log.Len() < 1<<16 {
				log.WriteString(sc.Text() + "\n")
			}
			logMu.Unlock()
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case found <- m[1]:
				default:
				}
			}
		}
		io.Copy(io.Discard, stderr)
	}()
	select {
	case b.port = <-found:
	case <-time.After(45 * time.Second):
		logMu.Lock()
		defer logMu.Unlock()
		t.Fatalf("chromium did not report a DevTools address in 45s; stderr:\n%s", log.String())
	}
	return b
}

// page connects to the browser's first page target.
// watchedPage starts Chromium and opens a tab with page, runtime and log
// events on, recording the page's CSP violations in window.__csp (scripts
// DevTools injects are not subject to the page's CSP); it ends with the test.
func watchedPage(t *testing.T, chromium string) (*cdp, *pageEvents) {
	t.Helper()
	c := startChromium(t, chromium).page(t)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	ev := c.watch(ctx)
	for _, m := range []string{"Page.enable", "Runtime.enable", "Log.enable"} {
		if err := c.call(m, nil, nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.call("Page.addScriptToEvaluateOnNewDocument", map[string]any{"source": `window.__csp = [];
document.addEventListener('securitypolicyviolation', function (e) { window.__csp.push(e.violatedDirective + ' ' + e.blockedURI); });`}, nil); err != nil {
		t.Fatal(err)
	}
	return c, ev
}

// open navigates the tab to a local file and waits for it to load, then a
// moment for late console messages.
func (c *cdp) open(t *testing.T, ev *pageEvents, path string) {
	t.Helper()
	if err := c.call("Page.navigate", map[string]any{"url": "file://" + path}, nil); err != nil {
		t.Fatal(err)
	}
	select {
	case <-ev.loaded:
	case <-time.After(30 * time.Second):
		t.Fatalf("%s did not load in 30s", filepath.Base(path))
	}
	c.waitFor(t, "the page to be complete", `document.readyState === 'complete'`)
}

// poll evaluates a JavaScript condition until it holds or the time is up,
// and reports whether it held.
func (c *cdp) poll(expr string, within time.Duration) bool {
	deadline := time.Now().Add(within)
	for {
		var ok bool
		if err := c.eval("!!("+expr+")", &ok); err == nil && ok {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// waitFor polls a JavaScript condition until it holds, failing the test
// when it does not within 10 s.
func (c *cdp) waitFor(t testing.TB, what, expr string) {
	t.Helper()
	if !c.poll(expr, 10*time.Second) {
		t.Fatalf("waited 10s for %s: %s", what, expr)
	}
}

// nextFrame waits until the page has drawn a frame (after a scroll, before
// a screenshot).
func (c *cdp) nextFrame(t testing.TB) {
	t.Helper()
	if err := c.eval(`new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))`, nil); err != nil {
		t.Fatal(err)
	}
}

func (b *browser) page(t testing.TB) *cdp {
	t.Helper()
	client := &http.Client{Timeout: 10 * time.Second}
	deadline := time.Now().Add(20 * time.Second)
	for {
		resp, err := client.Get("http://127.0.0.1:" + b.port + "/json/list")
		if err == nil {
			var targets []struct {
				Type string `json:"type"`
				WS   string `json:"webSocketDebuggerUrl"`
			}
			err = json.NewDecoder(resp.Body).Decode(&targets)
			resp.Body.Close()
			for _, tg := range targets {
				if tg.Type == "page" && tg.WS != "" {
					c, err := dialCDP(tg.WS)
					if err != nil {
						t.Fatalf("connect to the page: %v", err)
					}
					t.Cleanup(func() { c.ws.Close() })
					return c
				}
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no page target from chromium: %v", err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// pageEvents collects what a page reports: console messages, exceptions,
// log entries (CSP violations among them) and dialogs.
type pageEvents struct {
	mu       sync.Mutex
	problems []string
	dialogs  []string
	loaded   chan struct{}
}

func (c *cdp) watch(ctx context.Context) *pageEvents {
	pe := &pageEvents{loaded: make(chan struct{}, 8)}
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case m := <-c.events:
				pe.handle(c, m)
			}
		}
	}()
	return pe
}

func (pe *pageEvents) handle(c *cdp, m cdpMessage) {
	var p map[string]any
	json.Unmarshal(m.Params, &p)
	pe.mu.Lock()
	defer pe.mu.Unlock()
	switch m.Method {
	case "Page.loadEventFired":
		pe.loaded <- struct{}{}
	case "Page.javascriptDialogOpening":
		pe.dialogs = append(pe.dialogs, fmt.Sprint(p["type"], ": ", p["message"]))
		go c.call("Page.handleJavaScriptDialog", map[string]any{"accept": false}, nil)
	case "Runtime.exceptionThrown":
		pe.problems = append(pe.problems, "exception: "+string(m.Params))
	case "Runtime.consoleAPICalled":
		pe.problems = append(pe.problems, fmt.Sprint("console.", p["type"], ": ", string(m.Params)))
	case "Log.entryAdded":
		if e, ok := p["entry"].(map[string]any); ok && (e["level"] == "error" || e["level"] == "warning") {
			pe.problems = append(pe.problems, fmt.Sprint("log ", e["level"], " (", e["source"], "): ", e["text"]))
		}
	}
}

// has reports whether a problem has been recorded since the last take.
func (pe *pageEvents) has() bool {
	pe.mu.Lock()
	defer pe.mu.Unlock()
	return len(pe.problems) > 0
}

func (pe *pageEvents) take() (problems, dialogs []string) {
	pe.mu.Lock()
	defer pe.mu.Unlock()
	problems, dialogs = pe.problems, pe.dialogs
	pe.problems, pe.dialogs = nil, nil
	return
}

// screenshot captures the viewport and checks that it is not blank.
func screenshot(t *testing.T, c *cdp, save string) image.Image {
	t.Helper()
	var shot struct {
		Data string `json:"data"`
	}
	if err := c.call("Page.captureScreenshot", map[string]any{"format": "png"}, &shot); err != nil {
		t.Fatal(err)
	}
	raw, err := base64.StdEncoding.DecodeString(shot.Data)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("screenshot is not a PNG: %v", err)
	}
	if save != "" {
		if err := os.WriteFile(save, raw, 0o644); err != nil {
			t.Error(err)
		}
	}
	colours := map[[3]uint32]int{}
	bnd := img.Bounds()
	for y := bnd.Min.Y; y < bnd.Max.Y; y += 3 {
		for x := bnd.Min.X; x < bnd.Max.X; x += 3 {
			r, g, b, _ := img.At(x, y).RGBA()
			colours[[3]uint32{r >> 8, g >> 8, b >> 8}]++
		}
	}
	most := 0
	total := 0
	for _, n := range colours {
		most = max(most, n)
		total += n
	}
	if bnd.Dx() < 1000 || bnd.Dy() < 600 {
		t.Errorf("screenshot is %dx%d, want the 1366x768 viewport", bnd.Dx(), bnd.Dy())
	}
	if len(colours) < 20 || float64(most) > 0.97*float64(total) {
		t.Errorf("screenshot looks blank: %d distinct colours, the commonest covers %d of %d samples", len(colours), most, total)
	}
	return img
}

// TestHTMLInBrowser loads the report with a hostile capture from file:// in
// headless Chromium: no console errors or CSP violations, the table sorts and
// filters, a TimeMap expands, nothing hostile runs, and the page is not blank.
func TestHTMLInBrowser(t *testing.T) {
	chromium := findChromium(t)
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	dir := t.TempDir()
	results := append(htmlFixture(), htmlGuardAndCSS()...)
	gen := htmlSynthetic(40, 8)
	for i := 0; i < 40; i++ {
		results = append(results, gen(i))
	}
	pages := len(results) - 1 // all but the stylesheet's TimeMap
	page := filepath.Join(dir, "offtopic.html")
	if err := os.WriteFile(page, renderHTML(t, results), 0o644); err != nil {
		t.Fatal(err)
	}
	shots := os.Getenv("OFFTOPIC_SCREENSHOT_DIR") // where to keep screenshots, for looking at them

	c, ev := watchedPage(t, chromium)
	if err := c.call("Emulation.setDeviceMetricsOverride", map[string]any{"width": 1366, "height": 768, "deviceScaleFactor": 1, "mobile": false}, nil); err != nil {
		t.Fatal(err)
	}
	c.open(t, ev, page)

	var state struct {
		Rows, Scripts, Imgs, Handlers, JSLinks int
		CSP                                    []string
		Title                                  string
	}
	if err := c.eval(`({Rows: document.querySelectorAll('#tms tbody tr[data-id]').length,
		Scripts: Array.from(document.scripts).filter(s => s.type !== 'application/json').length, Imgs: document.images.length,
		Handlers: Array.from(document.querySelectorAll('*')).filter(e => Array.from(e.attributes).some(a => a.name.startsWith('on'))).length,
		JSLinks: Array.from(document.querySelectorAll('[href]')).filter(e => !/^(https?:|#)/i.test(e.getAttribute('href'))).length,
		CSP: window.__csp, Title: document.title})`, &state); err != nil {
		t.Fatal(err)
	}
	if state.Rows != pages {
		t.Errorf("%d table rows, want the %d pages", state.Rows, pages)
	}
	if state.Scripts != 1 || state.Imgs != 0 || state.Handlers != 0 || state.JSLinks != 0 {
		t.Errorf("live DOM: %d scripts (want 1), %d images, %d elements with event handlers, %d non-http links (want 0)",
			state.Scripts, state.Imgs, state.Handlers, state.JSLinks)
	}
	if len(state.CSP) > 0 {
		t.Errorf("CSP violations on load: %v", state.CSP)
	}
	problems, dialogs := ev.take()
	if len(problems) > 0 {
		t.Errorf("console errors on load:\n%s", strings.Join(problems, "\n"))
	}
	if len(dialogs) > 0 {
		t.Errorf("dialogs opened: %v", dialogs)
	}
	screenshot(t, c, filepath.Join(dir, "overview.png"))
	if shots != "" {
		screenshot(t, c, filepath.Join(shots, "report.png"))
	}

	// Sorting: the default order is by off-topic share, descending.
	order := func(attr string) []string {
		var out []string
		if err := c.eval(`Array.from(document.querySelectorAll('#tms tbody tr[data-id]')).map(r => r.getAttribute('`+attr+`'))`, &out); err != nil {
			t.Fatal(err)
		}
		return out
	}
	var shares []float64
	if err := c.eval(`Array.from(document.querySelectorAll('#tms tbody tr[data-id]')).map(r => parseFloat(r.cells[3].getAttribute('data-v')))`, &shares); err != nil {
		t.Fatal(err)
	}
	for i := 1; i < len(shares); i++ {
		if shares[i] > shares[i-1] {
			t.Fatalf("default order is not by off-topic share descending: %v", shares)
		}
	}
	click := func(selector string) {
		t.Helper()
		var ok bool
		if err := c.eval(`(function(){var e=document.querySelector(`+jsString(selector)+`); if(!e) return false; e.scrollIntoView({block:'center'}); var r=e.getBoundingClientRect(); window.__click=[r.left+r.width/2, r.top+r.height/2]; return true;})()`, &ok); err != nil || !ok {
			t.Fatalf("no %s to click: %v", selector, err)
		}
		var xy [2]float64
		c.eval(`window.__click`, &xy)
		for _, typ := range []string{"mousePressed", "mouseReleased"} {
			if err := c.call("Input.dispatchMouseEvent", map[string]any{"type": typ, "x": xy[0], "y": xy[1], "button": "left", "clickCount": 1}, nil); err != nil {
				t.Fatal(err)
			}
		}
	}
	click("#tms thead th:nth-child(1) button") // URI-R, ascending
	asc := order("data-u")
	if !sortedStrings(asc) {
		t.Errorf("after clicking URI-R rows are not in ascending order: %v", asc[:min(6, len(asc))])
	}
	click("#tms thead th:nth-child(1) button") // descending
	desc := order("data-u")
	if len(desc) == 0 || desc[0] != asc[len(asc)-1] {
		t.Errorf("second click did not reverse the order: first row %v", desc[:min(1, len(desc))])
	}
	click("#tms thead th:nth-child(2) button") // captures, most first
	var caps []int
	c.eval(`Array.from(document.querySelectorAll('#tms tbody tr[data-id]')).map(r => parseInt(r.cells[1].textContent))`, &caps)
	for i := 1; i < len(caps); i++ {
		if caps[i] > caps[i-1] {
			t.Fatalf("captures column not sorted descending: %v", caps)
		}
	}

	// Filtering: type into the filter, then narrow to off-topic TimeMaps.
	click("#filter")
	if err := c.call("Input.insertText", map[string]any{"text": "lights"}, nil); err != nil {
		t.Fatal(err)
	}
	shown := order("data-u")
	var shownCount string
	c.eval(`document.getElementById('shown').textContent`, &shownCount)
	if len(shown) != 2 || shownCount != "2" {
		t.Errorf("filter 'lights' shows %v (counter %q), want the 2 lights TimeMaps", shown, shownCount)
	}
	for _, u := range shown {
		if !strings.Contains(u, "lights") {
			t.Errorf("filter 'lights' shows %q", u)
		}
	}
	c.eval(`(function(){var f=document.getElementById('filter'); f.value=''; f.dispatchEvent(new Event('input')); return true;})()`, nil)
	choose := func(what string) {
		t.Helper()
		if err := c.eval(`(function(){var s=document.getElementById('show'); s.value=`+jsString(what)+`; s.dispatchEvent(new Event('change')); return true;})()`, nil); err != nil {
			t.Fatal(err)
		}
	}
	choose("off")
	for _, off := range order("data-off") {
		if off == "0" {
			t.Errorf("'pages with off-topic captures' shows a TimeMap without any")
			break
		}
	}
	if n := len(order("data-u")); n == 0 || n == pages {
		t.Errorf("'pages with off-topic captures' shows %d of %d rows", n, pages)
	}
	// The curator's reading's card shows the pages with captures it kept.
	choose("pages")
	click("#guard-card")
	var guardRows []float64
	c.eval(`Array.from(document.querySelectorAll('#tms tbody tr[data-id]')).map(r => parseFloat(r.cells[5].getAttribute('data-v')))`, &guardRows)
	if len(guardRows) == 0 || len(guardRows) == pages {
		t.Errorf("the card of captures kept on-topic shows %d of %d pages", len(guardRows), pages)
	}
	for _, g := range guardRows {
		if g <= 0 {
			t.Errorf("the card of captures kept on-topic shows a page without guarded captures: %v", guardRows)
			break
		}
	}
	choose("other")
	if u := order("data-u"); len(u) != 1 || !strings.HasSuffix(u[0], "style.css") {
		t.Errorf("'TimeMaps of other types' shows %v, want the stylesheet", u)
	}
	choose("pages")

	// Expanding: following a row's link opens its TimeMap below the row.
	click(`#tms tbody tr[data-u="javascript:alert(5)//"] a`)
	c.waitFor(t, "the hostile TimeMap to open", `document.getElementById('open-1')`)
	var open bool
	if err := c.eval(`document.querySelector('tr.detail[id="open-1"]') !== null && document.querySelector('tr.detail').previousSibling.id === 'row-1'`, &open); err != nil {
		t.Fatal(err)
	}
	if !open {
		t.Error("following the hostile TimeMap's row did not open its captures below it")
	}
	var hostileText bool
	if err := c.eval(`document.getElementById('open-1').textContent.includes(`+jsString(hostileTitle)+`)`, &hostileText); err != nil {
		t.Fatal(err)
	}
	if !hostileText {
		t.Error("the hostile title is not shown as text")
	}
	// Its links: only the http ones are links, and the hostile ones are text.
	var links []string
	c.eval(`Array.from(document.querySelectorAll('#open-1 a:not(.back)')).map(a => a.href)`, &links)
	if len(links) == 0 {
		t.Error("no links in the hostile TimeMap's captures")
	}
	for _, l := range links {
		if !strings.HasPrefix(l, "http://") && !strings.HasPrefix(l, "https://") {
			t.Errorf("link %q in the hostile section", l)
		}
	}
	// Click the text that would be a link if the page were injectable.
	click(`#open-1 .caps tbody tr:last-child td.txt:last-child`)
	c.nextFrame(t)
	if shots != "" {
		screenshot(t, c, filepath.Join(shots, "report-section.png"))
	} else {
		screenshot(t, c, "")
	}

	if shots != "" { // a normal TimeMap's section, for looking at
		c.eval(`(function(){location.hash='#tm-3'; return true;})()`, nil)
		c.waitFor(t, "TimeMap 3 to open", `document.getElementById('open-3')`)
		c.nextFrame(t)
		screenshot(t, c, filepath.Join(shots, "report-timeline.png"))
	}

	// Review: mark one capture, then a page's captures from a date on in bulk,
	// save the decisions and read the file back as evaluate and prune do.
	reviewInBrowser(t, c, ev, dir, results)
	kindsInBrowser(t, c, ev, results)

	// A control: the page's CSP blocks an injected inline script, and the
	// test sees the violation (so an empty list above means something).
	var ran bool
	if err := c.eval(`(function(){var s=document.createElement('script'); s.textContent='window.__ran=true'; document.body.appendChild(s); return window.__ran===true;})()`, &ran); err != nil {
		t.Fatal(err)
	}
	c.poll(`window.__csp.length > 0`, 5*time.Second)
	var csp []string
	c.eval(`window.__csp`, &csp)
	for end := time.Now().Add(5 * time.Second); time.Now().Before(end) && !ev.has(); {
		time.Sleep(20 * time.Millisecond) // the console message follows the violation
	}
	problems, dialogs = ev.take()
	if ran || len(csp) == 0 {
		t.Errorf("control: an injected inline script ran=%v, CSP violations seen %v: the CSP is not in force", ran, csp)
	}
	if len(problems) == 0 {
		t.Error("control: a CSP violation did not reach the console; console checks above prove nothing")
	}
	for _, p := range problems {
		if !strings.Contains(p, "Content Security Policy") {
			t.Errorf("unexpected console message: %s", p)
		}
	}
	if len(dialogs) > 0 {
		t.Errorf("dialogs opened: %v", dialogs)
	}

	// The evaluation page: loads clean, nothing runs, not blank.
	evr, evResults := htmlEvaluation()
	var evPage bytes.Buffer
	if err := WriteEvaluationHTML(&evPage, htmlTestRun, evr, EvalOptions{Results: evResults}); err != nil {
		t.Fatal(err)
	}
	evPath := filepath.Join(dir, "evaluation.html")
	if err := os.WriteFile(evPath, evPage.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	c.open(t, ev, evPath)
	var evState struct {
		Scripts, Charts int
		CSP             []string
	}
	if err := c.eval(`({Scripts: document.scripts.length, Charts: document.querySelectorAll('svg polyline').length, CSP: window.__csp})`, &evState); err != nil {
		t.Fatal(err)
	}
	if evState.Scripts != 0 || evState.Charts == 0 || len(evState.CSP) > 0 {
		t.Errorf("evaluation page: %d scripts, %d chart lines, CSP violations %v", evState.Scripts, evState.Charts, evState.CSP)
	}
	problems, dialogs = ev.take()
	if len(problems) > 0 || len(dialogs) > 0 {
		t.Errorf("evaluation page: console %v, dialogs %v", problems, dialogs)
	}
	if shots != "" {
		screenshot(t, c, filepath.Join(shots, "evaluation.png"))
		c.eval(`(function(){document.getElementById('measures').scrollIntoView(); return true;})()`, nil)
		c.nextFrame(t)
		screenshot(t, c, filepath.Join(shots, "evaluation-curves.png"))
	} else {
		screenshot(t, c, "")
	}
	c.call("Browser.close", nil, nil)
}

func sortedStrings(s []string) bool {
	for i := 1; i < len(s); i++ {
		if s[i] < s[i-1] {
			return false
		}
	}
	return true
}

// jsString quotes s as a JavaScript string literal.
func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// reviewInBrowser marks captures of the "org,lights)/" TimeMap (id 3 of the
// fixture) one at a time and in bulk, saves the decisions from the page,
// reads the saved file with ReadDecisions, reloads the page (the decisions
// stay) and loads the file into a page that has forgotten them.
func reviewInBrowser(t *testing.T, c *cdp, ev *pageEvents, dir string, results []*similarity.TimeMapResult) {
	t.Helper()
	const id = 3
	r := results[id]
	downloads := filepath.Join(dir, "downloads")
	if err := os.MkdirAll(downloads, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := c.call("Browser.setDownloadBehavior", map[string]any{"behavior": "allow", "downloadPath": downloads}, nil); err != nil {
		if err := c.call("Page.setDownloadBehavior", map[string]any{"behavior": "allow", "downloadPath": downloads}, nil); err != nil {
			t.Fatalf("allow downloads: %v", err)
		}
	}
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
	c.waitFor(t, "the marks' store to open", `document.getElementById('review').getAttribute('data-store') !== 'opening'`)
	if st := text(`document.getElementById('review').getAttribute('data-store')`); st != "open" {
		t.Fatalf("the page's store of marks is %q, want open", st)
	}
	js(`location.hash = '#tm-3'`)
	c.waitFor(t, "TimeMap 3 to open", `document.getElementById('open-3')`)
	capBtn := func(i int, d string) string {
		return fmt.Sprintf(`document.querySelector('#open-3 .caps tbody tr:nth-child(%d) button[data-d=%q]').click()`, i+1, d)
	}
	js(capBtn(1, "unsure"))
	js(capBtn(4, "on-topic"))
	js(capBtn(4, "off-topic")) // a second choice replaces the first
	js(capBtn(5, "off-topic"))
	js(capBtn(5, "off-topic")) // the same choice again takes it back
	// The bulk bar marks the off-topic verdicts by default, never t0.
	if w := text(`document.querySelector('#open-3 .bulk .b-which').value`); w != "off" {
		t.Errorf("the bulk bar marks %q by default, want the off-topic verdicts", w)
	}
	from := r.Captures[10].Datetime.UTC().Format("20060102150405")
	js(`var b = document.querySelector('#open-3 .bulk'); b.querySelector('.b-which').value = 'all';
		b.querySelector('.b-from').value = ` + jsString(from) + `; b.querySelector('.b-as').value = 'off-topic';
		b.querySelector('.b-apply').click()`)
	want := map[similarity.GoldKey]string{similarity.KeyOf(&r.Captures[4]): DecisionOff}
	for i := 10; i < len(r.Captures); i++ {
		want[similarity.KeyOf(&r.Captures[i])] = DecisionOff
	}
	// The feedback is in view, wherever the page is scrolled.
	var toast struct {
		Text      string
		Top, Bott float64
		Hidden    bool
	}
	c.eval(`(function(){var e=document.getElementById('toast'), r=e.getBoundingClientRect(); return {Text: e.textContent, Top: r.top, Bott: r.bottom, Hidden: e.hidden};})()`, &toast)
	if toast.Hidden || !strings.HasPrefix(toast.Text, "Marked ") || toast.Top < 0 || toast.Bott > 768 {
		t.Errorf("after a bulk mark the toast is %+v, want it shown in the 768-pixel viewport", toast)
	}
	if n := text(`document.getElementById('ndec').textContent`); n != strconv.Itoa(len(want)+1) { // and the unsure one
		t.Errorf("the page counts %s decisions, want %d", n, len(want)+1)
	}
	// Marks taken back count as not saved too: capture 5 was marked and unmarked.
	if n := text(`document.getElementById('nunsaved').textContent`); n != strconv.Itoa(len(want)+2) {
		t.Errorf("the page counts %s marks not saved to a file, want %d", n, len(want)+2)
	}
	var pressed []string
	c.eval(`Array.from(document.querySelectorAll('#open-3 .caps tbody tr')).map(tr => (tr.querySelector('button[aria-pressed=true]') || {}).title || '')`, &pressed)
	if len(pressed) != len(r.Captures) || pressed[1] != "unsure" || pressed[4] != DecisionOff || pressed[5] != "" || pressed[12] != DecisionOff {
		t.Errorf("decisions shown on the captures: %q", pressed)
	}

	// The marks outlive a reload (IndexedDB), unsaved ones still counted.
	reload := func() {
		t.Helper()
		// Marks are stored asynchronously; a reload before the store has
		// them would lose them (a curator's reload comes seconds later).
		c.waitFor(t, "the marks to be stored", `(document.getElementById('review').getAttribute('data-writing') || '0') === '0'`)
		if err := c.call("Page.reload", map[string]any{"ignoreCache": true}, nil); err != nil {
			t.Fatal(err)
		}
		select {
		case <-ev.loaded:
		case <-time.After(30 * time.Second):
			t.Fatal("page did not reload in 30s")
		}
		c.waitFor(t, "the marks' store to open", `document.getElementById('review').getAttribute('data-store') !== 'opening'`)
	}
	reload()
	if n := text(`document.getElementById('ndec').textContent`); n != strconv.Itoa(len(want)+1) {
		t.Errorf("after a reload the page counts %s decisions, want %d", n, len(want)+1)
	}
	if n := text(`document.getElementById('nunsaved').textContent`); n != strconv.Itoa(len(want)+2) {
		t.Errorf("after a reload the page counts %s marks not saved, want %d", n, len(want)+2)
	}

	js(`document.getElementById('save').click()`)
	var saved string
	deadline := time.Now().Add(15 * time.Second)
	for saved == "" {
		ents, _ := os.ReadDir(downloads)
		for _, e := range ents {
			if m, _ := filepath.Match("decisions-*-[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]-[0-9][0-9][0-9][0-9].csv", e.Name()); m {
				if st, err := e.Info(); err == nil && st.Size() > 0 {
					saved = filepath.Join(downloads, e.Name())
				}
			}
		}
		if saved == "" && time.Now().After(deadline) {
			t.Fatalf("no decisions-COLLECTION-YYYYMMDD-HHMM.csv saved in 15s (downloads: %v)", ents)
		}
		time.Sleep(50 * time.Millisecond) // polling the downloads folder
	}
	if want := "decisions-" + htmlTestRun.CollectionName() + "-"; !strings.HasPrefix(filepath.Base(saved), want) {
		t.Errorf("saved as %s, want a name starting %s", filepath.Base(saved), want)
	}
	if n := text(`document.getElementById('nunsaved').textContent`); n != "0" {
		t.Errorf("after saving, %s marks are counted as not saved", n)
	}
	// The toast gives the commands that read the file, with this report's
	// folder, and stays until it is closed (a curator copies them).
	for _, want := range []string{"offtopic prune --results " + dir + " --decisions " + filepath.Base(saved), "offtopic evaluate --gold " + filepath.Base(saved) + " " + dir} {
		if msg := text(`document.getElementById('toast').textContent`); !strings.Contains(msg, want) {
			t.Errorf("after saving, the toast says %q, want it to contain %q", msg, want)
		}
	}
	if c.poll(`document.getElementById('toast').hidden`, 6500*time.Millisecond) {
		t.Error("the toast with the commands to run went away by itself within 6.5 s")
	}
	js(`document.querySelector('#toast .toast-close').click()`)
	if !c.poll(`document.getElementById('toast').hidden`, time.Second) {
		t.Error("the toast's close button does not close it")
	}
	got, err := ReadDecisions(saved)
	if err != nil {
		t.Fatalf("read the saved decisions: %v", err)
	}
	if got[similarity.KeyOf(&r.Captures[1])] != DecisionUnsure {
		t.Errorf("the unsure mark was not saved: %v", got)
	}
	delete(got, similarity.KeyOf(&r.Captures[1]))
	if len(got) != len(want) {
		t.Errorf("saved decisions %v, want %v", got, want)
	}
	for k, d := range want {
		if got[k] != d {
			t.Errorf("saved decision of %v is %q, want %q", k, got[k], d)
		}
	}

	// When the browser refuses to store a mark, the page says so at once.
	js(`IDBObjectStore.prototype.put = function () { throw new DOMException('the quota has been exceeded', 'QuotaExceededError'); }`)
	js(`location.hash = '#tm-3'`)
	c.waitFor(t, "TimeMap 3 to open", `document.getElementById('open-3')`)
	js(capBtn(2, "on-topic"))
	c.waitFor(t, "the storage alert", `!document.getElementById('store-alert').hidden`)
	if a := text(`document.getElementById('store-alert').textContent`); !strings.Contains(a, "not being kept") || !strings.Contains(a, "QuotaExceededError") {
		t.Errorf("the storage alert says %q", a)
	}
	if n := text(`document.getElementById('nunsaved').textContent`); n != "1" {
		t.Errorf("with storage failing, %s marks counted as not saved, want 1", n)
	}

	// Forgetting: without the database the page counts no marks.
	js(`indexedDB.deleteDatabase('offtopic')`)
	reload()
	if n := text(`document.getElementById('ndec').textContent`); n != "0" {
		t.Fatalf("after forgetting, the page counts %s decisions", n)
	}
	if !c.poll(`document.getElementById('store-alert').hidden`, time.Second) {
		t.Error("after a reload with storage working, the storage alert is still shown")
	}
	var obj struct {
		Result struct {
			ObjectID string `json:"objectId"`
		} `json:"result"`
	}
	if err := c.call("Runtime.evaluate", map[string]any{"expression": `document.getElementById('load')`}, &obj); err != nil || obj.Result.ObjectID == "" {
		t.Fatalf("find the load button: %v", err)
	}
	if err := c.call("DOM.setFileInputFiles", map[string]any{"files": []string{saved}, "objectId": obj.Result.ObjectID}, nil); err != nil {
		t.Fatalf("choose the decisions file: %v", err)
	}
	if !c.poll(`document.getElementById('ndec').textContent === `+jsString(strconv.Itoa(len(want)+1)), 5*time.Second) {
		t.Errorf("after loading the saved file the page counts %s decisions, want %d", text(`document.getElementById('ndec').textContent`), len(want)+1)
	}
	if n := text(`document.getElementById('nunsaved').textContent`); n != "0" {
		t.Errorf("marks loaded from a file are counted as not saved: %s", n)
	}
	if decided := text(`document.getElementById('row-3') ? document.getElementById('row-3').cells[10].textContent : 'no row'`); decided != strconv.Itoa(len(want)+1) {
		t.Errorf("the worklist's Decided column of the page shows %q", decided)
	}
}

// kindsInBrowser filters the worklist by a kind of off-topic and marks every
// capture of that kind across the collection at once.
func kindsInBrowser(t *testing.T, c *cdp, ev *pageEvents, results []*similarity.TimeMapResult) {
	t.Helper()
	wantRows, wantCaps := 0, 0
	for _, r := range results {
		n := 0
		for _, cr := range r.Captures {
			if cr.Kind == similarity.KindError && cr.Verdict == similarity.VerdictOff {
				n++
			}
		}
		if n > 0 {
			wantRows++
			wantCaps += n
		}
	}
	if wantRows == 0 {
		t.Fatal("the fixture has no captures of kind error")
	}
	var rows int
	if err := c.eval(`(function(){var s = document.getElementById('offkind'); s.value = 'error'; s.dispatchEvent(new Event('change'));
		document.getElementById('show').value = 'all'; document.getElementById('show').dispatchEvent(new Event('change'));
		return document.querySelectorAll('#tms tbody tr[data-id]').length;})()`, &rows); err != nil {
		t.Fatal(err)
	}
	if want := min(wantRows, 50); rows != want {
		t.Errorf("filtered by kind error, the worklist shows %d rows, want %d", rows, want)
	}
	var kinds []string
	c.eval(`Array.from(document.querySelectorAll('#tms tbody tr[data-id] td.kinds')).map(td => td.textContent)`, &kinds)
	for _, k := range kinds {
		if !strings.Contains(k, "error") {
			t.Errorf("a row shown for kind error lists kinds %q", k)
			break
		}
	}
	var n string
	if err := c.eval(`(function(){
		document.getElementById('mk-kind').value = 'error'; document.getElementById('mk-as').value = 'off-topic';
		document.getElementById('mk-apply').click(); return document.getElementById('ndec').textContent;})()`, &n); err != nil {
		t.Fatal(err)
	}
	if problems, _ := ev.take(); len(problems) > 0 {
		t.Errorf("console errors while marking by kind:\n%s", strings.Join(problems, "\n"))
	}
	var before int
	c.eval(`new Promise(function (ok, fail) { var q = indexedDB.open('offtopic'); q.onerror = fail;
		q.onsuccess = function () { var g = q.result.transaction('marks').objectStore('marks').getAll();
		g.onsuccess = function () { ok(g.result.filter(r => r.d).length); q.result.close(); }; g.onerror = fail; }; })`, &before)
	if before < wantCaps {
		t.Errorf("marking kind error stored %d decisions (page shows %s), want at least the %d captures of that kind", before, n, wantCaps)
	}
}

// TestHTMLAuditInBrowser opens an audit's report: documents come closest to
// the threshold first (ties by URI), topical documents published outside
// the window are said to be that, not off-topic, and a document links to
// its capture in the archive, not to a TimeMap of the live page.
func TestHTMLAuditInBrowser(t *testing.T) {
	chromium := findChromium(t)
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	page := filepath.Join(t.TempDir(), "offtopic.html")
	if err := os.WriteFile(page, renderAudit(t), 0o644); err != nil {
		t.Fatal(err)
	}
	c, ev := watchedPage(t, chromium)
	c.open(t, ev, page)
	var rows []struct{ URI, Verdict, Dist, Published, Window string }
	if err := c.eval(`Array.from(document.querySelectorAll('#tms tbody tr[data-id]')).map(r => ({URI: r.cells[0].textContent,
		Dist: r.cells[2].textContent, Published: r.cells[3].textContent, Window: r.cells[5].textContent, Verdict: r.cells[7].textContent}))`, &rows); err != nil {
		t.Fatal(err)
	}
	want := []struct{ URI, Verdict, Dist, Published, Window string }{
		{"http://near.example/", "off-topic", "\u22120.010", "2016-05-01", "in"},
		{"http://a.example/tie", "on-topic", "+0.050", "2016-05-01", "in"},
		{"http://z.example/tie", "on-topic", "+0.050", "2016-05-01", "in"},
		{"http://undated.example/", "outside the window", "+0.100", "undated", "outside"},
		{"http://below.example/", "off-topic", "\u22120.150", "2016-05-01", "in"},
		{"http://old.example/", "outside the window", "+0.500", "2019-07-01", "outside"},
		{"http://far.example/", "on-topic", "+0.700", "2016-05-01", "in"},
	}
	if fmt.Sprint(rows) != fmt.Sprint(want) {
		t.Errorf("the audit's worklist:\n%v\nwant\n%v", rows, want)
	}
	id := -1
	for i, r := range auditFixture() {
		if r.URIR == "http://old.example/" {
			id = i
		}
	}
	c.eval(fmt.Sprintf(`(function(){location.hash='#tm-%d'; return true;})()`, id), nil)
	c.waitFor(t, "the document to open", fmt.Sprintf(`document.getElementById('open-%d')`, id))
	var open struct {
		Text  string
		Links []string
	}
	c.eval(fmt.Sprintf(`(function(){var o=document.getElementById('open-%d'); return {Text: o.textContent,
		Links: Array.from(o.querySelectorAll('a:not(.back)')).map(a => a.textContent + ' ' + a.href)};})()`, id), &open)
	for _, w := range []string{"published 2019-07-01 (from first capture), outside the window 2016-01-01 to 2016-12-31", "topic 0.700 (threshold 0.2)", "outside the window"} {
		if !strings.Contains(open.Text, w) {
			t.Errorf("the open document does not say %q: %s", w, open.Text)
		}
	}
	capture := false
	for _, l := range open.Links {
		if strings.HasPrefix(l, "TimeMap") {
			t.Errorf("the document links a TimeMap: %s", l)
		}
		if strings.HasSuffix(l, " http://wayback.test/coll/20170301120000/http://old.example/") {
			capture = true
		}
	}
	if !capture {
		t.Errorf("the document does not link its capture in the archive: %v", open.Links)
	}
	if strings.Contains(open.Text, "not linked") {
		t.Error("the document's capture is not linked")
	}
	if shots := os.Getenv("OFFTOPIC_SCREENSHOT_DIR"); shots != "" {
		c.eval(`(function(){window.scrollTo(0, 0); return true;})()`, nil)
		c.nextFrame(t)
		screenshot(t, c, filepath.Join(shots, "audit.png"))
	}
	if problems, dialogs := ev.take(); len(problems) > 0 || len(dialogs) > 0 {
		t.Errorf("console errors %v, dialogs %v", problems, dialogs)
	}
}

// press types one key into the page.
func (c *cdp) press(t *testing.T, key string) {
	t.Helper()
	code := map[string]int{"Escape": 27, "?": 191}[key]
	if code == 0 {
		code = int(strings.ToUpper(key)[0])
	}
	text := key
	if key == "Escape" {
		text = ""
	}
	for _, typ := range []string{"keyDown", "keyUp"} {
		p := map[string]any{"type": typ, "key": key, "windowsVirtualKeyCode": code}
		if typ == "keyDown" && text != "" {
			p["text"] = text
		}
		if err := c.call("Input.dispatchKeyEvent", p, nil); err != nil {
			t.Fatal(err)
		}
	}
}

// TestHTMLKeysInBrowser reviews with the keys alone: j opens the first page
// of the list and walks its captures, n and o mark the current capture and
// go on, k goes back, ? shows the keys and Esc hides them; and the labels
// of thresholds close together do not print over each other.
func TestHTMLKeysInBrowser(t *testing.T) {
	chromium := findChromium(t)
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	run := *htmlTestRun
	run.Measures = "cosine=0.10,jaccard=0.07,wordcount=-0.85"
	page := filepath.Join(t.TempDir(), "offtopic.html")
	if err := os.WriteFile(page, renderHTMLRun(t, &run, htmlFixture()), 0o644); err != nil {
		t.Fatal(err)
	}
	c, ev := watchedPage(t, chromium)
	c.open(t, ev, page)
	c.waitFor(t, "the marks' store to open", `document.getElementById('review').getAttribute('data-store') === 'open'`)
	var first int
	c.eval(`+document.querySelector('#tms tbody tr[data-id]').getAttribute('data-id')`, &first)
	type cur struct {
		Open, Row int
		TS        string
		Pressed   string
	}
	current := func() cur {
		t.Helper()
		var got cur
		if err := c.eval(`(function(){var d=document.querySelector('tr.detail'), tr=document.querySelector('.caps tr.cur');
			return {Open: d ? +d.id.slice(5) : -1, Row: tr ? Array.prototype.indexOf.call(tr.parentNode.children, tr) : -1,
			TS: tr ? tr.getAttribute('data-ts') : '', Pressed: tr && tr.querySelector('button[aria-pressed=true]') ? tr.querySelector('button[aria-pressed=true]').title : ''};})()`, &got); err != nil {
			t.Fatal(err)
		}
		return got
	}
	results := htmlFixture()
	c.press(t, "j")
	c.waitFor(t, "j to open the first page", fmt.Sprintf(`document.getElementById('open-%d') && document.querySelector('.caps tr.cur')`, first))
	// The first page is opened at its first capture after t0.
	if got := current(); got.Open != first || got.Row != 1 {
		t.Fatalf("after j: %+v, want page %d open at capture 1", got, first)
	}
	c.press(t, "j")
	if got := current(); got.Row != 2 {
		t.Errorf("after j j: at capture %d, want 2", got.Row)
	}
	c.press(t, "n")
	if got := current(); got.Row != 3 {
		t.Errorf("after n: at capture %d, want 3 (n goes on)", got.Row)
	}
	c.press(t, "k")
	if got := current(); got.Row != 2 || got.Pressed != DecisionOff {
		t.Errorf("after n k: %+v, want capture 2 marked off-topic", got)
	}
	c.press(t, "o")
	c.press(t, "k")
	if got := current(); got.Row != 2 || got.Pressed != DecisionOn {
		t.Errorf("after o k: %+v, want capture 2 marked on-topic", got)
	}
	c.press(t, "u")
	if n := func() string { var s string; c.eval(`document.getElementById('ndec').textContent`, &s); return s }(); n != "1" {
		t.Errorf("after marking one capture three times the page counts %s decisions", n)
	}
	// At the page's last capture, j opens the next page of the list.
	for range len(results[first].Captures) {
		c.press(t, "j")
	}
	c.waitFor(t, "j to open the next page", fmt.Sprintf(`document.querySelector('tr.detail') && document.querySelector('tr.detail').id !== 'open-%d'`, first))
	if got := current(); got.Open == first || got.Row < 0 {
		t.Errorf("after walking past the last capture: %+v, want the next page open", got)
	}
	c.press(t, "?")
	if !c.poll(`!document.getElementById('keys-help').hidden`, 2*time.Second) {
		t.Error("? does not show the keys")
	}
	c.press(t, "Escape")
	if !c.poll(`document.getElementById('keys-help').hidden`, 2*time.Second) {
		t.Error("Esc does not hide the keys")
	}
	// Keys typed into the filter are text, not commands.
	open := current().Open
	c.eval(`(function(){document.getElementById('filter').focus(); return true;})()`, nil)
	c.press(t, "j")
	var typed string
	c.eval(`document.getElementById('filter').value`, &typed)
	if typed != "j" {
		t.Errorf("j typed in the filter left it %q: the key was taken as a command", typed)
	}
	c.eval(fmt.Sprintf(`(function(){var f=document.getElementById('filter'); f.value=''; f.blur(); f.dispatchEvent(new Event('input')); location.hash='#tm-%d'; return true;})()`, open), nil)
	c.waitFor(t, "the page to open again", fmt.Sprintf(`document.getElementById('open-%d')`, open))

	// Threshold labels of the open page's timeline do not overlap.
	var boxes [][4]float64
	c.eval(`Array.from(document.querySelectorAll('tr.detail svg.tl text.thrlab')).map(e => {var r=e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom];})`, &boxes)
	if len(boxes) != 3 {
		t.Fatalf("%d threshold labels, want 3 (cosine, jaccard, wordcount)", len(boxes))
	}
	for i := range boxes {
		for j := i + 1; j < len(boxes); j++ {
			a, b := boxes[i], boxes[j]
			if a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3] {
				t.Errorf("threshold labels %d and %d overlap: %v %v", i, j, a, b)
			}
		}
	}
	if problems, dialogs := ev.take(); len(problems) > 0 || len(dialogs) > 0 {
		t.Errorf("console errors %v, dialogs %v", problems, dialogs)
	}
}
