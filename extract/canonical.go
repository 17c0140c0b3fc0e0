package extract

import (
	"net/url"
	"slices"
	"strings"
)

// ownAddress reports whether a <meta> name or property names the page's
// own address.
func ownAddress(name string) bool {
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "og:url", "twitter:url", "url":
		return true
	}
	return false
}

// link records a <link rel="canonical">.
func (r *replayScan) link(t *tag) {
	if slices.ContainsFunc(strings.Fields(strings.ToLower(t.attr("rel"))), func(rel string) bool { return rel == "canonical" }) {
		r.addOwn(t.attr("href"))
	}
}

// maxOwn is the most addresses a page is taken to name as its own.
const maxOwn = 3

func (r *replayScan) addOwn(ref string) {
	if ref = strings.TrimSpace(ref); ref != "" && len(r.own) < maxOwn && !slices.Contains(r.own, ref) {
		r.own = append(r.own, ref)
	}
}

// canonical resolves the addresses the page names as its own against
// base (see Document.Canonical): each once, in page order; one written as
// a host without its scheme ("www.example.org/") is read as that host.
func (r *replayScan) canonical(base *url.URL) []string {
	var out []string
	for _, ref := range r.own {
		if !strings.Contains(ref, "://") && strings.HasPrefix(strings.ToLower(ref), "www.") {
			ref = "http://" + ref // a host without its scheme, as its author meant it
		}
		if to := replayTarget(ref, base); to != "" && !slices.Contains(out, to) {
			out = append(out, to)
		}
	}
	return out
}
