package similarity

import "github.com/offtopic/offtopic/extract"

// titleKept is the least share of the shorter title's terms that the other
// title holds for a capture to keep t0's title: the site's name.
const titleKept = 0.5

// keepsTitle reports whether captures i and j have the same title in
// substance: the shorter title's terms are mostly in the other, both read
// in j's language (stemmed in two, one word makes two terms: "International"
// of a Romanian page and of its English one). The words that spell the
// site's address (its name, which every title of the site carries: "Al
// Jazeera" of aljazeera.net) do not count, unless a title is nothing else
// (a front page titled by the site's name).
func (s *scoring) keepsTitle(i, j int) bool {
	lang := s.prep[j].doc.TermsLang
	a, b := s.titleOf(i, lang), s.titleOf(j, lang)
	if len(a.all) == 0 || len(b.all) == 0 {
		return false
	}
	x, y := a.own, b.own
	if len(x) == 0 || len(y) == 0 {
		x, y = a.all, b.all
	}
	if len(x) > len(y) {
		x, y = y, x
	}
	n := 0
	for t := range x {
		if y[t] {
			n++
		}
	}
	return float64(n) >= titleKept*float64(len(x))
}

// title is a capture's title read in one language: its terms, and those of
// them that do not spell the site's address (see spellsHost).
type title struct {
	all, own map[string]bool
}

// titleOf returns capture i's title read in the language lang, worked out
// once a language.
func (s *scoring) titleOf(i int, lang string) title {
	p := s.prep[i]
	if t, ok := p.titles[lang]; ok {
		return t
	}
	t := title{all: termSet(p.doc.Title, lang)}
	t.own = t.all
	if site := termSet(spellsHost(p.doc.Title, s.siteName()), lang); len(site) > 0 {
		t.own = make(map[string]bool, len(t.all))
		for w := range t.all {
			if !site[w] {
				t.own[w] = true
			}
		}
	}
	if p.titles == nil {
		p.titles = map[string]title{}
	}
	p.titles[lang] = t
	return t
}

// namesSite reports whether capture i's title spells the site's address.
func (s *scoring) namesSite(i int) bool {
	t := s.titleOf(i, s.prep[i].doc.TermsLang)
	return len(t.own) < len(t.all)
}

// termSet is the set of the terms of text in the language lang.
func termSet(text, lang string) map[string]bool {
	set := map[string]bool{}
	for _, t := range extract.Terms(text, lang) {
		set[t] = true
	}
	return set
}
