package similarity

import (
	"net/url"
	"path"
	"regexp"
	"strings"

	"golang.org/x/net/publicsuffix"
)

// What a page's address says of it: whether a page names another page's
// address as its own (another page served at this one), and whether a
// title spells the site's name.

// siteHost is a host as a site's pages share it: lower-cased, without its
// port and a leading "www.", "www1."...
func siteHost(host string) string {
	host = strings.ToLower(host)
	if h, _, ok := strings.Cut(host, ":"); ok {
		host = h
	}
	if rest, ok := strings.CutPrefix(host, "www"); ok {
		if k := strings.IndexByte(rest, '.'); k >= 0 && strings.Trim(rest[:k], "0123456789") == "" {
			host = rest[k+1:]
		}
	}
	return host
}

// siteName is the site's registered name: the label of its host before the
// public suffix ("aljazeera" of blogs.aljazeera.net, "amnesty" of
// amnesty.or.kr), worked out once; "" when the host has none.
func (s *scoring) siteName() string {
	if s.site == nil {
		name := ""
		if domain, err := publicsuffix.EffectiveTLDPlusOne(siteHost(s.host)); err == nil {
			name, _, _ = strings.Cut(domain, ".")
		}
		s.site = &name
	}
	return *s.site
}

// spellsHost returns the words of a title that spell the site's name (see
// siteName), separated by spaces ("" for none): runs of consecutive words
// whose letters, run together, make the whole name, or at least half of it
// and four letters: "Al Jazeera" of blogs.aljazeera.net, "Citizen Report"
// of citizenreport91.com, "BBC" of bbc.co.uk, but not "news" of
// dailynews.com.
func spellsHost(title, name string) string {
	if name == "" {
		return ""
	}
	words := strings.Fields(normalizeCue(title))
	var out []string
	for k := 0; k < len(words); {
		best := 0 // words in the longest run from k that spells enough of the name
		run := ""
		for e := k; e < len(words); e++ {
			run += words[e]
			if !strings.Contains(name, run) {
				break
			}
			if run == name || len(run) >= 4 && 2*len(run) >= len(name) {
				best = e - k + 1
			}
		}
		if best == 0 {
			k++
			continue
		}
		out = append(out, words[k:k+best]...)
		k += best
	}
	return strings.Join(out, " ")
}

// namesAnother returns the first address capture i names as its own (see
// extract.Document.Canonical) that is an article's (see articleAddress)
// and none of its own (its URI-R, or, replayed, the address replay took it
// to); "" when none, or when t0 already named another article's address as
// its own (a site that names its latest post so; a t0 naming its site's
// front page proves nothing).
func (s *scoring) namesAnother(i int, rp *Replay) string {
	if s.namesOthers() {
		return ""
	}
	own := []string{s.tm.Captures[i].URIR, s.urir}
	if rp != nil && rp.How != HowFrame {
		own = append(own, rp.URIR, rp.URL)
	}
	for _, u := range s.prep[i].doc.Canonical {
		if !articleAddress(u) || addressIn(u, own) {
			continue
		}
		return u
	}
	return ""
}

// namesOthers reports whether t0 named another article's address than its
// own as its own, worked out once.
func (s *scoring) namesOthers() bool {
	if s.habit == nil {
		t0 := []string{s.tm.Captures[s.t0].URIR, s.urir}
		habit := false
		for _, u := range s.prep[s.t0].doc.Canonical {
			habit = habit || articleAddress(u) && !addressIn(u, t0)
		}
		s.habit = &habit
	}
	return *s.habit
}

// addressIn reports whether u names the same page as one of addrs.
func addressIn(u string, addrs []string) bool {
	key := addressKey(u)
	for _, a := range addrs {
		if a != "" && addressKey(a) == key {
			return true
		}
	}
	return false
}

// indexFile matches a path's last segment that names a folder's index.
var indexFile = regexp.MustCompile(`(?i)/(index|default|home)\.(html?|php\d?|aspx?|jsp|shtml|cfm)$`)

// addressKey is what two URLs of one page share: the site's host (see
// siteHost), the path without a trailing slash or an index file, and the
// query without the parameters that only track who followed a link
// (utm_*, fbclid, gclid, ref...); scheme and fragment aside.
func addressKey(u string) string {
	p, err := url.Parse(strings.TrimSpace(u))
	if err != nil {
		return u
	}
	key := siteHost(p.Host) + strings.TrimRight(indexFile.ReplaceAllString(p.EscapedPath(), "/"), "/")
	if q := p.Query(); len(q) > 0 {
		for k := range q {
			if tracking(k) {
				q.Del(k)
			}
		}
		if len(q) > 0 {
			key += "?" + q.Encode()
		}
	}
	return key
}

// tracking reports whether a query parameter only tracks who followed a
// link to the page.
func tracking(key string) bool {
	key = strings.ToLower(key)
	switch key {
	case "fbclid", "gclid", "dclid", "msclkid", "ref", "ref_src", "source", "src", "share", "mc_cid", "mc_eid", "_ga":
		return true
	}
	return strings.HasPrefix(key, "utm_")
}

// articleAddress reports whether a URL is an article's rather than a
// site's or a section's front page: its path's last segment (an index
// file aside) holds a digit, a file's extension or three words, or its
// query numbers an article ("/2011/01/story.html",
// "/opinion/the-long-road", "/?p=123", but not "/", "/de",
// "/en/index.html", "/privacy-international" or "/?utm_campaign=2012").
func articleAddress(u string) bool {
	p, err := url.Parse(strings.TrimSpace(u))
	if err != nil {
		return false
	}
	last := path.Base(strings.TrimRight(indexFile.ReplaceAllString(p.Path, "/"), "/"))
	if last == "." || last == "/" {
		last = ""
	}
	if strings.ContainsAny(last, "0123456789.") || len(strings.FieldsFunc(last, func(r rune) bool { return r == '-' || r == '_' })) >= 3 {
		return true
	}
	for k, vs := range p.Query() {
		k = strings.ToLower(k)
		if k == "p" || k == "page_id" || k == "story" || k == "article" || k == "post" || k == "item" || strings.HasSuffix(k, "id") {
			for _, v := range vs {
				if strings.ContainsAny(v, "0123456789") {
					return true
				}
			}
		}
	}
	return false
}
