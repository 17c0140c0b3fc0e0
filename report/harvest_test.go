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
		if n := strings.Count(page, `class="budget"`); n != 2*c.polylines/3 {
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
