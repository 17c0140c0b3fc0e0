package remote

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/offtopic/offtopic/internal/testcorpus"
	"github.com/offtopic/offtopic/timemap"
)

// iaPages serves the Internet Archive's CDX API answers recorded in
// fixtures/cdx-api/ia-cdx-cnn-resumekey: page-00 for a query without
// resumeKey, then the page that follows the one whose last line is the
// resume key asked for.
type iaPages struct {
	pages [][]byte
	next  map[string]int // resume key as written -> page index
	mu    sync.Mutex
	asked []string
}

func newIAPages(t *testing.T) *iaPages {
	t.Helper()
	dir := testcorpus.Path(t, "fixtures/cdx-api/ia-cdx-cnn-resumekey")
	p := &iaPages{next: map[string]int{}}
	for i := 0; ; i++ {
		b, err := os.ReadFile(filepath.Join(dir, "page-"+twoDigits(i)+".txt"))
		if os.IsNotExist(err) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		p.pages = append(p.pages, b)
		lines := strings.Split(strings.TrimSpace(string(b)), "\n")
		if last := lines[len(lines)-1]; len(b) > 0 && !strings.Contains(last, " ") {
			p.next[last] = i + 1
		}
	}
	if len(p.pages) != 15 {
		t.Fatalf("%d pages in %s, want 15", len(p.pages), dir)
	}
	return p
}

func twoDigits(i int) string { return string([]byte{byte('0' + i/10), byte('0' + i%10)}) }

func (p *iaPages) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p.mu.Lock()
	p.asked = append(p.asked, r.URL.RawQuery)
	p.mu.Unlock()
	i := 0
	if k := r.URL.Query().Get("resumeKey"); k != "" {
		var ok bool
		if i, ok = p.next[k]; !ok {
			http.Error(w, "unknown resume key "+k, http.StatusBadRequest)
			return
		}
	}
	w.Header().Set("Content-Type", "text/plain")
	w.Write(p.pages[i])
}

// TestWaybackRepeatedRows: the Internet Archive repeats rows, within a page
// and across the pages of a resume-key sequence (350 rows, 96 distinct):
// each capture is listed once, and every page is asked for once.
func TestWaybackRepeatedRows(t *testing.T) {
	p := newIAPages(t)
	srv := httptest.NewServer(p)
	defer srv.Close()
	s := &CDXServer{Kind: ServerWayback, Endpoint: srv.URL + "/cdx", Doer: srv.Client(), MementoPrefix: "http://web.archive.org/web", PageSize: 25}
	var tms []*timemap.TimeMap
	for tm, err := range s.TimeMaps(context.Background(), []string{"cnn.com"}, Query{From: "20010410000000", To: "20010510000000"}) {
		if err != nil {
			t.Fatal(err)
		}
		tms = append(tms, tm)
	}
	if len(tms) != 1 {
		t.Fatalf("%d TimeMaps, want 1 (every row is com,cnn)/)", len(tms))
	}
	if n := len(tms[0].Captures); n != 96 {
		t.Errorf("%d captures, want the 96 distinct rows of 350", n)
	}
	seen := map[string]bool{}
	for _, c := range tms[0].Captures {
		if seen[c.URIM] {
			t.Errorf("capture %s listed twice", c.URIM)
		}
		seen[c.URIM] = true
	}
	if len(p.asked) != 15 {
		t.Errorf("%d requests, want 15 (one per page, ending at the empty page)", len(p.asked))
	}
	if !strings.Contains(p.asked[1], "resumeKey=com%252Ccnn%2529%252F%2B2001041400593%253A") {
		t.Errorf("second request %q does not carry page-00's resume key as IA's own clients send it", p.asked[1])
	}
}

// TestWaybackFixtures reads single IA answers, plain text and JSON.
func TestWaybackFixtures(t *testing.T) {
	for _, tc := range []struct {
		file      string
		captures  int
		revisits  int
		firstTime string
	}{
		{"ia-cdx-nasa-1996.txt", 1, 0, "19961231235847"},        // one row three times
		{"ia-cdx-energystar-2020.txt", 15, 3, "20200612014007"}, // three warc/revisit rows
		{"ia-cdx-nasa-prefix-filter-404.txt", 10, 0, ""},
		{"ia-cdx-archive-org-resumekey.txt", 4, 0, "19970126045828"}, // rows 3 and 4 identical
		{"ia-cdx-archive-org-resumekey.json", 4, 0, "19970126045828"},
		{"ia-cdx-archive-org-limit3.json", 3, 0, "19970126045828"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			b, err := os.ReadFile(testcorpus.Path(t, "fixtures/cdx-api/"+tc.file))
			if err != nil {
				t.Fatal(err)
			}
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write(b) }))
			defer srv.Close()
			s := &CDXServer{Kind: ServerWayback, Endpoint: srv.URL, Doer: srv.Client(), PageSize: -1}
			var got []timemap.Capture
			for c, err := range s.Captures(context.Background(), Query{URL: "x"}) {
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, c)
			}
			revisits := 0
			for _, c := range got {
				if c.Revisit {
					revisits++
				}
			}
			if len(got) != tc.captures || revisits != tc.revisits {
				t.Fatalf("%d captures (%d revisits), want %d (%d)", len(got), revisits, tc.captures, tc.revisits)
			}
			if tc.firstTime != "" && got[0].Timestamp14() != tc.firstTime {
				t.Errorf("first capture at %s, want %s", got[0].Timestamp14(), tc.firstTime)
			}
		})
	}
}

// TestWaybackBlocked: IA's 403 for a blocked site is an error that says so.
func TestWaybackBlocked(t *testing.T) {
	b, err := os.ReadFile(testcorpus.Path(t, "fixtures/cdx-api/ia-cdx-blocked-403.txt"))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusForbidden)
		w.Write(b)
	}))
	defer srv.Close()
	s := &CDXServer{Kind: ServerWayback, Endpoint: srv.URL, Doer: srv.Client()}
	var errs []error
	for tm, err := range s.TimeMaps(context.Background(), []string{"https://nationalpost.com/health"}, Query{}) {
		if err != nil {
			errs = append(errs, err)
		} else {
			t.Errorf("TimeMap %s from a 403", tm.Key)
		}
	}
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "HTTP 403") || !strings.Contains(errs[0].Error(), "Blocked Site Error") {
		t.Errorf("errors %v, want one naming the 403 and IA's reason", errs)
	}
}
