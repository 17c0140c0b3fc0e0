package extract

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/offtopic/offtopic/internal/testcorpus"
)

// Fuzz targets for HTML extraction (charset, publication dates, links,
// what replay shows) of archived payloads, which are hostile. Under plain go test they run their
// seeds only.

var fuzzPages = []struct{ body, ct, ce, base string }{
	{`<html lang="fr"><head><meta charset="windows-1252"><title>Caf` + "\xe9" + `</title>
<meta property="article:published_time" content="2009-07-18T21:34:31Z"></head>
<body><p>Le caf` + "\xe9" + ` est servi. <a href="/a?b=1#c">a</a> <a href="javascript:x()">x</a></p></body></html>`, "text/html", "", "http://example.org/2009/07/18/news.html"},
	{`<html><head><meta http-equiv="Content-Type" content="text/html; charset=shift_jis"><base href="http://b.example/x/">
<script type="application/ld+json">{"@graph":[{"datePublished":"2012-02-30"},{"datePublished":"2013-05-22"}]}</script></head>
<body><time datetime="2001-04-10">April</time><a href="../y">y</a><a href="//c.example/">c</a></body></html>`, "text/html", "", "http://example.com/"},
	{"\xff\xfe<\x00p\x00>\x00h\x00i\x00", "text/html; charset=utf-8", "", ""},
	{"3\r\nabc\r\n0\r\n\r\n", "text/plain", "", "http://example.net/2020-13-45/"},
	{"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff", "text/html", "gzip", ""},
	{`<div style="display:none">hidden</div><nav>menu</nav><article><h1>T</h1><p>` + strings.Repeat("word ", 200) + `</p></article>`, "", "", "https://news.example/story"},
	// What replay shows: embedded data, shells, redirects, frames.
	{`<html><head><script type="application/ld+json">[{"@graph":[{"@type":"Organization","description":"a b c d"},{"@type":"NewsArticle","headline":"Big news today","articleBody":"<p>One two three four.</p><p>Five six</p>"}]}]</script>
<script id="__NEXT_DATA__" type="application/json">{"props":{"a":"Some words of été prose","b":["x y z w", {"className":"a b-c d"}]}}</script></head>
<body><div id="__next"></div><noscript><p>Enable JavaScript to read this site</p></noscript>
<script>window.__INITIAL_STATE__ = {story: {title: 'Council votes "yes" today', body: "line\nbreak and more words", x: undefined,},}; var __NUXT__=(function(a){return {a:a}}("Words from a function call"));
var s = JSON.parse("{\"k\":\"Parsed from a literal string\"}")</script></body></html>`, "text/html", "", "http://app.example/a/b"},
	{`<html><head><base href="/dir/"><META HTTP-EQUIV=Refresh CONTENT="0; URL='../new page.html'"></head><body><p>Moved</p><script>top.location.href = "http://x.example/" ; location.replace('y')</script></body></html>`, "text/html", "", "http://old.example/a/b.html"},
	{`<frameset rows="100%,*"><frame src="http://target.example/"><frame src="about:blank"><frameset cols="*"><frame src="javascript:x"><frame src="menu.htm"></frameset><noframes><p>no frames</p></noframes></frameset>`, "text/html", "", ""},
	{`<body style="margin:0"><iframe src="//target.example/" style="width:100%;height:100vh"></iframe><iframe src="/t" width=0 height=0></iframe><app-root>Loading</app-root></body>`, "text/html", "", "https://mask.example/"},
}

// FuzzExtract extracts documents from arbitrary payloads and headers: the
// text is UTF-8, words are counted as written, links are absolute http(s)
// URLs within the cap, a publication date is plausible, a shell shows,
// embeds and loads nothing, and redirects and frames load pages.
func FuzzExtract(f *testing.F) {
	for _, p := range fuzzPages {
		f.Add([]byte(p.body), p.ct, p.ce, p.base)
	}
	if testcorpus.Dir() != "" && !testing.Short() {
		n := 0
		for _, r := range loadCorpus(f) {
			if len(r.body) <= 32<<10 && n < 8 {
				f.Add(r.body, r.header.Get("Content-Type"), r.header.Get("Content-Encoding"), r.uri)
				n++
			}
		}
	}
	f.Fuzz(func(t *testing.T, body []byte, ct, ce, base string) {
		h := http.Header{}
		h.Set("Content-Type", ct)
		if ce != "" {
			h.Set("Content-Encoding", ce)
		}
		doc, _ := Extract(h, body, Options{BaseURL: base, MaxLinks: 50})
		if doc == nil {
			t.Fatal("nil document")
		}
		if !utf8.ValidString(doc.Text) || !utf8.ValidString(doc.Title) {
			t.Fatalf("text or title not UTF-8: %q %q", doc.Title, doc.Text)
		}
		if n := tokenize(doc.Text, 0).words + tokenize(doc.Chrome, 0).words; n != doc.WordCount {
			t.Fatalf("WordCount %d, text has %d words", doc.WordCount, n)
		}
		if len(doc.Links) > 50 {
			t.Fatalf("%d links over the cap of 50", len(doc.Links))
		}
		for _, l := range doc.Links {
			u, err := url.Parse(l.URL)
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
				t.Fatalf("link %q is not an absolute http(s) URL", l)
			}
		}
		if doc.PublishedFrom != "" && !plausible(doc.Published) {
			t.Fatalf("published %v (from %s) is not plausible", doc.Published, doc.PublishedFrom)
		}
		if doc.Shell && (doc.Embedded != "" || doc.Redirect != "" || len(doc.Frames) > 0 || doc.ContentWords >= ThinWords) {
			t.Fatalf("a shell with embedded text %q, a redirect %q, frames %q or %d words", doc.Embedded, doc.Redirect, doc.Frames, doc.ContentWords)
		}
		if doc.Embedded != "" {
			if doc.Text == "" {
				t.Fatalf("embedded %q without text", doc.Embedded)
			}
			for name := range strings.SplitSeq(doc.Embedded, ",") {
				switch name {
				case EmbeddedJSONLD, EmbeddedState, EmbeddedNoscript, EmbeddedNoframes:
				default:
					t.Fatalf("embedded source %q", name)
				}
			}
		}
		for _, to := range append(doc.Frames, doc.Redirect) {
			if !utf8.ValidString(to) || len(to) > maxTarget || strings.HasPrefix(strings.ToLower(to), "javascript:") {
				t.Fatalf("frame or redirect %q", to)
			}
		}
	})
}

// FuzzDateFromURL reads dates from arbitrary URLs: any date found is plausible.
func FuzzDateFromURL(f *testing.F) {
	for _, u := range []string{"http://example.org/2009/07/18/news.html", "http://x/2020-02-30/", "http://x/20121231/a",
		"http://x/news/1999/12/", "http://x/?date=2010-01-01", "http://x/9999/99/99/"} {
		f.Add(u)
	}
	f.Fuzz(func(t *testing.T, u string) {
		if d, ok := DateFromURL(u); ok && !plausible(d) {
			t.Fatalf("DateFromURL(%q) = %v, not plausible", u, d)
		}
	})
}
