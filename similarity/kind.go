package similarity

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
	"unicode"
)

// Kind names what sort of off-topic a capture is: what a curator sees when
// the capture is replayed, and acts on (a parked domain is dropped from the
// collection, a database error is re-crawled later, a drifted front page is
// re-scoped). Every off-topic verdict carries one.
type Kind string

// The kinds of off-topic, as the off-topic study's gold standard describes
// them and as curators name them.
const (
	KindParked      Kind = "parked"
	KindSuspended   Kind = "suspended"
	KindError       Kind = "error"
	KindNotFound    Kind = "not-found"
	KindMaintenance Kind = "maintenance"
	KindLogin       Kind = "login"
	KindBlank       Kind = "blank"
	KindSpam        Kind = "spam"
	KindRedirected  Kind = "redirected"
	KindReplaced    Kind = "replaced"
	KindDrifted     Kind = "drifted"
)

// Kinds lists every kind, in the order reports show them.
func Kinds() []Kind {
	return []Kind{KindParked, KindSuspended, KindError, KindNotFound, KindMaintenance, KindLogin, KindBlank,
		KindSpam, KindRedirected, KindReplaced, KindDrifted}
}

// Label is the kind in a curator's words.
func (k Kind) Label() string {
	switch k {
	case KindParked:
		return "parked or for sale"
	case KindSuspended:
		return "account suspended"
	case KindError:
		return "server or database error"
	case KindNotFound:
		return "not found (soft 404)"
	case KindMaintenance:
		return "maintenance or under construction"
	case KindLogin:
		return "login or consent wall"
	case KindBlank:
		return "blank or script shell"
	case KindSpam:
		return "hacked or spam"
	case KindRedirected:
		return "redirected away"
	case KindReplaced:
		return "replaced by another subject"
	case KindDrifted:
		return "drifted to another subject"
	}
	return string(k)
}

// ParseKind returns the kind a name or label stands for (case-insensitive).
func ParseKind(s string) (Kind, bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	for _, k := range Kinds() {
		if s == string(k) || s == k.Label() {
			return k, true
		}
	}
	return "", false
}

// What a page says decides its kind only on a page short enough to be a
// message: cueWords is the most words of content a parking, error or login
// page has (a long article that mentions a database error is not one).
const cueWords = 250

// A page is a message page, off-topic whatever words it shares with t0 (a
// parked page's related searches reuse the site's words), when its cues
// score messageEnough: two phrases, or one in its title.
const messageEnough = 4

// A cue scores cueStrong when it is a phrase (several words, or four
// letters of a script written without spaces) and 1 when it is a single
// word; a kind needs cueEnough, so that one ordinary word ("login",
// "password" in a page's menu) does not name it. In the title, a cue counts
// twice: error pages put what they are in their title.
const (
	cueStrong = 2
	cueEnough = 2
)

// spamShare is the least share of a page's terms that spam's vocabulary
// (pharmacy, gambling, loans, counterfeits, adult, "cheap", "buy") must hold
// for it to read as spam: in ordinary news such words hold well under 2%,
// in injected SEO spam over a quarter.
const spamShare = 0.12

// kindOf names the kind of a capture that rule called off-topic: what
// another or a later page served at its address is; else what the page says (a
// message page's cues, in the page's language), then spam's vocabulary, then
// how it got there (step by step from the captures before it: drifted; at
// once: replaced). The second value says why in plain words.
func (r *reading) kindOf(rule string) (Kind, string) {
	switch rule {
	case "another page":
		return KindRedirected, "another page is served at this address"
	case "later page":
		return KindRedirected, "a later page is served at this address"
	}
	k, why := r.contentKind()
	if rp := r.replay; rp != nil && rp.How != HowFrame && rp.Problem == "" {
		to := rp.URIR
		if to == "" {
			to = rp.URL
		}
		if rp.Moved != "" && awayFrom(r.s.urir, rp.URL) {
			return KindRedirected, "it " + describeReplay(rp)
		}
		if awayFrom(r.s.urir, to) {
			return KindRedirected, "it " + describeReplay(rp) + ", where " + k.Label() + " (" + why + ")"
		}
		return k, "it " + describeReplay(rp) + ", where " + why
	}
	return k, why
}

// contentKind names the kind of an off-topic capture by what it shows.
func (r *reading) contentKind() (Kind, string) {
	p := r.p()
	doc := p.doc
	if doc.Shell {
		return KindBlank, "it is a script's empty shell: nothing shows without the script, and nothing it would show is in the page"
	}
	if doc.WordCount == 0 || doc.ContentWords == 0 && doc.WordCount < blankWords {
		return KindBlank, "the page shows nothing"
	}
	if doc.ContentWords <= cueWords {
		if k, cues := cueKind(doc.Title, doc.Text, r.s.host); k != "" {
			return k, "it says " + quoteCues(cues)
		}
	}
	if share := p.spamShare(r.s.voc.terms); share >= spamShare {
		return KindSpam, fmt.Sprintf("%.0f%% of its words are spam's (pills, casinos, loans, replicas)", 100*share)
	}
	if doc.ContentWords < blankWords {
		return KindBlank, fmt.Sprintf("it has %d words of its own", doc.ContentWords)
	}
	switch {
	case (r.run == KindDrifted || r.run == KindReplaced) && r.stepped(r.last):
		// The same other subject as the capture before it.
		if r.run == KindDrifted {
			return KindDrifted, "its stories changed step by step from t0's to another subject"
		}
		return KindReplaced, "another subject's text where t0's was, as in the capture before it"
	case r.run == "" && r.i > r.s.t0 && r.stepped(r.last):
		return KindDrifted, "its stories changed step by step from t0's to another subject"
	}
	return KindReplaced, "another subject's text where t0's was"
}

// stepped reports whether the capture changed from capture j step by step
// (see stepFrom), at Options.Continuity or, with continuity off,
// DefaultContinuity: how an off-topic page got there names its kind either way.
func (r *reading) stepped(j int) bool {
	c := r.opts.Continuity
	if c <= 0 {
		c = DefaultContinuity
	}
	return r.stepFrom(j, c)
}

// blankWords: a page with fewer words of its own than this shows nothing a
// curator would keep.
const blankWords = 5

// cueKind finds the kind whose cues a message page's title and text hold
// most of (at least cueEnough), and the cues found; "" when none has
// enough. A parking page that names its own domain scores more.
func cueKind(title, text, host string) (Kind, []string) {
	k, cues, _ := cueScore(title, text, host)
	return k, cues
}

// cueScore is cueKind with the winning kind's score.
func cueScore(title, text, host string) (Kind, []string, int) {
	t, b := normalizeCue(title), normalizeCue(text)
	// The words of title and text: a cue written with spaces is looked for
	// only where its first word is.
	words := map[string]bool{}
	for _, s := range [2]string{t, b} {
		for w := range strings.FieldsSeq(s) {
			words[w] = true
		}
	}
	best, bestScore := Kind(""), 0
	var bestCues []string
	for _, kc := range kindCues {
		score := 0
		var found []string
		for _, c := range kc.cues {
			if c.first != "" && !words[c.first] {
				continue
			}
			w := c.weight
			switch {
			case strings.Contains(t, c.pattern):
				w *= 2
			case strings.Contains(b, c.pattern):
			default:
				continue
			}
			score += w
			found = append(found, c.text)
		}
		if kc.kind == KindParked {
			inTitle, inText := namesHost(t, host), namesHost(b, host)
			switch {
			case inTitle && inText:
				// A parking page is titled by the domain and offers it in
				// its text; a site's pages carry its name, not its domain.
				score += 2 * cueStrong
				found = append(found, "its title and its text name its own domain")
			case (inTitle || inText) && len(found) > 0:
				score += cueStrong
				found = append(found, "it names its own domain")
			}
		}
		if score > bestScore {
			best, bestScore, bestCues = kc.kind, score, found
		}
	}
	if bestScore < cueEnough {
		return "", nil, 0
	}
	return best, bestCues, bestScore
}

// namesHost reports whether normalized text names a site's own domain
// (its host without "www."), as parking pages do ("example.org is for
// sale", "Interested in example.org?").
func namesHost(text, host string) bool {
	h := strings.TrimPrefix(strings.ToLower(host), "www.")
	if h == "" || !strings.Contains(h, ".") {
		return false
	}
	return strings.Contains(text, normalizeCue(h))
}

// hostOf is the host of a URI-R, "" when it has none.
func hostOf(urir string) string {
	u, err := url.Parse(urir)
	if err != nil {
		return ""
	}
	return u.Hostname()
}

// quoteCues renders found cues as `"a", "b"`, at most three.
func quoteCues(cues []string) string {
	if len(cues) > 3 {
		cues = cues[:3]
	}
	q := make([]string, len(cues))
	for i, c := range cues {
		if strings.HasPrefix(c, "its title") {
			q[i] = c
			continue
		}
		q[i] = fmt.Sprintf("%q", c)
	}
	return strings.Join(q, ", ")
}

// spamShare is the share of the capture's terms that are spam's (terms:
// the vocabulary its counts are over), worked out once.
func (p *prepared) spamShare(terms []string) float64 {
	if p.spam < 0 {
		p.spam = spamTermShare(p.tf, terms)
	}
	return p.spam
}

// spamTermShare is the share of a page's terms (tf: their counts over
// terms, the vocabulary) that begin with a root of spam's vocabulary, each
// distinct term looked at once. Roots, not stems: the terms are stemmed in
// the page's language, and spam's words are mostly the same in every
// language (brand names, "casino", "poker").
func spamTermShare(tf sparse, terms []string) float64 {
	var n, all float64 // whole numbers: the sums are exact
	for k, id := range tf.ids {
		all += tf.w[k]
		if isSpamTerm(terms[id]) {
			n += tf.w[k]
		}
	}
	if all == 0 {
		return 0
	}
	return n / all
}

// isSpamTerm reports whether a term begins with a root of spamRoots:
// its prefixes of each root length are looked up.
func isSpamTerm(t string) bool {
	for _, n := range spamRootLens {
		if n > len(t) {
			break
		}
		if spamRootSet[t[:n]] {
			return true
		}
	}
	return false
}

// spamRootSet and spamRootLens index spamRoots (read only).
var spamRootSet, spamRootLens = indexRoots(spamRoots)

func indexRoots(roots []string) (map[string]bool, []int) {
	set := map[string]bool{}
	var lens []int
	for _, r := range roots {
		set[r] = true
		if !slices.Contains(lens, len(r)) {
			lens = append(lens, len(r))
		}
	}
	slices.Sort(lens)
	return set, lens
}

// normalizeCue lower-cases s, turns every run of characters that are not
// letters, marks or digits into one space and pads it with spaces, so that
// cues match whole words.
func normalizeCue(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte(' ')
	space := true
	for _, r := range s {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r):
			b.WriteRune(unicode.ToLower(r))
			space = false
		case !space:
			b.WriteByte(' ')
			space = true
		}
	}
	if !space {
		b.WriteByte(' ')
	}
	return b.String()
}

// cue is one phrase of a kind: its text as listed, the pattern matched
// against normalized text, and its weight.
type cue struct {
	text, pattern string
	weight        int
	// first is the pattern's first word ("" for a script written without
	// spaces, matched inside runs).
	first string
}

// kindCue is a kind with its cues in every language listed.
type kindCue struct {
	kind Kind
	cues []cue
}

// kindCues are the cues of the kinds that a page says it is, built from
// cuePhrases. Only read after initialization.
var kindCues = buildCues()

func buildCues() []kindCue {
	var out []kindCue
	for _, kp := range cuePhrases {
		kc := kindCue{kind: kp.kind}
		for _, lang := range kp.phrases {
			for _, ph := range strings.Split(lang, "|") {
				ph = strings.TrimSpace(ph)
				if ph == "" {
					continue
				}
				n := normalizeCue(ph)
				w := 1
				if strings.Count(strings.TrimSpace(n), " ") > 0 || unspacedLetters(n) >= 4 {
					w = cueStrong
				}
				first := strings.Fields(n)[0]
				if unspacedLetters(n) > 0 {
					n, first = strings.TrimSpace(n), "" // scripts without spaces: match inside runs
				}
				kc.cues = append(kc.cues, cue{text: ph, pattern: n, weight: w, first: first})
			}
		}
		out = append(out, kc)
	}
	return out
}

// unspacedLetters counts the letters of s in scripts written without
// spaces between words (Han, Kana, Thai and their neighbours) and in
// Hangul, whose words take their particles without a space.
func unspacedLetters(s string) int {
	n := 0
	for _, r := range s {
		if unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul, unicode.Thai, unicode.Lao,
			unicode.Khmer, unicode.Myanmar) {
			n++
		}
	}
	return n
}
