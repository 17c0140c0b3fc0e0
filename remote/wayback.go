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
func parseWayback(r io.Reader, u string, k *sink) (resume string, err error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return "", fmt.Errorf("remote: reading %s: %w", u, err)
	}
	var idx map[string]int
	afterEmpty := false
	doRow := func(n int, row []any) bool {
		vals, allStr, err := rowStrings(row)
		if err != nil {
			return k.err(&CDXLineError{URL: u, Line: n, Err: err})
		}
		switch {
		case len(vals) == 0:
			afterEmpty = true
			return true
		case len(vals) == 1 && (afterEmpty || idx != nil):
			resume = vals[0]
			return true
		case idx == nil && allStr && slices.Contains(vals, "timestamp"):
			idx = map[string]int{}
			for i, v := range vals {
				idx[v] = i
			}
			return true
		}
		if idx == nil {
			idx = map[string]int{}
			for i, v := range waybackFields() {
				idx[v] = i
			}
		}
		if len(vals) < len(idx) {
			return k.err(&CDXLineError{URL: u, Line: n, Err: fmt.Errorf("%d fields, want %d", len(vals), len(idx))})
		}
		get := func(names ...string) string {
			for _, name := range names {
				if i, ok := idx[name]; ok && i < len(vals) {
					return vals[i]
				}
			}
			return "-"
		}
		return k.row(u, n, entry{key: get("urlkey"), ts: get("timestamp"), original: get("original", "url"),
			mime: get("mimetype", "mime"), status: get("statuscode", "status"), digest: get("digest"),
			length: get("length"), offset: get("offset"), filename: get("filename")})
	}
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
			if !doRow(i+1, row) {
				break
			}
		}
		return resume, nil
	}
	err = eachLine(bytes.NewReader(b), u, func(n int, line string) bool {
		line = strings.TrimSpace(line)
		if line != "" && line[0] != '[' && line[0] != ']' {
			// The plain-text answer (servers that ignore output=json):
			// fields separated by spaces; after an empty line, a lone
			// token is the resume key.
			f := strings.Fields(line)
			if len(f) == 1 && afterEmpty {
				resume = f[0]
				return true
			}
			row := make([]any, len(f))
			for i, v := range f {
				row[i] = v
			}
			return doRow(n, row)
		}
		if line == "" {
			afterEmpty = true
			return true
		}
		if strings.HasPrefix(line, "[[") {
			line = line[1:]
		} else if line == "[" || line == "]" || line == "" {
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
			return k.err(&CDXLineError{URL: u, Line: n, Err: fmt.Errorf("not a JSON row: %w", err)})
		}
		return doRow(n, row)
	})
	return resume, err
}
