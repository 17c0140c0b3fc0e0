package timemap

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Defaults of ClientOptions.
const (
	DefaultPerHost       = 4
	DefaultRatePerHost   = 5.0
	DefaultTimeout       = 30 * time.Second
	DefaultHeaderTimeout = 20 * time.Second
	DefaultMaxRetries    = 4
	DefaultBackoffBase   = 500 * time.Millisecond
	DefaultMaxBackoff    = 30 * time.Second
	DefaultMaxRetryAfter = 5 * time.Minute
	DefaultMaxBody       = 32 << 20
	DefaultMaxRedirects  = 10
)

// ClientOptions configure a Client. Zero values take the defaults; negative
// values switch a limit off where that is said.
type ClientOptions struct {
	// Version goes into the default User-Agent ("dev" when empty).
	Version string
	// UserAgent overrides the default
	// "offtopic/<Version> (+https://github.com/offtopic/offtopic)".
	UserAgent string
	// PerHost is the most requests in flight to one host (default 4;
	// negative: no limit).
	PerHost int
	// RatePerHost is the most requests per second started to one host, a
	// token bucket per host (default 5; negative: no limit).
	RatePerHost float64
	// Burst is the bucket size of the rate limit (default 1).
	Burst int
	// Timeout bounds one attempt, headers and body (default 30 s).
	Timeout time.Duration
	// HeaderTimeout bounds the wait for response headers of one attempt
	// (default 20 s). Used only with the Client's own transport.
	HeaderTimeout time.Duration
	// MaxRetries is the number of retries after the first attempt (default
	// 4; negative: none).
	MaxRetries int
	// BackoffBase and MaxBackoff shape the exponential backoff with full
	// jitter: before retry n the client sleeps a random time in
	// [0, min(MaxBackoff, BackoffBase*2^n)) (defaults 500 ms and 30 s).
	BackoffBase, MaxBackoff time.Duration
	// MaxRetryAfter is the longest Retry-After the client waits for; a
	// longer one ends the retries and the response is returned (default 5 min).
	MaxRetryAfter time.Duration
	// MaxBody caps a response body (default 32 MiB); a longer body is an
	// error, never cut silently.
	MaxBody int64
	// Cache, when set, answers GET and HEAD requests it holds without any
	// network access and keeps the cacheable answers (see Cache).
	Cache *Cache
	// Transport sends the requests (default: a transport of the Client's own
	// with HeaderTimeout and no transparent decompression, so bodies stay
	// as served).
	Transport http.RoundTripper
	// Now and Sleep are the clock (for Retry-After dates and the rate
	// limit) and the sleep between attempts; tests inject fakes. Sleep
	// must return ctx.Err() when ctx ends first.
	Now   func() time.Time
	Sleep func(ctx context.Context, d time.Duration) error
}

// ClientStats counts what a Client did.
type ClientStats struct {
	// Requests is the number of attempts sent over the network.
	Requests int64 `json:"requests"`
	// Retries is the number of attempts that were retries.
	Retries int64 `json:"retries"`
	// CacheHits and CacheMisses count cacheable requests answered from the
	// cache or not (zero without a cache).
	CacheHits   int64 `json:"cache_hits"`
	CacheMisses int64 `json:"cache_misses"`
	// Bytes is the number of body bytes read from the network.
	Bytes int64 `json:"bytes"`
	// Failures counts requests that ended in an error after all retries.
	Failures int64 `json:"failures"`
}

// Client is the polite HTTP client every remote source shares: per-host
// concurrency and rate limits, a timeout per attempt, retries with
// exponential backoff and full jitter on timeouts, connection errors, 5xx
// and 429 (honouring Retry-After), a User-Agent naming the tool, a cap on
// body size and an optional disk cache.
//
// Client implements Doer. Do does not follow redirects: callers see 3xx
// answers (a TimeGate needs them); Get follows them. Bodies are read whole
// (up to MaxBody) inside Do, so that a connection dropped mid-body is retried
// like any other failed attempt; the returned response's Body is an in-memory
// reader and need not be closed (closing it is harmless).
//
// A Client is safe for concurrent use.
type Client struct {
	opts  ClientOptions
	hc    *http.Client
	ua    string
	mu    sync.Mutex
	hosts map[string]*fetchHost
	stats struct {
		requests, retries, hits, misses, bytes, failures atomic.Int64
	}
}

// fetchHost is the per-host state: a semaphore and a token bucket.
type fetchHost struct {
	sem    chan struct{}
	mu     sync.Mutex
	tokens float64
	last   time.Time
}

// NewClient returns a Client with opts (zero values are defaults).
func NewClient(opts ClientOptions) *Client {
	if opts.Version == "" {
		opts.Version = "dev"
	}
	if opts.PerHost == 0 {
		opts.PerHost = DefaultPerHost
	}
	if opts.RatePerHost == 0 {
		opts.RatePerHost = DefaultRatePerHost
	}
	if opts.Burst <= 0 {
		opts.Burst = 1
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.HeaderTimeout <= 0 {
		opts.HeaderTimeout = DefaultHeaderTimeout
	}
	if opts.MaxRetries == 0 {
		opts.MaxRetries = DefaultMaxRetries
	} else if opts.MaxRetries < 0 {
		opts.MaxRetries = 0
	}
	if opts.BackoffBase <= 0 {
		opts.BackoffBase = DefaultBackoffBase
	}
	if opts.MaxBackoff <= 0 {
		opts.MaxBackoff = DefaultMaxBackoff
	}
	if opts.MaxRetryAfter <= 0 {
		opts.MaxRetryAfter = DefaultMaxRetryAfter
	}
	if opts.MaxBody <= 0 {
		opts.MaxBody = DefaultMaxBody
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Sleep == nil {
		opts.Sleep = fetchSleep
	}
	tr := opts.Transport
	if tr == nil {
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.ResponseHeaderTimeout = opts.HeaderTimeout
		t.DisableCompression = true
		t.MaxIdleConnsPerHost = max(opts.PerHost, 2)
		tr = t
	}
	ua := opts.UserAgent
	if ua == "" {
		ua = "offtopic/" + opts.Version + " (+https://github.com/offtopic/offtopic)"
	}
	return &Client{
		opts:  opts,
		ua:    ua,
		hosts: map[string]*fetchHost{},
		hc: &http.Client{
			Transport:     tr,
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		},
	}
}

// fetchSleep sleeps d or until ctx ends.
func fetchSleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Stats returns a snapshot of the Client's counters.
func (c *Client) Stats() ClientStats {
	return ClientStats{
		Requests:    c.stats.requests.Load(),
		Retries:     c.stats.retries.Load(),
		CacheHits:   c.stats.hits.Load(),
		CacheMisses: c.stats.misses.Load(),
		Bytes:       c.stats.bytes.Load(),
		Failures:    c.stats.failures.Load(),
	}
}

// UserAgent returns the User-Agent the Client sends.
func (c *Client) UserAgent() string { return c.ua }

// Cache returns the Client's cache (nil without one).
func (c *Client) Cache() *Cache { return c.opts.Cache }

func (c *Client) host(h string) *fetchHost {
	c.mu.Lock()
	defer c.mu.Unlock()
	fh := c.hosts[h]
	if fh == nil {
		fh = &fetchHost{tokens: float64(c.opts.Burst), last: c.opts.Now()}
		if c.opts.PerHost > 0 {
			fh.sem = make(chan struct{}, c.opts.PerHost)
		}
		c.hosts[h] = fh
	}
	return fh
}

// wait takes one token of h's bucket, sleeping until one is due.
func (c *Client) wait(ctx context.Context, h *fetchHost) error {
	if c.opts.RatePerHost < 0 {
		return ctx.Err()
	}
	h.mu.Lock()
	now := c.opts.Now()
	if el := now.Sub(h.last); el > 0 {
		h.tokens = min(float64(c.opts.Burst), h.tokens+el.Seconds()*c.opts.RatePerHost)
	}
	h.last = now
	h.tokens-- // reserve; a negative balance queues the callers behind us
	var d time.Duration
	if h.tokens < 0 {
		d = time.Duration(-h.tokens / c.opts.RatePerHost * float64(time.Second))
	}
	h.mu.Unlock()
	if d <= 0 {
		return ctx.Err()
	}
	if err := c.opts.Sleep(ctx, d); err != nil {
		h.mu.Lock()
		h.tokens++ // give the reservation back
		h.mu.Unlock()
		return err
	}
	return nil
}

// fetchCacheable reports whether requests with this method may be cached and retried.
func fetchCacheable(method string) bool {
	return method == "" || method == http.MethodGet || method == http.MethodHead
}

// Do sends req politely and returns the answer with its body read whole.
// Only GET and HEAD are retried and cached; other methods are sent once.
// Answers that are still 5xx or 429 after the retries are returned as
// responses, not errors; network errors, timeouts and bodies over MaxBody
// are errors that name the URL.
func (c *Client) Do(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	u := req.URL.String()
	idem := fetchCacheable(req.Method)
	var key string
	if idem && c.opts.Cache != nil {
		key = CacheKey(req)
		if e, err := c.opts.Cache.Get(key); err == nil && e != nil {
			c.stats.hits.Add(1)
			return e.Response(req), nil
		}
		c.stats.misses.Add(1)
	}
	attempts := 1
	if idem {
		attempts += c.opts.MaxRetries
	}
	var lastErr error
	for n := 0; n < attempts; n++ {
		if n > 0 {
			c.stats.retries.Add(1)
		}
		resp, body, err := c.attempt(req)
		if ctx.Err() != nil {
			c.stats.failures.Add(1)
			return nil, fmt.Errorf("fetch %s: %w", u, ctx.Err())
		}
		var wait time.Duration
		switch {
		case err != nil:
			var tooBig *BodyTooLargeError
			if errors.As(err, &tooBig) || !fetchRetryableErr(err) {
				c.stats.failures.Add(1)
				return nil, fmt.Errorf("fetch %s: %w", u, err)
			}
			lastErr = err
		case (resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500 && resp.StatusCode != http.StatusNotImplemented) &&
			resp.Header.Get("Memento-Datetime") == "":
			// An answer with Memento-Datetime is an archived 5xx (the page
			// failed when it was captured), not a failing archive: it is
			// returned, and cached, like any memento.
			if ra, ok := fetchRetryAfter(resp.Header.Get("Retry-After"), c.opts.Now()); ok && (resp.StatusCode == 429 || resp.StatusCode == 503) {
				if ra > c.opts.MaxRetryAfter {
					return fetchResponse(req, resp, body), nil
				}
				wait = ra
			}
			lastErr = fmt.Errorf("HTTP %s", resp.Status)
			if n == attempts-1 {
				return fetchResponse(req, resp, body), nil
			}
		default:
			r := fetchResponse(req, resp, body)
			if key != "" && (CacheableStatus(resp.StatusCode) || resp.Header.Get("Memento-Datetime") != "") {
				if err := c.opts.Cache.Put(key, u, r.StatusCode, r.Header, body); err != nil {
					return nil, fmt.Errorf("fetch %s: %w", u, err)
				}
			}
			return r, nil
		}
		if n == attempts-1 {
			break
		}
		if wait == 0 {
			wait = c.backoff(n)
		}
		if err := c.opts.Sleep(ctx, wait); err != nil {
			c.stats.failures.Add(1)
			return nil, fmt.Errorf("fetch %s: %w", u, err)
		}
	}
	c.stats.failures.Add(1)
	return nil, fmt.Errorf("fetch %s: giving up after %d attempts: %w", u, attempts, lastErr)
}

// backoff returns the full-jitter wait before retry n+1.
func (c *Client) backoff(n int) time.Duration {
	ceil := c.opts.BackoffBase << min(n, 30)
	if ceil <= 0 || ceil > c.opts.MaxBackoff {
		ceil = c.opts.MaxBackoff
	}
	return time.Duration(rand.Int64N(int64(ceil)) + 1)
}

// attempt sends req once under the host's limits and reads the body whole.
func (c *Client) attempt(req *http.Request) (*http.Response, []byte, error) {
	ctx := req.Context()
	h := c.host(strings.ToLower(req.URL.Host))
	if h.sem != nil {
		select {
		case h.sem <- struct{}{}:
		case <-ctx.Done():
			return nil, nil, ctx.Err()
		}
		defer func() { <-h.sem }()
	}
	if err := c.wait(ctx, h); err != nil {
		return nil, nil, err
	}
	actx, cancel := context.WithTimeout(ctx, c.opts.Timeout)
	defer cancel()
	r := req.Clone(actx)
	if r.Header.Get("User-Agent") == "" {
		r.Header.Set("User-Agent", c.ua)
	}
	if req.GetBody != nil && req.Body != nil && req.Body != http.NoBody {
		b, err := req.GetBody()
		if err != nil {
			return nil, nil, err
		}
		r.Body = b
	}
	c.stats.requests.Add(1)
	resp, err := c.hc.Do(r)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	if resp.ContentLength > c.opts.MaxBody {
		return nil, nil, &BodyTooLargeError{URL: req.URL.String(), Limit: c.opts.MaxBody}
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, c.opts.MaxBody+1))
	c.stats.bytes.Add(int64(len(body)))
	if err != nil {
		return nil, nil, fmt.Errorf("reading body: %w", err)
	}
	if int64(len(body)) > c.opts.MaxBody {
		return nil, nil, &BodyTooLargeError{URL: req.URL.String(), Limit: c.opts.MaxBody}
	}
	return resp, body, nil
}

// BodyTooLargeError is the error of a response whose body exceeds the cap.
type BodyTooLargeError struct {
	// URL is the URL whose body was too large.
	URL string
	// Limit is the cap in bytes.
	Limit int64
}

// Error says which URL exceeded which cap.
func (e *BodyTooLargeError) Error() string {
	return fmt.Sprintf("body of %s exceeds %d bytes", e.URL, e.Limit)
}

// fetchRetryableErr reports whether a failed attempt is worth another:
// timeouts, connection errors, bodies cut short and other transport
// failures are; a cancelled context and a malformed request are not.
func fetchRetryableErr(err error) bool {
	if errors.Is(err, context.Canceled) {
		return false
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		msg := ue.Err.Error()
		if strings.Contains(msg, "unsupported protocol scheme") || strings.Contains(msg, "no Host in request URL") {
			return false
		}
	}
	return true
}

// fetchRetryAfter parses a Retry-After value (delay-seconds or HTTP-date).
func fetchRetryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if s, err := strconv.Atoi(v); err == nil {
		if s < 0 {
			return 0, false
		}
		return time.Duration(s) * time.Second, true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0), true
	}
	return 0, false
}

// fetchResponse returns resp carrying body in memory.
func fetchResponse(req *http.Request, resp *http.Response, body []byte) *http.Response {
	r := *resp
	r.Body = io.NopCloser(bytes.NewReader(body))
	r.ContentLength = int64(len(body))
	r.Request = req
	return &r
}

// Get fetches uri with header h (may be nil), following up to
// DefaultMaxRedirects redirects, and returns the final response (body in
// memory) and its body.
func (c *Client) Get(ctx context.Context, uri string, h http.Header) (*http.Response, []byte, error) {
	return fetchGet(ctx, c, uri, h, DefaultMaxRedirects, 0)
}

// fetchGet GETs uri through doer, following redirects up to maxRedirects
// (negative: none), reading the body up to maxBody bytes (<= 0: the default).
// The final response's Request.URL is the URL that answered.
func fetchGet(ctx context.Context, doer Doer, uri string, h http.Header, maxRedirects int, maxBody int64) (*http.Response, []byte, error) {
	if maxBody <= 0 {
		maxBody = DefaultMaxBody
	}
	cur := uri
	for hops := 0; ; hops++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, cur, nil)
		if err != nil {
			return nil, nil, fmt.Errorf("fetch %s: %w", cur, err)
		}
		for k, v := range h {
			req.Header[k] = v
		}
		resp, err := doer.Do(req)
		if err != nil {
			if strings.Contains(err.Error(), cur) {
				return nil, nil, err
			}
			return nil, nil, fmt.Errorf("fetch %s: %w", cur, err)
		}
		body, err := io.ReadAll(io.LimitReader(resp.Body, maxBody+1))
		resp.Body.Close()
		if err != nil {
			return nil, nil, fmt.Errorf("fetch %s: reading body: %w", cur, err)
		}
		if int64(len(body)) > maxBody {
			return nil, nil, fmt.Errorf("fetch %s: %w", cur, &BodyTooLargeError{URL: cur, Limit: maxBody})
		}
		resp.Body = io.NopCloser(bytes.NewReader(body))
		if resp.Request == nil {
			resp.Request = req
		}
		loc := resp.Header.Get("Location")
		if resp.StatusCode < 300 || resp.StatusCode > 399 || loc == "" || maxRedirects < 0 {
			return resp, body, nil
		}
		if hops >= maxRedirects {
			return nil, nil, fmt.Errorf("fetch %s: more than %d redirects", uri, maxRedirects)
		}
		next, err := resp.Request.URL.Parse(loc)
		if err != nil {
			return nil, nil, fmt.Errorf("fetch %s: bad Location %q: %w", cur, loc, err)
		}
		cur = next.String()
	}
}
