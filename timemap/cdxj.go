package timemap

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"iter"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// WriteCDXJ writes captures as a pywb-compatible CDXJ index, one line per
// capture: "surtkey timestamp14 {json}" with the JSON fields url, mime,
// status, digest (without its "sha1:" label), length, offset and filename
// (the base name, as pywb writes it), values as strings. Revisits get mime
// "warc/revisit" and no status, as pywb indexes them. A record inside a
// shared gzip member (Location.MemberOffset) gets an extra "member_offset"
// field, which pywb ignores. Captures must come in key order (as
// Index.Captures yields them) for the output to be sorted.
func WriteCDXJ(w io.Writer, captures iter.Seq[Capture]) error {
	bw := bufio.NewWriter(w)
	var line []byte
	for c := range captures {
		line = appendCDXJ(line[:0], c)
		if _, err := bw.Write(line); err != nil {
			return fmt.Errorf("timemap: writing CDXJ: %w", err)
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("timemap: writing CDXJ: %w", err)
	}
	return nil
}

func appendCDXJ(b []byte, c Capture) []byte {
	b = append(b, c.Key...)
	b = append(b, ' ')
	b = append(b, c.Timestamp14()...)
	b = append(b, ` {"url": `...)
	b = appendJSONString(b, c.URIR)
	field := func(name, v string) {
		b = append(b, `, "`...)
		b = append(b, name...)
		b = append(b, `": `...)
		b = appendJSONString(b, v)
	}
	mime := c.MIME
	if c.Revisit {
		mime = "warc/revisit"
	}
	if mime == "" {
		mime = "unk"
	}
	field("mime", mime)
	if !c.Revisit && c.Status != 0 {
		field("status", strconv.Itoa(c.Status))
	}
	if c.Digest != "" {
		field("digest", normDigestLabel(c.Digest))
	}
	field("length", strconv.FormatInt(c.Loc.Length, 10))
	field("offset", strconv.FormatInt(c.Loc.Offset, 10))
	if c.Loc.MemberOffset != 0 {
		field("member_offset", strconv.FormatInt(c.Loc.MemberOffset, 10))
	}
	if c.Loc.File != "" {
		// Remote captures have no file ("." would be read back as one).
		field("filename", filepath.Base(c.Loc.File))
	}
	return append(b, "}\n"...)
}

// appendJSONString appends s as a JSON string, without escaping HTML
// characters (strconv.Quote's escapes such as \x7f are not JSON). Invalid
// UTF-8 becomes U+FFFD, as JSON has no way to write raw bytes.
func appendJSONString(b []byte, s string) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return append(b, bytes.TrimSuffix(buf.Bytes(), []byte("\n"))...)
}

// normDigestLabel strips a "sha1:" label (pywb writes bare base32 SHA-1).
func normDigestLabel(d string) string {
	if l, v, ok := strings.Cut(d, ":"); ok && strings.EqualFold(l, "sha1") {
		return v
	}
	return d
}

// ReadCDXJ reads a CDXJ index (as WriteCDXJ or pywb write it) into captures.
// File names are resolved against dir. The URL key of each line is kept as
// Capture.Key; Revisit is set for mime "warc/revisit" (Payload left zero).
// Blank lines and lines starting with '!' or ' ' (headers) are skipped; a
// malformed line is an error naming its line number.
func ReadCDXJ(r io.Reader, dir string) iter.Seq2[Capture, error] {
	return func(yield func(Capture, error) bool) {
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 64<<10), 16<<20)
		n := 0
		for sc.Scan() {
			n++
			line := strings.TrimRight(sc.Text(), "\r")
			if line == "" || line[0] == '!' || line[0] == ' ' {
				continue
			}
			c, err := parseCDXJLine(line, dir)
			if err != nil {
				if !yield(Capture{}, fmt.Errorf("timemap: CDXJ line %d: %w", n, err)) {
					return
				}
				continue
			}
			if !yield(c, nil) {
				return
			}
		}
		if err := sc.Err(); err != nil {
			yield(Capture{}, fmt.Errorf("timemap: CDXJ line %d: %w", n+1, err))
		}
	}
}

func parseCDXJLine(line, dir string) (Capture, error) {
	key, rest, ok := strings.Cut(line, " ")
	if !ok {
		return Capture{}, fmt.Errorf("no timestamp")
	}
	ts, js, ok := strings.Cut(rest, " ")
	if !ok || !strings.HasPrefix(strings.TrimSpace(js), "{") {
		return Capture{}, fmt.Errorf("no JSON block")
	}
	t, err := parseTimestamp(ts)
	if err != nil {
		return Capture{}, err
	}
	var f map[string]any
	if err := json.Unmarshal([]byte(js), &f); err != nil {
		return Capture{}, err
	}
	str := func(k string) string {
		switch v := f[k].(type) {
		case string:
			return v
		case float64:
			return strconv.FormatFloat(v, 'f', -1, 64)
		}
		return ""
	}
	c := Capture{Key: key, URIR: str("url"), Time: t, MIME: str("mime"), Digest: str("digest")}
	c.Status, _ = strconv.Atoi(str("status"))
	c.Loc.Length, _ = strconv.ParseInt(str("length"), 10, 64)
	c.Loc.Offset, _ = strconv.ParseInt(str("offset"), 10, 64)
	c.Loc.MemberOffset, _ = strconv.ParseInt(str("member_offset"), 10, 64)
	if fn := str("filename"); fn != "" {
		c.Loc.File = filepath.Join(dir, fn)
	}
	c.Length = c.Loc.Length
	if c.MIME == "warc/revisit" {
		c.Revisit = true
	} else {
		c.Payload = c.Loc
	}
	return c, nil
}

// parseTimestamp parses a 4- to 14-digit timestamp (missing digits are the
// earliest value), as CDX indexes and URI-Ms write them.
func parseTimestamp(ts string) (time.Time, error) {
	if len(ts) < 4 || len(ts) > 14 {
		return time.Time{}, fmt.Errorf("bad timestamp %q", ts)
	}
	for i := 0; i < len(ts); i++ {
		if ts[i] < '0' || ts[i] > '9' {
			return time.Time{}, fmt.Errorf("bad timestamp %q", ts)
		}
	}
	pad := ts + "00000101000000"[len(ts):]
	t, err := time.Parse("20060102150405", pad)
	if err != nil {
		return time.Time{}, fmt.Errorf("bad timestamp %q", ts)
	}
	return t, nil
}
