package similarity

import (
	"context"
	"fmt"
	"math/rand/v2"
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

// ruleCase is a TimeMap of pages, t0 the first, and the rule that must
// decide its last capture, with a part of the reason it must give.
type ruleCase struct {
	rule, name string
	pages      []page
	// setup changes the input before scoring (replay references...);
	// model, where set, makes the collection's model from it.
	setup   func(*Input)
	model   func(Input) *Model
	verdict string
	reason  string
}

var (
	en = []extract.LangShare{{Lang: "en", Share: 0.3}}
	fr = []extract.LangShare{{Lang: "fr", Share: 0.3}}
)

// blogFrame is a site's chrome; lightWords(from, to) the words
// light<from>..light<to-1>, stories of the collection lightCollection
// models.
const blogFrame = "lighthouse keepers society home news events membership donate contact archive " +
	"copyright lighthouse keepers society all rights reserved privacy terms"

func lightWords(from, to int) string {
	w := make([]string, 0, to-from)
	for k := from; k < to; k++ {
		w = append(w, fmt.Sprintf("light%03d", k))
	}
	return strings.Join(w, " ")
}

// lightCollection is a collection of 40 pages on the subject "light" and
// in.
func lightCollection(in Input) *Model {
	b := subjects(rand.New(rand.NewPCG(5, 5)), "light")
	b.Add(in)
	return b.Build()
}

// ruleCases holds at least one case for every rule of rules, in their order.
var ruleCases = []ruleCase{
	{rule: "moved away", name: "a page that says the site moved and refreshes to another site",
		pages: []page{{content: span("story", 0, 60), chrome: menu}, {content: "we have moved to our new website at another address"}},
		setup: func(in *Input) {
			in.Refs = []Ref{{Capture: 1, How: HowRefresh, URL: "http://elsewhere.example.net/", Key: "net,example,elsewhere)/"}}
		},
		verdict: VerdictOff, reason: "it says the site moved"},
	{rule: "message page", name: "a page that says it is for sale, in t0's menus",
		pages:   []page{{content: span("story", 0, 60), chrome: menu}, {content: "this domain is for sale buy this domain", title: "example.org is for sale", chrome: menu}},
		verdict: VerdictOff, reason: "it is a message page"},
	{rule: "spam", name: "t0's first lines kept inside injected spam",
		pages: []page{{content: span("story", 0, 60), chrome: menu},
			{content: span("story", 0, 8) + " " + strings.Repeat("cheap pills casino poker replica watches payday loans viagra ", 6) + span("seo", 0, 40), chrome: menu}},
		verdict: VerdictOff, reason: "most of it is new since t0 and spam"},
	{rule: "language", name: "a page that switched language",
		pages:   []page{{content: span("story", 0, 40), chrome: menu, langs: en}, {content: span("story", 0, 40), chrome: menu, langs: fr}},
		verdict: VerdictOff, reason: "it switched language from t0's en to fr"},
	{rule: "splash", name: "a language choice titled by the site's name, which its address spells",
		pages:   []page{{content: span("story", 0, 60), chrome: menu, title: "Fishing the lighthouse coast"}, {content: "English", title: "Example"}},
		verdict: VerdictOn, reason: "a splash page"},
	{rule: "splash", name: "a campaign page in the site's frame that keeps t0's title",
		pages: []page{{content: span("story", 0, 60), chrome: menu, title: "Human Rights Centre"},
			{chrome: menu, title: "Human Rights Centre: 50 years"}},
		verdict: VerdictOn, reason: "keeps the site's"},
	{rule: "content gone", name: "no splash: a frameset whose frames were not captured shows its own nothing",
		pages: []page{{content: span("story", 0, 60), chrome: menu + " " + menu, title: "Example"}, {chrome: menu + " " + menu, title: "Example"}},
		setup: func(in *Input) {
			in.Docs[1].Frames = []string{"http://example.org/top.html"}
			in.Refs = []Ref{{Capture: 1, How: HowFrame, URL: "http://example.org/top.html", Key: "org,example)/top.html"}}
		},
		verdict: VerdictOff, reason: "its content is gone"},
	{rule: "content gone", name: "the site's frame around a short message",
		pages:   []page{{content: span("story", 0, 60), chrome: menu + " " + menu}, {content: "sorry nothing here today", chrome: menu + " " + menu}},
		verdict: VerdictOff, reason: "its content is gone"},
	{rule: "another page", name: "an old article of the site named by its canonical link, under t0's title words",
		pages: []page{{content: span("story", 0, 80), chrome: menu, title: "Egypt live | Example"},
			{content: span("story", 40, 120), chrome: menu, title: "Egypt live | Example"},
			{content: span("old", 0, 80), chrome: menu, title: "Egypt: an old story | Example"}},
		setup: func(in *Input) {
			in.Docs[2].Canonical = []string{"http://example.org/2006/05/an-old-story.html"}
		},
		verdict: VerdictOff, reason: "it names http://example.org/2006/05/an-old-story.html as its own address"},
	{rule: "another page", name: "t0 named the site's front page as its own, the capture an old article",
		pages: []page{{content: span("story", 0, 80), chrome: menu, title: "Egypt live | Example"},
			{content: span("old", 0, 80), chrome: menu, title: "Egypt: an old story | Example"}},
		setup: func(in *Input) {
			in.Docs[0].Canonical = []string{"http://example.org/"}
			in.Docs[1].Canonical = []string{"http://example.org/2006/05/an-old-story.html"}
		},
		verdict: VerdictOff, reason: "it names http://example.org/2006/05/an-old-story.html as its own address"},
	{rule: "another page", name: "an old article of the site close to t0's subject, no threshold crossed",
		pages: []page{{content: span("story", 0, 80), chrome: menu, title: "Egypt live | Example"},
			{content: span("story", 40, 120), chrome: menu, title: "Egypt live | Example"},
			{content: span("story", 0, 20) + " " + span("old", 0, 60), chrome: menu, title: "Egypt: an old story | Example"}},
		setup: func(in *Input) {
			in.Docs[2].Canonical = []string{"http://example.org/2006/05/an-old-story.html"}
		},
		verdict: VerdictOff, reason: "it names http://example.org/2006/05/an-old-story.html as its own address"},
	{rule: "no threshold", name: "t0's page back at another address: not another page",
		pages: []page{{content: span("story", 0, 80), chrome: menu}, {content: span("story", 50, 130), chrome: menu},
			{content: span("story", 0, 80), chrome: menu}},
		setup: func(in *Input) {
			in.Docs[2].Canonical = []string{"http://example.org/2007/03/the-story.html"}
		},
		verdict: VerdictOn, reason: "no threshold crossed"},
	{rule: "no threshold", name: "the stories of the latest on-topic capture go on: not another page",
		pages: []page{{content: span("story", 0, 80), chrome: menu, title: "Egypt live | Example"},
			{content: span("story", 40, 120), chrome: menu, title: "Egypt live | Example"},
			{content: span("story", 45, 115) + " " + span("new", 0, 30), chrome: menu, title: "Egypt live | Example"}},
		setup: func(in *Input) {
			in.Docs[2].Canonical = []string{"http://example.org/2008/01/live-page.html"}
			in.Docs[2].Copyright = 2015
		},
		verdict: VerdictOn, reason: "no threshold crossed"},
	{rule: "no threshold", name: "a bilingual page keeps both languages",
		pages: []page{{content: span("story", 0, 40), chrome: menu, langs: en},
			{content: span("story", 0, 40), chrome: menu, langs: []extract.LangShare{{Lang: "fr", Share: 0.2}, {Lang: "en", Share: 0.15}}}},
		verdict: VerdictOn, reason: "no threshold crossed"},
	{rule: "trimmed", name: "a page trimmed to a fraction of t0 keeps t0's words",
		pages:   []page{{content: span("story", 0, 200), chrome: menu}, {content: span("story", 0, 20)}},
		verdict: VerdictOn, reason: "shorter than t0, but what is left is t0's page"},
	{rule: "later page", name: "an old article in a frame of years after the capture, under t0's title words",
		pages: []page{{content: span("story", 0, 80), chrome: menu + " copyright 2005", title: "Egypt live | Example"},
			{content: span("story", 40, 120), chrome: menu + " copyright 2006", title: "Egypt live | Example"},
			{content: span("old", 0, 80), chrome: menu + " copyright 2012", title: "Egypt: an old story | Example"}},
		setup: func(in *Input) {
			for i, y := range []int{2005, 2006, 2012} {
				in.Docs[i].Copyright = y
			}
		},
		verdict: VerdictOff, reason: "its page states © 2012, 5 years after it was captured"},
	{rule: "title kept", name: "no later page: t0's footer was years ahead already",
		pages: []page{{content: span("story", 0, 80), chrome: menu, title: "Egypt live | Example"},
			{content: span("old", 0, 80), chrome: menu, title: "Egypt live | Example"}},
		setup: func(in *Input) {
			in.Docs[0].Copyright, in.Docs[1].Copyright = 2009, 2012
		},
		verdict: VerdictOn, reason: "its title keeps t0's"},
	{rule: "title kept", name: "no later page: next year's copyright",
		pages: []page{{content: span("story", 0, 80), chrome: menu, title: "Egypt live | Example"},
			{content: span("old", 0, 80), chrome: menu, title: "Egypt live | Example"}},
		setup: func(in *Input) {
			in.Docs[1].Copyright = 2007 // captured in 2006
		},
		verdict: VerdictOn, reason: "its title keeps t0's"},
	{rule: "title kept", name: "titles stemmed in two languages read in one",
		pages: []page{{content: span("story", 0, 80), chrome: menu, title: "Amnesty International Moldova"},
			{content: span("other", 0, 80), title: "Amnesty International"}},
		setup: func(in *Input) {
			in.Docs[0].TermsLang, in.Docs[1].TermsLang = "ro", "en"
		},
		verdict: VerdictOn, reason: "its title keeps t0's"},
	{rule: "title kept", name: "a page whose words changed keeps t0's title",
		pages:   []page{{content: span("story", 0, 40), chrome: menu, title: "Human Rights Centre - Home"}, {content: span("other", 0, 40), title: "Human Rights Centre"}},
		verdict: VerdictOn, reason: "its title keeps t0's"},
	{rule: "step by step", name: "stories that rotate step by step",
		pages: []page{{content: span("story", 0, 80), chrome: menu}, {content: span("story", 40, 120), chrome: menu},
			{content: span("story", 80, 160), chrome: menu}},
		verdict: VerdictOn, reason: "step by step"},
	{rule: "new stories", name: "a blog's front page showing one short new post in its frame",
		pages: []page{{content: strings.Repeat(lightWords(0, 150)+" ", 3), chrome: blogFrame},
			{content: strings.Repeat(lightWords(0, 150)+" ", 3), chrome: blogFrame}, {content: lightWords(150, 190), chrome: blogFrame}},
		model: lightCollection, verdict: VerdictOn, reason: "it keeps the site's frame"},
	{rule: "nothing left", name: "a short post of another subject in the blog's frame",
		pages: []page{{content: strings.Repeat(lightWords(0, 150)+" ", 3), chrome: blogFrame},
			{content: strings.Repeat(lightWords(0, 150)+" ", 3), chrome: blogFrame}, {content: span("cook", 0, 60), chrome: blogFrame}},
		model: lightCollection, verdict: VerdictOff, reason: "nothing of t0's page is left"},
	{rule: "nothing left", name: "a site naming its latest post as its own from t0 on: not another page",
		pages: []page{{content: span("story", 0, 80), chrome: menu}, {content: span("other", 0, 80), chrome: menu}},
		setup: func(in *Input) {
			in.Docs[0].Canonical = []string{"http://example.org/2005/01/post-a.html"}
			in.Docs[1].Canonical = []string{"http://example.org/2006/02/post-b.html"}
		},
		verdict: VerdictOff, reason: "nothing of t0's page is left"},
	{rule: "nothing left", name: "titles that share only the site's name, which the address spells",
		pages:   []page{{content: span("story", 0, 80), chrome: menu, title: "Example News"}, {content: span("other", 0, 80), title: "Example Sport"}},
		verdict: VerdictOff, reason: "nothing of t0's page is left"},
	{rule: "nothing left", name: "no splash: a page that says what message it is",
		pages:   []page{{content: span("story", 0, 80), chrome: menu, title: "Example"}, {content: "under construction", title: "Example"}},
		verdict: VerdictOff, reason: "nothing of t0's page is left"},
	{rule: "nothing left", name: "a jump to other words",
		pages: []page{{content: span("story", 0, 80), chrome: menu}, {content: span("story", 40, 120), chrome: menu},
			{content: span("other", 0, 80)}},
		verdict: VerdictOff, reason: "nothing of t0's page is left"},
	{rule: "nothing left", name: "a short page of other words",
		pages:   []page{{content: span("story", 0, 200), chrome: menu}, {content: span("moved", 0, 20)}},
		verdict: VerdictOff, reason: "wordcount"},
	{rule: "nothing left", name: "another title",
		pages: []page{{content: span("story", 0, 40), chrome: menu, title: "Human Rights Centre - Home"}, {content: span("other", 0, 40), title: "Human Rights Centre"},
			{content: span("other", 40, 80), title: "Casino bonus"}},
		verdict: VerdictOff, reason: "nothing of t0's page is left"},
}

// TestRules checks each rule of the curator's reading decides the
// captures it is written for, in its order: the rules before it let the
// capture through.
func TestRules(t *testing.T) {
	for _, tt := range ruleCases {
		t.Run(tt.rule+"/"+tt.name, func(t *testing.T) {
			in := pages(tt.pages...)
			if tt.setup != nil {
				tt.setup(&in)
			}
			var model *Model
			if tt.model != nil {
				model = tt.model(in)
			}
			res, err := Score(context.Background(), in, model, Options{MinT0Words: 5, Continuity: DefaultContinuity})
			if err != nil {
				t.Fatal(err)
			}
			if !res.Captures[0].IsT0 {
				t.Fatalf("t0 is %q, want the first capture", res.T0)
			}
			c := res.Captures[len(res.Captures)-1]
			if c.rule != tt.rule || c.Verdict != tt.verdict || !strings.Contains(c.Reason, tt.reason) {
				t.Errorf("decided by %q: %s (%s), scores %v; want %q: %s (%s)", c.rule, c.Verdict, c.Reason, c.Scores,
					tt.rule, tt.verdict, tt.reason)
			}
			// The paper's plain rule reads none of this: every capture
			// crossing a threshold is off-topic, and only those.
			plain, err := Score(context.Background(), in, nil, Options{MinT0Words: 5, Plain: true})
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range plain.Captures[1:] {
				if c.Verdict == VerdictNotScored {
					continue
				}
				crossed := len(DefaultOptions().Rule.Crossed(c.Scores)) > 0
				if (c.Verdict == VerdictOff) != crossed {
					t.Errorf("plain rule: %s (%s), scores %v", c.Verdict, c.Reason, c.Scores)
				}
			}
		})
	}
}

// TestEveryRuleHasCases keeps ruleCases in step with rules.
func TestEveryRuleHasCases(t *testing.T) {
	next := 0
	for _, r := range rules {
		found := false
		for next < len(ruleCases) && ruleCases[next].rule == r.name {
			next, found = next+1, true
		}
		if !found {
			t.Errorf("rule %q has no case in ruleCases (or its cases are out of the rules' order)", r.name)
		}
	}
	if next != len(ruleCases) {
		t.Errorf("ruleCases[%d] (%q) names no rule, or is out of order", next, ruleCases[next].rule)
	}
}
