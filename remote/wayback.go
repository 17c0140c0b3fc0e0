package remote

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// wayback is the dialect of the Internet Archive's (and OpenWayback's) CDX
// API: output=json with a first row naming the fields, paged by
// showResumeKey and resumeKey.
type wayback struct{}

// waybackFields is the field list asked for (fl) and the default order.
func waybackFields() []string {
	return []string{"urlkey", "timestamp", "original", "mimetype", "statuscode", "digest", "length"}
}

func (wayback) list(ctx context.Context, s *CDXServer, q Query, k *sink) error {
	resume := ""
	seen := map[string]bool{}
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		p := q.params(true, iaFilter)
		p.Set("output", "json")
		p.Set("fl", strings.Join(waybackFields(), ","))
		limit := s.pageSize()
		if q.Limit > 0 && (limit == 0 || q.Limit-k.n < limit) {
			limit = q.Limit - k.n
		}
		if limit > 0 {
			p.Set("limit", strconv.Itoa(limit))
		}
		if s.pageSize() > 0 {
			p.Set("showResumeKey", "true")
		}
		if resume != "" {
			p.Set("resumeKey", resume)
		}
		body, u, err := s.get(ctx, p)
		if err != nil {
			return err
		}
		next, err := parseWayback(body, u, k)
		body.Close()
		if err != nil || k.stop || next == "" || s.pageSize() == 0 {
			return err
		}
		if seen[next] {
			return fmt.Errorf("remote: CDX %s: resume key %q repeats", u, next)
		}
		seen[next] = true
		resume = next
	}
}

// parseWayback reads the Wayback CDX API's answer: JSON (output=json), or
// the plain-text lines of servers that ignore output. The API writes one row
// per line, so it is read line by line and one bad row costs only itself (a
// JSON answer on a single line is read as a whole). A first row naming
// "timestamp" names the fields; a one-element row (after an empty one) is
// the resume key, as written (URL-encoded).
func parseWayback(r io.Reader, u string, k *sink) (string, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return "", fmt.Errorf("remote: reading %s: %w", u, err)
	}
	p := &waybackAnswer{u: u, k: k}
	t := bytes.TrimSpace(b)
	if len(t) == 0 {
		return "", nil
	}
	if t[0] == '[' && !bytes.Contains(t, []byte("\n")) {
		var rows [][]any
		dec := json.NewDecoder(bytes.NewReader(t))
		dec.UseNumber()
		if err := dec.Decode(&rows); err != nil {
			return "", fmt.Errorf("remote: CDX %s: %w", u, err)
		}
		for i, row := range rows {
			if !p.row(i+1, row) {
				break
			}
		}
		return p.resume, nil
	}
	err = eachLine(bytes.NewReader(b), u, p.line)
	return p.resume, err
}

// waybackAnswer is what parseWayback knows of an answer so far: the
// field names, whether an empty row came, the resume key.
type waybackAnswer struct {
	u          string
	k          *sink
	idx        map[string]int // field name -> column
	afterEmpty bool
	resume     string
}

// line reads line n of the answer, a JSON row or a plain-text one; it
// reports false to stop reading.
func (p *waybackAnswer) line(n int, line string) bool {
	line = strings.TrimSpace(line)
	if line != "" && line[0] != '[' && line[0] != ']' {
		// The plain-text answer (servers that ignore output=json):
		// fields separated by spaces; after an empty line, a lone
		// token is the resume key.
		f := strings.Fields(line)
		if len(f) == 1 && p.afterEmpty {
			p.resume = f[0]
			return true
		}
		row := make([]any, len(f))
		for i, v := range f {
			row[i] = v
		}
		return p.row(n, row)
	}
	if line == "" {
		p.afterEmpty = true
		return true
	}
	if strings.HasPrefix(line, "[[") {
		line = line[1:]
	} else if line == "[" || line == "]" {
		return true
	}
	line = strings.TrimSuffix(line, ",")
	if strings.HasSuffix(line, "]]") {
		line = line[:len(line)-1]
	}
	var row []any
	dec := json.NewDecoder(strings.NewReader(line))
	dec.UseNumber()
	if err := dec.Decode(&row); err != nil {
		return p.k.err(&CDXLineError{URL: p.u, Line: n, Err: fmt.Errorf("not a JSON row: %w", err)})
	}
	return p.row(n, row)
}

// row reads row n: the field names, the resume key, or a capture handed to
// the sink; it reports false to stop reading.
func (p *waybackAnswer) row(n int, row []any) bool {
	vals, allStr, err := rowStrings(row)
	if err != nil {
		return p.k.err(&CDXLineError{URL: p.u, Line: n, Err: err})
	}
	switch {
	case len(vals) == 0:
		p.afterEmpty = true
		return true
	case len(vals) == 1 && (p.afterEmpty || p.idx != nil):
		p.resume = vals[0]
		return true
	case p.idx == nil && allStr && slices.Contains(vals, "timestamp"):
		p.idx = map[string]int{}
		for i, v := range vals {
			p.idx[v] = i
		}
		return true
	}
	if p.idx == nil {
		p.idx = map[string]int{}
		for i, v := range waybackFields() {
			p.idx[v] = i
		}
	}
	if len(vals) < len(p.idx) {
		return p.k.err(&CDXLineError{URL: p.u, Line: n, Err: fmt.Errorf("%d fields, want %d", len(vals), len(p.idx))})
	}
	get := func(names ...string) string {
		for _, name := range names {
			if i, ok := p.idx[name]; ok && i < len(vals) {
				return vals[i]
			}
		}
		return "-"
	}
	return p.k.row(p.u, n, entry{key: get("urlkey"), ts: get("timestamp"), original: get("original", "url"),
		mime: get("mimetype", "mime"), status: get("statuscode", "status"), digest: get("digest"),
		length: get("length"), offset: get("offset"), filename: get("filename")})
}
