package extract

import (
	"bufio"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/offtopic/offtopic/internal/testcorpus"
	"golang.org/x/net/html"
)

func utc(y int, m time.Month, d, hh, mm, ss int) time.Time {
	return time.Date(y, m, d, hh, mm, ss, 0, time.UTC)
}

func TestParseDate(t *testing.T) {
	tests := []struct {
		in   string
		want time.Time
		ok   bool
	}{
		{"2005-04-12T10:00:00Z", utc(2005, 4, 12, 10, 0, 0), true},
		{"2005-04-12T10:00:00+01:00", utc(2005, 4, 12, 9, 0, 0), true},
		{"2005-04-12T10:00:00.123Z", time.Date(2005, 4, 12, 10, 0, 0, 123e6, time.UTC), true},
		{"2005-04-12T10:00+02:00", utc(2005, 4, 12, 8, 0, 0), true},
		{"2005-04-12T10:00:00+0100", utc(2005, 4, 12, 9, 0, 0), true},
		{"2005-04-12T10:00:00", utc(2005, 4, 12, 10, 0, 0), true},
		{"2005-04-12T10:00", utc(2005, 4, 12, 10, 0, 0), true},
		{"2005-04-12 10:00:00", utc(2005, 4, 12, 10, 0, 0), true},
		{"2005-04-12", utc(2005, 4, 12, 0, 0, 0), true},
		{"  2005-04-12\n", utc(2005, 4, 12, 0, 0, 0), true},
		{"2005-04-12t10:00:00z", utc(2005, 4, 12, 10, 0, 0), true},
		{"Tue, 12 Apr 2005 10:00:00 GMT", utc(2005, 4, 12, 10, 0, 0), true},
		{"Tue, 12 Apr 2005 10:00:00 +0200", utc(2005, 4, 12, 8, 0, 0), true},
		{"12 April 2005", utc(2005, 4, 12, 0, 0, 0), true},
		{"12th April 2005", utc(2005, 4, 12, 0, 0, 0), true},
		{"April 12, 2005", utc(2005, 4, 12, 0, 0, 0), true},
		{"12 apr 2005", utc(2005, 4, 12, 0, 0, 0), true},
		{"20050412", utc(2005, 4, 12, 0, 0, 0), true},
		// Implausible or not dates.
		{"1970-01-01T00:00:00Z", time.Time{}, false},
		{"1989-12-31", time.Time{}, false},
		{"2101-01-01", time.Time{}, false},
		{"0001-01-01T00:00:00Z", time.Time{}, false},
		{"2005-02-30", time.Time{}, false},
		{"2005-13-01", time.Time{}, false},
		{"yesterday", time.Time{}, false},
		{"", time.Time{}, false},
		{"10:00", time.Time{}, false},
	}
	for _, tt := range tests {
		got, ok := parseDate(tt.in)
		if ok != tt.ok || !got.Equal(tt.want) {
			t.Errorf("parseDate(%q) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
		if ok && got.Location() != time.UTC {
			t.Errorf("parseDate(%q) not in UTC: %v", tt.in, got)
		}
	}
}

func TestDateFromURL(t *testing.T) {
	tests := []struct {
		in   string
		want time.Time
		ok   bool
	}{
		{"http://example.com/2005/04/12/story.html", utc(2005, 4, 12, 0, 0, 0), true},
		{"http://example.com/news/2005/4/2/story", utc(2005, 4, 2, 0, 0, 0), true},
		{"http://example.com/2005/04/12.html", utc(2005, 4, 12, 0, 0, 0), true},
		{"http://example.com/2005/04/12", utc(2005, 4, 12, 0, 0, 0), true},
		{"http://example.com/news/2005-04-12-budget.html", utc(2005, 4, 12, 0, 0, 0), true},
		{"http://example.com/2005-04-12/budget", utc(2005, 4, 12, 0, 0, 0), true},
		{"http://example.com/archive/20050412/budget.html", utc(2005, 4, 12, 0, 0, 0), true},
		{"http://example.com/story_20050412.html", utc(2005, 4, 12, 0, 0, 0), true},
		{"/2005/04/12/relative.html", utc(2005, 4, 12, 0, 0, 0), true},
		// Not dates.
		{"http://example.com/story.php?id=20050412", time.Time{}, false}, // query
		{"http://example.com/story.php?id=12345", time.Time{}, false},
		{"http://example.com/2005/13/12/story.html", time.Time{}, false},
		{"http://example.com/2005/02/30/story.html", time.Time{}, false},
		{"http://example.com/1985/04/12/story.html", time.Time{}, false},
		{"http://example.com/item/123456789/", time.Time{}, false}, // 9 digits
		{"http://example.com/item/99999999", time.Time{}, false},
		{"http://example.com/2005/story.html", time.Time{}, false},
		{"http://example.com/", time.Time{}, false},
		{"", time.Time{}, false},
	}
	for _, tt := range tests {
		got, ok := DateFromURL(tt.in)
		if ok != tt.ok || !got.Equal(tt.want) {
			t.Errorf("DateFromURL(%q) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func parseHTML(t testing.TB, s string) *html.Node {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(s))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func TestPublicationDate(t *testing.T) {
	const (
		metaTag   = `<meta property="article:published_time" content="2005-04-12T10:00:00Z">`
		jsonld    = `<script type="application/ld+json">{"@type":"NewsArticle","datePublished":"2005-04-13T10:00:00Z"}</script>`
		timeTag   = `<time itemprop="datePublished" datetime="2005-04-14T10:00:00Z">14 April</time>`
		urlDated  = "http://example.com/2005/04/15/story.html"
		urlPlain  = "http://example.com/news/story.html"
		d12, d13  = "2005-04-12T10:00:00Z", "2005-04-13T10:00:00Z"
		d14, d15  = "2005-04-14T10:00:00Z", "2005-04-15T00:00:00Z"
		page      = `<html><head>%s</head><body><article><h1>T</h1>%s<p>text</p></article></body></html>`
		noneFound = ""
	)
	pg := func(head, body string) string {
		return strings.Replace(strings.Replace(page, "%s", head, 1), "%s", body, 1)
	}
	tests := []struct {
		name, page, url string
		want, from      string
	}{
		{"meta", pg(metaTag, ""), urlPlain, d12, "meta"},
		{"og meta", pg(`<meta property="og:published_time" content="2005-04-12T10:00:00Z">`, ""), urlPlain, d12, "meta"},
		{"dc.date", pg(`<meta name="DC.date" content="2005-04-12T10:00:00Z">`, ""), urlPlain, d12, "meta"},
		{"date meta", pg(`<meta name="date" content="Tue, 12 Apr 2005 10:00:00 GMT">`, ""), urlPlain, d12, "meta"},
		{"meta itemprop", pg("", `<meta itemprop="datePublished" content="2005-04-12T10:00:00Z">`), urlPlain, d12, "meta"},
		{"meta rank", pg(`<meta name="date" content="2001-01-01"><meta property="article:published_time" content="2005-04-12T10:00:00Z">`, ""), urlPlain, d12, "meta"},
		{"modified ignored", pg(`<meta property="article:modified_time" content="2006-01-01T00:00:00Z">`, ""), urlPlain, noneFound, ""},
		{"jsonld", pg(jsonld, ""), urlPlain, d13, "jsonld"},
		{"jsonld graph", pg(`<script type="application/ld+json">{"@context":"https://schema.org","@graph":[{"@type":"WebPage","dateModified":"2006-01-01"},{"@type":"NewsArticle","datePublished":"2005-04-13T10:00:00Z"}]}</script>`, ""), urlPlain, d13, "jsonld"},
		{"jsonld array", pg(`<script type="application/ld+json">[{"@type":"Organization"},{"@type":"Article","datePublished":["bad","2005-04-13T10:00:00Z"]}]</script>`, ""), urlPlain, d13, "jsonld"},
		{"jsonld @value", pg(`<script type="application/ld+json">{"datePublished":{"@value":"2005-04-13T10:00:00Z"}}</script>`, ""), urlPlain, d13, "jsonld"},
		{"jsonld broken json", pg(`<script type="application/ld+json">{"datePublished": "2005-04-13T10:00:00Z",}</script>`, ""), urlPlain, d13, "jsonld"},
		{"jsonld dateModified only", pg(`<script type="application/ld+json">{"@type":"WebPage","dateModified":"2005-04-13T10:00:00"}</script>`, ""), urlPlain, noneFound, ""},
		{"time itemprop", pg("", timeTag), urlPlain, d14, "time"},
		{"time pubdate", pg("", `<time pubdate datetime="2005-04-14T10:00:00Z"></time>`), urlPlain, d14, "time"},
		{"time text", pg("", `<time pubdate>14 April 2005</time>`), urlPlain, "2005-04-14T00:00:00Z", "time"},
		{"time in article", pg("", `<time datetime="2005-04-14T10:00:00Z"></time><time datetime="2005-04-20"></time>`), urlPlain, d14, "time"},
		{"time outside article", `<html><body><time datetime="2005-04-14T10:00:00Z"></time></body></html>`, urlPlain, noneFound, ""},
		{"url", pg("", ""), urlDated, d15, "url"},
		{"none", pg("", ""), urlPlain, noneFound, ""},
		{"no url", pg("", ""), "", noneFound, ""},
		// Priority meta > jsonld > time > url.
		{"meta beats all", pg(metaTag+jsonld, timeTag), urlDated, d12, "meta"},
		{"jsonld beats time", pg(jsonld, timeTag), urlDated, d13, "jsonld"},
		{"time beats url", pg("", timeTag), urlDated, d14, "time"},
		// Bad values fall through to the next source.
		{"bad meta", pg(`<meta property="article:published_time" content="soon">`+jsonld, ""), urlPlain, d13, "jsonld"},
		{"implausible meta", pg(`<meta property="article:published_time" content="1970-01-01T00:00:00Z">`, ""), urlDated, d15, "url"},
		{"implausible jsonld", pg(`<script type="application/ld+json">{"datePublished":"2150-01-01"}</script>`, timeTag), urlPlain, d14, "time"},
		{"bad time", pg("", `<time pubdate datetime="0000-00-00"></time>`), urlDated, d15, "url"},
		// A byline in the text, after the page's markup and before its URL.
		{"byline with time", pg("", `<p class="byline">Published 14 April 2005 10:00</p><p>Last updated 04 May 2005</p>`), urlDated, d14, "byline"},
		{"byline posted on", pg("", `<p>Posted on: April 14, 2005</p>`), urlPlain, "2005-04-14T00:00:00Z", "byline"},
		{"byline iso", pg("", `<div>published 2005-04-14</div>`), urlPlain, "2005-04-14T00:00:00Z", "byline"},
		{"byline bad time keeps the day", pg("", `<p>Published 14 April 2005 99:99</p>`), urlPlain, "2005-04-14T00:00:00Z", "byline"},
		{"byline in a script is none", pg(`<script>var s = "Published 14 April 2005";</script>`, ""), urlDated, d15, "url"},
		{"byline implausible", pg("", `<p>Published 1 January 1900</p>`), urlDated, d15, "url"},
		{"time beats byline", pg("", timeTag+`<p>Published 20 April 2005</p>`), urlPlain, d14, "time"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, from := PublicationDate(parseHTML(t, tt.page), tt.url)
			var want time.Time
			if tt.want != "" {
				want, _ = time.Parse(time.RFC3339, tt.want)
			}
			if !got.Equal(want) || from != tt.from {
				t.Errorf("got %v %q, want %v %q", got, from, want, tt.from)
			}
			// Extract agrees, during its single parse.
			doc, _ := Extract(htmlHeader(), []byte(tt.page), Options{BaseURL: tt.url})
			if !doc.Published.Equal(want) || doc.PublishedFrom != tt.from {
				t.Errorf("Extract: got %v %q, want %v %q", doc.Published, doc.PublishedFrom, want, tt.from)
			}
		})
	}
}

func TestLastModified(t *testing.T) {
	tests := []struct {
		name, lm, date string
		want           time.Time
		ok             bool
	}{
		{"RFC 1123", "Tue, 12 Apr 2005 08:00:00 GMT", "", utc(2005, 4, 12, 8, 0, 0), true},
		{"RFC 850", "Tuesday, 12-Apr-05 08:00:00 GMT", "", utc(2005, 4, 12, 8, 0, 0), true},
		{"before the response's Date", "Tue, 12 Apr 2005 08:00:00 GMT", "Wed, 13 Apr 2005 08:00:00 GMT", utc(2005, 4, 12, 8, 0, 0), true},
		{"after the response's Date", "Tue, 12 Apr 2005 08:00:00 GMT", "Mon, 11 Apr 2005 08:00:00 GMT", time.Time{}, false},
		{"epoch", "Thu, 01 Jan 1970 00:00:00 GMT", "", time.Time{}, false},
		{"unparseable", "yesterday", "", time.Time{}, false},
		{"absent", "", "", time.Time{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := http.Header{}
			if tt.lm != "" {
				h.Set("Last-Modified", tt.lm)
			}
			if tt.date != "" {
				h.Set("Date", tt.date)
			}
			got, ok := LastModified(h)
			if ok != tt.ok || !got.Equal(tt.want) {
				t.Errorf("LastModified = %v %v, want %v %v", got, ok, tt.want, tt.ok)
			}
		})
	}
	// Extract takes it only when the page states nothing, its URL included.
	h := htmlHeader()
	h.Set("Last-Modified", "Tue, 12 Apr 2005 08:00:00 GMT")
	body := []byte(`<html><body><p>words</p></body></html>`)
	for _, tt := range []struct {
		url, from string
	}{
		{"http://example.com/news/a.html", PublishedFromLastModified},
		{"http://example.com/2005/04/15/a.html", PublishedFromURL},
		{"", PublishedFromLastModified},
	} {
		if doc, _ := Extract(h, body, Options{BaseURL: tt.url}); doc.PublishedFrom != tt.from {
			t.Errorf("%q: published from %q, want %q", tt.url, doc.PublishedFrom, tt.from)
		}
	}
}

func TestExtractPublishedNonHTML(t *testing.T) {
	h := http.Header{"Content-Type": {"text/plain"}}
	doc, _ := Extract(h, []byte("plain words here"), Options{BaseURL: "http://example.com/2005/04/12/notes.txt"})
	if doc.PublishedFrom != PublishedFromURL || !doc.Published.Equal(utc(2005, 4, 12, 0, 0, 0)) {
		t.Errorf("text/plain: got %v %q", doc.Published, doc.PublishedFrom)
	}
	doc, _ = Extract(h, []byte("plain words here"), Options{})
	if doc.PublishedFrom != "" || !doc.Published.IsZero() {
		t.Errorf("no URL: got %v %q", doc.Published, doc.PublishedFrom)
	}
}

// TestEventArchive checks dates and links on the event-dev news archive
// (skipped when absent): most article pages must yield a publication date
// agreeing with the archive's relevant.tsv, and links.
func TestEventArchive(t *testing.T) {
	dir := testcorpus.Corpus(t, "event-dev")
	files, _ := filepath.Glob(filepath.Join(dir, "archive", "*.warc.gz"))
	if len(files) == 0 {
		t.Skip("event-dev archive not found (set OFFTOPIC_SHARED)")
	}
	truth := map[string]time.Time{}
	tsvs, _ := filepath.Glob(filepath.Join(dir, "*", "relevant.tsv"))
	for _, p := range tsvs {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			fs := strings.Split(sc.Text(), "\t")
			if len(fs) < 2 {
				continue
			}
			if d, err := time.Parse(time.RFC3339, fs[1]); err == nil {
				truth[fs[0]] = d
			}
		}
		f.Close()
	}
	byFrom := map[string]int{}
	var articles, dated, withLinks, agree, disagree, homes, homeLinks, totalLinks int
	for _, f := range files {
		recs, err := readWARCResponses(f)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, r := range recs {
			if !strings.Contains(r.status, " 200") {
				continue
			}
			doc, err := Extract(r.header, r.body, Options{BaseURL: r.uri})
			if err != nil {
				t.Errorf("%s: %v", r.uri, err)
				continue
			}
			for _, l := range doc.Links {
				if l := l.URL; !strings.HasPrefix(l, "http://") && !strings.HasPrefix(l, "https://") || strings.Contains(l, "#") {
					t.Errorf("%s: bad link %q", r.uri, l)
				}
			}
			if strings.HasSuffix(r.uri, "/") && strings.Count(r.uri, "/") == 3 {
				homes++
				if len(doc.Links) > 0 {
					homeLinks++
				}
				continue
			}
			articles++
			totalLinks += len(doc.Links)
			byFrom[doc.PublishedFrom]++
			if !doc.Published.IsZero() {
				dated++
			}
			if len(doc.Links) > 0 {
				withLinks++
			}
			if want, ok := truth[r.uri]; ok && !doc.Published.IsZero() {
				// A URL date is the day only.
				if doc.Published.Equal(want) || doc.PublishedFrom == PublishedFromURL && doc.Published.Equal(want.Truncate(24*time.Hour)) {
					agree++
				} else {
					disagree++
					if disagree <= 5 {
						t.Logf("%s: published %v from %s, relevant.tsv says %v", r.uri, doc.Published, doc.PublishedFrom, want)
					}
				}
			}
		}
	}
	t.Logf("%d article captures: %d dated, by source %v; %d with links (%.1f per page); %d/%d home pages with links; dates vs relevant.tsv: %d agree, %d disagree",
		articles, dated, byFrom, withLinks, float64(totalLinks)/float64(max(articles, 1)), homeLinks, homes, agree, disagree)
	if articles == 0 {
		t.Fatal("no article pages")
	}
	if dated*10 < articles*6 {
		t.Errorf("only %d of %d article captures dated", dated, articles)
	}
	if withLinks*10 < articles*9 || homeLinks*10 < homes*9 {
		t.Errorf("links: %d of %d articles, %d of %d home pages", withLinks, articles, homeLinks, homes)
	}
	if disagree*50 > agree {
		t.Errorf("dates disagree with relevant.tsv: %d agree, %d disagree", agree, disagree)
	}
}

func TestCopyrightYear(t *testing.T) {
	tests := []struct {
		text string
		want int
	}{
		{"Copyright © 2002-2016 Afghanistan Independent Human Rights Commission", 2016},
		{"© 2011 Amnesty International Togo Tous droits réservés", 2011},
		{"(c) 2009, Site. COPYRIGHT 2012 Other", 2012},
		{"Copyright 2002 – 2014 the Centre", 2014},
		{"Copyright (c) 2009 The Site. Last updated 14 March 2015", 2009}, // a stamp is no notice
		{"Published 2017. Founded in 1998.", 0},
		{"(c) the 2030 Agenda", 0},                         // not right after the sign
		{"© 2010 Acme, 2040 K Street", 2010},               // an address after the notice
		{"Section 3(C) of the 2019 act", 0},                // "(C)" of a list
		{"copyright infringement claims filed in 2025", 0}, // the word, not a notice
		{"© 12345 and © 1890 and © 20301", 0},
		{"© 2099", 2099},
		{"", 0},
	}
	for _, tt := range tests {
		if got := copyrightYear(tt.text); got != tt.want {
			t.Errorf("copyrightYear(%q) = %d, want %d", tt.text, got, tt.want)
		}
	}
}
