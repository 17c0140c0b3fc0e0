package remote

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/offtopic/offtopic/internal/testcorpus"
	"github.com/offtopic/offtopic/timemap"
)

// cdxFxRow is one line of a CDX11 fixture.
type cdxFxRow struct {
	key, ts, orig, mime, status, digest, length, offset, file string
}

// field returns a row's field by the Internet Archive's or pywb's name.
func (r cdxFxRow) field(name string) string {
	switch name {
	case "urlkey":
		return r.key
	case "timestamp":
		return r.ts
	case "original", "url":
		return r.orig
	case "mimetype", "mime":
		return r.mime
	case "statuscode", "status":
		return r.status
	case "digest":
		return r.digest
	case "length":
		return r.length
	}
	return ""
}

func cdxLoadFixture(tb testing.TB, path string) []cdxFxRow {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var rows []cdxFxRow
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := sc.Text()
		if strings.HasPrefix(l, " CDX") || strings.TrimSpace(l) == "" {
			continue
		}
		x := strings.Fields(l)
		if len(x) != 11 {
			tb.Fatalf("%s: bad fixture line %q", path, l)
		}
		rows = append(rows, cdxFxRow{x[0], x[1], x[2], x[3], x[4], x[5], x[8], x[9], x[10]})
	}
	return rows
}

// fakeCDX is a loopback CDX server of one kind replaying fixture rows the
// way that server software answers.
type fakeCDX struct {
	kind    ServerKind
	rows    []cdxFxRow
	perPage int // pywb: captures per page
	corrupt int // 1-based index in rows of a row written as garbage (0: none)

	mu      sync.Mutex
	queries []url.Values
}

func (f *fakeCDX) received() []url.Values {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.queries)
}

func cdxPad14(ts string, d byte) string {
	for len(ts) < 14 {
		ts += string(d)
	}
	return ts
}

// match applies url/matchType/from/to/filter as the server would.
func (f *fakeCDX) match(q url.Values, r cdxFxRow) bool {
	u, mt := q.Get("url"), q.Get("matchType")
	if strings.HasSuffix(u, "*") {
		u, mt = strings.TrimSuffix(u, "*"), "prefix"
	}
	switch mt {
	case "", "exact":
		if r.key != timemap.Canonicalize(u, timemap.CanonSURT) {
			return false
		}
	case "prefix":
		if !strings.HasPrefix(r.key, timemap.Canonicalize(u, timemap.CanonSURT)) {
			return false
		}
	case "range":
		if r.key < q.Get("urlkey") {
			return false
		}
	default:
		return false
	}
	if v := q.Get("from"); v != "" && r.ts < cdxPad14(v, '0') {
		return false
	}
	if v := q.Get("to"); v != "" && r.ts > cdxPad14(v, '9') {
		return false
	}
	for _, spec := range q["filter"] {
		neg := strings.HasPrefix(spec, "!")
		spec = strings.TrimPrefix(spec, "!")
		mode := "regex"
		if f.kind == ServerPywb {
			mode = "contains"
			if spec[0] == '~' || spec[0] == '=' {
				mode, spec = map[byte]string{'~': "prefix-regex", '=': "exact"}[spec[0]], spec[1:]
			}
		}
		name, expr, _ := strings.Cut(spec, ":")
		v := r.field(name)
		var ok bool
		switch mode {
		case "regex":
			ok = regexp.MustCompile("^(?:" + expr + ")$").MatchString(v)
		case "prefix-regex":
			ok = regexp.MustCompile("^(?:" + expr + ")").MatchString(v)
		case "exact":
			ok = v == expr
		default:
			ok = strings.Contains(v, expr)
		}
		if ok == neg {
			return false
		}
	}
	return true
}

func (f *fakeCDX) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	q := req.URL.Query()
	f.mu.Lock()
	f.queries = append(f.queries, q)
	f.mu.Unlock()
	var rows []cdxFxRow
	for _, r := range f.rows {
		if f.match(q, r) {
			rows = append(rows, r)
		}
	}
	bad := func(r cdxFxRow) bool { return f.corrupt > 0 && r == f.rows[f.corrupt-1] }
	switch f.kind {
	case ServerWayback:
		start := 0
		if rk := q.Get("resumeKey"); rk != "" {
			i := strings.LastIndexByte(rk, '+')
			n, err := strconv.Atoi(rk[i+1:])
			if i < 0 || err != nil {
				http.Error(w, "bad resume key", http.StatusBadRequest)
				return
			}
			start = n
		}
		end := len(rows)
		if l, _ := strconv.Atoi(q.Get("limit")); l > 0 && start+l < end {
			end = start + l
		}
		fmt.Fprint(w, `[["urlkey","timestamp","original","mimetype","statuscode","digest","length"]`)
		for i := start; i < end; i++ {
			r := rows[i]
			if bad(r) {
				fmt.Fprint(w, ",\n[\"org,iana)/\", 2014 broken")
				continue
			}
			b, _ := json.Marshal([]string{r.key, r.ts, r.orig, r.mime, r.status, r.digest, r.length})
			fmt.Fprintf(w, ",\n%s", b)
		}
		if end < len(rows) && q.Get("showResumeKey") == "true" {
			fmt.Fprintf(w, ",\n[],\n[%q]", rows[end-1].key+"+"+rows[end-1].ts+"+"+strconv.Itoa(end))
		}
		fmt.Fprint(w, "]\n")
	case ServerPywb:
		if q.Get("showNumPages") == "true" {
			pages := (len(rows) + f.perPage - 1) / f.perPage
			fmt.Fprintf(w, `{"blocks": %d, "pages": %d, "pageSize": %d}`, len(rows), max(pages, 1), 5)
			return
		}
		if p := q.Get("page"); p != "" {
			n, _ := strconv.Atoi(p)
			lo, hi := min(n*f.perPage, len(rows)), min((n+1)*f.perPage, len(rows))
			if n > 0 && lo >= len(rows) {
				http.Error(w, "page out of range", http.StatusBadRequest)
				return
			}
			for i := lo; i < hi; i++ {
				f.pywbLine(w, rows[i], bad(rows[i]))
			}
			return
		}
		if l, _ := strconv.Atoi(q.Get("limit")); l > 0 && l < len(rows) {
			rows = rows[:l]
		}
		for _, r := range rows {
			f.pywbLine(w, r, bad(r))
		}
	case ServerOutback:
		if q.Get("matchType") != "exact" && (q.Get("from") != "" || q.Get("to") != "") {
			http.Error(w, "from={timestamp} and to={timestamp} are currently only implemented for exact matches", http.StatusBadRequest)
			return
		}
		if l, _ := strconv.Atoi(q.Get("limit")); l > 0 && l < len(rows) {
			rows = rows[:l]
		}
		if q.Get("output") == "json" {
			fmt.Fprint(w, "[\n")
			for i, r := range rows {
				ts, _ := strconv.ParseInt(r.ts, 10, 64)
				var status any = r.status
				if n, err := strconv.Atoi(r.status); err == nil {
					status = n
				}
				ln, _ := strconv.Atoi(r.length)
				off, _ := strconv.Atoi(r.offset)
				var b []byte
				if bad(r) {
					b = []byte(`"not a row"`)
				} else {
					b, _ = json.MarshalIndent([]any{r.key, ts, r.orig, r.mime, status, r.digest, ln, off, r.file}, "  ", "  ")
				}
				sep := ","
				if i == len(rows)-1 {
					sep = ""
				}
				fmt.Fprintf(w, "  %s%s\n", b, sep)
			}
			fmt.Fprint(w, "]\n")
			return
		}
		for _, r := range rows {
			if bad(r) {
				fmt.Fprint(w, "org,iana)/ 20140126200624 truncated\n")
				continue
			}
			fmt.Fprintf(w, "%s %s %s %s %s %s - - %s %s %s\n", r.key, r.ts, r.orig, r.mime, r.status, r.digest, r.length, r.offset, r.file)
		}
		fmt.Fprint(w, "\n") // a trailing blank line
	}
}

func (f *fakeCDX) pywbLine(w http.ResponseWriter, r cdxFxRow, bad bool) {
	if bad {
		fmt.Fprint(w, "{\"urlkey\": \"org,iana)/\", \"timestamp\": \n")
		return
	}
	m := map[string]string{"urlkey": r.key, "timestamp": r.ts, "url": r.orig, "mime": r.mime, "digest": r.digest,
		"length": r.length, "offset": r.offset, "filename": r.file}
	if r.status != "-" {
		m["status"] = r.status
	}
	b, _ := json.Marshal(m)
	fmt.Fprintf(w, "%s\n", b)
}

// cdxCase is one server kind set up against a fake.
type cdxCase struct {
	name     string
	kind     ServerKind
	json     bool
	pageSize int
	perPage  int
}

func cdxCases() []cdxCase {
	return []cdxCase{
		{name: "wayback", kind: ServerWayback, pageSize: 60},
		{name: "pywb", kind: ServerPywb, perPage: 50},
		{name: "outback", kind: ServerOutback, pageSize: 60},
		{name: "outback-json", kind: ServerOutback, pageSize: 60, json: true},
	}
}

func (c cdxCase) start(tb testing.TB, rows []cdxFxRow) (*fakeCDX, *CDXServer) {
	tb.Helper()
	f := &fakeCDX{kind: c.kind, rows: rows, perPage: c.perPage}
	ts := httptest.NewServer(f)
	tb.Cleanup(ts.Close)
	s := &CDXServer{Kind: c.kind, Endpoint: ts.URL + "/cdx", Doer: ts.Client(), MementoPrefix: "http://archive.test/web/",
		PageSize: c.pageSize, OutputJSON: c.json}
	return f, s
}

// cdxCapKey is what must agree between sources.
type cdxCapKey struct {
	Key, TS, MIME, Digest string
	Status                int
	Revisit               bool
}

func cdxKeyOf(c timemap.Capture) cdxCapKey {
	return cdxCapKey{c.Key, c.Timestamp14(), c.MIME, timemap.NormDigest(c.Digest), c.Status, c.Revisit}
}

// fixtureCaptures reads the CDXJ fixture directly, resolving revisits as a
// CDX client must (status and MIME of the latest earlier same digest).
func cdxFixtureCaptures(tb testing.TB) []cdxCapKey {
	tb.Helper()
	f, err := os.Open(testcorpus.Path(tb, "fixtures/cdxj/pywb-iana.cdxj"))
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var out []cdxCapKey
	last := map[string]timemap.Capture{}
	for c, err := range timemap.ReadCDXJ(f, "") {
		if err != nil {
			tb.Fatal(err)
		}
		if c.Revisit {
			o := last[timemap.NormDigest(c.Digest)]
			c.Status, c.MIME = o.Status, o.MIME
		} else {
			last[timemap.NormDigest(c.Digest)] = c
		}
		out = append(out, cdxKeyOf(c))
	}
	return out
}

func cdxCollect(tb testing.TB, seq func(func(timemap.Capture, error) bool)) ([]timemap.Capture, []error) {
	tb.Helper()
	var cs []timemap.Capture
	var errs []error
	for c, err := range seq {
		if err != nil {
			errs = append(errs, err)
			continue
		}
		cs = append(cs, c)
	}
	return cs, errs
}

func TestCDXServerSameCapturesAsFixture(t *testing.T) {
	rows := cdxLoadFixture(t, testcorpus.Path(t, "fixtures/cdx/pywb-iana.cdx"))
	want := cdxFixtureCaptures(t)
	if len(want) != 171 || len(rows) != 171 {
		t.Fatalf("fixture: %d CDXJ captures, %d CDX rows; want 171", len(want), len(rows))
	}
	for _, tc := range cdxCases() {
		t.Run(tc.name, func(t *testing.T) {
			f, s := tc.start(t, rows)
			got, errs := cdxCollect(t, s.Captures(context.Background(), Query{URL: "http://www.iana.org/*"}))
			if len(errs) > 0 {
				t.Fatalf("errors: %v", errs)
			}
			var keys []cdxCapKey
			for _, c := range got {
				keys = append(keys, cdxKeyOf(c))
				if wantM := "http://archive.test/web/" + c.Timestamp14() + "/" + c.URIR; c.URIM != wantM {
					t.Fatalf("URIM %q, want %q", c.URIM, wantM)
				}
			}
			if !slices.Equal(keys, want) {
				t.Fatalf("captures differ from the fixture: got %d, want %d\nfirst got %+v\nfirst want %+v", len(keys), len(want), keys[:min(2, len(keys))], want[:2])
			}
			qs := f.received()
			switch tc.kind {
			case ServerWayback:
				if len(qs) != 3 {
					t.Fatalf("%d requests, want 3 pages", len(qs))
				}
				for i, q := range qs {
					if q.Get("showResumeKey") != "true" || q.Get("limit") != "60" || q.Get("output") != "json" || (i > 0) != (q.Get("resumeKey") != "") {
						t.Errorf("request %d: %v", i, q)
					}
				}
			case ServerPywb:
				if len(qs) != 5 || qs[0].Get("showNumPages") != "true" || qs[4].Get("page") != "3" {
					t.Fatalf("requests: %v", qs)
				}
			case ServerOutback:
				if len(qs) < 3 || qs[1].Get("matchType") != "range" || qs[1].Get("urlkey") == "" {
					t.Fatalf("requests: %v", qs)
				}
			}
		})
	}
}

// TestCDXServerSameAsWARC checks that captures listed by a CDX server carry
// the status and MIME type an index of the WARC itself gives, so that
// verdicts agree.
func TestCDXServerSameAsWARC(t *testing.T) {
	rows := cdxLoadFixture(t, testcorpus.Path(t, "fixtures/cdx/pywb-iana.cdx"))
	idx, err := timemap.BuildIndex(context.Background(), []string{testcorpus.Path(t, "fixtures/warc/pywb-iana.warc.gz")}, timemap.IndexOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var want []cdxCapKey
	for c := range idx.Captures() {
		want = append(want, cdxKeyOf(c))
	}
	_, s := cdxCases()[0].start(t, rows)
	got, errs := cdxCollect(t, s.Captures(context.Background(), Query{URL: "http://www.iana.org/*"}))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	var keys []cdxCapKey
	for _, c := range got {
		keys = append(keys, cdxKeyOf(c))
	}
	slices.SortStableFunc(keys, func(a, b cdxCapKey) int { return strings.Compare(a.Key+a.TS, b.Key+b.TS) })
	slices.SortStableFunc(want, func(a, b cdxCapKey) int { return strings.Compare(a.Key+a.TS, b.Key+b.TS) })
	if !slices.Equal(keys, want) {
		for i := range min(len(keys), len(want)) {
			if keys[i] != want[i] {
				t.Fatalf("capture %d: CDX server %+v, WARC %+v", i, keys[i], want[i])
			}
		}
		t.Fatalf("%d captures from the CDX server, %d from the WARC", len(keys), len(want))
	}
}

func TestCDXServerQueryParams(t *testing.T) {
	rows := cdxLoadFixture(t, testcorpus.Path(t, "fixtures/cdx/pywb-iana.cdx"))
	q := Query{URL: "http://www.iana.org/*", From: "2014", To: "20140126201000", Filters: []string{"mimetype:text/html", "!statuscode:404"}, Limit: 3}
	tests := []struct {
		tc   cdxCase
		want map[string][]string // parameters the first request must carry
		none []string            // parameters it must not carry
	}{
		{cdxCases()[0], map[string][]string{"url": {"http://www.iana.org/"}, "matchType": {"prefix"}, "from": {"2014"}, "to": {"20140126201000"},
			"filter": {"mimetype:text/html", "!statuscode:404"}, "limit": {"3"}, "output": {"json"}, "showResumeKey": {"true"}}, nil},
		{cdxCases()[1], map[string][]string{"url": {"http://www.iana.org/"}, "matchType": {"prefix"}, "from": {"2014"}, "to": {"20140126201000"},
			"filter": {"~mime:(?:text/html)$", "!~status:(?:404)$"}, "limit": {"3"}, "output": {"json"}}, nil},
		{cdxCases()[2], map[string][]string{"url": {"http://www.iana.org/"}, "matchType": {"prefix"},
			"filter": {"mimetype:text/html", "!statuscode:404"}, "limit": {"3"}}, []string{"from", "to", "output"}},
		{cdxCases()[3], map[string][]string{"output": {"json"}, "fl": {"urlkey,timestamp,original,mimetype,statuscode,digest,length,offset,filename"}}, []string{"from", "to"}},
	}
	for _, tt := range tests {
		t.Run(tt.tc.name, func(t *testing.T) {
			f, s := tt.tc.start(t, rows)
			got, errs := cdxCollect(t, s.Captures(context.Background(), q))
			if len(errs) > 0 {
				t.Fatal(errs)
			}
			if len(got) != 3 {
				t.Fatalf("%d captures, want the limit of 3", len(got))
			}
			for _, c := range got {
				if c.MIME != "text/html" || c.Timestamp14() > "20140126201000" {
					t.Errorf("capture outside the query: %+v", c)
				}
			}
			sent := f.received()
			if tt.tc.kind == ServerPywb {
				sent = sent[1:] // after showNumPages
			}
			for k, v := range tt.want {
				if !slices.Equal(sent[0][k], v) {
					t.Errorf("%s = %q, want %q (query %v)", k, sent[0][k], v, sent[0])
				}
			}
			for _, k := range tt.none {
				if sent[0].Has(k) {
					t.Errorf("%s sent: %v", k, sent[0])
				}
			}
		})
	}
}

func TestCDXServerExactPaging(t *testing.T) {
	rows := cdxLoadFixture(t, testcorpus.Path(t, "fixtures/cdx/pywb-iana.cdx"))
	const u = "http://www.iana.org/_js/2013.1/jquery.js"
	var want []string
	for _, r := range rows {
		if r.key == "org,iana)/_js/2013.1/jquery.js" {
			want = append(want, r.ts)
		}
	}
	for _, tc := range []cdxCase{{name: "wayback", kind: ServerWayback, pageSize: 5}, {name: "outback", kind: ServerOutback, pageSize: 5}} {
		t.Run(tc.name, func(t *testing.T) {
			f, s := tc.start(t, rows)
			got, errs := cdxCollect(t, s.Captures(context.Background(), Query{URL: u}))
			if len(errs) > 0 {
				t.Fatal(errs)
			}
			var ts []string
			for _, c := range got {
				ts = append(ts, c.Timestamp14())
			}
			if !slices.Equal(ts, want) {
				t.Fatalf("got %v, want %v", ts, want)
			}
			qs := f.received()
			if len(qs) < 4 {
				t.Fatalf("%d requests for %d captures in pages of 5", len(qs), len(want))
			}
			if tc.kind == ServerOutback && (qs[1].Get("from") == "" || qs[1].Get("matchType") != "exact") {
				t.Errorf("re-query: %v", qs[1])
			}
		})
	}
}

func TestCDXServerMalformedLine(t *testing.T) {
	rows := cdxLoadFixture(t, testcorpus.Path(t, "fixtures/cdx/pywb-iana.cdx"))
	for _, tc := range cdxCases() {
		t.Run(tc.name, func(t *testing.T) {
			f, s := tc.start(t, rows)
			f.corrupt = 10
			got, errs := cdxCollect(t, s.Captures(context.Background(), Query{URL: "http://www.iana.org/*"}))
			if len(got) != len(rows)-1 {
				t.Errorf("%d captures, want all but the bad line: %d", len(got), len(rows)-1)
			}
			if len(errs) != 1 {
				t.Fatalf("errors: %v", errs)
			}
			var le *CDXLineError
			if !errors.As(errs[0], &le) || le.Line < 1 || !strings.HasPrefix(le.URL, "http://127.0.0.1") || !strings.Contains(errs[0].Error(), le.URL) {
				t.Fatalf("error %v (%T), want a *CDXLineError with URL and line", errs[0], errs[0])
			}
			t.Log(errs[0])
		})
	}
}

func TestCDXServerTimeMaps(t *testing.T) {
	rows := cdxLoadFixture(t, testcorpus.Path(t, "fixtures/cdx/pywb-iana.cdx"))
	for _, tc := range cdxCases()[:3] {
		t.Run(tc.name, func(t *testing.T) {
			_, s := tc.start(t, rows)
			seeds := []string{"http://www.iana.org/_js/*", "http://www.iana.org/", "http://www.iana.org/_js/2013.1/iana.js"}
			var keys []string
			n := 0
			for tm, err := range s.SeedSource(seeds, Query{}).TimeMaps(context.Background()) {
				if err != nil {
					t.Fatal(err)
				}
				keys = append(keys, tm.Key)
				for i, c := range tm.Captures {
					n++
					if c.Key != tm.Key || i > 0 && c.Time.Before(tm.Captures[i-1].Time) {
						t.Fatalf("TimeMap %s: capture %d %+v out of place", tm.Key, i, c)
					}
				}
			}
			if !slices.IsSorted(keys[:len(keys)-1]) || keys[len(keys)-1] != "org,iana)/" || len(keys) < 3 {
				t.Fatalf("keys %v: want the _js keys sorted, then org,iana)/ (the third seed repeats a key)", keys)
			}
			want := 0
			for _, r := range rows {
				if strings.HasPrefix(r.key, "org,iana)/_js") || r.key == "org,iana)/" {
					want++
				}
			}
			if n != want {
				t.Fatalf("%d captures, want %d", n, want)
			}
		})
	}
}

func TestParseServerKind(t *testing.T) {
	for in, want := range map[string]ServerKind{"wayback": ServerWayback, "IA": ServerWayback, "pywb": ServerPywb, "OutbackCDX": ServerOutback} {
		if k, err := ParseServerKind(in); err != nil || k != want {
			t.Errorf("ParseServerKind(%q) = %v, %v", in, k, err)
		}
		if k, _ := ParseServerKind(want.String()); k != want {
			t.Errorf("%v does not round-trip", want)
		}
	}
	if _, err := ParseServerKind("heritrix"); err == nil {
		t.Error("unknown kind accepted")
	}
}
