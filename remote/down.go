package remote

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"syscall"
)

// HostDownError is the error of a request to a host that refused the
// connection on every attempt of an earlier request and has never answered
// this client: nothing is listening there (a local Wayback or TimeGate that
// is not running), and trying each of a run's thousand requests again would
// only make the run fail slowly.
type HostDownError struct {
	// Host is the host[:port] that refuses connections.
	Host string
	// Err is the error of the request that found it down.
	Err error
}

// Error names the host and says what to check.
func (e *HostDownError) Error() string {
	return fmt.Sprintf("%s refuses connections (nothing listening there: is the archive's server running, and is the URL's port right?): %v", e.Host, e.Err)
}

// Unwrap returns the error of the request that found the host down.
func (e *HostDownError) Unwrap() error { return e.Err }

// downHosts returns a RoundTripper that marks a host down when a request
// to it, retries included (next retries), ends with connection refused
// before the host ever answered; later requests to a down host fail at once
// with a HostDownError, sending nothing. A host that has answered once is
// never marked down: a server restarting is retried as usual.
func downHosts(next http.RoundTripper) http.RoundTripper {
	return &hostWatch{next: next, answered: map[string]bool{}, down: map[string]error{}}
}

type hostWatch struct {
	next     http.RoundTripper
	mu       sync.Mutex
	answered map[string]bool
	down     map[string]error
}

// RoundTrip implements http.RoundTripper.
func (h *hostWatch) RoundTrip(req *http.Request) (*http.Response, error) {
	host := strings.ToLower(req.URL.Host)
	h.mu.Lock()
	err := h.down[host]
	h.mu.Unlock()
	if err != nil {
		return nil, &HostDownError{Host: host, Err: err}
	}
	resp, err := h.next.RoundTrip(req)
	h.mu.Lock()
	defer h.mu.Unlock()
	switch {
	case err == nil:
		h.answered[host] = true
	case errors.Is(err, syscall.ECONNREFUSED) && !h.answered[host]:
		if h.down[host] == nil {
			h.down[host] = err
		}
		return nil, &HostDownError{Host: host, Err: err}
	}
	return resp, err
}
