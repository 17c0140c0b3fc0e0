package remote

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/offtopic/offtopic/timemap"
)

// ServerKind names the CDX server software a CDXServer talks to: each has
// its own parameters, field names and output formats.
type ServerKind int

const (
	// ServerWayback is the Internet Archive's (and OpenWayback's) CDX API,
	// e.g. http://web.archive.org/cdx/search/cdx: output=json gives a JSON
	// array whose first row names the fields; paging by showResumeKey and
	// resumeKey.
	ServerWayback ServerKind = iota
	// ServerPywb is pywb's CDX server at /<coll>/cdx: output=json gives one
	// JSON object per line (urlkey, timestamp, url, mime, status, digest,
	// length, offset, filename); paging by showNumPages, page and pageSize
	// where the index supports it (ZipNum), else one query.
	ServerPywb
	// ServerOutback is OutbackCDX at /<index>: space-separated CDX11 lines
	// by default, JSON arrays with output=json; paged by re-querying after
	// the last capture seen.
	ServerOutback
)

// String returns the kind's name as ParseServerKind accepts it.
func (k ServerKind) String() string {
	switch k {
	case ServerWayback:
		return "wayback"
	case ServerPywb:
		return "pywb"
	case ServerOutback:
		return "outback"
	}
	return fmt.Sprintf("ServerKind(%d)", int(k))
}

// dialect is one CDX server software's protocol: how a query is sent and
// paged and how the answer is read. It hands every row to the sink, which
// makes captures of them; one file per dialect.
type dialect interface {
	list(ctx context.Context, s *CDXServer, q Query, k *sink) error
}

// dialect returns the protocol of the kind, nil for an unknown kind.
func (k ServerKind) dialect() dialect {
	switch k {
	case ServerWayback:
		return wayback{}
	case ServerPywb:
		return pywb{}
	case ServerOutback:
		return outback{}
	}
	return nil
}

// ParseServerKind parses a server kind: "wayback" (or "ia", "openwayback"),
// "pywb" and "outback" (or "outbackcdx").
func ParseServerKind(s string) (ServerKind, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "wayback", "ia", "openwayback", "internetarchive":
		return ServerWayback, nil
	case "pywb":
		return ServerPywb, nil
	case "outback", "outbackcdx":
		return ServerOutback, nil
	}
	return ServerWayback, fmt.Errorf("remote: unknown CDX server kind %q (want wayback, pywb or outback)", s)
}

// Query is one CDX query. Filters use the Internet Archive's syntax,
// "[!]field:regex" (the regex matching the whole field value) with field
// names urlkey, timestamp, original, mimetype, statuscode, digest, length
// (pywb's url, mime and status are accepted too); CDXServer translates them
// for each server.
type Query struct {
	// URL is the URL queried; a trailing "*" means a prefix match where
	// MatchType is empty.
	URL string
	// MatchType is "exact" (the default), "prefix", "host" or "domain".
	MatchType string
	// From and To bound capture timestamps (1 to 14 digits, inclusive).
	From, To string
	// Filters are field filters, all of which must hold.
	Filters []string
	// Limit caps the number of captures over all pages (0: no cap).
	Limit int
}

// params returns the query as CDX server parameters: url, matchType (left
// out for an exact match when omitExact), from, to and each filter as
// filter writes it in the server's dialect.
func (q Query) params(omitExact bool, filter func(string) string) url.Values {
	p := url.Values{}
	p.Set("url", q.URL)
	if !omitExact || q.MatchType != "exact" {
		p.Set("matchType", q.MatchType)
	}
	if q.From != "" {
		p.Set("from", q.From)
	}
	if q.To != "" {
		p.Set("to", q.To)
	}
	for _, f := range q.Filters {
		p.Add("filter", filter(f))
	}
	return p
}

// normalize resolves a trailing "*" into a prefix match and checks the query.
func (q Query) normalize() (Query, error) {
	q.URL = strings.TrimSpace(q.URL)
	if q.MatchType == "" && strings.HasSuffix(q.URL, "*") {
		q.MatchType = "prefix"
	}
	if q.MatchType == "prefix" {
		q.URL = strings.TrimSuffix(q.URL, "*")
	}
	if q.MatchType == "" {
		q.MatchType = "exact"
	}
	switch q.MatchType {
	case "exact", "prefix", "host", "domain":
	default:
		return q, fmt.Errorf("remote: CDX query for %s: unknown matchType %q (want exact, prefix, host or domain)", q.URL, q.MatchType)
	}
	if q.URL == "" {
		return q, errors.New("remote: CDX query without a URL")
	}
	if err := q.Check(); err != nil {
		return q, fmt.Errorf("remote: CDX query for %s: %w", q.URL, err)
	}
	return q, nil
}

// Check checks the parts of q that do not depend on its URL: From and To
// (1 to 14 digits, From not after To), Limit (not negative) and Filters
// ("[!]field:regex").
func (q Query) Check() error {
	for _, ts := range []string{q.From, q.To} {
		if ts != "" && (!allDigits(ts) || len(ts) > 14) {
			return fmt.Errorf("bad timestamp %q (want 1 to 14 digits, YYYYMMDDhhmmss)", ts)
		}
	}
	if q.From != "" && q.To != "" && !tsAtOrBefore(q.From, q.To) {
		return fmt.Errorf("from %s is after to %s", q.From, q.To)
	}
	if q.Limit < 0 {
		return fmt.Errorf("negative limit %d", q.Limit)
	}
	for _, f := range q.Filters {
		if _, _, _, err := splitFilter(f); err != nil {
			return err
		}
	}
	return nil
}

// CDXLineError reports one line of a CDX server's answer that could not be
// read. It does not end the sequence: the captures after it still come.
type CDXLineError struct {
	// URL is the query URL that returned the line.
	URL string
	// Line is the 1-based line number in that answer.
	Line int
	// Err says what is wrong with the line.
	Err error
}

// Error implements error.
func (e *CDXLineError) Error() string {
	return fmt.Sprintf("remote: CDX %s line %d: %v", e.URL, e.Line, e.Err)
}

// Unwrap returns the underlying error.
func (e *CDXLineError) Unwrap() error { return e.Err }

// DefaultCDXPageSize is the number of captures asked for per request from
// Wayback and OutbackCDX servers when CDXServer.PageSize is 0.
const DefaultCDXPageSize = 10000

// CDXServer lists captures from a remote CDX server. All requests go through
// Doer. It is safe for concurrent use when Doer is.
type CDXServer struct {
	// Kind is the server software.
	Kind ServerKind
	// Endpoint is the CDX endpoint URL, e.g.
	// "http://web.archive.org/cdx/search/cdx", "http://localhost:8080/coll/cdx"
	// (pywb) or "http://localhost:8080/myindex" (OutbackCDX).
	Endpoint string
	// Doer sends the requests (an *http.Client will do).
	Doer Doer
	// MementoPrefix is the archive's Wayback endpoint, e.g.
	// "http://web.archive.org/web": each capture's URIM is MementoPrefix +
	// "/" + timestamp + "/" + original. Empty: URIM is left empty.
	MementoPrefix string
	// Canon is how capture keys are built from the original URL.
	Canon timemap.CanonMode
	// PageSize is the number of captures per request for Wayback (limit with
	// showResumeKey) and OutbackCDX (limit, then a new query after the last
	// capture seen); 0 means DefaultCDXPageSize, a negative value one
	// unpaged request. For pywb it is the pageSize parameter (ZipNum blocks
	// per page), sent only when positive.
	PageSize int
	// OutputJSON asks OutbackCDX for output=json instead of CDX11 lines.
	// Wayback and pywb are always asked for JSON.
	OutputJSON bool

	// unpaged is set once a pywb server showed that its index does not
	// page (a plain CDXJ index): it is not asked again for each query.
	unpaged atomic.Bool
}

// entry is one capture as a CDX server lists it, fields as strings ("-" or
// "" for none).
type entry struct {
	key, ts, original, mime, status, digest, length, offset, filename string
}

// sink turns rows into captures for the consumer of Captures: it resolves
// revisits, applies Limit and records where paging stopped.
type sink struct {
	s      *CDXServer
	q      Query
	yield  func(timemap.Capture, error) bool
	n      int
	stop   bool
	origs  map[string]timemap.Capture // digest -> latest non-revisit capture
	prefix string
	seen   map[entry]bool // rows already emitted: servers repeat rows
}

// row emits one row; false means stop asking for more.
func (k *sink) row(u string, line int, r entry) bool {
	if k.stop {
		return false
	}
	if k.seen[r] {
		return true // the Internet Archive repeats rows, within a page and across pages
	}
	k.seen[r] = true
	c, err := k.capture(r)
	if err != nil {
		return k.err(&CDXLineError{URL: u, Line: line, Err: err})
	}
	if k.q.Limit > 0 && k.n >= k.q.Limit {
		k.stop = true
		return false
	}
	k.n++
	if !k.yield(c, nil) {
		k.stop = true
		return false
	}
	if k.q.Limit > 0 && k.n >= k.q.Limit {
		k.stop = true
		return false
	}
	return true
}

// err emits an error; false means the consumer stopped.
func (k *sink) err(err error) bool {
	if k.stop {
		return false
	}
	if !k.yield(timemap.Capture{}, err) {
		k.stop = true
	}
	return !k.stop
}

func dash(s string) string {
	s = strings.TrimSpace(s)
	if s == "-" {
		return ""
	}
	return s
}

// capture converts a row, resolving a revisit's status and MIME type from
// the latest earlier capture with the same digest.
func (k *sink) capture(r entry) (timemap.Capture, error) {
	orig := dash(r.original)
	if orig == "" {
		return timemap.Capture{}, errors.New("no original URL")
	}
	ts := dash(r.ts)
	t, err := timemap.ParseTimestamp(ts)
	if err != nil {
		return timemap.Capture{}, err
	}
	if t.IsZero() {
		// "0001" is 1 January of year 1, which reads everywhere as no time.
		return timemap.Capture{}, fmt.Errorf("bad timestamp %q", ts)
	}
	c := timemap.Capture{Key: timemap.Canonicalize(orig, k.s.Canon), URIR: orig, Time: t, Digest: dash(r.digest)}
	if st := dash(r.status); st != "" {
		if c.Status, err = strconv.Atoi(st); err != nil {
			return timemap.Capture{}, fmt.Errorf("bad status %q", r.status)
		}
	}
	if l := dash(r.length); l != "" {
		if c.Length, err = strconv.ParseInt(l, 10, 64); err != nil {
			return timemap.Capture{}, fmt.Errorf("bad length %q", r.length)
		}
	}
	c.Loc.Length = c.Length
	if fn := dash(r.filename); fn != "" {
		c.Loc.File = fn
		if o := dash(r.offset); o != "" {
			if c.Loc.Offset, err = strconv.ParseInt(o, 10, 64); err != nil {
				return timemap.Capture{}, fmt.Errorf("bad offset %q", r.offset)
			}
		}
	} else {
		c.Loc = timemap.Location{}
	}
	c.MIME = timemap.MediaType(dash(r.mime))
	if c.MIME == "warc/revisit" {
		c.Revisit = true
		c.MIME = ""
		if o, ok := k.origs[timemap.NormDigest(c.Digest)]; ok && c.Digest != "" {
			if c.Status == 0 {
				c.Status = o.Status
			}
			c.MIME = o.MIME
			c.Payload = o.Payload
		}
	} else {
		c.Payload = c.Loc
		if c.Digest != "" {
			k.origs[timemap.NormDigest(c.Digest)] = c
		}
	}
	if k.prefix != "" {
		c.URIM = k.prefix + "/" + ts + "/" + orig
	}
	return c, nil
}

// Captures yields the captures that q matches, following every page of the
// server's answer, in the server's order (key, then time). Each capture gets
// Key (Canonicalize of the original URL under s.Canon), URIR, Time, Status,
// MIME (lower case, no parameters), Digest, Length, URIM (see MementoPrefix)
// and, where the server names the file (pywb, OutbackCDX), Loc with the
// archive's file name and offset. A "warc/revisit" line is a revisit whose
// status, MIME type and Payload come from the latest earlier capture with
// the same digest. A line that cannot be read is yielded as a *CDXLineError
// and the sequence goes on; any other error ends it.
func (s *CDXServer) Captures(ctx context.Context, q Query) iter.Seq2[timemap.Capture, error] {
	return func(yield func(timemap.Capture, error) bool) {
		q, err := q.normalize()
		if err != nil {
			yield(timemap.Capture{}, err)
			return
		}
		k := &sink{s: s, q: q, yield: yield, origs: map[string]timemap.Capture{}, seen: map[entry]bool{}, prefix: strings.TrimRight(s.MementoPrefix, "/")}
		if d := s.Kind.dialect(); d != nil {
			err = d.list(ctx, s, q, k)
		} else {
			err = fmt.Errorf("remote: CDX server %s: unknown kind %v", s.Endpoint, s.Kind)
		}
		if err != nil && !k.stop {
			yield(timemap.Capture{}, err)
		}
	}
}

// TimeMaps queries the server once per seed (a URL ending in "*" is a
// prefix query, any other an exact one; q gives the other parameters and
// its URL and MatchType are ignored) and yields the captures grouped by
// canonical key into TimeMaps ordered by time, keys in sorted order within
// each seed. A key already yielded for an earlier seed is not yielded
// again. A seed the server lists no capture of is yielded as an error
// naming it that wraps ErrNoMementos. Line errors (*CDXLineError) are yielded and the seed goes on; an
// error that ends a seed's query is yielded and the next seed follows.
// Memory follows the captures of one seed (all of a prefix seed's keys are
// held until its query ends, to sort them).
func (s *CDXServer) TimeMaps(ctx context.Context, seeds []string, q Query) iter.Seq2[*timemap.TimeMap, error] {
	return func(yield func(*timemap.TimeMap, error) bool) {
		done := map[string]bool{}
		for _, seed := range seeds {
			if err := ctx.Err(); err != nil {
				yield(nil, err)
				return
			}
			sq := q
			sq.URL, sq.MatchType = strings.TrimSpace(seed), ""
			if sq.URL == "" {
				continue
			}
			byKey := map[string]*timemap.TimeMap{}
			failed := false
			for c, err := range s.Captures(ctx, sq) {
				if err != nil {
					failed = true
					if !yield(nil, err) {
						return
					}
					continue
				}
				tm := byKey[c.Key]
				if tm == nil {
					tm = &timemap.TimeMap{Key: c.Key}
					byKey[c.Key] = tm
				}
				tm.Captures = append(tm.Captures, c)
			}
			if len(byKey) == 0 && !failed && ctx.Err() == nil {
				if !yield(nil, fmt.Errorf("remote: CDX server %s: seed %s: %w", s.Endpoint, sq.URL, ErrNoMementos)) {
					return
				}
				continue
			}
			keys := slices.Sorted(maps.Keys(byKey))
			for _, key := range keys {
				if done[key] {
					continue
				}
				done[key] = true
				tm := byKey[key]
				slices.SortStableFunc(tm.Captures, func(a, b timemap.Capture) int { return a.Time.Compare(b.Time) })
				tm.URIR = tm.Captures[0].URIR
				if s.MementoPrefix != "" {
					tm.URIT = strings.TrimRight(s.MementoPrefix, "/") + "/timemap/link/" + tm.URIR
				}
				if !yield(tm, nil) {
					return
				}
			}
		}
	}
}

// SeedSource returns a Source whose TimeMaps are s.TimeMaps(ctx, seeds, q):
// the source behind a detect run over a CDX server.
func (s *CDXServer) SeedSource(seeds []string, q Query) timemap.Source {
	return seedSource{s: s, seeds: seeds, q: q}
}

type seedSource struct {
	s     *CDXServer
	seeds []string
	q     Query
}

// TimeMaps implements Source.
func (c seedSource) TimeMaps(ctx context.Context) iter.Seq2[*timemap.TimeMap, error] {
	return c.s.TimeMaps(ctx, c.seeds, c.q)
}

func (s *CDXServer) pageSize() int {
	switch {
	case s.PageSize == 0:
		return DefaultCDXPageSize
	case s.PageSize < 0:
		return 0
	}
	return s.PageSize
}

// get sends a GET for params to the endpoint and returns the body and the
// URL asked for. A status other than 200 is an error carrying the URL and
// the start of the body.
func (s *CDXServer) get(ctx context.Context, params url.Values) (io.ReadCloser, string, error) {
	u := s.Endpoint
	if strings.Contains(u, "?") {
		u += "&" + params.Encode()
	} else {
		u += "?" + params.Encode()
	}
	body, err := getOK(ctx, s.Doer, u)
	return body, u, err
}

// getOK sends a GET for u through d and returns the body of a 200 answer.
func getOK(ctx context.Context, d Doer, u string) (io.ReadCloser, error) {
	if d == nil {
		return nil, fmt.Errorf("remote: GET %s: no Doer", u)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, fmt.Errorf("remote: GET %s: %w", u, err)
	}
	resp, err := d.Do(req)
	if err != nil {
		return nil, fmt.Errorf("remote: GET %s: %w", u, err)
	}
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 200))
		resp.Body.Close()
		return nil, &httpError{URL: u, Status: resp.StatusCode, Body: strings.TrimSpace(string(b))}
	}
	return resp.Body, nil
}

// httpError is a non-200 answer.
type httpError struct {
	URL    string
	Status int
	Body   string
}

func (e *httpError) Error() string {
	if e.Body != "" {
		return fmt.Sprintf("remote: GET %s: HTTP %d: %.200s", e.URL, e.Status, e.Body)
	}
	return fmt.Sprintf("remote: GET %s: HTTP %d", e.URL, e.Status)
}

// eachLine calls fn for each line of r (1-based numbers, CR removed).
func eachLine(r io.Reader, u string, fn func(n int, line string) bool) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	n := 0
	for sc.Scan() {
		n++
		if !fn(n, strings.TrimRight(sc.Text(), "\r")) {
			return nil
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("remote: reading %s at line %d: %w", u, n+1, err)
	}
	return nil
}

// splitFilter splits "[!]field:expr" (field names mapped to the Internet
// Archive's) and reports whether it is negated. A filter whose field starts
// with pywb's "=" or "~" modifier is returned with mod set.
func splitFilter(f string) (neg bool, field, expr string, err error) {
	rest := f
	if strings.HasPrefix(rest, "!") {
		neg, rest = true, rest[1:]
	}
	field, expr, ok := strings.Cut(rest, ":")
	if !ok || strings.TrimLeft(field, "=~") == "" {
		return false, "", "", fmt.Errorf("bad filter %q (want [!]field:regex)", f)
	}
	return neg, field, expr, nil
}

// iaName maps pywb's field names to the Internet Archive's.
func iaName(field string) string {
	switch field {
	case "url":
		return "original"
	case "mime":
		return "mimetype"
	case "status":
		return "statuscode"
	}
	return field
}

// pywbName maps the Internet Archive's field names to pywb's.
func pywbName(field string) string {
	switch field {
	case "original":
		return "url"
	case "mimetype":
		return "mime"
	case "statuscode":
		return "status"
	}
	return field
}

// iaFilter returns f in the Internet Archive's and OutbackCDX's syntax.
func iaFilter(f string) string {
	neg, field, expr, _ := splitFilter(f)
	field = iaName(field)
	b := field + ":" + expr
	if neg {
		b = "!" + b
	}
	return b
}

// pywbFilter returns f in pywb's syntax: "[!]~field:(?:regex)$" (pywb's
// regex matches at the start only; the "$" makes it match the whole value
// as the Internet Archive's does). Filters already carrying pywb's "=" or
// "~" modifier pass with pywb's field names.
func pywbFilter(f string) string {
	neg, field, expr, _ := splitFilter(f)
	mod := ""
	if field[0] == '=' || field[0] == '~' {
		mod, field = field[:1], field[1:]
	} else {
		mod, expr = "~", "(?:"+expr+")$"
	}
	field = pywbName(field)
	b := mod + field + ":" + expr
	if neg {
		b = "!" + b
	}
	return b
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// rowStrings turns a JSON CDX row into its fields as text (null is "-");
// allStr is false when any field was a number, as in a data row rather than
// a header.
func rowStrings(row []any) (vals []string, allStr bool, err error) {
	vals, allStr = make([]string, len(row)), true
	for i, v := range row {
		switch v := v.(type) {
		case string:
			vals[i] = v
		case json.Number:
			vals[i], allStr = v.String(), false
		case nil:
			vals[i] = "-"
		default:
			return nil, false, fmt.Errorf("field %d is %T", i, v)
		}
	}
	return vals, allStr, nil
}
