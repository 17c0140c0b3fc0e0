package crawl

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/offtopic/offtopic/remote"
)

// TestTimeGateFirstMemento (issue 23 item 13): a page that states no date
// is dated by its first memento, which the TimeGate's Link header names, or
// the TimeMap it links gives; not by the memento nearest the event.
func TestTimeGateFirstMemento(t *testing.T) {
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/tg/http://a.example/x":
			w.Header().Set("Link", fmt.Sprintf(`<http://a.example/x>; rel="original", <%s/web/20040101000000/http://a.example/x>; rel="first memento"; datetime="Thu, 01 Jan 2004 00:00:00 GMT"`, srv.URL))
			w.Header().Set("Location", srv.URL+"/web/20050601000000/http://a.example/x")
			w.WriteHeader(http.StatusFound)
		case r.URL.Path == "/tg/http://b.example/y":
			w.Header().Set("Link", fmt.Sprintf(`<http://b.example/y>; rel="original", <%s/timemap/link/http://b.example/y>; rel="timemap"; type="application/link-format"`, srv.URL))
			w.Header().Set("Location", srv.URL+"/web/20050601000000/http://b.example/y")
			w.WriteHeader(http.StatusFound)
		case r.URL.Path == "/tg/http://c.example/z":
			w.Header().Set("Location", srv.URL+"/web/20050601000000/http://c.example/z")
			w.WriteHeader(http.StatusFound)
		case strings.HasPrefix(r.URL.Path, "/timemap/link/"):
			w.Header().Set("Content-Type", "application/link-format")
			fmt.Fprintf(w, `<http://b.example/y>; rel="original",
<%[1]s/web/20030301000000/http://b.example/y>; rel="first memento"; datetime="Sat, 01 Mar 2003 00:00:00 GMT",
<%[1]s/web/20050601000000/http://b.example/y>; rel="last memento"; datetime="Wed, 01 Jun 2005 00:00:00 GMT"
`, srv.URL)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	doer := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	a := NewTimeGateArchive(srv.URL+"/tg/", time.Date(2005, 6, 1, 0, 0, 0, 0, time.UTC), doer, remote.MementoOptions{})
	for _, tt := range []struct {
		url  string
		want time.Time
	}{
		{"http://a.example/x", time.Date(2004, 1, 1, 0, 0, 0, 0, time.UTC)},
		{"http://b.example/y", time.Date(2003, 3, 1, 0, 0, 0, 0, time.UTC)},
		{"http://c.example/z", time.Date(2005, 6, 1, 0, 0, 0, 0, time.UTC)}, // nothing names an earlier memento
	} {
		caps, err := a.Resolve(context.Background(), tt.url)
		if err != nil {
			t.Fatal(err)
		}
		if got := firstCapture(caps); !got.Equal(tt.want) {
			t.Errorf("%s: dated %s, want %s", tt.url, got, tt.want)
		}
		if caps[0].Time.Year() != 2005 {
			t.Errorf("%s: the memento the TimeGate chose is not first: %+v", tt.url, caps)
		}
	}
}
