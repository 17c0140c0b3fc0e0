package extract

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/flate"
	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zlib"
)

// DefaultMaxBytes is the cap on a decoded payload used when Options.MaxBytes
// (or the max argument of Decode) is not positive: 8 MiB.
const DefaultMaxBytes = 8 << 20

// ErrTooLarge is wrapped by the error Decode returns when the decoded payload
// was cut at the size cap (a decompression bomb or simply a huge page).
var ErrTooLarge = errors.New("decoded payload exceeds size cap")

// ErrUnreadable is wrapped by the error Decode returns when a content coding
// could not be undone at all (one it does not know, such as zstd, or a
// stream nothing of which decodes) on a body that is not text already: the
// bytes it returns are not the page.
var ErrUnreadable = errors.New("the payload cannot be decoded")

// ErrPartial is wrapped by the error Decode returns when the body is cut or
// broken part way (a compressed stream, or chunks, that end early): the
// bytes it returns are the part that decoded.
var ErrPartial = errors.New("only part of the payload could be decoded")

// Decode undoes the transfer and content codings of an archived HTTP body.
//
// It de-chunks when Transfer-Encoding says chunked and the body really is
// chunked (archivers such as pywb keep the header on bodies they already
// de-chunked: when the first chunk-size line is not valid the body passes
// through unchanged), then undoes Content-Encoding gzip, x-gzip, deflate
// (zlib or raw), br and identity, last coding first; a body that declares
// no chunking but is chunked (see undeclaredChunks), or no coding but
// starts with the gzip signature (see undeclaredGzip), is read as what it
// is. The output is capped at max bytes (DefaultMaxBytes when
// max <= 0).
//
// Decode is lenient: when a step fails it keeps what it decoded so far (or
// the bytes it was given when nothing decoded) and goes on, and the returned
// error says what went wrong. The returned bytes are therefore always
// usable, even when the error is not nil.
func Decode(h http.Header, body []byte, max int64) ([]byte, error) {
	if max <= 0 {
		max = DefaultMaxBytes
	}
	var errs []error
	out := body
	if hasToken(h.Values("Transfer-Encoding"), "chunked") {
		d, ok, err := dechunk(out)
		if ok {
			out = d
		}
		if err != nil {
			errs = append(errs, err)
		}
	} else if d, ok := undeclaredChunks(out); ok {
		out = d
	}
	codings := tokens(h.Values("Content-Encoding"))
	if undeclaredGzip(codings, out) {
		codings = []string{"gzip"}
	}
	for i := len(codings) - 1; i >= 0; i-- {
		d, err := decodeContent(codings[i], out, max)
		out = d
		if err != nil {
			errs = append(errs, err)
			if !errors.Is(err, ErrTooLarge) {
				// The bytes are not what the next coding expects any more.
				break
			}
		}
	}
	if int64(len(out)) > max {
		out = out[:max]
		errs = append(errs, fmt.Errorf("extract: payload of %d bytes: %w", len(body), ErrTooLarge))
	}
	return out, errors.Join(errs...)
}

// undeclaredGzip reports whether a body whose header declares no content
// coding (or identity) is gzip all the same: it starts with the gzip
// signature (1f 8b 08), which no text does. A Wayback replays a revisit
// with the revisit record's own headers over the original's body, which
// loses the original's Content-Encoding.
func undeclaredGzip(codings []string, body []byte) bool {
	for _, c := range codings {
		if c != "identity" {
			return false
		}
	}
	return len(body) >= 3 && body[0] == 0x1f && body[1] == 0x8b && body[2] == 8
}

// undeclaredChunks de-chunks a body whose header does not say it is
// chunked when it is all the same (a revisit replayed with its own headers
// over the original's recorded body): its chunks validate to the last
// chunk, or at least one whole chunk holds the gzip signature.
func undeclaredChunks(body []byte) ([]byte, bool) {
	if len(body) < 3 || !isHexDigit(body[0]) {
		return nil, false
	}
	out, complete, err := dechunkFrames(body)
	if complete == 0 || err != nil && !(len(out) >= 3 && out[0] == 0x1f && out[1] == 0x8b && out[2] == 8) {
		return nil, false
	}
	return out, true
}

func isHexDigit(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// tokens splits comma-separated header values into lower-cased tokens.
func tokens(values []string) []string {
	var out []string
	for _, v := range values {
		for t := range strings.SplitSeq(v, ",") {
			t = strings.ToLower(strings.TrimSpace(t))
			if t != "" {
				out = append(out, t)
			}
		}
	}
	return out
}

// hasToken reports whether the comma-separated header values hold tok.
func hasToken(values []string, tok string) bool {
	for _, t := range tokens(values) {
		if t == tok {
			return true
		}
	}
	return false
}

// dechunk decodes an HTTP/1.1 chunked body. ok is false, and the body should
// pass through unchanged, unless at least one whole chunk (size line, data,
// CRLF) or the last chunk validates: a plain body may well start with a
// hex-looking word ("cafe\r\n"). After that, a body cut short or broken
// yields ok with the chunks read so far and an error.
func dechunk(body []byte) (out []byte, ok bool, err error) {
	out, complete, err := dechunkFrames(body)
	if complete == 0 {
		return nil, false, nil
	}
	return out, true, err
}

// dechunkFrames decodes chunks until the last chunk or an error, counting the
// chunks that validated whole (the last chunk included).
func dechunkFrames(body []byte) (out []byte, complete int, err error) {
	rest := body
	out = make([]byte, 0, len(body))
	for {
		line, after, found := bytes.Cut(rest, []byte("\n"))
		if !found {
			if len(bytes.TrimSpace(rest)) == 0 {
				// Last chunk missing: truncated, but everything read is whole.
				return out, complete, errors.New("extract: chunked body ends without last chunk")
			}
			return out, complete, errors.New("extract: chunked body truncated in a chunk-size line")
		}
		size, valid := parseChunkSize(line)
		if !valid {
			return out, complete, errors.New("extract: invalid chunk-size line in chunked body")
		}
		rest = after
		if size == 0 {
			if complete == 0 && len(bytes.TrimSpace(rest)) > 0 {
				// "0" then more text: a plain body that starts with 0.
				return out, 0, errors.New("extract: last chunk first, then data")
			}
			return out, complete + 1, nil // trailers, if any, are ignored
		}
		if size > int64(len(rest)) {
			out = append(out, rest...)
			return out, complete, fmt.Errorf("extract: %w: its chunked body is cut in a chunk", ErrPartial)
		}
		out = append(out, rest[:size]...)
		rest = rest[size:]
		// Chunk data ends with CRLF (LF tolerated).
		switch {
		case bytes.HasPrefix(rest, []byte("\r\n")):
			rest = rest[2:]
		case bytes.HasPrefix(rest, []byte("\n")):
			rest = rest[1:]
		case len(rest) == 0:
			return out, complete + 1, errors.New("extract: chunked body ends without last chunk")
		default:
			return out, complete, errors.New("extract: chunk data not followed by CRLF")
		}
		complete++
	}
}

// parseChunkSize parses a chunk-size line (hex digits, optional chunk
// extensions after ';', optional trailing whitespace; CR already or not yet
// stripped).
func parseChunkSize(line []byte) (int64, bool) {
	line = bytes.TrimRight(line, "\r")
	if i := bytes.IndexByte(line, ';'); i >= 0 {
		line = line[:i]
	}
	line = bytes.TrimRight(line, " \t")
	if len(line) == 0 || len(line) > 15 {
		return 0, false
	}
	var n int64
	for _, c := range line {
		var d byte
		switch {
		case c >= '0' && c <= '9':
			d = c - '0'
		case c >= 'a' && c <= 'f':
			d = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			d = c - 'A' + 10
		default:
			return 0, false
		}
		n = n<<4 | int64(d)
	}
	return n, true
}

// undecoded is the error of a body a coding could not be undone on at all:
// kept as is, and no error, when it is text already (an archiver stored it
// decoded and kept the header), else unreadable.
func undecoded(in []byte, err error) error {
	if ct := http.DetectContentType(in); strings.HasPrefix(ct, "text/") {
		return nil
	}
	return fmt.Errorf("%w: %w", err, ErrUnreadable)
}

// decodeContent undoes one content coding. It returns the input unchanged
// (and an error for unknown codings) when nothing could be decoded.
func decodeContent(coding string, in []byte, max int64) ([]byte, error) {
	var r io.Reader
	var err error
	switch coding {
	case "identity", "":
		return in, nil
	case "gzip", "x-gzip":
		if len(in) < 2 || in[0] != 0x1f || in[1] != 0x8b {
			// Stored already decoded by the archiver: pass through.
			return in, nil
		}
		r, err = gzip.NewReader(bytes.NewReader(in))
	case "deflate":
		if len(in) >= 2 && in[0]&0x0f == 8 && (uint16(in[0])<<8|uint16(in[1]))%31 == 0 {
			r, err = zlib.NewReader(bytes.NewReader(in))
		} else {
			r = flate.NewReader(bytes.NewReader(in))
		}
	case "br":
		r = brotli.NewReader(bytes.NewReader(in))
	default:
		return in, undecoded(in, fmt.Errorf("extract: unsupported content coding %q", coding))
	}
	if err != nil {
		return in, undecoded(in, fmt.Errorf("extract: %s: %w", coding, err))
	}
	var buf bytes.Buffer
	buf.Grow(min(int(max), 4*len(in)+512))
	n, err := io.Copy(&buf, io.LimitReader(r, max+1))
	if err != nil && err != io.EOF {
		if n == 0 {
			return in, undecoded(in, fmt.Errorf("extract: %s: %w", coding, err))
		}
		return buf.Bytes(), fmt.Errorf("extract: %w: its %s stream is cut or broken (%v) after %d bytes decoded", ErrPartial, coding, err, n)
	}
	out := buf.Bytes()
	if int64(len(out)) > max {
		return out[:max], fmt.Errorf("extract: %s: %w (%d bytes)", coding, ErrTooLarge, max)
	}
	return out, nil
}
