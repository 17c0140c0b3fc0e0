package remote

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"iter"
	"net/http"
	"net/url"
	"regexp"
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
	// ArchivePrefix builds the URI-Ms of pywb's CDXJ TimeMaps, whose lines
	// name no URI-M (prefix/timestamp/URI-R); by default the part of the
	// URI-T before "/timemap/", as pywb serves them.
	ArchivePrefix string
	// OnWarning, when set, hears of what was lost while the TimeMap was
	// kept: a linked page (rel="timemap", "next", "prev") that could not be
	// fetched or read (a *PageError), or a memento whose datetime is no date
	// and whose URI-M holds no timestamp. The other mementos are kept.
	OnWarning func(error)
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

// ErrNoMementos is the error of a TimeMap that lists no mementos (an empty
// answer, as MemGator gives for a URI-R no archive holds). It wraps
// ErrNotArchived.
var ErrNoMementos = fmt.Errorf("no mementos: %w", ErrNotArchived)

// PageError is the warning of a linked TimeMap page that could not be read
// (see TimeMapOptions.OnWarning); the TimeMap keeps the other pages.
type PageError struct {
	// URIT is the TimeMap asked for; Page is the linked page that failed.
	URIT, Page string
	// Err says why.
	Err error
}

// Error implements error.
func (e *PageError) Error() string {
	return fmt.Sprintf("remote: TimeMap %s: linked page %s skipped: %v", e.URIT, e.Page, e.Err)
}

// Unwrap returns the underlying error.
func (e *PageError) Unwrap() error { return e.Err }

// FetchTimeMap fetches the TimeMap at uriT and every further TimeMap it
// points to, and returns their mementos merged as one TimeMap.
//
// The format of each document is told by its content (a Content-Type that
// contradicts the body loses): RFC 7089 link-format (timemap.ParseLinkFormat,
// with the quirks of real archives), MemGator's JSON
// (timemap.ParseTimeMapJSON), pywb's CDXJ lines and /timemap/json/ objects
// and the Internet Archive's /web/timemap/json/ rows (URI-Ms built from
// opts.ArchivePrefix), or the CDXJ object resource stream of MemGator and
// ipwb (application/cdxj+ors). Paged and index TimeMaps are followed
// breadth-first through their rel="timemap", rel="next" and rel="prev" links
// (other than "self", and other than links whose type names another format,
// which are the same TimeMap again), each URI once, within opts.MaxDepth and
// opts.MaxPages; exceeding a limit is an error, not a cut. A linked page
// that fails is skipped with a *PageError to opts.OnWarning and the rest is
// kept; a first page that fails fails the TimeMap. Mementos are merged and
// de-duplicated by datetime and URI-M (relative URI-Ms resolved against
// their document) and ordered by time.
//
// The TimeMap's URIT is the URI that answered the first request (after
// redirects). Every capture gets URIR (the TimeMap's rel="original", else
// the URI-R recovered from the first URI-M), Key (timemap.Canonicalize(URIR,
// opts.Canon)), Time and URIM; Status and MIME stay unknown (0 and "") until
// the memento is fetched (FetchMemento, Memento.Capture, ResolveMementos). A
// TimeMap the archive does not have is an error wrapping ErrNotArchived; one
// without mementos (an empty answer) wraps ErrNoMementos.
func FetchTimeMap(ctx context.Context, doer Doer, uriT string, opts TimeMapOptions) (*timemap.TimeMap, error) {
	opts.defaults()
	queue := []timeMapPage{{uriT, 0}}
	visited := map[string]bool{uriT: true}
	var (
		original, fetchedT string
		mementos           []timemap.LinkMemento
		fetched            int
	)
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		if fetched++; fetched > opts.MaxPages {
			return nil, fmt.Errorf("remote: TimeMap %s: more than %d pages", uriT, opts.MaxPages)
		}
		base, ltm, undated, err := fetchDatedPage(ctx, doer, p.uri, opts)
		if err != nil {
			if p.uri == uriT || ctx.Err() != nil {
				return nil, fmt.Errorf("remote: TimeMap %s: %w", uriT, err)
			}
			opts.warn(&PageError{URIT: uriT, Page: p.uri, Err: err})
			continue
		}
		for _, u := range undated {
			opts.warn(fmt.Errorf("remote: TimeMap %s: memento <%s> skipped: its datetime is no date, and its URI holds no timestamp", uriT, u))
		}
		visited[base.String()] = true
		if fetchedT == "" {
			fetchedT = base.String()
		}
		if original == "" {
			original = ltm.Original
		}
		for _, m := range ltm.Mementos {
			m.URI = resolveRef(base, m.URI)
			mementos = append(mementos, m)
		}
		next, err := linkedPages(base, ltm.Links, p.depth, visited, opts.MaxDepth)
		if err != nil {
			return nil, fmt.Errorf("remote: TimeMap %s: %w", uriT, err)
		}
		queue = append(queue, next...)
	}
	return mementoTimeMap(uriT, fetchedT, original, mementos, opts)
}

// timeMapPage is a page of a paged or index TimeMap waiting to be fetched,
// and how deep it lies (index TimeMaps nest; next and prev pages do not).
type timeMapPage struct {
	uri   string
	depth int
}

// warn hands err to o.OnWarning.
func (o *TimeMapOptions) warn(err error) {
	if o.OnWarning != nil {
		o.OnWarning(err)
	}
}

// fetchDatedPage fetches one TimeMap page as fetchTimeMapPage does and drops
// its mementos with neither a datetime nor a timestamp in their URI-M,
// returned as undated; a page of only such mementos is a page that failed.
func fetchDatedPage(ctx context.Context, doer Doer, uri string, opts TimeMapOptions) (base *url.URL, ltm *timemap.LinkTimeMap, undated []string, err error) {
	base, ltm, err = fetchTimeMapPage(ctx, doer, uri, opts)
	if err != nil {
		return nil, nil, nil, err
	}
	kept := ltm.Mementos[:0]
	for _, m := range ltm.Mementos {
		if _, _, ok := timemap.ParseURIM(m.URI); m.Datetime.IsZero() && !ok {
			undated = append(undated, m.URI)
			continue
		}
		kept = append(kept, m)
	}
	ltm.Mementos = kept
	if len(kept) == 0 && len(undated) > 0 {
		return nil, nil, nil, fmt.Errorf("%s: no memento with a datetime (%d without)", uri, len(undated))
	}
	return base, ltm, undated, nil
}

// linkedPages returns the pages a TimeMap page at depth links to that are
// still to be fetched (marked in visited): its rel="timemap" links one level
// deeper (at most maxDepth), its next and prev links at its own depth; not
// "self", not mementos, and not a link whose type names another format
// (the same TimeMap again).
func linkedPages(base *url.URL, links []timemap.Link, depth int, visited map[string]bool, maxDepth int) ([]timeMapPage, error) {
	var out []timeMapPage
	for _, l := range links {
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
		d := depth
		if !next {
			d++
		}
		if d > maxDepth {
			return nil, fmt.Errorf("%s nests deeper than %d", u, maxDepth)
		}
		out = append(out, timeMapPage{u, d})
	}
	return out, nil
}

// mementoTimeMap makes the TimeMap of the mementos FetchTimeMap gathered
// from uriT (fetched at fetchedT): one capture per datetime and URI-M, in
// time order, under original (else the URI-R of the first URI-M).
func mementoTimeMap(uriT, fetchedT, original string, mementos []timemap.LinkMemento, opts TimeMapOptions) (*timemap.TimeMap, error) {
	if len(mementos) == 0 {
		return nil, fmt.Errorf("remote: TimeMap %s: %w", uriT, ErrNoMementos)
	}
	if original == "" {
		original, _, _ = timemap.ParseURIM(mementos[0].URI)
	}
	if original == "" {
		return nil, fmt.Errorf("remote: TimeMap %s names no original resource", uriT)
	}
	tm := &timemap.TimeMap{URIR: original, Key: timemap.Canonicalize(original, opts.Canon), URIT: fetchedT}
	seen := map[string]bool{}
	for _, m := range mementos {
		t := m.Datetime
		if t.IsZero() {
			_, ts, ok := timemap.ParseURIM(m.URI)
			if !ok {
				// Neither a datetime nor a timestamp in the URI-M: this
				// memento is lost, not the TimeMap.
				opts.warn(fmt.Errorf("remote: TimeMap %s: memento <%s> skipped: no datetime, and none in its URI", uriT, m.URI))
				continue
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

// fetchTimeMapPage fetches and parses one TimeMap document; base is the URL
// that answered.
func fetchTimeMapPage(ctx context.Context, doer Doer, uri string, opts TimeMapOptions) (*url.URL, *timemap.LinkTimeMap, error) {
	hdr := http.Header{"Accept": {timeMapAccept}}
	resp, body, err := fetch(ctx, doer, uri, hdr, opts.MaxRedirects, opts.MaxBody)
	if err != nil {
		return nil, nil, err
	}
	if resp.StatusCode/100 != 2 && isHTML(bytes.TrimLeft(body, " \t\r\n\ufeff")) {
		// Not a TimeMap that lists nothing but the archive's error page: a
		// collection that does not exist, a route it does not serve.
		return nil, nil, fmt.Errorf("%s: HTTP %s, the archive's error page: %q", uri, resp.Status, pageMessage(body))
	}
	if resp.StatusCode == http.StatusNotFound || resp.StatusCode == http.StatusGone {
		return nil, nil, fmt.Errorf("%s: HTTP %d: %w", uri, resp.StatusCode, ErrNotArchived)
	}
	if resp.StatusCode/100 != 2 {
		return nil, nil, fmt.Errorf("%s: HTTP %s", uri, resp.Status)
	}
	base := resp.Request.URL
	ltm, err := parseTimeMap(resp.Header.Get("Content-Type"), body, base, opts.ArchivePrefix)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", uri, err)
	}
	return base, ltm, nil
}

// parseTimeMap parses one TimeMap document by its content: the first
// character tells link-format ('<'), JSON ('{': MemGator's object, or
// pywb's /timemap/json/, one CDX object per line), a JSON array ('[': the
// Internet Archive's /web/timemap/json/, rows under a header row) and CDXJ
// (anything else) apart, whatever the Content-Type says (archives mislabel
// TimeMaps; the declared type is only named in errors). An empty document
// lists no mementos.
func parseTimeMap(contentType string, body []byte, base *url.URL, prefix string) (*timemap.LinkTimeMap, error) {
	trimmed := bytes.TrimLeft(body, " \t\r\n\ufeff")
	if len(trimmed) == 0 {
		return &timemap.LinkTimeMap{}, nil
	}
	var (
		ltm *timemap.LinkTimeMap
		err error
	)
	switch trimmed[0] {
	case '<':
		if isHTML(trimmed) {
			err = fmt.Errorf("an HTML page, not a TimeMap")
			break
		}
		ltm, err = timemap.ParseLinkFormat(bytes.NewReader(trimmed))
	case '{':
		if isCDXJSONObject(trimmed) {
			ltm, err = parseCDXRowsTimeMap(trimmed, base, prefix, false)
			break
		}
		ltm, err = timemap.ParseTimeMapJSON(bytes.NewReader(trimmed))
	case '[':
		ltm, err = parseCDXRowsTimeMap(trimmed, base, prefix, true)
	default:
		ltm, err = parseCDXJTimeMap(trimmed, base, prefix)
	}
	if err != nil && contentType != "" {
		err = fmt.Errorf("%w (declared %s)", err, contentType)
	}
	return ltm, err
}

// isHTML reports whether a document starting with '<' is an HTML page (an
// archive's error or landing page) rather than link-format.
func isHTML(b []byte) bool {
	head := strings.ToLower(string(b[:min(len(b), 16)]))
	return strings.HasPrefix(head, "<!") || strings.HasPrefix(head, "<html") || strings.HasPrefix(head, "<head") ||
		strings.HasPrefix(head, "<body") || strings.HasPrefix(head, "<?xml")
}

// pageMessage is what an HTML error page says: its visible text (scripts,
// styles and tags left out), white space collapsed, a word repeated at once
// (a title repeated as a heading) said once, at most 160 bytes.
func pageMessage(body []byte) string {
	s := string(body[:min(len(body), 64<<10)])
	s = scriptOrStyle.ReplaceAllString(s, " ")
	s = htmlTag.ReplaceAllString(s, " ")
	s = html.UnescapeString(s)
	var words []string
	for w := range strings.FieldsSeq(s) {
		words = append(words, w)
	}
	// A title repeated as the first heading ("Pywb Error Pywb Error ...").
	for n := min(len(words)/2, 8); n > 0; n-- {
		if slices.Equal(words[:n], words[n:2*n]) {
			words = words[n:]
			break
		}
	}
	msg := strings.Join(words, " ")
	if len(msg) > 160 {
		msg = strings.ToValidUTF8(msg[:160], "") + "..."
	}
	return msg
}

var (
	scriptOrStyle = regexp.MustCompile(`(?is)<(script|style)\b.*?</(script|style)\s*>`)
	htmlTag       = regexp.MustCompile(`(?s)<[^>]*>`)
)

// parseCDXJTimeMap reads a CDXJ TimeMap: pywb's /timemap/cdxj/ (lines
// "urlkey timestamp {json}" naming no URI-M, which is built from prefix,
// else from the part of the URI-T before "/timemap/"), or the object
// resource stream of MemGator and ipwb (application/cdxj+ors: "!" metadata
// lines, then "timestamp {uri, rel, datetime}").
func parseCDXJTimeMap(body []byte, base *url.URL, prefix string) (*timemap.LinkTimeMap, error) {
	for line := range strings.Lines(string(body)) {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if line[0] == '!' {
			return parseORS(body)
		}
		// An ORS line is "timestamp {json}"; a pywb line is "urlkey
		// timestamp {json}", and its urlkey may hold "{" itself.
		if _, rest, ok := strings.Cut(line, " "); ok && strings.HasPrefix(strings.TrimSpace(rest), "{") {
			return parseORS(body)
		}
		break
	}
	prefix, err := mementoPrefix(base, prefix, "CDXJ")
	if err != nil {
		return nil, err
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

// mementoPrefix is prefix, else the part of the TimeMap's URI before
// "/timemap/", from which the URI-Ms of a TimeMap that names none are
// built.
func mementoPrefix(base *url.URL, prefix, format string) (string, error) {
	if prefix != "" {
		return prefix, nil
	}
	s := base.String()
	i := strings.Index(s, "/timemap/")
	if i < 0 {
		return "", fmt.Errorf("%s TimeMap names no URI-Ms and its URI has no /timemap/ to build them from: give the archive prefix (TimeMapOptions.ArchivePrefix; offtopic: --memento-prefix)", format)
	}
	return s[:i], nil
}

// isCDXJSONObject reports whether a JSON document starts with a CDX object
// (pywb's /timemap/json/: "urlkey", "timestamp", "url", ... per line)
// rather than MemGator's TimeMap object.
func isCDXJSONObject(b []byte) bool {
	var first map[string]json.RawMessage
	if json.NewDecoder(bytes.NewReader(b)).Decode(&first) != nil {
		return false
	}
	_, mementos := first["mementos"]
	_, ts := first["timestamp"]
	return !mementos && ts
}

// parseCDXRowsTimeMap reads a TimeMap of CDX rows: pywb's /timemap/json/
// (one JSON object per line) or, with array set, the Internet Archive's
// /web/timemap/json/ (a JSON array of rows, the first naming the fields).
// The rows name no URI-Ms: they are built from prefix (see mementoPrefix).
// Rows that cannot be read are left out; when none can, the first error is
// returned.
func parseCDXRowsTimeMap(body []byte, base *url.URL, prefix string, array bool) (*timemap.LinkTimeMap, error) {
	prefix, err := mementoPrefix(base, prefix, "JSON")
	if err != nil {
		return nil, err
	}
	ltm := &timemap.LinkTimeMap{}
	var bad error
	k := &sink{s: &CDXServer{}, origs: map[string]timemap.Capture{}, seen: map[entry]bool{}, prefix: strings.TrimRight(prefix, "/"),
		yield: func(c timemap.Capture, err error) bool {
			if err != nil {
				bad = cmp.Or(bad, err)
				return true
			}
			if ltm.Original == "" {
				ltm.Original = c.URIR
			}
			ltm.Mementos = append(ltm.Mementos, timemap.LinkMemento{URI: c.URIM, Datetime: c.Time, Rels: []string{"memento"}})
			return true
		}}
	if array {
		_, err = parseWayback(bytes.NewReader(body), base.String(), k)
	} else {
		err = parsePywb(bytes.NewReader(body), base.String(), k)
	}
	if err != nil {
		return nil, err
	}
	if len(ltm.Mementos) == 0 && bad != nil {
		return nil, bad
	}
	return ltm, nil
}

// parseORS reads a CDXJ object resource stream TimeMap (MemGator, ipwb):
// "!id {"uri": ...}" and "!meta {"original_uri": ...}" lines, then one line
// per memento, "timestamp {"uri": URI-M, "rel": ..., "datetime": RFC 1123}".
func parseORS(body []byte) (*timemap.LinkTimeMap, error) {
	ltm := &timemap.LinkTimeMap{}
	n := 0
	for line := range strings.Lines(string(body)) {
		n++
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		head, js, _ := strings.Cut(line, " ")
		if head[0] == '!' {
			var meta map[string]any
			if json.Unmarshal([]byte(js), &meta) != nil {
				continue // !context and !keys are arrays; an unreadable meta line costs nothing
			}
			str := func(k string) string { v, _ := meta[k].(string); return v }
			switch head {
			case "!id":
				ltm.Self = str("uri")
			case "!meta":
				if v := str("original_uri"); v != "" && ltm.Original == "" {
					ltm.Original = v
				}
				if v := str("timegate_uri"); v != "" {
					ltm.TimeGate = v
				}
			}
			continue
		}
		var m struct {
			URI      string `json:"uri"`
			Rel      string `json:"rel"`
			Datetime string `json:"datetime"`
		}
		if err := json.Unmarshal([]byte(strings.TrimSpace(js)), &m); err != nil {
			return nil, fmt.Errorf("CDXJ line %d: %w", n, err)
		}
		if m.URI == "" {
			return nil, fmt.Errorf("CDXJ line %d: no uri", n)
		}
		t, err := timemap.ParseMementoDatetime(m.Datetime)
		if err != nil {
			if t, err = timemap.ParseTimestamp(head); err != nil {
				return nil, fmt.Errorf("CDXJ line %d: no datetime: %w", n, err)
			}
		}
		rels := strings.Fields(m.Rel)
		if len(rels) == 0 {
			rels = []string{"memento"}
		}
		ltm.Mementos = append(ltm.Mementos, timemap.LinkMemento{URI: m.URI, Datetime: t.UTC(), Rels: rels})
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
				yield(nil, fmt.Errorf("remote: TimeMap %s: %w", u, err))
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

// SkipFailed passes on src's TimeMaps, handing each TimeMap that could not be
// fetched to onError and going on with the others, so that one archive's
// failure does not end a run: only the end of ctx does. A TimeMap the archive
// does not have (or that lists no mementos) comes with an error wrapping
// ErrNotArchived, which callers count apart from one lost to an error. A
// host that refuses every connection (HostDownError) ends the source with
// that error: every other TimeMap would fail the same way.
func SkipFailed(src timemap.Source, onError func(error)) timemap.Source {
	return skipFailed{src, onError}
}

type skipFailed struct {
	src     timemap.Source
	onError func(error)
}

func (s skipFailed) TimeMaps(ctx context.Context) iter.Seq2[*timemap.TimeMap, error] {
	return func(yield func(*timemap.TimeMap, error) bool) {
		for tm, err := range s.src.TimeMaps(ctx) {
			var down *HostDownError
			if err != nil && ctx.Err() == nil && !errors.As(err, &down) {
				s.onError(err)
				continue
			}
			if !yield(tm, err) {
				return
			}
		}
	}
}
