package extract

import (
	"bytes"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// The builder reads the page's text and tags itself, where it is sure to
// read them as x/net/html's tokenizer would (a byte search to the next
// '<', a tag's end found as the tokenizer finds it), and leaves the rest
// to the tokenizer: markup declarations other than comments and doctypes,
// "</" not followed by a letter, tags the builder cannot read (see
// readTag), a tag the page ends inside, and the text of elements it does
// not read itself (plaintext, and what readRawText does not read). The
// tokenizer reads a byte at a time through a buffered reader; the page's
// bytes are already in memory.
//
// b.z is the tokenizer while it reads: made at the builder's position
// when needed, and dropped once it is back in its data state (after any
// token but the start tag of an element whose text it reads raw).

// next reads the next token into b.tok and sets where it is in the page.
func (b *builder) next() html.TokenType {
	b.tokFrom, b.textStable = b.pos, false
	if b.z == nil {
		if tt, ok := b.lex(); ok {
			return tt
		}
		b.z = html.NewTokenizer(bytes.NewReader(b.text[b.pos:]))
	}
	b.z.AllowCDATA(len(b.oe) > 0 && b.oe[len(b.oe)-1].ns != "")
	tt := b.z.Next()
	b.pos += int32(len(b.z.Raw()))
	b.readToken(tt)
	return tt
}

// lex reads the token at b.pos when it is text or a tag the builder reads
// as the tokenizer would; false leaves it to the tokenizer.
func (b *builder) lex() (html.TokenType, bool) {
	s, i := b.text, int(b.pos)
	t := &b.tok
	if i >= len(s) {
		*t = btoken{typ: html.ErrorToken, attrs: b.attrs[:0]}
		return html.ErrorToken, true
	}
	if j := textEnd(s, i); j > i {
		data, stable := textData(s[i:j], &b.textBuf)
		*t = btoken{typ: html.TextToken, data: data, attrs: b.attrs[:0]}
		b.pos, b.textStable = int32(j), stable
		return html.TextToken, true
	}
	// s[i] is '<' followed by a letter, '/', '!' or '?'.
	if s[i+1] == '!' {
		if end := commentEnd(s, i); end > 0 {
			*t = btoken{typ: html.CommentToken, attrs: b.attrs[:0]}
			b.pos = int32(end)
			return html.CommentToken, true
		}
		if end := doctypeEnd(s, i); end > 0 {
			*t = btoken{typ: html.DoctypeToken, attrs: b.attrs[:0]}
			if b.doctype == nil {
				b.doctype = append([]byte(nil), s[i:end]...)
			}
			b.pos = int32(end)
			return html.DoctypeToken, true
		}
		return 0, false
	}
	tt, nameAt := html.StartTagToken, i+1
	if s[i+1] == '/' {
		if i+2 >= len(s) || !isASCIILetter(s[i+2]) {
			return 0, false
		}
		tt, nameAt = html.EndTagToken, i+2
	} else if !isASCIILetter(s[i+1]) {
		return 0, false
	}
	b.spans = b.spans[:0]
	end, valueEnd := tagEnd(s, nameAt, i, &b.spans)
	if end < 0 {
		return 0, false
	}
	if tt == html.StartTagToken && s[end-2] == '/' {
		if valueEnd == end-1 {
			return 0, false // "<a href=/>": whether it closes itself depends on the attributes the tokenizer keeps
		}
		tt = html.SelfClosingTagToken
	}
	*t = btoken{typ: tt, attrs: b.attrs[:0]}
	if !b.readTag(s[i:end], tt == html.EndTagToken, b.spans) {
		// A tokenizer reads this one: given the tag, it reads the same.
		if b.tags == nil {
			b.tags = newTagTokenizer()
		}
		z, ok := b.tags.read(s[i:end], tt)
		if !ok {
			b.unsafe, b.tags = true, nil
			return tt, true
		}
		*t = btoken{typ: tt, attrs: b.attrs[:0]}
		b.readTagSlow(z)
		if tt != html.EndTagToken && readsRaw(t.atom) {
			// It goes on to read the element's text, past the tag.
			b.z = html.NewTokenizer(bytes.NewReader(s[i:]))
			b.z.Next()
		}
	}
	b.attrs = t.attrs
	if tt == html.SelfClosingTagToken {
		t.typ, t.selfClosing = html.StartTagToken, true
	}
	b.pos = int32(end)
	return tt, true
}

// tagTokenizer is a tokenizer that reads one tag at a time, given it:
// one tokenizer (and its buffer) a page for the tags readTag refuses.
type tagTokenizer struct {
	z    *html.Tokenizer
	feed tagFeed
}

// tagFeed is what tagTokenizer's tokenizer reads: the tag it is given. It
// never ends (an end would stop the tokenizer for good): a tokenizer that
// reads past the tag reads nothing, and stops with an error after some
// tries.
type tagFeed struct{ b []byte }

func (f *tagFeed) Read(p []byte) (int, error) {
	n := copy(p, f.b)
	f.b = f.b[n:]
	return n, nil
}

func newTagTokenizer() *tagTokenizer {
	t := &tagTokenizer{}
	t.z = html.NewTokenizer(&t.feed)
	return t
}

// read has the tokenizer read tag, a tag of type tt, and returns it
// positioned on the tag; false when it read something else (the
// tokenizer is then of no more use).
func (t *tagTokenizer) read(tag []byte, tt html.TokenType) (*html.Tokenizer, bool) {
	t.feed.b = tag
	got := t.z.Next()
	if got != tt || len(t.z.Raw()) != len(tag) || len(t.feed.b) > 0 {
		return nil, false
	}
	t.z.NextIsNotRawText() // it reads tags only: never an element's raw text
	return t.z, true
}

// textEnd returns where the text that starts at s[i] ends: at the first
// '<' followed by a letter, '/', '!' or '?' (the tokenizer's tag open), or
// at the end of s.
func textEnd(s []byte, i int) int {
	for {
		k := bytes.IndexByte(s[i:], '<')
		if k < 0 {
			return len(s)
		}
		i += k
		if i+1 >= len(s) {
			return len(s)
		}
		if c := s[i+1]; isASCIILetter(c) || c == '/' || c == '!' || c == '?' {
			return i
		}
		i++
	}
}

// commentEnd returns where the comment that starts at s[i] ends, as the
// tokenizer's readComment finds it (after "-->", "--!>", or the '>' of
// "<!-->" and "<!--->"); -1 when s[i:] does not start with "<!--" (a
// doctype, a markup declaration, a bogus comment) or the page ends inside
// the comment.
func commentEnd(s []byte, i int) int {
	if !bytes.HasPrefix(s[i:], []byte("<!--")) {
		return -1
	}
	dashes, beginning := 0, true
	for i += 4; i < len(s); i++ {
		switch s[i] {
		case '-':
			dashes++
			continue
		case '>':
			if dashes >= 2 || beginning {
				return i + 1
			}
		case '!':
			if dashes >= 2 {
				if i++; i >= len(s) {
					return -1
				}
				switch s[i] {
				case '>':
					return i + 1
				case '-':
					dashes, beginning = 1, false
					continue
				}
			}
		}
		dashes, beginning = 0, false
	}
	return -1
}

// doctypeEnd returns where the doctype that starts at s[i] ends, as the
// tokenizer's readDoctype finds it (after the first '>' past "<!DOCTYPE",
// in any case); -1 when s[i:] does not start with "<!DOCTYPE" or the page
// ends inside it.
func doctypeEnd(s []byte, i int) int {
	const open = "<!doctype"
	if len(s)-i < len(open) || !equalFoldASCII(s[i+2:i+len(open)], open[2:]) {
		return -1
	}
	j := bytes.IndexByte(s[i+len(open):], '>')
	if j < 0 {
		return -1
	}
	return i + len(open) + j + 1
}

func isASCIILetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

// tagEnd returns where the tag whose name starts at s[i] ends (after its
// '>'), reading its name and attributes as the tokenizer's readTag does,
// and where the value of its last attribute ends when it is unquoted (else
// -1); end is -1 when the page ends inside the tag. It appends where its
// attributes are to *spans, as offsets from s[from] (the tag's '<'), so
// that readTag need not read them again.
func tagEnd(s []byte, i, from int, spans *[]attrSpan) (end, valueEnd int) {
	for i < len(s) && !isTagSpace(s[i]) && s[i] != '/' && s[i] != '>' {
		i++
	}
	valueEnd = -1
	for {
		for i < len(s) && isTagSpace(s[i]) {
			i++
		}
		if i >= len(s) {
			return -1, -1
		}
		if s[i] == '>' {
			return i + 1, valueEnd
		}
		k0 := i
		for i < len(s) {
			if c := s[i]; c == '=' && i > k0 || isTagSpace(c) || c == '/' || c == '>' {
				break
			}
			i++
		}
		if i >= len(s) {
			return -1, -1
		}
		k1 := i
		var val []byte
		val, i = tagAttrVal(s, i)
		if i >= len(s) {
			return -1, -1
		}
		if i > k0 { // an attribute, not a lone '/'
			*spans = append(*spans, spanOf(s, from, k0, k1, val))
			valueEnd = -1
			if len(val) > 0 && s[i-1] != '"' && s[i-1] != '\'' {
				valueEnd = i
			}
		}
	}
}

// textData is what Tokenizer.Text gives of text s read in the data state:
// carriage returns made line feeds, character references unescaped. It is
// s itself when s has neither (stable), else written over *buf.
// Each reference is unescaped on its own, as html.UnescapeString reads it:
// it reads a reference no further than its name (letters and digits,
// after '&' or "&#") and a ';' right after, and what follows it in the
// text does not change what it gives.
func textData(s []byte, buf *[]byte) (data []byte, stable bool) {
	amp, cr := bytes.IndexByte(s, '&'), bytes.IndexByte(s, '\r')
	if amp < 0 && cr < 0 {
		return s, true
	}
	out := (*buf)[:0]
	for i := 0; i < len(s); {
		switch c := s[i]; c {
		case '\r':
			if i+1 == len(s) || s[i+1] != '\n' {
				out = append(out, '\n')
			}
			i++
		case '&':
			e := i + 1
			if e < len(s) && s[e] == '#' {
				e++
			}
			for e < len(s) && (isASCIILetter(s[e]) || '0' <= s[e] && s[e] <= '9') {
				e++
			}
			if e < len(s) && s[e] == ';' {
				e++
			}
			out = append(out, html.UnescapeString(string(s[i:e]))...)
			i = e
		default:
			j := i + 1
			for j < len(s) && s[j] != '&' && s[j] != '\r' {
				j++
			}
			out = append(out, s[i:j]...)
			i = j
		}
	}
	*buf = out
	return out, false
}

// readsRaw reports whether the tokenizer reads the text after a start tag
// of element a raw, to the element's end tag (or the page's end).
func readsRaw(a atom.Atom) bool {
	return rawTextElement(a) || a == atom.Textarea || a == atom.Title || a == atom.Plaintext
}
