//go:build unix

package report

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHarvestInBrowser loads the harvest page in headless Chromium: no
// console errors or CSP violations (the style is allowed by its hash), no
// script, the lines drawn and the hostile names shown as text.
func TestHarvestInBrowser(t *testing.T) {
	chromium := findChromium(t)
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	var buf bytes.Buffer
	h := harvestFixture(true)
	h.ArchiveRelevant = 30
	h.Budgets = append(h.Budgets, 60) // beside the end of the axis
	if err := WriteHarvestHTML(&buf, h); err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(t.TempDir(), "harvest.html")
	if err := os.WriteFile(page, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	c, ev := watchedPage(t, chromium)
	c.open(t, ev, page)
	var state struct {
		Lines, Scripts, Imgs int
		Styled               bool
		CSP                  []string
		Text                 string
	}
	if err := c.eval(`({Lines: document.querySelectorAll('svg polyline').length, Scripts: document.scripts.length,
		Imgs: document.images.length, Styled: getComputedStyle(document.querySelector('polyline')).fill === 'none',
		CSP: window.__csp, Text: document.body.textContent})`, &state); err != nil {
		t.Fatal(err)
	}
	if state.Lines != 6 || state.Scripts != 0 || state.Imgs != 0 {
		t.Errorf("%d lines (want 6), %d scripts, %d images (want 0)", state.Lines, state.Scripts, state.Imgs)
	}
	if !state.Styled {
		t.Error("the style sheet did not apply (blocked by the CSP?)")
	}
	if len(state.CSP) > 0 {
		t.Errorf("CSP violations: %v", state.CSP)
	}
	if !strings.Contains(state.Text, hostileName) {
		t.Error("the hostile strategy name is not shown as text")
	}
	// No label of a chart prints over another, and the legend is in the
	// first screen.
	var boxes []struct {
		Chart, Text            string
		L, T, R, B, LegendBott float64
	}
	if err := c.eval(`Array.from(document.querySelectorAll('svg text')).map(e => {var r=e.getBoundingClientRect();
		return {Chart: e.closest('svg').id, Text: e.textContent, L: r.left, T: r.top, R: r.right, B: r.bottom,
		LegendBott: document.getElementById('legend').getBoundingClientRect().bottom};})`, &boxes); err != nil {
		t.Fatal(err)
	}
	if len(boxes) == 0 || boxes[0].LegendBott <= 0 || boxes[0].LegendBott > 768 {
		t.Errorf("the legend is not in the first screen: %+v", boxes[:min(1, len(boxes))])
	}
	for i, a := range boxes {
		for _, b := range boxes[i+1:] {
			if a.Chart == b.Chart && a.L < b.R && b.L < a.R && a.T < b.B && b.T < a.B {
				t.Errorf("labels %q and %q of chart %s overlap", a.Text, b.Text, a.Chart)
			}
		}
	}
	if shots := os.Getenv("OFFTOPIC_SCREENSHOT_DIR"); shots != "" {
		screenshot(t, c, filepath.Join(shots, "harvest.png"))
	}
	if problems, dialogs := ev.take(); len(problems) > 0 || len(dialogs) > 0 {
		t.Errorf("console errors %v, dialogs %v", problems, dialogs)
	}
}
