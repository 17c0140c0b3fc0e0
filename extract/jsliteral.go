package extract

import (
	"strings"
	"unicode/utf8"
)

// Reading JavaScript source as the embedded-data harvest needs it: string
// literals (jsString, jsUnescape) and the extent of an expression (jsExpr).

func isJSSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// jsString reads the JavaScript string literal that opens at s[i] (a
// quote) and returns the index of its closing quote and its raw content;
// ok is false when it is not closed on its line (then j is where reading
// stopped).
func jsString(s string, i int) (j int, raw string, ok bool) {
	q := s[i]
	for j = i + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case q:
			return j, s[i+1 : j], true
		case '\n':
			return j, "", false
		}
	}
	return len(s), "", false
}

// jsExpr returns the JavaScript expression that starts at s[i]: up to the
// bracket that closes s[i] when it opens one, else up to the first ';' or
// unmatched closing bracket outside brackets, strings and comments, or
// the end; at most maxBlob bytes.
func jsExpr(s string, i int) string {
	depth := 0
	opens := s[i] == '{' || s[i] == '[' || s[i] == '('
	end := min(len(s), i+maxBlob)
	for j := i; j < end; j++ {
		switch c := s[j]; c {
		case '"', '\'':
			k, _, _ := jsString(s, j)
			j = k
		case '`':
			k := strings.IndexByte(s[j+1:], '`')
			if k < 0 {
				return s[i:end]
			}
			j += k + 1
		case '/':
			if j+1 < len(s) && s[j+1] == '/' {
				k := strings.IndexByte(s[j:], '\n')
				if k < 0 {
					return s[i:end]
				}
				j += k
			} else if j+1 < len(s) && s[j+1] == '*' {
				k := strings.Index(s[j+2:], "*/")
				if k < 0 {
					return s[i:end]
				}
				j += k + 3
			}
		case '{', '[', '(':
			depth++
		case '}', ']', ')':
			depth--
			if depth < 0 {
				return s[i:j]
			}
			if depth == 0 && opens {
				return s[i : j+1]
			}
		case ';':
			if depth == 0 {
				return s[i:j]
			}
		}
	}
	return s[i:min(end, len(s))]
}

// jsUnescape decodes the escapes of a JavaScript string literal's content:
// \n and the like (as spaces), \xHH, \uHHHH (surrogate pairs joined),
// \u{H...}, and a backslash before any other character, or before an
// escape whose digits are missing.
func jsUnescape(s string) string {
	if strings.IndexByte(s, '\\') < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch e := s[i]; e {
		case 'n', 'r', 't', 'f', 'v':
			b.WriteByte(' ')
		case 'b', '0':
		case 'x':
			if r, ok := hexRune(s, i+1, 2); ok {
				b.WriteRune(r)
				i += 2
			} else {
				b.WriteByte(e)
			}
		case 'u':
			if i+1 < len(s) && s[i+1] == '{' {
				if k := strings.IndexByte(s[i:], '}'); k > 2 && k < 10 {
					if r, ok := hexRune(s, i+2, k-2); ok {
						b.WriteRune(r)
					}
					i += k
				}
				continue
			}
			r, ok := hexRune(s, i+1, 4)
			if !ok {
				b.WriteByte(e)
				continue
			}
			i += 4
			if utf16Surrogate(r) && i+6 < len(s) && s[i+1] == '\\' && s[i+2] == 'u' {
				if r2, ok := hexRune(s, i+3, 4); ok {
					if c := combineSurrogates(r, r2); c != utf8.RuneError {
						b.WriteRune(c)
						i += 6
						continue
					}
				}
			}
			b.WriteRune(r)
		default:
			b.WriteByte(e)
		}
	}
	return b.String()
}

// hexRune reads n hex digits at s[i:].
func hexRune(s string, i, n int) (rune, bool) {
	if i+n > len(s) {
		return 0, false
	}
	var r rune
	for _, c := range []byte(s[i : i+n]) {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}

func utf16Surrogate(r rune) bool { return r >= 0xD800 && r < 0xDC00 }

func combineSurrogates(hi, lo rune) rune {
	if lo < 0xDC00 || lo >= 0xE000 {
		return utf8.RuneError
	}
	return (hi-0xD800)<<10 | (lo - 0xDC00) + 0x10000
}
