package crawl

// What the crawl reads from a page comes from extract's one parse of it
// (main text, title, outlinks with anchor text, the publication date the
// page states or its Last-Modified); this file adds what only the crawl
// knows: links unwrapped from an archive's URL rewriting, and dates from the
// archive's captures.

import (
	"net/url"
	"strings"
	"time"

	"github.com/offtopic/offtopic/extract"
	"github.com/offtopic/offtopic/timemap"
)

// pageLinks are a page's outlinks with archive rewriting undone (a link to a
// URI-M such as http://web.archive.org/web/2005.../http://x/a leads to its
// URI-R http://x/a), without fragments, de-duplicated in page order.
func pageLinks(links []extract.Link) []extract.Link {
	out := make([]extract.Link, 0, len(links))
	seen := make(map[string]bool, len(links))
	for _, l := range links {
		if r, ok := unwrapURIM(l.URL); ok {
			l.URL = r
		}
		if seen[l.URL] {
			continue
		}
		seen[l.URL] = true
		out = append(out, l)
	}
	return out
}

// unwrapURIM returns the http(s) URI-R, without fragment, of a link to a
// URI-M (a path holding "/http", as Wayback rewrites links); ok is false for
// any other link.
func unwrapURIM(link string) (string, bool) {
	u, err := url.Parse(link)
	if err != nil || !strings.Contains(u.Path, "/http") {
		return "", false
	}
	r, _, ok := timemap.ParseURIM(link)
	if !ok {
		return "", false
	}
	if u, err = url.Parse(r); err != nil || u.Scheme != "http" && u.Scheme != "https" {
		return "", false
	}
	u.Fragment, u.RawFragment = "", ""
	return u.String(), true
}

// pageTime dates a page the crawl read: by the publication date it states
// (extract: meta tags, JSON-LD, <time>, a byline, its URL), else by the HTTP
// Last-Modified of its archived response when that is not after the URL's
// first successful capture, else by that first capture (the page existed
// then: an upper bound of its publication, and close to it where the
// archive captured the site often). The capture chosen for the collection is
// no date at all: it is picked inside the event span, so dating by it would
// call every undated page timely.
func pageTime(doc *extract.Document, caps []timemap.Capture) (time.Time, string) {
	first := firstCapture(caps)
	switch {
	case doc.PublishedFrom == extract.PublishedFromLastModified && !first.IsZero() && doc.Published.After(first):
	case !doc.Published.IsZero():
		return doc.Published, doc.PublishedFrom
	}
	return first, "first-capture"
}

// firstCapture is the time of the earliest successful capture (zero when
// there is none).
func firstCapture(caps []timemap.Capture) time.Time {
	var first time.Time
	for _, cp := range caps {
		if cp.Status/100 == 2 || cp.Status == 0 {
			if first.IsZero() || cp.Time.Before(first) {
				first = cp.Time
			}
		}
	}
	return first
}
