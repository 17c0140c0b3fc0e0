package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/offtopic/offtopic/internal/testcorpus"
	"github.com/offtopic/offtopic/similarity"
)

// detectPywb runs detect over the recorded pywb's TimeMaps of urirs in
// collection coll and returns the exit status, stderr and the captures.
func detectPywb(t *testing.T, pw *testcorpus.RecordedWayback, coll string, urirs []string, extra ...string) (int, string, []similarity.CaptureResult) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "out")
	args := []string{"detect", "-q", "--out-dir", out, "--no-cache", "--rate", "0", "--retries", "0"}
	for _, u := range urirs {
		args = append(args, "--timemap", pw.URL+"/"+coll+"/timemap/link/"+u)
	}
	code, _, stderr := runCLI(t, append(args, extra...)...)
	if miss := pw.Unrecorded(); len(miss) > 0 {
		t.Errorf("requests pywb's recording does not hold: %v", miss)
	}
	if code > 1 {
		t.Fatalf("detect: exit %d: %s", code, stderr)
	}
	var caps []similarity.CaptureResult
	if code == 0 || strings.Contains(stderr, "wrote") {
		caps = readCaptures(t, out)
	}
	return code, stderr, caps
}

// TestPywbRevisitGzip: pywb replays a revisit with the revisit record's
// headers (no Content-Encoding) over the original's gzip body; the body is
// read as the page it is, not as gzip bytes (issue 38, 1).
func TestPywbRevisitGzip(t *testing.T) {
	pw := testcorpus.Pywb(t)
	code, stderr, caps := detectPywb(t, pw, "dev", []string{"http://www.independentjournal8.info/"})
	if code != 0 || len(caps) != 3 {
		t.Fatalf("exit %d, %d captures: %s", code, len(caps), stderr)
	}
	for _, c := range caps {
		if c.Verdict != similarity.VerdictOn || c.Lang != "en" {
			t.Errorf("%s: %s in %q (%s), want on-topic in en", c.URIM, c.Verdict, c.Lang, c.Reason)
		}
	}
}
