package report

import (
	"bytes"
	"html"
	"strings"
	"testing"
)

const hostileName = `ct-f <script>alert(1)</script>" onload="x`

func harvestFixture(evaluated bool) *Harvest {
	h := &Harvest{Title: `election <img src=x onerror=alert(1)>`, Budgets: []int{20, 50}}
	for i, name := range []string{"ctg", hostileName, "unfocused"} {
		l := HarvestLine{Name: name}
		sum, rel := 0.0, 0
		for j := range 40 + 10*i {
			sum += 1 / float64(1+i+j%3)
			l.Relevance = append(l.Relevance, sum)
			if j%(2+i) == 0 {
				rel++
			}
			if evaluated {
				l.Relevant = append(l.Relevant, rel)
			}
		}
		h.Lines = append(h.Lines, l)
	}
	return h
}

func TestHarvestHTML(t *testing.T) {
	cases := []struct {
		name      string
		evaluated bool
		polylines int
	}{
		{"relevance only", false, 3},
		{"with evaluation", true, 6},
	}
	for _, c := range cases {
		var b bytes.Buffer
		if err := WriteHarvestHTML(&b, harvestFixture(c.evaluated)); err != nil {
			t.Fatal(err)
		}
		page := b.String()
		if n := strings.Count(page, "<polyline"); n != c.polylines {
			t.Errorf("%s: %d polylines, want %d", c.name, n, c.polylines)
		}
		if n := strings.Count(page, `<line class="budget"`); n != 2*c.polylines/3 {
			t.Errorf("%s: %d budget marks, want %d", c.name, n, 2*c.polylines/3)
		}
		for _, bad := range []string{"<script", "<img", `" onload="`} {
			if strings.Contains(page, bad) {
				t.Errorf("%s: unescaped %q in the page", c.name, bad)
			}
		}
		if !strings.Contains(html.UnescapeString(page), "default-src 'none'; script-src 'none'") {
			t.Errorf("%s: no strict Content-Security-Policy", c.name)
		}
		if c.evaluated != strings.Contains(page, "relevant,") {
			t.Errorf("%s: budget table relevant counts shown = %v", c.name, !c.evaluated)
		}
	}
}

// TestHarvestLayout checks what a reader of the harvest page needs first:
// the legend above the charts, the relevant pages collected (comparable
// across strategies) before the accumulated relevance (not), and the
// archive's relevant pages as the ceiling when known.
func TestHarvestLayout(t *testing.T) {
	cases := []struct {
		name      string
		evaluated bool
		inArchive int
		charts    []string
		ceiling   bool
	}{
		{"relevance only", false, 0, []string{`id="relevance"`}, false},
		{"evaluated", true, 0, []string{`id="relevant"`, `id="relevance"`}, false},
		{"evaluated, archive known", true, 30, []string{`id="relevant"`, `id="relevance"`}, true},
		{"archive known, not evaluated", false, 30, []string{`id="relevance"`}, false},
	}
	for _, c := range cases {
		h := harvestFixture(c.evaluated)
		h.ArchiveRelevant = c.inArchive
		var b bytes.Buffer
		if err := WriteHarvestHTML(&b, h); err != nil {
			t.Fatal(err)
		}
		page := b.String()
		legend, svg := strings.Index(page, `id="legend"`), strings.Index(page, "<svg")
		if legend < 0 || legend > svg {
			t.Errorf("%s: the legend (at %d) does not come before the first chart (at %d)", c.name, legend, svg)
		}
		for _, l := range h.Lines {
			if i := strings.Index(page, html.EscapeString(l.Name)); i < 0 || i > svg {
				t.Errorf("%s: strategy %q is not in the legend above the charts", c.name, l.Name)
			}
		}
		at := -1
		for _, id := range c.charts {
			i := strings.Index(page, id)
			if i < at {
				t.Errorf("%s: chart %s comes out of order", c.name, id)
			}
			at = i
		}
		if n := strings.Count(page, "<svg"); n != len(c.charts) {
			t.Errorf("%s: %d charts, want %d", c.name, n, len(c.charts))
		}
		if got := strings.Contains(page, `<line class="ceiling"`); got != c.ceiling {
			t.Errorf("%s: ceiling line drawn %v, want %v", c.name, got, c.ceiling)
		}
		if c.ceiling && !strings.Contains(page, "30 relevant pages in the archive") {
			t.Errorf("%s: the ceiling is not labelled", c.name)
		}
		if !strings.Contains(page, "not comparable across strategies") {
			t.Errorf("%s: the accumulated relevance is not said to be incomparable", c.name)
		}
	}
}
