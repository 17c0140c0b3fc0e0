package remote

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/offtopic/offtopic/timemap"
)

// outback is the dialect of OutbackCDX: CDX11 lines (or JSON arrays with
// output=json), paged by re-querying after the last capture seen.
type outback struct{}

// outbackFields is the field list asked for with output=json.
func outbackFields() []string {
	return []string{"urlkey", "timestamp", "original", "mimetype", "statuscode", "digest", "length", "offset", "filename"}
}

// outbackPos is where a re-query resumes: after n captures at (key, ts).
type outbackPos struct {
	key, ts string
	n       int
}

// outback pages by re-querying: an exact query resumes with from= the last
// timestamp seen, other match types with matchType=range from the last
// urlkey seen, skipping the captures already seen and stopping past the
// query's scope. OutbackCDX takes from/to on exact queries only, so for the
// others they are applied here.
func (outback) list(ctx context.Context, s *CDXServer, q Query, k *sink) error {
	size := s.pageSize()
	inScope := scope(q, s.Canon)
	var pos *outbackPos // where the last page ended
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		p := url.Values{}
		if pos == nil || q.MatchType == "exact" {
			p.Set("url", q.URL)
			p.Set("matchType", q.MatchType)
		} else {
			p.Set("urlkey", pos.key)
			p.Set("matchType", "range")
		}
		if q.MatchType == "exact" {
			if pos != nil {
				p.Set("from", pos.ts)
			} else if q.From != "" {
				p.Set("from", q.From)
			}
			if q.To != "" {
				p.Set("to", q.To)
			}
		}
		for _, f := range q.Filters {
			p.Add("filter", iaFilter(f))
		}
		skip := outbackSkip(pos)
		limit := 0
		if size > 0 {
			limit = size + skip
		}
		if q.Limit > 0 && (limit == 0 || q.Limit-k.n+skip < limit) {
			limit = q.Limit - k.n + skip
		}
		if limit > 0 {
			p.Set("limit", strconv.Itoa(limit))
		}
		if s.OutputJSON {
			p.Set("output", "json")
			p.Set("fl", strings.Join(outbackFields(), ","))
		}
		body, u, err := s.get(ctx, p)
		if err != nil {
			return err
		}
		kept := 0
		last := pos
		emit := func(n int, r entry) bool {
			if pos != nil {
				if c := strings.Compare(r.key, pos.key); c < 0 || c == 0 && r.ts < pos.ts {
					return true // before the resume point (range queries)
				}
				if r.key == pos.key && r.ts == pos.ts && skip > 0 {
					skip--
					return true
				}
			}
			if last != nil && last.key == r.key && last.ts == r.ts {
				last = &outbackPos{key: r.key, ts: r.ts, n: last.n + 1}
			} else {
				last = &outbackPos{key: r.key, ts: r.ts, n: 1}
			}
			if q.MatchType != "exact" {
				if !inScope(r.original) {
					return true
				}
				kept++
				if ts := dash(r.ts); q.From != "" && ts < q.From || q.To != "" && !tsAtOrBefore(ts, q.To) {
					return true
				}
			} else {
				kept++
			}
			return k.row(u, n, r)
		}
		var got int
		if s.OutputJSON {
			got, err = parseOutbackJSON(body, u, k, emit)
		} else {
			got, err = parseCDX11(body, u, k, emit)
		}
		body.Close()
		switch {
		case err != nil || k.stop || limit == 0 || got < limit:
			return err
		case pos != nil && kept == 0 && q.MatchType != "exact":
			return nil // past the end of the query's scope
		case last == nil || pos != nil && *last == *pos:
			size *= 2 // a whole page at one timestamp: ask for more
		default:
			pos = last
		}
	}
}

func outbackSkip(p *outbackPos) int {
	if p == nil {
		return 0
	}
	return p.n
}

// tsAtOrBefore reports whether ts is at or before the upper bound to (padded
// with 9s, as CDX servers pad "to").
func tsAtOrBefore(ts, to string) bool {
	if len(to) < 14 {
		to += "99999999999999"[len(to):]
	}
	return ts <= to
}

// scope returns a test of whether an original URL falls within q's match
// type, by canonical keys.
func scope(q Query, canon timemap.CanonMode) func(string) bool {
	base := timemap.Canonicalize(q.URL, canon)
	host := func(k string) string {
		h, _, _ := strings.Cut(k, ")")
		return h
	}
	switch q.MatchType {
	case "prefix":
		return func(u string) bool { return strings.HasPrefix(timemap.Canonicalize(dash(u), canon), base) }
	case "host":
		return func(u string) bool { return host(timemap.Canonicalize(dash(u), canon)) == host(base) }
	case "domain":
		h := host(base)
		return func(u string) bool {
			x := host(timemap.Canonicalize(dash(u), canon))
			return x == h || strings.HasPrefix(x, h+",")
		}
	}
	return func(string) bool { return true }
}

// parseCDX11 reads space-separated CDX lines (CDX11: urlkey timestamp
// original mime status digest redirect robotflags length offset filename;
// CDX14's extra fields are ignored), skipping blank and " CDX" header lines.
func parseCDX11(r io.Reader, u string, k *sink, emit func(int, entry) bool) (rows int, err error) {
	err = eachLine(r, u, func(n int, line string) bool {
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, " CDX") || strings.HasPrefix(line, "CDX ") {
			return true
		}
		rows++
		f := strings.Fields(line)
		if len(f) < 11 {
			return k.err(&CDXLineError{URL: u, Line: n, Err: fmt.Errorf("%d fields, want 11", len(f))})
		}
		return emit(n, entry{key: f[0], ts: f[1], original: f[2], mime: f[3], status: f[4], digest: f[5],
			length: f[8], offset: f[9], filename: f[10]})
	})
	return rows, err
}

// parseOutbackJSON reads OutbackCDX's output=json: a JSON array of arrays
// in the order of outbackFields (a first row of field names, if any, sets
// the order). A row that is not an array of scalars is reported and
// skipped; broken JSON ends the page.
func parseOutbackJSON(r io.Reader, u string, k *sink, emit func(int, entry) bool) (rows int, err error) {
	dec := json.NewDecoder(r)
	dec.UseNumber()
	if t, err := dec.Token(); err != nil {
		if err == io.EOF {
			return 0, nil
		}
		return 0, fmt.Errorf("remote: CDX %s: %w", u, err)
	} else if d, ok := t.(json.Delim); !ok || d != '[' {
		return 0, fmt.Errorf("remote: CDX %s: not a JSON array", u)
	}
	fields := outbackFields()
	for i := 1; dec.More(); i++ {
		rows++
		var row []any
		if err := dec.Decode(&row); err != nil {
			var se *json.SyntaxError
			if errors.As(err, &se) || errors.Is(err, io.ErrUnexpectedEOF) {
				return rows, fmt.Errorf("remote: CDX %s: row %d: %w", u, i, err)
			}
			if !k.err(&CDXLineError{URL: u, Line: i, Err: err}) {
				return rows, nil
			}
			continue
		}
		vals, allStr, err := rowStrings(row)
		if err != nil {
			if !k.err(&CDXLineError{URL: u, Line: i, Err: err}) {
				return rows, nil
			}
			continue
		}
		if i == 1 && allStr && slices.Contains(vals, "timestamp") {
			fields = vals
			rows--
			continue
		}
		if len(vals) < len(fields) {
			if !k.err(&CDXLineError{URL: u, Line: i, Err: fmt.Errorf("%d fields, want %d", len(vals), len(fields))}) {
				return rows, nil
			}
			continue
		}
		get := func(name string) string {
			if j := slices.Index(fields, name); j >= 0 {
				return vals[j]
			}
			return "-"
		}
		if !emit(i, entry{key: get("urlkey"), ts: get("timestamp"), original: get("original"), mime: get("mimetype"),
			status: get("statuscode"), digest: get("digest"), length: get("length"), offset: get("offset"), filename: get("filename")}) {
			return rows, nil
		}
	}
	return rows, nil
}
