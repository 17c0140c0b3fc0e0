package extract

import (
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Values of Document.PublishedFrom: where the publication date was found.
const (
	// PublishedFromMeta: a <meta> tag (article:published_time, og or Dublin
	// Core dates, date, pubdate, itemprop datePublished...).
	PublishedFromMeta = "meta"
	// PublishedFromJSONLD: datePublished in a JSON-LD script (also inside
	// @graph and arrays).
	PublishedFromJSONLD = "jsonld"
	// PublishedFromTime: a <time> element with itemprop datePublished or
	// pubdate, else the first <time> inside an <article>.
	PublishedFromTime = "time"
	// PublishedFromByline: a "Published <date>" or "Posted on <date>" line
	// in the page's text.
	PublishedFromByline = "byline"
	// PublishedFromURL: a date in the page URL's path (/2005/04/12/,
	// 2005-04-12, 20050412).
	PublishedFromURL = "url"
	// PublishedFromLastModified: the HTTP Last-Modified of the archived
	// response, when the page states no date at all (its URL included); see
	// LastModified.
	PublishedFromLastModified = "last-modified"
)

// Plausible publication dates lie in [minPlausible, maxPlausible).
var (
	minPlausible = time.Date(1990, 1, 1, 0, 0, 0, 0, time.UTC)
	maxPlausible = time.Date(2101, 1, 1, 0, 0, 0, 0, time.UTC)
)

// plausible reports whether t can be a web page's publication date: from
// 1990 to 2100 inclusive.
func plausible(t time.Time) bool {
	return !t.Before(minPlausible) && t.Before(maxPlausible)
}

// dateLayouts are the layouts parseDate tries, in order. Fractional seconds
// after the seconds field are accepted by time.Parse without being named.
var dateLayouts = []string{
	time.RFC3339,
	"2006-01-02T15:04Z07:00",
	"2006-01-02T15:04:05Z0700",
	"2006-01-02T15:04Z0700",
	"2006-01-02T15:04:05",
	"2006-01-02T15:04",
	"2006-01-02 15:04:05Z07:00",
	"2006-01-02 15:04:05Z0700",
	"2006-01-02 15:04:05 Z07:00",
	"2006-01-02 15:04:05 -0700",
	"2006-01-02 15:04:05 MST",
	"2006-01-02 15:04:05",
	"2006-01-02 15:04",
	"2006-01-02",
	"2006/01/02 15:04:05",
	"2006/01/02",
	"20060102",
	"20060102T150405Z",
	time.RFC1123,
	time.RFC1123Z,
	"Mon, 2 Jan 2006 15:04:05 MST",
	"Mon, 2 Jan 2006 15:04:05 -0700",
	"Mon, 2 Jan 2006 15:04 MST",
	"Mon, 2 Jan 2006",
	"Monday, 2 January 2006 15:04 MST",
	"Monday, 2 January 2006",
	"Monday, January 2, 2006",
	"2 Jan 2006 15:04:05 MST",
	"2 Jan 2006 15:04:05 -0700",
	"2 Jan 2006 15:04",
	"2 January 2006 15:04",
	"2 January 2006",
	"2 Jan 2006",
	"January 2, 2006 15:04",
	"January 2, 2006",
	"Jan 2, 2006",
	"January 2 2006",
	"Jan 2 2006",
	time.UnixDate,
	time.ANSIC,
}

// ordinalRE matches day ordinals ("12th", "1st") so that "12th April 2005"
// parses as "12 April 2005".
var ordinalRE = regexp.MustCompile(`\b(\d{1,2})(?:st|nd|rd|th)\b`)

// parseDate parses a date or date-time as pages write them: RFC 3339 with
// or without seconds, fraction and zone ("2005-04-12T10:00", "2005-04-12"),
// RFC 1123 ("Tue, 12 Apr 2005 10:00:00 GMT"), and written dates ("12 April
// 2005", "April 12, 2005"). Times without a zone are taken as UTC; the
// result is in UTC. Implausible dates (before 1990, after 2100) are
// rejected.
func parseDate(s string) (time.Time, bool) {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) < 6 || len(s) > 64 {
		return time.Time{}, false
	}
	if s[len(s)-1] == 'z' {
		s = s[:len(s)-1] + "Z"
	}
	if len(s) > 10 && s[4] == '-' && s[10] == 't' {
		s = s[:10] + "T" + s[11:]
	}
	t, ok := parseLayouts(s)
	if !ok {
		if r := ordinalRE.ReplaceAllString(s, "$1"); r != s {
			t, ok = parseLayouts(r)
		}
	}
	if !ok || !plausible(t) {
		return time.Time{}, false
	}
	return t, true
}

// parseLayouts parses s with the first of dateLayouts that fits, in UTC.
func parseLayouts(s string) (time.Time, bool) {
	for _, layout := range dateLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), true
		}
	}
	return time.Time{}, false
}

// URL date patterns: /YYYY/MM/DD(/|.|end), YYYY-MM-DD and YYYYMMDD
// bounded by non-digits in the path.
var (
	urlSlashDateRE = regexp.MustCompile(`/(\d{4})/(\d{1,2})/(\d{1,2})(?:[^0-9]|$)`)
	urlDashDateRE  = regexp.MustCompile(`(?:^|[^0-9])(\d{4})[-_](\d{2})[-_](\d{2})(?:[^0-9]|$)`)
	urlPackedRE    = regexp.MustCompile(`(?:^|[^0-9])(\d{4})(\d{2})(\d{2})(?:[^0-9]|$)`)
)

// DateFromURL finds a publication date in the path of the URL u: a
// /YYYY/MM/DD/ run of segments (also /YYYY/MM/DD.html), a YYYY-MM-DD (or
// YYYY_MM_DD) or a YYYYMMDD run of digits bounded by non-digits, tried in
// that order. The date must exist and lie in 1990-2100; the result is
// midnight UTC. The query and fragment are not searched.
func DateFromURL(u string) (time.Time, bool) {
	path := u
	if pu, err := url.Parse(u); err == nil {
		path = pu.EscapedPath()
	} else if i := strings.IndexAny(path, "?#"); i >= 0 {
		path = path[:i]
	}
	if !strings.ContainsAny(path, "0123456789") {
		return time.Time{}, false
	}
	for _, re := range []*regexp.Regexp{urlSlashDateRE, urlDashDateRE, urlPackedRE} {
		for _, m := range re.FindAllStringSubmatch(path, 4) {
			if t, ok := ymd(m[1], m[2], m[3]); ok {
				return t, true
			}
		}
	}
	return time.Time{}, false
}

// ymd makes a plausible calendar date of year, month and day digits.
func ymd(ys, ms, ds string) (time.Time, bool) {
	y, err1 := strconv.Atoi(ys)
	m, err2 := strconv.Atoi(ms)
	d, err3 := strconv.Atoi(ds)
	if err1 != nil || err2 != nil || err3 != nil || m < 1 || m > 12 || d < 1 || d > 31 {
		return time.Time{}, false
	}
	t := time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC)
	if t.Day() != d || !plausible(t) { // 31 April normalises to 1 May
		return time.Time{}, false
	}
	return t, true
}

// metaDateRank ranks the <meta> names and properties (lower-cased) that
// carry a publication date; lower ranks win.
var metaDateRank = map[string]int{
	"article:published_time":    1,
	"og:article:published_time": 2,
	"og:published_time":         2,
	"published_time":            3,
	"datepublished":             3, // itemprop
	"article.published":         3,
	"dc.date.issued":            4,
	"dcterms.issued":            4,
	"dc.date.created":           4,
	"dcterms.created":           4,
	"dc.date":                   5,
	"dcterms.date":              5,
	"dc.created":                5,
	"publish-date":              6,
	"publish_date":              6,
	"publishdate":               6,
	"publication_date":          6,
	"publication-date":          6,
	"pubdate":                   6,
	"sailthru.date":             7,
	"parsely-pub-date":          7,
	"date":                      8,
	"original-publish-date":     6,
	"article:published":         2,
	"og:pubdate":                6,
	"citation_publication_date": 6,
	"citation_date":             7,
	"bt:pubdate":                7,
	"date.available":            8,
}

// maxJSONLD caps the bytes of one JSON-LD script that are decoded.
const maxJSONLD = 1 << 20

// dateCandidate is a raw date string and the rank of where it was found.
type dateCandidate struct {
	rank int
	val  string
}

// pageScan gathers, from the elements of a parsed page visited in document
// order, what publication dates and links need. Strings are parsed and URLs
// resolved only at the end, and only as far as needed.
type pageScan struct {
	meta       []dateCandidate // <meta> dates, in document order
	jsonld     []string        // JSON-LD script texts
	timeStrong string          // first <time> with itemprop datePublished or pubdate
	timeInArt  string          // first <time> inside an <article>
	baseHref   string          // first <base href>
	hasBase    bool
	hrefs      []href // raw href values of <a> and <area> and their anchors, in page order
}

// element records what n (an element node) contributes.
func (s *pageScan) element(n *html.Node) {
	if n.Namespace != "" {
		return
	}
	switch n.DataAtom {
	case atom.A, atom.Area:
		for _, a := range n.Attr {
			if a.Namespace == "" && a.Key == "href" {
				s.hrefs = append(s.hrefs, href{a.Val, anchorText(n)})
				break
			}
		}
	case atom.Meta:
		var key, content string
		hasContent := false
		for _, a := range n.Attr {
			if a.Namespace != "" {
				continue
			}
			switch a.Key {
			case "property", "name", "itemprop":
				if key == "" || metaDateRank[strings.ToLower(key)] == 0 {
					key = a.Val
				}
			case "content":
				content, hasContent = a.Val, true
			}
		}
		if hasContent && key != "" {
			if r := metaDateRank[strings.ToLower(strings.TrimSpace(key))]; r > 0 {
				s.meta = append(s.meta, dateCandidate{r, content})
			}
		}
	case atom.Script:
		if t := strings.ToLower(strings.TrimSpace(attr(n, "type"))); strings.HasPrefix(t, "application/ld+json") {
			if c := n.FirstChild; c != nil && c.Type == html.TextNode {
				s.jsonld = append(s.jsonld, c.Data)
			}
		}
	case atom.Time:
		strong := hasAttr(n, "pubdate") || strings.EqualFold(strings.TrimSpace(attr(n, "itemprop")), "datePublished")
		if strong && s.timeStrong != "" || !strong && s.timeInArt != "" {
			return
		}
		v := attr(n, "datetime")
		if v == "" {
			v = nodeText(n)
		}
		if strong {
			s.timeStrong = v
			return
		}
		for p := n.Parent; p != nil; p = p.Parent {
			if p.DataAtom == atom.Article && p.Namespace == "" {
				s.timeInArt = v
				return
			}
		}
	case atom.Base:
		if !s.hasBase && hasAttr(n, "href") {
			s.baseHref, s.hasBase = attr(n, "href"), true
		}
	}
}

// published returns the publication date the scan found and its source,
// by priority meta > jsonld > time > byline (in the text of root, the
// scanned page) > url (pageURL's path).
func (s *pageScan) published(pageURL string, root *html.Node) (time.Time, string) {
	if len(s.meta) > 0 {
		best, bestRank := time.Time{}, 1<<30
		for _, c := range s.meta {
			if c.rank >= bestRank {
				continue
			}
			if t, ok := parseDate(c.val); ok {
				best, bestRank = t, c.rank
			}
		}
		if !best.IsZero() {
			return best, PublishedFromMeta
		}
	}
	for _, src := range s.jsonld {
		if t, ok := jsonLDPublished(src); ok {
			return t, PublishedFromJSONLD
		}
	}
	for _, v := range [2]string{s.timeStrong, s.timeInArt} {
		if v == "" {
			continue
		}
		if t, ok := parseDate(v); ok {
			return t, PublishedFromTime
		}
	}
	if t, ok := bylineDate(root); ok {
		return t, PublishedFromByline
	}
	if pageURL != "" {
		if t, ok := DateFromURL(pageURL); ok {
			return t, PublishedFromURL
		}
	}
	return time.Time{}, ""
}

// bylineRE finds a byline date, with the time of day when it follows:
// "Published 12 April 2005 10:32", "Posted on: April 12, 2005",
// "published 2005-04-12".
var bylineRE = regexp.MustCompile(`(?i)\b(?:published|posted)(?:\s+on)?:?\s+((\d{1,2}\s+[A-Za-z]+\s+\d{4}|[A-Za-z]+\s+\d{1,2},?\s+\d{4}|\d{4}-\d\d-\d\d)(?:\s+\d{1,2}:\d\d\b)?)`)

// maxBylineText caps the bytes of page text searched for a byline.
const maxBylineText = 1 << 16

// bylineDate returns the date of the first byline (see bylineRE) in the
// first maxBylineText bytes of the text of root (scripts, styles and the
// like left out).
func bylineDate(root *html.Node) (time.Time, bool) {
	var b strings.Builder
	walk(root, func(n *html.Node) bool {
		switch n.Type {
		case html.TextNode:
			if b.Len() < maxBylineText {
				b.WriteString(n.Data)
				b.WriteByte(' ')
			}
			return false
		case html.ElementNode:
			return !neverTextNode(n) && b.Len() < maxBylineText
		case html.DocumentNode:
			return true
		}
		return false
	}, nil)
	m := bylineRE.FindStringSubmatch(b.String())
	if m == nil {
		return time.Time{}, false
	}
	if t, ok := parseDate(m[1]); ok {
		return t, true
	}
	return parseDate(m[2]) // the date without a time that did not parse
}

// LastModified returns the HTTP Last-Modified of an archived response as a
// publication date: it must parse (RFC 1123 and the other HTTP date
// formats), be plausible (1990-2100) and not lie after the response's own
// Date when that is given. A page is at least as old as its last
// modification, so this is an upper bound of its publication, weaker than
// anything the page states; callers that know when the page was first
// captured should also reject a Last-Modified after that.
func LastModified(h http.Header) (time.Time, bool) {
	lm, err := http.ParseTime(h.Get("Last-Modified"))
	if err != nil || !plausible(lm) {
		return time.Time{}, false
	}
	if d, err := http.ParseTime(h.Get("Date")); err == nil && lm.After(d) {
		return time.Time{}, false
	}
	return lm.UTC(), true
}

// jsonLDDateRE finds datePublished in JSON-LD that does not decode.
var jsonLDDateRE = regexp.MustCompile(`"datePublished"\s*:\s*"([^"]{4,64})"`)

// jsonLDPublished returns the first parseable datePublished of a JSON-LD
// script, searching nested objects (@graph, mainEntity...) and arrays
// depth-first in document order.
func jsonLDPublished(src string) (time.Time, bool) {
	if !strings.Contains(src, "datePublished") {
		return time.Time{}, false
	}
	if len(src) > maxJSONLD {
		src = src[:maxJSONLD]
	}
	var v any
	if err := json.Unmarshal([]byte(jsonScriptBody(src)), &v); err == nil {
		var found time.Time
		jsonLDWalk(v, &found)
		if !found.IsZero() {
			return found, true
		}
		return time.Time{}, false
	}
	for _, m := range jsonLDDateRE.FindAllStringSubmatch(src, 8) {
		if t, ok := parseDate(m[1]); ok {
			return t, true
		}
	}
	return time.Time{}, false
}

// jsonLDWalk sets *found to the first parseable datePublished under v.
func jsonLDWalk(v any, found *time.Time) {
	switch x := v.(type) {
	case map[string]any:
		if d, ok := x["datePublished"]; ok {
			if t, ok := jsonLDDate(d); ok {
				*found = t
				return
			}
		}
		// Map order is random: visit @graph first, then other keys sorted.
		if g, ok := x["@graph"]; ok {
			jsonLDWalk(g, found)
			if !found.IsZero() {
				return
			}
		}
		keys := make([]string, 0, len(x))
		for k, c := range x {
			switch c.(type) {
			case map[string]any, []any:
				if k != "@graph" {
					keys = append(keys, k)
				}
			}
		}
		slices.Sort(keys)
		for _, k := range keys {
			jsonLDWalk(x[k], found)
			if !found.IsZero() {
				return
			}
		}
	case []any:
		for _, c := range x {
			jsonLDWalk(c, found)
			if !found.IsZero() {
				return
			}
		}
	}
}

// jsonLDDate reads a datePublished value: a string, {"@value": string}, or
// an array of those (the first parseable wins).
func jsonLDDate(v any) (time.Time, bool) {
	switch x := v.(type) {
	case string:
		return parseDate(x)
	case map[string]any:
		if s, ok := x["@value"].(string); ok {
			return parseDate(s)
		}
	case []any:
		for _, c := range x {
			if t, ok := jsonLDDate(c); ok {
				return t, true
			}
		}
	}
	return time.Time{}, false
}

// PublicationDate returns the publication date of a parsed page and where
// it was found (a PublishedFrom* constant), or the zero time and "" when
// the page does not say. Sources by priority: <meta> tags, JSON-LD
// datePublished, <time> elements, a byline in the text, then the date in
// pageURL's path (when pageURL is not ""). doc is not modified.
func PublicationDate(doc *html.Node, pageURL string) (time.Time, string) {
	var s pageScan
	scanTree(doc, &s)
	return s.published(pageURL, doc)
}

// scanTree feeds every element of doc to s in document order.
func scanTree(doc *html.Node, s *pageScan) {
	walk(doc, func(n *html.Node) bool {
		switch n.Type {
		case html.ElementNode:
			s.element(n)
			return true
		case html.DocumentNode:
			return true
		}
		return false
	}, nil)
}

// copyrightYear returns the latest year the copyright notices of text name
// ("© 2002-2016", "Copyright (c) 2011 Site", "copyright 2009"): a year, or
// a range of years, right after the sign or the word (spaces, commas and
// another sign between them), 0 when no notice names one. One pass over
// the text.
func copyrightYear(text string) int {
	latest := 0
	for i := 0; i < len(text); {
		for i < len(text) && !copyrightStart[text[i]] {
			i++
		}
		if i == len(text) {
			break
		}
		n := copyrightSign(text[i:])
		if n == 0 {
			i++
			continue
		}
		i += n
		j := i
		for j < len(text) && (text[j] == ' ' || text[j] == ',') {
			j++
		}
		if m := copyrightSign(text[j:]); m > 0 { // "Copyright © 2011"
			j += m
			for j < len(text) && (text[j] == ' ' || text[j] == ',') {
				j++
			}
		}
		if y := yearAt(text, j); y > 0 {
			latest = max(latest, y)
			// "2002-2016", "2002 – 2016"
			r := j + 4
			for r < len(text) && (text[r] == ' ' || text[r] == '-') {
				r++
			}
			if strings.HasPrefix(text[r:], "–") {
				r += len("–")
				for r < len(text) && text[r] == ' ' {
					r++
				}
			}
			if y2 := yearAt(text, r); y2 > 0 && r > j+4 {
				latest = max(latest, y2)
			}
		}
		i = max(i, j)
	}
	return latest
}

// copyrightStart are the bytes a copyright sign or word begins with: "©"
// (C2 A9), "(c)", "Copyright". A byte table, not strings.IndexAny, whose
// set holding "©" makes it decode every rune and search the set for it.
var copyrightStart = [256]bool{0xC2: true, '(': true, 'c': true, 'C': true}

// copyrightSign returns the length of the copyright sign or word s begins
// with ("©", "(c)", "(C)", "Copyright" in any case), 0 when it begins with
// none.
func copyrightSign(s string) int {
	switch {
	case strings.HasPrefix(s, "©"):
		return len("©")
	case strings.HasPrefix(s, "(c)"), strings.HasPrefix(s, "(C)"):
		return 3
	case len(s) >= 9 && strings.EqualFold(s[:9], "copyright"):
		return 9
	}
	return 0
}

// yearAt returns the year of four digits at s[k:] (1990 to 2099) that no
// other digit touches, 0 when there is none.
func yearAt(s string, k int) int {
	if k+4 > len(s) || k > 0 && isDigit(s[k-1]) || k+4 < len(s) && isDigit(s[k+4]) {
		return 0
	}
	y := 0
	for _, c := range []byte(s[k : k+4]) {
		if !isDigit(c) {
			return 0
		}
		y = 10*y + int(c-'0')
	}
	if y < 1990 || y > 2099 {
		return 0
	}
	return y
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }
