package remote

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The layers of a Client. Each is an http.RoundTripper over the next one and
// can be used alone; the Client stacks them as
// CacheTransport(Retry(RateLimit(ReadWhole(network)))).

// ReadOptions configure ReadWhole.
type ReadOptions struct {
	// Timeout bounds one attempt, headers and body (default 30 s).
	Timeout time.Duration
	// MaxBody caps a body (default 32 MiB); a longer one is a
	// *BodyTooLargeError.
	MaxBody int64
	// UserAgent is set on requests that carry none (default: none set).
	UserAgent string
}

// ReadWhole returns a RoundTripper that sends each request once through next
// under opts.Timeout and reads the answer's body whole (up to opts.MaxBody)
// before returning, so that the layers above see a body cut short as an
// error of the attempt (and can retry it) and hold no connection open. The
// response's Body is in memory.
func ReadWhole(next http.RoundTripper, opts ReadOptions) http.RoundTripper {
	return readWhole(next, opts, nil)
}

func readWhole(next http.RoundTripper, opts ReadOptions, st *counters) http.RoundTripper {
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.MaxBody <= 0 {
		opts.MaxBody = DefaultMaxBody
	}
	if st == nil {
		st = &counters{}
	}
	return &wholeReader{next: next, opts: opts, stats: st}
}

type wholeReader struct {
	next  http.RoundTripper
	opts  ReadOptions
	stats *counters
}

// RoundTrip implements http.RoundTripper.
func (w *wholeReader) RoundTrip(req *http.Request) (*http.Response, error) {
	actx, cancel := context.WithTimeout(req.Context(), w.opts.Timeout)
	defer cancel()
	r := req.Clone(actx)
	if r.Header.Get("User-Agent") == "" && w.opts.UserAgent != "" {
		r.Header.Set("User-Agent", w.opts.UserAgent)
	}
	if req.GetBody != nil && req.Body != nil && req.Body != http.NoBody {
		b, err := req.GetBody()
		if err != nil {
			return nil, err
		}
		r.Body = b
	}
	w.stats.requests.Add(1)
	resp, err := w.next.RoundTrip(r)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.ContentLength > w.opts.MaxBody {
		return nil, &BodyTooLargeError{URL: req.URL.String(), Limit: w.opts.MaxBody}
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, w.opts.MaxBody+1))
	w.stats.bytes.Add(int64(len(body)))
	if err != nil {
		return nil, fmt.Errorf("reading body: %w", err)
	}
	if int64(len(body)) > w.opts.MaxBody {
		return nil, &BodyTooLargeError{URL: req.URL.String(), Limit: w.opts.MaxBody}
	}
	return inMemory(req, resp, body), nil
}

// inMemory returns resp carrying body in memory.
func inMemory(req *http.Request, resp *http.Response, body []byte) *http.Response {
	r := *resp
	r.Body = io.NopCloser(bytes.NewReader(body))
	r.ContentLength = int64(len(body))
	r.Request = req
	return &r
}

// RateLimitOptions configure RateLimit.
type RateLimitOptions struct {
	// PerHost is the most requests in flight to one host (default 4;
	// negative: no limit).
	PerHost int
	// RatePerHost is the most requests per second started to one host, a
	// token bucket per host (default 5; negative: no limit).
	RatePerHost float64
	// Burst is the bucket size (default 1).
	Burst int
	// Now and Sleep are the clock and the sleep (defaults time.Now and a
	// timer that ends with the context).
	Now   func() time.Time
	Sleep func(ctx context.Context, d time.Duration) error
}

// RateLimit returns a RoundTripper that holds each request to next until its
// host has a free slot (PerHost) and a token (RatePerHost). The slot is
// held until next returns, so next should read the body (ReadWhole does).
func RateLimit(next http.RoundTripper, opts RateLimitOptions) http.RoundTripper {
	return rateLimit(next, opts)
}

func rateLimit(next http.RoundTripper, opts RateLimitOptions) http.RoundTripper {
	if opts.PerHost == 0 {
		opts.PerHost = DefaultPerHost
	}
	if opts.RatePerHost == 0 {
		opts.RatePerHost = DefaultRatePerHost
	}
	if opts.Burst <= 0 {
		opts.Burst = 1
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Sleep == nil {
		opts.Sleep = sleep
	}
	return &rateLimiter{next: next, opts: opts, hosts: map[string]*hostLimit{}}
}

type rateLimiter struct {
	next  http.RoundTripper
	opts  RateLimitOptions
	mu    sync.Mutex
	hosts map[string]*hostLimit
}

// hostLimit is the per-host state: a semaphore and a token bucket.
type hostLimit struct {
	sem    chan struct{}
	mu     sync.Mutex
	tokens float64
	last   time.Time
}

func (l *rateLimiter) host(h string) *hostLimit {
	l.mu.Lock()
	defer l.mu.Unlock()
	hl := l.hosts[h]
	if hl == nil {
		hl = &hostLimit{tokens: float64(l.opts.Burst), last: l.opts.Now()}
		if l.opts.PerHost > 0 {
			hl.sem = make(chan struct{}, l.opts.PerHost)
		}
		l.hosts[h] = hl
	}
	return hl
}

// RoundTrip implements http.RoundTripper.
func (l *rateLimiter) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	h := l.host(strings.ToLower(req.URL.Host))
	if h.sem != nil {
		select {
		case h.sem <- struct{}{}:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		defer func() { <-h.sem }()
	}
	if err := l.wait(ctx, h); err != nil {
		return nil, err
	}
	return l.next.RoundTrip(req)
}

// wait takes one token of h's bucket, sleeping until one is due.
func (l *rateLimiter) wait(ctx context.Context, h *hostLimit) error {
	if l.opts.RatePerHost < 0 {
		return ctx.Err()
	}
	h.mu.Lock()
	now := l.opts.Now()
	if el := now.Sub(h.last); el > 0 {
		h.tokens = min(float64(l.opts.Burst), h.tokens+el.Seconds()*l.opts.RatePerHost)
	}
	h.last = now
	h.tokens-- // reserve; a negative balance queues the callers behind us
	var d time.Duration
	if h.tokens < 0 {
		d = time.Duration(-h.tokens / l.opts.RatePerHost * float64(time.Second))
	}
	h.mu.Unlock()
	if d <= 0 {
		return ctx.Err()
	}
	if err := l.opts.Sleep(ctx, d); err != nil {
		h.mu.Lock()
		h.tokens++ // give the reservation back
		h.mu.Unlock()
		return err
	}
	return nil
}

// sleep sleeps d or until ctx ends.
func sleep(ctx context.Context, d time.Duration) error {
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

// RetryOptions configure Retry.
type RetryOptions struct {
	// MaxRetries is the number of retries after the first attempt (default
	// 4; negative: none).
	MaxRetries int
	// BackoffBase and MaxBackoff shape the exponential backoff with full
	// jitter: before retry n the wait is a random time in
	// [0, min(MaxBackoff, BackoffBase*2^n)) (defaults 500 ms and 30 s).
	BackoffBase, MaxBackoff time.Duration
	// MaxRetryAfter is the longest Retry-After waited for; a longer one
	// ends the retries and the response is returned (default 5 min).
	MaxRetryAfter time.Duration
	// Now and Sleep are the clock and the sleep between attempts.
	Now   func() time.Time
	Sleep func(ctx context.Context, d time.Duration) error
}

// Retry returns a RoundTripper that sends GET and HEAD requests again after
// timeouts, connection errors, bodies cut short, 5xx (but 501) and 429, with
// exponential backoff and full jitter, waiting a Retry-After of 429 and 503
// instead where it is not longer than MaxRetryAfter. An answer with
// Memento-Datetime is an archived error, not a failing archive, and is
// returned at once. Answers still failing after the retries are returned;
// errors after the last retry say how many attempts were made. Other methods
// are sent once. next must return bodies in memory (ReadWhole).
func Retry(next http.RoundTripper, opts RetryOptions) http.RoundTripper {
	return retry(next, opts, nil)
}

func retry(next http.RoundTripper, opts RetryOptions, st *counters) http.RoundTripper {
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
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Sleep == nil {
		opts.Sleep = sleep
	}
	if st == nil {
		st = &counters{}
	}
	return &retrier{next: next, opts: opts, stats: st}
}

type retrier struct {
	next  http.RoundTripper
	opts  RetryOptions
	stats *counters
}

// idempotent reports whether requests with this method may be cached and retried.
func idempotent(method string) bool {
	return method == "" || method == http.MethodGet || method == http.MethodHead
}

// RoundTrip implements http.RoundTripper.
func (r *retrier) RoundTrip(req *http.Request) (*http.Response, error) {
	if !idempotent(req.Method) {
		return r.next.RoundTrip(req)
	}
	ctx := req.Context()
	attempts := 1 + r.opts.MaxRetries
	var lastErr error
	for n := 0; n < attempts; n++ {
		if n > 0 {
			r.stats.retries.Add(1)
		}
		resp, err := r.next.RoundTrip(req)
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		var wait time.Duration
		switch {
		case err != nil:
			var tooBig *BodyTooLargeError
			if errors.As(err, &tooBig) || !retryable(err) {
				return nil, err
			}
			lastErr = err
		case (resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500 && resp.StatusCode != http.StatusNotImplemented) &&
			resp.Header.Get("Memento-Datetime") == "":
			if ra, ok := retryAfter(resp.Header.Get("Retry-After"), r.opts.Now()); ok && (resp.StatusCode == 429 || resp.StatusCode == 503) {
				if ra > r.opts.MaxRetryAfter {
					return resp, nil
				}
				wait = ra
			}
			lastErr = fmt.Errorf("HTTP %s", resp.Status)
			if n == attempts-1 {
				return resp, nil
			}
			resp.Body.Close()
		default:
			return resp, nil
		}
		if n == attempts-1 {
			break
		}
		if wait == 0 {
			wait = r.backoff(n)
		}
		if err := r.opts.Sleep(ctx, wait); err != nil {
			return nil, err
		}
	}
	return nil, fmt.Errorf("giving up after %d attempts: %w", attempts, lastErr)
}

// backoff returns the full-jitter wait before retry n+1.
func (r *retrier) backoff(n int) time.Duration {
	ceil := r.opts.BackoffBase << min(n, 30)
	if ceil <= 0 || ceil > r.opts.MaxBackoff {
		ceil = r.opts.MaxBackoff
	}
	return time.Duration(rand.Int64N(int64(ceil)) + 1)
}

// retryable reports whether a failed attempt is worth another: timeouts,
// connection errors, bodies cut short and other transport failures are; a
// cancelled context and a malformed request are not.
func retryable(err error) bool {
	if errors.Is(err, context.Canceled) || blocked(err) {
		return false
	}
	msg := err.Error()
	return !strings.Contains(msg, "unsupported protocol scheme") && !strings.Contains(msg, "no Host in request URL")
}

// retryAfter parses a Retry-After value (delay-seconds or HTTP-date).
func retryAfter(v string, now time.Time) (time.Duration, bool) {
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
