package main

import (
	"bytes"
	"compress/gzip"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/offtopic/offtopic/internal/testcorpus"
	"github.com/offtopic/offtopic/similarity"
)

// TestExtractionFailuresAreNoVerdicts: a capture in a content coding the
// tool cannot undo (zstd) is not scored, with the reason; one whose gzip
// body is cut is judged on what decoded and its reason says so, or, cut so
// early that too few words decoded, not scored; all are counted and listed,
// and --strict exits 1 for them (issue 37 item 1).
func TestExtractionFailuresAreNoVerdicts(t *testing.T) {
	lighthouse := "The lighthouse keepers restored the great lens of the tower on the point, and the volunteers of the " +
		"preservation society opened the keepers' cottage, the brass clockwork and the fog signal to visitors every summer. "
	page := func(paras int) string {
		return "<html><head><title>Lighthouse society</title></head><body><h1>Lighthouse society</h1><p>" +
			strings.Repeat(lighthouse, paras) + "</p></body></html>"
	}
	gz := func(s string) []byte {
		var b bytes.Buffer
		zw := gzip.NewWriter(&b)
		zw.Write([]byte(s))
		zw.Close()
		return b.Bytes()
	}
	// A long page of varied words, so that a third of its gzip stream
	// decodes to many of them (a stream of one phrase repeated decodes to
	// nothing until its end).
	var varied strings.Builder
	words := strings.Fields(lighthouse)
	for i := range 4000 {
		varied.WriteString(words[(i*7+i/13)%len(words)] + " ")
	}
	long := gz("<html><head><title>Lighthouse society</title></head><body><p>" + varied.String() + "</p></body></html>")
	zstd := append([]byte{0x28, 0xb5, 0x2f, 0xfd, 0x04, 0x58}, gz(page(3))[10:]...)
	y := func(year int) time.Time { return time.Date(year, 3, 1, 12, 0, 0, 0, time.UTC) }
	uri := "http://lighthouse.example/"
	in := filepath.Join(t.TempDir(), "damaged.warc")
	testcorpus.WriteWARC(t, in, []testcorpus.Response{
		{URI: uri, At: y(2005), Status: 200, Body: page(3)},
		{URI: uri, At: y(2006), Status: 200, Header: "Content-Encoding: zstd\r\n", Body: string(zstd)},
		{URI: uri, At: y(2007), Status: 200, Header: "Content-Encoding: gzip\r\n", Body: string(long[:len(long)/3])},
		{URI: uri, At: y(2008), Status: 200, Header: "Content-Encoding: gzip\r\n", Body: string(long[:40])},
		{URI: uri, At: y(2009), Status: 200, Body: page(4)},
	})
	out := filepath.Join(t.TempDir(), "out")
	code, _, stderr := runCLI(t, "detect", "-q", "-d", out, in)
	if code != 0 || !strings.Contains(stderr, "2 payloads failed, 1 judged on part of their payload") ||
		!strings.Contains(stderr, "damaged: "+uri+" 20070301120000") {
		t.Errorf("exit %d: %s", code, stderr)
	}
	caps := readCaptures(t, out)
	if len(caps) != 5 {
		t.Fatalf("%d captures", len(caps))
	}
	for i, want := range []struct{ verdict, reason string }{
		{similarity.VerdictOn, "t0"},
		{similarity.VerdictNotScored, `unsupported content coding "zstd": the payload cannot be decoded`},
		{similarity.VerdictOn, "judged on the part of its payload that decoded (only part of the payload could be decoded: its gzip stream is cut"},
		{similarity.VerdictNotScored, "gzip: unexpected EOF: the payload cannot be decoded"},
		{similarity.VerdictOn, ""},
	} {
		if c := caps[i]; c.Verdict != want.verdict || !strings.Contains(c.Reason, want.reason) || (i == 2) != (c.Partial != "") {
			t.Errorf("capture %d: %s (%s), partial %q; want %s (%s)", i, c.Verdict, c.Reason, c.Partial, want.verdict, want.reason)
		}
	}
	if code, _, stderr := runCLI(t, "detect", "-q", "--strict", "-d", t.TempDir(), in); code != 1 || !strings.Contains(stderr, "3 records or payloads were skipped or damaged (--strict)") {
		t.Errorf("--strict: exit %d: %s", code, stderr)
	}
}
