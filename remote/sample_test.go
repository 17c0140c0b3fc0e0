package remote

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"sync"
	"testing"

	"github.com/offtopic/offtopic/timemap"
)

// sampleCDX is a CDX server over 120 captures of 60 URLs of example.org:
// every URL twice (a page and a later capture of it), every fifth URL an
// image and every seventh a 404. It pages by 10 captures where paging is
// on (the Internet Archive's bare count, pywb's JSON object).
type sampleCDX struct {
	kind   ServerKind
	paged  bool
	mu     sync.Mutex
	asked  []url.Values
	served map[int]bool // pages served
}

type sampleRow struct{ key, ts, orig, mime, status string }

func sampleRows() []sampleRow {
	var rows []sampleRow
	for i := range 60 {
		mime, status := "text/html", "200"
		if i%5 == 0 {
			mime = "image/png"
		}
		if i%7 == 0 {
			status = "404"
		}
		for _, ts := range []string{"20050101000000", "20060101000000"} {
			rows = append(rows, sampleRow{fmt.Sprintf("org,example)/p%02d", i), ts, fmt.Sprintf("http://example.org/p%02d", i), mime, status})
		}
	}
	return rows
}

func (f *sampleCDX) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	f.mu.Lock()
	f.asked = append(f.asked, q)
	f.mu.Unlock()
	rows := sampleRows()
	if q.Get("showNumPages") == "true" {
		switch {
		case !f.paged:
			http.Error(w, "no paging on a CDXJ index", http.StatusBadRequest)
		case f.kind == ServerWayback:
			fmt.Fprintln(w, len(rows)/10)
		default:
			fmt.Fprintf(w, `{"blocks": %d, "pages": %d, "pageSize": 1}`, len(rows)/10, len(rows)/10)
		}
		return
	}
	if p := q.Get("page"); p != "" {
		n, _ := strconv.Atoi(p)
		f.mu.Lock()
		f.served[n] = true
		f.mu.Unlock()
		rows = rows[min(len(rows), 10*n):min(len(rows), 10*n+10)]
	}
	if l, _ := strconv.Atoi(q.Get("limit")); l > 0 && l < len(rows) {
		rows = rows[:l]
	}
	switch f.kind {
	case ServerWayback:
		out := [][]string{{"urlkey", "timestamp", "original", "mimetype", "statuscode", "digest", "length"}}
		for _, r := range rows {
			out = append(out, []string{r.key, r.ts, r.orig, r.mime, r.status, "D" + r.key, "100"})
		}
		json.NewEncoder(w).Encode(out)
	case ServerPywb:
		for _, r := range rows {
			b, _ := json.Marshal(map[string]string{"urlkey": r.key, "timestamp": r.ts, "url": r.orig, "mime": r.mime, "status": r.status, "digest": "D" + r.key, "length": "100", "offset": "0", "filename": "a.warc.gz"})
			fmt.Fprintf(w, "%s\n", b)
		}
	case ServerOutback:
		for _, r := range rows {
			fmt.Fprintf(w, "%s %s %s %s %s D%s - - 100 0 a.warc.gz\n", r.key, r.ts, r.orig, r.mime, r.status, r.key)
		}
	}
}

// TestSampleCaptures: a background sample drawn from a CDX server holds
// distinct URLs of successful HTML captures only, comes through the paging
// API where the server has one (spread over several pages), through one
// limited query where it has none, and is the same for a seed.
func TestSampleCaptures(t *testing.T) {
	for _, tc := range []struct {
		name  string
		kind  ServerKind
		paged bool
	}{
		{"wayback paged", ServerWayback, true},
		{"pywb paged", ServerPywb, true},
		{"pywb CDXJ index", ServerPywb, false},
		{"outback", ServerOutback, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &sampleCDX{kind: tc.kind, paged: tc.paged, served: map[int]bool{}}
			srv := httptest.NewServer(f)
			defer srv.Close()
			s := &CDXServer{Kind: tc.kind, Endpoint: srv.URL + "/cdx", Doer: srv.Client(), PageSize: -1}
			q := Query{URL: "example.org", MatchType: "domain", Filters: []string{"statuscode:200", "mimetype:text/html"}}
			n := 60
			if tc.paged {
				n = 120 // three pages planned (SamplePerPage 50)
			}
			caps, err := s.SampleCaptures(context.Background(), q, n, 1)
			if err != nil {
				t.Fatal(err)
			}
			// 60 URLs, of which 12 images and 7 404s (p00 and p35 both):
			// 43 pages to draw, each once.
			if len(caps) == 0 || len(caps) > 43 {
				t.Fatalf("%d captures sampled, want 1 to 43", len(caps))
			}
			keys := map[string]bool{}
			for _, c := range caps {
				i, _ := strconv.Atoi(c.URIR[len(c.URIR)-2:])
				if i%5 == 0 || i%7 == 0 || c.Status != 200 || c.MIME != "text/html" {
					t.Errorf("sampled %s (status %d, %s): want successful HTML captures only", c.URIR, c.Status, c.MIME)
				}
				if keys[c.Key] {
					t.Errorf("%s sampled twice", c.Key)
				}
				keys[c.Key] = true
			}
			again, err := s.SampleCaptures(context.Background(), q, n, 1)
			if err != nil || !slices.EqualFunc(caps, again, func(a, b timemap.Capture) bool { return a.Key == b.Key && a.Time.Equal(b.Time) }) {
				t.Errorf("not the same sample for a seed (%v)", err)
			}
			small, _ := s.SampleCaptures(context.Background(), q, 5, 2)
			if len(small) != 5 {
				t.Errorf("SampleCaptures(5) gave %d captures", len(small))
			}
			var numPages, pages, limited int
			for _, a := range f.asked {
				switch {
				case a.Get("showNumPages") == "true":
					numPages++
				case a.Get("page") != "":
					pages++
				case a.Get("limit") != "":
					limited++
				}
				if a.Get("matchType") != "domain" && tc.kind != ServerOutback {
					t.Errorf("request %v: want a domain query", a)
				}
			}
			if tc.paged {
				if numPages == 0 || pages == 0 || limited != 0 || len(f.served) < 3 {
					t.Errorf("%d showNumPages, %d page and %d limited requests, pages %v: want the sample from three pages or more", numPages, pages, limited, f.served)
				}
				if tc.kind == ServerWayback && f.asked[1].Get("pageSize") != "1" {
					t.Errorf("Wayback page request %v: want pageSize=1", f.asked[1])
				}
			} else if pages != 0 || limited == 0 {
				t.Errorf("%d page and %d limited requests: want one limited query", pages, limited)
			}
		})
	}
}
