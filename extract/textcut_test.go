package extract

import (
	"bytes"
	"compress/gzip"
	"net/http"
	"strings"
	"testing"
)

// TestTextCutReported: a payload whose decoded bytes pass Options.MaxBytes
// is cut there and the Document says so; one that fits does not.
func TestTextCutReported(t *testing.T) {
	page := func(n int) []byte {
		return []byte("<html><body><p>" + strings.Repeat("word ", n/5) + "</p></body></html>")
	}
	gz := func(b []byte) []byte {
		var buf bytes.Buffer
		w := gzip.NewWriter(&buf)
		w.Write(b)
		w.Close()
		return buf.Bytes()
	}
	html := http.Header{"Content-Type": {"text/html"}}
	gzHTML := http.Header{"Content-Type": {"text/html"}, "Content-Encoding": {"gzip"}}
	tests := []struct {
		name string
		h    http.Header
		body []byte
		max  int64
		want bool
	}{
		{"fits", html, page(1000), 4096, false},
		{"plain, longer", html, page(10000), 4096, true},
		{"gzip fits", gzHTML, gz(page(1000)), 4096, false},
		{"gzip inflates past the cap", gzHTML, gz(page(100000)), 4096, true},
		{"default cap, fits", gzHTML, gz(page(100000)), 0, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, textOnly := range []bool{false, true} {
				doc, _ := Extract(tc.h, tc.body, Options{MaxBytes: tc.max, TextOnly: textOnly})
				if doc.TextCut != tc.want {
					t.Errorf("TextOnly %v: TextCut %v, want %v (ByteCount %d)", textOnly, doc.TextCut, tc.want, doc.ByteCount)
				}
			}
		})
	}
}
