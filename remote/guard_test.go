package remote

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// errNoNetwork ends a dial the test allowed: nothing leaves the machine.
var errNoNetwork = errors.New("test: no network")

// TestClientRefusesNonPublic (issue 23 item 7): URI-Ms and redirects to
// loopback, link-local, private addresses, or carrying user:password@,
// are refused before any connection, whether by IP literal or by a name
// that resolves there, unless the host is an archive the user named (that
// host and port only) or AllowPrivate is set. The dial hook records what
// would be dialled and never connects; the resolver is a fake.
func TestClientRefusesNonPublic(t *testing.T) {
	names := map[string][]net.IP{
		"metadata.example": {net.ParseIP("169.254.169.254")},
		"intranet.example": {net.ParseIP("10.1.2.3")},
		"loop6.example":    {net.ParseIP("::1")},
		"public.example":   {net.ParseIP("93.184.216.34")},
		"mixed.example":    {net.ParseIP("192.168.0.9"), net.ParseIP("93.184.216.34")},
	}
	for _, tc := range []struct {
		name     string
		url      string
		archives []string
		allowAll bool
		dial     string // the address dialled; "" when the request must be refused
		reason   string // in the refusal
	}{
		{"loopback literal", "http://127.0.0.1:8080/web/2010/http://x/", nil, false, "", "127.0.0.1 is not a public address"},
		{"cloud metadata", "http://169.254.169.254/latest/meta-data/", nil, false, "", "169.254.169.254 is not a public address"},
		{"private 10/8", "http://10.0.0.1/", nil, false, "", "not a public address"},
		{"private 192.168/16", "https://192.168.1.1/", nil, false, "", "not a public address"},
		{"CGNAT", "http://100.64.0.1/", nil, false, "", "not a public address"},
		{"unspecified", "http://0.0.0.0:80/", nil, false, "", "not a public address"},
		{"IPv6 loopback", "http://[::1]:8080/", nil, false, "", "::1 is not a public address"},
		{"IPv6 link-local", "http://[fe80::1]/", nil, false, "", "not a public address"},
		{"IPv4-mapped loopback", "http://[::ffff:127.0.0.1]/", nil, false, "", "not a public address"},
		{"localhost name", "http://localhost:1208/timegate/", nil, false, "", "localhost is this machine"},
		{"user and password", "http://user:secret@example.org/", nil, false, "", "user information"},
		{"user and password, private allowed", "http://user:secret@example.org/", nil, true, "", "user information"},
		{"name resolving to metadata", "http://metadata.example/", nil, false, "", "resolves to 169.254.169.254"},
		{"name resolving to private", "http://intranet.example:8080/", nil, false, "", "resolves to 10.1.2.3"},
		{"name resolving to IPv6 loopback", "http://loop6.example/", nil, false, "", "resolves to ::1"},
		{"public name dials its checked address", "http://public.example/", nil, false, "93.184.216.34:80", ""},
		{"mixed name dials only the public address", "https://mixed.example/", nil, false, "93.184.216.34:443", ""},
		{"public literal", "http://93.184.216.34/", nil, false, "93.184.216.34:80", ""},
		{"named archive on loopback", "http://127.0.0.1:8080/timemap/", []string{"http://127.0.0.1:8080/timemap/link/http://x/"}, false, "127.0.0.1:8080", ""},
		{"named archive, other port", "http://127.0.0.1:8081/", []string{"http://127.0.0.1:8080/"}, false, "", "127.0.0.1 is not a public address"},
		{"named archive, other private host", "http://10.0.0.2/", []string{"http://10.0.0.1/"}, false, "", "not a public address"},
		{"named archive by name", "http://intranet.example:8080/web/", []string{"intranet.example:8080"}, false, "intranet.example:8080", ""},
		{"named archive by name, default port", "https://intranet.example/web/", []string{"https://intranet.example"}, false, "intranet.example:443", ""},
		{"allow private", "http://10.0.0.1/", nil, true, "10.0.0.1:80", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var mu sync.Mutex
			var dialled []string
			c := NewClient(ClientOptions{MaxRetries: -1, RatePerHost: -1, AllowPrivate: tc.allowAll, ArchiveHosts: tc.archives,
				DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
					mu.Lock()
					dialled = append(dialled, addr)
					mu.Unlock()
					return nil, errNoNetwork
				},
				LookupIP: func(ctx context.Context, host string) ([]net.IP, error) {
					if ips, ok := names[host]; ok {
						return ips, nil
					}
					return nil, errors.New("test: unknown name " + host)
				}})
			_, _, err := c.Get(context.Background(), tc.url, nil)
			var be *BlockedError
			if tc.dial == "" {
				if !errors.As(err, &be) || !strings.Contains(err.Error(), tc.reason) {
					t.Fatalf("error %v, want a refusal saying %q", err, tc.reason)
				}
				if len(dialled) > 0 {
					t.Fatalf("dialled %v before refusing", dialled)
				}
				if strings.Contains(err.Error(), "secret") {
					t.Errorf("the refusal shows the password: %v", err)
				}
				if st := c.Stats(); st.Retries != 0 {
					t.Errorf("refusal retried %d times", st.Retries)
				}
				return
			}
			if errors.As(err, &be) {
				t.Fatalf("refused: %v", err)
			}
			if len(dialled) == 0 || dialled[0] != tc.dial {
				t.Fatalf("dialled %v, want %s", dialled, tc.dial)
			}
		})
	}
}

// TestClientRefusesRedirectToPrivate: an archive on loopback, named by the
// user, redirects to the cloud metadata address, to another loopback port
// and to a URL with a password; each is refused, and nothing but the
// archive is dialled.
func TestClientRefusesRedirectToPrivate(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, r.URL.Query().Get("to"), http.StatusFound)
	}))
	defer srv.Close()
	archive := strings.TrimPrefix(srv.URL, "http://")
	for _, to := range []string{"http://169.254.169.254/latest/meta-data/", "http://127.0.0.1:1/", "http://localhost/", "http://u:p@" + archive + "/"} {
		t.Run(to, func(t *testing.T) {
			c := NewClient(ClientOptions{RatePerHost: -1, ArchiveHosts: []string{srv.URL},
				DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
					if addr != archive {
						t.Errorf("dialled %s", addr)
						return nil, errNoNetwork
					}
					return (&net.Dialer{}).DialContext(ctx, network, addr)
				}})
			_, _, err := c.Get(context.Background(), srv.URL+"/web/2010/http://x/?to="+to, nil)
			var be *BlockedError
			if !errors.As(err, &be) {
				t.Fatalf("error %v, want a refusal", err)
			}
			if st := c.Stats(); st.Requests != 1 {
				t.Errorf("%d requests sent, want 1 (the archive's redirect)", st.Requests)
			}
		})
	}
}

// TestGuardedDialProxy: the proxy the environment names is dialled even on
// loopback (the transport dials the proxy, not the host requested); other
// loopback ports stay refused.
func TestGuardedDialProxy(t *testing.T) {
	p := newAddressPolicy(false, nil, []string{"http://127.0.0.1:3128"})
	var dialled []string
	dial := guardedDial(p, func(ctx context.Context, network, addr string) (net.Conn, error) {
		dialled = append(dialled, addr)
		return nil, errNoNetwork
	}, func(ctx context.Context, host string) ([]net.IP, error) { return nil, errors.New("test: no lookups") })
	for _, tc := range []struct {
		addr    string
		allowed bool
	}{
		{"127.0.0.1:3128", true},
		{"127.0.0.1:3129", false},
		{"169.254.169.254:80", false},
	} {
		dialled = nil
		_, err := dial(context.Background(), "tcp", tc.addr)
		var be *BlockedError
		if tc.allowed != (len(dialled) == 1) || tc.allowed == errors.As(err, &be) {
			t.Errorf("%s: dialled %v, error %v; want allowed %v", tc.addr, dialled, err, tc.allowed)
		}
	}
}
