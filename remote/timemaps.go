package remote

import (
	"bytes"
	"context"
	"fmt"
	"iter"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/offtopic/offtopic/timemap"
)

// Defaults of TimeMapOptions.
const (
	DefaultTimeMapMaxDepth = 5
	DefaultTimeMapMaxPages = 1000
)

// TimeMapOptions say how remote TimeMaps are fetched.
type TimeMapOptions struct {
	// Canon is the canonicalisation of the captures' keys.
	Canon timemap.CanonMode
	// MaxDepth bounds how deep index TimeMaps nest (rel="timemap" links
	// from an index to its sub-TimeMaps; default 5). Pages of one level
	// (rel="next"/"prev") do not add depth.
	MaxDepth int
	// MaxPages bounds the number of TimeMap documents fetched for one
	// URI-T (default 1000).
	MaxPages int
	// MaxBody caps one TimeMap document (default DefaultMaxBody).
	MaxBody int64
	// MaxRedirects bounds the redirects followed per document (default 10).
	MaxRedirects int
	// ArchivePrefix builds the URI-Ms of CDXJ TimeMaps, whose lines name
	// no URI-M (prefix/timestamp/URI-R); by default the part of the URI-T
	// before "/timemap/", as pywb serves them.
	ArchivePrefix string
}

func (o *TimeMapOptions) defaults() {
	if o.MaxDepth <= 0 {
		o.MaxDepth = DefaultTimeMapMaxDepth
	}
	if o.MaxPages <= 0 {
		o.MaxPages = DefaultTimeMapMaxPages
	}
	if o.MaxRedirects <= 0 {
		o.MaxRedirects = DefaultMaxRedirects
	}
}

// timeMapAccept is the Accept header of TimeMap requests.
const timeMapAccept = "application/link-format, application/json;q=0.9, text/x-cdxj;q=0.8, */*;q=0.1"

// FetchTimeMap fetches the TimeMap at uriT and every further TimeMap it
// points to, and returns their mementos merged as one TimeMap.
//
// The format of each document is told by its Content-Type, else by its
// content: RFC 7089 link-format (ParseLinkFormat, with the quirks of real
// archives), MemGator's JSON (ParseTimeMapJSON) or CDXJ lines (ReadCDXJ; the
// URI-Ms are built from opts.ArchivePrefix). Paged and index TimeMaps are
// followed breadth-first through their rel="timemap", rel="next" and
// rel="prev" links (other than "self", and other than links whose type names
// another format, which are the same TimeMap again), each URI once, within
// opts.MaxDepth and opts.MaxPages; exceeding a limit is an error, not a cut.
// Mementos are merged and de-duplicated by datetime and URI-M (relative URI-Ms
// resolved against their document) and ordered by time.
//
// Every capture gets URIR (the TimeMap's rel="original", else the URI-R
// recovered from the first URI-M), Key (Canonicalize(URIR, opts.Canon)),
// Time and URIM; Status and MIME stay unknown (0 and "") until the memento
// is fetched (FetchMemento, Memento.Capture, ResolveMementos). A TimeMap the
// archive does not have is an error wrapping ErrNotArchived.
func FetchTimeMap(ctx context.Context, doer Doer, uriT string, opts TimeMapOptions) (*timemap.TimeMap, error) {
	opts.defaults()
	type page struct {
		uri   string
		depth int
	}
	queue := []page{{uriT, 0}}
	visited := map[string]bool{uriT: true}
	var (
		original string
		mementos []timemap.LinkMemento
		fetched  int
	)
	hdr := http.Header{"Accept": {timeMapAccept}}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		if fetched++; fetched > opts.MaxPages {
			return nil, fmt.Errorf("remote: timemap.TimeMap %s: more than %d pages", uriT, opts.MaxPages)
		}
		resp, body, err := fetch(ctx, doer, p.uri, hdr, opts.MaxRedirects, opts.MaxBody)
		if err != nil {
			return nil, fmt.Errorf("remote: timemap.TimeMap %s: %w", uriT, err)
		}
		if resp.StatusCode == http.StatusNotFound || resp.StatusCode == http.StatusGone {
			return nil, fmt.Errorf("remote: timemap.TimeMap %s: %s: HTTP %d: %w", uriT, p.uri, resp.StatusCode, ErrNotArchived)
		}
		if resp.StatusCode/100 != 2 {
			return nil, fmt.Errorf("remote: timemap.TimeMap %s: %s: HTTP %s", uriT, p.uri, resp.Status)
		}
		base := resp.Request.URL
		visited[base.String()] = true
		ltm, err := parseTimeMap(resp.Header.Get("Content-Type"), body, base, opts.ArchivePrefix)
		if err != nil {
			return nil, fmt.Errorf("remote: timemap.TimeMap %s: %s: %w", uriT, p.uri, err)
		}
		if original == "" {
			original = ltm.Original
		}
		for _, m := range ltm.Mementos {
			m.URI = resolveRef(base, m.URI)
			mementos = append(mementos, m)
		}
		for _, l := range ltm.Links {
			next := l.HasRel("next") || l.HasRel("prev") || l.HasRel("previous")
			if !(next || l.HasRel("timemap")) || l.HasRel("self") || l.HasRel("memento") {
				continue
			}
			if t := l.Params["type"]; t != "" && !strings.Contains(strings.ToLower(t), "link-format") {
				continue
			}
			u := resolveRef(base, l.URI)
			if visited[u] {
				continue
			}
			visited[u] = true
			d := p.depth
			if !next {
				d++
			}
			if d > opts.MaxDepth {
				return nil, fmt.Errorf("remote: timemap.TimeMap %s: %s nests deeper than %d", uriT, u, opts.MaxDepth)
			}
			queue = append(queue, page{u, d})
		}
	}
	if original == "" && len(mementos) > 0 {
		original, _, _ = timemap.ParseURIM(mementos[0].URI)
	}
	if original == "" {
		return nil, fmt.Errorf("remote: timemap.TimeMap %s names no original resource", uriT)
	}
	tm := &timemap.TimeMap{URIR: original, Key: timemap.Canonicalize(original, opts.Canon)}
	seen := map[string]bool{}
	for _, m := range mementos {
		t := m.Datetime
		if t.IsZero() {
			_, ts, ok := timemap.ParseURIM(m.URI)
			if !ok {
				return nil, fmt.Errorf("remote: timemap.TimeMap %s: memento <%s> has no datetime", uriT, m.URI)
			}
			t, _ = timemap.ParseTimestamp(ts)
		}
		k := t.UTC().Format(time.RFC3339Nano) + " " + m.URI
		if seen[k] {
			continue
		}
		seen[k] = true
		tm.Captures = append(tm.Captures, timemap.Capture{Key: tm.Key, URIR: original, Time: t.UTC(), URIM: m.URI})
	}
	slices.SortStableFunc(tm.Captures, func(a, b timemap.Capture) int { return a.Time.Compare(b.Time) })
	return tm, nil
}

// parseTimeMap parses one TimeMap document by its type or content.
func parseTimeMap(contentType string, body []byte, base *url.URL, prefix string) (*timemap.LinkTimeMap, error) {
	ct := timemap.MediaType(contentType)
	trimmed := bytes.TrimLeft(body, " \t\r\n\ufeff")
	switch {
	case strings.Contains(ct, "link-format"):
		return timemap.ParseLinkFormat(bytes.NewReader(body))
	case strings.Contains(ct, "json") && !strings.Contains(ct, "cdxj"):
		return timemap.ParseTimeMapJSON(bytes.NewReader(body))
	case strings.Contains(ct, "cdxj"):
		return parseCDXJTimeMap(body, base, prefix)
	case len(trimmed) == 0:
		return &timemap.LinkTimeMap{}, nil
	case trimmed[0] == '<':
		return timemap.ParseLinkFormat(bytes.NewReader(body))
	case trimmed[0] == '{':
		return timemap.ParseTimeMapJSON(bytes.NewReader(body))
	}
	return parseCDXJTimeMap(body, base, prefix)
}

// parseCDXJTimeMap reads a CDXJ TimeMap (pywb's /timemap/cdxj/) into mementos.
func parseCDXJTimeMap(body []byte, base *url.URL, prefix string) (*timemap.LinkTimeMap, error) {
	if prefix == "" {
		s := base.String()
		i := strings.Index(s, "/timemap/")
		if i < 0 {
			return nil, fmt.Errorf("CDXJ TimeMap: no archive prefix to build URI-Ms (set TimeMapOptions.ArchivePrefix)")
		}
		prefix = s[:i]
	}
	ltm := &timemap.LinkTimeMap{}
	for c, err := range timemap.ReadCDXJ(bytes.NewReader(body), "") {
		if err != nil {
			return nil, err
		}
		if ltm.Original == "" {
			ltm.Original = c.URIR
		}
		ltm.Mementos = append(ltm.Mementos, timemap.LinkMemento{URI: timemap.URIM(prefix, c), Datetime: c.Time, Rels: []string{"memento"}})
	}
	return ltm, nil
}

// resolveRef resolves ref against base; a ref that is not a valid URI
// reference is returned as is.
func resolveRef(base *url.URL, ref string) string {
	if base == nil || timemap.IsHTTPURI(ref) {
		return ref
	}
	u, err := base.Parse(ref)
	if err != nil {
		return ref
	}
	return u.String()
}

// TimeMapsFromURIs fetches the TimeMaps at uriTs in turn (FetchTimeMap) and
// yields each. A TimeMap that cannot be fetched is yielded as an error
// naming its URI-T and the iteration goes on: the caller decides whether to
// stop. It stops when ctx ends.
func TimeMapsFromURIs(ctx context.Context, doer Doer, uriTs []string, opts TimeMapOptions) iter.Seq2[*timemap.TimeMap, error] {
	return func(yield func(*timemap.TimeMap, error) bool) {
		for _, u := range uriTs {
			if err := ctx.Err(); err != nil {
				yield(nil, fmt.Errorf("remote: timemap.TimeMap %s: %w", u, err))
				return
			}
			tm, err := FetchTimeMap(ctx, doer, u, opts)
			if !yield(tm, err) {
				return
			}
		}
	}
}

// TimeMapSource is a Source of remote TimeMaps given by their URI-Ts.
// Unlike an Index it yields TimeMaps in the order of its URI-Ts, not in key
// order, and two URI-Ts of one URI-R give two TimeMaps with the same key.
type TimeMapSource struct {
	doer  Doer
	uriTs []string
	opts  TimeMapOptions
}

// NewTimeMapSource returns a Source over the TimeMaps at uriTs, fetched
// through doer (see TimeMapsFromURIs).
func NewTimeMapSource(doer Doer, uriTs []string, opts TimeMapOptions) *TimeMapSource {
	return &TimeMapSource{doer: doer, uriTs: slices.Clone(uriTs), opts: opts}
}

// TimeMaps fetches and yields the TimeMaps in the order of the URI-Ts.
func (s *TimeMapSource) TimeMaps(ctx context.Context) iter.Seq2[*timemap.TimeMap, error] {
	return TimeMapsFromURIs(ctx, s.doer, s.uriTs, s.opts)
}
