package similarity

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/offtopic/offtopic/extract"
)

// page is a capture as the curator's reading sees it: content, the site's
// chrome, a title and the languages it is written in.
type page struct {
	content, chrome, title string
	langs                  []extract.LangShare
}

func (p page) doc() *extract.Document {
	c, ch := strings.Fields(p.content), strings.Fields(p.chrome)
	d := &extract.Document{Text: p.content, Chrome: p.chrome, Title: p.title, Extractor: "body",
		Terms: append(append([]string{}, c...), ch...), ContentTerms: len(c),
		WordCount: len(c) + len(ch), ContentWords: len(c), ByteCount: 10 * (len(p.content) + len(p.chrome)), Langs: p.langs}
	if len(p.langs) > 0 {
		d.Lang = p.langs[0].Lang
	}
	return d
}

// pages builds a TimeMap of one page's captures, a year apart.
func pages(ps ...page) Input {
	caps := make([][3]string, len(ps))
	for i := range ps {
		caps[i] = [3]string{"200", "text/html", "x"}
	}
	in := input(caps...)
	for i, p := range ps {
		in.Docs[i] = p.doc()
	}
	return in
}

// span is the words from..to-1 of a vocabulary: pages of spans that
// overlap share stories.
func span(word string, from, to int) string {
	var w []string
	for k := from; k < to; k++ {
		w = append(w, fmt.Sprintf("%s%03d", word, k))
	}
	return strings.Join(w, " ")
}

const menu = "home about us news campaigns reports contact donate join search"

func TestCuratorReading(t *testing.T) {
	en := []extract.LangShare{{Lang: "en", Share: 0.3}}
	fr := []extract.LangShare{{Lang: "fr", Share: 0.3}}
	tests := []struct {
		name  string
		pages []page
		want  [][2]string // verdict, a part of the reason, per capture after t0
	}{
		{"stories that rotate step by step stay; a jump does not, nor what follows it, until the page comes back",
			[]page{
				{content: span("story", 0, 80), chrome: menu},
				{content: span("story", 40, 120), chrome: menu},
				{content: span("story", 80, 160), chrome: menu},
				{content: span("other", 0, 80)},
				{content: span("other", 40, 120)},
				{content: span("story", 100, 180), chrome: menu},
			},
			[][2]string{{VerdictOn, "no threshold crossed"}, {VerdictOn, "step by step"},
				{VerdictOff, "nothing of t0's page is left"}, {VerdictOff, "nothing of t0's page is left"}, {VerdictOn, "step by step"}}},
		{"a page that keeps t0's title is still the site",
			[]page{
				{content: span("story", 0, 40), chrome: menu, title: "Human Rights Centre - Home"},
				{content: span("other", 0, 40), title: "Human Rights Centre"},
				{content: span("other", 40, 80), title: "Casino bonus"},
			},
			[][2]string{{VerdictOn, "its title keeps t0's"}, {VerdictOff, "nothing of t0's page is left"}}},
		{"a page trimmed to a fraction of t0 keeps t0's words; a short page of other words does not",
			[]page{
				{content: span("story", 0, 200), chrome: menu},
				{content: span("story", 0, 20)},
				{content: span("moved", 0, 20)},
			},
			[][2]string{{VerdictOn, "shorter than t0, but what is left is t0's page"}, {VerdictOff, "wordcount"}}},
		{"the site's frame around a short message is off-topic though the menus are t0's",
			[]page{
				{content: span("story", 0, 60), chrome: menu + " " + menu},
				{content: "sorry nothing here today", chrome: menu + " " + menu},
			},
			[][2]string{{VerdictOff, "its content is gone"}}},
		{"a page that switched language is off-topic; a bilingual page is not",
			[]page{
				{content: span("story", 0, 40), chrome: menu, langs: en},
				{content: span("story", 0, 40), chrome: menu, langs: fr},
				{content: span("story", 0, 40), chrome: menu, langs: []extract.LangShare{{Lang: "fr", Share: 0.2}, {Lang: "en", Share: 0.15}}},
			},
			[][2]string{{VerdictOff, "it switched language from t0's en to fr"}, {VerdictOn, "no threshold crossed"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := pages(tt.pages...)
			res, err := Score(context.Background(), in, nil, Options{MinT0Words: 5, Continuity: DefaultContinuity})
			if err != nil {
				t.Fatal(err)
			}
			if !res.Captures[0].IsT0 {
				t.Fatalf("t0 is %q, want the first capture", res.T0)
			}
			for k, w := range tt.want {
				c := res.Captures[k+1]
				if c.Verdict != w[0] || !strings.Contains(c.Reason, w[1]) {
					t.Errorf("capture %d: %s (%s), scores %v; want %s (%s)", k+1, c.Verdict, c.Reason, c.Scores, w[0], w[1])
				}
			}
			// The paper's plain rule reads none of this: every capture
			// crossing a threshold is off-topic, and only those.
			plain, err := Score(context.Background(), in, nil, Options{MinT0Words: 5, Plain: true})
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range plain.Captures[1:] {
				crossed := len(DefaultOptions().Rule.Crossed(c.Scores)) > 0
				if (c.Verdict == VerdictOff) != crossed {
					t.Errorf("plain rule: %s (%s), scores %v", c.Verdict, c.Reason, c.Scores)
				}
			}
		})
	}
}
