package timemap

import (
	"bufio"
	"bytes"
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
	return ServerWayback, fmt.Errorf("timemap: unknown CDX server kind %q (want wayback, pywb or outback)", s)
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
		return q, fmt.Errorf("timemap: CDX query for %s: unknown matchType %q (want exact, prefix, host or domain)", q.URL, q.MatchType)
	}
	if q.URL == "" {
		return q, errors.New("timemap: CDX query without a URL")
	}
	for _, ts := range []string{q.From, q.To} {
		if ts != "" && !cdxDigits(ts) {
			return q, fmt.Errorf("timemap: CDX query for %s: bad timestamp %q", q.URL, ts)
		}
	}
	for _, f := range q.Filters {
		if _, _, _, err := cdxSplitFilter(f); err != nil {
			return q, fmt.Errorf("timemap: CDX query for %s: %w", q.URL, err)
		}
	}
	return q, nil
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
	return fmt.Sprintf("timemap: CDX %s line %d: %v", e.URL, e.Line, e.Err)
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
	Canon CanonMode
	// PageSize is the number of captures per request for Wayback (limit with
	// showResumeKey) and OutbackCDX (limit, then a new query after the last
	// capture seen); 0 means DefaultCDXPageSize, a negative value one
	// unpaged request. For pywb it is the pageSize parameter (ZipNum blocks
	// per page), sent only when positive.
	PageSize int
	// OutputJSON asks OutbackCDX for output=json instead of CDX11 lines.
	// Wayback and pywb are always asked for JSON.
	OutputJSON bool
}

// cdxRow is one capture as a CDX server lists it, fields as strings ("-" or
// "" for none).
type cdxRow struct {
	key, ts, original, mime, status, digest, length, offset, filename string
}

// sink turns rows into captures for the consumer of Captures: it resolves
// revisits, applies Limit and records where paging stopped.
type cdxSink struct {
	s      *CDXServer
	q      Query
	yield  func(Capture, error) bool
	n      int
	stop   bool
	origs  map[string]Capture // digest -> latest non-revisit capture
	prefix string
}

// row emits one row; false means stop asking for more.
func (k *cdxSink) row(u string, line int, r cdxRow) bool {
	if k.stop {
		return false
	}
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
func (k *cdxSink) err(err error) bool {
	if k.stop {
		return false
	}
	if !k.yield(Capture{}, err) {
		k.stop = true
	}
	return !k.stop
}

func cdxDash(s string) string {
	s = strings.TrimSpace(s)
	if s == "-" {
		return ""
	}
	return s
}

// capture converts a row, resolving a revisit's status and MIME type from
// the latest earlier capture with the same digest.
func (k *cdxSink) capture(r cdxRow) (Capture, error) {
	orig := cdxDash(r.original)
	if orig == "" {
		return Capture{}, errors.New("no original URL")
	}
	ts := cdxDash(r.ts)
	t, err := parseTimestamp(ts)
	if err != nil {
		return Capture{}, err
	}
	c := Capture{Key: Canonicalize(orig, k.s.Canon), URIR: orig, Time: t, Digest: cdxDash(r.digest)}
	if st := cdxDash(r.status); st != "" {
		if c.Status, err = strconv.Atoi(st); err != nil {
			return Capture{}, fmt.Errorf("bad status %q", r.status)
		}
	}
	if l := cdxDash(r.length); l != "" {
		if c.Length, err = strconv.ParseInt(l, 10, 64); err != nil {
			return Capture{}, fmt.Errorf("bad length %q", r.length)
		}
	}
	c.Loc.Length = c.Length
	if fn := cdxDash(r.filename); fn != "" {
		c.Loc.File = fn
		if o := cdxDash(r.offset); o != "" {
			if c.Loc.Offset, err = strconv.ParseInt(o, 10, 64); err != nil {
				return Capture{}, fmt.Errorf("bad offset %q", r.offset)
			}
		}
	} else {
		c.Loc = Location{}
	}
	c.MIME = mimeType(cdxDash(r.mime))
	if c.MIME == "warc/revisit" {
		c.Revisit = true
		c.MIME = ""
		if o, ok := k.origs[normDigest(c.Digest)]; ok && c.Digest != "" {
			if c.Status == 0 {
				c.Status = o.Status
			}
			c.MIME = o.MIME
			c.Payload = o.Payload
		}
	} else {
		c.Payload = c.Loc
		if c.Digest != "" {
			k.origs[normDigest(c.Digest)] = c
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
func (s *CDXServer) Captures(ctx context.Context, q Query) iter.Seq2[Capture, error] {
	return func(yield func(Capture, error) bool) {
		q, err := q.normalize()
		if err != nil {
			yield(Capture{}, err)
			return
		}
		k := &cdxSink{s: s, q: q, yield: yield, origs: map[string]Capture{}, prefix: strings.TrimRight(s.MementoPrefix, "/")}
		switch s.Kind {
		case ServerWayback:
			err = s.wayback(ctx, q, k)
		case ServerPywb:
			err = s.pywb(ctx, q, k)
		case ServerOutback:
			err = s.outback(ctx, q, k)
		default:
			err = fmt.Errorf("timemap: CDX server %s: unknown kind %v", s.Endpoint, s.Kind)
		}
		if err != nil && !k.stop {
			yield(Capture{}, err)
		}
	}
}

// TimeMaps queries the server once per seed (a URL ending in "*" is a
// prefix query, any other an exact one; q gives the other parameters and
// its URL and MatchType are ignored) and yields the captures grouped by
// canonical key into TimeMaps ordered by time, keys in sorted order within
// each seed. A key already yielded for an earlier seed is not yielded
// again. Line errors (*CDXLineError) are yielded and the seed goes on; an
// error that ends a seed's query is yielded and the next seed follows.
// Memory follows the captures of one seed (all of a prefix seed's keys are
// held until its query ends, to sort them).
func (s *CDXServer) TimeMaps(ctx context.Context, seeds []string, q Query) iter.Seq2[*TimeMap, error] {
	return func(yield func(*TimeMap, error) bool) {
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
			byKey := map[string]*TimeMap{}
			for c, err := range s.Captures(ctx, sq) {
				if err != nil {
					if !yield(nil, err) {
						return
					}
					continue
				}
				tm := byKey[c.Key]
				if tm == nil {
					tm = &TimeMap{Key: c.Key}
					byKey[c.Key] = tm
				}
				tm.Captures = append(tm.Captures, c)
			}
			keys := slices.Sorted(maps.Keys(byKey))
			for _, key := range keys {
				if done[key] {
					continue
				}
				done[key] = true
				tm := byKey[key]
				slices.SortStableFunc(tm.Captures, func(a, b Capture) int { return a.Time.Compare(b.Time) })
				tm.URIR = tm.Captures[0].URIR
				if !yield(tm, nil) {
					return
				}
			}
		}
	}
}

// SeedSource returns a Source whose TimeMaps are s.TimeMaps(ctx, seeds, q):
// the source behind a detect run over a CDX server.
func (s *CDXServer) SeedSource(seeds []string, q Query) Source {
	return cdxSeedSource{s: s, seeds: seeds, q: q}
}

type cdxSeedSource struct {
	s     *CDXServer
	seeds []string
	q     Query
}

// TimeMaps implements Source.
func (c cdxSeedSource) TimeMaps(ctx context.Context) iter.Seq2[*TimeMap, error] {
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
	body, err := cdxGet(ctx, s.Doer, u)
	return body, u, err
}

// cdxGet sends a GET for u through d and returns the body of a 200 answer.
func cdxGet(ctx context.Context, d Doer, u string) (io.ReadCloser, error) {
	if d == nil {
		return nil, fmt.Errorf("timemap: GET %s: no Doer", u)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, fmt.Errorf("timemap: GET %s: %w", u, err)
	}
	resp, err := d.Do(req)
	if err != nil {
		return nil, fmt.Errorf("timemap: GET %s: %w", u, err)
	}
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 200))
		resp.Body.Close()
		return nil, &cdxHTTPError{URL: u, Status: resp.StatusCode, Body: strings.TrimSpace(string(b))}
	}
	return resp.Body, nil
}

// cdxHTTPError is a non-200 answer.
type cdxHTTPError struct {
	URL    string
	Status int
	Body   string
}

func (e *cdxHTTPError) Error() string {
	if e.Body != "" {
		return fmt.Sprintf("timemap: GET %s: HTTP %d: %.200s", e.URL, e.Status, e.Body)
	}
	return fmt.Sprintf("timemap: GET %s: HTTP %d", e.URL, e.Status)
}

// cdxLines calls fn for each line of r (1-based numbers, CR removed).
func cdxLines(r io.Reader, u string, fn func(n int, line string) bool) error {
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
		return fmt.Errorf("timemap: reading %s at line %d: %w", u, n+1, err)
	}
	return nil
}

// cdxSplitFilter splits "[!]field:expr" (field names mapped to the Internet
// Archive's) and reports whether it is negated. A filter whose field starts
// with pywb's "=" or "~" modifier is returned with mod set.
func cdxSplitFilter(f string) (neg bool, field, expr string, err error) {
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

// cdxIAName maps pywb's field names to the Internet Archive's.
func cdxIAName(field string) string {
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

// cdxPywbName maps the Internet Archive's field names to pywb's.
func cdxPywbName(field string) string {
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

// cdxIAFilter returns f in the Internet Archive's and OutbackCDX's syntax.
func cdxIAFilter(f string) string {
	neg, field, expr, _ := cdxSplitFilter(f)
	field = cdxIAName(field)
	b := field + ":" + expr
	if neg {
		b = "!" + b
	}
	return b
}

// cdxPywbFilter returns f in pywb's syntax: "[!]~field:(?:regex)$" (pywb's
// regex matches at the start only; the "$" makes it match the whole value
// as the Internet Archive's does). Filters already carrying pywb's "=" or
// "~" modifier pass with pywb's field names.
func cdxPywbFilter(f string) string {
	neg, field, expr, _ := cdxSplitFilter(f)
	mod := ""
	if field[0] == '=' || field[0] == '~' {
		mod, field = field[:1], field[1:]
	} else {
		mod, expr = "~", "(?:"+expr+")$"
	}
	field = cdxPywbName(field)
	b := mod + field + ":" + expr
	if neg {
		b = "!" + b
	}
	return b
}

func cdxDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// --- Internet Archive / Wayback CDX API ---

// waybackFields is the field list asked for (fl) and the default order.
func waybackFields() []string {
	return []string{"urlkey", "timestamp", "original", "mimetype", "statuscode", "digest", "length"}
}

func (s *CDXServer) wayback(ctx context.Context, q Query, k *cdxSink) error {
	resume := ""
	seen := map[string]bool{}
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		p := url.Values{}
		p.Set("url", q.URL)
		if q.MatchType != "exact" {
			p.Set("matchType", q.MatchType)
		}
		if q.From != "" {
			p.Set("from", q.From)
		}
		if q.To != "" {
			p.Set("to", q.To)
		}
		for _, f := range q.Filters {
			p.Add("filter", cdxIAFilter(f))
		}
		p.Set("output", "json")
		p.Set("fl", strings.Join(waybackFields(), ","))
		limit := s.pageSize()
		if q.Limit > 0 && (limit == 0 || q.Limit-k.n < limit) {
			limit = q.Limit - k.n
		}
		if limit > 0 {
			p.Set("limit", strconv.Itoa(limit))
		}
		if s.pageSize() > 0 {
			p.Set("showResumeKey", "true")
		}
		if resume != "" {
			p.Set("resumeKey", resume)
		}
		body, u, err := s.get(ctx, p)
		if err != nil {
			return err
		}
		next, err := parseWaybackJSON(body, u, k)
		body.Close()
		if err != nil || k.stop || next == "" || s.pageSize() == 0 {
			return err
		}
		if seen[next] {
			return fmt.Errorf("timemap: CDX %s: resume key %q repeats", u, next)
		}
		seen[next] = true
		resume = next
	}
}

// parseWaybackJSON reads the Wayback CDX API's JSON answer. The API writes
// one row per line, so it is read line by line and one bad row costs only
// itself (an answer on a single line is read as a whole). The first row
// names the fields; a one-element row (after an empty one) is the resume
// key.
func parseWaybackJSON(r io.Reader, u string, k *cdxSink) (resume string, err error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return "", fmt.Errorf("timemap: reading %s: %w", u, err)
	}
	var idx map[string]int
	afterEmpty := false
	doRow := func(n int, row []any) bool {
		vals := make([]string, len(row))
		allStr := true
		for i, v := range row {
			switch v := v.(type) {
			case string:
				vals[i] = v
			case json.Number:
				vals[i], allStr = v.String(), false
			case nil:
				vals[i] = "-"
			default:
				return k.err(&CDXLineError{URL: u, Line: n, Err: fmt.Errorf("field %d is %T", i, v)})
			}
		}
		switch {
		case len(vals) == 0:
			afterEmpty = true
			return true
		case len(vals) == 1 && (afterEmpty || idx != nil):
			resume = vals[0]
			return true
		case idx == nil && allStr && slices.Contains(vals, "timestamp"):
			idx = map[string]int{}
			for i, v := range vals {
				idx[v] = i
			}
			return true
		}
		if idx == nil {
			idx = map[string]int{}
			for i, v := range waybackFields() {
				idx[v] = i
			}
		}
		if len(vals) < len(idx) {
			return k.err(&CDXLineError{URL: u, Line: n, Err: fmt.Errorf("%d fields, want %d", len(vals), len(idx))})
		}
		get := func(names ...string) string {
			for _, name := range names {
				if i, ok := idx[name]; ok && i < len(vals) {
					return vals[i]
				}
			}
			return "-"
		}
		return k.row(u, n, cdxRow{key: get("urlkey"), ts: get("timestamp"), original: get("original", "url"),
			mime: get("mimetype", "mime"), status: get("statuscode", "status"), digest: get("digest"),
			length: get("length"), offset: get("offset"), filename: get("filename")})
	}
	if t := bytes.TrimSpace(b); !bytes.Contains(t, []byte("\n")) {
		if len(t) == 0 {
			return "", nil
		}
		var rows [][]any
		dec := json.NewDecoder(bytes.NewReader(t))
		dec.UseNumber()
		if err := dec.Decode(&rows); err != nil {
			return "", fmt.Errorf("timemap: CDX %s: %w", u, err)
		}
		for i, row := range rows {
			if !doRow(i+1, row) {
				break
			}
		}
		return resume, nil
	}
	err = cdxLines(bytes.NewReader(b), u, func(n int, line string) bool {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "[[") {
			line = line[1:]
		} else if line == "[" || line == "]" || line == "" {
			return true
		}
		line = strings.TrimSuffix(line, ",")
		if strings.HasSuffix(line, "]]") {
			line = line[:len(line)-1]
		}
		var row []any
		dec := json.NewDecoder(strings.NewReader(line))
		dec.UseNumber()
		if err := dec.Decode(&row); err != nil {
			return k.err(&CDXLineError{URL: u, Line: n, Err: fmt.Errorf("not a JSON row: %w", err)})
		}
		return doRow(n, row)
	})
	return resume, err
}

// --- pywb ---

func (s *CDXServer) pywb(ctx context.Context, q Query, k *cdxSink) error {
	base := url.Values{}
	base.Set("url", q.URL)
	base.Set("matchType", q.MatchType)
	if q.From != "" {
		base.Set("from", q.From)
	}
	if q.To != "" {
		base.Set("to", q.To)
	}
	for _, f := range q.Filters {
		base.Add("filter", cdxPywbFilter(f))
	}
	if q.Limit > 0 {
		base.Set("limit", strconv.Itoa(q.Limit))
	}
	base.Set("output", "json")
	if s.PageSize > 0 {
		base.Set("pageSize", strconv.Itoa(s.PageSize))
	}
	pages := s.pywbNumPages(ctx, base)
	if pages < 0 {
		body, u, err := s.get(ctx, base)
		if err != nil {
			return err
		}
		defer body.Close()
		return parsePywb(body, u, k)
	}
	for page := 0; page < pages; page++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		p := cdxCloneValues(base)
		p.Set("page", strconv.Itoa(page))
		body, u, err := s.get(ctx, p)
		if err != nil {
			return err
		}
		err = parsePywb(body, u, k)
		body.Close()
		if err != nil || k.stop {
			return err
		}
	}
	return nil
}

func cdxCloneValues(v url.Values) url.Values {
	c := make(url.Values, len(v)+1)
	for k, vs := range v {
		c[k] = slices.Clone(vs)
	}
	return c
}

// pywbNumPages asks how many pages the query has (showNumPages=true); -1
// when the server does not page (plain CDXJ indexes answer with an error or
// with captures).
func (s *CDXServer) pywbNumPages(ctx context.Context, base url.Values) int {
	p := cdxCloneValues(base)
	p.Set("showNumPages", "true")
	body, _, err := s.get(ctx, p)
	if err != nil {
		return -1
	}
	defer body.Close()
	b, err := io.ReadAll(io.LimitReader(body, 4096))
	if err != nil {
		return -1
	}
	b = bytes.TrimSpace(b)
	var j struct {
		Pages *int `json:"pages"`
	}
	if json.Unmarshal(b, &j) == nil && j.Pages != nil {
		return max(*j.Pages, 0)
	}
	if n, err := strconv.Atoi(string(b)); err == nil {
		return max(n, 0)
	}
	return -1
}

// parsePywb reads pywb's output=json (one JSON object per line), tolerating
// CDXJ lines ("urlkey timestamp {json}") from servers that ignore output.
func parsePywb(r io.Reader, u string, k *cdxSink) error {
	return cdxLines(r, u, func(n int, line string) bool {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '!' {
			return true
		}
		var key, ts string
		js := line
		if line[0] != '{' {
			var rest string
			var ok bool
			key, rest, ok = strings.Cut(line, " ")
			ts, js, _ = strings.Cut(rest, " ")
			if !ok || !strings.HasPrefix(strings.TrimSpace(js), "{") {
				return k.err(&CDXLineError{URL: u, Line: n, Err: errors.New("neither a JSON object nor a CDXJ line")})
			}
		}
		var f map[string]any
		dec := json.NewDecoder(strings.NewReader(js))
		dec.UseNumber()
		if err := dec.Decode(&f); err != nil {
			return k.err(&CDXLineError{URL: u, Line: n, Err: fmt.Errorf("bad JSON: %w", err)})
		}
		str := func(names ...string) string {
			for _, name := range names {
				switch v := f[name].(type) {
				case string:
					return v
				case json.Number:
					return v.String()
				}
			}
			return ""
		}
		if key == "" {
			key, ts = str("urlkey"), str("timestamp")
		}
		return k.row(u, n, cdxRow{key: key, ts: ts, original: str("url", "original"), mime: str("mime", "mimetype"),
			status: str("status", "statuscode"), digest: str("digest"), length: str("length"),
			offset: str("offset"), filename: str("filename")})
	})
}

// --- OutbackCDX ---

// outbackFields is the field list asked for with output=json.
func outbackFields() []string {
	return []string{"urlkey", "timestamp", "original", "mimetype", "statuscode", "digest", "length", "offset", "filename"}
}

// outbackPos is where a re-query resumes: after n captures at (key, ts).
type outbackPos struct {
	key, ts string
	n       int
}

// outback pages by re-querying: an exact query resumes with from= the last
// timestamp seen, other match types with matchType=range from the last
// urlkey seen, skipping the captures already seen and stopping past the
// query's scope. OutbackCDX takes from/to on exact queries only, so for the
// others they are applied here.
func (s *CDXServer) outback(ctx context.Context, q Query, k *cdxSink) error {
	size := s.pageSize()
	inScope := cdxScope(q, s.Canon)
	var pos *outbackPos // where the last page ended
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		p := url.Values{}
		if pos == nil || q.MatchType == "exact" {
			p.Set("url", q.URL)
			p.Set("matchType", q.MatchType)
		} else {
			p.Set("urlkey", pos.key)
			p.Set("matchType", "range")
		}
		if q.MatchType == "exact" {
			if pos != nil {
				p.Set("from", pos.ts)
			} else if q.From != "" {
				p.Set("from", q.From)
			}
			if q.To != "" {
				p.Set("to", q.To)
			}
		}
		for _, f := range q.Filters {
			p.Add("filter", cdxIAFilter(f))
		}
		skip := outbackSkip(pos)
		limit := 0
		if size > 0 {
			limit = size + skip
		}
		if q.Limit > 0 && (limit == 0 || q.Limit-k.n+skip < limit) {
			limit = q.Limit - k.n + skip
		}
		if limit > 0 {
			p.Set("limit", strconv.Itoa(limit))
		}
		if s.OutputJSON {
			p.Set("output", "json")
			p.Set("fl", strings.Join(outbackFields(), ","))
		}
		body, u, err := s.get(ctx, p)
		if err != nil {
			return err
		}
		kept := 0
		last := pos
		emit := func(n int, r cdxRow) bool {
			if pos != nil {
				if c := strings.Compare(r.key, pos.key); c < 0 || c == 0 && r.ts < pos.ts {
					return true // before the resume point (range queries)
				}
				if r.key == pos.key && r.ts == pos.ts && skip > 0 {
					skip--
					return true
				}
			}
			if last != nil && last.key == r.key && last.ts == r.ts {
				last = &outbackPos{key: r.key, ts: r.ts, n: last.n + 1}
			} else {
				last = &outbackPos{key: r.key, ts: r.ts, n: 1}
			}
			if q.MatchType != "exact" {
				if !inScope(r.original) {
					return true
				}
				kept++
				if ts := cdxDash(r.ts); q.From != "" && ts < q.From || q.To != "" && !cdxTSBefore(ts, q.To) {
					return true
				}
			} else {
				kept++
			}
			return k.row(u, n, r)
		}
		var got int
		if s.OutputJSON {
			got, err = parseOutbackJSON(body, u, k, emit)
		} else {
			got, err = parseCDX11(body, u, k, emit)
		}
		body.Close()
		switch {
		case err != nil || k.stop || limit == 0 || got < limit:
			return err
		case pos != nil && kept == 0 && q.MatchType != "exact":
			return nil // past the end of the query's scope
		case last == nil || pos != nil && *last == *pos:
			size *= 2 // a whole page at one timestamp: ask for more
		default:
			pos = last
		}
	}
}

func outbackSkip(p *outbackPos) int {
	if p == nil {
		return 0
	}
	return p.n
}

// cdxTSBefore reports whether ts is at or before the upper bound to (padded
// with 9s, as CDX servers pad "to").
func cdxTSBefore(ts, to string) bool {
	if len(to) < 14 {
		to += "99999999999999"[len(to):]
	}
	return ts <= to
}

// cdxScope returns a test of whether an original URL falls within q's match
// type, by canonical keys.
func cdxScope(q Query, canon CanonMode) func(string) bool {
	base := Canonicalize(q.URL, canon)
	host := func(k string) string {
		h, _, _ := strings.Cut(k, ")")
		return h
	}
	switch q.MatchType {
	case "prefix":
		return func(u string) bool { return strings.HasPrefix(Canonicalize(cdxDash(u), canon), base) }
	case "host":
		return func(u string) bool { return host(Canonicalize(cdxDash(u), canon)) == host(base) }
	case "domain":
		h := host(base)
		return func(u string) bool {
			x := host(Canonicalize(cdxDash(u), canon))
			return x == h || strings.HasPrefix(x, h+",")
		}
	}
	return func(string) bool { return true }
}

// parseCDX11 reads space-separated CDX lines (CDX11: urlkey timestamp
// original mime status digest redirect robotflags length offset filename;
// CDX14's extra fields are ignored), skipping blank and " CDX" header lines.
func parseCDX11(r io.Reader, u string, k *cdxSink, emit func(int, cdxRow) bool) (rows int, err error) {
	err = cdxLines(r, u, func(n int, line string) bool {
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, " CDX") || strings.HasPrefix(line, "CDX ") {
			return true
		}
		rows++
		f := strings.Fields(line)
		if len(f) < 11 {
			return k.err(&CDXLineError{URL: u, Line: n, Err: fmt.Errorf("%d fields, want 11", len(f))})
		}
		return emit(n, cdxRow{key: f[0], ts: f[1], original: f[2], mime: f[3], status: f[4], digest: f[5],
			length: f[8], offset: f[9], filename: f[10]})
	})
	return rows, err
}

// parseOutbackJSON reads OutbackCDX's output=json: a JSON array of arrays
// in the order of outbackFields (a first row of field names, if any, sets
// the order). A row that is not an array of scalars is reported and
// skipped; broken JSON ends the page.
func parseOutbackJSON(r io.Reader, u string, k *cdxSink, emit func(int, cdxRow) bool) (rows int, err error) {
	dec := json.NewDecoder(r)
	dec.UseNumber()
	if t, err := dec.Token(); err != nil {
		if err == io.EOF {
			return 0, nil
		}
		return 0, fmt.Errorf("timemap: CDX %s: %w", u, err)
	} else if d, ok := t.(json.Delim); !ok || d != '[' {
		return 0, fmt.Errorf("timemap: CDX %s: not a JSON array", u)
	}
	fields := outbackFields()
	for i := 1; dec.More(); i++ {
		rows++
		var row []any
		if err := dec.Decode(&row); err != nil {
			var se *json.SyntaxError
			if errors.As(err, &se) || errors.Is(err, io.ErrUnexpectedEOF) {
				return rows, fmt.Errorf("timemap: CDX %s: row %d: %w", u, i, err)
			}
			if !k.err(&CDXLineError{URL: u, Line: i, Err: err}) {
				return rows, nil
			}
			continue
		}
		vals := make([]string, len(row))
		allStr := true
		for j, v := range row {
			switch v := v.(type) {
			case string:
				vals[j] = v
			case json.Number:
				vals[j], allStr = v.String(), false
			case nil:
				vals[j] = "-"
			}
		}
		if i == 1 && allStr && slices.Contains(vals, "timestamp") {
			fields = vals
			rows--
			continue
		}
		if len(vals) < len(fields) {
			if !k.err(&CDXLineError{URL: u, Line: i, Err: fmt.Errorf("%d fields, want %d", len(vals), len(fields))}) {
				return rows, nil
			}
			continue
		}
		get := func(name string) string {
			if j := slices.Index(fields, name); j >= 0 {
				return vals[j]
			}
			return "-"
		}
		if !emit(i, cdxRow{key: get("urlkey"), ts: get("timestamp"), original: get("original"), mime: get("mimetype"),
			status: get("statuscode"), digest: get("digest"), length: get("length"), offset: get("offset"), filename: get("filename")}) {
			return rows, nil
		}
	}
	return rows, nil
}
