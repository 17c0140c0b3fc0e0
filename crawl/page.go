package crawl

// Private fallback for what extract is gaining (links and publication
// dates): it reads the decoded HTML once with a tokenizer. Delete it when
// extract.Links and extract.PublicationDate land.

import (
	"bytes"
	"net/url"
	"regexp"
	"strings"
	"time"

	"golang.org/x/net/html"

	"github.com/offtopic/offtopic/timemap"
)

// Link is one outlink of a page: its URI-R (archive rewriting undone) and
// anchor text.
type Link struct {
	URL    string
	Anchor string
}

// pageInfo is what the crawler needs from a page besides its main text.
type pageInfo struct {
	Links         []Link
	Published     time.Time
	PublishedFrom string
}

var (
	jsonLDDate = regexp.MustCompile(`"datePublished"\s*:\s*"([^"]+)"`)
	urlDate    = regexp.MustCompile(`/((?:19|20)\d\d)[/-](0[1-9]|1[0-2])[/-](0[1-9]|[12]\d|3[01])(?:/|[^0-9]|$)`)
	bylineDate = regexp.MustCompile(`(?i)\b(?:published|posted)(?:\s+on)?:?\s+(\d{1,2}\s+[A-Za-z]+\s+\d{4}|[A-Za-z]+\s+\d{1,2},?\s+\d{4}|\d{4}-\d\d-\d\d)`)
)

var dateLayouts = []string{
	time.RFC3339, "2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02 15:04:05", "2006-01-02",
	"2 January 2006", "2 Jan 2006", "January 2, 2006", "January 2 2006", "Jan 2, 2006",
}

func parseDate(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	for _, l := range dateLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return t.UTC(), true
		}
	}
	return time.Time{}, false
}

// parsePage reads links and the publication date from a decoded HTML body
// whose URI is base. The date comes from, in order: a published-time <meta>,
// JSON-LD datePublished, <time pubdate>/itemprop datePublished, a "Published
// <date>" byline, the URL path (/2005/04/12/).
func parsePage(body []byte, base string) pageInfo {
	var info pageInfo
	bu, _ := url.Parse(base)
	z := html.NewTokenizer(bytes.NewReader(body))
	var meta, jsonld, timeTag, byline time.Time
	var inA, inScript, inLD bool
	var href string
	var anchor, text strings.Builder
	seen := map[string]bool{}
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			break
		}
		switch tt {
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			attrs := map[string]string{}
			for hasAttr {
				var k, v []byte
				k, v, hasAttr = z.TagAttr()
				attrs[string(k)] = string(v)
			}
			switch string(name) {
			case "base":
				if h := attrs["href"]; h != "" && bu != nil {
					if u, err := bu.Parse(h); err == nil {
						bu = u
					}
				}
			case "a":
				if h, ok := attrs["href"]; ok {
					inA, href = true, h
					anchor.Reset()
				}
			case "meta":
				key := strings.ToLower(attrs["property"] + attrs["name"] + attrs["itemprop"])
				switch key {
				case "article:published_time", "og:published_time", "pubdate", "publishdate", "datepublished",
					"dc.date.issued", "dcterms.created", "date", "sailthru.date", "publication_date":
					if t, ok := parseDate(attrs["content"]); ok && meta.IsZero() {
						meta = t
					}
				}
			case "time":
				if _, pub := attrs["pubdate"]; pub || strings.EqualFold(attrs["itemprop"], "datePublished") {
					if t, ok := parseDate(attrs["datetime"]); ok && timeTag.IsZero() {
						timeTag = t
					}
				}
			case "script":
				inScript = true
				inLD = strings.Contains(attrs["type"], "ld+json")
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			switch string(name) {
			case "a":
				if inA {
					addLink(&info, seen, bu, href, anchor.String())
				}
				inA = false
			case "script":
				inScript, inLD = false, false
			}
		case html.TextToken:
			t := z.Text()
			if inScript {
				if inLD && jsonld.IsZero() {
					if m := jsonLDDate.FindSubmatch(t); m != nil {
						if d, ok := parseDate(string(m[1])); ok {
							jsonld = d
						}
					}
				}
				continue
			}
			if inA {
				anchor.Write(t)
			}
			if byline.IsZero() && text.Len() < 1<<16 {
				text.Write(t)
				text.WriteByte(' ')
			}
		}
	}
	if m := bylineDate.FindStringSubmatch(html.UnescapeString(text.String())); m != nil {
		if d, ok := parseDate(strings.Join(strings.Fields(m[1]), " ")); ok {
			byline = d
		}
	}
	switch {
	case !meta.IsZero():
		info.Published, info.PublishedFrom = meta, "meta"
	case !jsonld.IsZero():
		info.Published, info.PublishedFrom = jsonld, "json-ld"
	case !timeTag.IsZero():
		info.Published, info.PublishedFrom = timeTag, "time"
	case !byline.IsZero():
		info.Published, info.PublishedFrom = byline, "byline"
	default:
		if t, ok := dateFromURL(base); ok {
			info.Published, info.PublishedFrom = t, "url"
		}
	}
	return info
}

func dateFromURL(u string) (time.Time, bool) {
	m := urlDate.FindStringSubmatch(u)
	if m == nil {
		return time.Time{}, false
	}
	t, err := time.Parse("2006-01-02", m[1]+"-"+m[2]+"-"+m[3])
	return t, err == nil
}

func addLink(info *pageInfo, seen map[string]bool, base *url.URL, href, anchor string) {
	href = strings.TrimSpace(href)
	if href == "" || strings.HasPrefix(href, "#") {
		return
	}
	var u *url.URL
	var err error
	if base != nil {
		u, err = base.Parse(href)
	} else {
		u, err = url.Parse(href)
	}
	if err != nil {
		return
	}
	abs := u.String()
	if r, _, ok := timemap.ParseURIM(abs); ok && strings.Contains(u.Path, "/http") {
		abs = r
		if u, err = url.Parse(abs); err != nil {
			return
		}
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return
	}
	u.Fragment = ""
	abs = u.String()
	if seen[abs] {
		return
	}
	seen[abs] = true
	info.Links = append(info.Links, Link{URL: abs, Anchor: strings.Join(strings.Fields(html.UnescapeString(anchor)), " ")})
}
