package extract

import (
	"slices"
	"strings"
	"testing"
)

// story is prose of 60 words, what a client-rendered article holds.
const story = `The city council approved a new plan on Tuesday to rebuild the old harbour bridge, which has been closed to traffic since the spring floods damaged its supports. Engineers said the work would take two years and cost less than a new crossing, while residents asked for a ferry service until the bridge reopens to cars and bicycles.`

// shell wraps head and body markup in a page whose visible content is
// thin: a title and a mount point.
func shellPage(head, body string) string {
	return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Harbour bridge</title>` + head +
		`</head><body>` + body + `<div id="root"></div><script src="/static/js/main.js"></script></body></html>`
}

func TestEmbedded(t *testing.T) {
	tests := []struct {
		name     string
		page     string
		embedded string
		want     string   // Text, when given
		has      []string // in Text
		hasNot   []string // not in Text
	}{
		{"json-ld article on a thin page",
			shellPage(`<script type="application/ld+json">{"@context":"https://schema.org","@type":"NewsArticle",
"headline":"Council votes to rebuild the harbour bridge","description":"The city council approved a new plan on Tuesday to rebuild the old harbour bridge",
"articleBody":"`+story+`","author":{"@type":"Person","name":"Ann Writer","description":"Ann covers the city hall for the paper since 1999"}}</script>`,
				`<h1>Local news</h1>`),
			EmbeddedJSONLD,
			"Local news Council votes to rebuild the harbour bridge " + story, nil,
			// The description is the start of the body; the author is not the page.
			[]string{"Ann"}},
		{"json-ld @graph: the site's nodes left out",
			shellPage(`<script type="application/ld+json">{"@context":"https://schema.org","@graph":[
{"@type":"Organization","name":"The Harbour Gazette","description":"The best local news of the harbour towns since 1887"},
{"@type":"WebSite","name":"Harbour Gazette","description":"News, sport and weather for the harbour towns"},
{"@type":["WebPage"],"name":"Bridge to be rebuilt in two years","description":"`+story+`"},
{"@type":"BreadcrumbList","itemListElement":[{"@type":"ListItem","name":"Home page of the site"}]}]}</script>`, ``),
			EmbeddedJSONLD, "Bridge to be rebuilt in two years " + story, nil,
			[]string{"1887", "weather", "Home page"}},
		{"json-ld array, nested main entity, @value",
			shellPage(`<script type="application/ld+json">[{"@type":"WebPage","mainEntity":{"@type":"Article","name":"Harbour bridge closed for two years","text":{"@value":"`+story+`"}}}]</script>`, ``),
			EmbeddedJSONLD, "Harbour bridge closed for two years " + story, nil, nil},
		{"json-ld that does not decode",
			shellPage(`<script type="application/ld+json">{"@type":"NewsArticle","headline":"Bridge plan approved", "articleBody":"`+story+`",}</script>`, ``),
			EmbeddedJSONLD, "Bridge plan approved " + story, nil, nil},
		{"a title alone is not text",
			shellPage(`<script type="application/ld+json">{"@type":"WebPage","name":"Page not found","headline":"Sorry about that page"}</script>`, `<p>Gone</p>`),
			"", "Gone", nil, nil},
		{"site-wide json-ld on a thin page adds nothing",
			shellPage(`<script type="application/ld+json">{"@type":"Organization","name":"Harbour Gazette","description":"The best local news of the harbour towns since 1887"}</script>`,
				`<h1>Page not found</h1><p>Sorry, this page does not exist.</p>`),
			"", "Page not found Sorry, this page does not exist.", nil, nil},
		{"next.js data: prose in document order, HTML in strings made text",
			shellPage(``, `<script id="__NEXT_DATA__" type="application/json">{"props":{"pageProps":{"article":{"id":"a1b2c3d4","slug":"harbour-bridge-plan",
"title":"Council votes to rebuild the harbour bridge","url":"https://news.example/harbour/bridge-plan","className":"article article-main article--wide",
"publishedAt":"2021-03-16T10:00:00Z","date":"March 16, 2021","image":{"src":"/img/bridge.jpg","alt":"A photograph of the old bridge at dusk"},
"body":"<p>`+story+`</p><p>Work starts in May.</p>","tags":["news","local"]}}},"page":"/[section]/[slug]","buildId":"x8Yz_12-abc","isFallback":false}</script>`),
			EmbeddedState, "Council votes to rebuild the harbour bridge " + story + " Work starts in May.", nil, nil},
		{"window.__INITIAL_STATE__ object literal that is JSON",
			shellPage(``, `<script>window.__INITIAL_STATE__ = {"story":{"headline":"Council votes to rebuild the harbour bridge","paragraphs":["`+story+`"]}};
window.dataLayer = window.dataLayer || [];</script>`),
			EmbeddedState, "Council votes to rebuild the harbour bridge " + story, nil, nil},
		{"a JavaScript object literal: string literals",
			shellPage(``, `<script>
  // state from the server
  window.__PRELOADED_STATE__ = {story: {headline: "Council votes to rebuild the harbour bridge", teaser: 'Residents ask for a ferry until it reopens', body: "`+story+`", updated: undefined,}, user: null,};
</script>`),
			EmbeddedState, "Council votes to rebuild the harbour bridge Residents ask for a ferry until it reopens " + story, nil, nil},
		{"nuxt's function call and JSON.parse",
			shellPage(``, `<script>window.__NUXT__=(function(a,b){return {data:[{title:a,body:b}],fetch:{},error:null}}("Council votes to rebuild the harbour bridge","`+story+`"));</script>
<script>var __APOLLO_STATE__ = JSON.parse("{\"Story:1\":{\"__typename\":\"Story\",\"summary\":\"Residents ask for a ferry until the bridge reopens\"}}");</script>`),
			EmbeddedState, "Council votes to rebuild the harbour bridge " + story + " Residents ask for a ferry until the bridge reopens", nil, nil},
		{"JSON that is one string",
			shellPage(``, `<script type="application/json">"`+story+`"</script><script type="application/json">[1, "Residents ask for a ferry", {"alt": "A picture of the bridge at dusk"}]</script>`),
			EmbeddedState, story + " Residents ask for a ferry", nil, nil},
		{"JSON that breaks halfway",
			shellPage(``, `<script type="application/json">{"a": {"t": "Council votes to rebuild the bridge", "n": NaN, "b": "`+story+`", "c": [,]}}</script>`),
			EmbeddedState, "Council votes to rebuild the bridge " + story, nil, nil},
		{"repeated strings once, the visible text not again",
			shellPage(``, `<h1>Council votes to rebuild the harbour bridge</h1><script type="application/json">{"a":{"t":"Council votes to rebuild the harbour bridge","b":"`+story+`"},"c":{"b":"`+story+`"}}</script>`),
			EmbeddedState, "Council votes to rebuild the harbour bridge " + story, nil, nil},
		{"noscript holding the page",
			shellPage(``, `<noscript><div class="menu"><a href="/">Home</a></div><p>`+story+`</p></noscript>`),
			EmbeddedNoscript, story, nil, []string{"Home"}},
		{"noscript notice and tracking pixel are not content",
			shellPage(`<noscript><img height="1" width="1" style="display:none" src="https://www.facebook.com/tr?id=1&ev=PageView&noscript=1"/></noscript>`,
				`<noscript>You need to enable JavaScript to run this app.</noscript>`),
			"", "", nil, nil},
		{"noframes without frames",
			`<html><body><p>Welcome</p><noframes><p>` + story + `</p></noframes></body></html>`,
			EmbeddedNoframes, "Welcome " + story, nil, nil},
		{"sources in order",
			shellPage(`<script type="application/ld+json">{"@type":"Article","headline":"Council votes to rebuild the harbour bridge","description":"Two years of work"}</script>`,
				`<noscript><p>`+story+`</p></noscript>`),
			EmbeddedJSONLD + "," + EmbeddedNoscript, "Council votes to rebuild the harbour bridge Two years of work " + story, nil, nil},
		{"state is not read once the page is whole",
			shellPage(`<script type="application/ld+json">{"@type":"Article","articleBody":"`+story+`"}</script>`,
				`<script>window.__DATA__ = {"menu":"Sign in to read the full story today"}</script>`),
			EmbeddedJSONLD, story, nil, nil},
		{"other scripts and languages",
			shellPage(``, `<script id="__NEXT_DATA__" type="application/json">{"props":{"title":"東京都は新しい橋の建設計画を発表しました","lead":"Городской совет одобрил новый план восстановления старого моста через гавань","code":"btn btn-primary btn-lg","css":"color: red; font-size: 12px"}}</script>`),
			EmbeddedState, "東京都は新しい橋の建設計画を発表しました Городской совет одобрил новый план восстановления старого моста через гавань", nil, nil},
		{"a full article keeps its visible text only",
			template("Chancellor unveils budget", `<script type="application/ld+json">{"@type":"NewsArticle","headline":"Chancellor unveils a budget for families","description":"A typical blurb that sums up the story for search engines and social networks."}</script>`+articleParas),
			"", "", []string{"The chancellor has unveiled"}, []string{"blurb", "for families"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := mustExtract(t, htmlHeader(), tt.page)
			if doc.Embedded != tt.embedded {
				t.Errorf("Embedded = %q, want %q", doc.Embedded, tt.embedded)
			}
			if tt.want != "" || len(tt.has) == 0 {
				if doc.Text != tt.want {
					t.Errorf("Text =\n%q, want\n%q", doc.Text, tt.want)
				}
			}
			for _, s := range tt.has {
				if !strings.Contains(doc.Text, s) {
					t.Errorf("Text lacks %q: %q", s, doc.Text)
				}
			}
			for _, s := range tt.hasNot {
				if strings.Contains(doc.Text, s) {
					t.Errorf("Text has %q: %q", s, doc.Text)
				}
			}
		})
	}
}

// TestEmbeddedCountsAsContent: embedded text is content like any other:
// words, terms, language.
func TestEmbeddedCountsAsContent(t *testing.T) {
	page := shellPage(`<script type="application/ld+json">{"@type":"Article","articleBody":"`+story+`"}</script>`, `<nav><a href="/">Home</a></nav><h1>Harbour</h1>`)
	doc := mustExtract(t, htmlHeader(), page)
	if doc.Embedded != EmbeddedJSONLD || !strings.HasPrefix(doc.Text, "Harbour The city council") {
		t.Fatalf("Embedded %q, Text %q", doc.Embedded, doc.Text)
	}
	if want := tokenize(doc.Text, 0).words; doc.ContentWords != want || doc.WordCount != want+1 {
		t.Errorf("ContentWords %d WordCount %d, want %d and %d", doc.ContentWords, doc.WordCount, want, want+1)
	}
	if !slices.Equal(doc.TextTerms(), Terms(doc.Text, "en")) || !slices.Contains(doc.TextTerms(), "bridg") {
		t.Errorf("content terms %q", doc.TextTerms())
	}
	if doc.Lang != "en" || len(doc.Langs) == 0 {
		t.Errorf("Lang %q Langs %v", doc.Lang, doc.Langs)
	}
	capped := mustExtractWith(t, htmlHeader(), page, Options{MaxWords: 10})
	if n := len(strings.Fields(capped.Text)); n != 10 || !strings.HasPrefix(capped.Text, "Harbour The city") {
		t.Errorf("MaxWords 10: %d words, %q", n, capped.Text)
	}
	readable := mustExtractWith(t, htmlHeader(), page, Options{Readability: true})
	if readable.Extractor != ExtractorBody || readable.Text != doc.Text {
		t.Errorf("with Readability: %s %q", readable.Extractor, readable.Text)
	}
}

func TestProseText(t *testing.T) {
	tests := []struct {
		in, want string // want "" when s is not prose
	}{
		{"The bridge reopens in May.", "The bridge reopens in May."},
		{"  two\n\twords here ", "two words here"},
		{"<p>First paragraph.</p><p>Second one&amp;more</p>", "First paragraph. Second one&more"},
		{"Fish &amp; chips for lunch", "Fish & chips for lunch"},
		{"Read it at https://example.org/a today", "Read it at today"},
		{"東京都は新しい橋を発表", "東京都は新しい橋を発表"},
		{"การประชุมสภาเมืองวันนี้", "การประชุมสภาเมืองวันนี้"},
		{"Городской совет одобрил план", "Городской совет одобрил план"},
		{"مجلس المدينة يوافق على الخطة", "مجلس المدينة يوافق على الخطة"},
		{"two words", ""},
		{"https://example.org/a/b?c=d", ""},
		{"a1b2c3d4-e5f6-7890-abcd-ef1234567890", ""},
		{"2021-03-16T10:00:00Z", ""},
		{"March 16, 2021", ""},
		{"12 de março de 2021", ""},
		{"btn btn-primary btn-lg", ""},
		{"flex items-center justify-between px-4", ""},
		{"color: red; font-size: 12px", ""},
		{"margin: 0; padding: 4px; display: block; color: #333", ""},
		{"The minister said: the vote is close; his rival said: it is not, and the count went on into the night as both sides waited for the last ballots from the rural districts.",
			"The minister said: the vote is close; his rival said: it is not, and the count went on into the night as both sides waited for the last ballots from the rural districts."},
		{"function (a) { return a }", ""},
		{"user_id session_token page_view", ""},
		{"ROOT_QUERY.story story.headline story.body", ""},
		{"onClickHandler onMouseOver toggleMenu", ""},
		{"1 2 3 4 5 6", ""},
		{"東京", ""},
	}
	for _, tt := range tests {
		got, ok := proseText(tt.in, minProseWords)
		if ok != (tt.want != "") || got != tt.want {
			t.Errorf("proseText(%q) = %q, %v; want %q", tt.in, got, ok, tt.want)
		}
	}
}

func TestJSUnescape(t *testing.T) {
	for in, want := range map[string]string{
		`plain`:                    "plain",
		`a\"b\'c\\d\/e`:            `a"b'c\d/e`,
		`line\nbreak`:              "line break",
		`caf\u00e9 \xe9 \u{1F600}`: "café é 😀",
		`\ud83d\ude00 pair`:        "😀 pair",
		`bad \u12 \x`:              "bad u12 x",
	} {
		if got := jsUnescape(in); got != want {
			t.Errorf("jsUnescape(%q) = %q, want %q", in, got, want)
		}
	}
}
