package remote

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
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
	// CacheMaxAge is how long a cached answer that can change (a TimeMap,
	// a CDX listing, a 404, not a memento) is used before it is asked for
	// again (default DefaultCacheMaxAge; negative: every time; see
	// CacheOptions).
	CacheMaxAge time.Duration
	// Transport sends the requests (default: a transport of the Client's own
	// with HeaderTimeout and no transparent decompression, so bodies stay
	// as served, that dials only the addresses the policy below allows).
	Transport http.RoundTripper
	// AllowPrivate lets requests go to loopback, private, link-local and
	// other non-public addresses. Without it they are refused (see
	// BlockedError), except for ArchiveHosts; URLs carrying user
	// information are refused either way.
	AllowPrivate bool
	// ArchiveHosts are the archives the user named (URLs or host[:port]:
	// URI-T, CDX server, memento prefix, TimeGate, Archive-It site), which
	// may be on non-public addresses; the exception is for their host and
	// port only.
	ArchiveHosts []string
	// DialContext and LookupIP are the network dial and the resolver under
	// the address check of the Client's own transport (defaults: a
	// net.Dialer and net.DefaultResolver); tests inject fakes.
	DialContext func(ctx context.Context, network, addr string) (net.Conn, error)
	LookupIP    func(ctx context.Context, host string) ([]net.IP, error)
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
	// cache or not (zero without a cache); CacheRevalidated those whose
	// cached answer was too old and was asked for again.
	CacheHits        int64 `json:"cache_hits"`
	CacheMisses      int64 `json:"cache_misses"`
	CacheRevalidated int64 `json:"cache_revalidated"`
	// Bytes is the number of body bytes read from the network.
	Bytes int64 `json:"bytes"`
	// Failures counts requests that ended in an error after all retries.
	Failures int64 `json:"failures"`
}

// Doer sends HTTP requests. Remote sources take one so that every request
// goes through the same polite client (rate limits, retries, cache); an
// *http.Client is one too.
type Doer interface {
	Do(req *http.Request) (*http.Response, error)
}

// Client is the polite HTTP client every remote source shares: per-host
// concurrency and rate limits, a timeout per attempt, retries with
// exponential backoff and full jitter on timeouts, connection errors, 5xx
// and 429 (honouring Retry-After), a User-Agent naming the tool, a cap on
// body size and an optional disk cache.
//
// It refuses URLs with user information and hosts on loopback, private,
// link-local and other non-public addresses (by IP literal, or by the
// addresses a name resolves to when dialling) except the archives the user
// named, before anything is sent (see BlockedError). It is a stack of
// http.RoundTripper layers, each usable and testable alone: the address
// check, CacheTransport (a hit sends nothing), a watch that fails requests
// to a host that refused every connection at once (HostDownError), Retry,
// RateLimit and ReadWhole (innermost: one attempt with its timeout, the body read
// whole) over the network transport.
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
	rt    http.RoundTripper
	ua    string
	stats counters
}

// counters are the statistics the layers of a Client share.
type counters struct {
	requests, retries, hits, misses, revalidated, bytes, failures atomic.Int64
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
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.HeaderTimeout <= 0 {
		opts.HeaderTimeout = DefaultHeaderTimeout
	}
	if opts.MaxBody <= 0 {
		opts.MaxBody = DefaultMaxBody
	}
	policy := newAddressPolicy(opts.AllowPrivate, opts.ArchiveHosts, envProxies())
	tr := opts.Transport
	if tr == nil {
		t := http.DefaultTransport.(*http.Transport).Clone()
		dial := opts.DialContext
		if dial == nil {
			dial = (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}).DialContext
		}
		lookup := opts.LookupIP
		if lookup == nil {
			lookup = func(ctx context.Context, host string) ([]net.IP, error) {
				return net.DefaultResolver.LookupIP(ctx, "ip", host)
			}
		}
		t.DialContext = guardedDial(policy, dial, lookup)
		t.ResponseHeaderTimeout = opts.HeaderTimeout
		t.DisableCompression = true
		t.MaxIdleConnsPerHost = max(opts.PerHost, 2)
		tr = t
	}
	ua := opts.UserAgent
	if ua == "" {
		ua = "offtopic/" + opts.Version + " (+https://github.com/offtopic/offtopic)"
	}
	c := &Client{opts: opts, ua: ua}
	rt := readWhole(tr, ReadOptions{Timeout: opts.Timeout, MaxBody: opts.MaxBody, UserAgent: ua}, &c.stats)
	rt = rateLimit(rt, RateLimitOptions{PerHost: opts.PerHost, RatePerHost: opts.RatePerHost, Burst: opts.Burst,
		Now: opts.Now, Sleep: opts.Sleep})
	rt = retry(rt, RetryOptions{MaxRetries: opts.MaxRetries, BackoffBase: opts.BackoffBase, MaxBackoff: opts.MaxBackoff,
		MaxRetryAfter: opts.MaxRetryAfter, Now: opts.Now, Sleep: opts.Sleep}, &c.stats)
	rt = downHosts(rt)
	if opts.Cache != nil {
		rt = cacheTransport(rt, opts.Cache, CacheOptions{MaxAge: opts.CacheMaxAge, Now: opts.Now}, &c.stats)
	}
	c.rt = &guard{next: rt, policy: policy}
	return c
}

// Stats returns a snapshot of the Client's counters.
func (c *Client) Stats() ClientStats {
	return ClientStats{
		Requests:         c.stats.requests.Load(),
		Retries:          c.stats.retries.Load(),
		CacheHits:        c.stats.hits.Load(),
		CacheMisses:      c.stats.misses.Load(),
		CacheRevalidated: c.stats.revalidated.Load(),
		Bytes:            c.stats.bytes.Load(),
		Failures:         c.stats.failures.Load(),
	}
}

// UserAgent returns the User-Agent the Client sends.
func (c *Client) UserAgent() string { return c.ua }

// Cache returns the Client's cache (nil without one).
func (c *Client) Cache() *Cache { return c.opts.Cache }

// Do sends req politely and returns the answer with its body read whole.
// Only GET and HEAD are retried and cached; other methods are sent once.
// Answers that are still 5xx or 429 after the retries are returned as
// responses, not errors; network errors, timeouts and bodies over MaxBody
// are errors that name the URL.
func (c *Client) Do(req *http.Request) (*http.Response, error) {
	resp, err := c.rt.RoundTrip(req)
	if err != nil {
		c.stats.failures.Add(1)
		return nil, fmt.Errorf("fetch %s: %w", req.URL.Redacted(), err)
	}
	return resp, nil
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

// Get fetches uri with header h (may be nil), following up to
// DefaultMaxRedirects redirects, and returns the final response (body in
// memory) and its body.
func (c *Client) Get(ctx context.Context, uri string, h http.Header) (*http.Response, []byte, error) {
	return fetch(ctx, c, uri, h, DefaultMaxRedirects, 0)
}

// fetch GETs uri through doer, following redirects up to maxRedirects
// (negative: none), reading the body up to maxBody bytes (<= 0: the default).
// The final response's Request.URL is the URL that answered.
func fetch(ctx context.Context, doer Doer, uri string, h http.Header, maxRedirects int, maxBody int64) (*http.Response, []byte, error) {
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
			shown := req.URL.Redacted()
			if strings.Contains(err.Error(), shown) {
				return nil, nil, err
			}
			return nil, nil, fmt.Errorf("fetch %s: %w", shown, err)
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
