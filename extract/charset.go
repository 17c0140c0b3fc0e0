package extract

import (
	"bytes"
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
// Order: byte-order mark, HTTP header charset, <meta charset> or <meta
// http-equiv=Content-Type>, then sniffing (valid UTF-8 is UTF-8, anything
// else windows-1252, as browsers do for Western pages). A declared UTF-8 that
// the bytes contradict is skipped in favour of the next source. Labels follow
// the WHATWG Encoding standard, so iso-8859-1 and us-ascii decode as
// windows-1252 (a superset for text).
func toUTF8(body []byte, contentType string, isHTML bool) (text []byte, name, from string) {
	if e, n, ok := bomEncoding(body); ok {
		return decodeWith(e, n, body), n, charsetFromBOM
	}
	validUTF8 := -1 // unknown
	isValid := func() bool {
		if validUTF8 < 0 {
			validUTF8 = 0
			if utf8.Valid(body) {
				validUTF8 = 1
			}
		}
		return validUTF8 == 1
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
		if n == "utf-8" && !isValid() {
			return nil, "", false
		}
		return e, n, true
	}
	if contentType != "" {
		if _, params, err := mime.ParseMediaType(contentType); err == nil {
			if e, n, ok := try(params["charset"]); ok {
				return decodeWith(e, n, body), n, charsetFromHeader
			}
		} else if e, n, ok := try(charsetParam(contentType)); ok {
			return decodeWith(e, n, body), n, charsetFromHeader
		}
	}
	if isHTML {
		if e, n, ok := try(metaCharset(body)); ok {
			return decodeWith(e, n, body), n, charsetFromMeta
		}
	}
	if isValid() {
		return body, "utf-8", charsetFromSniff
	}
	e, n := charset.Lookup("windows-1252")
	return decodeWith(e, n, body), n, charsetFromSniff
}

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
func decodeWith(e encoding.Encoding, name string, b []byte) []byte {
	if name == "utf-8" {
		if bytes.HasPrefix(b, []byte{0xEF, 0xBB, 0xBF}) {
			b = b[3:]
		}
		if utf8.Valid(b) {
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
