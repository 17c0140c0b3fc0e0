package extract

import (
	"cmp"
	"math"
	"math/bits"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/abadojack/whatlanggo"
	"github.com/blevesearch/bleve/v2/analysis/lang/ar"
	"github.com/blevesearch/bleve/v2/analysis/lang/bg"
	"github.com/blevesearch/bleve/v2/analysis/lang/ca"
	"github.com/blevesearch/bleve/v2/analysis/lang/ckb"
	"github.com/blevesearch/bleve/v2/analysis/lang/cs"
	"github.com/blevesearch/bleve/v2/analysis/lang/da"
	"github.com/blevesearch/bleve/v2/analysis/lang/de"
	"github.com/blevesearch/bleve/v2/analysis/lang/el"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/analysis/lang/es"
	"github.com/blevesearch/bleve/v2/analysis/lang/eu"
	"github.com/blevesearch/bleve/v2/analysis/lang/fa"
	"github.com/blevesearch/bleve/v2/analysis/lang/fi"
	"github.com/blevesearch/bleve/v2/analysis/lang/fr"
	"github.com/blevesearch/bleve/v2/analysis/lang/ga"
	"github.com/blevesearch/bleve/v2/analysis/lang/gl"
	"github.com/blevesearch/bleve/v2/analysis/lang/hi"
	"github.com/blevesearch/bleve/v2/analysis/lang/hr"
	"github.com/blevesearch/bleve/v2/analysis/lang/hu"
	"github.com/blevesearch/bleve/v2/analysis/lang/hy"
	"github.com/blevesearch/bleve/v2/analysis/lang/id"
	"github.com/blevesearch/bleve/v2/analysis/lang/it"
	"github.com/blevesearch/bleve/v2/analysis/lang/nl"
	"github.com/blevesearch/bleve/v2/analysis/lang/no"
	"github.com/blevesearch/bleve/v2/analysis/lang/pl"
	"github.com/blevesearch/bleve/v2/analysis/lang/pt"
	"github.com/blevesearch/bleve/v2/analysis/lang/ro"
	"github.com/blevesearch/bleve/v2/analysis/lang/ru"
	"github.com/blevesearch/bleve/v2/analysis/lang/sv"
	"github.com/blevesearch/bleve/v2/analysis/lang/tr"
	"github.com/blevesearch/snowballstem"
	"github.com/blevesearch/snowballstem/arabic"
	"github.com/blevesearch/snowballstem/danish"
	"github.com/blevesearch/snowballstem/dutch"
	"github.com/blevesearch/snowballstem/english"
	"github.com/blevesearch/snowballstem/finnish"
	"github.com/blevesearch/snowballstem/french"
	"github.com/blevesearch/snowballstem/german"
	"github.com/blevesearch/snowballstem/hungarian"
	"github.com/blevesearch/snowballstem/irish"
	"github.com/blevesearch/snowballstem/italian"
	"github.com/blevesearch/snowballstem/norwegian"
	"github.com/blevesearch/snowballstem/portuguese"
	"github.com/blevesearch/snowballstem/romanian"
	"github.com/blevesearch/snowballstem/russian"
	"github.com/blevesearch/snowballstem/spanish"
	"github.com/blevesearch/snowballstem/swedish"
	"github.com/blevesearch/snowballstem/tamil"
	"github.com/blevesearch/snowballstem/turkish"
)

// language is what the package knows of one language: the script it is
// written in, its stop words (Lucene's lists, which are Snowball's where
// Snowball has one, as bleve ships them) and its Snowball stemmer, nil where
// there is none.
type language struct {
	code   string
	index  int // in languageSpec
	script script
	stop   map[string]bool
	stem   func(*snowballstem.Env) bool
}

// languageSpec lists the languages with stop words or a stemmer, in the
// order that breaks ties in detection.
var languageSpec = []struct {
	code   string
	script script
	stop   []byte
	stem   func(*snowballstem.Env) bool
}{
	{"en", scriptLatin, en.EnglishStopWords, english.Stem},
	{"fr", scriptLatin, fr.FrenchStopWords, french.Stem},
	{"es", scriptLatin, es.SpanishStopWords, spanish.Stem},
	{"de", scriptLatin, de.GermanStopWords, german.Stem},
	{"it", scriptLatin, it.ItalianStopWords, italian.Stem},
	{"pt", scriptLatin, pt.PortugueseStopWords, portuguese.Stem},
	{"nl", scriptLatin, nl.DutchStopWords, dutch.Stem},
	{"ru", scriptCyrillic, ru.RussianStopWords, russian.Stem},
	{"ar", scriptArabic, ar.ArabicStopWords, arabic.Stem},
	{"sv", scriptLatin, sv.SwedishStopWords, swedish.Stem},
	{"no", scriptLatin, no.NorwegianStopWords, norwegian.Stem},
	{"da", scriptLatin, da.DanishStopWords, danish.Stem},
	{"fi", scriptLatin, fi.FinnishStopWords, finnish.Stem},
	{"hu", scriptLatin, hu.HungarianStopWords, hungarian.Stem},
	{"ro", scriptLatin, ro.RomanianStopWords, romanian.Stem},
	{"tr", scriptLatin, tr.TurkishStopWords, turkish.Stem},
	{"ga", scriptLatin, ga.IrishStopWords, irish.Stem},
	{"ca", scriptLatin, ca.CatalanStopWords, nil},
	{"gl", scriptLatin, gl.GalicianStopWords, nil},
	{"eu", scriptLatin, eu.BasqueStopWords, nil},
	{"pl", scriptLatin, pl.PolishStopWords, nil},
	{"cs", scriptLatin, cs.CzechStopWords, nil},
	{"hr", scriptLatin, hr.CroatianStopWords, nil},
	{"id", scriptLatin, id.IndonesianStopWords, nil},
	{"bg", scriptCyrillic, bg.BulgarianStopWords, nil},
	{"fa", scriptArabic, fa.PersianStopWords, nil},
	{"ckb", scriptArabic, ckb.SoraniStopWords, nil},
	{"el", scriptGreek, el.GreekStopWords, nil},
	{"hi", scriptDevanagari, hi.HindiStopWords, nil},
	{"hy", scriptArmenian, hy.ArmenianStopWords, nil},
	{"ta", scriptTamil, nil, tamil.Stem},
}

// extraStopWords supplement Snowball's English list with the most frequent
// words of English news text that it leaves out (Snowball keeps "can",
// "will" and "now" as possible nouns and has no reporting verbs): they carry
// no subject, and a crawl's topic vector weighs them heavily otherwise.
var extraStopWords = map[string]string{"en": "also can just now said will"}

// languages is built once from languageSpec and never modified afterwards.
var languages = buildLanguages()

// languageOrder fixes the order in which ties are broken.
var languageOrder = func() []string {
	codes := make([]string, len(languageSpec))
	for i, l := range languageSpec {
		codes[i] = l.code
	}
	return codes
}()

// stopIndex maps each stop word (normalized as tokens are) to the set of
// languages (bit i for languageOrder[i]) that list it, so detection looks
// each token up once.
var stopIndex = buildStopIndex()

func buildLanguages() map[string]*language {
	m := make(map[string]*language, len(languageSpec))
	for i, s := range languageSpec {
		l := &language{code: s.code, index: i, script: s.script, stem: s.stem, stop: make(map[string]bool)}
		for _, w := range parseStopWords(s.stop) {
			l.stop[w] = true
		}
		for _, w := range strings.Fields(extraStopWords[s.code]) {
			l.stop[w] = true
		}
		m[s.code] = l
	}
	return m
}

// parseStopWords reads a stop-word list in Snowball's format (a word a line,
// comments after "|") or Lucene's ("#" comment lines), normalized as the
// tokenizer normalizes words, so that lists and tokens meet. Contractions
// ("won't") are left out: the tokenizer splits words at apostrophes, and
// their parts ("won") are words of their own.
func parseStopWords(b []byte) []string {
	var words []string
	for line := range strings.Lines(string(b)) {
		if strings.HasPrefix(strings.TrimSpace(line), "#") {
			continue
		}
		line, _, _ = strings.Cut(line, "|")
		for _, f := range strings.Fields(line) {
			if toks := tokenize(f, 0).toks; len(toks) == 1 {
				words = append(words, toks[0])
			}
		}
	}
	return words
}

func buildStopIndex() map[string]uint64 {
	idx := make(map[string]uint64)
	for i, code := range languageOrder {
		for w := range languages[code].stop {
			idx[w] |= 1 << i
		}
	}
	return idx
}

// Languages lists the ISO 639-1 codes (ISO 639-3 for Sorani, "ckb") whose
// stop words Terms removes, or which it stems.
func Languages() []string { return append([]string(nil), languageOrder...) }

// HasStemmer reports whether Terms stems words of the language code (those
// Snowball has a stemmer for: ar, da, de, en, es, fi, fr, ga, hu, it, nl,
// no, pt, ro, ru, sv, ta, tr).
func HasStemmer(code string) bool {
	l := languages[code]
	return l != nil && l.stem != nil
}

// Detection thresholds of the stop-word profile: the winning language needs
// at least minStopHits stop-word occurrences, stop words of that language
// must be at least minStopShare of the tokens, and it must beat the
// runner-up by minStopMargin (ratio of hits).
const (
	minStopHits   = 3
	minStopShare  = 0.08
	minStopMargin = 1.25
	// detectTokens caps how many tokens detection reads.
	detectTokens = 2000
	// minScriptShare is the share of a text's letters that a script must
	// have to name the text's language on its own.
	minScriptShare = 0.5
	// trigramSample caps the bytes of text the trigram model reads.
	trigramSample = 1000
	// minTrigramConfidence is the least confidence of the trigram model's
	// answer that is taken.
	minTrigramConfidence = 0.5
)

// DetectLanguage guesses the language of text. hint is a language tag such
// as <html lang> gives ("en-GB"): it decides when the text is too short or
// ambiguous, and wins near-ties. The result is an ISO 639-1 code (ISO 639-3
// where there is none), or "" when unsure.
func DetectLanguage(text, hint string) string {
	t := tokenize(text, detectTokens)
	return t.evidence().lang(t, hint)
}

// lang guesses the language of tokenized text t from its evidence ev, in
// three steps, cheapest first:
//  1. a script that one language writes (Armenian, Hangul, Thai, Kana...)
//     and that holds most of the letters names it;
//  2. among the languages of the text's main script, the stop-word profile
//     decides when one language clearly leads;
//  3. otherwise whatlanggo's trigram model (84 languages) reads a sample of
//     the text, and its answer is taken when it is confident.
//
// The hint decides near-ties and texts too short to tell.
func (ev *evidence) lang(t *tokenized, hint string) string {
	hint = primaryTag(hint)
	if ev.letters == 0 {
		return knownHint(hint)
	}
	main, n := ev.mainScript()
	if l := scriptInfo[main].lang; l != "" && float64(n) >= minScriptShare*float64(ev.letters) {
		if main == scriptHan && (hint == "ja" || hint == "zh") {
			return hint
		}
		return l
	}
	best, second := -1, -1
	for i, code := range languageOrder {
		if languages[code].script != main || languages[code].stop == nil {
			continue
		}
		switch {
		case best < 0 || ev.stops[i] > ev.stops[best]:
			best, second = i, best
		case second < 0 || ev.stops[i] > ev.stops[second]:
			second = i
		}
	}
	var b, s float64
	if best >= 0 {
		b = float64(ev.stops[best])
	}
	if second >= 0 {
		s = float64(ev.stops[second])
	}
	confident := best >= 0 && ev.stops[best] >= minStopHits &&
		b >= minStopShare*float64(ev.toks) && b >= minStopMargin*s
	if hl := languages[hint]; hl != nil && hl.script == main {
		h := float64(ev.stops[indexOf(hint)])
		if h >= b || (confident && h >= b/minStopMargin) || (!confident && h > 0 && h*minStopMargin >= b) {
			return hint
		}
	}
	if confident {
		return languageOrder[best]
	}
	if l := t.trigramLang(); l != "" {
		return l
	}
	return knownHint(hint)
}

// evidence is what language detection counts in a text.
type evidence struct {
	stops   [64]int // stop words of each language of languageOrder, in the first detectTokens tokens
	toks    int     // tokens read (at most detectTokens)
	scripts [numScripts]int
	letters int
	// What shares reads, over stretches of shareWindow words spread
	// evenly across the whole text (detectTokens words at most): the words
	// of each script several languages write, those given each language,
	// and those of stretches holding no stop word of their script.
	words, unnamed [numScripts]int
	wordsOf        [64]int
}

func (t *tokenized) evidence() *evidence {
	ev := &evidence{scripts: t.scripts}
	for _, n := range t.scripts {
		ev.letters += n
	}
	// A page of at most detectTokens tokens is read once: its windows
	// count the stop words too.
	n := len(t.toks) + len(t.more)
	var buf []string
	if n <= detectTokens {
		ev.toks = n
		for from := 0; from < n; from += shareWindow {
			ev.window(t.span(from, min(n, from+shareWindow), &buf), &ev.stops)
		}
		return ev
	}
	ev.toks = detectTokens
	for _, tok := range t.span(0, detectTokens, &buf) {
		for set := stopIndex[tok]; set != 0; set &= set - 1 {
			ev.stops[bits.TrailingZeros64(set)]++
		}
	}
	// A long page's languages can come one after the other (a blog's posts
	// in English, then in Arabic): its shares read stretches from end to
	// end.
	stretches := detectTokens / shareWindow
	for k := range stretches {
		from := k * n / stretches
		ev.window(t.span(from, from+shareWindow, &buf), nil)
	}
	return ev
}

// span returns tokens [from, to) of t's tokens followed by its more: a
// part of one of them, or of a copy in *buf where the span crosses from
// one to the other.
func (t *tokenized) span(from, to int, buf *[]string) []string {
	k := len(t.toks)
	switch {
	case to <= k:
		return t.toks[from:to]
	case from >= k:
		return t.more[from-k : to-k]
	}
	*buf = append(append((*buf)[:0], t.toks[from:]...), t.more[:to-k]...)
	return *buf
}

// mainScript returns the script most letters are in, and how many: Kana
// when a text mixes Han with enough kana (Japanese writes kanji between its
// kana), counting both.
func (ev *evidence) mainScript() (script, int) {
	main := scriptNone
	for s, n := range ev.scripts {
		if n > ev.scripts[main] {
			main = script(s)
		}
	}
	n := ev.scripts[main]
	if main == scriptHan && ev.scripts[scriptKana]*10 >= n {
		main, n = scriptKana, n+ev.scripts[scriptKana]
	}
	return main, n
}

// LangShare is how much of a page is written in one language: the share
// of the page's letters in that language, script by script. A script that
// one language writes (Armenian, Hangul, Thai...) is that language's; the
// words of a script that several write (Latin, Cyrillic, Arabic...) are
// each given the language whose stop words lead in its stretch of the page
// (shareWindow words), so that a page of English and French posts shares
// its Latin letters between the two, and a French page quoting an English
// sentence keeps most of them. Shares of a page add up to at most 1, and
// compare across pages and languages.
type LangShare struct {
	Lang  string  `json:"lang"`
	Share float64 `json:"share"`
}

// Thresholds of shares: the least share kept, and how many are kept.
const (
	minLangShare = 0.01
	maxLangs     = 5
)

// shareWindow is the stretch of words whose stop words name the language of
// its words of a script several languages write.
const shareWindow = 20

// shares lists the languages that hold at least minLangShare of the text's
// letters (see LangShare), the largest first, at most maxLangs; shares are
// rounded to 1/1000 so that they read and compare the same everywhere.
// lang is the language detected for the whole text: the words of a stretch
// without stop words of their script go to it, where it writes that script.
func (ev *evidence) shares(lang string) []LangShare {
	if ev.letters == 0 {
		return nil
	}
	var out []LangShare
	add := func(l string, share float64) {
		for k := range out {
			if out[k].Lang == l {
				out[k].Share += share
				return
			}
		}
		out = append(out, LangShare{l, share})
	}
	for s, n := range ev.scripts {
		if n == 0 || script(s) == scriptNone {
			continue
		}
		part := float64(n) / float64(ev.letters)
		if l := scriptInfo[s].lang; l != "" {
			if script(s) == scriptHan && ev.scripts[scriptKana]*10 >= n {
				l = "ja" // kanji among enough kana: Japanese (see mainScript)
			}
			add(l, part)
			continue
		}
		words := ev.words[s]
		if words == 0 {
			continue
		}
		for i, code := range languageOrder {
			k := ev.wordsOf[i]
			if code == lang {
				k += ev.unnamed[s]
			}
			if k > 0 && languages[code].script == script(s) {
				add(code, part*float64(k)/float64(words))
			}
		}
	}
	kept := out[:0]
	for _, l := range out {
		if l.Share >= minLangShare {
			kept = append(kept, LangShare{l.Lang, math.Round(1000*l.Share) / 1000})
		}
	}
	slices.SortStableFunc(kept, func(a, b LangShare) int { return cmp.Compare(b.Share, a.Share) })
	return kept[:min(len(kept), maxLangs)]
}

// window gives the words of one stretch of text (toks) each the language
// whose stop words lead in the stretch among those of the word's script,
// counting them in ev.wordsOf (ev.unnamed where no stop word of the script
// is in the stretch), and counts the words of each script in ev.words;
// stops, when not nil, adds up the stretch's stop words of each language.
func (ev *evidence) window(toks []string, stops *[64]int) {
	var hits [64]int
	var per [numScripts]int
	for _, tok := range toks {
		r, _ := utf8.DecodeRuneInString(tok)
		per[scriptOf(r)]++
		for set := stopIndex[tok]; set != 0; set &= set - 1 {
			hits[bits.TrailingZeros64(set)]++
		}
	}
	for s, n := range per {
		if n == 0 || script(s) == scriptNone || scriptInfo[s].lang != "" {
			continue
		}
		ev.words[s] += n
		best := -1
		for i := range languageSpec {
			if languageSpec[i].script == script(s) && hits[i] > 0 && (best < 0 || hits[i] > hits[best]) {
				best = i
			}
		}
		if best < 0 {
			ev.unnamed[s] += n
		} else {
			ev.wordsOf[best] += n
		}
	}
	if stops != nil {
		for i, h := range hits {
			stops[i] += h
		}
	}
}

// trigramLang asks whatlanggo about the text's sample; "" when it is not
// confident.
func (t *tokenized) trigramLang() string {
	info := whatlanggo.Detect(t.sample)
	if info.Lang < 0 || info.Confidence < minTrigramConfidence {
		return ""
	}
	if code := info.Lang.Iso6391(); code != "" {
		return code
	}
	return info.Lang.Iso6393()
}

// knownHint returns the hint when it names a language the package knows of.
func knownHint(hint string) string {
	if languages[hint] != nil {
		return hint
	}
	for s := range scriptInfo {
		if scriptInfo[s].lang != "" && scriptInfo[s].lang == hint {
			return hint
		}
	}
	return ""
}

func indexOf(code string) int {
	for i, c := range languageOrder {
		if c == code {
			return i
		}
	}
	return -1
}

// primaryTag returns the lower-cased primary subtag of a language tag
// ("en-GB" → "en"), mapping Norwegian Bokmål and Nynorsk to "no".
func primaryTag(tag string) string {
	tag = strings.ToLower(strings.TrimSpace(tag))
	if i := strings.IndexAny(tag, "-_"); i >= 0 {
		tag = tag[:i]
	}
	switch tag {
	case "nb", "nn":
		return "no"
	}
	return tag
}
