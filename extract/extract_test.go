package extract

import (
	"bytes"
	"fmt"
	"math/rand"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"
)

// template lays content into a site template with chrome, scripts, styles
// and JSON-LD, as the pages of a real site are.
func template(title, content string) string {
	return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>` + title + `</title>
<style>body{font:12px sans-serif}.menu{color:red}</style>
<script>var tracker = function(a){return a && a.length > 3}; document.write("scriptword");</script>
<script type="application/ld+json">{"@context":"https://schema.org","@type":"NewsArticle","headline":"jsonldword"}</script>
</head><body>
<div id="header"><div class="logo">Gazette</div><ul id="main-menu"><li><a href="/">Home</a></li><li><a href="/sport">Sport</a></li><li><a href="/weather">Weather</a></li></ul></div>
<nav><a href="/a">Politics</a> <a href="/b">Business</a></nav>
<div class="breadcrumbs"><a href="/">Home</a> &gt; News</div>
<div id="content">` + content + `</div>
<div id="sidebar"><h3>Most read</h3><ul><li><a href="/x">Sidebar story one</a></li></ul></div>
<div id="cookie-banner">We use cookies to improve your experience</div>
<footer><p>Copyright 2006 Gazette. All rights reserved.</p></footer>
<noscript>Please enable JavaScript noscriptword</noscript>
<script>trackPageview("footerscriptword");</script>
</body></html>`
}

const articleParas = `<h1>Chancellor unveils budget</h1>
<p>The chancellor has unveiled a budget that he says will help families across the country cope with rising costs, while opposition parties said the measures did not go far enough to address the concerns of voters.</p>
<p>Speaking in the Commons, he told members that the economy had grown faster than forecast and that public finances were on track, allowing him to raise spending on schools and hospitals over the next three years.</p>
<p>Critics argued that the plans relied on optimistic growth figures and warned that taxes would have to rise after the election if the forecasts proved wrong, leaving a gap in the public accounts.</p>
<p>Business groups gave a cautious welcome to the announcement, saying that stability mattered more than any single measure, but called for simpler rules for small firms and less paperwork.</p>`

func htmlHeader() http.Header {
	return http.Header{"Content-Type": {"text/html; charset=utf-8"}}
}

func mustExtract(t *testing.T, h http.Header, body string) *Document {
	t.Helper()
	return mustExtractWith(t, h, body, Options{})
}

func mustExtractWith(t *testing.T, h http.Header, body string, opts Options) *Document {
	t.Helper()
	doc, err := Extract(h, []byte(body), opts)
	if err != nil {
		t.Fatalf("Extract: %v", err)
	}
	return doc
}

func TestExtractorChoice(t *testing.T) {
	var links strings.Builder
	for i := range 12 {
		fmt.Fprintf(&links, `<div class="item"><h2><a href="/s/%d">Story headline number %d</a></h2></div>`, i, i)
	}
	tests := []struct {
		name      string
		body      string
		extractor string
		has       []string
		hasNot    []string
	}{
		{"article page", template("Chancellor unveils budget", articleParas), ExtractorReadability,
			[]string{"chancellor has unveiled", "less paperwork."},
			[]string{"Weather", "Sidebar", "cookies", "Copyright", "scriptword", "jsonldword", "noscriptword", "footerscriptword"}},
		{"home page of short link lists", template("Gazette", "<h1>Latest news</h1>"+links.String()), ExtractorBody,
			[]string{"Latest news", "Story headline number 0", "number 11"},
			[]string{"Weather", "Sidebar", "cookies", "Copyright", "scriptword"}},
		{"page not found in the site template", template("Page not found", "<h1>Page not found</h1><p>Sorry, the page you requested could not be found. It may have been moved or deleted.</p>"), ExtractorBody,
			[]string{"Page not found Sorry, the page you requested could not be found."},
			[]string{"Weather", "Politics", "Home", "Copyright", "cookies", "scriptword"}},
		{"blank page in the template", template("Gazette", ""), ExtractorBody, nil,
			[]string{"Weather", "Copyright"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := mustExtractWith(t, htmlHeader(), tt.body, Options{Readability: true})
			if doc.Extractor != tt.extractor {
				t.Errorf("Extractor = %q, want %q (text %q)", doc.Extractor, tt.extractor, doc.Text)
			}
			for _, s := range tt.has {
				if !strings.Contains(doc.Text, s) {
					t.Errorf("text lacks %q: %q", s, doc.Text)
				}
			}
			for _, s := range tt.hasNot {
				if strings.Contains(doc.Text, s) {
					t.Errorf("text has %q: %q", s, doc.Text)
				}
			}
			if n := tokenize(doc.Text, 0).words + tokenize(doc.Chrome, 0).words; doc.WordCount != n {
				t.Errorf("WordCount %d, text and chrome have %d words", doc.WordCount, n)
			}
			if doc.ByteCount != len(tt.body) {
				t.Errorf("ByteCount %d, want %d", doc.ByteCount, len(tt.body))
			}
		})
	}
	t.Run("blank page has no text", func(t *testing.T) {
		doc := mustExtract(t, htmlHeader(), template("Gazette", ""))
		if doc.Text != "" || doc.ContentWords != 0 || doc.WordCount == 0 {
			t.Errorf("text %q, %d of %d words", doc.Text, doc.ContentWords, doc.WordCount)
		}
	})
	t.Run("without Readability: content and chrome", func(t *testing.T) {
		doc := mustExtract(t, htmlHeader(), template("x", articleParas))
		if doc.Extractor != ExtractorBody || !strings.HasPrefix(doc.Text, "Chancellor unveils budget The chancellor") || !strings.HasSuffix(doc.Text, "less paperwork.") {
			t.Errorf("%s %q", doc.Extractor, doc.Text)
		}
		if want := "Gazette Home Sport Weather Politics Business Home > News Most read Sidebar story one We use cookies to improve your experience Copyright 2006 Gazette. All rights reserved."; doc.Chrome != want {
			t.Errorf("Chrome = %q, want %q", doc.Chrome, want)
		}
		if doc.ContentWords != tokenize(doc.Text, 0).words || doc.WordCount != doc.ContentWords+tokenize(doc.Chrome, 0).words {
			t.Errorf("ContentWords %d WordCount %d", doc.ContentWords, doc.WordCount)
		}
		if !slices.Equal(doc.Terms[:doc.ContentTerms], Terms(doc.Text, "en")) || !slices.Equal(doc.Terms[doc.ContentTerms:], Terms(doc.Chrome, "en")) {
			t.Errorf("Terms %q (%d of the content)", doc.Terms, doc.ContentTerms)
		}
	})
}

func TestTextWords(t *testing.T) {
	tests := []struct {
		name, body, want string
	}{
		{"paragraphs", `<p>one</p><p>two</p>`, "one two"},
		{"divs and list items", `<div>alpha</div><div>beta<ul><li>gamma</li><li>delta</li></ul></div>`, "alpha beta gamma delta"},
		{"table cells", `<table><tr><td>a1</td><td>b2</td></tr><tr><th>c3</th></tr></table>`, "a1 b2 c3"},
		{"br", `<p>line<br>break</p>`, "line break"},
		{"headings", `<h1>Title</h1><h2>Sub</h2>text`, "Title Sub text"},
		{"inline elements do not split words", `<p>un<b>believ</b><i>able</i> <a href="#">link</a>s</p>`, "unbelievable links"},
		{"entities and whitespace", "<p>caf&eacute;&nbsp;&amp;\n\t bar</p>", "café & bar"},
		{"script style template svg", `<p>keep</p><script>drop1()</script><style>.drop2{}</style><template><p>drop3</p></template><svg><text>drop4</text></svg><p>this</p>`, "keep this"},
		{"json-ld", `<script type="application/ld+json">{"headline":"drop"}</script><p>kept</p>`, "kept"},
		{"hidden", `<p>a</p><p hidden>b</p><div aria-hidden="true">c</div><div style="display: none">d</div><div style="visibility:hidden">e</div><p>f</p>`, "a f"},
		{"chrome", `<header>masthead</header><nav>menu</nav><div class="site-footer">foot</div><div id="topNav">tn</div><div class="cookie-consent">cc</div><div class="breadcrumb">bc</div><aside>side</aside><main><article><header>Story head</header><p>body</p><footer>By line</footer></article></main>`, "Story head body By line"},
		{"chrome class on body is ignored", `<body class="nav-open menu"><p>still here</p></body>`, "still here"},
		{"table-layout chrome", `<table><tr><td class="hdr">Site</td></tr><tr><td class="nav">Links</td><td class="main">Content</td></tr><tr><td class="page-ftr">Copyright</td></tr></table>`, "Content"},
		{"navy is not nav", `<div class="navy">blue</div>`, "blue"},
		// The parser keeps noframes and noscript content as raw markup.
		{"noframes in a body", `<p>a</p><noframes><p>nf</p></noframes><noscript><p>ns</p></noscript><p>b</p>`, "a b"},
		{"frameset", `<html><head><title>t</title></head><frameset cols="20%,80%"><frame src="a.html"><frame src="b.html"><noframes><body><p>This page uses frames</p></body></noframes></frameset></html>`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := Extract(htmlHeader(), []byte(tt.body), Options{})
			if err != nil {
				t.Fatal(err)
			}
			if doc.Text != tt.want {
				t.Errorf("Text = %q, want %q", doc.Text, tt.want)
			}
		})
	}
}

func TestReadabilityWordsNotGlued(t *testing.T) {
	// Readability's TextContent would give "...paperwork.Second" here.
	body := template("t", articleParas+`<p>Second</p><ul><li>alpha</li><li>beta</li></ul>`)
	doc := mustExtractWith(t, htmlHeader(), body, Options{Readability: true})
	if doc.Extractor != ExtractorReadability {
		t.Fatalf("extractor %s", doc.Extractor)
	}
	for _, glued := range []string{"paperwork.Second", "alphabeta", "budgetThe"} {
		if strings.Contains(doc.Text, glued) {
			t.Errorf("glued words %q in %q", glued, doc.Text)
		}
	}
}

// TestReadabilityRunsLast: readability works on the parsed tree itself, so
// whatever else reads the tree (links, dates, the visible body the fallback
// takes) must have read it first and come out as without readability.
func TestReadabilityRunsLast(t *testing.T) {
	var cells strings.Builder
	for i := range 120 {
		fmt.Fprintf(&cells, "<tr><td>row%d</td><td>quarterly figure %d rising</td></tr>", i, i)
	}
	tests := []struct{ name, page, extractor string }{
		{"article", template("t", articleParas+`<p>Filed on <time itemprop="datePublished" datetime="2005-03-16">16 March 2005</time>.
<a href="/politics/budget-reaction">Reaction</a></p>`), ExtractorReadability},
		{"short article, body fallback", template("t", articleParas+`<table class="comments">`+cells.String()+`</table>`), ExtractorBody},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := Options{BaseURL: "http://example.org/politics/budget", Readability: true}
			with, _ := Extract(htmlHeader(), []byte(tt.page), opts)
			if with.Extractor != tt.extractor {
				t.Fatalf("extractor %s, want %s", with.Extractor, tt.extractor)
			}
			opts.Readability = false
			without, _ := Extract(htmlHeader(), []byte(tt.page), opts)
			if !with.Published.Equal(without.Published) {
				t.Errorf("published %v with readability, %v without", with.Published, without.Published)
			}
			if fmt.Sprint(with.Links) != fmt.Sprint(without.Links) || len(with.Links) == 0 {
				t.Errorf("links %v with readability, %v without", with.Links, without.Links)
			}
			if tt.extractor == ExtractorBody && with.Text != without.Text {
				t.Errorf("body text with readability:\n%s\nwithout:\n%s", with.Text, without.Text)
			}
		})
	}
}

func TestTitle(t *testing.T) {
	tests := []struct{ name, body, want string }{
		{"title", "<html><head><title>\n  Hello \t World </title></head><body>x</body></html>", "Hello World"},
		{"og:title fallback", `<html><head><meta property="og:title" content="From OG"></head><body>x</body></html>`, "From OG"},
		{"svg title ignored", `<html><body><svg><title>icon</title></svg><p>x</p></body></html>`, ""},
		{"title wins over og", `<head><meta property="og:title" content="OG"><title>T</title></head>`, "T"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := mustExtract(t, htmlHeader(), tt.body).Title; got != tt.want {
				t.Errorf("Title = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestCharset(t *testing.T) {
	// "café “quoted”" in windows-1252; 0x93/0x94 are curly quotes there and
	// C1 controls in ISO-8859-1 proper (WHATWG decodes both as windows-1252).
	cp1252 := []byte("caf\xe9 \x93quoted\x94 na\xefve")
	want := "café “quoted” naïve"
	page := func(meta string, text []byte) []byte {
		return append(append([]byte("<html><head>"+meta+"<title>t</title></head><body><p>"), text...), "</p></body></html>"...)
	}
	tests := []struct {
		name, ct string
		body     []byte
		cs, from string
	}{
		{"header windows-1252", "text/html; charset=windows-1252", page("", cp1252), "windows-1252", "header"},
		{"header iso-8859-1", "text/html; charset=ISO-8859-1", page("", cp1252), "windows-1252", "header"},
		{"header quoted", `text/html; charset="iso-8859-1"`, page("", cp1252), "windows-1252", "header"},
		{"meta charset", "text/html", page(`<meta charset="windows-1252">`, cp1252), "windows-1252", "meta"},
		{"meta http-equiv", "text/html", page(`<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1">`, cp1252), "windows-1252", "meta"},
		{"meta after a long style", "text/html", page(`<style>`+strings.Repeat("a{b:c}", 500)+`</style><meta charset="iso-8859-1">`, cp1252), "windows-1252", "meta"},
		{"header utf-8 contradicted by bytes, meta used", "text/html; charset=utf-8", page(`<meta charset="windows-1252">`, cp1252), "windows-1252", "meta"},
		{"sniffed windows-1252", "text/html", page("", cp1252), "windows-1252", "sniff"},
		{"sniffed utf-8", "", page("", []byte(want)), "utf-8", "sniff"},
		{"header utf-8", "text/html; charset=utf-8", page("", []byte(want)), "utf-8", "header"},
		{"header wins over meta", "text/html; charset=utf-8", page(`<meta charset="iso-8859-1">`, []byte(want)), "utf-8", "header"},
		{"utf-8 BOM", "text/html; charset=iso-8859-1", append([]byte("\xef\xbb\xbf"), page("", []byte(want))...), "utf-8", "bom"},
		{"unknown label falls through", "text/html; charset=x-bogus", page("", cp1252), "windows-1252", "sniff"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := http.Header{}
			if tt.ct != "" {
				h.Set("Content-Type", tt.ct)
			}
			doc, err := Extract(h, tt.body, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if doc.Text != want {
				t.Errorf("Text = %q, want %q", doc.Text, want)
			}
			if doc.Charset != tt.cs || doc.CharsetFrom != tt.from {
				t.Errorf("charset %s from %s, want %s from %s", doc.Charset, doc.CharsetFrom, tt.cs, tt.from)
			}
			if doc.ByteCount != len(tt.body) {
				t.Errorf("ByteCount %d, want %d", doc.ByteCount, len(tt.body))
			}
		})
	}
}

// TestCharsetDefences: the bytes overrule a declaration archived pages got
// wrong, and only then.
func TestCharsetDefences(t *testing.T) {
	arabic := "مركز عمان لدراسات حقوق الانسان"
	page := func(meta, text string) []byte {
		return []byte("<html><head>" + meta + "<title>t</title></head><body><p>" + text + "</p></body></html>")
	}
	tests := []struct {
		name, ct string
		body     []byte
		want     string
		cs, from string
	}{
		{"utf-8 page whose meta names windows-1256", "text/html", page(`<meta charset="windows-1256">`, arabic), arabic, "utf-8", "meta"},
		{"utf-8 page whose header names iso-8859-1", "text/html; charset=iso-8859-1", page("", arabic), arabic, "utf-8", "header"},
		{"utf-8 page with a stray byte keeps its declared utf-8", "text/html", page(`<meta charset="utf-8">`, arabic+" \xff "+arabic), arabic + " \ufffd " + arabic, "utf-8", "meta"},
		{"undeclared utf-8 page with a stray byte sniffs as utf-8", "text/html", page("", arabic+" \xff "+arabic), arabic + " \ufffd " + arabic, "utf-8", "sniff"},
		{"real windows-1256 bytes follow the meta tag", "text/html", page(`<meta charset="windows-1256">`, "\xe3\xd1\xdf\xd2"), "مركز", "windows-1256", "meta"},
		{"ascii under a legacy label stays legacy", "text/html", page(`<meta charset="windows-1256">`, "plain words"), "plain words", "windows-1256", "meta"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := http.Header{}
			h.Set("Content-Type", tt.ct)
			doc := mustExtract(t, h, string(tt.body))
			if doc.Text != tt.want {
				t.Errorf("Text = %q, want %q", doc.Text, tt.want)
			}
			if doc.Charset != tt.cs || doc.CharsetFrom != tt.from {
				t.Errorf("charset %s from %s, want %s from %s", doc.Charset, doc.CharsetFrom, tt.cs, tt.from)
			}
		})
	}
}

// TestShapeValid: a payload has no invalid sequence for shapeOf exactly
// when it is valid UTF-8 (decodeWith takes the one for the other).
func TestShapeValid(t *testing.T) {
	pieces := []string{"a", " ", "é", "字", "\U0001F600", "\uFFFD", "\xef\xbf\xbd", "\xff", "\xc0\x80", "\xed\xa0\x80",
		"\xe2\x82", "\xf4\x90\x80\x80", "\x80", "\xf0\x9f\x98"}
	rng := rand.New(rand.NewSource(9))
	for range 5000 {
		var b []byte
		for k := rng.Intn(12); k >= 0; k-- {
			b = append(b, pieces[rng.Intn(len(pieces))]...)
		}
		if got, want := shapeOf(b).invalid == 0, utf8.Valid(b); got != want {
			t.Fatalf("%q: shapeOf finds no invalid sequence: %v; utf8.Valid: %v", b, got, want)
		}
	}
}

func TestMediaTypes(t *testing.T) {
	tests := []struct {
		name, ct, body, extractor, text string
	}{
		{"text/plain", "text/plain; charset=utf-8", "Just some\nplain  text.", ExtractorPlain, "Just some plain text."},
		{"css", "text/css", "body { color: red }", ExtractorNone, ""},
		{"pdf", "application/pdf", "%PDF-1.4 binary", ExtractorNone, ""},
		{"image", "image/png", "\x89PNG\r\n\x1a\nxxxx", ExtractorNone, ""},
		{"missing type, HTML sniffed", "", "<!DOCTYPE html><html><body><p>sniffed page</p></body></html>", ExtractorBody, "sniffed page"},
		{"octet-stream, HTML sniffed", "application/octet-stream", "<html><body><p>sniffed</p></body></html>", ExtractorBody, "sniffed"},
		{"text/plain that is HTML", "text/plain", "<html><body><p>really html</p></body></html>", ExtractorBody, "really html"},
		{"xhtml", "application/xhtml+xml", `<html xmlns="http://www.w3.org/1999/xhtml"><body><p>x h</p></body></html>`, ExtractorBody, "x h"},
		{"malformed content type", "text/html;;charset", "<p>still html</p>", ExtractorBody, "still html"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := http.Header{}
			if tt.ct != "" {
				h.Set("Content-Type", tt.ct)
			}
			doc := mustExtract(t, h, string(tt.body))
			if doc.Extractor != tt.extractor || doc.Text != tt.text {
				t.Errorf("got %s %q, want %s %q", doc.Extractor, doc.Text, tt.extractor, tt.text)
			}
		})
	}
}

func TestExtractDecodes(t *testing.T) {
	body := template("Chancellor unveils budget", articleParas)
	chunked := fmt.Sprintf("%x\r\n%s\r\n0\r\n\r\n", len(body), body)
	h := hdr("Content-Type", "text/html", "Transfer-Encoding", "chunked", "Content-Encoding", "gzip")
	z := gz([]byte(body))
	wire := fmt.Sprintf("%x\r\n%s\r\n0\r\n\r\n", len(z), z)
	for name, tc := range map[string]struct {
		h    http.Header
		body string
	}{
		"chunked":      {hdr("Content-Type", "text/html", "Transfer-Encoding", "chunked"), chunked},
		"chunked gzip": {h, wire},
	} {
		t.Run(name, func(t *testing.T) {
			doc := mustExtractWith(t, tc.h, tc.body, Options{Readability: true})
			if doc.Extractor != ExtractorReadability || doc.ByteCount != len(body) || !strings.HasPrefix(doc.Text, "The chancellor has unveiled") {
				t.Errorf("%s %d %q", doc.Extractor, doc.ByteCount, doc.Text)
			}
		})
	}
}

func TestDetectLanguage(t *testing.T) {
	tests := []struct{ name, text, hint, want string }{
		{"en", "The government said that it would not change the law, and the opposition was quick to attack the plan for being too little and too late.", "", "en"},
		{"fr", "Le gouvernement a annoncé que la loi ne serait pas modifiée, et l'opposition a critiqué le projet pour être trop peu et trop tard dans les faits.", "", "fr"},
		{"es", "El gobierno dijo que no cambiaría la ley, y la oposición criticó el plan por ser demasiado poco y demasiado tarde para los ciudadanos.", "", "es"},
		{"de", "Die Regierung sagte, dass sie das Gesetz nicht ändern werde, und die Opposition kritisierte den Plan, weil er zu wenig und zu spät sei.", "", "de"},
		{"it", "Il governo ha detto che non cambierà la legge, e l'opposizione ha criticato il piano perché è troppo poco e troppo tardi per i cittadini.", "", "it"},
		{"pt", "O governo disse que não vai mudar a lei, e a oposição criticou o plano por ser muito pouco e tarde demais para os cidadãos do país.", "", "pt"},
		{"nl", "De regering zei dat zij de wet niet zal veranderen, en de oppositie had kritiek op het plan omdat het te weinig en te laat is.", "", "nl"},
		{"ru", "Правительство заявило, что не будет менять закон, а оппозиция раскритиковала план, потому что это слишком мало и слишком поздно.", "", "ru"},
		{"sv", "Regeringen sade att den inte kommer att ändra lagen, och oppositionen kritiserade planen för att den var för lite och för sent.", "", "sv"},
		{"too short", "Welcome", "", ""},
		{"no words", "12345 678", "", ""},
		{"short with hint", "Page not found", "en-GB", "en"},
		{"hint ignored against clear evidence", "Le gouvernement a annoncé que la loi ne serait pas modifiée, et l'opposition a critiqué le projet.", "en", "fr"},
		{"unknown hint", "Welcome", "x-klingon", ""},
		{"hy by script", "Մարդը, նրա արժանապատվությունը, հիմնական իրավունքները և ազատությունները բարձրագույն արժեքներ են", "", "hy"},
		{"ko by script", "국가인권위원회는 모든 개인이 가지는 불가침의 기본적 인권을 보호하고", "", "ko"},
		{"ja: kana among kanji", "東京都に住んでいる人々は毎日電車で通勤しています", "", "ja"},
		{"zh: kanji alone", "中华人民共和国是工人阶级领导的人民民主专政的社会主义国家", "", "zh"},
		{"th by script", "ประเทศไทยมีพระมหากษัตริย์ทรงเป็นประมุข", "", "th"},
		{"am by script", "የኢትዮጵያ ፌዴራላዊ ዴሞክራሲያዊ ሪፐብሊክ ሕገ መንግሥት", "", "am"},
		{"ar by stop words", "قالت الحكومة إنها لن تغير القانون وإن المعارضة انتقدت الخطة لأنها جاءت متأخرة جدا على المواطنين في هذا البلد", "", "ar"},
		{"fa by stop words", "دولت گفت که این قانون را تغییر نخواهد داد و مخالفان از این طرح انتقاد کردند زیرا برای مردم بسیار دیر است", "", "fa"},
		{"hu", "A kormány azt mondta, hogy nem változtat a törvényen, és az ellenzék bírálta a tervet, mert az túl kevés és túl késő volt.", "", "hu"},
		{"a script's one language wins over a hint of another", "Մարդը, նրա արժանապատվությունը, հիմնական իրավունքները", "en", "hy"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := DetectLanguage(tt.text, tt.hint); got != tt.want {
				t.Errorf("DetectLanguage = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestTerms(t *testing.T) {
	tests := []struct {
		name, text, lang string
		want             []string
	}{
		{"english stems and stop words", "The running dogs were running to the Parks in 2005", "en", []string{"run", "dog", "run", "park"}},
		{"numbers and one-letter tokens dropped", "x 42 a1 B 1999 ok", "en", []string{"a1", "ok"}},
		{"french", "Les enfants mangeaient des pommes", "fr", []string{"enfant", "mang", "pomm"}},
		{"german", "Die Kinder und die Hunde", "de", []string{"kind", "hund"}},
		{"unknown language: lower-cased tokens", "The Running DOGS", "", []string{"the", "running", "dogs"}},
		{"punctuation splits", "e-mail, don't! café's", "en", []string{"mail", "don", "café"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Terms(tt.text, tt.lang); !slices.Equal(got, tt.want) {
				t.Errorf("Terms = %q, want %q", got, tt.want)
			}
		})
	}
	if !HasStemmer("en") || !HasStemmer("de") || HasStemmer("pl") {
		t.Error("HasStemmer")
	}
}

func TestLangShares(t *testing.T) {
	en := "The government said that it would not change the law, and the opposition was quick to attack the plan. "
	fr := "Le gouvernement a annoncé que la loi ne serait pas modifiée, et l'opposition a critiqué le projet. "
	ar := "قالت الحكومة إن القانون لن يتغير في هذا العام، وإن المعارضة هاجمت الخطة على الفور من دون تأخير. "
	hy := "Մարդը, նրա արժանապատվությունը, հիմնական իրավունքները և ազատությունները "
	tests := []struct {
		name, text string
		want       map[string][2]float64 // language: least and most share
	}{
		{"english", en, map[string][2]float64{"en": {0.95, 1}, "fr": {0, 0}}},
		{"english and french", strings.Repeat(en+fr, 5), map[string][2]float64{"en": {0.3, 0.7}, "fr": {0.3, 0.7}}},
		{"french with an english quotation", strings.Repeat(fr, 20) + en, map[string][2]float64{"fr": {0.9, 1}, "en": {0, 0.1}}},
		{"armenian with an english word", hy + "Home", map[string][2]float64{"hy": {0.9, 1}, "en": {0, 0.1}}},
		{"japanese: its kanji are japanese", "東京都は今日、新しい条例を発表しました。市民の生活に大きな影響があります。", map[string][2]float64{"ja": {0.95, 1}, "zh": {0, 0}}},
		{"chinese", "北京市政府今天发布了新的规定。这将对市民的生活产生重大影响。", map[string][2]float64{"zh": {0.95, 1}, "ja": {0, 0}}},
		{"a third arabic", strings.Repeat(strings.Repeat(en, 2)+ar, 3), map[string][2]float64{"en": {0.55, 0.8}, "ar": {0.2, 0.45}}},
		// A long blog: its English posts first, then its Arabic ones; the
		// Arabic comes after the first 2,000 words.
		{"arabic after 2,000 english words", strings.Repeat(en, 120) + strings.Repeat(ar, 110), map[string][2]float64{"en": {0.4, 0.7}, "ar": {0.3, 0.6}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			toks := tokenize(tt.text, 0)
			ev := toks.evidence()
			got := map[string]float64{}
			for _, s := range ev.shares(ev.lang(toks, "")) {
				got[s.Lang] = s.Share
			}
			for lang, r := range tt.want {
				if got[lang] < r[0] || got[lang] > r[1] {
					t.Errorf("share of %s %.3f, want %.2f to %.2f (all: %v)", lang, got[lang], r[0], r[1], got)
				}
			}
		})
	}
	doc := mustExtract(t, htmlHeader(), "<html><body><p>"+fr+"</p></body></html>")
	if len(doc.Langs) == 0 || doc.Langs[0].Lang != "fr" {
		t.Errorf("Langs %v", doc.Langs)
	}
}

func TestTokenize(t *testing.T) {
	tests := []struct {
		name, text string
		want       []string
		words      int
	}{
		{"words at UAX #29 boundaries", "E-mail: U.S.A. won 3.14 points!", []string{"e", "mail", "u.s.a", "won", "3.14", "points"}, 6},
		{"elision and contractions split at apostrophes", "L'opposition don’t", []string{"l", "opposition", "don", "t"}, 2},
		{"han bigrams", "人权观察", []string{"人权", "权观", "观察"}, 2},
		{"japanese run across kanji and kana, latin apart", "東京に住む Tokyo", []string{"東京", "京に", "に住", "住む", "tokyo"}, 4},
		{"a lone han letter stays", "A 人 B", []string{"a", "人", "b"}, 3},
		{"thai trigrams, marks kept with their letter", "ภาษาไทยง่าย", []string{"ภาษ", "าษา", "ษาไ", "าไท", "ไทย", "ทยง่", "ยง่า", "ง่าย"}, 4},
		{"hangul words are spaced", "인권 위원회", []string{"인권", "위원회"}, 2},
		{"arabic tatweel and harakat", "الــرئيـسية مَدْرَسَة", []string{"الرئيسية", "مدرسة"}, 2},
		{"persian word joined by a zero-width non-joiner", "می\u200cخواهم کتاب", []string{"می\u200cخواهم", "کتاب"}, 2},
		{"full-width latin folds", "ＵＮＨＣＲ", []string{"unhcr"}, 1},
		{"punctuation only", " | » — ", nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tokenize(tt.text, 0)
			if !slices.Equal(got.toks, tt.want) || got.words != tt.words {
				t.Errorf("tokenize = %q (%d words), want %q (%d words)", got.toks, got.words, tt.want, tt.words)
			}
		})
	}
	if got := tokenize("one two three four", 2).toks; !slices.Equal(got, []string{"one", "two"}) {
		t.Errorf("max 2: %q", got)
	}
}

func TestTermsAcrossLanguages(t *testing.T) {
	tests := []struct {
		name, text, lang string
		want             []string
	}{
		{"arabic stop words and stems", "في المدرسة بالمدارس أحمد", "ar", []string{"مدرس", "مدارس", "احمد"}},
		{"another script's words in its own language", "The schools: المدرسة في المدارس", "en", []string{"school", "مدرس", "مدارس"}},
		{"persian letter forms unified", "کتاب یک مدرسة", "fa", []string{"كتاب", "يك", "مدرسه"}},
		{"chinese bigrams, no stop words", "人权观察", "zh", []string{"人权", "权观", "观察"}},
		{"armenian stop words", "այդ մարդը", "hy", []string{"մարդը"}},
		{"polish stop words, no stemmer", "ale prawa człowieka", "pl", []string{"prawa", "człowieka"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Terms(tt.text, tt.lang); !slices.Equal(got, tt.want) {
				t.Errorf("Terms = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestDocumentLangAndTerms(t *testing.T) {
	doc := mustExtract(t, htmlHeader(), template("Chancellor unveils budget", articleParas))
	if doc.Lang != "en" || doc.TermsLang != "en" {
		t.Errorf("Lang %q TermsLang %q", doc.Lang, doc.TermsLang)
	}
	for _, stop := range []string{"the", "that", "and", "has"} {
		if slices.Contains(doc.Terms, stop) {
			t.Errorf("stop word %q in terms", stop)
		}
	}
	for _, term := range []string{"chancellor", "unveil", "budget", "famili"} {
		if !slices.Contains(doc.Terms, term) {
			t.Errorf("term %q missing from %q", term, doc.Terms)
		}
	}
	fr := mustExtract(t, hdr("Content-Type", "text/html"), `<html lang="fr"><body><p>Bienvenue</p></body></html>`)
	if fr.Lang != "fr" || fr.TermsLang != "fr" {
		t.Errorf("hinted page: Lang %q TermsLang %q", fr.Lang, fr.TermsLang)
	}
	none := mustExtract(t, hdr("Content-Type", "text/html"), `<body><p>Parking</p></body>`)
	if none.Lang != "" || none.TermsLang != DefaultLang {
		t.Errorf("unknown page: Lang %q TermsLang %q", none.Lang, none.TermsLang)
	}
}

func TestHostileInput(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	random := make([]byte, 1<<16)
	rng.Read(random)
	deep := strings.Repeat("<div>", 100000) + "deep text" + strings.Repeat("</div>", 100000)
	article := template("Chancellor unveils budget", articleParas)
	cases := map[string]struct {
		h    http.Header
		body []byte
	}{
		"empty":             {htmlHeader(), nil},
		"binary as html":    {htmlHeader(), random},
		"binary as gzip":    {hdr("Content-Type", "text/html", "Content-Encoding", "gzip"), append([]byte{0x1f, 0x8b}, random...)},
		"binary as br":      {hdr("Content-Encoding", "br"), random},
		"binary as deflate": {hdr("Content-Encoding", "deflate"), random},
		"binary as chunked": {hdr("Transfer-Encoding", "chunked"), random},
		"truncated html":    {htmlHeader(), []byte(article[:len(article)/2])},
		"unclosed tags":     {htmlHeader(), []byte(strings.Repeat("<table><tr><td><p><b><i>", 5000))},
		"deep nesting":      {htmlHeader(), []byte(deep)},
		"huge":              {htmlHeader(), bytes.Repeat([]byte("<p>word word word</p>"), 1<<20)},
		"nul bytes":         {htmlHeader(), []byte("<p>a\x00b</p>\x00\x00<title>\x00</title>")},
		"bad utf-8":         {htmlHeader(), []byte("<p>\xff\xfe\xc3(</p>")},
		"utf-16 label":      {hdr("Content-Type", "text/html; charset=utf-16"), []byte("<p>ascii</p>")},
		"nil header":        {nil, []byte("<p>x</p>")},
		"huge attribute":    {htmlHeader(), []byte(`<div class="` + strings.Repeat("nav ", 1<<18) + `">x</div>`)},
		"truncated article": {htmlHeader(), []byte(article[:len(article)-200])},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			doc, _ := Extract(tc.h, tc.body, Options{MaxBytes: 16 << 20})
			if doc == nil {
				t.Fatal("nil Document")
			}
			if n := tokenize(doc.Text, 0).words + tokenize(doc.Chrome, 0).words; doc.WordCount != n {
				t.Errorf("WordCount %d for %d words", doc.WordCount, n)
			}
		})
	}
	t.Run("random garbage, many seeds", func(t *testing.T) {
		for i := range 200 {
			b := make([]byte, rng.Intn(4000))
			rng.Read(b)
			// Sprinkle markup so the parser has something to chew on.
			s := strings.ReplaceAll(string(b), "a", "<p>")
			for _, h := range []http.Header{htmlHeader(), hdr("Content-Encoding", "gzip"), hdr("Transfer-Encoding", "chunked")} {
				if doc, _ := Extract(h, []byte(s), Options{}); doc == nil {
					t.Fatalf("seed %d: nil Document", i)
				}
			}
		}
	})
	t.Run("MaxWords caps text", func(t *testing.T) {
		doc, _ := Extract(htmlHeader(), bytes.Repeat([]byte("<p>w</p>"), 1000), Options{MaxWords: 10})
		if doc.WordCount != 10 {
			t.Errorf("WordCount %d", doc.WordCount)
		}
	})
}

func TestCache(t *testing.T) {
	doc := func(title string) *Document { return &Document{Title: title} }
	size := doc("1").Size()
	c := NewCache(4 * size) // room for four
	for _, k := range []string{"a", "b", "c", "d"} {
		c.Put(k, doc(k))
	}
	if got, ok := c.Get("a"); !ok || got.Title != "a" {
		t.Fatal("a missing")
	}
	c.Put("e", doc("e")) // evicts b, the least recently used
	if _, ok := c.Get("b"); ok {
		t.Error("b not evicted")
	}
	if _, ok := c.Get("a"); !ok {
		t.Error("a evicted")
	}
	if c.Len() != 4 || c.Bytes() != 4*size {
		t.Errorf("Len %d, Bytes %d, want 4 and %d", c.Len(), c.Bytes(), 4*size)
	}
	c.Put("", doc("x"))
	if _, ok := c.Get(""); ok {
		t.Error("empty digest cached")
	}
	// One large page does not take the room of many.
	big := &Document{Terms: make([]string, int(size))}
	c.Put("big", big)
	if _, ok := c.Get("big"); ok || c.Len() != 4 {
		t.Errorf("a document of more than a quarter of the bound was cached (Len %d)", c.Len())
	}
	// The bound holds however large the documents.
	c = NewCache(100 * size)
	for i := range 1000 {
		c.Put(fmt.Sprint(i), &Document{Text: strings.Repeat("w", i*int(size)/40)})
	}
	if c.Bytes() > 100*size {
		t.Errorf("cache holds %d bytes, bound %d", c.Bytes(), 100*size)
	}

	t.Run("Extract once per digest, concurrently", func(t *testing.T) {
		c := NewCache(0)
		body := []byte(template("Chancellor unveils budget", articleParas))
		first, _ := c.Extract("sha1:X", htmlHeader(), body, Options{})
		// Same digest, other bytes: the cache answers, it does not re-extract.
		again, _ := c.Extract("sha1:X", htmlHeader(), []byte("<p>other</p>"), Options{})
		if again != first {
			t.Error("second call re-extracted")
		}
		var wg sync.WaitGroup
		for i := range 16 {
			wg.Go(func() {
				d := fmt.Sprintf("sha1:%d", i%4)
				doc, err := c.Extract(d, htmlHeader(), body, Options{})
				if err != nil || doc.Extractor != ExtractorBody {
					t.Errorf("%v %v", err, doc)
				}
			})
		}
		wg.Wait()
		if c.Len() != 5 {
			t.Errorf("Len %d, want 5", c.Len())
		}
	})
}

func TestCutAtElements(t *testing.T) {
	for _, tc := range []struct {
		in   string
		max  int
		want string
	}{
		{"<p>a</p><p>b</p>", 5, "<p>a</p><p>b</p>"},
		{"<p>a</p><p>b</p><p>c</p>", 2, "<p>a</p><p>b</p>"},
		{"x < y <b>z</b>", 1, "x < y <b>z</b>"},
		{"<a><B><c>", 2, "<a><B>"},
		{"no tags", 0, "no tags"},
		{"<a<b", 2, "<a<b"},
		{"<a<b<c", 2, "<a<b"},
	} {
		if got := string(cutAtElements([]byte(tc.in), tc.max)); got != tc.want {
			t.Errorf("cutAtElements(%q, %d) = %q, want %q", tc.in, tc.max, got, tc.want)
		}
	}
}

// TestTextOnly checks that Options.TextOnly leaves links and dates out and
// changes nothing of the text.
func TestTextOnly(t *testing.T) {
	page := []byte(`<html><head><title>T</title><meta property="article:published_time" content="2005-03-01T10:00:00Z"></head>
<body><article><h1>Budget day</h1><p>The chancellor presented the budget to parliament on Wednesday afternoon.</p>
<p><a href="http://example.com/story/1">More on the budget</a></p></article></body></html>`)
	h := http.Header{"Content-Type": {"text/html; charset=utf-8"}, "Last-Modified": {"Tue, 01 Mar 2005 10:00:00 GMT"}}
	full, err := Extract(h, page, Options{BaseURL: "http://example.com/2005/03/01/budget"})
	if err != nil {
		t.Fatal(err)
	}
	if len(full.Links) == 0 || full.PublishedFrom == "" {
		t.Fatalf("without TextOnly: links %v, published from %q; the page has both", full.Links, full.PublishedFrom)
	}
	lean, err := Extract(h, page, Options{BaseURL: "http://example.com/2005/03/01/budget", TextOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(lean.Links) != 0 || !lean.Published.IsZero() || lean.PublishedFrom != "" {
		t.Errorf("TextOnly: links %v, published %v from %q; want none", lean.Links, lean.Published, lean.PublishedFrom)
	}
	if lean.Text != full.Text || !slices.Equal(lean.Terms, full.Terms) || lean.Title != full.Title {
		t.Errorf("TextOnly changed the text: %q / %q", lean.Text, full.Text)
	}
}

func TestStyleHides(t *testing.T) {
	for _, tt := range []struct {
		style string
		want  bool
	}{
		{"display: none", true},
		{"visibility:hidden", true},
		{"DISPLAY:NONE !important", true},
		{"opacity:0", true},
		{"font-size: 0px", true},
		{"height: 0pt;width: 2pt;position: absolute;overflow: auto;", true},
		{"width:0;overflow:hidden", true},
		{"position:absolute; left:-9999px", true},
		{"text-indent:-10000px", true},
		{"display:block", false},
		{"height:0", false}, // a cleared float: its text flows out of it
		{"height:100px;overflow:hidden", false},
		{"position:absolute;left:10px", false},
		{"opacity:0.5", false},
		{"font-size:10px", false},
		{"color:red", false},
		{"height:auto;overflow:hidden", false},
		{"position:absolute;left:auto;top:-", false},
		{"width:inherit;overflow:hidden;height:0", true},
	} {
		if got := styleHides(tt.style); got != tt.want {
			t.Errorf("styleHides(%q) = %v, want %v", tt.style, got, tt.want)
		}
	}
}
