package extract

import (
	"net/url"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// DefaultMaxLinks is the default Options.MaxLinks.
const DefaultMaxLinks = 2000

// Link is one outlink of a page: an absolute http(s) URL and its anchor
// text (the text of the <a> element, or the alt text of an <area>),
// whitespace-collapsed, "" when there is none.
type Link struct {
	URL    string `json:"url"`
	Anchor string `json:"anchor,omitempty"`
}

// maxAnchor caps the bytes of one anchor text.
const maxAnchor = 500

// Links returns the outlinks of a parsed page: the href of every <a> and
// <area> element of the whole page (navigation and footers included) with
// its anchor text, resolved against the page's <base href> and base (the
// page's URL), without fragments, http and https only, de-duplicated in
// page order (the first occurrence gives the anchor text) and capped at
// DefaultMaxLinks. Relative links are dropped when neither base nor an
// absolute <base href> is known. doc is not modified.
func Links(doc *html.Node, base string) []Link {
	var s pageScan
	scanTree(doc, &s)
	return s.links(base, DefaultMaxLinks)
}

// href is one raw link the scan found: the href as written and its anchor.
type href struct {
	ref, anchor string
}

// anchorText is the anchor text of an <a> (its text, scripts and the like
// left out) or <area> (its alt).
func anchorText(n *html.Node) string {
	if n.DataAtom == atom.Area {
		return collapse(attr(n, "alt"), maxAnchor)
	}
	var b strings.Builder
	walk(n, func(c *html.Node) bool {
		switch c.Type {
		case html.TextNode:
			if b.Len() < 4*maxAnchor {
				b.WriteString(c.Data)
			}
			return false
		case html.ElementNode:
			return c == n || !neverTextNode(c)
		}
		return false
	}, nil)
	return collapse(b.String(), maxAnchor)
}

// links resolves the hrefs the scan found (see Links), keeping at most max.
func (s *pageScan) links(pageURL string, max int) []Link {
	if len(s.hrefs) == 0 || max <= 0 {
		return nil
	}
	base := absHTTP(pageURL, nil)
	if s.hasBase {
		if b := absHTTP(s.baseHref, base); b != nil {
			base = b
		}
	}
	var out []Link
	seenRaw := make(map[string]bool, len(s.hrefs))
	seen := make(map[string]bool, len(s.hrefs))
	for _, h := range s.hrefs {
		if seenRaw[h.ref] {
			continue
		}
		seenRaw[h.ref] = true
		u := absHTTP(h.ref, base)
		if u == nil {
			continue
		}
		v := u.String()
		if seen[v] {
			continue
		}
		seen[v] = true
		out = append(out, Link{URL: v, Anchor: h.anchor})
		if len(out) >= max {
			break
		}
	}
	return out
}

// absHTTP resolves the reference ref (an href as written) against base
// (nil: none) and returns it when it is an absolute http or https URL with
// a host, with its fragment dropped, scheme and host lower-cased and an
// empty path made "/"; otherwise nil. Fragment-only references ("#top"),
// which point into the page itself, are nil.
func absHTTP(ref string, base *url.URL) *url.URL {
	ref = strings.TrimSpace(ref)
	if strings.ContainsAny(ref, "\t\n\r") { // browsers strip these anywhere
		ref = strings.Map(func(r rune) rune {
			if r == '\t' || r == '\n' || r == '\r' {
				return -1
			}
			return r
		}, ref)
	}
	if ref == "" || ref[0] == '#' {
		return nil
	}
	if i := strings.IndexByte(ref, ':'); i > 0 && !strings.ContainsAny(ref[:i], "/?#") {
		// Scheme given: reject anything but http(s) before parsing
		// (javascript:, mailto:, data:, tel:...).
		switch strings.ToLower(ref[:i]) {
		case "http", "https":
		default:
			return nil
		}
	} else if base == nil {
		return nil
	}
	u, err := url.Parse(ref)
	if err != nil {
		return nil
	}
	if !u.IsAbs() {
		if base == nil {
			return nil
		}
		u = base.ResolveReference(u)
	}
	u.Scheme = strings.ToLower(u.Scheme)
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return nil
	}
	u.Host = strings.ToLower(u.Host)
	u.Fragment, u.RawFragment = "", ""
	if u.Path == "" && u.RawPath == "" && u.Opaque == "" {
		u.Path = "/"
	}
	return u
}
