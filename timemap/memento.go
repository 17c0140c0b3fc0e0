package timemap

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"iter"
	"net/http"
	"net/textproto"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// ErrNotArchived is wrapped by the errors of TimeMaps, TimeGates and
// mementos that the archive says it does not hold (404 or 410 without a
// Memento-Datetime).
var ErrNotArchived = errors.New("not archived")

// Defaults of TimeMapOptions.
const (
	DefaultTimeMapMaxDepth = 5
	DefaultTimeMapMaxPages = 1000
)

// TimeMapOptions say how remote TimeMaps are fetched.
type TimeMapOptions struct {
	// Canon is the canonicalisation of the captures' keys.
	Canon CanonMode
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

// memTimeMapAccept is the Accept header of TimeMap requests.
const memTimeMapAccept = "application/link-format, application/json;q=0.9, text/x-cdxj;q=0.8, */*;q=0.1"

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
func FetchTimeMap(ctx context.Context, doer Doer, uriT string, opts TimeMapOptions) (*TimeMap, error) {
	opts.defaults()
	type page struct {
		uri   string
		depth int
	}
	queue := []page{{uriT, 0}}
	visited := map[string]bool{uriT: true}
	var (
		original string
		mementos []LinkMemento
		fetched  int
	)
	hdr := http.Header{"Accept": {memTimeMapAccept}}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		if fetched++; fetched > opts.MaxPages {
			return nil, fmt.Errorf("timemap: TimeMap %s: more than %d pages", uriT, opts.MaxPages)
		}
		resp, body, err := fetchGet(ctx, doer, p.uri, hdr, opts.MaxRedirects, opts.MaxBody)
		if err != nil {
			return nil, fmt.Errorf("timemap: TimeMap %s: %w", uriT, err)
		}
		if resp.StatusCode == http.StatusNotFound || resp.StatusCode == http.StatusGone {
			return nil, fmt.Errorf("timemap: TimeMap %s: %s: HTTP %d: %w", uriT, p.uri, resp.StatusCode, ErrNotArchived)
		}
		if resp.StatusCode/100 != 2 {
			return nil, fmt.Errorf("timemap: TimeMap %s: %s: HTTP %s", uriT, p.uri, resp.Status)
		}
		base := resp.Request.URL
		visited[base.String()] = true
		ltm, err := memParseTimeMap(resp.Header.Get("Content-Type"), body, base, opts.ArchivePrefix)
		if err != nil {
			return nil, fmt.Errorf("timemap: TimeMap %s: %s: %w", uriT, p.uri, err)
		}
		if original == "" {
			original = ltm.Original
		}
		for _, m := range ltm.Mementos {
			m.URI = memResolve(base, m.URI)
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
			u := memResolve(base, l.URI)
			if visited[u] {
				continue
			}
			visited[u] = true
			d := p.depth
			if !next {
				d++
			}
			if d > opts.MaxDepth {
				return nil, fmt.Errorf("timemap: TimeMap %s: %s nests deeper than %d", uriT, u, opts.MaxDepth)
			}
			queue = append(queue, page{u, d})
		}
	}
	if original == "" && len(mementos) > 0 {
		original, _, _ = ParseURIM(mementos[0].URI)
	}
	if original == "" {
		return nil, fmt.Errorf("timemap: TimeMap %s names no original resource", uriT)
	}
	tm := &TimeMap{URIR: original, Key: Canonicalize(original, opts.Canon)}
	seen := map[string]bool{}
	for _, m := range mementos {
		t := m.Datetime
		if t.IsZero() {
			_, ts, ok := ParseURIM(m.URI)
			if !ok {
				return nil, fmt.Errorf("timemap: TimeMap %s: memento <%s> has no datetime", uriT, m.URI)
			}
			t, _ = parseTimestamp(ts)
		}
		k := t.UTC().Format(time.RFC3339Nano) + " " + m.URI
		if seen[k] {
			continue
		}
		seen[k] = true
		tm.Captures = append(tm.Captures, Capture{Key: tm.Key, URIR: original, Time: t.UTC(), URIM: m.URI})
	}
	slices.SortStableFunc(tm.Captures, func(a, b Capture) int { return a.Time.Compare(b.Time) })
	return tm, nil
}

// memParseTimeMap parses one TimeMap document by its type or content.
func memParseTimeMap(contentType string, body []byte, base *url.URL, prefix string) (*LinkTimeMap, error) {
	ct := mimeType(contentType)
	trimmed := bytes.TrimLeft(body, " \t\r\n\ufeff")
	switch {
	case strings.Contains(ct, "link-format"):
		return ParseLinkFormat(bytes.NewReader(body))
	case strings.Contains(ct, "json") && !strings.Contains(ct, "cdxj"):
		return ParseTimeMapJSON(bytes.NewReader(body))
	case strings.Contains(ct, "cdxj"):
		return memParseCDXJ(body, base, prefix)
	case len(trimmed) == 0:
		return &LinkTimeMap{}, nil
	case trimmed[0] == '<':
		return ParseLinkFormat(bytes.NewReader(body))
	case trimmed[0] == '{':
		return ParseTimeMapJSON(bytes.NewReader(body))
	}
	return memParseCDXJ(body, base, prefix)
}

// memParseCDXJ reads a CDXJ TimeMap (pywb's /timemap/cdxj/) into mementos.
func memParseCDXJ(body []byte, base *url.URL, prefix string) (*LinkTimeMap, error) {
	if prefix == "" {
		s := base.String()
		i := strings.Index(s, "/timemap/")
		if i < 0 {
			return nil, fmt.Errorf("CDXJ TimeMap: no archive prefix to build URI-Ms (set TimeMapOptions.ArchivePrefix)")
		}
		prefix = s[:i]
	}
	ltm := &LinkTimeMap{}
	for c, err := range ReadCDXJ(bytes.NewReader(body), "") {
		if err != nil {
			return nil, err
		}
		if ltm.Original == "" {
			ltm.Original = c.URIR
		}
		ltm.Mementos = append(ltm.Mementos, LinkMemento{URI: URIM(prefix, c), Datetime: c.Time, Rels: []string{"memento"}})
	}
	return ltm, nil
}

// memResolve resolves ref against base; a ref that is not a valid URI
// reference is returned as is.
func memResolve(base *url.URL, ref string) string {
	if base == nil || isHTTPURI(ref) {
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
func TimeMapsFromURIs(ctx context.Context, doer Doer, uriTs []string, opts TimeMapOptions) iter.Seq2[*TimeMap, error] {
	return func(yield func(*TimeMap, error) bool) {
		for _, u := range uriTs {
			if err := ctx.Err(); err != nil {
				yield(nil, fmt.Errorf("timemap: TimeMap %s: %w", u, err))
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
func (s *TimeMapSource) TimeMaps(ctx context.Context) iter.Seq2[*TimeMap, error] {
	return TimeMapsFromURIs(ctx, s.doer, s.uriTs, s.opts)
}

// TimeGate asks the TimeGate uriG for the memento nearest to at
// (Accept-Datetime) and returns its URI-M and Memento-Datetime. Both styles
// of RFC 7089 are understood: a 302 whose Location is the URI-M, and a 200
// that is the memento itself, named by Content-Location (or by the final URL
// where doer follows redirects itself). Where the answer has no
// Memento-Datetime, the datetime is read from the URI-M's timestamp (zero
// when it has none). Redirects are not followed when doer is a Client.
func TimeGate(ctx context.Context, doer Doer, uriG string, at time.Time) (uriM string, mementoDatetime time.Time, err error) {
	hdr := http.Header{"Accept-Datetime": {httpDate(at)}}
	resp, _, err := fetchGet(ctx, doer, uriG, hdr, -1, 0)
	if err != nil {
		return "", time.Time{}, fmt.Errorf("timemap: TimeGate %s: %w", uriG, err)
	}
	base := resp.Request.URL
	switch {
	case resp.StatusCode/100 == 3 && resp.Header.Get("Location") != "":
		uriM = memResolve(base, resp.Header.Get("Location"))
	case resp.StatusCode/100 == 2:
		if cl := resp.Header.Get("Content-Location"); cl != "" {
			uriM = memResolve(base, cl)
		} else if resp.Header.Get("Memento-Datetime") != "" {
			uriM = base.String()
		} else {
			return "", time.Time{}, fmt.Errorf("timemap: TimeGate %s: HTTP %d names no memento (no Location, Content-Location or Memento-Datetime)", uriG, resp.StatusCode)
		}
	case resp.StatusCode == http.StatusNotFound || resp.StatusCode == http.StatusGone:
		return "", time.Time{}, fmt.Errorf("timemap: TimeGate %s: HTTP %d: %w", uriG, resp.StatusCode, ErrNotArchived)
	default:
		return "", time.Time{}, fmt.Errorf("timemap: TimeGate %s: HTTP %s", uriG, resp.Status)
	}
	if md := resp.Header.Get("Memento-Datetime"); md != "" {
		if t, err := http.ParseTime(md); err == nil {
			return uriM, t.UTC(), nil
		}
	}
	if _, ts, ok := ParseURIM(uriM); ok {
		t, _ := parseTimestamp(ts)
		return uriM, t, nil
	}
	return uriM, time.Time{}, nil
}

// memSplitURIM splits a Wayback-style URI-M
// ("<prefix>/<timestamp><modifier>/<URI-R>") into the text before the
// timestamp (ending in '/'), the timestamp (4 to 17 digits), the modifier
// (such as "id_", "im_", "" for none) and the URI-R as written.
func memSplitURIM(uriM string) (prefix, ts, mod, rest string, ok bool) {
	s := CleanURI(uriM)
	start := 0
	if i := strings.Index(s, "://"); i > 0 && isScheme(strings.ToLower(s[:i])) {
		j := strings.IndexByte(s[i+3:], '/')
		if j < 0 {
			return "", "", "", "", false
		}
		start = i + 3 + j
	} else if !strings.HasPrefix(s, "/") {
		return "", "", "", "", false
	}
	for pos := start; pos < len(s) && s[pos] == '/'; {
		end := strings.IndexByte(s[pos+1:], '/')
		if end < 0 {
			break
		}
		seg := s[pos+1 : pos+1+end]
		if strings.ContainsAny(seg, "?#") {
			break
		}
		if t, m, isTS := memTimestampSegment(seg); isTS && memLooksLikeURIR(s[pos+2+end:]) {
			return s[:pos+1], t, m, s[pos+2+end:], true
		}
		pos += 1 + end
	}
	return "", "", "", "", false
}

// memTimestampSegment reports whether seg is a timestamp with an optional
// modifier: 4 to 17 digits, then nothing or two lower-case letters and '_'.
func memTimestampSegment(seg string) (ts, mod string, ok bool) {
	n := 0
	for n < len(seg) && seg[n] >= '0' && seg[n] <= '9' {
		n++
	}
	if n < 4 || n > 17 {
		return "", "", false
	}
	mod = seg[n:]
	if mod != "" && !(len(mod) == 3 && mod[0] >= 'a' && mod[0] <= 'z' && mod[1] >= 'a' && mod[1] <= 'z' && mod[2] == '_') {
		return "", "", false
	}
	return seg[:n], mod, true
}

// memLooksLikeURIR reports whether s starts like a URI-R embedded in a
// URI-M: a scheme (plain or percent-encoded colon) or a host name with a dot.
func memLooksLikeURIR(s string) bool {
	if s == "" {
		return false
	}
	l := strings.ToLower(s)
	n := 0
	for n < len(l) && (l[n] >= 'a' && l[n] <= 'z' || n > 0 && (l[n] >= '0' && l[n] <= '9' || l[n] == '+' || l[n] == '-' || l[n] == '.')) {
		n++
	}
	if n > 0 && (strings.HasPrefix(l[n:], ":") || strings.HasPrefix(l[n:], "%3a")) {
		return true
	}
	host := l
	if i := strings.IndexAny(host, "/?:#"); i >= 0 {
		host = host[:i]
	}
	if !strings.Contains(host, ".") || strings.HasPrefix(host, ".") || strings.HasSuffix(host, ".") {
		return false
	}
	for i := 0; i < len(host); i++ {
		c := host[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '.' || c == '-') {
			return false
		}
	}
	return true
}

// memWithModifier returns uriM with its modifier replaced by mod ("" for
// none), or uriM unchanged when it has no timestamp segment.
func memWithModifier(uriM, mod string) string {
	prefix, ts, _, rest, ok := memSplitURIM(uriM)
	if !ok {
		return uriM
	}
	return prefix + ts + mod + "/" + rest
}

// RawURIM returns the URI-M that asks a Wayback-style archive (Wayback,
// pywb, Archive-It) for the memento as captured, without banner or
// rewriting: the "id_" modifier after the timestamp, in place of any other
// ("im_", "js_", "cs_", "if_", "mp_", "oe_", ...). A URI without a timestamp
// segment is returned unchanged.
//
//	/web/20140103030321/http://x/    -> /web/20140103030321id_/http://x/
//	/web/20140103030321im_/http://x/ -> /web/20140103030321id_/http://x/
func RawURIM(uriM string) string { return memWithModifier(uriM, "id_") }

// ParseURIM recovers the URI-R and the 14-digit timestamp from a
// Wayback-style URI-M, rewritten or not: "/web/20140103030321im_/http://x/y",
// "/wayback/20140103030321/https://x", Archive-It's
// "https://wayback.archive-it.org/1068/20100103202051/http://x/". Short
// timestamps are padded ("2014" -> "20140101000000"), longer ones cut to 14
// digits; a percent-encoded URI-R is decoded, "http:/x" gets its second
// slash back, and a URI-R without a scheme gets "http://". ok is false when
// uriM has no timestamp segment followed by a URI-R.
func ParseURIM(uriM string) (urir, ts string, ok bool) {
	_, t, _, rest, ok := memSplitURIM(uriM)
	if !ok {
		return "", "", false
	}
	if len(t) > 14 {
		t = t[:14]
	}
	t += "00000101000000"[len(t):]
	if _, err := parseTimestamp(t); err != nil {
		return "", "", false
	}
	l := strings.ToLower(rest)
	if i := strings.Index(l, "%3a"); i > 0 && !strings.Contains(l[:i], "/") {
		if d, err := url.PathUnescape(rest); err == nil {
			rest = d
		}
	}
	i := strings.IndexByte(rest, ':')
	switch {
	case i <= 0 || !isScheme(strings.ToLower(rest[:i])) || looksLikePort(rest[i+1:]):
		rest = "http://" + rest
	case strings.EqualFold(rest[:i], "http") || strings.EqualFold(rest[:i], "https"):
		after := rest[i+1:]
		switch {
		case strings.HasPrefix(after, "//"):
		case strings.HasPrefix(after, "/"):
			rest = rest[:i] + ":/" + after
		default:
			rest = rest[:i] + "://" + after
		}
	}
	return rest, t, true
}

// MementoOptions say how mementos are fetched.
type MementoOptions struct {
	// NotRaw keeps URI-Ms as they are, for archives that do not support the
	// "id_" modifier (see RawURIM).
	NotRaw bool
	// ArchivePrefix builds the URI-M of a capture that names none (see URIM).
	ArchivePrefix string
	// MaxBody caps the memento's body (default DefaultMaxBody).
	MaxBody int64
	// MaxRedirects bounds the archive's own redirects followed (default 10).
	MaxRedirects int
	// Workers is the number of mementos ResolveMementos fetches at once
	// (default 4; the Client's per-host limits still apply).
	Workers int
}

// Memento is one memento as fetched from an archive.
type Memento struct {
	// URIM is the URI-M that answered (after the archive's redirects, in
	// the raw form that was asked for).
	URIM string
	// Status is the archived HTTP status: X-Archive-Orig-Status where the
	// archive reports it, else the status of the answer.
	Status int
	// Header holds the original resource's headers: X-Archive-Orig-* mapped
	// back to their names, else the archive's Content-Type. Transfer-Encoding
	// is dropped (the body is de-chunked), Content-Encoding describes Body
	// as served and Content-Length is its length.
	Header http.Header
	// Body is the body as served (raw where the archive honoured "id_").
	Body []byte
	// MementoDatetime is the capture time actually served (Memento-Datetime,
	// else the URI-M's timestamp, else the capture's time).
	MementoDatetime time.Time
	// Original is the URI-R (Link rel="original", else recovered from the
	// URI-M, else the capture's).
	Original string
}

// FetchMemento fetches the memento of c: its URI-M (c.URIM, else built with
// opts.ArchivePrefix) in raw form (RawURIM, unless opts.NotRaw). A redirect
// without Memento-Datetime is the archive's (to a nearby capture, or to
// another form of the URI-M) and is followed, and the capture time served
// is reported; a redirect with Memento-Datetime is an archived redirect and
// is the memento. An answer without Memento-Datetime that is 404/410 is an
// error wrapping ErrNotArchived, and any other non-2xx one is an error; with
// Memento-Datetime any status is the archived one. Errors name the URI-M.
// Use a Client as doer: an *http.Client follows every redirect itself.
func FetchMemento(ctx context.Context, doer Doer, c Capture, opts MementoOptions) (*Memento, error) {
	if opts.MaxRedirects <= 0 {
		opts.MaxRedirects = DefaultMaxRedirects
	}
	uriM := c.URIM
	if uriM == "" {
		if opts.ArchivePrefix == "" {
			return nil, fmt.Errorf("timemap: memento of %s at %s: no URI-M and no archive prefix", c.URIR, c.Timestamp14())
		}
		uriM = URIM(opts.ArchivePrefix, c)
	}
	cur := uriM
	if !opts.NotRaw {
		cur = RawURIM(cur)
	}
	var (
		resp *http.Response
		body []byte
		err  error
	)
	for hops := 0; ; hops++ {
		resp, body, err = fetchGet(ctx, doer, cur, nil, -1, opts.MaxBody)
		if err != nil {
			return nil, fmt.Errorf("timemap: memento %s: %w", uriM, err)
		}
		loc := resp.Header.Get("Location")
		if resp.StatusCode/100 != 3 || loc == "" || resp.Header.Get("Memento-Datetime") != "" {
			break
		}
		if hops >= opts.MaxRedirects {
			return nil, fmt.Errorf("timemap: memento %s: more than %d redirects", uriM, opts.MaxRedirects)
		}
		cur = memResolve(resp.Request.URL, loc)
		if !opts.NotRaw {
			cur = RawURIM(cur)
		}
	}
	final := resp.Request.URL.String()
	mdt := resp.Header.Get("Memento-Datetime")
	if mdt == "" {
		switch {
		case resp.StatusCode == http.StatusNotFound || resp.StatusCode == http.StatusGone:
			return nil, fmt.Errorf("timemap: memento %s: HTTP %d: %w", final, resp.StatusCode, ErrNotArchived)
		case resp.StatusCode/100 != 2:
			return nil, fmt.Errorf("timemap: memento %s: HTTP %s", final, resp.Status)
		}
	}
	m := &Memento{URIM: final, Status: resp.StatusCode, Body: body, Header: http.Header{}}
	for k, vs := range resp.Header {
		if len(k) > len("X-Archive-Orig-") && strings.EqualFold(k[:len("X-Archive-Orig-")], "X-Archive-Orig-") {
			name := textproto.CanonicalMIMEHeaderKey(k[len("X-Archive-Orig-"):])
			m.Header[name] = append(m.Header[name], vs...)
		}
	}
	if st := m.Header.Get("Status"); st != "" {
		if f := strings.Fields(st); len(f) > 0 {
			if n, err := strconv.Atoi(f[0]); err == nil && n >= 100 && n <= 999 {
				m.Status = n
			}
		}
		m.Header.Del("Status")
	}
	if m.Header.Get("Content-Type") == "" {
		if ct := resp.Header.Get("Content-Type"); ct != "" {
			m.Header.Set("Content-Type", ct)
		}
	}
	m.Header.Del("Transfer-Encoding")
	m.Header.Del("Content-Encoding")
	if ce := resp.Header.Get("Content-Encoding"); ce != "" && !resp.Uncompressed {
		m.Header.Set("Content-Encoding", ce)
	}
	m.Header.Set("Content-Length", strconv.Itoa(len(body)))
	urir, ts, parsed := ParseURIM(final)
	if t, err := http.ParseTime(mdt); mdt != "" && err == nil {
		m.MementoDatetime = t.UTC()
	} else if parsed {
		m.MementoDatetime, _ = parseTimestamp(ts)
	} else {
		m.MementoDatetime = c.Time
	}
	if links, err := parseLinks(strings.Join(resp.Header.Values("Link"), ",")); err == nil {
		for _, l := range links {
			if l.HasRel("original") {
				m.Original = l.URI
				break
			}
		}
	}
	if m.Original == "" {
		m.Original = urir
	}
	if m.Original == "" {
		m.Original = c.URIR
	}
	return m, nil
}

// Capture returns c completed with what fetching its memento told: Status,
// MIME (the media type without parameters, lower case), Time (the
// Memento-Datetime actually served) and, where missing, Digest (SHA-1 of
// the body as served). Where the archive served another capture than asked
// for, URIM becomes the URI-M served (with c's modifier).
func (m *Memento) Capture(c Capture) Capture {
	c.Status = m.Status
	c.MIME = mimeType(m.Header.Get("Content-Type"))
	if !m.MementoDatetime.IsZero() && !m.MementoDatetime.Equal(c.Time) {
		c.Time = m.MementoDatetime
		if c.URIM != "" {
			_, _, mod, _, _ := memSplitURIM(c.URIM)
			c.URIM = memWithModifier(m.URIM, mod)
		}
	}
	if c.Digest == "" {
		c.Digest, _ = sha1Base32(bytes.NewReader(m.Body))
	}
	return c
}

// MementoReader returns a payload reader for remote captures, of the shape
// of the detection pipeline's (similarity.PayloadReader): it fetches the
// capture's memento (FetchMemento) and returns its original headers and raw
// body. The signature cannot carry the archived status, type and time back:
// callers fill c.Status, c.MIME and c.Time first, with Memento.Capture or
// ResolveMementos (with a caching Client, the second fetch is a cache hit).
func MementoReader(doer Doer, opts MementoOptions) func(ctx context.Context, c Capture) (http.Header, []byte, error) {
	return func(ctx context.Context, c Capture) (http.Header, []byte, error) {
		m, err := FetchMemento(ctx, doer, c, opts)
		if err != nil {
			return nil, nil, err
		}
		return m.Header, m.Body, nil
	}
}

// ResolveMementos returns a Source that yields src's TimeMaps with each
// capture completed by fetching its memento (Memento.Capture), in time
// order again. A capture whose memento cannot be fetched stays in its
// TimeMap with Status 0 and the reason in Capture.Error (it will be
// reported as not scored, with that reason) and onError,
// when set, hears of it with the reason (called from the iterating
// goroutine, in capture order); the run goes on. Mementos of one TimeMap
// are fetched by opts.Workers goroutines. When ctx ends,
// the iteration yields ctx's error and stops.
func ResolveMementos(src Source, doer Doer, opts MementoOptions, onError func(Capture, error)) Source {
	return &memResolving{src: src, doer: doer, opts: opts, onError: onError}
}

type memResolving struct {
	src     Source
	doer    Doer
	opts    MementoOptions
	onError func(Capture, error)
}

// TimeMaps yields the source's TimeMaps with their captures resolved.
func (s *memResolving) TimeMaps(ctx context.Context) iter.Seq2[*TimeMap, error] {
	workers := s.opts.Workers
	if workers <= 0 {
		workers = 4
	}
	return func(yield func(*TimeMap, error) bool) {
		for tm, err := range s.src.TimeMaps(ctx) {
			if err != nil {
				if !yield(nil, err) {
					return
				}
				continue
			}
			errs := make([]error, len(tm.Captures))
			work := make(chan int)
			var wg sync.WaitGroup
			for range max(1, min(workers, len(tm.Captures))) {
				wg.Go(func() {
					for i := range work {
						m, err := FetchMemento(ctx, s.doer, tm.Captures[i], s.opts)
						if err != nil {
							errs[i] = err
							continue
						}
						tm.Captures[i] = m.Capture(tm.Captures[i])
					}
				})
			}
		feed:
			for i := range tm.Captures {
				select {
				case work <- i:
				case <-ctx.Done():
					break feed
				}
			}
			close(work)
			wg.Wait()
			if ctxErr := ctx.Err(); ctxErr != nil {
				yield(nil, fmt.Errorf("timemap: resolving mementos of %s: %w", tm.URIR, ctxErr))
				return
			}
			for i, err := range errs {
				if err == nil {
					continue
				}
				tm.Captures[i].Error = err.Error()
				if s.onError != nil {
					s.onError(tm.Captures[i], err)
				}
			}
			slices.SortStableFunc(tm.Captures, func(a, b Capture) int { return a.Time.Compare(b.Time) })
			if !yield(tm, nil) {
				return
			}
		}
	}
}
