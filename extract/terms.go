package extract

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// tokenize splits text into lower-cased tokens: maximal runs of Unicode
// letters, digits and combining marks. It keeps every token (one-letter
// tokens and numbers included); max caps the count (0: no cap).
func tokenize(text string, max int) []string {
	var toks []string
	start := -1
	flush := func(end int) {
		if start >= 0 {
			toks = append(toks, lower(text[start:end]))
			start = -1
		}
	}
	for i, r := range text {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) {
			if start < 0 {
				start = i
			}
			continue
		}
		flush(i)
		if max > 0 && len(toks) >= max {
			return toks
		}
	}
	flush(len(text))
	if max > 0 && len(toks) > max {
		toks = toks[:max]
	}
	return toks
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

// keepToken reports whether a token may become a term: not a pure number and
// longer than one letter.
func keepToken(t string) bool {
	if utf8.RuneCountInString(t) < 2 {
		return false
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

// Terms turns text into index terms for the language code: lower-cased
// tokens (Unicode letters and digits) without pure numbers and one-letter
// tokens, without the language's stop words, Snowball-stemmed where the
// language has a stemmer. For a code the package does not know, tokens are
// only filtered for numbers and length. Terms keep text order.
func Terms(text, code string) []string {
	return termsOf(tokenize(text, 0), code, nil)
}

// termsOf is Terms over tokens from tokenize; cache, when not nil, holds
// stems learnt from earlier documents and learns this one's.
func termsOf(toks []string, code string, cache *StemCache) []string {
	l := languages[code]
	out := make([]string, 0, len(toks)/2)
	var stems, learned map[string]string
	if l != nil && l.stem != nil {
		stems = make(map[string]string, 256)
		if cache != nil {
			learned = map[string]string{}
			defer func() { cache.put(learned, code) }()
		}
	}
	for _, t := range toks {
		if !keepToken(t) {
			continue
		}
		if l != nil {
			if l.stop[t] || (l.isStop != nil && l.isStop(t)) {
				continue
			}
			if l.stem != nil {
				s, ok := stems[t]
				if !ok && cache != nil {
					s, ok = cache.get(code, t)
				}
				if !ok {
					s = l.stem(t, false)
					if s == "" {
						s = t
					}
					if learned != nil {
						learned[t] = s
					}
				}
				stems[t] = s
				t = s
			}
		}
		out = append(out, t)
	}
	return out
}
