package similarity

import "fmt"

// offTopicShare is how far below the collection's typical similarity to its
// topic a first capture must fall before it is taken to be off-topic itself.
const offTopicShare = 0.35

// stubShare: a capture with less than 1/stubShare of the terms of the
// collection's typical first capture, sharing next to nothing (cosine under
// stubOverlap, with collection IDF) with any of the page's longer captures
// and no closer to the collection's topic than is typical, is a stub (an
// error or placeholder page in the site's own words) rather than the page: it
// is passed over as t0 when a longer capture follows. A page that grows (a
// live page whose first capture is its first paragraphs) shares its words
// with what it grows into, and keeps its first capture; so does a short page
// (a list of headlines) that a site repurposed to longer pages of another
// subject: the bar is the collection's typical length, not the page's.
const (
	stubShare   = 8
	stubOverlap = 0.10
)

// chooseT0 picks URI-R@t0: the earliest capture with HTTP 200, an HTML type
// and at least MinT0Words words. With TopicCheck, a first capture that sits far
// off the collection's topic (a parked domain, an error page), or that is a
// stub of the page (a soft 404 or a placeholder, a fraction of the length of
// the page's other captures and not close to the topic), is passed over for
// the earliest capture that is neither, and the reason says so.
func chooseT0(in Input, s *scoring, opts Options) (int, string) {
	prep, model := s.prep, s.model
	var cands []int
	for i, p := range prep {
		if p != nil && in.Docs[i].WordCount >= opts.MinT0Words {
			cands = append(cands, i)
		}
	}
	if len(cands) == 0 {
		return -1, fmt.Sprintf("no capture with HTTP 200, an HTML type and at least %d words", opts.MinT0Words)
	}
	first := cands[0]
	plain := "first capture with HTTP 200, an HTML type and text"
	if !opts.TopicCheck || model == nil || model.TypicalTopicSim == 0 {
		return first, plain
	}
	floor := offTopicShare * model.TypicalTopicSim
	short := func(i int) bool { return len(prep[i].doc.Terms)*stubShare < model.TypicalTerms }
	stub := func(i int, sim float64) bool {
		if !short(i) || sim >= model.TypicalTopicSim {
			return false
		}
		for _, j := range cands {
			// Rounded as scores are, so that summation order cannot matter.
			if !short(j) && roundScore(collectionCosine(prep[i], prep[j])) >= stubOverlap {
				return false
			}
		}
		return true
	}
	sim0 := s.topicSim(first)
	var why string
	switch {
	case sim0 < floor:
		why = fmt.Sprintf("first capture %s looks off the collection's topic (similarity %.3f, typical %.3f)", in.URIMs[first], sim0, model.TypicalTopicSim)
	case stub(first, sim0):
		why = fmt.Sprintf("first capture %s looks like a stub of the page (%d terms where the collection's first captures have %d; nothing in common with the page's longer captures; similarity to the collection's topic %.3f, typical %.3f)",
			in.URIMs[first], len(prep[first].doc.Terms), model.TypicalTerms, sim0, model.TypicalTopicSim)
	default:
		return first, plain
	}
	for _, i := range cands[1:] {
		if sim := s.topicSim(i); sim >= floor && !stub(i, sim) {
			return i, fmt.Sprintf("%s; using the earliest capture near the topic (%.3f)", why, sim)
		}
	}
	return first, fmt.Sprintf("%s, and so does every later capture; using the first", why)
}
