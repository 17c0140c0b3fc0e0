package similarity

import (
	"fmt"
	"strconv"

	"github.com/offtopic/offtopic/extract"
)

// The judgement: how a capture's measures become its verdict and reason.
// Measures say how far a capture is from t0; the rules say what that means,
// each as a reason a curator gives, in the order they are applied. Each rule
// is one unit below, its bounds beside it, and its reason in plain words
// before the numbers.
//
// Per TimeMap, before any capture is judged:
//
//	t0             chooseT0 (t0.go): the earliest capture that is the page;
//	               a message page, or a short first capture far off the
//	               collection's topic, is passed over
//	off  message   judgeWithoutT0: where no capture can be t0 (too few
//	               words, or every capture with enough is a message page),
//	               a message page is off-topic all the same; the other
//	               captures are not scored
//
// Per capture, the first rule of rules that applies decides (judge calls
// reading.verdict; --plain stops at the paper's thresholds):
//
//	off  moved away        the page says the site moved, and sends the
//	                       reader to another site (replay.go finds it)
//	off  message page      it says it is a parking, suspension, error,
//	                       not-found, maintenance or login page
//	off  spam              most of it is new since t0 and spam's
//	off  language          it switched language
//	on   splash            no words of its own, titled by the site: its
//	                       entrance (a language choice, a campaign)
//	off  content gone      the site's frame around a short message (at
//	                       most 40 words, of neither the page's nor the
//	                       collection's subject)
//	off  another page      not t0's, and it names another page's address
//	                       as its own: another page is served here
//	on   no threshold      no threshold of the paper's rule is crossed
//	on   trimmed           shorter than t0, but what is left is t0's
//	off  later page        not t0's, and its copyright names a year long
//	                       after its capture: a later page is served here
//	on   title kept        its words changed, its title keeps t0's
//	on   step by step      its stories changed step by step from t0's
//	on   new stories       shorter, its stories all new, but in the
//	                       site's frame and on the collection's subject
//	off  nothing left      what the rule says: nothing of t0's page is left
//
// Per TimeMap, after every capture:
//
//	off  drifted           markDrift (drift.go): the page's last stretch of
//	                       captures left both t0's subject and the
//	                       collection's
//
// Every off-topic capture is then named its kind (kind.go: kindOf).

// rule is one reason a curator gives for a verdict: when it applies to a
// capture that no rule before it decided, the capture gets verdict and the
// reason applies returns.
type rule struct {
	name    string
	verdict string
	applies func(r *reading) (reason string, ok bool)
}

// rules are the curator's reading of a capture, in the order they are
// tried; the last always applies. Only read after initialization.
var rules = []rule{
	{"moved away", VerdictOff, (*reading).movedAway},
	{"message page", VerdictOff, (*reading).messageInsteadOfPage},
	{"spam", VerdictOff, (*reading).spamAround},
	{"language", VerdictOff, (*reading).switchedLanguage},
	{"splash", VerdictOn, (*reading).splash},
	{"content gone", VerdictOff, (*reading).emptied},
	{"another page", VerdictOff, (*reading).anotherPage},
	{"no threshold", VerdictOn, (*reading).noThreshold},
	{"trimmed", VerdictOn, (*reading).trimmed},
	{"later page", VerdictOff, (*reading).laterPage},
	{"title kept", VerdictOn, (*reading).titleKept},
	{"step by step", VerdictOn, (*reading).stepByStep},
	{"new stories", VerdictOn, (*reading).newStories},
	{"nothing left", VerdictOff, (*reading).nothingLeft},
}

// judge scores every scorable capture after sc.t0 with measures and gives
// it its verdict, reason and, off-topic, its kind.
func judge(sc *scoring, res *TimeMapResult, measures []Measure, opts *Options) {
	t0 := sc.t0
	// anchor is the latest capture judged on-topic and continuous with the
	// anchor before it, t0 to begin with (see Options.Continuity).
	anchor := t0
	// last is the latest capture scored before i, and run the kind it got
	// when off-topic ("" when on-topic): a capture that continues an
	// off-topic one got there the same way.
	last, run := -1, Kind("")
	for i, p := range sc.prep {
		if p == nil {
			continue
		}
		scores := map[string]float64{}
		for _, m := range measures {
			if v, ok := m.score(sc, i); ok {
				scores[m.Name] = roundScore(v)
			}
		}
		cr := &res.Captures[i]
		cr.Scores = scores
		if i == t0 {
			cr.Verdict, cr.Reason = VerdictOn, "t0"
			last, run = i, ""
			continue
		}
		r := &reading{s: sc, i: i, anchor: anchor, last: last, run: run, scores: scores, opts: opts, replay: cr.Replay, content: -1}
		cr.Verdict, cr.Reason, cr.rule = r.verdict()
		run = ""
		if cr.Verdict == VerdictOff {
			kind, why := r.kindOf(cr.rule)
			cr.Kind, cr.Reason, run = kind, kind.Label()+": "+why+"; "+cr.Reason, kind
		} else if cr.Replay != nil {
			cr.Reason = "it " + describeReplay(cr.Replay) + "; " + cr.Reason
		}
		last = i
		if cr.Verdict == VerdictOn && i > t0 && r.continuous() {
			anchor = i
		}
	}
	if opts.TopicCheck && !opts.Plain && opts.Continuity > 0 {
		sc.markDrift(res)
	}
}

// judgeWithoutT0 judges the captures of a TimeMap none of which can be t0
// (why says so): a message page (a suspended account, a site under
// maintenance) is off-topic whatever the page was before it; the others
// cannot be compared with anything and are not scored.
func judgeWithoutT0(sc *scoring, res *TimeMapResult, why string, opts *Options) {
	for i, p := range sc.prep {
		if p == nil {
			continue
		}
		cr := &res.Captures[i]
		if opts.TopicCheck && !opts.Plain && sc.messagePage(i) != "" {
			k, cues := cueKind(p.doc.Title, p.doc.Text, sc.host)
			cr.Verdict, cr.Kind, cr.rule = VerdictOff, k, "message without t0"
			cr.Reason = k.Label() + ": it says " + quoteCues(cues) + "; a message page, whatever the page was (no capture qualifies as t0: " + why + ")"
			continue
		}
		cr.Verdict, cr.Reason = VerdictNotScored, "no capture qualifies as t0: "+why
	}
}

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

	// What the paper's rule says, read as a curator reads it (set by
	// verdict before the rules run): page is the page cosine to t0,
	// crossed the thresholds crossed (with content's when little but the
	// site's chrome is left, see replaced), kept those left once a trimmed
	// page's size thresholds are set aside, and trimmedSize says some were.
	page        float64
	crossed     []Threshold
	kept        []Threshold
	trimmedSize bool
	// content is the content cosine to the anchor (see storiesGoOn; < 0
	// until worked out).
	content float64
}

func (r *reading) p() *prepared  { return r.s.prep[r.i] }
func (r *reading) t0() *prepared { return r.s.prep[r.s.t0] }

// verdict gives the capture's verdict, its reason in plain words first, and
// the name of the rule that decided.
func (r *reading) verdict() (verdict, reason, by string) {
	r.crossed = r.opts.Rule.Crossed(r.scores)
	if r.opts.Plain {
		if len(r.crossed) == 0 {
			return VerdictOn, "no threshold crossed", "plain"
		}
		return VerdictOff, describe(r.crossed, r.scores), "plain"
	}
	r.readThresholds()
	for _, ru := range rules {
		if why, ok := ru.applies(r); ok {
			return ru.verdict, why, ru.name
		}
	}
	panic("similarity: no rule decided") // the last rule always applies
}

// readThresholds sets page, crossed, kept and trimmedSize.
func (r *reading) readThresholds() {
	r.page = roundScore(pageCosine(r.p(), r.t0()))
	if len(r.crossed) == 0 && r.replaced() {
		// Judged as a crossing of content similarity: the page may still be
		// the site's by its title, or have changed step by step.
		r.crossed = []Threshold{{MeasureContent, replacedContent}}
	}
	r.kept = nil
	for _, t := range r.crossed {
		if m := lookup(t.Measure); m != nil && m.Family == Size && r.page >= trimmedCosine {
			r.trimmedSize = true
			continue
		}
		r.kept = append(r.kept, t)
	}
}

// ---------------------------------------------------------------- off whatever the thresholds

// movedAway: a page that says the site moved ("we have moved", "nos
// mudamos") and sends the reader to another site is no longer at its
// address (replay.go reads what it says).
func (r *reading) movedAway() (string, bool) {
	if rp := r.replay; rp != nil && rp.Moved != "" && awayFrom(r.s.urir, rp.URL) {
		return "it says the site moved (" + rp.Moved + ") and sends the reader to another site: the page is no longer at this address", true
	}
	return "", false
}

// stillT0 is the page cosine to t0 from which a page is t0's page
// whatever message phrase it holds ("bientôt disponible" in a story).
const stillT0 = 0.5

// messageInsteadOfPage: a message page (a parking, suspension, error,
// not-found, maintenance or login page, by what it says; see messagePage)
// where t0 was not one is off-topic whatever words it shares with t0 (a
// parked page's related searches are often the site's own words), unless
// it still shares half of t0's page.
func (r *reading) messageInsteadOfPage() (string, bool) {
	if r.s.messagePage(r.i) != "" && r.s.messagePage(r.s.t0) == "" && r.page < stillT0 {
		return "it is a message page, not t0's content", true
	}
	return "", false
}

// newShare is the least share of a page's content words that are new
// since t0 for the new text to make the page.
const newShare = 2.0 / 3

// spamAround: a capture whose text is mostly new since t0 (at least
// newShare of its content words) and spam's (at least spamShare of its
// terms) is a remnant inside injected spam, however much of t0's title and
// first paragraph it keeps.
func (r *reading) spamAround() (string, bool) {
	if r.p().doc.ContentWords == 0 {
		return "", false
	}
	share := r.s.newText(r.i)
	if share < newShare {
		return "", false
	}
	spam := r.p().spamShare(r.s.voc.terms)
	if spam < spamShare || r.t0().spamShare(r.s.voc.terms) >= spamShare {
		return "", false
	}
	return fmt.Sprintf("most of it is new since t0 and spam, what is left of t0 at most a remnant (%.0f%% of its words new, %.0f%% spam's)",
		100*share, 100*spam), true
}

// A page switched language when t0's language is gone from it (it holds
// under goneShare of the page's letters, and at most 1/switchedShare of its
// share of t0) and the page's language is new (it held at most
// 1/switchedShare of its share of the page in t0): a bilingual page whose
// main language changes keeps both. minSwitchWords is the least number of
// words a capture needs for its language to count.
const (
	switchedShare  = 4
	goneShare      = 0.1
	minSwitchWords = 30
)

// switchedLanguage: a page written in another language than t0 is
// off-topic (a parked or error page in English where the site wrote
// Spanish).
func (r *reading) switchedLanguage() (string, bool) {
	p, t0 := r.p().doc, r.t0().doc
	if p.Lang == "" || t0.Lang == "" || p.Lang == t0.Lang || p.WordCount < minSwitchWords {
		return "", false
	}
	was, is := shareOf(t0, t0.Lang), shareOf(p, t0.Lang)
	now, had := shareOf(p, p.Lang), shareOf(t0, p.Lang)
	// The page's language needs evidence of its own: one named by trigrams
	// alone (no stop words, no script of its own) has no share, and may be
	// a relative of t0's language told apart from it by chance (Icelandic
	// read as Danish, then as Nynorsk; Estonian as Finnish).
	if now == 0 || is >= goneShare || is*switchedShare >= was || had*switchedShare >= now {
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

// splash: a page with no words of its own (fewer than blankWords, or
// beyond the site's frame as the latest on-topic capture shows it; images
// and links, the names of languages at most), neither a script's shell nor
// a page that shows others (frames, a redirect), saying nothing of any
// kind of message, whose title names the site (its address spells it, or it
// keeps t0's title or the latest on-topic capture's) is the site's
// entrance: a language choice or a campaign page that leads into it.
func (r *reading) splash() (string, bool) {
	d := r.p().doc
	if d.Shell || d.Title == "" || r.replay != nil || d.Redirect != "" || len(d.Frames) > 0 {
		return "", false // a shell, or a page that shows others
	}
	if d.ContentWords >= blankWords && r.s.ownTerms(r.p(), r.s.prep[r.anchor]) >= blankWords {
		return "", false // words of its own
	}
	if k, _ := cueKind(d.Title, d.Text, r.s.host); k != "" {
		return "", false // "under construction": a message, however short
	}
	switch {
	case r.s.namesSite(r.i):
		return fmt.Sprintf("a splash page: no words of its own, and its title %q names the site: the site's entrance, not another page", d.Title), true
	case r.s.keepsTitle(r.i, r.s.t0), r.anchor != r.s.t0 && r.s.keepsTitle(r.i, r.anchor):
		return fmt.Sprintf("a splash page: no words of its own, and its title %q keeps the site's: the site's entrance, not another page", d.Title), true
	}
	return "", false
}

// Content gone: what is left of the content (the page without its site
// chrome) shares nothing with t0's (content cosine under emptiedCosine), is
// at most a third of it (change under emptiedContent) and the page lost two
// fifths of its words (change under emptiedPage).
const (
	emptiedCosine  = 0.10
	emptiedContent = -0.65
	emptiedPage    = -0.40
	// emptiedWords is the most words of content a message in the frame
	// has ("page not found", a login form, "no posts"): more is stories.
	emptiedWords = 40
)

// emptied: a capture whose content is gone from the site's frame (page not
// found, log in, an empty listing inside the site's menus: at most
// emptiedWords words) is off-topic though the menus are t0's. New stories
// on the page's subject or the collection's in its frame (a blog's front
// page showing only its newest post: topic at least sameSubject, or see
// aboutCollection) are the page working, not its content gone.
func (r *reading) emptied() (string, bool) {
	p, t0 := r.p(), r.t0()
	if t0.doc.ContentWords == 0 || p.doc.WordCount == p.doc.ContentWords {
		return "", false // no content to lose, or no frame left
	}
	if topic, ok := r.scores[MeasureTopic]; ok && topic >= sameSubject || p.doc.ContentWords > emptiedWords {
		return "", false // stories of the page's subject, or more than a message
	}
	c := roundScore(contentCosine(p, t0))
	cc := roundScore(Change(p.doc.ContentWords, t0.doc.ContentWords))
	pc := roundScore(Change(p.doc.WordCount, t0.doc.WordCount))
	if c >= emptiedCosine || cc >= emptiedContent || pc >= emptiedPage || r.aboutCollection() {
		return "", false
	}
	return fmt.Sprintf("its content is gone, the site's frame is left: %d words of content where t0 has %d, none of them t0's (content cosine %.3f < %s; content %.3f < %s, page %.3f < %s)",
		p.doc.ContentWords, t0.doc.ContentWords, c, fmtFloat(emptiedCosine), cc, fmtFloat(emptiedContent), pc, fmtFloat(emptiedPage)), true
}

// ---------------------------------------------------------------- the paper's rule, read as a curator reads it

// replacedContent: content cosine under which a page's content shares
// nothing with t0's; with a page cosine under trimmedCosine, little but
// the site's chrome is left of t0's page.
const replacedContent = 0.10

// replaced reports a capture of which little but the site's chrome is left
// of t0's page (page cosine under trimmedCosine): its own content shares
// nothing with t0's (spam inside the site's frame). It is off-topic though
// no threshold is crossed, unless its title or continuity keep it.
func (r *reading) replaced() bool {
	c, ok := r.scores[MeasureContent]
	p := r.p()
	return ok && c < replacedContent && r.page < trimmedCosine &&
		p.contentNorm > 0 && r.t0().contentNorm > 0 && p.doc.WordCount > p.doc.ContentWords
}

// noThreshold: no threshold is crossed.
func (r *reading) noThreshold() (string, bool) {
	return "no threshold crossed", len(r.kept) == 0 && !r.trimmedSize
}

// trimmedCosine: a page that lost most of its words but whose words are
// still t0's (page cosine at least this) was trimmed, not replaced; a
// parked, error or "we have moved" page shares next to nothing.
const trimmedCosine = 0.20

// trimmed: only size thresholds are crossed, and what is left is t0's page.
func (r *reading) trimmed() (string, bool) {
	if len(r.kept) > 0 || !r.trimmedSize {
		return "", false
	}
	return fmt.Sprintf("shorter than t0, but what is left is t0's page (%s; page cosine %.3f >= %s)",
		describe(r.crossed, r.scores), r.page, fmtFloat(trimmedCosine)), true
}

// anotherPage: a capture that is not t0's page (page cosine under
// stillT0) and names as its own address (see namesAnother: canonical link,
// og:url, twitter:url, meta url) an article's address that is not its own,
// without most stories of the latest on-topic capture (see sharesStories),
// where t0 named no other article so, is another page served at this address (a
// blog's address showing one old article of the site): its title and
// subject, the site's, do not make it this page. Its kind is redirected
// away.
func (r *reading) anotherPage() (string, bool) {
	if r.page >= stillT0 {
		return "", false // t0's page, at whatever address
	}
	u := r.s.namesAnother(r.i, r.replay)
	if u == "" {
		return "", false
	}
	if r.storiesGoOn() {
		return "", false
	}
	return fmt.Sprintf("it names %s as its own address, not this one (page cosine %.3f < %s; content cosine to the latest on-topic capture under %s)",
		u, r.page, fmtFloat(stillT0), fmtFloat(sharesStories)), true
}

// sharesStories is the least content cosine to the latest on-topic
// capture of a page whose stories go on from it: most of them are there
// still, where two articles of one subject, or a live page and an old
// article of its subject, share a fifth of their words.
const sharesStories = 0.5

// storiesGoOn reports whether most of the latest on-topic capture's stories
// are the capture's too (see sharesStories).
func (r *reading) storiesGoOn() bool {
	if r.content < 0 {
		r.content = roundScore(contentCosine(r.p(), r.s.prep[r.anchor]))
	}
	return r.content >= sharesStories
}

// laterYears is how many years after a capture the copyright a page
// states must be for the page to be a later one (a site puts next year in
// its footer in December).
const laterYears = 2

// laterPage: a capture that is not t0's page (thresholds crossed) and
// whose copyright names a year laterYears or more after its capture,
// without the stories of the latest on-topic capture (see sharesStories),
// is a later page served at this address (the archive replays another,
// later capture: an old article in the site's frame of years later): its
// title and subject, the site's, do not make it the page as captured. A
// site whose footer was ahead already at t0 proves nothing. Its kind is
// redirected away.
func (r *reading) laterPage() (string, bool) {
	p, t0 := r.p().doc, r.t0().doc
	year, t0Year := r.s.tm.Captures[r.i].Time.Year(), r.s.tm.Captures[r.s.t0].Time.Year()
	if p.Copyright < year+laterYears || t0.Copyright >= t0Year+laterYears {
		return "", false
	}
	if r.storiesGoOn() {
		return "", false
	}
	return fmt.Sprintf("its page states © %d, %d years after it was captured: a later page than the one captured, not t0's (%s)",
		p.Copyright, p.Copyright-year, describe(r.kept, r.scores)), true
}

// titleKept: a page whose words changed (only content thresholds crossed)
// but whose title keeps t0's is still the site.
func (r *reading) titleKept() (string, bool) {
	if !onlyContent(r.kept) || !r.s.keepsTitle(r.i, r.s.t0) {
		return "", false
	}
	return fmt.Sprintf("its words changed, but it is still this site: its title keeps t0's (%q, t0 %q; %s)",
		r.p().doc.Title, r.t0().doc.Title, describe(r.kept, r.scores)), true
}

// stepByStep: a page whose words changed (only content thresholds crossed)
// but which continues the latest capture judged on-topic (see continuous)
// is a front page or a blog whose stories rotate; a replaced page jumps.
func (r *reading) stepByStep() (string, bool) {
	if !onlyContent(r.kept) || !r.continuous() {
		return "", false
	}
	return fmt.Sprintf("its stories changed step by step from t0's (%s; cosine %.3f to the latest on-topic capture)",
		describe(r.kept, r.scores), pageCosine(r.p(), r.s.prep[r.anchor])), true
}

// newStories: a page that is shorter than t0 and whose stories are all
// new (only content and size thresholds crossed) but that keeps the site's
// frame and tells stories of the collection's subject (newStoriesInFrame)
// is a blog or front page showing its latest posts, fewer or shorter ones.
func (r *reading) newStories() (string, bool) {
	for _, t := range r.kept {
		if m := lookup(t.Measure); m == nil || m.Family != Content && m.Family != Size {
			return "", false
		}
	}
	if r.opts.Continuity <= 0 || !r.newStoriesInFrame() {
		return "", false
	}
	return fmt.Sprintf("its stories are new and fewer (%s), but it keeps the site's frame and they are of the collection's subject",
		describe(r.kept, r.scores)), true
}

// nothingLeft: what the paper's rule says.
func (r *reading) nothingLeft() (string, bool) {
	return "nothing of t0's page is left: " + describe(r.kept, r.scores), true
}

// ---------------------------------------------------------------- continuity

// A rotating page changes step by step: a capture continues another when
// its page cosine to it is at least the continuity bound
// (Options.Continuity) and its content cosine at least contentContinuity
// of that (its stories overlap, not only its menus), or the other has no
// content of its own.
const contentContinuity = 0.5

// sameSubject is the least topic score (similarity to the page's subject
// in the collection, relative to t0's) of new stories that continue a page
// whose frame stayed: spam inside a site's frame scores under a quarter of
// t0's.
const sameSubject = 0.5

// continuous reports whether the capture continues the anchor (the latest
// capture judged on-topic and continuous itself) at Options.Continuity, or,
// where every story changed between the two (a blog captured after a burst
// of posts), its page still does and its new stories are as close to the
// page's subject as sameSubject of t0's, or it keeps the anchor's frame
// with new stories of the collection's subject (newStoriesInFrame). Never
// with continuity off, and only with shared stories where replay shows
// another site's page.
func (r *reading) continuous() bool {
	c := r.opts.Continuity
	if c <= 0 {
		return false
	}
	if r.stepFrom(r.anchor, c) {
		return true
	}
	if r.elsewhere() {
		return false // another site's page shares no stories with this one's
	}
	topic, ok := r.scores[MeasureTopic]
	if ok && topic >= sameSubject && roundScore(pageCosine(r.p(), r.s.prep[r.anchor])) >= c {
		return true
	}
	return r.newStoriesInFrame()
}

// A page whose stories all changed since the anchor (a blog captured months
// later) is still the page when it keeps the anchor's frame (chrome cosine
// at least frameKept) and its stories are about the collection's subject
// (likeness to the collection's topic at least onSubject of a typical
// first capture's).
const (
	frameKept = 0.5
	onSubject = driftAway
)

// newStoriesInFrame reports a capture whose stories all changed but which
// keeps the anchor's frame and the collection's subject (see frameKept).
func (r *reading) newStoriesInFrame() bool {
	p, a := r.p(), r.s.prep[r.anchor]
	if p.doc.WordCount == p.doc.ContentWords || a.doc.WordCount == a.doc.ContentWords || r.elsewhere() {
		return false // no frame, or another site's
	}
	return roundScore(r.s.frameCosine(p, a)) >= frameKept && r.aboutCollection()
}

// elsewhere reports whether replaying the capture shows a page of another
// site (a redirect or a client-side redirect away; frames show their pages
// inside the site's own).
func (r *reading) elsewhere() bool {
	rp := r.replay
	if rp == nil || rp.How == HowFrame || rp.Problem != "" {
		return false
	}
	to := rp.URIR
	if to == "" {
		to = rp.URL
	}
	return awayFrom(r.s.urir, to)
}

// aboutCollection reports whether the capture's content is about the
// collection's subject: its likeness to the collection's topic is at least
// onSubject of a typical first capture's (driftAway is the bound under
// which the drift rule calls stories not about it).
func (r *reading) aboutCollection() bool {
	like, ok := r.s.likeness(r.i)
	return ok && like >= onSubject
}

// stepFrom reports whether the capture changed from capture j step by step
// at continuity bound c (see contentContinuity).
func (r *reading) stepFrom(j int, c float64) bool {
	if j < 0 || r.s.prep[j] == nil {
		return false
	}
	p, q := r.p(), r.s.prep[j]
	return roundScore(pageCosine(p, q)) >= c &&
		(q.contentNorm == 0 || roundScore(contentCosine(p, q)) >= contentContinuity*c)
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
