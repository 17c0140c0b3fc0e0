package extract

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// lexTokens reads page with the builder's next, as run does but without
// the parser, and describes each token (type, where it ends, its text or
// tag name and attributes kept).
func lexTokens(page []byte) []string {
	b := newBuilder(page, newPageReader(0))
	var out []string
	for {
		tt := b.next()
		if tt == html.ErrorToken {
			return out
		}
		out = append(out, fmt.Sprintf("%v@%d %q %q %v %v", b.tok.typ, b.pos, b.tok.data, b.tok.name, b.tok.attrs, b.tok.selfClosing))
		raw := (tt == html.StartTagToken || tt == html.SelfClosingTagToken) && readsRaw(b.tok.atom)
		switch {
		case !raw:
			b.z = nil
		case b.z == nil:
			b.z = html.NewTokenizer(bytes.NewReader(b.text[b.tokFrom:]))
			b.z.Next()
		}
	}
}

// tokenizerTokens describes the tokens of page as x/net/html's tokenizer
// alone reads them (see lexTokens).
func tokenizerTokens(page []byte) []string {
	b := newBuilder(page, newPageReader(0))
	b.z = html.NewTokenizer(bytes.NewReader(page))
	var out []string
	for {
		tt := b.z.Next()
		if tt == html.ErrorToken {
			return out
		}
		b.pos += int32(len(b.z.Raw()))
		b.readToken(tt)
		out = append(out, fmt.Sprintf("%v@%d %q %q %v %v", b.tok.typ, b.pos, b.tok.data, b.tok.name, b.tok.attrs, b.tok.selfClosing))
	}
}

// TestLexAsTheTokenizer: the builder's own reading of text and tags gives
// the tokenizer's tokens, where it reads and where it leaves them to the
// tokenizer.
func TestLexAsTheTokenizer(t *testing.T) {
	pages := []string{
		"plain text only",
		"a < b and c <= d <3 <",
		"<p>a &amp; b &lt; c &nbsp; &notanentity; \r\n line\r end</p>",
		"<a href=x>y</a><A HREF='z' Class=\"c d\">w</A>",
		"<br/><br /><img src=x.png/><img src=\"x.png\"/><a b=/>c<a b/>d<a href=/x/ >e",
		"<div id=a id=b class=c class=d>x</div>",
		"<p =x>a<p a= >b<p a=>c<p\ta\n=\n'q'>d",
		"</>x</ >y</3>z<!-- c --><!DOCTYPE html><?xml v?><![CDATA[x]]>",
		"<div title='a > b'>x</div><div title=\"it's\">y</div>",
		"<p>unterminated <a href='x",
		"<p>unterminated tag <a",
		"<p>end tag </a",
		"<title>a &amp; <b>b</b></title><textarea>\r\nx</textarea><plaintext><p>all text",
		"<script>var a = '<p>';</script><style>p{}</style><noscript><p>n</p></noscript>",
		"<script><!-- document.write('<script></script>') --></script>after",
		"<svg><style>a</style></svg>",
		"<p a=1 b=\"2\" c='3' d e/>\x00<p\x00>x</p\x00>",
		"<p a=\"&amp;\" b=&lt;>x",
		"<!-->a<!--->b<!---->c<!-- x -- y --!>d<!-- --!-->e<!-- --!x> -->f<!-- ->g-->h<!--->->i<!--",
		"<!-- a --!",
		"<!-- a -",
		"<!-",
		"<!DOCTYPE html><!doctype><!DocTypeX y>a<!DOCTYP>b<!doctype",
		"<!--x--!!>y-->z",
		// Tags readTag refuses, one after the other (see tagTokenizer).
		"<a href=\"?a=1&amp;b=2\">x</a><a href='&lt;' class=\"&#x41;\">y</a><script src=\"a?b&amp;c\">var s = '<b>';</script>" +
			"<title lang=\"&amp;\">t &amp; u</title><img src=\"&quot;\"/><A HREF=\"x&amp;y\" >z</A><b class=\"\r\">w</b><p\x00 a=b>",
	}
	for _, p := range pages {
		checkLex(t, p, []byte(p))
	}
	for _, name := range []string{"real-1068", "dev"} {
		for _, r := range loadCollection(t, name) {
			payload, _ := Decode(r.header, r.body, DefaultMaxBytes)
			ct := r.header.Get("Content-Type")
			if mediaType(ct, payload) == "text/html" {
				text, _, _ := toUTF8(payload, ct, true)
				checkLex(t, r.uri, text)
			}
		}
	}
}

func checkLex(t *testing.T, name string, page []byte) {
	t.Helper()
	got, want := lexTokens(page), tokenizerTokens(page)
	for i := range max(len(got), len(want)) {
		if i >= len(got) || i >= len(want) || got[i] != want[i] {
			g, w := "(none)", "(none)"
			if i < len(got) {
				g = got[i]
			}
			if i < len(want) {
				w = want[i]
			}
			t.Errorf("%s: token %d: read %s, the tokenizer %s", name, i, g, w)
			return
		}
	}
}

// TestTextDataAsTheTokenizer: textData gives a text token's data as the
// tokenizer does: carriage returns made line feeds, each character
// reference unescaped as html.UnescapeString reads it in the whole text;
// the text itself when it has neither, else the buffer it is handed.
func TestTextDataAsTheTokenizer(t *testing.T) {
	pieces := []string{"&amp;", "&amp", "&ampx;", "&AMP;", "&copy=", "&copy", "&#38;", "&#x26", "&#x26z", "&#X41;", "&#12ab;", "&#", "&#;",
		"&", "&;", "&semi;", "&notit;", "&notin;", "&not", "&nbsp", "&nbsp;x", "&lt;3", "&lt3", "&fjlig;", "&nGt;", "&NotNestedLessLess;",
		"&#0;", "&#x110000;", "&#128;", "&#xD800;", "a", "=", ";", "é", " ", "x1", "\r", "\r\n", "\n", "\r\r", "&&", "&Z;", "text "}
	rng := rand.New(rand.NewPCG(15, 16))
	var buf []byte
	owned := 0
	for range 20000 {
		v := joinRandom(rng, pieces, 6)
		z := html.NewTokenizer(strings.NewReader(v))
		if z.Next() != html.TextToken {
			t.Fatalf("%q: no text token", v)
		}
		want := string(z.Text())
		got, stable := textData([]byte(v), &buf)
		if string(got) != want {
			t.Fatalf("textData(%q) = %q, the tokenizer %q", v, got, want)
		}
		if plain := !strings.ContainsAny(v, "&\r"); stable != plain || !stable && &got[0] != &buf[0] {
			t.Fatalf("textData(%q): stable %v, in the buffer %v", v, stable, !stable && &got[0] == &buf[0])
		}
		if !stable {
			owned++
		}
	}
	if owned < 10000 {
		t.Errorf("%d texts of 20,000 with a reference or a carriage return", owned)
	}
}

// TestAttrValueAsTheTokenizer: where attrValue reads an attribute value
// itself, it reads it as the tokenizer does (character references in an
// attribute, which are not all read as in text); it reads the commonest
// (&amp; in a link, a bare & before a name and '=') itself.
func TestAttrValueAsTheTokenizer(t *testing.T) {
	pieces := []string{"&amp;", "&amp", "&ampx;", "&AMP;", "&Amp;", "&copy=", "&copy", "&b=2", "&#38;", "&#x26", "&#", "&", "&;",
		"&semi;", "&notit;", "&notin;", "&not", "&nbsp", "&lt;3", "&lt3", "&fjlig;", "&NotNestedLessLess;", "&#0;", "&#x110000;",
		"&#128;", "&#xD800;", "a", "=", ";", "?", "é", " ", "x1", "\r", "\x00", "&&", "&=", "&x=", "&Z;"}
	rng := rand.New(rand.NewPCG(13, 14))
	read := 0
	for range 20000 {
		v := joinRandom(rng, pieces, 5)
		z := html.NewTokenizer(strings.NewReader(`<p a="` + v + `">`))
		z.Next()
		_, want, _ := z.TagAttr()
		if got, ok := attrValue([]byte(v)); ok {
			read++
			if string(got) != string(want) {
				t.Fatalf("attrValue(%q) = %q, the tokenizer %q", v, got, want)
			}
		}
	}
	if read < 5000 {
		t.Errorf("attrValue read %d values of 20,000 itself", read)
	}
	for _, v := range []string{"?a=1&amp;b=2", "?a=1&b=2", "a &amp; b", "&#233;t&#xE9;", "&nbsp;"} {
		if _, ok := attrValue([]byte(v)); !ok {
			t.Errorf("attrValue(%q) leaves it to the tokenizer", v)
		}
	}
}

// joinRandom joins 1 to max of pieces drawn at random.
func joinRandom(rng *rand.Rand, pieces []string, max int) string {
	var b strings.Builder
	for k := rng.IntN(max); k >= 0; k-- {
		b.WriteString(pieces[rng.IntN(len(pieces))])
	}
	return b.String()
}
