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
)

// Cache is a content-addressed disk cache of HTTP answers (TimeMaps,
// TimeGate redirects, mementos), so that an interrupted run resumes without
// fetching anything twice. An entry's key is the SHA-256 of the request's
// method, URL and the request headers that change the answer (Accept,
// Accept-Datetime; see CacheKey); its value (status, headers, body) lives in
// dir/ab/cdef... (the key's first two hex digits name the directory), written
// to a temporary file and renamed into place, so an entry is either whole or
// absent. Only answers that will not change are kept: 2xx, 3xx (TimeGate
// redirects) and 404/410 (negative entries); see CacheableStatus.
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
	p, err := c.path(key)
	if err != nil {
		return err
	}
	meta, err := json.Marshal(CacheEntry{URL: url, Status: status, Header: header, Fetched: time.Now().UTC()})
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
