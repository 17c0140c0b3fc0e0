package remote

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"strings"
)

// What the client refuses to fetch (issue 23 item 7: server-side request
// forgery). A TimeMap, a CDX server or a redirect names the URLs fetched
// next; one that points at this machine, the local network or a cloud
// metadata service (169.254.169.254) would make the tool fetch what the user
// never pointed at, and put it in the reports. So the Client refuses:
//
//   - URLs that carry user information (user:password@host);
//   - hosts on a non-public address: loopback, private (RFC 1918, fc00::/7),
//     link-local, unspecified, multicast, CGNAT (100.64.0.0/10) and the
//     other special-purpose ranges, whether given as an IP literal or as a
//     DNS name resolving to one (checked when dialling, on the addresses the
//     name resolves to, which are then the ones dialled);
//
// unless ClientOptions.AllowPrivate is set, or the URL's host (and port) is
// one of ClientOptions.ArchiveHosts: the archives the user named, which may
// themselves be on such an address (a local pywb, an intranet Wayback).
// That exception is per host and port, not for all non-public addresses.

// BlockedError is the error of a request the Client refused to send.
type BlockedError struct {
	// URL is the URL refused.
	URL string
	// Reason says why.
	Reason   string
	userInfo bool
}

// Error says which URL was refused and why.
func (e *BlockedError) Error() string {
	if e.userInfo {
		return fmt.Sprintf("refused %s: %s", e.URL, e.Reason)
	}
	return fmt.Sprintf("refused %s: %s (--allow-private fetches it)", e.URL, e.Reason)
}

// addressPolicy decides which hosts and addresses may be contacted.
type addressPolicy struct {
	allowAll bool
	hosts    map[string]bool // host:port, lower case, default port filled in
	proxies  map[string]bool // the proxies of the environment, dialled as they are
}

func newAddressPolicy(allowAll bool, archives, proxies []string) *addressPolicy {
	p := &addressPolicy{allowAll: allowAll, hosts: map[string]bool{}, proxies: map[string]bool{}}
	for _, a := range archives {
		if k := hostKey(a); k != "" {
			p.hosts[k] = true
		}
	}
	for _, a := range proxies {
		if k := hostKey(a); k != "" {
			p.proxies[k] = true
		}
	}
	return p
}

// hostKey returns host:port of a URL or of a host[:port], the port filled
// in from the scheme (80 when none is known), lower-cased; "" when there
// is no host.
func hostKey(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	if !strings.Contains(s, "://") {
		s = "http://" + s
	}
	u, err := url.Parse(s)
	if err != nil || u.Hostname() == "" {
		return ""
	}
	return urlHostKey(u)
}

func urlHostKey(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = "80"
		if strings.EqualFold(u.Scheme, "https") {
			port = "443"
		}
	}
	return net.JoinHostPort(strings.ToLower(strings.TrimSuffix(u.Hostname(), ".")), port)
}

// archive reports whether addr (host:port as dialled) is one of the
// archives named, or a proxy of the environment (HTTP_PROXY, HTTPS_PROXY:
// the user's choice, often on loopback; through a proxy, only the URL check
// applies to the hosts requested, since the proxy resolves them).
func (p *addressPolicy) archive(addr string) bool {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	k := net.JoinHostPort(strings.ToLower(strings.TrimSuffix(host, ".")), port)
	return p.hosts[k] || p.proxies[k]
}

// envProxies are the proxies the environment names, as ProxyFromEnvironment
// reads them.
func envProxies() []string {
	var out []string
	for _, k := range []string{"HTTP_PROXY", "http_proxy", "HTTPS_PROXY", "https_proxy"} {
		if v := os.Getenv(k); v != "" {
			out = append(out, v)
		}
	}
	return out
}

// checkURL refuses, before anything is sent, a URL with user information
// or whose host is an IP literal of a non-public address.
func (p *addressPolicy) checkURL(u *url.URL) error {
	if u.User != nil {
		return &BlockedError{URL: u.Redacted(), Reason: "the URL carries user information", userInfo: true}
	}
	if p.allowAll || p.hosts[urlHostKey(u)] {
		return nil
	}
	if ip, err := netip.ParseAddr(strings.Trim(u.Hostname(), "[]")); err == nil && !publicAddr(ip) {
		return &BlockedError{URL: u.String(), Reason: fmt.Sprintf("%s is not a public address", ip)}
	}
	if h := strings.ToLower(strings.TrimSuffix(u.Hostname(), ".")); h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return &BlockedError{URL: u.String(), Reason: h + " is this machine"}
	}
	return nil
}

// publicAddr reports whether ip may be contacted without leave: not
// loopback, private, link-local, unspecified, multicast or another
// special-purpose range.
func publicAddr(ip netip.Addr) bool {
	ip = ip.Unmap()
	if !ip.IsValid() || ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() ||
		ip.IsInterfaceLocalMulticast() || ip.IsMulticast() || ip.IsUnspecified() {
		return false
	}
	for _, p := range specialPrefixes {
		if p.Contains(ip) {
			return false
		}
	}
	return true
}

var specialPrefixes = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),
	netip.MustParsePrefix("100.64.0.0/10"),  // carrier-grade NAT
	netip.MustParsePrefix("192.0.0.0/24"),   // IETF protocol assignments
	netip.MustParsePrefix("198.18.0.0/15"),  // benchmarking
	netip.MustParsePrefix("240.0.0.0/4"),    // reserved, broadcast
	netip.MustParsePrefix("64:ff9b::/96"),   // NAT64 (maps IPv4, private included)
	netip.MustParsePrefix("64:ff9b:1::/48"), // local-use NAT64
	netip.MustParsePrefix("2002::/16"),      // 6to4 (maps IPv4)
	netip.MustParsePrefix("2001::/32"),      // Teredo
	netip.MustParsePrefix("100::/64"),       // discard-only
	netip.MustParsePrefix("fec0::/10"),      // site-local (deprecated)
}

// guard is the outermost layer of a Client: it refuses URLs checkURL
// refuses, before the cache or the network is asked.
type guard struct {
	next   http.RoundTripper
	policy *addressPolicy
}

func (g *guard) RoundTrip(req *http.Request) (*http.Response, error) {
	if err := g.policy.checkURL(req.URL); err != nil {
		return nil, err
	}
	return g.next.RoundTrip(req)
}

// dialFunc dials a network address.
type dialFunc func(ctx context.Context, network, addr string) (net.Conn, error)

// lookupFunc resolves a host name.
type lookupFunc func(ctx context.Context, host string) ([]net.IP, error)

// guardedDial returns a dial that resolves the host itself and dials only
// public addresses (any address for the archives named, or with allowAll):
// the address checked is the address dialled, so a name that resolves to a
// private address (or is made to, between two lookups) is refused.
func guardedDial(p *addressPolicy, dial dialFunc, lookup lookupFunc) dialFunc {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		if p.allowAll || p.archive(addr) {
			return dial(ctx, network, addr)
		}
		host, port, err := net.SplitHostPort(addr)
		if err != nil {
			return nil, err
		}
		var ips []netip.Addr
		if ip, err := netip.ParseAddr(host); err == nil {
			ips = []netip.Addr{ip}
		} else {
			found, err := lookup(ctx, host)
			if err != nil {
				return nil, err
			}
			for _, f := range found {
				if ip, ok := netip.AddrFromSlice(f); ok {
					ips = append(ips, ip.Unmap())
				}
			}
		}
		var public []netip.Addr
		for _, ip := range ips {
			if publicAddr(ip) {
				public = append(public, ip)
			}
		}
		if len(public) == 0 {
			if len(ips) == 0 {
				return nil, fmt.Errorf("%s: no address", host)
			}
			return nil, &BlockedError{URL: addr, Reason: fmt.Sprintf("%s resolves to %s, not a public address", host, ips[0])}
		}
		var lastErr error
		for _, ip := range public {
			c, err := dial(ctx, network, net.JoinHostPort(ip.String(), port))
			if err == nil {
				return c, nil
			}
			lastErr = err
		}
		return nil, lastErr
	}
}

// blocked reports whether err is a refusal.
func blocked(err error) bool {
	var b *BlockedError
	return errors.As(err, &b)
}
