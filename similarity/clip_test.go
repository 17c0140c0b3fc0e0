package similarity

import (
	"bytes"
	"compress/gzip"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// TestResultTextCapped: a page of one enormous word (text without spaces,
// here 2 MB of text gzipped in a few KB) gives a result whose title and
// excerpt are capped, not lines of megabytes (issue 38, 12).
func TestResultTextCapped(t *testing.T) {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write([]byte("<html><head><title>" + strings.Repeat("T", 64<<10) + "</title></head><body><p>"))
	zw.Write(bytes.Repeat([]byte("界"), 2<<20/3))
	zw.Write([]byte("</p></body></html>"))
	zw.Close()
	at := time.Date(2010, 1, 1, 0, 0, 0, 0, time.UTC)
	page := detectPage(t, []string{writeWARC(t, []warcResponse{
		{uri: "http://bomb.example/", at: at, status: 200, header: "Content-Type: text/html\r\nContent-Encoding: gzip\r\n", body: b.String()},
	})}, "example,bomb)/")
	c := page.Captures[0]
	if len(c.Excerpt) > MaxExcerptBytes || len(c.Title) > MaxTitleBytes || !utf8.ValidString(c.Excerpt) ||
		!strings.HasSuffix(c.Excerpt, "…") || !strings.HasPrefix(c.Excerpt, "界界") {
		t.Errorf("excerpt of %d bytes (%q...), title of %d", len(c.Excerpt), c.Excerpt[:min(len(c.Excerpt), 12)], len(c.Title))
	}
	if got := clip("ab界", 4); got != "a…" {
		t.Errorf("clip cuts inside a character: %q", got)
	}
}
