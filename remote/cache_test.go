package remote

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// rmCounter is a test server that counts requests per path.
type rmCounter struct {
	mu sync.Mutex
	n  map[string]int
}

func (c *rmCounter) add(path string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n == nil {
		c.n = map[string]int{}
	}
	c.n[path]++
	return c.n[path]
}

func (c *rmCounter) get(path string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n[path]
}

func (c *rmCounter) total() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := 0
	for _, v := range c.n {
		s += v
	}
	return s
}

func TestCacheSecondRunFetchesNothing(t *testing.T) {
	var cnt rmCounter
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		cnt.add(r.URL.Path)
		switch {
		case strings.HasPrefix(r.URL.Path, "/ok"):
			w.Header().Set("Content-Type", "text/plain")
			io.WriteString(w, "body of "+r.URL.Path+" "+r.Header.Get("Accept-Datetime"))
		case r.URL.Path == "/redirect":
			http.Redirect(w, r, "/ok/1", http.StatusFound)
		case r.URL.Path == "/missing":
			http.NotFound(w, r)
		case r.URL.Path == "/forbidden":
			http.Error(w, "no", http.StatusForbidden)
		}
	}))
	defer srv.Close()
	dir := t.TempDir()
	paths := []string{"/ok/1", "/ok/2", "/redirect", "/missing", "/forbidden"}
	run := func() (*Client, map[string]string) {
		cache, err := OpenCache(dir)
		if err != nil {
			t.Fatal(err)
		}
		c := rmClient(newRMClock(), ClientOptions{Cache: cache})
		got := map[string]string{}
		for _, p := range paths {
			for _, adt := range []string{"", "Tue, 01 Jan 2002 00:00:00 GMT"} {
				req, _ := http.NewRequest("GET", srv.URL+p, nil)
				if adt != "" {
					req.Header.Set("Accept-Datetime", adt)
				}
				resp, err := c.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				b, _ := io.ReadAll(resp.Body)
				got[p+adt] = resp.Status + "|" + resp.Header.Get("Content-Type") + "|" + resp.Header.Get("Location") + "|" + string(b)
			}
		}
		return c, got
	}
	c1, first := run()
	if st := c1.Stats(); st.CacheHits != 0 || st.CacheMisses != 10 || st.Requests != 10 {
		t.Errorf("first run stats %+v", st)
	}
	before := cnt.total()
	c2, second := run()
	st := c2.Stats()
	// Everything but the 403 is served from the cache.
	if st.CacheHits != 8 || st.CacheMisses != 2 || st.Requests != 2 || cnt.total()-before != 2 || cnt.get("/forbidden") != 4 {
		t.Errorf("second run: stats %+v, %d new requests", st, cnt.total()-before)
	}
	for k, v := range first {
		if second[k] != v {
			t.Errorf("%s: cached answer %q, first %q", k, second[k], v)
		}
	}
	// Entries live under dir/ab/cdef...
	m, _ := filepath.Glob(filepath.Join(dir, "??", "*"))
	if len(m) != 8 {
		t.Errorf("%d cache files, want 8: %v", len(m), m)
	}
}

func TestCacheKeyAndDamage(t *testing.T) {
	r1, _ := http.NewRequest("GET", "http://a.example/x", nil)
	r2, _ := http.NewRequest("GET", "http://a.example/x", nil)
	r2.Header.Set("Accept", "application/link-format")
	r3, _ := http.NewRequest("HEAD", "http://a.example/x", nil)
	r4, _ := http.NewRequest("GET", "http://a.example/x", nil)
	r4.Header.Set("User-Agent", "other") // does not matter
	k := map[string]bool{CacheKey(r1): true, CacheKey(r2): true, CacheKey(r3): true}
	if len(k) != 3 || CacheKey(r4) != CacheKey(r1) {
		t.Errorf("keys %v", k)
	}
	c, err := OpenCache(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	key := CacheKey(r1)
	if e, err := c.Get(key); e != nil || err != nil {
		t.Fatalf("empty cache: %v %v", e, err)
	}
	if err := c.Put(key, r1.URL.String(), 200, http.Header{"X": {"y"}}, []byte("line1\nline2")); err != nil {
		t.Fatal(err)
	}
	e, err := c.Get(key)
	if err != nil || e.Status != 200 || e.Header.Get("X") != "y" || string(e.Body) != "line1\nline2" || e.URL != r1.URL.String() {
		t.Fatalf("got %+v %v", e, err)
	}
	os.WriteFile(filepath.Join(c.Dir(), key[:2], key[2:]), []byte("garbage"), 0o644)
	if _, err := c.Get(key); err == nil {
		t.Error("damaged entry read without error")
	}
	if d, err := DefaultCacheDir(); err == nil && filepath.Base(d) != "offtopic" {
		t.Errorf("DefaultCacheDir %q", d)
	}
}

// TestCacheAges: a cached answer that can change (a TimeMap, a 404, a
// capture answered with another) is asked for again once older than
// MaxAge, conditionally where it has validators (a 304 renews it); a
// memento never is; a stale answer stands in when the archive is down.
func TestCacheAges(t *testing.T) {
	var cnt rmCounter
	var down bool
	var mu sync.Mutex
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		cnt.add(r.URL.Path)
		mu.Lock()
		isDown := down
		mu.Unlock()
		if isDown {
			panic(http.ErrAbortHandler) // the connection drops
		}
		switch r.URL.Path {
		case "/timemap": // validators: asked for again conditionally
			if r.Header.Get("If-None-Match") == `"v1"` {
				w.WriteHeader(http.StatusNotModified)
				return
			}
			w.Header().Set("ETag", `"v1"`)
			io.WriteString(w, "<http://x.example/>; rel=\"original\"")
		case "/cdx":
			io.WriteString(w, "x.example 20100101000000")
		case "/missing":
			http.NotFound(w, r)
		case "/web/20100101000000id_/http://x.example/": // the memento itself
			w.Header().Set("Memento-Datetime", "Fri, 01 Jan 2010 00:00:00 GMT")
			io.WriteString(w, "page")
		case "/web/20110101000000id_/http://x.example/": // another capture served for it
			w.Header().Set("Memento-Datetime", "Fri, 01 Jan 2010 00:00:00 GMT")
			io.WriteString(w, "page")
		}
	}))
	defer srv.Close()
	cache, err := OpenCache(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	clock := func() time.Time { return now }
	paths := []string{"/timemap", "/cdx", "/missing", "/web/20100101000000id_/http://x.example/", "/web/20110101000000id_/http://x.example/"}
	get := func(c *Client) {
		t.Helper()
		for _, p := range paths {
			req, _ := http.NewRequest("GET", srv.URL+p, nil)
			resp, err := c.Do(req)
			if err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			if want := map[string]int{"/missing": 404}[p]; resp.StatusCode != max(want, 200) {
				t.Errorf("%s: HTTP %d", p, resp.StatusCode)
			}
		}
	}
	c := NewClient(ClientOptions{Cache: cache, RatePerHost: -1, MaxRetries: -1, AllowPrivate: true, Now: clock})
	get(c)
	get(c) // young: all from the cache
	now = now.Add(DefaultCacheMaxAge + time.Minute)
	get(c) // old: all but the memento asked for again
	want := map[string]int{"/timemap": 2, "/cdx": 2, "/missing": 2, "/web/20100101000000id_/http://x.example/": 1, "/web/20110101000000id_/http://x.example/": 2}
	for p, n := range want {
		if got := cnt.get(p); got != n {
			t.Errorf("%s asked for %d times, want %d", p, got, n)
		}
	}
	if s := c.Stats(); s.CacheRevalidated != 4 || s.CacheMisses != 5 || s.CacheHits != 6 {
		t.Errorf("stats %+v, want 4 revalidated, 5 misses, 6 hits", s)
	}
	// The 304 renewed the TimeMap as the 200s renewed the others: young again.
	get(c)
	if cnt.get("/timemap") != 2 || cnt.get("/cdx") != 2 {
		t.Errorf("after a 304: TimeMap asked for %d times, the CDX listing %d", cnt.get("/timemap"), cnt.get("/cdx"))
	}
	// MaxAge negative: every time; the archive down: the stale answers.
	c = NewClient(ClientOptions{Cache: cache, RatePerHost: -1, MaxRetries: -1, AllowPrivate: true, Now: clock, CacheMaxAge: -1})
	mu.Lock()
	down = true
	mu.Unlock()
	get(c)
}
