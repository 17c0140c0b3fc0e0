package similarity

import (
	"fmt"
	"strconv"

	"github.com/offtopic/offtopic/extract"
)

// The curator's reading of a capture: what, besides the rule's thresholds,
// a curator looks at when telling a page that went off-topic from a page
// that changed. Measured on a real Archive-It collection labelled by hand
// (real-1068) and on generated ones, each is a reason a curator gives:
const (
	// trimmedCosine: a page that lost most of its words but whose words are
	// still t0's (page cosine at least this) was trimmed, not replaced; a
	// parked, error or "we have moved" page shares next to nothing.
	trimmedCosine = 0.20
	// Content gone: what is left of the content (the page without its
	// site chrome) shares nothing with t0's (content cosine under
	// emptiedCosine), is at most a third of it (change under
	// emptiedContent) and the page lost two fifths of its words (change under
	// emptiedPage): the site's frame around a short message (page not found,
	// log in, an empty listing).
	emptiedCosine  = 0.10
	emptiedContent = -0.65
	emptiedPage    = -0.40
	// replacedContent: content cosine under which a page's content shares
	// nothing with t0's; with a page cosine under trimmedCosine, little but
	// the site's chrome is left of t0's page.
	replacedContent = 0.10
	// A rotating page changes step by step: a capture continues the anchor
	// when its page cosine to it is at least Options.Continuity and its
	// content cosine at least contentContinuity of that (its stories overlap,
	// not only its menus).
	contentContinuity = 0.5
	// sameSubject is the least topic score (similarity to the page's
	// subject in the collection, relative to t0's) of new stories that
	// continue a page whose frame stayed: spam inside a site's frame scores
	// under a quarter of t0's.
	sameSubject = 0.5
	// stillT0 is the page cosine to t0 from which a page is t0's page
	// whatever message phrase it holds ("bientôt disponible" in a story).
	stillT0 = 0.5
	// newShare is the least share of a page's content words that are new
	// since t0 for the new text to make the page.
	newShare = 2.0 / 3
	// A page switched language when t0's language holds at most
	// 1/switchedShare of the share it holds in t0, and the page's language
	// at most 1/switchedShare of its share in the page in t0 (where there
	// is evidence of it): a bilingual page's two languages both stay.
	switchedShare = 4
	// minSwitchWords is the least number of words a capture needs for its
	// language to count.
	minSwitchWords = 30
	// titleKept is the least share of the shorter title's terms that the
	// other title holds for a capture to keep t0's title: the site's name.
	titleKept = 0.5
)

// reading judges one capture of a TimeMap being scored.
type reading struct {
	s      *scoring
	i      int     // the capture
	anchor int     // the latest capture judged on-topic and continuous
	last   int     // the latest capture scored before this one (-1: none)
	run    Kind    // the kind last got when off-topic, "" when on-topic
	replay *Replay // what the capture showed when replayed, nil when itself
	scores map[string]float64
	opts   *Options
}

func (r *reading) p() *prepared  { return r.s.prep[r.i] }
func (r *reading) t0() *prepared { return r.s.prep[r.s.t0] }

// verdict gives the capture's verdict and its reason, in plain words first.
func (r *reading) verdict() (verdict, reason string) {
	crossed := r.opts.Rule.Crossed(r.scores)
	if r.opts.Plain {
		if len(crossed) == 0 {
			return VerdictOn, "no threshold crossed"
		}
		return VerdictOff, describe(crossed, r.scores)
	}
	if rp := r.replay; rp != nil && rp.Moved != "" && awayFrom(r.s.urir, rp.URL) {
		return VerdictOff, "it says the site moved (" + rp.Moved + ") and sends the reader to another site: the page is no longer at this address"
	}
	if r.s.messagePage(r.i) != "" && r.s.messagePage(r.s.t0) == "" && roundScore(pageCosine(r.p(), r.t0())) < stillT0 {
		return VerdictOff, "it is a message page, not t0's content"
	}
	if why, ok := r.spamAround(); ok {
		return VerdictOff, why
	}
	if why, ok := r.switchedLanguage(); ok {
		return VerdictOff, why
	}
	if why, ok := r.emptied(); ok {
		return VerdictOff, why
	}
	page := roundScore(pageCosine(r.p(), r.t0()))
	if len(crossed) == 0 && r.replaced(page) {
		// Judged as a crossing of content similarity: the page may still be
		// the site's by its title, or have changed step by step (below).
		crossed = []Threshold{{MeasureContent, replacedContent}}
	}
	var kept []Threshold
	trimmed := false
	for _, t := range crossed {
		if m := lookup(t.Measure); m != nil && m.Family == Size && page >= trimmedCosine {
			trimmed = true
			continue
		}
		kept = append(kept, t)
	}
	if len(kept) == 0 {
		if trimmed {
			return VerdictOn, fmt.Sprintf("shorter than t0, but what is left is t0's page (%s; page cosine %.3f >= %s)",
				describe(crossed, r.scores), page, fmtFloat(trimmedCosine))
		}
		return VerdictOn, "no threshold crossed"
	}
	if onlyContent(kept) {
		if r.s.keepsTitle(r.i, r.s.t0) {
			return VerdictOn, fmt.Sprintf("its words changed, but it is still this site: its title keeps t0's (%q, t0 %q; %s)",
				r.p().doc.Title, r.t0().doc.Title, describe(kept, r.scores))
		}
		if r.opts.Continuity > 0 && r.continuous() {
			return VerdictOn, fmt.Sprintf("its stories changed step by step from t0's (%s; cosine %.3f to the latest on-topic capture)",
				describe(kept, r.scores), pageCosine(r.p(), r.s.prep[r.anchor]))
		}
	}
	return VerdictOff, "nothing of t0's page is left: " + describe(kept, r.scores)
}

// replaced reports a capture of which little but the site's chrome is left
// of t0's page (page cosine under trimmedCosine): its own content shares
// nothing with t0's (spam inside the site's frame).
func (r *reading) replaced(page float64) bool {
	c, ok := r.scores[MeasureContent]
	p := r.p()
	return ok && c < replacedContent && page < trimmedCosine &&
		p.contentNorm > 0 && r.t0().contentNorm > 0 && p.doc.WordCount > p.doc.ContentWords
}

// continuous reports whether the capture continues the anchor: page
// cosine at least Options.Continuity, and content cosine at least
// contentContinuity of it (or the anchor has no content of its own), or,
// where every story changed between two captures (a blog captured after a
// burst of posts), new stories as close to the page's subject as
// sameSubject of t0's.
func (r *reading) continuous() bool {
	if r.opts.Continuity <= 0 {
		return false
	}
	a := r.s.prep[r.anchor]
	if roundScore(pageCosine(r.p(), a)) < r.opts.Continuity {
		return false
	}
	if a.contentNorm == 0 || roundScore(contentCosine(r.p(), a)) >= contentContinuity*r.opts.Continuity {
		return true
	}
	topic, ok := r.scores[MeasureTopic]
	return ok && topic >= sameSubject
}

// spamAround reports a capture whose text is mostly new since t0 (at least
// newShare of its content words) and spam's (at least spamShare of its
// terms): what is left of t0 is a remnant inside injected spam, however
// much of t0's title and first paragraph it keeps.
func (r *reading) spamAround() (string, bool) {
	if r.p().doc.ContentWords == 0 {
		return "", false
	}
	share := r.s.newText(r.i)
	if share < newShare {
		return "", false
	}
	spam := r.p().spamShare()
	if spam < spamShare || r.t0().spamShare() >= spamShare {
		return "", false
	}
	return fmt.Sprintf("most of it is new since t0 and spam, what is left of t0 at most a remnant (%.0f%% of its words new, %.0f%% spam's)",
		100*share, 100*spam), true
}

// emptied reports a capture whose content is gone from the site's frame.
func (r *reading) emptied() (string, bool) {
	p, t0 := r.p(), r.t0()
	if t0.doc.ContentWords == 0 || p.doc.WordCount == p.doc.ContentWords {
		return "", false // no content to lose, or no frame left
	}
	c := roundScore(contentCosine(p, t0))
	cc := roundScore(Change(p.doc.ContentWords, t0.doc.ContentWords))
	pc := roundScore(Change(p.doc.WordCount, t0.doc.WordCount))
	if c >= emptiedCosine || cc >= emptiedContent || pc >= emptiedPage {
		return "", false
	}
	return fmt.Sprintf("its content is gone, the site's frame is left: %d words of content where t0 has %d, none of them t0's (content cosine %.3f < %s; content %.3f < %s, page %.3f < %s)",
		p.doc.ContentWords, t0.doc.ContentWords, c, fmtFloat(emptiedCosine), cc, fmtFloat(emptiedContent), pc, fmtFloat(emptiedPage)), true
}

// switchedLanguage reports a capture written in another language than t0.
func (r *reading) switchedLanguage() (string, bool) {
	p, t0 := r.p().doc, r.t0().doc
	if p.Lang == "" || t0.Lang == "" || p.Lang == t0.Lang || p.WordCount < minSwitchWords {
		return "", false
	}
	was, is := shareOf(t0, t0.Lang), shareOf(p, t0.Lang)
	now, had := shareOf(p, p.Lang), shareOf(t0, p.Lang)
	// The second test needs evidence of the new language: a language
	// named by trigrams alone (no stop words, no script of its own) has none.
	if is*switchedShare >= was || now > 0 && had*switchedShare >= now {
		return "", false
	}
	return fmt.Sprintf("it switched language from t0's %s to %s (share of %s %.3f where t0 has %.3f; of %s %.3f where t0 has %.3f)",
		t0.Lang, p.Lang, t0.Lang, is, was, p.Lang, now, had), true
}

// shareOf is the share of the document in a language (0 when not listed).
func shareOf(d *extract.Document, lang string) float64 {
	for _, l := range d.Langs {
		if l.Lang == lang {
			return l.Share
		}
	}
	return 0
}

// keepsTitle reports whether captures i and j have the same title in
// substance: the shorter title's terms are mostly in the other (a site's
// name stays in its titles while its pages change).
func (s *scoring) keepsTitle(i, j int) bool {
	a, b := s.titleTerms(i), s.titleTerms(j)
	if len(a) == 0 || len(b) == 0 {
		return false
	}
	if len(a) > len(b) {
		a, b = b, a
	}
	n := 0
	for t := range a {
		if b[t] {
			n++
		}
	}
	return float64(n) >= titleKept*float64(len(a))
}

// titleTerms returns the set of the terms of capture i's title.
func (s *scoring) titleTerms(i int) map[string]bool {
	p := s.prep[i]
	if p.title == nil {
		p.title = map[string]bool{}
		for _, t := range extract.Terms(p.doc.Title, p.doc.TermsLang) {
			p.title[t] = true
		}
	}
	return p.title
}

// onlyContent reports whether every crossed threshold is one of content
// similarity, which a page can cross by changing its stories.
func onlyContent(crossed []Threshold) bool {
	for _, t := range crossed {
		if m := lookup(t.Measure); m == nil || m.Family != Content {
			return false
		}
	}
	return true
}

func fmtFloat(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
