package extract

import (
	"slices"
	"strings"
	"testing"
)

// thinPage is a page of a few words with head and body markup added.
func thinPage(head, body string) string {
	return `<html><head><title>Moved</title>` + head + `</head><body><p>This page has moved.</p>` + body + `</body></html>`
}

func TestRedirect(t *testing.T) {
	const base = "http://old.example/news/story.html"
	refresh := func(content string) string {
		return thinPage(`<meta http-equiv="refresh" content="`+content+`">`, "")
	}
	script := func(js string) string { return thinPage("", "<script>"+js+"</script>") }
	tests := []struct {
		name, page, base, want string
	}{
		{"meta refresh", refresh("0; url=http://new.example/"), "", "http://new.example/"},
		{"any case, quotes, spaces", thinPage(`<META HTTP-EQUIV="Refresh" CONTENT=" 5 ;URL = 'http://new.example/a b'">`, ""), "", "http://new.example/a%20b"},
		{"comma and a fraction", refresh("1.5,url=http://new.example/x"), "", "http://new.example/x"},
		{"no url= before the URL", refresh("0;http://new.example/"), "", "http://new.example/"},
		{"resolved against the page", refresh("2; URL=../moved/"), base, "http://old.example/moved/"},
		{"resolved against base href", thinPage(`<base href="http://b.example/dir/"><meta http-equiv="refresh" content="0;url=page.html#top">`, ""), "", "http://b.example/dir/page.html"},
		{"kept as written without a base", refresh("0;url=new/index.html"), "", "new/index.html"},
		{"protocol-relative without a base", refresh("0;url=//new.example/a"), "", "//new.example/a"},
		{"a URL in the query without a base", refresh("0;url=go.php?to=http://new.example/"), "", "go.php?to=http://new.example/"},
		{"absolute without a base", refresh("0;url=HTTP://New.Example/A#b"), "", "http://new.example/A"},
		{"ten seconds", refresh("10; url=http://new.example/"), "", "http://new.example/"},
		{"eleven seconds is a page of its own", refresh("11; url=http://new.example/"), "", ""},
		{"a reload names no URL", refresh("30"), base, ""},
		{"a reload of the page itself", refresh("0; url=story.html"), base, ""},
		{"javascript: is no page", refresh("0; url=javascript:go()"), "", ""},
		{"not a number", refresh("soon; url=http://new.example/"), "", ""},
		{"delay 300 on a full page", template("t", `<meta http-equiv="refresh" content="300; url=http://new.example/">`+articleParas), "", ""},
		{"delay 5 on a full page", template("t", `<meta http-equiv="refresh" content="5; url=http://new.example/">`+articleParas), "", ""},
		{"delay 0 leaves a full page at once", template("t", `<meta http-equiv="refresh" content="0; url=http://new.example/">`+articleParas), "", "http://new.example/"},

		{"location =", script(`location = "http://new.example/";`), "", "http://new.example/"},
		{"location.href =", script(`location.href='/new'`), base, "http://old.example/new"},
		{"window.location.href =", script("if (true) {\n  window.location.href = \"http://new.example/\"\n}"), "", "http://new.example/"},
		{"document.location =", script(`document.location = "http://new.example/d";`), "", "http://new.example/d"},
		{"top.location =", script(`top.location="http://new.example/t";`), "", "http://new.example/t"},
		{"window.top.location.href =", script(`window.top.location.href = "http://new.example/wt";`), "", "http://new.example/wt"},
		{"location.replace", script(`location.replace("http://new.example/r");`), "", "http://new.example/r"},
		{"location.assign", script(`location.assign('http://new.example/a')`), "", "http://new.example/a"},
		{"window.location.replace", script(`setTimeout(function(){ window.location.replace( "http://new.example/w" ) }, 0);`), "", "http://new.example/w"},
		{"escapes in the literal", script(`location.href = "http:\/\/new.example\/e";`), "", "http://new.example/e"},
		{"a variable holding the URL", script("redirURL = \"http://new.example/v\";\nfunction redirTimer() { self.setTimeout(\"self.location.href = redirURL;\", 7500); }"), "", "http://new.example/v"},
		{"a variable holding an expression", script(`var next = "/p?id=" + id; location.href = next;`), "", ""},
		{"meta refresh comes first", thinPage(`<meta http-equiv="refresh" content="0;url=http://new.example/m">`, `<script>location.href="http://new.example/s"</script>`), "", "http://new.example/m"},

		{"onclick on a full page", template("t", `<p><a href="#" onclick="location.href='http://new.example/'; return false">Go</a></p>`+articleParas), "", ""},
		{"a script on a full page", template("t", articleParas+`<script>function go() { location.href = "http://new.example/"; }</script>`), "", ""},
		{"a URL built at run time", script(`location.href = "/search?q=" + encodeURIComponent(q);`), base, ""},
		{"a comparison", script(`if (location.href == "http://old.example/") { x() }`), "", ""},
		{"another object's location", script(`place.location = "Paris, France"; var geo_location = "x";`), "", ""},
		{"href being worked on", script(`var u = location.href.replace("http:", "https:");`), "", ""},
		{"a comment", script("// location.href = \"http://new.example/\";\nrun(); /* x */ //location = 'http://new.example/'"), "", ""},
		{"a URL before on the line", script(`var a = "http://other.example/"; location.href = "http://new.example/l";`), "", "http://new.example/l"},
		{"an external script's body", thinPage("", `<script src="/r.js">location.href="http://new.example/"</script>`), "", ""},
		{"JSON is not run", thinPage("", `<script type="application/json">{"a": "location.href = 'http://new.example/'"}</script>`), "", ""},
		{"javascript: target", script(`location.href = "javascript:void(0)";`), "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := mustExtractWith(t, htmlHeader(), tt.page, Options{BaseURL: tt.base})
			if doc.Redirect != tt.want {
				t.Errorf("Redirect = %q, want %q", doc.Redirect, tt.want)
			}
		})
	}
}

func TestParseRefresh(t *testing.T) {
	tests := []struct {
		in    string
		delay int
		ref   string
		ok    bool
	}{
		{"0; url=http://a/", 0, "http://a/", true},
		{"0;URL='http://a/b'extra", 0, "http://a/b", true},
		{`  3 , url = "x y" `, 3, "x y", true},
		{"5", 5, "", false},
		{"5;", 5, "", false},
		{".5; url=a", 0, "a", true},
		{"url=a", 0, "", false},
		{"10x; url=a", 0, "", false},
		{"0; urlx", 0, "urlx", true},
	}
	for _, tt := range tests {
		delay, ref, ok := parseRefresh(tt.in)
		if delay != tt.delay || ref != tt.ref || ok != tt.ok {
			t.Errorf("parseRefresh(%q) = %d %q %v, want %d %q %v", tt.in, delay, ref, ok, tt.delay, tt.ref, tt.ok)
		}
	}
}

func TestFrames(t *testing.T) {
	const base = "http://old.example/dir/index.html"
	iframePage := func(body string) string {
		return `<html><head><title>Example</title></head><body style="margin:0">` + body + `</body></html>`
	}
	tests := []struct {
		name, page, base string
		want             []string
		text             string // Text
	}{
		{"nested framesets", `<html><head><title>NMJD</title></head><frameset rows="158,*,50"><frame name="top" src="top%20frame.htm">
<frameset cols="190,*"><frame src="left.htm"><frame name="main" src="main.htm"></frameset><frame src="bottom.htm">
<noframes><body><p>` + story + `</p></body></noframes></frameset></html>`, base,
			[]string{"http://old.example/dir/top%20frame.htm", "http://old.example/dir/left.htm", "http://old.example/dir/main.htm", "http://old.example/dir/bottom.htm"}, ""},
		{"as written without a base", `<frameset cols="20%,*"><frame src="menu.html"><frame src="http://b.example/main.html#x"></frameset>`, "",
			[]string{"menu.html", "http://b.example/main.html"}, ""},
		{"masking frameset; blank, script and empty frames", `<html><head><title>example.com</title></head><frameset rows="100%,*" border="0">
<frame src="http://target.example/" frameborder="0"><frame frameborder="0" noresize><frame src="about:blank"><frame src="javascript:''"><frame src="http://target.example/"></frameset></html>`, "",
			[]string{"http://target.example/"}, ""},
		{"a frameset of blank frames shows its noframes", `<frameset cols="*"><frame src="about:blank"><noframes><p>` + story + `</p></noframes></frameset>`, "",
			nil, story},
		{"masking iframe, sized in attributes", iframePage(`<iframe src="http://target.example/" width="100%" height="100%" frameborder="0"></iframe>`), "",
			[]string{"http://target.example/"}, ""},
		{"masking iframe, sized in style", iframePage(`<iframe src="/app/" style="position:fixed; top:0; left:0; border:none; WIDTH: 100vw; height:100% !important"></iframe><p>Loading</p>`), base,
			[]string{"http://old.example/app/"}, "Loading"},
		{"full-size iframe under a header", iframePage(`<header><h1>Example Corp</h1><nav><a href="/">Home</a> <a href="/about">About</a></nav></header><p>Our catalogue, from our supplier:</p>
<iframe src="http://catalogue.example/" style="width:100%;height:100%"></iframe>`), "",
			[]string{"http://catalogue.example/"}, "Our catalogue, from our supplier:"},
		{"the only thing on the page", iframePage(`<iframe src="http://target.example/" frameborder="0"></iframe><iframe src="https://tracker.example/p" width="1" height="1"></iframe><img src="/pixel.gif" width="1" height="1">`), "",
			[]string{"http://target.example/"}, ""},

		{"a tracking iframe is not a frame", iframePage(`<p>Welcome</p><iframe src="https://www.googletagmanager.com/ns.html?id=GTM-X" height="0" width="0" style="display:none;visibility:hidden"></iframe>`), "",
			nil, "Welcome"},
		{"a hidden full-size iframe", iframePage(`<div style="display: none"><iframe src="http://target.example/" width="100%" height="100%"></iframe></div>`), "", nil, ""},
		{"a pixel sized in style", iframePage(`<iframe src="http://t.example/" style="width:1px;height:1px"></iframe>`), "", nil, ""},
		{"a video player is not the page", iframePage(`<h1>Our video</h1><iframe width="560" height="315" src="https://www.youtube.com/embed/x"></iframe>`), "", nil, "Our video"},
		{"an iframe beside an image", iframePage(`<img src="/logo.png" alt=""><iframe src="http://target.example/"></iframe>`), "", nil, ""},
		{"an iframe beside a paragraph", iframePage(`<p>` + strings.Repeat("word ", 30) + `</p><iframe src="http://target.example/"></iframe>`), "", nil, strings.TrimSpace(strings.Repeat("word ", 30))},
		{"a blank full-size iframe", iframePage(`<iframe src="about:blank" width="100%" height="100%"></iframe>`), "", nil, ""},
		{"a full-size iframe in an article", template("t", articleParas+`<iframe src="http://target.example/" width="100%" height="100%"></iframe>`), "", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := mustExtractWith(t, htmlHeader(), tt.page, Options{BaseURL: tt.base})
			if !slices.Equal(doc.Frames, tt.want) {
				t.Errorf("Frames = %q, want %q", doc.Frames, tt.want)
			}
			if tt.text != "" || doc.ContentWords < ThinWords {
				if doc.Text != tt.text {
					t.Errorf("Text = %q, want %q", doc.Text, tt.text)
				}
			}
		})
	}
}

func TestShell(t *testing.T) {
	page := func(head, body string) string {
		return `<!doctype html><html><head><meta charset="utf-8"><title>App</title>` + head + `</head><body>` + body + `</body></html>`
	}
	const bundle = `<script src="/static/js/main.4f2a.js"></script>`
	tests := []struct {
		name, page string
		shell      bool
		text       string
	}{
		{"create-react-app", page(``, `<noscript>You need to enable JavaScript to run this app.</noscript><div id="root"></div>`+bundle), true, ""},
		{"vue's longer notice", page(bundle, `<noscript><strong>We're sorry but this app doesn't work properly without JavaScript enabled. Please enable it to continue.</strong></noscript><div id="app"></div>`), true, ""},
		{"a notice in Russian", page(bundle, `<noscript>Для работы приложения необходимо включить JavaScript в браузере.</noscript><div id="root"></div>`), true, ""},
		{"angular's placeholder", page(bundle, `<app-root>Loading...</app-root>`), true, "Loading..."},
		{"a placeholder in Japanese", page(bundle, `<div id="__next"><p>読み込み中</p></div>`), true, "読み込み中"},
		{"an inline script and nothing else", page(`<script>document.write(render())</script>`, ``), true, ""},
		{"a mount point without scripts", page(``, `<div id="root"></div>`), true, ""},

		{"blank: no scripts, no words", page(``, `<div></div><noscript>Enable JavaScript</noscript>`), false, ""},
		{"JSON-LD does not run", page(`<script type="application/ld+json">{"@type":"WebSite","name":"Example site"}</script>`, ``), false, ""},
		{"a page of its own with a script", page(bundle, `<h1>Page not found</h1>`), false, "Page not found"},
		{"chrome of its own", page(bundle, `<nav><a href="/">Home</a> <a href="/a">About</a></nav><div id="root"></div>`), false, ""},
		{"a server-rendered 404 in the mount point", page(bundle, `<div id="__next"><h1>404</h1><h2>This page could not be found.</h2></div>`), false, "404 This page could not be found."},
		{"a wrapper with an id of root is not a placeholder", page(bundle, `<div id="root"><div class="page"><p>Welcome to our home on the web</p></div></div>`), false, "Welcome to our home on the web"},
		{"state renders the page", page(bundle, `<div id="root"></div><script>window.__INITIAL_STATE__ = {"story":"`+story+`"}</script>`), false, story},
		{"noscript holds the page", page(bundle, `<div id="root"></div><noscript><p>`+story+`</p></noscript>`), false, story},
		{"a redirect", page(bundle, `<script>location.replace("http://new.example/")</script>`), false, ""},
		{"a frame", page(bundle, `<iframe src="http://new.example/" style="width:100%;height:100%"></iframe>`), false, ""},
		{"a template with blank content", template("Gazette", ""), false, ""},
		{"a splash page of images with analytics", page(`<script>var _gaq = _gaq || []; _gaq.push(['_trackPageview']);</script>`,
			`<table><tr><td><a href="en/"><img src="eng.gif" alt=""></a></td><td><a href="ar/"><img src="ara.gif" alt=""></a></td></tr></table>`), false, ""},
		{"a tracking pixel is no image", page(bundle, `<img src="/p.gif" width="1" height="1"><div id="root"><img src="/spinner.gif"></div>`), true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := mustExtract(t, htmlHeader(), tt.page)
			if doc.Shell != tt.shell || doc.Text != tt.text {
				t.Errorf("Shell %v, Text %q; want %v, %q", doc.Shell, doc.Text, tt.shell, tt.text)
			}
		})
	}
}

// TestReplayOnRealPages: what replay shows of real-1068's pages (Archive-It's
// human-rights collection, 2008-2013), as its pages were served.
func TestReplayOnRealPages(t *testing.T) {
	tests := []struct {
		uri, what string
		ok        func(*Document) bool
		none      bool // no capture may be so
	}{
		{"http://www.nmjd.org/", "its nested framesets", func(d *Document) bool {
			return slices.Contains(d.Frames, "http://www.nmjd.org/main%20frame.htm") && d.Text == ""
		}, false},
		{"http://www.nmjd.org/", "its meta refresh", func(d *Document) bool { return d.Redirect == "http://www.nmjd.org/home" }, false},
		{"http://www.acdauk.org.uk/", "a parked domain's full-page frame", func(d *Document) bool {
			return slices.Equal(d.Frames, []string{"http://www.acdauk.org.uk/defaultsite"})
		}, false},
		{"http://www.ahrchk.net/index.php", `"forwarded in 10 seconds" by a script`, func(d *Document) bool { return d.Redirect == "http://www.humanrights.asia/" }, false},
		{"http://www.amnesty.org.ar/", `"Nos mudamos!"`, func(d *Document) bool { return d.Redirect == "http://www.amnistia.org.ar/" }, false},
		{"http://www.conadeh.hn/", "a full page that leaves at once", func(d *Document) bool {
			return d.Redirect == "http://www.conadeh.hn/Joomla/" && d.ContentWords > 1000
		}, false},
		{"http://wa7damasrya.blogspot.com/", "Blogger's dynamic views", func(d *Document) bool { return d.Shell && d.Text == "" }, false},
		{"http://www.wclac.org/", "an image splash as a shell", func(d *Document) bool { return d.Shell }, true},
	}
	docs := map[string][]*Document{} // by URI-R
	for _, tt := range tests {
		docs[tt.uri] = nil
	}
	seen := map[string]bool{}
	for _, r := range loadCollection(t, "real-1068") {
		if _, ok := docs[r.uri]; !ok || seen[r.digest] {
			continue
		}
		seen[r.digest] = true
		doc, err := Extract(r.header, r.body, Options{TextOnly: true, BaseURL: r.uri})
		if err != nil {
			t.Fatalf("%s: %v", r.uri, err)
		}
		docs[r.uri] = append(docs[r.uri], doc)
	}
	for _, tt := range tests {
		found := slices.ContainsFunc(docs[tt.uri], tt.ok)
		if len(docs[tt.uri]) == 0 {
			t.Errorf("%s: no capture", tt.uri)
		} else if found == tt.none {
			t.Errorf("%s: %s: found %v, want %v", tt.uri, tt.what, found, !tt.none)
		}
	}
}

// TestCanonical: the addresses a page names as its own, from its canonical
// link and its og:url, twitter:url and url meta tags, resolved, each once.
func TestCanonical(t *testing.T) {
	const base = "http://blogs.example.net/liveblog/egypt"
	tests := []struct {
		name, head, base string
		want             []string
	}{
		{"canonical link", `<link rel="canonical" href="http://blogs.example.net/2006/05/old-story.html">`, base,
			[]string{"http://blogs.example.net/2006/05/old-story.html"}},
		{"og:url and meta url, the same address once", `<meta property="og:url" content="/2006/05/old-story.html#x"><meta name="url" content="http://blogs.example.net/2006/05/old-story.html">`, base,
			[]string{"http://blogs.example.net/2006/05/old-story.html"}},
		{"rel among others, any case", `<LINK REL="Canonical shortlink" HREF="/a">`, base, []string{"http://blogs.example.net/a"}},
		{"twitter:url and canonical differ", `<link rel="canonical" href="http://example.net/a"><meta name="twitter:url" content="http://example.net/b">`, "",
			[]string{"http://example.net/a", "http://example.net/b"}},
		{"not a canonical link", `<link rel="stylesheet" href="/s.css"><link rel="alternate" href="/feed">`, base, nil},
		{"microdata names listed posts, not the page", `<div itemscope><meta itemprop="url" content="/2006/05/post.html"></div>`, base, nil},
		{"a host without its scheme", `<meta property="og:url" content="www.blogs.example.net/">`, base, []string{"http://www.blogs.example.net/"}},
		{"not a URL", `<link rel="canonical" href="javascript:void(0)"><meta property="og:url" content="">`, base, nil},
		{"at most three", `<meta name="url" content="http://e.org/1"><meta name="url" content="http://e.org/2"><meta name="url" content="http://e.org/3"><meta name="url" content="http://e.org/4">`, "",
			[]string{"http://e.org/1", "http://e.org/2", "http://e.org/3"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := Extract(nil, []byte(template("t", tt.head+articleParas)), Options{BaseURL: tt.base, TextOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(doc.Canonical, tt.want) {
				t.Errorf("Canonical = %q, want %q", doc.Canonical, tt.want)
			}
		})
	}
}
