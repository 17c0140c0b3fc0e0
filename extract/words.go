package extract

import (
	"strings"
	"unicode/utf8"
)

// wordWriter builds a text with its white space collapsed: the words (runs
// of characters other than white space, as strings.Fields splits them)
// joined by single spaces, up to max words (0: no cap). It is what
// strings.Join(strings.Fields(text), " ") gives, without the slice of words.
type wordWriter struct {
	b    strings.Builder
	n    int  // words begun
	max  int  // 0: no cap
	in   bool // the last byte written belongs to a word
	full bool // max words (or their bytes, see textBytes) written: the rest is dropped
}

// bytesPerWord is how many bytes a capped text keeps for each word of its
// cap (see textBytes).
const bytesPerWord = 10

// textBytes is the most bytes a text capped at max words keeps (0: no
// cap): a page written without spaces (Chinese, Japanese, Thai, or junk)
// is few words of millions of bytes, which every copy of its document
// would carry. Ten bytes a word (2 MB for DefaultMaxWords) is more than
// the tokens capped at max take of any script, so terms never change.
func textBytes(max int) int { return max * bytesPerWord }

// brk ends the current word, as white space would.
func (w *wordWriter) brk() { w.in = false }

// write appends s.
func (w *wordWriter) write(s string) {
	for i := 0; i < len(s) && !w.full; {
		// Skip white space.
		for i < len(s) {
			c := s[i]
			if c < utf8.RuneSelf {
				if !asciiSpace[c] {
					break
				}
				i++
				w.in = false
				continue
			}
			r, size := utf8.DecodeRuneInString(s[i:])
			if !isSpace(r) {
				break
			}
			i += size
			w.in = false
		}
		if i >= len(s) {
			return
		}
		// A run of word bytes.
		j := i
		for j < len(s) {
			c := s[j]
			if c < utf8.RuneSelf {
				if asciiSpace[c] {
					break
				}
				j++
				continue
			}
			r, size := utf8.DecodeRuneInString(s[j:])
			if isSpace(r) {
				break
			}
			j += size
		}
		limit := textBytes(w.max)
		if !w.in {
			sep := min(w.n, 1)
			_, first := utf8.DecodeRuneInString(s[i:])
			if w.max > 0 && (w.n >= w.max || w.b.Len()+sep+first > limit) {
				w.full = true
				return
			}
			if sep > 0 {
				w.b.WriteByte(' ')
			}
			w.n++
			w.in = true
		}
		if w.max > 0 && w.b.Len()+j-i > limit {
			j = i + limit - w.b.Len()
			for j > i && !utf8.RuneStart(s[j]) {
				j-- // cut on a rune's start
			}
			w.b.WriteString(s[i:j])
			w.full = true
			return
		}
		w.b.WriteString(s[i:j])
		i = j
	}
}

// isSpace is unicode.IsSpace (White_Space) without its table search: the
// white space outside ASCII is a dozen code points.
func isSpace(r rune) bool {
	if r < utf8.RuneSelf {
		return asciiSpace[r]
	}
	switch {
	case r == 0x85, r == 0xA0, r == 0x1680, 0x2000 <= r && r <= 0x200A, r == 0x2028, r == 0x2029, r == 0x202F,
		r == 0x205F, r == 0x3000:
		return true
	}
	return false
}

// asciiSpace are the ASCII bytes unicode.IsSpace reports.
var asciiSpace = [utf8.RuneSelf]bool{'\t': true, '\n': true, '\v': true, '\f': true, '\r': true, ' ': true}

// collapseSpace returns s with its white space collapsed (see wordWriter)
// and its word count, at most max words (0: no cap).
func collapseSpace(s string, max int) (string, int) {
	w := wordWriter{max: max}
	w.write(s)
	return w.b.String(), w.n
}
