package extract

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/snowballstem"
	"github.com/clipperhouse/uax29/v2/words"
)

// tokenized is a text cut into words.
type tokenized struct {
	// toks are the lower-cased, normalized words (see tokenize), in text
	// order; a run of letters of a script written without spaces (Chinese,
	// Japanese, Thai...) gives its overlapping character bigrams instead.
	toks []string
	// words counts the words: one per word of a spaced script, one per two
	// letters of an unspaced run (about the length of a Chinese or Japanese
	// word).
	words int
	// scripts counts the letters of each script.
	scripts [numScripts]int
	// sample is the text's beginning, at most trigramSample bytes, what
	// the trigram model of language detection reads.
	sample string
}

// tokenize cuts text into words at the word boundaries of Unicode's UAX #29
// (so "don't", "e-mail" and Persian words joined by a zero-width non-joiner
// come out as a reader sees them), then splits words at apostrophes (French
// and Italian elision: "l'opposition" gives "l" and "opposition"),
// lower-cases them, folds full-width forms, and strips Arabic and Hebrew
// vowel marks and the tatweel that stretches Arabic words, as Lucene's
// Arabic normalizer does. Runs of letters of unspaced scripts become
// overlapping character bigrams, as Lucene's CJK analyzer makes them (a run
// of one letter stays a unigram). Segments without a letter or digit
// (spaces, punctuation) are dropped; numbers are kept. max caps the tokens
// (0: no cap).
func tokenize(text string, max int) *tokenized {
	t := &tokenized{sample: prefix(text, trigramSample)}
	var run []string // the current unspaced run: letters with their marks
	n := 2           // the n-gram size of the run's script
	flush := func() {
		switch {
		case len(run) == 0:
			return
		case len(run) <= n:
			t.toks = append(t.toks, strings.Join(run, ""))
		default:
			for i := 0; i+n <= len(run); i++ {
				t.toks = append(t.toks, strings.Join(run[i:i+n], ""))
			}
		}
		t.words += (len(run) + n - 1) / n
		run = run[:0]
	}
	seg := words.FromString(text)
	for seg.Next() && (max <= 0 || len(t.toks) < max) {
		w := seg.Value()
		kind := segmentKind(w, &t.scripts)
		switch kind {
		case segSkip:
			continue
		case segUnspaced:
			for i, r := range w {
				switch {
				case unicode.IsLetter(r):
					if len(run) == 0 {
						n = scriptInfo[scriptOf(r)].ngram
					}
					run = append(run, string(unicode.ToLower(r)))
				case unicode.In(r, unicode.Mn, unicode.Mc) && len(run) > 0:
					_, size := utf8.DecodeRuneInString(w[i:])
					run[len(run)-1] += w[i : i+size]
				}
			}
			continue
		}
		flush()
		for part := range apostropheParts(w) {
			if tok := normalizeWord(part); tok != "" {
				t.toks = append(t.toks, tok)
			}
		}
		t.words++
	}
	flush()
	if max > 0 && len(t.toks) > max {
		t.toks = t.toks[:max]
	}
	return t
}

// with returns the tokens of t followed by those of u, for what reads a
// page as a whole (language detection); t's own slices are not shared.
func (t *tokenized) with(u *tokenized) *tokenized {
	if len(u.toks) == 0 {
		return t
	}
	w := &tokenized{toks: append(append(make([]string, 0, len(t.toks)+len(u.toks)), t.toks...), u.toks...), words: t.words + u.words,
		sample: prefix(t.sample+" "+u.sample, trigramSample)}
	for s := range w.scripts {
		w.scripts[s] = t.scripts[s] + u.scripts[s]
	}
	return w
}

// prefix returns at most n bytes of s, not cutting a rune in two.
func prefix(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// Segment kinds.
const (
	segSkip     = iota // no letter or digit
	segWord            // a word of a spaced script, or a number
	segUnspaced        // letters of an unspaced script
)

// segmentKind says what a UAX #29 segment is, counting its letters by
// script.
func segmentKind(w string, scripts *[numScripts]int) int {
	kind := segSkip
	for _, r := range w {
		s := scriptOf(r)
		if s == scriptNone {
			if kind == segSkip && unicode.IsDigit(r) {
				kind = segWord
			}
			continue
		}
		scripts[s]++
		if scriptInfo[s].unspced {
			kind = segUnspaced
		} else if kind == segSkip {
			kind = segWord
		}
	}
	return kind
}

// apostropheParts yields the parts of a word between apostrophes (ASCII,
// typographic and modifier-letter apostrophes).
func apostropheParts(w string) func(func(string) bool) {
	return func(yield func(string) bool) {
		for {
			i := strings.IndexAny(w, "'\u2019\u02bc")
			if i < 0 {
				yield(w)
				return
			}
			if !yield(w[:i]) {
				return
			}
			_, size := utf8.DecodeRuneInString(w[i:])
			w = w[i+size:]
		}
	}
}

// normalizeWord lower-cases a word and folds what readers do not tell apart
// (see tokenize); "" when nothing is left.
func normalizeWord(w string) string {
	ascii := true
	for i := 0; i < len(w); i++ {
		if w[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return lower(w)
	}
	return strings.Map(foldRune, strings.ToLower(w))
}

// foldRune is normalizeWord's mapping of one rune of a lower-cased word: -1
// drops it.
func foldRune(r rune) rune {
	switch {
	case r < 0x0591:
		return r
	case r <= 0x05C7: // Hebrew points and cantillation
		if unicode.Is(unicode.Mn, r) {
			return -1
		}
	case r >= 0x0610 && r <= 0x06FF:
		switch {
		case r == 0x0640, // tatweel
			r >= 0x064B && r <= 0x065F, r == 0x0670, // harakat, superscript alef
			r >= 0x0610 && r <= 0x061A, r >= 0x06D6 && r <= 0x06ED: // Quranic marks
			return -1
		}
	case r >= 0xFF01 && r <= 0xFF5E: // full-width ASCII
		return unicode.ToLower(r - 0xFF01 + '!')
	}
	return r
}

// unifyArabicLetters unifies the Arabic letters that writers interchange
// (alef forms, teh marbuta and heh, alef maksura and the yeh forms, keheh and
// kaf), as Lucene's Arabic and Persian normalizers do. Terms applies it to
// words without a stemmer: Snowball's Arabic stemmer does this itself and
// needs the letters as written to find suffixes.
func unifyArabicLetters(w string) string {
	if !strings.ContainsFunc(w, func(r rune) bool { return r >= 0x0622 && r <= 0x06CC }) {
		return w
	}
	return strings.Map(func(r rune) rune {
		switch r {
		case 'آ', 'أ', 'إ', 'ٱ':
			return 'ا'
		case 'ة':
			return 'ه'
		case 'ى', 'ی':
			return 'ي'
		case 'ک':
			return 'ك'
		}
		return r
	}, w)
}

// lower lower-cases s, without allocating when it is already lower-case ASCII.
func lower(s string) string {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf || (c >= 'A' && c <= 'Z') {
			return strings.ToLower(s)
		}
	}
	return s
}

// keepToken reports whether a token may become a term: not a pure number
// and longer than one letter, unless it is one letter of an unspaced script
// (a Chinese word of one character).
func keepToken(t string) bool {
	r, size := utf8.DecodeRuneInString(t)
	if size == len(t) {
		return unspaced(r)
	}
	for _, r := range t {
		if !unicode.IsDigit(r) {
			return true
		}
	}
	return false
}

// StemCache remembers the stems of words across documents, so that a word is
// stemmed once per run rather than once per page. It is safe for concurrent
// use and bounded: past its size it stops learning new words (a language's
// common words come first, so it keeps the words that matter).
type StemCache struct {
	mu    sync.RWMutex
	stems map[string]map[string]string // language code -> word -> stem
	n     int                          // words held
	max   int
}

// NewStemCache returns a cache of at most max words (0: 1<<18).
func NewStemCache(max int) *StemCache {
	if max <= 0 {
		max = 1 << 18
	}
	return &StemCache{stems: make(map[string]map[string]string), max: max}
}

func (c *StemCache) get(code, word string) (string, bool) {
	c.mu.RLock()
	s, ok := c.stems[code][word]
	c.mu.RUnlock()
	return s, ok
}

func (c *StemCache) put(learned map[string]string, code string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	m := c.stems[code]
	if m == nil {
		m = make(map[string]string, 1024)
		c.stems[code] = m
	}
	for w, s := range learned {
		if c.n >= c.max {
			return
		}
		if _, ok := m[w]; !ok {
			m[w] = s
			c.n++
		}
	}
}

// Terms turns text into index terms for the language code: the tokens of
// tokenize without pure numbers and one-letter tokens, without the
// language's stop words, Snowball-stemmed where the language has a stemmer.
// For a code the package does not know, tokens are only filtered for numbers
// and length. Terms keep text order.
func Terms(text, code string) []string {
	return termsOf(tokenize(text, 0).toks, code, nil)
}

// scriptLanguage is the language that reads the words of a script other
// than that of the document's language: the Arabic of an English page's
// Arabic menu is stemmed as Arabic, so that a bilingual site's captures
// have the same terms whichever of its languages detection named.
var scriptLanguage = map[script]string{
	scriptLatin: "en", scriptCyrillic: "ru", scriptArabic: "ar", scriptGreek: "el",
	scriptArmenian: "hy", scriptDevanagari: "hi",
}

// stemmer stems the words of one language for one document: learned holds
// the stems of its words (which the StemCache learns after the document).
type stemmer struct {
	l       *language
	learned map[string]string
	env     *snowballstem.Env
}

func (st *stemmer) stem(t string, cache *StemCache) string {
	if s, ok := st.learned[t]; ok {
		return s
	}
	if cache != nil {
		if s, ok := cache.get(st.l.code, t); ok {
			return s
		}
	}
	if st.env == nil {
		st.env = snowballstem.NewEnv("")
	}
	st.env.SetCurrent(t)
	st.l.stem(st.env)
	s := st.env.Current()
	if s == "" {
		s = t
	}
	st.learned[t] = s
	return s
}

// termsOf is Terms over tokens from tokenize, read in the language code,
// words of another script in that script's language (scriptLanguage);
// cache, when not nil, holds stems learnt from earlier documents and learns
// this one's.
func termsOf(toks []string, code string, cache *StemCache) []string {
	base := languages[code]
	out := make([]string, 0, len(toks)/2)
	var stemmers []*stemmer
	stemmerOf := func(l *language) *stemmer {
		for _, st := range stemmers {
			if st.l == l {
				return st
			}
		}
		st := &stemmer{l: l, learned: map[string]string{}}
		stemmers = append(stemmers, st)
		return st
	}
	if cache != nil {
		defer func() {
			for _, st := range stemmers {
				cache.put(st.learned, st.l.code)
			}
		}()
	}
	for _, t := range toks {
		if !keepToken(t) {
			continue
		}
		l := base
		if r, _ := utf8.DecodeRuneInString(t); base != nil {
			if sc := scriptOf(r); sc != scriptNone && sc != base.script {
				if alt := languages[scriptLanguage[sc]]; alt != nil {
					l = alt
				}
			}
		}
		if l != nil && l.stop[t] {
			continue
		}
		if l == nil || l.stem == nil {
			t = unifyArabicLetters(t)
		} else {
			t = stemmerOf(l).stem(t, cache)
		}
		out = append(out, t)
	}
	return out
}
