package timemap

import (
	"bytes"
	"net/url"
	"strings"
	"time"
)

// SplitURIM splits a Wayback-style URI-M
// ("<prefix>/<timestamp><modifier>/<URI-R>") into the text before the
// timestamp (ending in '/'), the timestamp (4 to 17 digits), the modifier
// (such as "id_", "im_", "" for none) and the URI-R as written.
func SplitURIM(uriM string) (prefix, ts, mod, rest string, ok bool) {
	s := CleanURI(uriM)
	start := 0
	if i := strings.Index(s, "://"); i > 0 && isScheme(strings.ToLower(s[:i])) {
		j := strings.IndexByte(s[i+3:], '/')
		if j < 0 {
			return "", "", "", "", false
		}
		start = i + 3 + j
	} else if !strings.HasPrefix(s, "/") {
		return "", "", "", "", false
	}
	for pos := start; pos < len(s) && s[pos] == '/'; {
		end := strings.IndexByte(s[pos+1:], '/')
		if end < 0 {
			break
		}
		seg := s[pos+1 : pos+1+end]
		if strings.ContainsAny(seg, "?#") {
			break
		}
		if t, m, isTS := timestampSegment(seg); isTS && looksLikeURIR(s[pos+2+end:]) {
			return s[:pos+1], t, m, s[pos+2+end:], true
		}
		pos += 1 + end
	}
	return "", "", "", "", false
}

// timestampSegment reports whether seg is a timestamp with an optional
// modifier: 4 to 17 digits, then nothing or two lower-case letters and '_'.
func timestampSegment(seg string) (ts, mod string, ok bool) {
	n := 0
	for n < len(seg) && seg[n] >= '0' && seg[n] <= '9' {
		n++
	}
	if n < 4 || n > 17 {
		return "", "", false
	}
	mod = seg[n:]
	if mod != "" && !(len(mod) == 3 && mod[0] >= 'a' && mod[0] <= 'z' && mod[1] >= 'a' && mod[1] <= 'z' && mod[2] == '_') {
		return "", "", false
	}
	return seg[:n], mod, true
}

// looksLikeURIR reports whether s starts like a URI-R embedded in a
// URI-M: a scheme (plain or percent-encoded colon) or a host name with a dot.
func looksLikeURIR(s string) bool {
	if s == "" {
		return false
	}
	l := strings.ToLower(s)
	n := 0
	for n < len(l) && (l[n] >= 'a' && l[n] <= 'z' || n > 0 && (l[n] >= '0' && l[n] <= '9' || l[n] == '+' || l[n] == '-' || l[n] == '.')) {
		n++
	}
	if n > 0 && (strings.HasPrefix(l[n:], ":") || strings.HasPrefix(l[n:], "%3a")) {
		return true
	}
	host := l
	if i := strings.IndexAny(host, "/?:#"); i >= 0 {
		host = host[:i]
	}
	if !strings.Contains(host, ".") || strings.HasPrefix(host, ".") || strings.HasSuffix(host, ".") {
		return false
	}
	for i := 0; i < len(host); i++ {
		c := host[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '.' || c == '-') {
			return false
		}
	}
	return true
}

// WithModifier returns uriM with its modifier replaced by mod ("" for
// none), or uriM unchanged when it has no timestamp segment.
func WithModifier(uriM, mod string) string {
	prefix, ts, _, rest, ok := SplitURIM(uriM)
	if !ok {
		return uriM
	}
	return prefix + ts + mod + "/" + rest
}

// RawURIM returns the URI-M that asks a Wayback-style archive (Wayback,
// pywb, Archive-It) for the memento as captured, without banner or
// rewriting: the "id_" modifier after the timestamp, in place of any other
// ("im_", "js_", "cs_", "if_", "mp_", "oe_", ...). A URI without a timestamp
// segment is returned unchanged.
//
//	/web/20140103030321/http://x/    -> /web/20140103030321id_/http://x/
//	/web/20140103030321im_/http://x/ -> /web/20140103030321id_/http://x/
func RawURIM(uriM string) string { return WithModifier(uriM, "id_") }

// ParseURIM recovers the URI-R and the 14-digit timestamp from a
// Wayback-style URI-M, rewritten or not: "/web/20140103030321im_/http://x/y",
// "/wayback/20140103030321/https://x", Archive-It's
// "https://wayback.archive-it.org/1068/20100103202051/http://x/". Short
// timestamps are padded ("2014" -> "20140101000000"), longer ones cut to 14
// digits; a percent-encoded URI-R is decoded, "http:/x" gets its second
// slash back, and a URI-R without a scheme gets "http://". ok is false when
// uriM has no timestamp segment followed by a URI-R.
func ParseURIM(uriM string) (urir, ts string, ok bool) {
	_, t, _, rest, ok := SplitURIM(uriM)
	if !ok {
		return "", "", false
	}
	if len(t) > 14 {
		t = t[:14]
	}
	t += "00000101000000"[len(t):]
	if _, err := parseTimestamp(t); err != nil {
		return "", "", false
	}
	l := strings.ToLower(rest)
	if i := strings.Index(l, "%3a"); i > 0 && !strings.Contains(l[:i], "/") {
		if d, err := url.PathUnescape(rest); err == nil {
			rest = d
		}
	}
	i := strings.IndexByte(rest, ':')
	switch {
	case i <= 0 || !isScheme(strings.ToLower(rest[:i])) || looksLikePort(rest[i+1:]):
		rest = "http://" + rest
	case strings.EqualFold(rest[:i], "http") || strings.EqualFold(rest[:i], "https"):
		after := rest[i+1:]
		switch {
		case strings.HasPrefix(after, "//"):
		case strings.HasPrefix(after, "/"):
			rest = rest[:i] + ":/" + after
		default:
			rest = rest[:i] + "://" + after
		}
	}
	return rest, t, true
}

// ParseTimestamp parses a 4- to 14-digit timestamp as CDX lines and URI-Ms
// write it (missing digits are the earliest value), in UTC.
func ParseTimestamp(ts string) (time.Time, error) { return parseTimestamp(ts) }

// MediaType returns the media type of a Content-Type value without
// parameters, lower-cased and trimmed ("" when empty).
func MediaType(contentType string) string { return mimeType(contentType) }

// IsHTTPURI reports whether uri is an http or https URI (case-insensitive).
func IsHTTPURI(uri string) bool { return isHTTPURI(uri) }

// NormDigest returns a payload digest without its "sha1:" label, upper
// case, so that digests written either way compare equal.
func NormDigest(d string) string { return normDigest(d) }

// PayloadDigest returns "sha1:" and the base32 SHA-1 of body, the form of
// WARC-Payload-Digest and CDX digests.
func PayloadDigest(body []byte) string {
	d, _ := sha1Base32(bytes.NewReader(body))
	return d
}

// HTTPDate formats t as an RFC 1123 date in GMT, as Memento datetimes and
// Accept-Datetime are written.
func HTTPDate(t time.Time) string { return httpDate(t) }
