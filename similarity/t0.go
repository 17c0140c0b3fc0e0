package similarity

import "fmt"

// offTopicShare is how far below the collection's typical similarity to its
// topic a first capture must fall before it is taken to be off-topic itself.
const offTopicShare = 0.35

// A first capture is not taken for the page (an error, login or
// placeholder page in the site's frame, a parked domain) when it shares
// next to nothing with the page's fuller captures after it (it did not grow
// into any later capture of more than twice its content, see grows, and has
// no title in common with it: a page that grows keeps what it had, a site's
// thin first page keeps its name in its later titles) and either
//   - it is far off the collection's topic (see offTopicShare) and under
//     1/offTopicShort of the content of the collection's typical first
//     capture: a page of the collection's subject in a language the
//     collection holds little of sits off its (mostly other language) topic,
//     but is no shorter than its pages; or
//   - it is a stub: under 1/stubShare of that typical content, no closer to
//     the topic than is typical, and a fuller capture follows. A short page
//     that a site repurposed to longer pages of another subject is longer
//     than a stub.
const (
	offTopicShort = 2
	stubShare     = 8
	stubOverlap   = 0.5
	growsCosine   = 0.10
)

// grows reports whether capture b is what a grew into: b's content holds at
// least stubOverlap of a's content's distinct terms, and their contents'
// cosine (collection IDF) is at least growsCosine. An error message shares
// a few common words, or one rare one, with an article by chance, not both.
func grows(a, b *prepared) bool {
	n := len(a.ctf.ids)
	return n > 0 && float64(common(a.ctf.ids, b.ctf.ids)) >= stubOverlap*float64(n) &&
		roundScore(collectionCosine(a, b)) >= growsCosine
}

// chooseT0 picks URI-R@t0: the earliest capture with HTTP 200, an HTML type
// and at least MinT0Words words. With TopicCheck, a first capture that is
// not the page (see offTopicShort) is passed over for the earliest capture that
// is, and the reason says so.
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
	if !opts.TopicCheck {
		return first, plain
	}
	// A message page (parked, suspended, an error, not found, a login) is
	// never the page, whatever words its links reuse.
	if why := s.messagePage(first); why != "" {
		why = fmt.Sprintf("first capture %s %s", in.URIMs[first], why)
		for _, i := range cands[1:] {
			if s.messagePage(i) == "" {
				return i, why + "; using the earliest capture that is not"
			}
		}
		if !opts.Plain { // the paper's rule compares with the first capture, whatever it is
			return -1, fmt.Sprintf("every capture with HTTP 200, an HTML type and at least %d words is a message page", opts.MinT0Words)
		}
	}
	if model == nil || model.TypicalTopicSim == 0 {
		return first, plain
	}
	floor := offTopicShare * model.TypicalTopicSim
	shorter := func(i, share int) bool { return prep[i].doc.ContentTerms*share < model.TypicalTerms }
	// notThePage says why capture i is not the page, "" when it may be.
	notThePage := func(i int) string {
		if !shorter(i, offTopicShort) {
			return ""
		}
		longer := false // a capture with more than twice its content follows
		for _, j := range cands {
			if j <= i || prep[j].doc.ContentTerms <= 2*prep[i].doc.ContentTerms {
				continue
			}
			if grows(prep[i], prep[j]) || s.keepsTitle(i, j) {
				return ""
			}
			longer = true
		}
		sim := s.topicSim(i)
		switch {
		case sim < floor:
			return fmt.Sprintf("looks off the collection's topic (%d terms where its first captures have %d; similarity %.3f, typical %.3f)",
				prep[i].doc.ContentTerms, model.TypicalTerms, sim, model.TypicalTopicSim)
		case longer && shorter(i, stubShare) && sim < model.TypicalTopicSim:
			return fmt.Sprintf("looks like a stub of the page (%d terms where the collection's first captures have %d; nothing in common with the page's longer captures, not even its title)",
				prep[i].doc.ContentTerms, model.TypicalTerms)
		}
		return ""
	}
	why := notThePage(first)
	if why == "" {
		return first, plain
	}
	why = fmt.Sprintf("first capture %s %s", in.URIMs[first], why)
	for _, i := range cands[1:] {
		if notThePage(i) == "" {
			return i, fmt.Sprintf("%s; using the earliest capture that looks like the page", why)
		}
	}
	return first, fmt.Sprintf("%s, and so does every later capture; using the first", why)
}

// messagePage says why capture i is a message page rather than the page (a
// parking, suspension, error, not-found, maintenance or login page, by what
// it says), "" when it is not. It is worked out once per capture.
func (s *scoring) messagePage(i int) string {
	p := s.prep[i]
	if p.message == nil {
		why := ""
		if d := p.doc; d.ContentWords <= cueWords {
			if k, cues, score := cueScore(d.Title, d.Text, s.host); k != "" && k != KindRedirected && score >= messageEnough {
				why = "is a message page, " + k.Label() + ": it says " + quoteCues(cues)
			}
		}
		p.message = &why
	}
	return *p.message
}
