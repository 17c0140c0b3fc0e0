package remote

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/url"
	"strconv"
	"strings"

	"github.com/offtopic/offtopic/timemap"
)

// SamplePages is the most pages of a paged CDX answer SampleCaptures reads.
const SamplePages = 8

// SamplePerPage is how many captures of a sample SampleCaptures takes from
// one page at most: a page holds thousands, and a few pages read spread the
// sample over the answer.
const SamplePerPage = 50

// SampleUnpaged caps, as a multiple of the sample's size, the captures
// SampleCaptures reads from a server that cannot page its answer.
const SampleUnpaged = 20

// SampleCaptures draws up to n captures of distinct URLs (by Key) at random
// from those q matches, for a background sample: a CDX server lists captures
// in key order and has no random sample, so it reads the answer's pages
// (the paging API of the Internet Archive's and pywb's ZipNum indexes:
// showNumPages, then page=i) in a random order, n/SamplePerPage of them
// (at least one; more, up to SamplePages, when they fall short), and takes
// an equal share of the sample from each, at random. Only successful HTML captures count. A server
// that does not page (OutbackCDX, a pywb CDXJ index, a Wayback server that
// answers showNumPages with an error) is asked once, with a limit of
// SampleUnpaged*n captures, and the sample drawn from those: the first
// URLs in key order, which is what such a server can give. q.Limit is
// ignored. Lines the server garbles are skipped. Deterministic for a seed
// and an answer.
func (s *CDXServer) SampleCaptures(ctx context.Context, q Query, n int, seed int64) ([]timemap.Capture, error) {
	if n <= 0 {
		return nil, nil
	}
	q, err := q.normalize()
	if err != nil {
		return nil, err
	}
	q.Limit = 0
	rng := rand.New(rand.NewPCG(uint64(seed), 0x73616d706c65))
	base, ok := s.pageParams(q)
	pages := -1
	if ok {
		pages = numPages(ctx, s, base)
	}
	if pages < 0 {
		uq := q
		uq.Limit = SampleUnpaged * n
		caps, err := s.collect(ctx, uq, func(k *sink) error { return s.Kind.dialect().list(ctx, s, uq, k) })
		if err != nil {
			return nil, err
		}
		return pick(rng, caps, n), nil
	}
	// m pages are planned; more are read, up to SamplePages, when they
	// hold fewer pages than their share.
	m := min(SamplePages, max(1, (n+SamplePerPage-1)/SamplePerPage))
	visit := rng.Perm(pages)
	if len(visit) > SamplePages {
		visit = visit[:SamplePages]
	}
	var out []timemap.Capture
	seen := map[string]bool{}
	for i, page := range visit {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		p := cloneValues(base)
		p.Set("page", strconv.Itoa(page))
		caps, err := s.collect(ctx, q, func(k *sink) error {
			body, u, err := s.get(ctx, p)
			if err != nil {
				return err
			}
			defer body.Close()
			if s.Kind == ServerWayback {
				_, err = parseWayback(body, u, k)
				return err
			}
			return parsePywb(body, u, k)
		})
		if err != nil {
			return nil, fmt.Errorf("remote: CDX sample of %s, page %d of %d: %w", q.URL, page, pages, err)
		}
		var fresh []timemap.Capture
		for _, c := range caps {
			if !seen[c.Key] {
				fresh = append(fresh, c)
			}
		}
		// An equal share of what is left to draw from each planned page left.
		left := max(1, m-i)
		share := (n - len(out) + left - 1) / left
		for _, c := range pick(rng, fresh, share) {
			seen[c.Key] = true
			out = append(out, c)
		}
		if len(out) >= n {
			break
		}
	}
	return out, nil
}

// pageParams are the parameters of q for the paging API; false for a
// server kind that has none.
func (s *CDXServer) pageParams(q Query) (url.Values, bool) {
	switch s.Kind {
	case ServerWayback:
		p := q.params(true, iaFilter)
		p.Set("output", "json")
		p.Set("fl", strings.Join(waybackFields(), ","))
		// One ZipNum block (some 3,000 captures) a page, not the
		// default 50: a sample reads a few pages whole.
		p.Set("pageSize", "1")
		return p, true
	case ServerPywb:
		p := q.params(false, pywbFilter)
		p.Set("output", "json")
		if s.PageSize > 0 {
			p.Set("pageSize", strconv.Itoa(s.PageSize))
		}
		return p, true
	}
	return nil, false
}

// numPages is pywbNumPages for either paging dialect: the Internet Archive
// answers showNumPages with a bare number, pywb with {"pages": N}. 0 pages
// (nothing matches) reads as not paged, so that the plain query says so.
func numPages(ctx context.Context, s *CDXServer, base url.Values) int {
	p := cloneValues(base)
	p.Del("fl")
	n, _ := pywbNumPages(ctx, s, p)
	if n == 0 {
		return -1
	}
	return n
}

// collect runs list with a sink that gathers the captures of successful
// HTML responses, one per Key (the first listed), skipping lines the server
// garbles.
func (s *CDXServer) collect(ctx context.Context, q Query, list func(k *sink) error) ([]timemap.Capture, error) {
	var out []timemap.Capture
	seen := map[string]bool{}
	k := &sink{s: s, q: q, origs: map[string]timemap.Capture{}, seen: map[entry]bool{}, prefix: strings.TrimRight(s.MementoPrefix, "/")}
	k.yield = func(c timemap.Capture, err error) bool {
		if err != nil {
			var le *CDXLineError
			return errors.As(err, &le)
		}
		if !c.Revisit && c.Status/100 == 2 && htmlish(c.MIME) && !seen[c.Key] {
			seen[c.Key] = true
			out = append(out, c)
		}
		return true
	}
	if err := list(k); err != nil {
		return nil, err
	}
	return out, ctx.Err()
}

// htmlish says whether a capture's MIME type may be a web page.
func htmlish(mime string) bool {
	return mime == "" || strings.Contains(mime, "html") || mime == "text/plain" || mime == "unk"
}

// pick draws up to n of caps at random, in the order drawn.
func pick(rng *rand.Rand, caps []timemap.Capture, n int) []timemap.Capture {
	if n <= 0 {
		return nil
	}
	idx := rng.Perm(len(caps))
	if len(idx) > n {
		idx = idx[:n]
	}
	out := make([]timemap.Capture, len(idx))
	for i, j := range idx {
		out[i] = caps[j]
	}
	return out
}
