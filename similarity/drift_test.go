package similarity

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestDrift: a front page whose stories are replaced one at a time stays
// on-topic while its new stories are of the collection's subject, and ends
// drifted when its last captures are about neither t0's subject nor the
// collection's; a page that dips into another subject and comes back is not
// drifted, nor one whose new subject the collection holds as well (its
// other pages are about it).
func TestDrift(t *testing.T) {
	story := func(subject string, k int) string { // a story of 12 words no other story has
		w := make([]string, 12)
		for i := range w {
			w[i] = fmt.Sprintf("%s%03d", subject, 12*k+i)
		}
		return strings.Join(w, " ")
	}
	// page gives the front page with stories new[0..n) on top of t0's first
	// four minus n: four stories in all.
	page := func(subject string, n int) [3]string {
		var s []string
		for k := n - 1; k >= 0; k-- {
			s = append(s, story(subject, 10+k))
		}
		for k := 0; k < 4-n; k++ {
			s = append(s, story("light", k))
		}
		return [3]string{"200", "text/html", strings.Join(s, " ")}
	}
	front := func(subject string, steps ...int) Input {
		caps := make([][3]string, len(steps))
		for i, n := range steps {
			caps[i] = page(subject, n)
		}
		return input(caps...)
	}
	parkedAfter := func(in Input) Input { // the page's last capture: a parking page
		caps := make([][3]string, 0, len(in.Docs)+1)
		for _, d := range in.Docs {
			caps = append(caps, [3]string{"200", "text/html", d.Text})
		}
		return input(append(caps, [3]string{"200", "text/html", "this domain is for sale buy this domain today related searches"})...)
	}
	opts := Options{TopicCheck: true, MinT0Words: 5, Continuity: DefaultContinuity}.WithDefaults()
	lighthouses := []string{"light"}
	for _, tt := range []struct {
		name       string
		collection []string // the subjects of the collection's other pages
		in         Input
		want       []string // verdicts, "" for t0
	}{
		{"to another subject", lighthouses, front("cook", 0, 1, 2, 3, 4, 4, 4), []string{"", VerdictOn, VerdictOn, VerdictOn, VerdictOff, VerdictOff, VerdictOff}},
		{"within its subject", lighthouses, front("light", 0, 1, 2, 3, 4, 4, 4), []string{"", VerdictOn, VerdictOn, VerdictOn, VerdictOn, VerdictOn, VerdictOn}},
		{"then parked", lighthouses, parkedAfter(front("cook", 0, 1, 2, 3, 4, 4)), []string{"", VerdictOn, VerdictOn, VerdictOn, VerdictOff, VerdictOff, ""}},
		{"to a subject the collection holds too", []string{"light", "cook"}, front("cook", 0, 1, 2, 3, 4, 4, 4), []string{"", VerdictOn, VerdictOn, VerdictOn, VerdictOn, VerdictOn, VerdictOn}},
		{"once at the end", lighthouses, front("cook", 0, 1, 2, 3, 4), []string{"", VerdictOn, VerdictOn, VerdictOn, VerdictOn}},
		{"and back", lighthouses, front("cook", 0, 1, 2, 3, 4, 4, 3, 2), []string{"", VerdictOn, VerdictOn, VerdictOn, VerdictOn, VerdictOn, VerdictOn, VerdictOn}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			mb := subjects(rand.New(rand.NewPCG(3, 3)), tt.collection...)
			mb.Add(tt.in)
			res, err := Score(context.Background(), tt.in, mb.Build(), opts)
			if err != nil {
				t.Fatal(err)
			}
			for i, w := range tt.want {
				c := res.Captures[i]
				if w == "" {
					continue
				}
				if c.Verdict != w || w == VerdictOff && c.Kind != KindDrifted {
					t.Errorf("capture %d: %s %q (%s), scores %v; want %s", i, c.Verdict, c.Kind, c.Reason, c.Scores, w)
				}
			}
		})
	}
}
