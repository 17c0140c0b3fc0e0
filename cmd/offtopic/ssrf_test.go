package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// TestRemoteRefusesMementosOffTheArchive (issue 23 item 7): a TimeMap
// served by the archive named with --timemap, on loopback, lists mementos
// on another loopback port and with user:password@; they are refused (the
// other server gets no request) and listed as not scored with the reason,
// while the archive's own mementos are fetched. --allow-private fetches
// them.
func TestRemoteRefusesMementosOffTheArchive(t *testing.T) {
	var other atomic.Int64
	elsewhere := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		other.Add(1)
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<html><body>secret intranet page</body></html>")
	}))
	defer elsewhere.Close()
	var archive *httptest.Server
	archive = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/timemap/") {
			w.Header().Set("Content-Type", "application/link-format")
			host := strings.TrimPrefix(archive.URL, "http://")
			fmt.Fprintf(w, `<http://x.example/>; rel="original",
<%s/web/20100101000000/http://x.example/>; rel="first memento"; datetime="Fri, 01 Jan 2010 00:00:00 GMT",
<%s/web/20100201000000/http://x.example/>; rel="memento"; datetime="Mon, 01 Feb 2010 00:00:00 GMT",
<%s/web/20100301000000/http://x.example/>; rel="memento"; datetime="Mon, 01 Mar 2010 00:00:00 GMT",
<http://u:p@%s/web/20100401000000/http://x.example/>; rel="last memento"; datetime="Thu, 01 Apr 2010 00:00:00 GMT"
`, archive.URL, archive.URL, elsewhere.URL, host)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Memento-Datetime", "Fri, 01 Jan 2010 00:00:00 GMT")
		fmt.Fprint(w, "<html><body>lighthouse keepers and their lens, a page about lighthouses</body></html>")
	}))
	defer archive.Close()
	for _, tc := range []struct {
		name    string
		flags   []string
		other   bool // the other server is reached
		refused int  // mementos listed as refused
	}{
		{"default", nil, false, 2},
		{"allow private", []string{"--allow-private"}, true, 1}, // user information stays refused
	} {
		t.Run(tc.name, func(t *testing.T) {
			other.Store(0)
			dir := t.TempDir()
			out := filepath.Join(dir, "out")
			args := append([]string{"detect", "-q", "--out-dir", out, "--timemap", archive.URL + "/timemap/link/http://x.example/",
				"--no-cache", "--rate", "0", "--retries", "0", "--temp-dir", dir}, tc.flags...)
			_, _, stderr := runCLI(t, args...)
			if got := other.Load() > 0; got != tc.other {
				t.Errorf("the server off the archive reached: %v, want %v", got, tc.other)
			}
			res, _ := os.ReadFile(filepath.Join(out, "results.jsonl"))
			if n := strings.Count(string(res), "refused"); n != tc.refused {
				t.Errorf("%d mementos refused in the results, want %d:\n%s\nstderr: %s", n, tc.refused, res, stderr)
			}
			if !strings.Contains(string(res), "the URL carries user information") {
				t.Errorf("the memento with user information is not listed as refused for it:\n%s", res)
			}
		})
	}
}
