package extract

import (
	"bytes"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// The text of a raw text element (a script, a style) is most of the bytes
// of many pages, and the tokenizer reads it a byte at a time, checking each
// for the end tag. The builder finds the end itself (bytes.IndexByte for
// each '<') where the tokenizer would find it with certainty, hands the
// text on as the tokenizer's text token, and goes on with a tokenizer from
// the end tag.

// rawTextElement reports whether the tokenizer reads what follows a start tag of
// element a as raw text, unescaped, to the element's end tag (textarea and
// title are escaped text; plaintext has no end).
func rawTextElement(a atom.Atom) bool {
	switch a {
	case atom.Script, atom.Style, atom.Noscript, atom.Iframe, atom.Noframes, atom.Noembed, atom.Xmp:
		return true
	}
	return false
}

// rawTextEnd returns where the raw text of element name (lower case) that
// starts at from in text ends: at its end tag ("</name" in any case, then
// white space, '/' or '>'), as the tokenizer finds it, through a script's
// escaped states where it holds a "<!--" (see scriptEnd); -1 when the page
// ends first.
func rawTextEnd(text []byte, from int, name string) int {
	for i := from; ; i++ {
		k := bytes.IndexByte(text[i:], '<')
		if k < 0 {
			return -1
		}
		i += k
		rest := text[i+1:]
		if len(rest) > 0 && rest[0] == '!' && name == "script" && bytes.HasPrefix(rest, []byte("!--")) {
			return scriptEnd(text, from) // the script data's escaped states
		}
		if len(rest) < len(name)+2 || rest[0] != '/' || !equalFoldASCII(rest[1:1+len(name)], name) {
			continue
		}
		switch rest[1+len(name)] {
		case ' ', '\n', '\r', '\t', '\f', '/', '>':
			return i
		}
	}
}

// equalFoldASCII reports whether s is lower (lower-case letters) in any
// case, as the tokenizer compares an end tag's name: each byte the letter
// or its upper case.
func equalFoldASCII(s []byte, lower string) bool {
	for i := range len(s) {
		if s[i]|0x20 != lower[i] {
			return false
		}
	}
	return true
}

// readRawText reads the raw text of element a whose start tag was the
// last token, when rawTextEnd finds its end, into the builder as the
// tokenizer's text token (the page's bytes: the builder need not copy
// them), and reports whether it did: the end tag is read next.
// The text of a title or a textarea (escaped text) has its character
// references unescaped, as Tokenizer.Text does.
func (b *builder) readRawText(a atom.Atom) bool {
	from := int(b.pos)
	end := rawTextEnd(b.text, from, a.String())
	if end < 0 {
		return false
	}
	if end > from {
		b.tokFrom, b.pos = b.pos, int32(end)
		data := rawData(b.text[from:end])
		if (a == atom.Title || a == atom.Textarea) && bytes.IndexByte(data, '&') >= 0 {
			data = []byte(html.UnescapeString(string(data)))
		}
		b.tok = btoken{typ: html.TextToken, data: data, attrs: b.attrs[:0]}
		b.textStable = true
		b.parseCurrentToken()
		b.textStable = false
	}
	return true
}

// rawData is what Tokenizer.Text gives of raw text s: carriage returns
// (alone or before a line feed) made line feeds, NUL made U+FFFD; s itself
// when it has neither, else a new slice.
func rawData(s []byte) []byte {
	if bytes.IndexByte(s, '\r') < 0 && bytes.IndexByte(s, 0) < 0 {
		return s
	}
	out := make([]byte, 0, len(s)+8)
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\r':
			if i+1 < len(s) && s[i+1] == '\n' {
				continue
			}
			out = append(out, '\n')
		case 0:
			out = append(out, "\ufffd"...)
		default:
			out = append(out, c)
		}
	}
	return out
}
