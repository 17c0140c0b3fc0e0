package timemap

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"net/http"
	"net/textproto"
	"strconv"
	"strings"
)

// maxHeadBytes bounds the HTTP head read by the lenient parser.
const maxHeadBytes = 256 << 10

// HTTPHead is a leniently parsed HTTP response head (status line and header
// fields). Unlike net/http it accepts what real archives hold: "HTTPX/1.1" or
// other odd protocol names, a missing reason phrase, "Content-Length: -1",
// lines ending in LF, CRLF or CR CR LF, and header lines without a colon
// (ignored).
type HTTPHead struct {
	// Proto is the protocol token of the status line as written ("HTTP/1.1").
	Proto string
	// Status is the status code, 0 when the status line has none.
	Status int
	// Reason is the reason phrase, possibly empty.
	Reason string
	// Header holds the header fields with canonical keys, values trimmed.
	Header http.Header
}

// errNoHTTPHead is returned when a block does not start with an HTTP status line.
var errNoHTTPHead = errors.New("no HTTP status line")

// parseHTTPHead reads an HTTP response head from br, leaving br at the first
// byte of the body. It fails only when the block does not begin like a
// status line ("HTTP" within the first bytes after optional white space).
func parseHTTPHead(br *bufio.Reader) (*HTTPHead, error) {
	// Skip leading blank lines / white space.
	for {
		b, err := br.Peek(1)
		if err != nil {
			return nil, errNoHTTPHead
		}
		if b[0] == '\r' || b[0] == '\n' || b[0] == ' ' || b[0] == '\t' {
			_, _ = br.Discard(1)
			continue
		}
		break
	}
	if p, _ := br.Peek(4); !bytes.EqualFold(p, []byte("HTTP")) {
		return nil, errNoHTTPHead
	}
	h := &HTTPHead{Header: make(http.Header)}
	read := 0
	first := true
	var lastKey string
	for {
		line, err := readHeadLine(br, &read)
		if err != nil && len(line) == 0 {
			if first {
				return nil, errNoHTTPHead
			}
			return h, nil // head without terminating blank line: body empty
		}
		if first {
			first = false
			parseStatusLine(h, line)
			continue
		}
		if len(line) == 0 {
			return h, nil
		}
		if line[0] == ' ' || line[0] == '\t' {
			if lastKey != "" {
				vs := h.Header[lastKey]
				vs[len(vs)-1] += " " + strings.TrimSpace(line)
			}
			continue
		}
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		k = strings.TrimSpace(k)
		if k == "" || strings.ContainsAny(k, " \t") {
			continue
		}
		lastKey = textproto.CanonicalMIMEHeaderKey(k)
		h.Header[lastKey] = append(h.Header[lastKey], strings.TrimSpace(v))
		if read > maxHeadBytes {
			return h, nil
		}
		if err != nil {
			return h, nil
		}
	}
}

// readHeadLine reads one line ending in LF, CRLF or CR CR LF and returns it
// without its line end.
func readHeadLine(br *bufio.Reader, read *int) (string, error) {
	line, err := br.ReadSlice('\n')
	for err == bufio.ErrBufferFull { // very long line: keep the start
		var more []byte
		more, err = br.ReadSlice('\n')
		line = append(append([]byte(nil), line...), more...)
		if len(line) > maxHeadBytes {
			break
		}
	}
	*read += len(line)
	line = bytes.TrimRight(line, "\r\n")
	return string(line), err
}

func parseStatusLine(h *HTTPHead, line string) {
	fields := strings.Fields(line)
	if len(fields) == 0 {
		return
	}
	h.Proto = fields[0]
	if len(fields) > 1 {
		if n, err := strconv.Atoi(fields[1]); err == nil && n >= 0 && n < 1000 {
			h.Status = n
		}
	}
	if len(fields) > 2 {
		_, rest, _ := strings.Cut(strings.TrimSpace(line), fields[1])
		h.Reason = strings.TrimSpace(rest)
	}
}

// mimeType returns the media type of a Content-Type value without
// parameters, lower-cased and trimmed ("" when empty).
func mimeType(ct string) string {
	if i := strings.IndexByte(ct, ';'); i >= 0 {
		ct = ct[:i]
	}
	return strings.ToLower(strings.TrimSpace(ct))
}

// limitedReader caps r at n bytes (n <= 0 means no cap).
func limitedReader(r io.Reader, n int64) io.Reader {
	if n <= 0 {
		return r
	}
	return io.LimitReader(r, n)
}
