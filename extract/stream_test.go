package extract

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// readBoth reads page with one streaming pass and from html.Parse's tree,
// and reports whether the stream read it (false: the page needs the tree).
func readBoth(t *testing.T, page string) (stream, tree *pageText, ok bool) {
	t.Helper()
	text := []byte(page)
	r := newPageReader(DefaultMaxWords)
	ok = streamPage(text, r)
	stream = r.finish()
	root, err := html.Parse(bytes.NewReader(text))
	if err != nil {
		t.Fatalf("html.Parse: %v", err)
	}
	r = newPageReader(DefaultMaxWords)
	readTree(root, r)
	tree = r.finish()
	return stream, tree, ok
}

// comparable returns what pt says of a page, every raw text read.
func comparable(pt *pageText) pageText {
	c := *pt
	c.replay.raw = nil
	for i := range pt.replay.raw {
		e := pt.replay.raw[i]
		e.text, e.from, e.to = pt.replay.text(&e), 0, 0
		c.replay.raw = append(c.replay.raw, e)
	}
	c.replay.src = nil
	return c
}

// sameReading fails t when the stream read page and read it otherwise
// than the tree.
func sameReading(t *testing.T, name, page string) bool {
	t.Helper()
	stream, tree, ok := readBoth(t, page)
	if ok {
		if s, tr := comparable(stream), comparable(tree); !reflect.DeepEqual(s, tr) {
			t.Errorf("%s: the stream reads\n%+v\nthe tree\n%+v", name, s, tr)
		}
	}
	return ok
}

func TestStreamReadsAsTheParser(t *testing.T) {
	script := "<script>\r\nvar u = 'http://elsewhere.example/';\r\nwindow.location.href = u;\x00\r</script>"
	for _, c := range []struct {
		name, page string
		stream     bool // the stream reads it (else it needs the tree)
	}{
		{"plain", `<!DOCTYPE html><html lang="fr"><head><title>T &amp; x</title></head><body><p>Un <b>deux</b>trois</p></body></html>`, true},
		{"implied ends", `<ul><li>one<li>two<p>three<p>four<dl><dt>a<dd>b</dl><h1>x<h2>y</h2>`, true},
		{"stray end tags", `<div>a</span>b</div></div></p>c<span>d</div>e`, true},
		{"text before body", `<html><head><title>t</title>words in head<meta http-equiv=refresh content="0; url=/x"></head>`, true},
		{"after head", `<html><head></head><meta property="og:title" content="OG"><script>var a = 1;</script><body>x</body>`, true},
		{"after body", `<body>a</body>b<!-- c --></html>d<p>e`, true},
		{"second html tag", `<html><body><p>x</p><html lang="de" data-x=y>`, true},
		{"second html tag hiding", `<html><body><p>x</p><html style="display:none">`, false},
		{"second body tag", `<body><p>x</p><body class="y" hidden>`, false},
		{"tables", `<table><caption>c</caption><col><tr><td>a<td>b</tr><tr><th>h</table><table><td>x</td></table>`, true},
		{"nested tables", `<table><tr><td><table><tr><td>in</td></tr></table>out</td></tr></table>after`, true},
		{"fostered br", `<div id="root"><table><br><tr><td>a</td></tr></table></div>`, true},
		{"fostered text", `<table>lost<tr><td>a</td></tr></table>`, false},
		{"fostered element", `<table><tr><td>a</td></tr><div>b</div></table>`, false},
		{"whitespace in tables", "<table>\n <tr>\n  <td>a</td>\n </tr>\n</table>", true},
		{"form in table", `<table><form><tr><td><input name=q></td></tr></form></table>`, true},
		{"reopened formatting", `<p><b class="x">one<p>two</b>three<p>four`, true},
		{"reopened link", `<ul class="menu"><li><a href="/a">one<li>two</ul><div class="sidebar">` + strings.Repeat("word ", 30) + `</div>`, true},
		{"misnested block", `<b>one<p>two</b>three</p>`, true},
		{"misnested block in a link", `<p>x<a href=1>menu<div class="nav">` + strings.Repeat("link ", 10) + `</a>after</div>` + strings.Repeat("word ", 30), true},
		{"misnested link holding the page", `<a href=1><div class="sidebar">` + strings.Repeat("word ", 30) + `</a>` + strings.Repeat("more ", 5) + `</div>`, true},
		{"misnested block with inline elements open", `<font face=x><p>one<span>two<i>three</font>four`, true},
		{"misnested mount point", `<b><div id="root"><span>x</span></b>y</div>`, true},
		{"misnested in a mount point", `<div id="app"><b>x<p>y</b>z</div>`, true},
		{"misnested hiding block", `<b>x<p hidden>y</b>z</p>w`, true},
		{"misnested in a cell", `<table><tr><td><b>x<p>y</b>z</td></tr></table>`, true},
		{"misnested twice", `<b>1<p>2</b>3<i>4<p>5</i>6`, true},
		{"misnested hiding formatting", `<b style="display:none">x<p>y</b>z`, false},
		{"misnested chrome link", `<a class="nav">x<p>y</a>z`, false},
		{"misnested blocks", `<b><div>x<p>y</b>z`, false},
		{"misnested block after a closed one", `<b><p>x<div>y</b>z`, true},
		{"misnested across inline", `<b><span><p>x</b>y`, false},
		{"misnested without block", `<b><i>one</b>two</i>`, true},
		{"noah's ark", strings.Repeat(`<font color=red>`, 6) + `x<p>y`, true},
		{"nested links", `<a href=1>one<a href=2>two</a>three`, true},
		{"svg", `<p>a<svg><title>t</title><g><p>out</p></g></svg>b<math><mi>x</mi></math>c`, true},
		{"foreign object", `<svg><foreignObject><div>in html</div></foreignObject><desc>d</desc></svg>after`, true},
		{"svg breakout", `<svg><circle/><font color=red>x</font>y</svg>z`, true},
		{"select", `<select><option>a<option>b<optgroup label=g><option>c</select>after`, true},
		{"pre and textarea", "<pre>\nline</pre><textarea>\nt</textarea><listing>\r\nl</listing>", true},
		{"raw text", `<xmp><b>x</b></xmp><iframe src="/f" width=100%><p>no</p></iframe><noembed>n</noembed>`, true},
		{"plaintext", `<p>a<plaintext><b>b</b>`, true},
		{"frameset", `<html><head><title>f</title></head><frameset cols="50%,*"><frame src="a.html"><frame src="b.html"><noframes>no frames here</noframes></frameset></html>`, true},
		{"frameset replacing body", `<div></div><frameset><frame src=a></frameset>`, false},
		{"frameset after body", `<body><div></div><frameset><frame src=a></frameset>`, true},
		{"template", `<template><p>x</p></template><p>y`, false},
		{"quirks table", `<p>a<table><tr><td>b</td></tr></table>c`, true},
		{"standards table", `<!DOCTYPE html><p>a<table><tr><td>b</td></tr></table>c`, true},
		{"legacy doctype", `<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN"><p>a<table><td>b</table>`, true},
		{"attributes", `<DIV CLASS="Nav" Class=x id=a&amp;b style="display:none">hidden</DIV><p TITLE='a' data-x=1 hidden=>y<img src="/i.png" width=1 height=1>`, true},
		{"chrome holding the page", `<div class="one-sidebar sidebar-right"><h1>Title</h1><p>` + strings.Repeat("content word ", 40) + `</p></div><div id="footer">foot</div>`, true},
		{"mount point", `<div id="root"></div><div id="app"><span>Loading…</span></div><app-root></app-root><script src="/main.js"></script>`, true},
		{"scripts", `<script type="application/ld+json">{"@type":"NewsArticle","articleBody":"a b c d"}</script>` + script + `<noscript><p>enable scripts</p></noscript>`, true},
		{"NUL", "<p>a\x00b</p><svg>c\x00d</svg>", true},
		{"comments", `<div id="root"><!-- c --></div><p>a<!-- x -->b</p>`, true},
		{"unclosed at end", `<div><p><b><a href=x>text`, true},
		{"head elements in body", `<body><p>a<title>late title</title><meta http-equiv="refresh" content="5"><style>p{}</style>b`, true},
		{"image tag", `<image src="x.png"><p>a`, true},
		{"ruby", `<ruby>漢<rp>(</rp><rt>kan<rtc>x</ruby>`, true},
		{"list items past inline elements", `<ul><li class="nav-item"><span>menu<li><b>` + strings.Repeat("content word ", 30) + `</b></ul>`, true},
		{"table sections", `<table><tbody class="menu"><tr><td>menu</td></tr></tbody><tbody><tr><td>` + strings.Repeat("content word ", 30) + `</td></tr></tbody></table>`, true},
		{"cells", `<table><tr><td class="sidebar">side<td>` + strings.Repeat("content word ", 30) + `<tr><th class="footer">foot</table>`, true},
		{"button and hr", `<p>a<button>b<button>c</button><hr>d`, true},
		// Raw text read without the tokenizer (see readRawText): where its
		// end tag is, and what it is made of.
		{"raw text ends", "<script>a</scriptx>b</SCRIPT\t>c<style>x</styl></style/>y<noscript>n</NoScript >z<xmp></xmp>w", true},
		{"raw text CR and NUL", "<style>p{}\r\n\r\x00q</style><script>\r</script><iframe>\x00</iframe>", true},
		{"raw text empty", `<script></script><style></style><p>after`, true},
		{"script escapes", "<script><!-- a <script> b </script> c --> d</script>e<script><!-- <scripts></script>f" +
			"<script><!--<SCRIPT/>x</script ></script>g<script><!-- -- - -> </scrip </script>h<script><!-- <script>--></script>i" +
			"<script><!--<script>x<!--y--></script>z</script>j<script>a<!- -></script>k<script><!--<scriptx></script>l" +
			"<script><!-- --> <script> </script>m</script>n<script><!-- <1 <script> </script>o</script>p", true},
		{"script escaped", `<script><!-- document.write("<script>x</script>"); --></script><p>after</p>`, true},
		{"script comment after end", `<script>var a = "</scr" + "ipt>";</script><!-- c --><p>b`, true},
		{"script self-closing", `<script/>var a;</script><p>x`, true},
		{"script unterminated", `<p>a<script>var a = 1;`, true},
		{"script end tag at the end", `<p>a<script>var a = 1;</script`, true},
		{"escaped text", "<title>a &amp; b\r\n\x00</title><textarea>\nx &lt; y</textarea><title></title><textarea></TEXTAREA>z", true},
		{"doctypes", "<!doctype html><!DocType x><!DOCTYPE><p>a<!DOCTYPE b>c", true},
		{"svg style", `<svg><style>a{}</style><script>b</script></svg><style>c{}</style>d`, true},
	} {
		if got := sameReading(t, c.name, c.page); got != c.stream {
			t.Errorf("%s: streamed %v, want %v", c.name, got, c.stream)
		}
	}
}

// TestStreamTooDeep: a page nested deeper than the parser takes needs the
// tree (which refuses it).
func TestStreamTooDeep(t *testing.T) {
	page := []byte(strings.Repeat("<div>", maxOpen+10) + "x")
	if streamPage(page, newPageReader(0)) {
		t.Error("the stream read a page nested deeper than the parser takes")
	}
	if _, err := html.Parse(bytes.NewReader(page)); err == nil {
		t.Error("the parser took it")
	}
}

// TestStreamCorpora reads every HTML payload of real-1068 and dev both ways.
func TestStreamCorpora(t *testing.T) {
	for _, name := range []string{"real-1068", "dev"} {
		streamed, all := 0, 0
		for _, r := range loadCollection(t, name) {
			payload, _ := Decode(r.header, r.body, DefaultMaxBytes)
			ct := r.header.Get("Content-Type")
			if mediaType(ct, payload) != "text/html" {
				continue
			}
			text, _, _ := toUTF8(payload, ct, true)
			all++
			if sameReading(t, r.uri, string(cutAtElements(text, DefaultMaxElements))) {
				streamed++
			}
		}
		t.Logf("%s: %d of %d HTML payloads streamed", name, streamed, all)
	}
}

// TestReaderAttrsMountPoints: the stream keeps every attribute that makes
// a mount point.
func TestReaderAttrsMountPoints(t *testing.T) {
	for k := range mountAttrs {
		for _, a := range []atom.Atom{atom.Div, atom.Main, atom.Section, atom.Span, 0} {
			if readerAttr(a, []byte(k)) != k {
				t.Errorf("readerAttr(%v, %q) drops it", a, k)
			}
		}
	}
}

// FuzzStreamAsTree: whatever the markup, a page the stream reads is read
// as html.Parse's tree reads it (the stream refuses what it cannot be sure
// of, and the tree reads that).
func FuzzStreamAsTree(f *testing.F) {
	for _, p := range []string{
		`<!DOCTYPE html><title>t</title><p>a<b>b<p>c</b>d`,
		`<table><tr><td>a<td>b</table><div class="nav">m</div><p>` + strings.Repeat("w ", 40),
		"<script><!-- <script> --></script><svg><title>x</title></svg><select><option>o</select>",
		`<a href="x&y">l</a><frameset><frame src=f></frameset><noscript><p>n</noscript>`,
	} {
		f.Add(p)
	}
	for _, p := range fuzzPages {
		f.Add(p.body)
	}
	f.Fuzz(func(t *testing.T, page string) {
		sameReading(t, "fuzzed page", page)
	})
}
