package extract

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestLinks(t *testing.T) {
	const page = "http://example.com/news/story.html"
	tests := []struct {
		name, body, base string
		want             []string
	}{
		{"absolute", `<a href="http://other.org/a">a</a><a href="https://other.org/b?x=1">b</a>`, page,
			[]string{"http://other.org/a", "https://other.org/b?x=1"}},
		{"relative", `<a href="/top">a</a><a href="next.html">b</a><a href="../up">c</a><a href="?p=2">d</a>`, page,
			[]string{"http://example.com/top", "http://example.com/news/next.html", "http://example.com/up", "http://example.com/news/story.html?p=2"}},
		{"protocol relative", `<a href="//cdn.example.net/x">a</a>`, "https://example.com/",
			[]string{"https://cdn.example.net/x"}},
		{"no base drops relative", `<a href="/top">a</a><a href="http://other.org/a">b</a>`, "",
			[]string{"http://other.org/a"}},
		{"base href", `<html><head><base href="http://mirror.example.org/dir/"></head><body><a href="x.html">a</a><a href="/y">b</a></body></html>`, page,
			[]string{"http://mirror.example.org/dir/x.html", "http://mirror.example.org/y"}},
		{"relative base href", `<html><head><base href="/other/"></head><body><a href="x.html">a</a></body></html>`, page,
			[]string{"http://example.com/other/x.html"}},
		{"absolute base href without page URL", `<html><head><base href="http://example.com/d/"></head><body><a href="x.html">a</a></body></html>`, "",
			[]string{"http://example.com/d/x.html"}},
		{"first base wins", `<html><head><base target="_blank"><base href="http://a.example/"><base href="http://b.example/"></head><body><a href="x">a</a></body></html>`, page,
			[]string{"http://a.example/x"}},
		{"fragments", `<a href="#top">a</a><a href="other.html#sec">b</a><a href="other.html">c</a><a href="http://x.org/#">d</a>`, page,
			[]string{"http://example.com/news/other.html", "http://x.org/"}},
		{"schemes dropped", `<a href="javascript:void(0)">a</a><a href="mailto:ed@example.com">b</a><a href="tel:+4412">c</a><a href="data:text/html,hi">d</a><a href="ftp://f.org/x">e</a><a href="JavaScript:go()">f</a><a href="HTTP://Example.COM/Case">g</a>`, page,
			[]string{"http://example.com/Case"}},
		{"dedupe in page order", `<a href="/b">b</a><a href="/a">a</a><a href="http://example.com/b">b2</a><a href="/a#x">a2</a><a href="/b">b3</a>`, page,
			[]string{"http://example.com/b", "http://example.com/a"}},
		{"area and nav", `<nav><a href="/nav">n</a></nav><map><area href="/area"></map><footer><a href="/foot">f</a></footer>`, page,
			[]string{"http://example.com/nav", "http://example.com/area", "http://example.com/foot"}},
		{"whitespace and empty", `<a href="  /sp  ">a</a><a href="/t&#9;ab">b</a><a href="">c</a><a>d</a>`, page,
			[]string{"http://example.com/sp", "http://example.com/tab"}},
		{"empty path", `<a href="http://other.org">a</a>`, page, []string{"http://other.org/"}},
		{"bad URLs", `<a href="http://[::1">a</a><a href="http:///nohost">b</a><a href="http://ok.org/">c</a>`, page,
			[]string{"http://ok.org/"}},
		{"svg a ignored", `<svg><a href="/svg">s</a></svg><a href="/html">h</a>`, page,
			[]string{"http://example.com/html"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := linkURLs(Links(parseHTML(t, tt.body), tt.base))
			if !slices.Equal(got, tt.want) {
				t.Errorf("Links = %q, want %q", got, tt.want)
			}
			doc, _ := Extract(htmlHeader(), []byte(tt.body), Options{BaseURL: tt.base})
			if got := linkURLs(doc.Links); !slices.Equal(got, tt.want) {
				t.Errorf("Extract: Links = %q, want %q", got, tt.want)
			}
		})
	}
}

// linkURLs are the URLs of links.
func linkURLs(links []Link) []string {
	var out []string
	for _, l := range links {
		out = append(out, l.URL)
	}
	return out
}

func TestLinkAnchors(t *testing.T) {
	const page = "http://example.com/news/story.html"
	tests := []struct {
		name, body string
		want       []Link
	}{
		{"text collapsed", `<a href="/a">  Brown   targets
			OAPs </a>`, []Link{{"http://example.com/a", "Brown targets OAPs"}}},
		{"inline children and entities", `<a href="/b"><b>Tories</b> &amp; <i>Labour</i>&nbsp;clash</a>`,
			[]Link{{"http://example.com/b", "Tories & Labour clash"}}},
		{"image link has no text", `<a href="/c"><img src="x.png" alt="logo"></a>`, []Link{{"http://example.com/c", ""}}},
		{"area alt", `<map><area href="/d" alt=" Map  of UK "></map>`, []Link{{"http://example.com/d", "Map of UK"}}},
		{"first occurrence gives the anchor", `<a href="/e">first</a><a href="/e">second</a>`, []Link{{"http://example.com/e", "first"}}},
		{"script text inside a link is no anchor", `<a href="/f">Read<script>var x = 1;</script> more</a>`, []Link{{"http://example.com/f", "Read more"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, _ := Extract(htmlHeader(), []byte(tt.body), Options{BaseURL: page})
			if !slices.Equal(doc.Links, tt.want) {
				t.Errorf("Extract: Links = %q, want %q", doc.Links, tt.want)
			}
			if got := Links(parseHTML(t, tt.body), page); !slices.Equal(got, tt.want) {
				t.Errorf("Links = %q, want %q", got, tt.want)
			}
		})
	}
	long := `<a href="/g">` + strings.Repeat("word ", 400) + `</a>`
	if doc, _ := Extract(htmlHeader(), []byte(long), Options{BaseURL: page}); len(doc.Links) != 1 || len(doc.Links[0].Anchor) > maxAnchor {
		t.Errorf("long anchor not capped at %d bytes: %d links", maxAnchor, len(doc.Links))
	}
}

func TestLinksCapAndText(t *testing.T) {
	var b strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&b, `<a href="/s/%d">s</a> `, i)
	}
	body := template("Cap", articleParas+b.String())
	doc, _ := Extract(htmlHeader(), []byte(body), Options{BaseURL: "http://example.com/"})
	if len(doc.Links) != DefaultMaxLinks {
		t.Errorf("%d links, want the cap %d", len(doc.Links), DefaultMaxLinks)
	}
	doc, _ = Extract(htmlHeader(), []byte(body), Options{BaseURL: "http://example.com/", MaxLinks: 10})
	if len(doc.Links) != 10 || doc.Links[0].URL != "http://example.com/" {
		t.Errorf("MaxLinks 10: %q", doc.Links)
	}
	// Links come from the whole page, chrome included, while the text is
	// still the article's.
	page := template("Budget", articleParas)
	with, _ := Extract(htmlHeader(), []byte(page), Options{BaseURL: "http://example.com/news/1.html"})
	without, _ := Extract(htmlHeader(), []byte(page), Options{})
	if with.Text != without.Text || with.Extractor != without.Extractor || !slices.Equal(with.Terms, without.Terms) {
		t.Errorf("BaseURL changed the text")
	}
	for _, want := range []string{"http://example.com/sport", "http://example.com/a", "http://example.com/x"} {
		if !slices.Contains(linkURLs(with.Links), want) {
			t.Errorf("chrome link %s missing from %q", want, with.Links)
		}
	}
	if len(without.Links) != 0 {
		t.Errorf("relative links without BaseURL: %q", without.Links)
	}
}
