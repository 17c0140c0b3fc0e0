package remote

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// rmClock is a fake clock whose Sleep advances time at once and records
// what was asked for.
type rmClock struct {
	mu    sync.Mutex
	now   time.Time
	slept []time.Duration
}

func newRMClock() *rmClock {
	return &rmClock{now: time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)}
}

func (c *rmClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *rmClock) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	c.slept = append(c.slept, d)
	return nil
}

func (c *rmClock) Slept() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]time.Duration(nil), c.slept...)
}

// rmClient returns a Client on a fake clock without rate limit, for tests
// of the politeness layers against httptest servers, on loopback: the
// address policy is left to guard_test.go.
func rmClient(clk *rmClock, opts ClientOptions) *Client {
	opts.Now, opts.Sleep = clk.Now, clk.Sleep
	opts.AllowPrivate = true
	if opts.RatePerHost == 0 {
		opts.RatePerHost = -1
	}
	return NewClient(opts)
}

func rmGet(t *testing.T, c *Client, url string) (*http.Response, string, error) {
	t.Helper()
	req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := c.Do(req)
	if err != nil {
		return nil, "", err
	}
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, string(b), nil
}

func TestClientRetryAfter(t *testing.T) {
	for _, tc := range []struct {
		name   string
		status int
		value  func(now time.Time) string
		want   time.Duration
	}{
		{"429 seconds", 429, func(time.Time) string { return "1" }, time.Second},
		{"503 seconds", 503, func(time.Time) string { return "2" }, 2 * time.Second},
		{"429 HTTP-date", 429, func(now time.Time) string { return now.Add(3 * time.Second).Format(http.TimeFormat) }, 3 * time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clk := newRMClock()
			var n atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if n.Add(1) == 1 {
					w.Header().Set("Retry-After", tc.value(clk.Now()))
					w.WriteHeader(tc.status)
					return
				}
				io.WriteString(w, "ok")
			}))
			defer srv.Close()
			c := rmClient(clk, ClientOptions{})
			resp, body, err := rmGet(t, c, srv.URL+"/x")
			if err != nil || resp.StatusCode != 200 || body != "ok" {
				t.Fatalf("got %v %q %v", resp, body, err)
			}
			if got := clk.Slept(); len(got) != 1 || got[0] != tc.want {
				t.Errorf("slept %v, want [%v]", got, tc.want)
			}
			if st := c.Stats(); st.Requests != 2 || st.Retries != 1 {
				t.Errorf("stats %+v", st)
			}
		})
	}
}

func TestClientRetryAfterTooLong(t *testing.T) {
	clk := newRMClock()
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		w.Header().Set("Retry-After", "86400")
		w.WriteHeader(429)
	}))
	defer srv.Close()
	resp, _, err := rmGet(t, rmClient(clk, ClientOptions{}), srv.URL)
	if err != nil || resp.StatusCode != 429 || n.Load() != 1 || len(clk.Slept()) != 0 {
		t.Fatalf("got %v %v, %d requests, slept %v", resp, err, n.Load(), clk.Slept())
	}
}

func TestClientBackoff5xx(t *testing.T) {
	clk := newRMClock()
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) <= 3 {
			http.Error(w, "busy", http.StatusServiceUnavailable)
			return
		}
		io.WriteString(w, "ok")
	}))
	defer srv.Close()
	c := rmClient(clk, ClientOptions{BackoffBase: 100 * time.Millisecond})
	resp, body, err := rmGet(t, c, srv.URL)
	if err != nil || resp.StatusCode != 200 || body != "ok" {
		t.Fatalf("got %v %q %v", resp, body, err)
	}
	slept := clk.Slept()
	if len(slept) != 3 {
		t.Fatalf("slept %v, want 3 backoffs", slept)
	}
	for i, d := range slept {
		if ceil := 100 * time.Millisecond << i; d <= 0 || d > ceil {
			t.Errorf("backoff %d = %v, want in (0, %v]", i, d, ceil)
		}
	}
	if st := c.Stats(); st.Requests != 4 || st.Retries != 3 || st.Failures != 0 {
		t.Errorf("stats %+v", st)
	}

	// Still failing after the retries: the last answer is returned.
	n.Store(-100)
	resp, _, err = rmGet(t, rmClient(newRMClock(), ClientOptions{MaxRetries: 2}), srv.URL)
	if err != nil || resp.StatusCode != 503 {
		t.Fatalf("got %v %v, want the 503", resp, err)
	}
}

func TestClientNoRetryOn4xx(t *testing.T) {
	for _, code := range []int{400, 403, 404, 501} {
		var n atomic.Int32
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			n.Add(1)
			w.WriteHeader(code)
		}))
		resp, _, err := rmGet(t, rmClient(newRMClock(), ClientOptions{}), srv.URL)
		srv.Close()
		if err != nil || resp.StatusCode != code || n.Load() != 1 {
			t.Errorf("%d: got %v %v after %d requests", code, resp, err, n.Load())
		}
	}
}

func TestClientTimeout(t *testing.T) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		<-r.Context().Done() // never answers
	}))
	defer srv.Close()
	clk := newRMClock()
	c := rmClient(clk, ClientOptions{Timeout: 50 * time.Millisecond, MaxRetries: 2})
	_, _, err := rmGet(t, c, srv.URL+"/slow")
	if err == nil {
		t.Fatal("no error from a server that never answers")
	}
	if !strings.Contains(err.Error(), srv.URL+"/slow") || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("error %q should name the URL and wrap the deadline", err)
	}
	if n.Load() != 3 || len(clk.Slept()) != 2 {
		t.Errorf("%d attempts and %d backoffs, want 3 and 2", n.Load(), len(clk.Slept()))
	}
	if st := c.Stats(); st.Failures != 1 || st.Retries != 2 {
		t.Errorf("stats %+v", st)
	}
}

// rmDropper answers with Content-Length 1000 and closes the connection
// after 100 bytes, the first drops times.
func rmDropper(drops int32, n *atomic.Int32) http.HandlerFunc {
	full := strings.Repeat("0123456789", 100)
	return func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) > drops {
			io.WriteString(w, full)
			return
		}
		conn, bw, err := http.NewResponseController(w).Hijack()
		if err != nil {
			panic(err)
		}
		fmt.Fprintf(bw, "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 1000\r\n\r\n%s", full[:100])
		bw.Flush()
		conn.Close()
	}
}

func TestClientDroppedMidBody(t *testing.T) {
	var n atomic.Int32
	srv := httptest.NewServer(rmDropper(2, &n))
	defer srv.Close()
	c := rmClient(newRMClock(), ClientOptions{})
	resp, body, err := rmGet(t, c, srv.URL)
	if err != nil || resp.StatusCode != 200 || len(body) != 1000 {
		t.Fatalf("got %v, %d bytes, %v", resp, len(body), err)
	}
	if st := c.Stats(); st.Requests != 3 || st.Retries != 2 {
		t.Errorf("stats %+v", st)
	}
	// Never whole: an error, not a short body.
	n.Store(-100)
	if _, _, err := rmGet(t, rmClient(newRMClock(), ClientOptions{MaxRetries: 1}), srv.URL); err == nil || !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("got %v, want unexpected EOF", err)
	}
}

func TestClientMaxBody(t *testing.T) {
	for _, chunked := range []bool{false, true} {
		var n atomic.Int32
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			n.Add(1)
			if !chunked {
				w.Header().Set("Content-Length", "2000")
			}
			for i := 0; i < 20; i++ {
				w.Write([]byte(strings.Repeat("x", 100)))
				if chunked {
					w.(http.Flusher).Flush()
				}
			}
		}))
		_, _, err := rmGet(t, rmClient(newRMClock(), ClientOptions{MaxBody: 1000}), srv.URL)
		srv.Close()
		var tl *BodyTooLargeError
		if !errors.As(err, &tl) || n.Load() != 1 {
			t.Errorf("chunked=%v: got %v after %d requests, want BodyTooLargeError after 1", chunked, err, n.Load())
		}
	}
}

func TestClientPerHostAndUserAgent(t *testing.T) {
	var cur, peak atomic.Int32
	var mu sync.Mutex
	agents := map[string]bool{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		agents[r.UserAgent()] = true
		mu.Unlock()
		c := cur.Add(1)
		for {
			p := peak.Load()
			if c <= p || peak.CompareAndSwap(p, c) {
				break
			}
		}
		time.Sleep(2 * time.Millisecond) // let the others pile up
		cur.Add(-1)
	}))
	defer srv.Close()
	c := rmClient(newRMClock(), ClientOptions{PerHost: 3, Version: "1.2.3"})
	var wg sync.WaitGroup
	for i := 0; i < 24; i++ {
		wg.Go(func() {
			if _, _, err := rmGet(t, c, fmt.Sprintf("%s/%d", srv.URL, i)); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if p := peak.Load(); p > 3 || p < 1 {
		t.Errorf("peak concurrency %d, want at most 3", p)
	}
	want := "offtopic/1.2.3 (+https://github.com/offtopic/offtopic)"
	if len(agents) != 1 || !agents[want] {
		t.Errorf("user agents %v, want %q", agents, want)
	}
}

func TestClientRateLimit(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer srv.Close()
	clk := newRMClock()
	c := NewClient(ClientOptions{Now: clk.Now, Sleep: clk.Sleep, ArchiveHosts: []string{srv.URL}}) // default 5/s, burst 1
	start := clk.Now()
	for i := 0; i < 11; i++ {
		if _, _, err := rmGet(t, c, srv.URL); err != nil {
			t.Fatal(err)
		}
	}
	// 11 requests at 5/s with a burst of 1: 10 waits of 200 ms.
	if el := clk.Now().Sub(start); el < 1990*time.Millisecond || el > 2010*time.Millisecond {
		t.Errorf("fake time spent %v, want 2s (slept %v)", el, clk.Slept())
	}
}

func TestClientRedirects(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/a":
			http.Redirect(w, r, "/b", http.StatusFound)
		case "/b":
			io.WriteString(w, "b")
		case "/loop":
			http.Redirect(w, r, "/loop", http.StatusFound)
		}
	}))
	defer srv.Close()
	c := rmClient(newRMClock(), ClientOptions{})
	resp, _, err := rmGet(t, c, srv.URL+"/a")
	if err != nil || resp.StatusCode != http.StatusFound || resp.Header.Get("Location") != "/b" {
		t.Fatalf("Do followed a redirect: %v %v", resp, err)
	}
	resp, body, err := c.Get(context.Background(), srv.URL+"/a", nil)
	if err != nil || resp.StatusCode != 200 || string(body) != "b" || resp.Request.URL.Path != "/b" {
		t.Fatalf("Get: %v %q %v", resp, body, err)
	}
	if _, _, err := c.Get(context.Background(), srv.URL+"/loop", nil); err == nil || !strings.Contains(err.Error(), "redirects") {
		t.Errorf("redirect loop: %v", err)
	}
}

func TestClientCancel(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { http.Error(w, "", http.StatusServiceUnavailable) }))
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	c := NewClient(ClientOptions{RatePerHost: -1, ArchiveHosts: []string{srv.URL}, Sleep: func(ctx context.Context, d time.Duration) error {
		cancel()
		return ctx.Err()
	}})
	req, _ := http.NewRequestWithContext(ctx, "GET", srv.URL, nil)
	if _, err := c.Do(req); !errors.Is(err, context.Canceled) {
		t.Errorf("got %v, want context.Canceled", err)
	}
}

// Ensure the dropper really produces a short body for a plain client too.
func TestRMDropperShortBody(t *testing.T) {
	var n atomic.Int32
	srv := httptest.NewServer(rmDropper(1, &n))
	defer srv.Close()
	resp, err := http.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	_, err = io.ReadAll(bufio.NewReader(resp.Body))
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("got %v", err)
	}
}

// rmThroughput sends n GETs spread over the given host names of one local
// server from 16 goroutines and returns requests per second (wall time) and
// the client.
func rmThroughput(tb testing.TB, opts ClientOptions, hosts []string, n int, path func(i int) string) (float64, *Client) {
	tb.Helper()
	opts.ArchiveHosts = hosts
	c := NewClient(opts)
	work := make(chan int)
	var wg sync.WaitGroup
	start := time.Now()
	for g := 0; g < 16; g++ {
		wg.Go(func() {
			for i := range work {
				req, _ := http.NewRequest("GET", "http://"+hosts[i%len(hosts)]+path(i), nil)
				resp, err := c.Do(req)
				if err != nil {
					tb.Error(err)
					continue
				}
				io.Copy(io.Discard, resp.Body)
			}
		})
	}
	for i := 0; i < n; i++ {
		work <- i
	}
	close(work)
	wg.Wait()
	return float64(n) / time.Since(start).Seconds(), c
}

func rmBenchServer(b *testing.B) (hosts []string) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, strings.Repeat("x", 4096))
	}))
	b.Cleanup(srv.Close)
	_, port, _ := strings.Cut(strings.TrimPrefix(srv.URL, "http://"), ":")
	return []string{"127.0.0.1:" + port, "localhost:" + port}
}

// BenchmarkClientDefaultPoliteness measures requests per second against a
// local server under two host names at the default settings (4 in flight
// and 5 requests/s per host): expect about 5/s per host. Run with
// -benchtime=40x or so; the default benchtime makes few requests.
func BenchmarkClientDefaultPoliteness(b *testing.B) {
	hosts := rmBenchServer(b)
	b.ResetTimer()
	rps, c := rmThroughput(b, ClientOptions{}, hosts, b.N, func(i int) string { return fmt.Sprintf("/%d", i) })
	b.ReportMetric(rps, "req/s")
	b.ReportMetric(rps/float64(len(hosts)), "req/s/host")
	b.ReportMetric(float64(c.Stats().Requests), "requests")
}

// BenchmarkClientRelaxed is the same with no concurrency or rate limit.
func BenchmarkClientRelaxed(b *testing.B) {
	hosts := rmBenchServer(b)
	b.ResetTimer()
	rps, _ := rmThroughput(b, ClientOptions{PerHost: -1, RatePerHost: -1}, hosts, b.N, func(i int) string { return fmt.Sprintf("/%d", i) })
	b.ReportMetric(rps, "req/s")
}

// BenchmarkCacheRerun fetches b.N URLs once into a cache (not timed) and
// again through a new client on the same cache: the hit rate of the rerun
// must be 100%.
func BenchmarkCacheRerun(b *testing.B) {
	hosts := rmBenchServer(b)
	dir := b.TempDir()
	cache, err := OpenCache(dir)
	if err != nil {
		b.Fatal(err)
	}
	opts := ClientOptions{PerHost: -1, RatePerHost: -1, Cache: cache}
	p := func(i int) string { return fmt.Sprintf("/%d", i) }
	rmThroughput(b, opts, hosts, b.N, p)
	b.ResetTimer()
	rps, c := rmThroughput(b, opts, hosts, b.N, p)
	st := c.Stats()
	b.ReportMetric(rps, "req/s")
	b.ReportMetric(100*float64(st.CacheHits)/float64(st.CacheHits+st.CacheMisses), "hit%")
	b.ReportMetric(float64(st.Requests), "network-requests")
}

// TestArchivedServerErrorNotRetried: a 503 that carries Memento-Datetime is
// a memento of a page that failed when captured: returned at once, cached,
// never retried.
func TestArchivedServerErrorNotRetried(t *testing.T) {
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		w.Header().Set("Memento-Datetime", "Mon, 10 Jan 2005 03:36:41 GMT")
		w.WriteHeader(http.StatusServiceUnavailable)
		w.Write([]byte("archived: service unavailable"))
	}))
	defer srv.Close()
	cache, err := OpenCache(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	cl := NewClient(ClientOptions{Cache: cache, RatePerHost: -1, ArchiveHosts: []string{srv.URL}})
	for range 2 {
		req, _ := http.NewRequest("GET", srv.URL+"/web/20050110033641id_/http://example.org/", nil)
		resp, err := cl.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode != http.StatusServiceUnavailable {
			t.Fatalf("status %d, want the archived 503", resp.StatusCode)
		}
	}
	if got := n.Load(); got != 1 {
		t.Errorf("server asked %d times, want once (no retry, then the cache)", got)
	}
}
