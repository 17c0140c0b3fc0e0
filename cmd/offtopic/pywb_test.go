package main

import (
	"fmt"
	"maps"
	"os"
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
	for _, tt := range []struct {
		urir string
		n    int
	}{
		{"http://www.independentjournal8.info/", 3}, // the revisit's body: gzip
		{"http://www.weeklytribune96.info/", 4},     // the revisit's body: gzip in its recorded chunks
	} {
		code, stderr, caps := detectPywb(t, pw, "dev", []string{tt.urir})
		if code != 0 || len(caps) != tt.n {
			t.Fatalf("%s: exit %d, %d captures: %s", tt.urir, code, len(caps), stderr)
		}
		for _, c := range caps {
			if c.Verdict != similarity.VerdictOn || c.Lang != "en" {
				t.Errorf("%s: %s in %q (%s), want on-topic in en", c.URIM, c.Verdict, c.Lang, c.Reason)
			}
		}
	}
}

// TestPywbSubstitute: where pywb answers a URI-M with another capture (the
// capture's WARC is gone from the archive; a 301 to itself, http to https),
// the capture asked for is listed as not scored with the reason, counted
// and warned of, never scored as the other capture nor listed twice
// (issue 38, 2).
func TestPywbSubstitute(t *testing.T) {
	pw := testcorpus.Pywb(t)
	for _, tt := range []struct {
		coll, urir string
		want       map[string]string // 14-digit time -> verdict
	}{
		{"miss", "http://www.nationalcourier57.co.uk/", map[string]string{
			"20051120044042": similarity.VerdictOn, "20060802154531": similarity.VerdictNotScored, "20060829070009": similarity.VerdictNotScored}},
		{"dev", "http://www.commonjournal4.co.uk/", map[string]string{
			"20060507142642": similarity.VerdictOn, "20060703105148": similarity.VerdictOn,
			"20060827191203": similarity.VerdictNotScored, "20070624015140": similarity.VerdictOn}},
	} {
		t.Run(tt.coll, func(t *testing.T) {
			code, stderr, caps := detectPywb(t, pw, tt.coll, []string{tt.urir})
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			got := map[string]string{}
			for _, c := range caps {
				ts := c.Datetime.UTC().Format("20060102150405")
				if _, dup := got[ts]; dup || !strings.Contains(c.URIM, ts) {
					t.Errorf("%s listed at %s, or twice", c.URIM, ts)
				}
				got[ts] = c.Verdict
				if c.Verdict == similarity.VerdictNotScored && !strings.Contains(c.Reason, "served another capture") {
					t.Errorf("%s: not scored because %q, want the substitute named", c.URIM, c.Reason)
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("verdicts %v, want %v", got, tt.want)
			}
			subs := 0
			for v := range maps.Values(tt.want) {
				if v == similarity.VerdictNotScored {
					subs++
				}
			}
			if !strings.Contains(stderr, fmt.Sprintf("%d payloads failed", subs)) || strings.Count(stderr, "served another capture") != subs {
				t.Errorf("stderr does not report the %d substitutes:\n%s", subs, stderr)
			}
		})
	}
}

// TestPywbCDXSharedDigest: through pywb's CDX server, every archived 301
// has the empty body's digest; a page the archive serves for one of them
// never gives its text to the others (issue 38, 3).
func TestPywbCDXSharedDigest(t *testing.T) {
	pw := testcorpus.Pywb(t)
	dir := t.TempDir()
	seeds := filepath.Join(dir, "seeds.txt")
	if err := os.WriteFile(seeds, []byte("http://www.commonjournal4.co.uk/\nhttp://weeklyrecord70.info/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	code, _, stderr := runCLI(t, "detect", "-q", "--out-dir", out, "--no-cache", "--rate", "0", "--retries", "0",
		"--cdx-server", pw.URL+"/dev/cdx", "--cdx-kind", "pywb", "--memento-prefix", pw.URL+"/dev", "--seeds", seeds)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if miss := pw.Unrecorded(); len(miss) > 0 {
		t.Errorf("requests pywb's recording does not hold: %v", miss)
	}
	caps := readCaptures(t, out)
	if len(caps) != 9 {
		t.Errorf("%d captures, want 9", len(caps))
	}
	for _, c := range caps {
		want := similarity.VerdictOn
		if strings.Contains(c.URIM, "20060827191203") || strings.Contains(c.URIM, "20060302082058") {
			want = similarity.VerdictNotScored // the 301s pywb cannot replay
		}
		if c.Verdict != want {
			t.Errorf("%s: %s %q (%s), want %s", c.URIM, c.Verdict, c.Title, c.Reason, want)
		}
	}
}

// TestPywbCacheRechecks: the cache asks again for what can change: a
// collection made after a run that found none (404), captures added to it
// later; --cache-max-age 0 asks at once, and mementos are never fetched
// twice (issue 38, 4).
func TestPywbCacheRechecks(t *testing.T) {
	pw := testcorpus.PywbStates(t, "grow")
	dir := t.TempDir()
	uriT := pw.URL + "/grow/timemap/link/http://www.nationalcourier57.co.uk/"
	run := func(extra ...string) (int, []similarity.CaptureResult) {
		out := filepath.Join(dir, "out")
		os.RemoveAll(out)
		args := append([]string{"detect", "-q", "--out-dir", out, "--cache-dir", filepath.Join(dir, "cache"), "--rate", "0", "--retries", "0", "--timemap", uriT}, extra...)
		code, _, stderr := runCLI(t, args...)
		if code > 1 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		if code != 0 {
			return code, nil
		}
		return code, readCaptures(t, out)
	}
	if code, _ := run(); code != 1 {
		t.Fatalf("no collection yet: exit %d, want 1", code)
	}
	pw.Load(t, testcorpus.PywbState("grow", 1))
	if code, _ := run(); code != 1 {
		t.Errorf("within --cache-max-age: exit %d, want the cached 404's 1", code)
	}
	if _, caps := run("--cache-max-age", "0"); len(caps) != 1 {
		t.Errorf("the collection made: %d captures, want 1", len(caps))
	}
	pw.Load(t, testcorpus.PywbState("grow", 2))
	if _, caps := run("--cache-max-age", "0"); len(caps) != 3 {
		t.Errorf("two captures added: %d captures, want 3", len(caps))
	}
	if n := pw.Served("/grow/20051120044042id_/http://www.nationalcourier57.co.uk/"); n != 1 {
		t.Errorf("a memento fetched %d times, want once", n)
	}
	if n := pw.Served("/grow/timemap/link/http://www.nationalcourier57.co.uk/"); n != 3 {
		t.Errorf("the TimeMap fetched %d times, want 3 (not the run within --cache-max-age)", n)
	}
	if code, _, _ := runCLI(t, "detect", "--cache-max-age", "-1s", "--timemap", uriT); code != 2 {
		t.Errorf("a negative --cache-max-age: exit %d, want 2", code)
	}
}

// TestPywbTimeGate: detect --timegate works with pywb's default, framed
// TimeGate (issue 38, 5).
func TestPywbTimeGate(t *testing.T) {
	pw := testcorpus.Pywb(t)
	dir := t.TempDir()
	seeds := filepath.Join(dir, "seeds.txt")
	if err := os.WriteFile(seeds, []byte("http://www.commonjournal4.co.uk/\nhttp://weeklyrecord70.info/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	code, _, stderr := runCLI(t, "detect", "-q", "--out-dir", out, "--no-cache", "--rate", "0", "--retries", "0",
		"--timegate", pw.URL+"/dev/", "--seeds", seeds)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if caps := readCaptures(t, out); len(caps) != 9 {
		t.Errorf("%d captures, want 9", len(caps))
	}
}

// TestPywbFailedRunKeepsOutputs: a run that finds nothing to score (pywb
// has no such collection) exits 1 and leaves the outputs of an earlier run
// in its --out-dir as they were (issue 38, 6).
func TestPywbFailedRunKeepsOutputs(t *testing.T) {
	pw := testcorpus.Pywb(t)
	out := filepath.Join(t.TempDir(), "out")
	args := []string{"detect", "-q", "--out-dir", out, "--no-cache", "--rate", "0", "--retries", "0", "--timemap"}
	if code, _, stderr := runCLI(t, append(args, pw.URL+"/dev/timemap/link/http://www.commonjournal4.co.uk/")...); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	before := map[string]string{}
	for _, name := range []string{"results.jsonl", "offtopic.json", "offtopic.csv"} {
		b, err := os.ReadFile(filepath.Join(out, name))
		if err != nil || len(b) == 0 {
			t.Fatalf("%s: %v (%d bytes)", name, err, len(b))
		}
		before[name] = string(b)
	}
	pws := testcorpus.PywbStates(t, "grow") // state 0: no collection "grow"
	code, _, stderr := runCLI(t, append(args, pws.URL+"/grow/timemap/link/http://www.nationalcourier57.co.uk/")...)
	if code != 1 || !strings.Contains(stderr, "no captures to score") {
		t.Errorf("exit %d: %s", code, stderr)
	}
	for name, was := range before {
		if b, err := os.ReadFile(filepath.Join(out, name)); err != nil || string(b) != was {
			t.Errorf("%s replaced by a failed run (%d bytes, was %d): %v", name, len(b), len(was), err)
		}
	}
}

// TestPywbMessagesAndRequests: a collection pywb does not have is named as
// such (its error page's words) and counted as a TimeMap dropped for an
// error, not one without mementos; a URI-R it does not hold is; the CDX
// path names a seed without captures; pywb's index, which does not page,
// is asked whether it pages once, not once per seed; captures the CDX
// server lists as stylesheets are not fetched (issue 38, 7).
func TestPywbMessagesAndRequests(t *testing.T) {
	pw := testcorpus.Pywb(t)
	grow := testcorpus.PywbStates(t, "grow") // state 0: no collection "grow"
	code, stderr, _ := detectPywb(t, pw, "dev", []string{"http://www.commonjournal4.co.uk/", "http://not-archived.example/"},
		"--timemap", grow.URL+"/grow/timemap/link/http://www.nationalcourier57.co.uk/")
	if code != 0 || !strings.Contains(stderr, "Collection not found: grow") ||
		!strings.Contains(stderr, "1 TimeMaps dropped for errors, 1 without mementos") {
		t.Errorf("exit %d: %s", code, stderr)
	}

	dir := t.TempDir()
	seeds := filepath.Join(dir, "seeds.txt")
	if err := os.WriteFile(seeds, []byte("http://www.commonjournal4.co.uk/*\nhttp://not-archived.example/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	code, _, stderr = runCLI(t, "detect", "-q", "--out-dir", out, "--no-cache", "--rate", "0", "--retries", "0",
		"--cdx-server", pw.URL+"/dev/cdx", "--cdx-kind", "pywb", "--memento-prefix", pw.URL+"/dev", "--seeds", seeds)
	if code != 0 || !strings.Contains(stderr, "seed http://not-archived.example/: no mementos") || !strings.Contains(stderr, "1 without mementos") {
		t.Errorf("exit %d: %s", code, stderr)
	}
	if n := pw.Served("/dev/cdx?matchType=exact&output=json&showNumPages=true&url=http%3A%2F%2Fnot-archived.example%2F"); n != 0 {
		t.Errorf("pywb asked %d more times whether its index pages", n)
	}
	if n := pw.Served("/dev/20060507142643id_/http://www.commonjournal4.co.uk/style.css"); n != 0 || len(pw.Unrecorded()) > 0 {
		t.Errorf("the stylesheet fetched %d times; not recorded: %v", n, pw.Unrecorded())
	}
	caps := readCaptures(t, out)
	if len(caps) != 5 || caps[4].Reason != "not HTML (text/css)" {
		t.Errorf("%d captures, the last %+v", len(caps), caps[len(caps)-1])
	}
}

// TestPywbReplayChains: through pywb, the three replay chains (meta refresh
// to meta refresh to the page; an archived 301, whose Location pywb's id_
// gives as its own header, to a meta refresh to the page; a frameset whose
// frame is a frameset) are judged by the page they end on (issue 38, 9).
func TestPywbReplayChains(t *testing.T) {
	pw := testcorpus.Pywb(t)
	var urirs []string
	for n := 1; n <= 3; n++ {
		for _, u := range []string{"http://chain%d.example/", "http://a%d.example/", "http://b%d.example/lh/", "http://a%d.example/main/", "http://b%d.example/nav/"} {
			urirs = append(urirs, fmt.Sprintf(u, n))
		}
	}
	code, stderr, caps := detectPywb(t, pw, "chains", urirs)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	seen := 0
	for _, c := range caps {
		if !strings.HasPrefix(c.URIR, "http://chain") || c.IsT0 {
			continue
		}
		seen++
		if c.Verdict != similarity.VerdictOn || c.Replay == nil || !strings.Contains(c.Excerpt, "fishermen") {
			t.Errorf("%s: %s (%s), replay %+v, excerpt %q: want on-topic, judged by the page the chain ends on", c.URIM, c.Verdict, c.Reason, c.Replay, c.Excerpt)
		}
	}
	if seen != 3 {
		t.Errorf("%d chains, want 3", seen)
	}
}
