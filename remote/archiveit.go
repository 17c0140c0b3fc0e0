package remote

import (
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/offtopic/offtopic/timemap"
	"golang.org/x/net/html"
)

// ArchiveIt lists an Archive-It collection's seeds and their TimeMaps, as
// OTMT does: the seeds from the collection's public page (all its pages),
// each seed's TimeMap from Archive-It's public Wayback in link-format.
// Mementos are then fetched raw by their URI-M.
type ArchiveIt struct {
	// Collection is the collection's numeric ID, e.g. "1068".
	Collection string
	// Doer sends the requests (an *http.Client will do).
	Doer Doer
	// BaseURL is Archive-It's Wayback; default "https://wayback.archive-it.org".
	BaseURL string
	// CollectionBaseURL is where public collection pages live
	// (CollectionBaseURL + "/collections/" + Collection); default
	// "https://archive-it.org".
	CollectionBaseURL string
}

// DefaultArchiveItWayback and DefaultArchiveItSite are ArchiveIt's default
// base URLs.
const (
	DefaultArchiveItWayback = "https://wayback.archive-it.org"
	DefaultArchiveItSite    = "https://archive-it.org"
)

// archiveItMaxPages bounds the collection pages followed.
const archiveItMaxPages = 10000

func (a *ArchiveIt) wayback() string {
	if a.BaseURL == "" {
		return DefaultArchiveItWayback
	}
	return strings.TrimRight(a.BaseURL, "/")
}

func (a *ArchiveIt) site() string {
	if a.CollectionBaseURL == "" {
		return DefaultArchiveItSite
	}
	return strings.TrimRight(a.CollectionBaseURL, "/")
}

// Seeds returns the collection's http(s) seed URLs in the order the
// collection pages list them, without duplicates, following the pages'
// "next" links. When a page after the first fails, the seeds of the pages
// before it come with the error.
func (a *ArchiveIt) Seeds(ctx context.Context) ([]string, error) {
	seeds, _, err := a.seeds(ctx)
	return seeds, err
}

// seeds is Seeds with the seeds that are no http(s) URLs (ftp://...), which
// have no TimeMap to read, as skipped.
func (a *ArchiveIt) seeds(ctx context.Context) (seeds, skipped []string, _ error) {
	if a.Collection == "" {
		return nil, nil, errors.New("remote: Archive-It: no collection ID")
	}
	page := a.site() + "/collections/" + url.PathEscape(a.Collection)
	seen := map[string]bool{}
	visited := map[string]bool{}
	var text strings.Builder // of the first page, to say why it lists no seeds
	for i := 0; page != "" && i < archiveItMaxPages; i++ {
		if visited[page] {
			break
		}
		visited[page] = true
		body, err := getOK(ctx, a.Doer, page)
		if err != nil {
			return seeds, skipped, a.pageError(page, i, len(seeds)+len(skipped), err)
		}
		doc, err := html.Parse(io.LimitReader(body, 64<<20))
		body.Close()
		if err != nil {
			return seeds, skipped, fmt.Errorf("remote: Archive-It collection page %s: %w", page, err)
		}
		if i == 0 {
			text.WriteString(textOf(doc))
		}
		base, _ := url.Parse(page)
		got, other, next := parseArchiveItPage(doc, base, a.Collection)
		for _, s := range got {
			if !seen[s] {
				seen[s] = true
				seeds = append(seeds, s)
			}
		}
		for _, s := range other {
			if !seen[s] {
				seen[s] = true
				skipped = append(skipped, s)
			}
		}
		page = next
	}
	if len(seeds)+len(skipped) == 0 {
		if strings.Contains(strings.ToLower(text.String()), "private") {
			return nil, nil, fmt.Errorf("remote: Archive-It collection %s is private: its page lists no seeds and says \"private\"", a.Collection)
		}
		return nil, nil, fmt.Errorf("remote: Archive-It collection %s lists no public seeds", a.Collection)
	}
	return seeds, skipped, nil
}

// pageError says what the failure of collection page number i (from 0)
// means: of the first, that the collection does not exist or is private;
// of a later one, how many seeds were read before it. An error page's body
// (HTML) is left out.
func (a *ArchiveIt) pageError(page string, i, read int, err error) error {
	var he *httpError
	if errors.As(err, &he) {
		err = fmt.Errorf("%s: HTTP %d", page, he.Status)
		if i == 0 {
			switch he.Status {
			case http.StatusNotFound, http.StatusGone:
				return fmt.Errorf("remote: Archive-It collection %s does not exist (%w)", a.Collection, err)
			case http.StatusUnauthorized, http.StatusForbidden:
				return fmt.Errorf("remote: Archive-It collection %s is private (%w)", a.Collection, err)
			}
		}
	}
	if i == 0 {
		return fmt.Errorf("remote: Archive-It collection %s: %w", a.Collection, err)
	}
	return &partialSeedsError{fmt.Errorf("remote: Archive-It collection %s: page %d failed, the seeds after it are missing; going on with the %d seeds of the pages before it: %w", a.Collection, i+1, read, err)}
}

// partialSeedsError: a collection page after the first failed; the seeds
// read before it are scored.
type partialSeedsError struct{ error }

func (e *partialSeedsError) Unwrap() error { return e.error }

// TimeMaps yields one TimeMap per canonical key of the collection's seeds,
// in key order (seeds whose keys are equal share one TimeMap), from each
// seed's link-format TimeMap at BaseURL/<ID>/timemap/link/<seed>. Captures
// carry the Archive-It URI-M and capture time; a link-format TimeMap says
// nothing of status or MIME type, so those are left for the fetch of the
// memento to fill in. A seed without mementos (HTTP 404) yields nothing; a
// seed whose TimeMap cannot be read yields an error and the next follows.
func (a *ArchiveIt) TimeMaps(ctx context.Context) iter.Seq2[*timemap.TimeMap, error] {
	return func(yield func(*timemap.TimeMap, error) bool) {
		seeds, skipped, err := a.seeds(ctx)
		if err != nil {
			var partial *partialSeedsError
			if !yield(nil, err) || !errors.As(err, &partial) {
				return
			}
		}
		for _, s := range skipped {
			if !yield(nil, fmt.Errorf("remote: Archive-It collection %s: seed %s is not an http(s) URL: no TimeMap to read", a.Collection, s)) {
				return
			}
		}
		byKey := map[string][]string{}
		for _, s := range seeds {
			k := timemap.Canonicalize(s, timemap.CanonSURT)
			byKey[k] = append(byKey[k], s)
		}
		for _, key := range slices.Sorted(maps.Keys(byKey)) {
			tm := &timemap.TimeMap{Key: key}
			have := map[string]bool{}
			for _, seed := range byKey[key] {
				if err := ctx.Err(); err != nil {
					yield(nil, err)
					return
				}
				ltm, err := a.linkTimeMap(ctx, seed)
				if err != nil {
					if !yield(nil, err) {
						return
					}
					continue
				}
				if ltm == nil {
					continue
				}
				urir := ltm.Original
				if urir == "" {
					urir = seed
				}
				for _, m := range ltm.Mementos {
					if m.Datetime.IsZero() || have[m.URI] {
						continue
					}
					have[m.URI] = true
					tm.Captures = append(tm.Captures, timemap.Capture{Key: key, URIR: urir, Time: m.Datetime, URIM: m.URI})
				}
			}
			if len(tm.Captures) == 0 {
				continue
			}
			slices.SortStableFunc(tm.Captures, func(x, y timemap.Capture) int { return x.Time.Compare(y.Time) })
			tm.URIR = tm.Captures[0].URIR
			tm.URIT = a.timeMapURI(byKey[key][0])
			if !yield(tm, nil) {
				return
			}
		}
	}
}

// timeMapURI is the URI of seed's link-format TimeMap in the collection.
func (a *ArchiveIt) timeMapURI(seed string) string {
	return a.wayback() + "/" + url.PathEscape(a.Collection) + "/timemap/link/" + seed
}

// linkTimeMap fetches and parses one seed's TimeMap; nil, nil when the
// archive has no mementos of it (404).
func (a *ArchiveIt) linkTimeMap(ctx context.Context, seed string) (*timemap.LinkTimeMap, error) {
	u := a.timeMapURI(seed)
	body, err := getOK(ctx, a.Doer, u)
	var he *httpError
	if errors.As(err, &he) && he.Status == http.StatusNotFound {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer body.Close()
	ltm, err := timemap.ParseLinkFormat(io.LimitReader(body, 256<<20))
	if err != nil {
		return nil, fmt.Errorf("remote: Archive-It TimeMap %s: %w", u, err)
	}
	return ltm, nil
}

// parseArchiveItPage finds the seed URLs of one collection page, http(s)
// (seeds) or of other schemes such as ftp:// (skipped), and the URL of the
// next page. Seed entries are the elements whose class names a
// result or seed item; in each, the seed URL is the text of an element of
// class "url" (or of a link whose text is an http(s) URL), else the URL
// after "/*/" in a link into the collection's Wayback. A page without such
// entries is searched for Wayback links of the collection anywhere. The
// next page is a link with rel="next" or the text "next", else a link to
// ?page=N+1.
func parseArchiveItPage(doc *html.Node, base *url.URL, coll string) (seeds, skipped []string, next string) {
	var entries []*html.Node
	var links []*html.Node
	for n := range doc.Descendants() {
		if n.Type != html.ElementNode {
			continue
		}
		if n.Data == "a" {
			links = append(links, n)
		}
		if cls := classes(n); slices.ContainsFunc(cls, func(c string) bool {
			return c == "result-item" || c == "seed" || c == "seed-item" || c == "seed-result"
		}) {
			entries = append(entries, n)
		}
	}
	add := func(s string) {
		switch {
		case s == "":
		case timemap.IsHTTPURI(s):
			seeds = append(seeds, s)
		default:
			skipped = append(skipped, s)
		}
	}
	for _, e := range entries {
		add(seedOf(e, coll))
	}
	if len(entries) == 0 {
		for _, l := range links {
			add(waybackSeed(attr(l, "href"), coll))
		}
	}
	cur := 1
	if p := base.Query().Get("page"); p != "" {
		fmt.Sscan(p, &cur)
	}
	want := fmt.Sprint(cur + 1)
	var byPage string
	for _, l := range links {
		href := attr(l, "href")
		if href == "" || strings.HasPrefix(href, "#") {
			continue
		}
		u, err := base.Parse(href)
		if err != nil {
			continue
		}
		text := strings.ToLower(strings.TrimSpace(textOf(l)))
		rel := strings.ToLower(attr(l, "rel"))
		if slices.Contains(strings.Fields(rel), "next") || strings.HasPrefix(text, "next") {
			return seeds, skipped, u.String()
		}
		if byPage == "" && u.Query().Get("page") == want && u.Path == base.Path {
			byPage = u.String()
		}
	}
	return seeds, skipped, byPage
}

// seedOf returns the seed URL of one seed entry (of any scheme), or "".
func seedOf(e *html.Node, coll string) string {
	var fromLink string
	for n := range e.Descendants() {
		if n.Type != html.ElementNode {
			continue
		}
		if slices.Contains(classes(n), "url") {
			if t := strings.TrimSpace(textOf(n)); isSeedURL(t) {
				return t
			}
			if s := waybackSeed(firstHref(n), coll); s != "" {
				return s
			}
		}
		if n.Data == "a" && fromLink == "" {
			if s := waybackSeed(attr(n, "href"), coll); s != "" {
				fromLink = s
			} else if t := strings.TrimSpace(textOf(n)); isSeedURL(t) {
				fromLink = t
			}
		}
	}
	return fromLink
}

// waybackSeed returns the URL (of any scheme) in a Wayback link of the collection
// (".../<coll>/*/<url>" or ".../<coll>/<timestamp>/<url>"), or "".
func waybackSeed(href, coll string) string {
	i := strings.Index(href, "/"+coll+"/")
	if i < 0 {
		return ""
	}
	rest := href[i+len(coll)+2:]
	ts, u, ok := strings.Cut(rest, "/")
	if !ok || (ts != "*" && !allDigits(strings.TrimSuffix(ts, "*"))) || !isSeedURL(u) {
		return ""
	}
	return u
}

// isSeedURL reports whether t is an absolute URL with a host, of any
// scheme (http, https, ftp...): what a collection page lists as a seed.
func isSeedURL(t string) bool {
	if t == "" || strings.ContainsAny(t, " \t\n") {
		return false
	}
	u, err := url.Parse(t)
	return err == nil && u.Scheme != "" && u.Host != ""
}

func attr(n *html.Node, name string) string {
	for _, a := range n.Attr {
		if strings.EqualFold(a.Key, name) {
			return a.Val
		}
	}
	return ""
}

func classes(n *html.Node) []string { return strings.Fields(attr(n, "class")) }

func firstHref(n *html.Node) string {
	for d := range n.Descendants() {
		if d.Type == html.ElementNode && d.Data == "a" {
			return attr(d, "href")
		}
	}
	return ""
}

func textOf(n *html.Node) string {
	var b strings.Builder
	for d := range n.Descendants() {
		if d.Type == html.TextNode {
			b.WriteString(d.Data)
		}
	}
	return b.String()
}
