package extract

import (
	"bytes"
	"encoding/binary"
	"mime"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/charset"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/unicode"
)

// metaScanLimit is how far into an HTML payload the <meta> charset prescan
// looks. The HTML standard says 1024 bytes; archived pages often put large
// inline styles or scripts first, so we look further, stopping at <body>.
const metaScanLimit = 32 << 10

// Charset names where a charset was found.
const (
	charsetFromBOM    = "bom"
	charsetFromHeader = "header"
	charsetFromMeta   = "meta"
	charsetFromSniff  = "sniff"
)

// toUTF8 decodes an HTML or text payload to UTF-8. contentType is the HTTP
// Content-Type value (may be empty); isHTML enables the <meta> prescan.
// It returns the text, the WHATWG name of the encoding used and where it was
// found ("bom", "header", "meta" or "sniff").
//
// Order, as browsers decode: byte-order mark, HTTP header charset, <meta
// charset> or <meta http-equiv=Content-Type>, then sniffing (UTF-8 when the
// bytes read as UTF-8, windows-1252 otherwise, as browsers do for Western
// pages). Labels follow the WHATWG Encoding standard, so iso-8859-1 and
// us-ascii decode as windows-1252 (a superset for text).
//
// Two defences against declarations that archived pages got wrong, both
// decided by the bytes: a declared UTF-8 that the bytes mostly contradict
// (a legacy page served under a UTF-8 default) is skipped for the next
// source, while a few stray bytes in a UTF-8 page do not make it legacy; and
// a declared legacy charset is overridden by UTF-8 when the bytes are valid
// UTF-8 with multi-byte sequences (a page re-saved as UTF-8 whose meta tag
// still names windows-1256), since legacy text essentially never forms
// valid UTF-8 sequences by chance.
func toUTF8(body []byte, contentType string, isHTML bool) (text []byte, name, from string) {
	if e, n, ok := bomEncoding(body); ok {
		return decodeWith(e, n, body, nil), n, charsetFromBOM
	}
	var u *utf8Shape
	shape := func() *utf8Shape {
		if u == nil {
			u = shapeOf(body)
		}
		return u
	}
	try := func(label string) (encoding.Encoding, string, bool) {
		if label == "" {
			return nil, "", false
		}
		e, n := charset.Lookup(label)
		if e == nil {
			return nil, "", false
		}
		if n == "utf-16le" || n == "utf-16be" {
			// A declared UTF-16 without a BOM on an ASCII-compatible
			// document is a known lie; browsers treat it as UTF-8.
			e, n = unicode.UTF8, "utf-8"
		}
		switch {
		case n == "utf-8" && !shape().plausible():
			return nil, "", false
		case n != "utf-8" && shape().valid():
			e, n = unicode.UTF8, "utf-8"
		}
		return e, n, true
	}
	if contentType != "" {
		if _, params, err := mime.ParseMediaType(contentType); err == nil {
			if e, n, ok := try(params["charset"]); ok {
				return decodeWith(e, n, body, u), n, charsetFromHeader
			}
		} else if e, n, ok := try(charsetParam(contentType)); ok {
			return decodeWith(e, n, body, u), n, charsetFromHeader
		}
	}
	if isHTML {
		if e, n, ok := try(metaCharset(body)); ok {
			return decodeWith(e, n, body, u), n, charsetFromMeta
		}
	}
	if shape().plausible() {
		return decodeWith(unicode.UTF8, "utf-8", body, u), "utf-8", charsetFromSniff
	}
	e, n := charset.Lookup("windows-1252")
	return decodeWith(e, n, body, u), n, charsetFromSniff
}

// utf8Shape counts how the non-ASCII bytes of a payload read as UTF-8.
type utf8Shape struct {
	multi   int // valid multi-byte sequences
	invalid int // bytes that start no valid sequence
}

func shapeOf(b []byte) *utf8Shape {
	var s utf8Shape
	for i := 0; i < len(b); {
		// Eight ASCII bytes at a time.
		for i+8 <= len(b) && binary.LittleEndian.Uint64(b[i:])&0x8080808080808080 == 0 {
			i += 8
		}
		if i >= len(b) {
			break
		}
		if b[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size <= 1 {
			s.invalid++
			i++
			continue
		}
		s.multi++
		i += size
	}
	return &s
}

// valid reports valid UTF-8 with multi-byte sequences: UTF-8, not a legacy
// charset, whatever is declared.
func (s *utf8Shape) valid() bool { return s.invalid == 0 && s.multi > 0 }

// plausible reports bytes that read as UTF-8 but for a few stray bytes (at
// most one in five non-ASCII sequences), pure ASCII included: a page a
// browser shows as UTF-8 with a replacement character here and there. Legacy
// text reads as next to no valid sequences.
func (s *utf8Shape) plausible() bool { return s.invalid*4 <= s.multi }

// charsetParam finds charset=... in a Content-Type value that
// mime.ParseMediaType rejected (malformed headers are common in archives).
func charsetParam(ct string) string {
	// ASCII-only lower-casing keeps byte offsets (strings.ToLower turns an
	// invalid byte into 3-byte U+FFFD, and the index into ct went wrong).
	lower := []byte(ct)
	for k, c := range lower {
		if 'A' <= c && c <= 'Z' {
			lower[k] = c + 'a' - 'A'
		}
	}
	i := bytes.Index(lower, []byte("charset="))
	if i < 0 {
		return ""
	}
	v := ct[i+len("charset="):]
	if j := strings.IndexAny(v, ";, "); j >= 0 {
		v = v[:j]
	}
	return strings.Trim(v, `"'`)
}

// bomEncoding recognises a UTF-8 or UTF-16 byte-order mark.
func bomEncoding(b []byte) (encoding.Encoding, string, bool) {
	switch {
	case bytes.HasPrefix(b, []byte{0xEF, 0xBB, 0xBF}):
		return unicode.UTF8BOM, "utf-8", true
	case bytes.HasPrefix(b, []byte{0xFE, 0xFF}):
		return unicode.UTF16(unicode.BigEndian, unicode.ExpectBOM), "utf-16be", true
	case bytes.HasPrefix(b, []byte{0xFF, 0xFE}):
		return unicode.UTF16(unicode.LittleEndian, unicode.ExpectBOM), "utf-16le", true
	}
	return nil, "", false
}

// decodeWith converts b to UTF-8 with e; invalid sequences become U+FFFD.
// u, when not nil, is b's shapeOf, which says whether b is valid UTF-8.
func decodeWith(e encoding.Encoding, name string, b []byte, u *utf8Shape) []byte {
	if name == "utf-8" {
		if bytes.HasPrefix(b, []byte{0xEF, 0xBB, 0xBF}) {
			b = b[3:]
		}
		if u != nil && u.invalid == 0 || u == nil && utf8.Valid(b) {
			return b
		}
		return bytes.ToValidUTF8(b, []byte("\uFFFD"))
	}
	out, err := e.NewDecoder().Bytes(b)
	if err != nil {
		return bytes.ToValidUTF8(b, []byte("\uFFFD"))
	}
	return out
}

// metaCharset returns the charset label declared by the first <meta charset>
// or <meta http-equiv="Content-Type" content="...charset=..."> within the
// first metaScanLimit bytes, stopping at <body>. "" when none.
func metaCharset(body []byte) string {
	if len(body) > metaScanLimit {
		body = body[:metaScanLimit]
	}
	z := html.NewTokenizer(bytes.NewReader(body))
	for {
		switch z.Next() {
		case html.ErrorToken:
			return ""
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			switch string(name) {
			case "body":
				return ""
			case "meta":
				var cs, content string
				var httpEquivCT bool
				for hasAttr {
					var k, v []byte
					k, v, hasAttr = z.TagAttr()
					switch string(k) {
					case "charset":
						cs = string(v)
					case "http-equiv":
						httpEquivCT = strings.EqualFold(strings.TrimSpace(string(v)), "content-type")
					case "content":
						content = string(v)
					}
				}
				if cs = strings.TrimSpace(cs); cs != "" {
					return cs
				}
				if httpEquivCT {
					if c := charsetParam(content); c != "" {
						return c
					}
				}
			}
		}
	}
}
