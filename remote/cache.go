package remote

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/offtopic/offtopic/timemap"
)

// Cache is a content-addressed disk cache of HTTP answers (TimeMaps,
// TimeGate redirects, mementos), so that an interrupted run resumes without
// fetching anything twice. An entry's key is the SHA-256 of the request's
// method, URL and the request headers that change the answer (Accept,
// Accept-Datetime; see CacheKey); its value (status, headers, body, when it
// was fetched) lives in dir/ab/cdef... (the key's first two hex digits name
// the directory), written to a temporary file and renamed into place, so an
// entry is either whole or absent. 2xx, 3xx (TimeGate redirects) and
// 404/410 (negative entries) are kept (see CacheableStatus); CacheTransport
// says how long those that can change are used.
//
// A Cache is safe for concurrent use, also by several processes sharing dir.
type Cache struct {
	dir string
}

// DefaultCacheDir returns the default cache directory: "offtopic" in the
// user's cache directory (os.UserCacheDir).
func DefaultCacheDir() (string, error) {
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("remote: no user cache directory: %w", err)
	}
	return filepath.Join(d, "offtopic"), nil
}

// OpenCache returns a Cache in dir, creating the directory.
func OpenCache(dir string) (*Cache, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("remote: cache directory %s: %w", dir, err)
	}
	return &Cache{dir: dir}, nil
}

// Dir returns the cache's directory.
func (c *Cache) Dir() string { return c.dir }

// CacheableStatus reports whether an answer with this status is cached:
// 2xx, 3xx and the negative answers 404 and 410.
func CacheableStatus(code int) bool {
	return code >= 200 && code < 400 || code == http.StatusNotFound || code == http.StatusGone
}

// CacheKey returns the cache key of req: the hex SHA-256 of its method, URL
// and its Accept and Accept-Datetime headers.
func CacheKey(req *http.Request) string {
	m := req.Method
	if m == "" {
		m = http.MethodGet
	}
	h := sha256.New()
	io.WriteString(h, m+"\n"+req.URL.String()+"\n")
	for _, k := range []string{"Accept", "Accept-Datetime"} {
		io.WriteString(h, k+": "+req.Header.Get(k)+"\n")
	}
	return hex.EncodeToString(h.Sum(nil))
}

// CacheEntry is one cached answer.
type CacheEntry struct {
	// URL is the URL that was fetched.
	URL string `json:"url"`
	// Status is the HTTP status code.
	Status int `json:"status"`
	// Header is the response header.
	Header http.Header `json:"header"`
	// Fetched is when the answer was stored.
	Fetched time.Time `json:"fetched"`
	// Body is the response body.
	Body []byte `json:"-"`
}

// Response returns the entry as an HTTP response to req (body in memory).
func (e *CacheEntry) Response(req *http.Request) *http.Response {
	return &http.Response{
		Status:        strconv.Itoa(e.Status) + " " + http.StatusText(e.Status),
		StatusCode:    e.Status,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        e.Header.Clone(),
		Body:          io.NopCloser(bytes.NewReader(e.Body)),
		ContentLength: int64(len(e.Body)),
		Request:       req,
	}
}

func (c *Cache) path(key string) (string, error) {
	if len(key) < 3 {
		return "", fmt.Errorf("remote: bad cache key %q", key)
	}
	return filepath.Join(c.dir, key[:2], key[2:]), nil
}

// Get returns the entry stored under key, or nil and no error when there is
// none. A damaged entry is an error.
func (c *Cache) Get(key string) (*CacheEntry, error) {
	p, err := c.path(key)
	if err != nil {
		return nil, err
	}
	b, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("remote: reading cache entry %s: %w", p, err)
	}
	meta, body, ok := bytes.Cut(b, []byte("\n"))
	if !ok {
		return nil, fmt.Errorf("remote: damaged cache entry %s", p)
	}
	var e CacheEntry
	if err := json.Unmarshal(meta, &e); err != nil {
		return nil, fmt.Errorf("remote: damaged cache entry %s: %w", p, err)
	}
	e.Body = body
	return &e, nil
}

// Put stores an answer under key: one line of JSON (url, status, header,
// fetched) then the body, written atomically.
func (c *Cache) Put(key, url string, status int, header http.Header, body []byte) error {
	return c.put(key, url, status, header, body, time.Now())
}

// put is Put of an answer fetched at the time given.
func (c *Cache) put(key, url string, status int, header http.Header, body []byte, fetched time.Time) error {
	p, err := c.path(key)
	if err != nil {
		return err
	}
	meta, err := json.Marshal(CacheEntry{URL: url, Status: status, Header: header, Fetched: fetched.UTC()})
	if err != nil {
		return fmt.Errorf("remote: caching %s: %w", url, err)
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return fmt.Errorf("remote: caching %s: %w", url, err)
	}
	f, err := os.CreateTemp(filepath.Dir(p), ".tmp-*")
	if err != nil {
		return fmt.Errorf("remote: caching %s: %w", url, err)
	}
	tmp := f.Name()
	_, err = f.Write(append(meta, '\n'))
	if err == nil {
		_, err = f.Write(body)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, p)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("remote: caching %s: %w", url, err)
	}
	return nil
}

// DefaultCacheMaxAge is how long a cached answer that can change is used
// without asking the archive again (see CacheOptions.MaxAge).
const DefaultCacheMaxAge = 24 * time.Hour

// CacheOptions say how long cached answers are used.
type CacheOptions struct {
	// MaxAge is how long a cached answer that can change is used as it is
	// (default DefaultCacheMaxAge; negative: it is asked again every time).
	// What can change is everything but a memento: a TimeMap or a CDX
	// listing gains captures, a TimeGate chooses among them, a 404 becomes a
	// collection, a capture the archive answered with another (a
	// Memento-Datetime that is not the URI-M's) may be replayable later. A
	// memento (an answer with Memento-Datetime, the URI-M's own) never
	// changes and is kept for good.
	MaxAge time.Duration
	// Now is the clock (default time.Now).
	Now func() time.Time
}

// CacheTransport returns a RoundTripper that answers GET and HEAD requests
// that cache holds without calling next, and keeps next's answers that can
// be kept (CacheableStatus, or any answer with Memento-Datetime: an archived
// status is as fixed as the archived page). An answer that can change is
// used for opts.MaxAge, then asked for again, conditionally where the
// archive gave validators (If-None-Match, If-Modified-Since: a 304 renews
// the entry); when the archive cannot be reached, the stale answer is used.
// A damaged entry is fetched again. next must return bodies in memory
// (ReadWhole).
func CacheTransport(next http.RoundTripper, cache *Cache, opts CacheOptions) http.RoundTripper {
	return cacheTransport(next, cache, opts, nil)
}

func cacheTransport(next http.RoundTripper, cache *Cache, opts CacheOptions, st *counters) http.RoundTripper {
	if st == nil {
		st = &counters{}
	}
	if opts.MaxAge == 0 {
		opts.MaxAge = DefaultCacheMaxAge
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &caching{next: next, cache: cache, opts: opts, stats: st}
}

type caching struct {
	next  http.RoundTripper
	cache *Cache
	opts  CacheOptions
	stats *counters
}

// RoundTrip implements http.RoundTripper.
func (c *caching) RoundTrip(req *http.Request) (*http.Response, error) {
	if !idempotent(req.Method) {
		return c.next.RoundTrip(req)
	}
	key := CacheKey(req)
	e, err := c.cache.Get(key)
	if err != nil {
		e = nil
	}
	if e != nil && c.fresh(e) {
		c.stats.hits.Add(1)
		return e.Response(req), nil
	}
	if e == nil {
		c.stats.misses.Add(1)
	} else {
		c.stats.revalidated.Add(1)
		req = conditional(req, e)
	}
	resp, err := c.next.RoundTrip(req)
	switch {
	case err != nil && e != nil && req.Context().Err() == nil:
		return e.Response(req), nil // the archive cannot be reached: the answer it gave last
	case err != nil:
		return nil, err
	case e != nil && resp.StatusCode == http.StatusNotModified:
		resp.Body.Close()
		h := e.Header.Clone()
		for k, vs := range resp.Header {
			if k == "Etag" || k == "Last-Modified" || k == "Cache-Control" || k == "Expires" {
				h[k] = vs
			}
		}
		if err := c.cache.put(key, e.URL, e.Status, h, e.Body, c.opts.Now()); err != nil {
			return nil, err
		}
		e.Header = h
		return e.Response(req), nil
	case !(CacheableStatus(resp.StatusCode) || resp.Header.Get("Memento-Datetime") != ""):
		return resp, nil
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, fmt.Errorf("reading body: %w", err)
	}
	if err := c.cache.put(key, req.URL.String(), resp.StatusCode, resp.Header, body, c.opts.Now()); err != nil {
		return nil, err
	}
	return inMemory(req, resp, body), nil
}

// fresh reports whether e may be used without asking again: a memento, or
// an answer younger than MaxAge.
func (c *caching) fresh(e *CacheEntry) bool {
	if immutable(e) {
		return true
	}
	return c.opts.MaxAge > 0 && c.opts.Now().Sub(e.Fetched) < c.opts.MaxAge
}

// immutable reports whether a cached answer is a memento, which never
// changes: it has a Memento-Datetime, and where its URL is a URI-M, that
// is the URI-M's time (else the archive answered with another capture,
// and may answer with the right one later).
func immutable(e *CacheEntry) bool {
	mdt := e.Header.Get("Memento-Datetime")
	if mdt == "" {
		return false
	}
	_, ts, ok := timemap.ParseURIM(e.URL)
	if !ok || len(ts) != 14 {
		return true
	}
	at, err1 := http.ParseTime(mdt)
	want, err2 := timemap.ParseTimestamp(ts)
	return err1 != nil || err2 != nil || at.Equal(want)
}

// conditional returns req asking for an answer only if it changed since e,
// by e's validators (ETag, Last-Modified); req itself when e has none.
func conditional(req *http.Request, e *CacheEntry) *http.Request {
	etag, lm := e.Header.Get("Etag"), e.Header.Get("Last-Modified")
	if etag == "" && lm == "" || e.Status/100 != 2 {
		return req
	}
	r := req.Clone(req.Context())
	if etag != "" {
		r.Header.Set("If-None-Match", etag)
	}
	if lm != "" {
		r.Header.Set("If-Modified-Since", lm)
	}
	return r
}
