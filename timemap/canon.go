package timemap

import (
	"fmt"
	"sort"
	"strings"

	"golang.org/x/net/idna"
)

// CanonMode selects how URI-Rs are turned into the keys that group captures
// into TimeMaps.
type CanonMode int

const (
	// CanonSURT is the default: a Wayback/pywb-style SURT key such as
	// "org,example)/path?a=1&b=2" (scheme, leading "www." and "www<digits>."
	// dropped, lower-cased, default port dropped, query keys sorted, fragment
	// dropped).
	CanonSURT CanonMode = iota
	// CanonNone keeps the URI exactly as recorded (angle brackets and
	// surrounding space removed).
	CanonNone
)

// String returns the name of the mode as ParseCanonMode accepts it.
func (m CanonMode) String() string {
	switch m {
	case CanonSURT:
		return "surt"
	case CanonNone:
		return "none"
	}
	return fmt.Sprintf("CanonMode(%d)", int(m))
}

// ParseCanonMode parses a --canonicalize value: "surt" (or "" or "default")
// and "none" (or "exact").
func ParseCanonMode(s string) (CanonMode, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "surt", "default", "wayback":
		return CanonSURT, nil
	case "none", "exact", "off":
		return CanonNone, nil
	}
	return CanonSURT, fmt.Errorf("timemap: unknown canonicalization mode %q (want surt or none)", s)
}

// CleanURI removes the angle brackets that some writers (wget) put around
// WARC-Target-URI values, and surrounding white space.
func CleanURI(uri string) string {
	uri = strings.TrimSpace(uri)
	if len(uri) >= 2 && uri[0] == '<' && uri[len(uri)-1] == '>' {
		uri = strings.TrimSpace(uri[1 : len(uri)-1])
	}
	return uri
}

// Canonicalize returns the key of uri under mode. In CanonSURT mode an
// http(s) URI (or one without a scheme, taken as http) becomes a SURT key as
// Wayback and pywb build it: host labels reversed and comma-joined, scheme,
// user info, leading "www."/"www<digits>." and the default port dropped, a
// trailing slash of a non-root path dropped, the whole key lower-cased, query parameters sorted, an empty query and the
// fragment dropped. Other schemes (dns:, mailto:, ...) are only lower-cased.
// A URI that cannot be parsed is returned lower-cased.
func Canonicalize(uri string, mode CanonMode) string {
	uri = CleanURI(uri)
	if mode == CanonNone {
		return uri
	}
	return surtKey(uri)
}

func surtKey(raw string) string {
	s := raw
	lower := strings.ToLower(s)
	scheme := ""
	if i := strings.Index(lower, "://"); i > 0 && isScheme(lower[:i]) {
		scheme = lower[:i]
		s = s[i+3:]
	} else if i := strings.IndexByte(lower, ':'); i > 0 && isScheme(lower[:i]) && !looksLikePort(lower[i+1:]) {
		// dns:, mailto:, urn: ... : no authority.
		return strings.ToLower(raw)
	} else {
		scheme = "http"
	}
	if scheme != "http" && scheme != "https" {
		return strings.ToLower(raw)
	}
	if i := strings.IndexByte(s, '#'); i >= 0 {
		s = s[:i]
	}
	authority, rest := s, ""
	if i := strings.IndexAny(s, "/?"); i >= 0 {
		authority, rest = s[:i], s[i:]
	}
	if i := strings.LastIndexByte(authority, '@'); i >= 0 {
		authority = authority[i+1:]
	}
	host, port := authority, ""
	if strings.HasPrefix(host, "[") { // IPv6 literal
		if j := strings.IndexByte(host, ']'); j > 0 {
			host, port = host[:j+1], strings.TrimPrefix(host[j+1:], ":")
		}
	} else if i := strings.LastIndexByte(host, ':'); i >= 0 {
		host, port = host[:i], host[i+1:]
	}
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	if hasNonASCII(host) {
		if a, err := idna.ToASCII(host); err == nil {
			host = a
		}
	}
	if (port == "80" && scheme == "http") || (port == "443" && scheme == "https") || port == "" {
		port = ""
	}
	host = stripWWW(host)
	path, query := rest, ""
	if i := strings.IndexByte(rest, '?'); i >= 0 {
		path, query = rest[:i], rest[i+1:]
	}
	if path == "" {
		path = "/"
	}
	if len(path) > 1 && strings.HasSuffix(path, "/") {
		path = strings.TrimRight(path, "/") // as surt's strip_trailing_slash_unless_empty
		if path == "" {
			path = "/"
		}
	}
	var b strings.Builder
	b.Grow(len(raw) + 4)
	if isIP(host) || strings.HasPrefix(host, "[") {
		b.WriteString(host)
	} else {
		labels := strings.Split(host, ".")
		for i := len(labels) - 1; i >= 0; i-- {
			b.WriteString(labels[i])
			if i > 0 {
				b.WriteByte(',')
			}
		}
	}
	if port != "" {
		b.WriteByte(':')
		b.WriteString(port)
	}
	b.WriteByte(')')
	b.WriteString(path)
	if query != "" {
		params := strings.Split(query, "&")
		kept := params[:0]
		for _, p := range params {
			if p != "" {
				kept = append(kept, p)
			}
		}
		sort.SliceStable(kept, func(i, j int) bool {
			ki, vi, _ := strings.Cut(kept[i], "=")
			kj, vj, _ := strings.Cut(kept[j], "=")
			if ki != kj {
				return ki < kj
			}
			return vi < vj
		})
		if len(kept) > 0 {
			b.WriteByte('?')
			b.WriteString(strings.Join(kept, "&"))
		}
	}
	return strings.ToLower(b.String())
}

func isScheme(s string) bool {
	if s == "" || !(s[0] >= 'a' && s[0] <= 'z') {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.') {
			return false
		}
	}
	return true
}

// looksLikePort reports whether s (what follows "host:") starts with a port
// number, as in "example.com:8080/path".
func looksLikePort(s string) bool {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return n > 0 && (n == len(s) || s[n] == '/' || s[n] == '?' || s[n] == '#')
}

func stripWWW(host string) string {
	if !strings.HasPrefix(host, "www") {
		return host
	}
	i := 3
	for i < len(host) && host[i] >= '0' && host[i] <= '9' {
		i++
	}
	if i < len(host) && host[i] == '.' && strings.Contains(host[i+1:], ".") {
		return host[i+1:]
	}
	if i < len(host) && host[i] == '.' && !strings.Contains(host[i+1:], ".") && host[i+1:] != "" {
		// "www.com": keep as is, it is the registrable name.
		return host
	}
	return host
}

func isIP(host string) bool {
	if host == "" {
		return false
	}
	for i := 0; i < len(host); i++ {
		c := host[i]
		if !(c >= '0' && c <= '9' || c == '.') {
			return false
		}
	}
	return strings.Count(host, ".") == 3
}

func hasNonASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return true
		}
	}
	return false
}

// isHTTPURI reports whether uri is an http or https URI (case-insensitive).
func isHTTPURI(uri string) bool {
	if len(uri) < 7 {
		return false
	}
	l := strings.ToLower(uri[:min(len(uri), 8)])
	return strings.HasPrefix(l, "http://") || strings.HasPrefix(l, "https://")
}
