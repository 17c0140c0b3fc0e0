package testcorpus

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Response is one response record of a WARC file written by WriteWARC.
type Response struct {
	URI    string
	At     time.Time
	Status int
	Header string // extra HTTP header lines, each ending in \r\n
	Body   string // an HTML page (Content-Type text/html; charset=utf-8)
}

// WriteWARC writes recs as an uncompressed WARC file at path.
func WriteWARC(tb testing.TB, path string, recs []Response) {
	tb.Helper()
	var b bytes.Buffer
	for i, r := range recs {
		http := fmt.Sprintf("HTTP/1.1 %d X\r\nContent-Type: text/html; charset=utf-8\r\n%sContent-Length: %d\r\n\r\n%s",
			r.Status, r.Header, len(r.Body), r.Body)
		fmt.Fprintf(&b, "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: %s\r\nWARC-Date: %s\r\n"+
			"WARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-%012d>\r\nContent-Type: application/http; msgtype=response\r\n"+
			"Content-Length: %d\r\n\r\n%s\r\n\r\n", r.URI, r.At.UTC().Format(time.RFC3339), i, len(http), http)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		tb.Fatal(err)
	}
}

// TwoCollections writes two Archive-It collections' WARC files into dir
// (ARCHIVEIT-1-... about lighthouses, ARCHIVEIT-2-... about baking), each
// of 8 pages of their own captured twice, and returns their paths.
func TwoCollections(tb testing.TB, dir string) []string {
	tb.Helper()
	subjects := [][]string{
		strings.Fields("lighthouse keeper lens tower beacon lamp fog signal harbour coast rocks cliff shipwreck light keepers cottage restoration"),
		strings.Fields("recipe oven flour butter sugar bake bread cake kitchen dough yeast pastry chef tart spoon dinner"),
	}
	rng := rand.New(rand.NewPCG(5, 5))
	var files []string
	for c, words := range subjects {
		var recs []Response
		for p := range 8 {
			uri := fmt.Sprintf("http://site%d-%d.example/", c+1, p)
			for y := range 2 {
				text := make([]string, 60)
				for i := range text {
					text[i] = words[rng.IntN(len(words))]
				}
				title := fmt.Sprintf("Page %d-%d", c+1, p)
				recs = append(recs, Response{URI: uri, At: time.Date(2005+y, 1, 1, 0, 0, p, 0, time.UTC), Status: 200,
					Body: "<html><head><title>" + title + "</title></head><body><h1>" + title + "</h1><p>" + strings.Join(text, " ") + "</p></body></html>"})
			}
		}
		path := filepath.Join(dir, fmt.Sprintf("ARCHIVEIT-%d-CRAWL-00000.warc", c+1))
		WriteWARC(tb, path, recs)
		files = append(files, path)
	}
	return files
}
