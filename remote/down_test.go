package remote

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
)

// TestHostDown: a host that refuses every attempt of a request is down; the
// requests after it fail at once without dialling, another host is not
// affected, and a host that once answered is retried as usual.
func TestHostDown(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "http://" + ln.Addr().String()
	ln.Close() // nothing listens there now: connection refused
	live := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) }))
	defer live.Close()
	var dials atomic.Int64
	d := &net.Dialer{}
	c := rmClient(newRMClock(), ClientOptions{MaxRetries: 2, DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		dials.Add(1)
		return d.DialContext(ctx, network, addr)
	}})
	_, _, err = rmGet(t, c, dead+"/timegate/http://example.org/")
	var down *HostDownError
	if !errors.As(err, &down) || down.Host != ln.Addr().String() {
		t.Fatalf("first request to a dead host: %v, want a HostDownError naming it", err)
	}
	if n := dials.Load(); n != 3 {
		t.Errorf("the first request dialled %d times, want 3 (1 + 2 retries)", n)
	}
	for i := range 5 {
		if _, _, err := rmGet(t, c, dead+"/timegate/http://example.org/"+string(rune('a'+i))); !errors.As(err, &down) {
			t.Fatalf("request %d to the dead host: %v", i+2, err)
		}
	}
	if n := dials.Load(); n != 3 {
		t.Errorf("requests to a host found down dialled %d more times", n-3)
	}
	if _, body, err := rmGet(t, c, live.URL+"/"); err != nil || body != "ok" {
		t.Errorf("another host: %q, %v", body, err)
	}
	// A host that answered once and then refuses is not down: it may be
	// restarting.
	url := live.URL + "/"
	live.Close()
	if _, _, err := rmGet(t, c, url); err == nil || errors.As(err, &down) {
		t.Errorf("a host that answered before, then refused: %v, want an error that is not HostDownError", err)
	}
}
