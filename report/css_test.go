package report

import (
	"strings"
	"testing"

	"github.com/offtopic/offtopic/similarity"
)

// TestEveryMeasureHasAColour: the HTML report draws each measure it shows
// in its colour and keys it in the timeline's legend (.m-NAME); a measure
// without one is drawn black and keyed by nothing.
func TestEveryMeasureHasAColour(t *testing.T) {
	css, err := assets.ReadFile("assets/report.css")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range similarity.MeasureNames() {
		rule := ".m-" + name + "{"
		i := strings.Index(string(css), rule)
		if i < 0 {
			t.Errorf("report.css has no colour for the measure %s (%s...})", name, rule)
			continue
		}
		body, _, _ := strings.Cut(string(css[i+len(rule):]), "}")
		if !strings.Contains(body, "background:") || !strings.Contains(body, "stroke:") {
			t.Errorf("report.css's %s%s} keys no line and no legend colour", rule, body)
		}
	}
}
