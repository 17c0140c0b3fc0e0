package extract

import (
	"strings"
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

// Terms turns text into index terms for the language code: lower-cased
// tokens (Unicode letters and digits) without pure numbers and one-letter
// tokens, without the language's stop words, Snowball-stemmed where the
// language has a stemmer. For a code the package does not know, tokens are
// only filtered for numbers and length. Terms keep text order.
func Terms(text, code string) []string {
	return termsOf(tokenize(text, 0), code)
}

// termsOf is Terms over tokens from tokenize.
func termsOf(toks []string, code string) []string {
	l := languages[code]
	out := make([]string, 0, len(toks)/2)
	var stems map[string]string
	if l != nil && l.stem != nil {
		stems = make(map[string]string, 256)
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
				if !ok {
					s = l.stem(t, false)
					if s == "" {
						s = t
					}
					stems[t] = s
				}
				t = s
			}
		}
		out = append(out, t)
	}
	return out
}
