package extract

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/clipperhouse/uax29/v2/words"
)

// fieldsJoined is what wordWriter must equal: the words of s as
// strings.Fields splits them, at most max (0: all), joined by spaces, and
// of that at most textBytes(max) bytes, cut at a rune's start.
func fieldsJoined(s string, max int) (string, int) {
	f := strings.Fields(s)
	if max > 0 && len(f) > max {
		f = f[:max]
	}
	joined := strings.Join(f, " ")
	if limit := textBytes(max); max > 0 && len(joined) > limit {
		cut := limit
		for cut > 0 && !utf8.RuneStart(joined[cut]) {
			cut--
		}
		f = strings.Fields(joined[:cut])
		joined = strings.Join(f, " ")
	}
	return joined, len(f)
}

func TestCollapseSpace(t *testing.T) {
	tests := []struct {
		in   string
		max  int
		want string
		n    int
	}{
		{"", 0, "", 0},
		{"  \t\n ", 0, "", 0},
		{"one", 0, "one", 1},
		{"  one  two\r\nthree\v\f", 0, "one two three", 3},
		{"no\u00a0break\u0085nel\u2003em\u3000ideo", 0, "no break nel em ideo", 5},
		{"zero\u200bwidth", 0, "zero\u200bwidth", 1}, // not white space for unicode.IsSpace
		{"bad\xffbyte \xfe", 0, "bad\xffbyte \xfe", 2},
		{"a b c d", 2, "a b", 2},
		{"  a   b  ", 1, "a", 1},
		// Ten bytes a word of the cap: a text written without spaces is
		// cut, on a rune's start, however few its words.
		{strings.Repeat("字", 8), 2, strings.Repeat("字", 6), 1},
		{"ab " + strings.Repeat("字", 8), 2, "ab " + strings.Repeat("字", 5), 2},
		{strings.Repeat("x", 19) + " y", 2, strings.Repeat("x", 19), 1},
	}
	for _, tt := range tests {
		got, n := collapseSpace(tt.in, tt.max)
		if got != tt.want || n != tt.n {
			t.Errorf("collapseSpace(%q, %d) = %q, %d; want %q, %d", tt.in, tt.max, got, n, tt.want, tt.n)
		}
	}
	// Random text in random pieces, with breaks between some: the same as
	// strings.Fields over the pieces joined with a space at each break.
	alphabet := []string{"a", "Z", "é", "\u00a0", " ", "\t", "\n", "\u2028", "\xff", "字", "\u0085", "\r\n",
		"\u3000", "\u1680", "\u2013", "\u00a9", "\xc2", "\xe2\x80", "\xe3"}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 2000; i++ {
		w := wordWriter{max: rng.IntN(4)}
		var joined strings.Builder
		for p := rng.IntN(6); p >= 0; p-- {
			var piece strings.Builder
			for c := rng.IntN(8); c >= 0; c-- {
				piece.WriteString(alphabet[rng.IntN(len(alphabet))])
			}
			w.write(piece.String())
			joined.WriteString(piece.String())
			if rng.IntN(3) == 0 {
				w.brk()
				joined.WriteByte(' ')
			}
		}
		want, n := fieldsJoined(joined.String(), w.max)
		if got := w.b.String(); got != want || w.n != n {
			t.Fatalf("pieces of %q (max %d): %q, %d words; want %q, %d", joined.String(), w.max, got, w.n, want, n)
		}
	}
}

// TestWriteCollapsed: text collapsed by appendCollapsed, of the words it
// counts, written by writeCollapsed, is what write makes of the text, word
// caps, byte caps and breaks included, in valid UTF-8 and not (stray lead
// and continuation bytes, cut runes).
func TestWriteCollapsed(t *testing.T) {
	alphabet := []string{"a", "é", "xyzzyxyzzy", " ", "  ", "\n", "\u00a0", "\u0085", "\u1680", "\u2003", "\u2028",
		"\u205f", "\u3000", "\u2013", "\u00a9", "字", "\xc2", "\xe2", "\xe2\x80", "\xe3\x80", "\xe1", "\x80",
		"\x85", "\xa0", "\xff"}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 5000 {
		max := rng.IntN(6)
		w, c := wordWriter{max: max}, wordWriter{max: max}
		var steps []string
		for p := rng.IntN(6); p >= 0; p-- {
			if rng.IntN(4) == 0 {
				w.brk()
				c.brk()
				steps = append(steps, "brk")
				continue
			}
			var b strings.Builder
			for k := rng.IntN(8); k >= 0; k-- {
				b.WriteString(alphabet[rng.IntN(len(alphabet))])
			}
			piece := b.String()
			steps = append(steps, piece)
			collapsed, n := appendCollapsed(nil, piece)
			if want := len(strings.Fields(piece)); n != want {
				t.Fatalf("appendCollapsed(%q) counts %d words, want %d", piece, n, want)
			}
			if rng.IntN(2) == 0 {
				collapsed, _ = appendCollapsed(nil, []byte(piece))
			}
			w.write(piece)
			c.writeCollapsed(collapsed, n)
			if w.b.String() != c.b.String() || w.n != c.n || w.in != c.in || w.full != c.full {
				t.Fatalf("max %d, steps %q: writeCollapsed gives %q (%d words, in %v, full %v), write %q (%d, %v, %v)",
					max, steps, c.b.String(), c.n, c.in, c.full, w.b.String(), w.n, w.in, w.full)
			}
		}
	}
}

// TestIsSpace: isSpace is unicode.IsSpace.
func TestIsSpace(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if isSpace(r) != unicode.IsSpace(r) {
			t.Fatalf("isSpace(%U) = %v", r, isSpace(r))
		}
	}
}

// TestLowerRune: lowerRune is unicode.ToLower.
func TestLowerRune(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if lowerRune(r) != unicode.ToLower(r) {
			t.Fatalf("lowerRune(%U) = %U, want %U", r, lowerRune(r), unicode.ToLower(r))
		}
	}
}

// TestSegmentKindASCII: segmentKind's ASCII path counts and classifies as
// reading every rune through scriptOf does.
func TestSegmentKindASCII(t *testing.T) {
	byRunes := func(w string, scripts *[numScripts]int) int {
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
	parts := []string{"", "a", "Z", "0", "9", "@", "[", "`", "{", "_", "-", " ", "\x00", "\xff", "é", "中", "ก", "١", "ß", "'"}
	for _, a := range parts {
		for _, b := range parts {
			for _, c := range parts {
				w := a + b + c
				var got, want [numScripts]int
				if k, wk := segmentKind(w, &got), byRunes(w, &want); k != wk || got != want {
					t.Errorf("segmentKind(%q) = %d %v, want %d %v", w, k, got, wk, want)
				}
			}
		}
	}
}

// TestKeepToken: a token becomes a term unless it is a number or one
// letter of a spaced script.
func TestKeepToken(t *testing.T) {
	for tok, want := range map[string]bool{
		"": false, "a": false, "é": false, "@": false, "12": false, "١٢": false, "2024": false,
		"ab": true, "a1": true, "1a": true, "Ab": true, "éa": true, "@@": true, "中": true, "中文": true, "z9": true,
	} {
		if got := keepToken(tok); got != want {
			t.Errorf("keepToken(%q) = %v, want %v", tok, got, want)
		}
	}
}

// TestSegmenter: the segmenter cuts texts where the words package's
// iterator does: ASCII and not, spaces single and repeated, combining
// marks and joiners after spaces, regional indicators, apostrophes,
// numbers, broken UTF-8.
func TestSegmenter(t *testing.T) {
	pieces := []string{"a", "Word", "42", " ", "  ", "\t", "\n", ".", ",", "'", ":", "-", "_", "é", "字", "ก", "\u0301",
		"\u200d", "\u00a0", "\U0001F1EB", "\U0001F1F7", "\U0001F600", "3.5", "e.g.", "don't", "\xff", "\u05d0", "\""}
	rng := rand.New(rand.NewPCG(11, 12))
	for range 20000 {
		text := randomText(rng, pieces, 10)
		var want, got []string
		for it := words.FromString(text); it.Next(); {
			want = append(want, it.Value())
		}
		for s := newSegmenter(text); s.next(); {
			got = append(got, s.w)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("segments of %q: %q, want %q", text, got, want)
		}
	}
}

// TestTokenizeASCIIWords: tokenize's tokens, word count and letters by
// script are those of reading every segment the words iterator gives with
// segmentKind, apostropheParts and normalizeWord (as tokenize reads all but
// ASCII words and numbers, which it takes whole).
func TestTokenizeASCIIWords(t *testing.T) {
	slow := func(text string) *tokenized {
		want := &tokenized{}
		var run unspacedRun
		for it := words.FromString(text); it.Next(); {
			w := it.Value()
			switch segmentKind(w, &want.scripts) {
			case segSkip:
				continue
			case segUnspaced:
				run.add(w, 0)
				continue
			}
			run.flush(want, 0)
			for part := range apostropheParts(w) {
				if tok := normalizeWord(part); tok != "" {
					want.toks = append(want.toks, tok)
				}
			}
			want.words++
		}
		run.flush(want, 0)
		return want
	}
	pieces := []string{"Word", "a", "42", "x9", " ", "  ", "\n", ".", ",", "'", "don't", "e.g.", "é", "字字", "ก", "\u0301", "3.5", "_", "ＡＢ"}
	rng := rand.New(rand.NewPCG(15, 16))
	for range 20000 {
		text := randomText(rng, pieces, 10)
		got, want := tokenize(text, 0), slow(text)
		if !slices.Equal(got.toks, want.toks) || got.words != want.words || got.scripts != want.scripts {
			t.Fatalf("tokenize(%q) = %q, %d words, %v; want %q, %d, %v", text, got.toks, got.words, got.scripts, want.toks, want.words, want.scripts)
		}
	}
}

// randomText joins one to max pieces picked at random.
func randomText(rng *rand.Rand, pieces []string, max int) string {
	var b strings.Builder
	for k := rng.IntN(max); k >= 0; k-- {
		b.WriteString(pieces[rng.IntN(len(pieces))])
	}
	return b.String()
}
