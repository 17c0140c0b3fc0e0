package remote

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// pywb is the dialect of pywb's CDX server: output=json gives one JSON
// object per line; paged by showNumPages, page and pageSize where the index
// is ZipNum, else one query (once a query showed the index does not page,
// the server is not asked again).
type pywb struct{}

func (pywb) list(ctx context.Context, s *CDXServer, q Query, k *sink) error {
	base := q.params(false, pywbFilter)
	if q.Limit > 0 {
		base.Set("limit", strconv.Itoa(q.Limit))
	}
	base.Set("output", "json")
	if s.PageSize > 0 {
		base.Set("pageSize", strconv.Itoa(s.PageSize))
	}
	pages := -1
	if !s.unpaged.Load() {
		var answered bool
		if pages, answered = pywbNumPages(ctx, s, base); pages < 0 && answered {
			s.unpaged.Store(true)
		}
	}
	if pages < 0 {
		body, u, err := s.get(ctx, base)
		if err != nil {
			return err
		}
		defer body.Close()
		return parsePywb(body, u, k)
	}
	for page := 0; page < pages; page++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		p := cloneValues(base)
		p.Set("page", strconv.Itoa(page))
		body, u, err := s.get(ctx, p)
		if err != nil {
			return err
		}
		err = parsePywb(body, u, k)
		body.Close()
		if err != nil || k.stop {
			return err
		}
	}
	return nil
}

func cloneValues(v url.Values) url.Values {
	c := make(url.Values, len(v)+1)
	for k, vs := range v {
		c[k] = slices.Clone(vs)
	}
	return c
}

// pywbNumPages asks how many pages the query has (showNumPages=true); -1
// when the server does not page (plain CDXJ indexes answer with an error or
// with captures: answered) or could not be asked.
func pywbNumPages(ctx context.Context, s *CDXServer, base url.Values) (pages int, answered bool) {
	p := cloneValues(base)
	p.Set("showNumPages", "true")
	body, _, err := s.get(ctx, p)
	if err != nil {
		var he *httpError
		return -1, errors.As(err, &he) // an answer, not a page count

	}
	defer body.Close()
	b, err := io.ReadAll(io.LimitReader(body, 4096))
	if err != nil {
		return -1, false
	}
	b = bytes.TrimSpace(b)
	var j struct {
		Pages *int `json:"pages"`
	}
	if json.Unmarshal(b, &j) == nil && j.Pages != nil {
		return max(*j.Pages, 0), true
	}
	if n, err := strconv.Atoi(string(b)); err == nil {
		return max(n, 0), true
	}
	return -1, true
}

// parsePywb reads pywb's output=json (one JSON object per line), tolerating
// CDXJ lines ("urlkey timestamp {json}") from servers that ignore output.
func parsePywb(r io.Reader, u string, k *sink) error {
	return eachLine(r, u, func(n int, line string) bool {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '!' {
			return true
		}
		var key, ts string
		js := line
		if line[0] != '{' {
			var rest string
			var ok bool
			key, rest, ok = strings.Cut(line, " ")
			ts, js, _ = strings.Cut(rest, " ")
			if !ok || !strings.HasPrefix(strings.TrimSpace(js), "{") {
				return k.err(&CDXLineError{URL: u, Line: n, Err: errors.New("neither a JSON object nor a CDXJ line")})
			}
		}
		var f map[string]any
		dec := json.NewDecoder(strings.NewReader(js))
		dec.UseNumber()
		if err := dec.Decode(&f); err != nil {
			return k.err(&CDXLineError{URL: u, Line: n, Err: fmt.Errorf("bad JSON: %w", err)})
		}
		str := func(names ...string) string {
			for _, name := range names {
				switch v := f[name].(type) {
				case string:
					return v
				case json.Number:
					return v.String()
				}
			}
			return ""
		}
		if key == "" {
			key, ts = str("urlkey"), str("timestamp")
		}
		return k.row(u, n, entry{key: key, ts: ts, original: str("url", "original"), mime: str("mime", "mimetype"),
			status: str("status", "statuscode"), digest: str("digest"), length: str("length"),
			offset: str("offset"), filename: str("filename")})
	})
}
