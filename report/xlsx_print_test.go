package report

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestXLSXPrints prints the workbook with LibreOffice and reads the PDF's
// words: the Summary prints at its size (its long notes wrap, they do not
// make the sheet a third as large to fit one page wide), and each chart of
// the Timeline starts a page (a page break never cuts one).
func TestXLSXPrints(t *testing.T) {
	pdftotext, err := exec.LookPath("pdftotext")
	if err != nil {
		t.Skip("pdftotext not on PATH (Debian: apt-get install poppler-utils); skipping the printing check")
	}
	p := writeXLSX(t, xlsxRun(), xlsxResults())
	out := t.TempDir()
	soffice(t, "--convert-to", "pdf", "--outdir", out, p)
	pdf := filepath.Join(out, strings.TrimSuffix(filepath.Base(p), ".xlsx")+".pdf")
	b, err := exec.Command(pdftotext, "-bbox", pdf, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext -bbox %s: %v", pdf, err)
	}
	page := regexp.MustCompile(`(?s)<page [^>]*>(.*?)</page>`)
	word := regexp.MustCompile(`<word xMin="[^"]*" yMin="([^"]*)" xMax="[^"]*" yMax="([^"]*)">([^<]*)</word>`)
	pages := page.FindAllStringSubmatch(string(b), -1)
	if len(pages) == 0 {
		t.Fatal("the printed workbook has no pages")
	}
	// The Summary's first page: words about as tall as 11-point text.
	var heights []float64
	for _, w := range word.FindAllStringSubmatch(pages[0][1], -1) {
		y0, _ := strconv.ParseFloat(w[1], 64)
		y1, _ := strconv.ParseFloat(w[2], 64)
		heights = append(heights, y1-y0)
	}
	slices.Sort(heights)
	if h := heights[len(heights)/2]; h < 8 {
		t.Errorf("the Summary prints its words %.1f points tall (median): shrunk to fit one page wide", h)
	}
	// The Timeline: each TimeMap's block ("2. off-topic ...") begins a page.
	blocks := 0
	for _, pg := range pages {
		ws := word.FindAllStringSubmatch(pg[1], -1)
		for i, w := range ws {
			if i+1 < len(ws) && regexp.MustCompile(`^\d+\.$`).MatchString(w[3]) && ws[i+1][3] == "off-topic" && w[3] != "1." {
				blocks++
				if i != 0 {
					t.Errorf("the Timeline's block %s %s does not begin its page (it is word %d of it): a page break may cut its chart", w[3], ws[i+1][3], i+1)
				}
			}
		}
	}
	if blocks == 0 {
		t.Error("the printed Timeline shows no second block: the fixture charts one TimeMap, or the labels changed")
	}
}
