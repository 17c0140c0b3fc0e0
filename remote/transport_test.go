package remote

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// fakeRT answers requests with fn, counting calls and the most in flight.
type fakeRT struct {
	fn       func(n int64, r *http.Request) (*http.Response, error)
	calls    atomic.Int64
	inFlight atomic.Int64
	maxIn    atomic.Int64
}

func (f *fakeRT) RoundTrip(r *http.Request) (*http.Response, error) {
	n := f.calls.Add(1)
	in := f.inFlight.Add(1)
	defer f.inFlight.Add(-1)
	for {
		m := f.maxIn.Load()
		if in <= m || f.maxIn.CompareAndSwap(m, in) {
			break
		}
	}
	return f.fn(n, r)
}

func answer(r *http.Request, status int, body string, h ...string) *http.Response {
	hdr := http.Header{}
	for i := 0; i+1 < len(h); i += 2 {
		hdr.Set(h[i], h[i+1])
	}
	return &http.Response{StatusCode: status, Status: http.StatusText(status), Header: hdr, Body: io.NopCloser(strings.NewReader(body)), Request: r}
}

func TestReadWholeAlone(t *testing.T) {
	next := &fakeRT{fn: func(n int64, r *http.Request) (*http.Response, error) {
		if r.Header.Get("User-Agent") != "ua/1" {
			t.Errorf("User-Agent %q", r.Header.Get("User-Agent"))
		}
		if _, ok := r.Context().Deadline(); !ok {
			t.Error("attempt without a deadline")
		}
		return answer(r, 200, strings.Repeat("x", 100)), nil
	}}
	req, _ := http.NewRequest("GET", "http://a.example/", nil)
	resp, err := ReadWhole(next, ReadOptions{MaxBody: 100, UserAgent: "ua/1", Timeout: time.Second}).RoundTrip(req)
	if err != nil || resp.ContentLength != 100 {
		t.Fatalf("100 bytes under a 100-byte cap: %v, %v", resp, err)
	}
	_, err = ReadWhole(next, ReadOptions{MaxBody: 99, UserAgent: "ua/1"}).RoundTrip(req)
	var tooBig *BodyTooLargeError
	if !errors.As(err, &tooBig) || tooBig.Limit != 99 {
		t.Errorf("100 bytes over a 99-byte cap: %v", err)
	}
}

func TestRateLimitAlone(t *testing.T) {
	clk := newRMClock()
	next := &fakeRT{fn: func(n int64, r *http.Request) (*http.Response, error) {
		time.Sleep(2 * time.Millisecond)
		return answer(r, 200, ""), nil
	}}
	rl := RateLimit(next, RateLimitOptions{PerHost: 1, RatePerHost: 2, Now: clk.Now, Sleep: clk.Sleep})
	var wg sync.WaitGroup
	for _, host := range []string{"a.example", "a.example", "a.example", "b.example"} {
		wg.Go(func() {
			req, _ := http.NewRequest("GET", "http://"+host+"/", nil)
			if _, err := rl.RoundTrip(req); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	var total time.Duration
	for _, d := range clk.Slept() {
		total += d
	}
	// Three requests to a.example at 2/s with a bucket of 1: two waits of
	// 0.5 s; b.example has a bucket of its own.
	if total != time.Second || len(clk.Slept()) != 2 {
		t.Errorf("slept %v, want two waits of 0.5 s", clk.Slept())
	}
	if next.maxIn.Load() > 2 {
		t.Errorf("%d requests in flight, want at most one per host", next.maxIn.Load())
	}
}

func TestRetryAlone(t *testing.T) {
	clk := newRMClock()
	next := &fakeRT{fn: func(n int64, r *http.Request) (*http.Response, error) {
		if n == 1 {
			return answer(r, 503, "busy", "Retry-After", "7"), nil
		}
		return answer(r, 200, "ok"), nil
	}}
	rt := Retry(next, RetryOptions{Now: clk.Now, Sleep: clk.Sleep})
	req, _ := http.NewRequest("GET", "http://a.example/", nil)
	resp, err := rt.RoundTrip(req)
	if err != nil || resp.StatusCode != 200 || next.calls.Load() != 2 {
		t.Fatalf("%v %v after %d calls, want 200 after 2", resp, err, next.calls.Load())
	}
	if s := clk.Slept(); len(s) != 1 || s[0] != 7*time.Second {
		t.Errorf("slept %v, want the Retry-After of 7 s", s)
	}
	next.calls.Store(0)
	post, _ := http.NewRequest("POST", "http://a.example/", nil)
	if resp, _ := rt.RoundTrip(post); resp.StatusCode != 503 || next.calls.Load() != 1 {
		t.Errorf("POST: %d after %d calls, want the 503 at once", resp.StatusCode, next.calls.Load())
	}
	failing := &fakeRT{fn: func(n int64, r *http.Request) (*http.Response, error) { return nil, errors.New("connection reset") }}
	if _, err := Retry(failing, RetryOptions{MaxRetries: 2, Now: clk.Now, Sleep: clk.Sleep}).RoundTrip(req.WithContext(context.Background())); err == nil ||
		!strings.Contains(err.Error(), "3 attempts") || failing.calls.Load() != 3 {
		t.Errorf("%v after %d calls, want giving up after 3 attempts", err, failing.calls.Load())
	}
}

func TestCacheTransportAlone(t *testing.T) {
	cache, err := OpenCache(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	next := &fakeRT{fn: func(n int64, r *http.Request) (*http.Response, error) {
		if strings.HasSuffix(r.URL.Path, "/fail") {
			return answer(r, 500, "oops"), nil
		}
		return answer(r, 200, "page "+r.URL.Path), nil
	}}
	rt := CacheTransport(next, cache, CacheOptions{})
	for _, tc := range []struct {
		method, path string
		calls        int64
	}{
		{"GET", "/a", 1}, {"GET", "/a", 1}, // the second is a hit
		{"GET", "/fail", 2}, {"GET", "/fail", 3}, // errors are not kept
		{"POST", "/a", 4}, // other methods pass through
	} {
		req, _ := http.NewRequest(tc.method, "http://a.example"+tc.path, nil)
		resp, err := rt.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		if next.calls.Load() != tc.calls || resp.StatusCode == 200 && string(b) != "page "+tc.path {
			t.Errorf("%s %s: %d calls, body %q; want %d calls", tc.method, tc.path, next.calls.Load(), b, tc.calls)
		}
	}
}
