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
		if k := runEnd(s, i, true); k > i {
			i = k
			w.in = false
		}
		if i >= len(s) {
			return
		}
		// A run of word bytes.
		j := runEnd(s, i, false)
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

// writeCollapsed appends s, a text as appendCollapsed makes it, of words
// words: what write(s) appends, in one copy where the caps are not near.
func (w *wordWriter) writeCollapsed(s []byte, words int) {
	if w.full || len(s) == 0 {
		return
	}
	if words == 0 { // s is one space
		w.in = false
		return
	}
	from, to := 0, len(s)
	if s[0] == ' ' {
		from = 1
	}
	trail := s[to-1] == ' '
	if trail {
		to--
	}
	join := w.in && from == 0 // the first word goes on the word written last
	added, sep := words, 0
	if join {
		added--
	} else if w.n > 0 {
		sep = 1
	}
	if w.max > 0 && (w.n+added > w.max || w.b.Len()+sep+to-from > textBytes(w.max)) {
		w.write(string(s)) // word by word up to the caps
		return
	}
	if sep > 0 {
		w.b.WriteByte(' ')
	}
	w.b.Write(s[from:to])
	w.n += added
	w.in = !trail
}

// appendCollapsed appends s to dst with each run of white space (as
// unicode.IsSpace finds it) made one space, the leading and trailing runs
// too, and returns it and how many words s has (as strings.Fields splits
// them). wordWriter.write reads the result as it reads s.
func appendCollapsed[T string | []byte](dst []byte, s T) ([]byte, int) {
	n := 0
	from := 0 // s[from:] is yet to be appended
	for i := 0; i < len(s); {
		j := runEnd(s, i, false) // a run of word bytes
		if j > i {
			n++
		}
		if j >= len(s) {
			break
		}
		// A run of white space: it stays where it is one ' '.
		k := runEnd(s, j, true)
		if k > j+1 || s[j] != ' ' {
			dst = append(dst, s[from:j]...)
			dst = append(dst, ' ')
			from = k
		}
		i = k
	}
	return append(dst, s[from:]...), n
}

// runEnd returns where the run that starts at s[i] ends: of white space
// (as unicode.IsSpace finds it) when space, else of other bytes.
func runEnd[T string | []byte](s T, i int, space bool) int {
	for i < len(s) {
		if c := s[i]; c < utf8.RuneSelf {
			if asciiSpace[c] != space {
				return i
			}
			i++
			continue
		}
		sp, size := wideSpace(s, i)
		if sp != space {
			return i
		}
		i += size
	}
	return i
}

// wideSpace reports whether white space (unicode.IsSpace) starts at s[i],
// a byte outside ASCII that starts a rune or continues one, and how many
// bytes to step over. Only a rune that starts with 0xC2, 0xE1, 0xE2 or 0xE3
// can be such white space: every other byte is stepped one at a time,
// without decoding its rune (a continuation byte is no white space, so the
// runs of white space and of word bytes are those that decoding rune by
// rune finds, whether or not the text is valid UTF-8).
func wideSpace[T string | []byte](s T, i int) (space bool, size int) {
	switch c := s[i]; c {
	case 0xC2: // U+0085, U+00A0
		if i+1 < len(s) && s[i+1]&0xC0 == 0x80 {
			return s[i+1] == 0x85 || s[i+1] == 0xA0, 2
		}
	case 0xE1, 0xE2, 0xE3: // U+1680, U+2000-U+205F, U+3000
		if i+2 < len(s) && s[i+1]&0xC0 == 0x80 && s[i+2]&0xC0 == 0x80 {
			return isSpace(rune(c&0x0F)<<12 | rune(s[i+1]&0x3F)<<6 | rune(s[i+2]&0x3F)), 3
		}
	}
	return false, 1
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
