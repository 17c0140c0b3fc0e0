package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/offtopic/offtopic/internal/testcorpus"
)

// TestExitStatus checks the one exit-status convention of every command
// (issue 12 item 17): 0 success, 1 the run failed or found nothing, 2 a bad
// command line, 130 interrupted.
func TestExitStatus(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.warc.gz")
	text := filepath.Join(dir, "notes.txt")
	os.WriteFile(empty, nil, 0o644)
	os.WriteFile(text, []byte("not an archive\n"), 0o644)
	sample := sampleFiles(t)[0]
	out := func() string { return filepath.Join(t.TempDir(), "out") }
	tests := []struct {
		name string
		args []string
		want int
		msg  string
	}{
		{"success", []string{"timemap", "-d", out(), sample}, 0, "wrote"},
		{"unknown flag", []string{"timemap", "--nope", sample}, 2, "not defined"},
		{"unknown flag of detect", []string{"detect", "--nope", sample}, 2, "not defined"},
		{"bad flag value", []string{"detect", "--workers", "x", sample}, 2, "invalid value"},
		{"missing required flag", []string{"evaluate", dir}, 2, "--gold is required; see offtopic evaluate --help"},
		{"results not found", []string{"prune", "--results", dir}, 2, "results.jsonl"},
		{"unknown command", []string{"bogus"}, 2, "bogus"},
		{"no input", []string{"timemap", "-d", out()}, 2, "no input"},
		{"timemap of an empty file", []string{"timemap", "-d", out(), empty}, 1, "no captures"},
		{"timemap of a text file", []string{"timemap", "-d", out(), text}, 1, "no captures"},
		{"timemap of a missing file", []string{"timemap", "-d", out(), filepath.Join(dir, "missing.warc")}, 1, "input files could"},
		{"detect of an empty file", []string{"detect", "-q", "-d", out(), empty}, 1, "no captures"},
		{"detect of a missing file and a good one", []string{"detect", "-q", "-d", out(), filepath.Join(dir, "missing.warc"), sample}, 1, "1 of 2 input files could not be read"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := runCLI(t, tc.args...)
			if code != tc.want || !strings.Contains(stderr, tc.msg) {
				t.Errorf("exit %d, want %d with %q; stderr:\n%s", code, tc.want, tc.msg, stderr)
			}
		})
	}
	t.Run("interrupted", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		var o, e bytes.Buffer
		code := run(ctx, []string{"offtopic", "detect", "-q", "-d", out(), sample}, strings.NewReader(""), &o, &e)
		if code != 130 || !strings.Contains(e.String(), "interrupted") || strings.Contains(e.String(), "context canceled") {
			t.Errorf("exit %d, want 130 and \"interrupted\"; stderr:\n%s", code, e.String())
		}
	})
	t.Run("documented", func(t *testing.T) {
		_, stdout, _ := runCLI(t, "--help")
		for _, w := range []string{"Exit status", "130", "bad command line"} {
			if !strings.Contains(stdout, w) {
				t.Errorf("--help lacks %q", w)
			}
		}
	})
}

// TestStaleTempFilesCleaned: a temporary file a killed run left in the
// output directory is gone after the next run writes there.
func TestStaleTempFilesCleaned(t *testing.T) {
	dir := t.TempDir()
	stale := filepath.Join(dir, ".index.cdxj.tmp-12345")
	os.WriteFile(stale, []byte("partial"), 0o644)
	if code, _, stderr := runCLI(t, "timemap", "-d", dir, sampleFiles(t)[0]); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("stale %s left: %v", stale, err)
	}
}

// TestCutPayloadCounted: the timemap summary counts payloads longer than
// the body cap (issue 12 item 13).
func TestCutPayloadCounted(t *testing.T) {
	var b bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&b, gzip.BestSpeed)
	const size = 17 << 20
	head := "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n"
	fmt.Fprintf(zw, "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: http://example.com/\r\nWARC-Date: 2014-01-03T03:03:20Z\r\n"+
		"Content-Type: application/http; msgtype=response\r\nContent-Length: %d\r\n\r\n%s", len(head)+size, head)
	io.CopyN(zw, bytes.NewReader(make([]byte, size)), size)
	zw.Write([]byte("\r\n\r\n"))
	zw.Close()
	in := filepath.Join(t.TempDir(), "big.warc.gz")
	os.WriteFile(in, b.Bytes(), 0o644)
	code, _, stderr := runCLI(t, "timemap", "-d", t.TempDir(), in)
	if code != 0 || !strings.Contains(stderr, "1 payloads longer than 16 MiB") {
		t.Errorf("exit %d; stderr lacks the cut payload:\n%s", code, stderr)
	}
}

// TestPruneDamagedInput: prune leaves a damaged stretch out and lists it,
// --strict makes that exit 1, --keep-damaged copies it (issue 12 item 14).
func TestPruneDamagedInput(t *testing.T) {
	src, err := os.ReadFile(sampleFiles(t)[0])
	if err != nil {
		t.Fatal(err)
	}
	// 300 junk bytes after the first gzip member.
	zr, _ := gzip.NewReader(bytes.NewReader(src))
	zr.Multistream(false)
	br := bytes.NewReader(src)
	zr.Reset(br)
	zr.Multistream(false)
	io.Copy(io.Discard, zr)
	first := len(src) - br.Len()
	damaged := append(append(append([]byte(nil), src[:first]...), bytes.Repeat([]byte("junk!"), 60)...), src[first:]...)
	dir := t.TempDir()
	in := filepath.Join(dir, "in", "damaged.warc.gz")
	os.MkdirAll(filepath.Dir(in), 0o755)
	os.WriteFile(in, damaged, 0o644)
	res := filepath.Join(dir, "res")
	if code, _, stderr := runCLI(t, "detect", "-q", "-d", res, in); code != 0 {
		t.Fatalf("detect exit %d: %s", code, stderr)
	}
	code, _, stderr := runCLI(t, "prune", "--results", res, "-d", filepath.Join(dir, "clean"))
	if code != 0 || !strings.Contains(stderr, fmt.Sprintf("damaged: %s: offset %d:", in, first)) || !strings.Contains(stderr, "1 damaged stretch of the inputs left out") {
		t.Errorf("prune exit %d; stderr:\n%s", code, stderr)
	}
	code, _, stderr = runCLI(t, "prune", "--strict", "--results", res, "-d", filepath.Join(dir, "strict"))
	if code != 1 || !strings.Contains(stderr, "--strict") {
		t.Errorf("prune --strict exit %d; stderr:\n%s", code, stderr)
	}
	code, _, stderr = runCLI(t, "prune", "--keep-damaged", "--results", res, "-d", filepath.Join(dir, "kept"))
	if code != 0 || !strings.Contains(stderr, "1 damaged stretch of the inputs kept") {
		t.Errorf("prune --keep-damaged exit %d; stderr:\n%s", code, stderr)
	}
}

// TestPruneSaysWhatItCouldNotDo (issue 23 item 6): decisions that match no
// capture and off-topic captures that are in none of the given files are
// said and counted, and fail the run under --strict.
func TestPruneSaysWhatItCouldNotDo(t *testing.T) {
	files := sampleFiles(t)
	dir := t.TempDir()
	res := filepath.Join(dir, "res")
	if code, _, stderr := runCLI(t, append([]string{"detect", "-q", "-d", res}, files...)...); code != 0 {
		t.Fatalf("detect exit %d: %s", code, stderr)
	}
	decisions := filepath.Join(dir, "decisions.csv")
	os.WriteFile(decisions, []byte("key,timestamp,uri_m,uri_r,curator decision\r\n\"org,elsewhere)/\",20010101000000,,http://elsewhere.org/,off-topic\r\n"), 0o644)
	// One of the sample's files only: the off-topic captures of the others are absent.
	code, _, stderr := runCLI(t, "prune", "--results", res, "--decisions", decisions, "-d", filepath.Join(dir, "clean"), files[0])
	if code != 0 || !strings.Contains(stderr, "1 curator decisions match no capture") || !strings.Contains(stderr, "in none of the given files") {
		t.Errorf("prune exit %d; stderr:\n%s", code, stderr)
	}
	code, _, stderr = runCLI(t, "prune", "--strict", "--results", res, "--decisions", decisions, "-d", filepath.Join(dir, "strict"), files[0])
	if code != 1 || !strings.Contains(stderr, "match no capture") || !strings.Contains(stderr, "--strict") {
		t.Errorf("prune --strict exit %d; stderr:\n%s", code, stderr)
	}
	if code, _, stderr := runCLI(t, "prune", "--strict", "--results", res, "-d", filepath.Join(dir, "all")); code != 0 {
		t.Errorf("prune --strict of everything exit %d; stderr:\n%s", code, stderr)
	}
}

// TestTextCutWarned: a page whose gzip payload inflates past 8 MiB is scored
// on its first 8 MiB, and stderr says so of that capture; --strict does not
// fail on it (nothing was skipped) (issue 23 item 14).
func TestTextCutWarned(t *testing.T) {
	var page bytes.Buffer
	pz := gzip.NewWriter(&page)
	pz.Write([]byte("<html><body><p>"))
	pz.Write(bytes.Repeat([]byte("word "), 9<<20/5))
	pz.Write([]byte("</p></body></html>"))
	pz.Close()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	head := "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\n\r\n"
	fmt.Fprintf(zw, "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: http://example.com/\r\nWARC-Date: 2014-01-03T03:03:20Z\r\n"+
		"Content-Type: application/http; msgtype=response\r\nContent-Length: %d\r\n\r\n%s%s\r\n\r\n", len(head)+page.Len(), head, page.Bytes())
	zw.Close()
	in := filepath.Join(t.TempDir(), "big.warc.gz")
	os.WriteFile(in, b.Bytes(), 0o644)
	for _, args := range [][]string{{"detect", "-q"}, {"detect", "-q", "--strict"}} {
		code, _, stderr := runCLI(t, append(args, "-d", t.TempDir(), in)...)
		if code != 0 || !strings.Contains(stderr, "warning: http://example.com/ 20140103030320") || !strings.Contains(stderr, "text cut at 8 MiB") {
			t.Errorf("%v: exit %d; stderr lacks the cut text:\n%s", args, code, stderr)
		}
	}
}

// TestOutDirLocked (issue 23 item 5): a run into an out-dir another run is
// writing is refused, naming the other, and touches nothing there.
func TestOutDirLocked(t *testing.T) {
	dir := t.TempDir()
	host, _ := os.Hostname()
	lock := fmt.Sprintf("pid %d on %s since 2026-01-01T00:00:00Z\n", os.Getpid(), host) // a process that runs: this test
	os.WriteFile(filepath.Join(dir, ".offtopic.lock"), []byte(lock), 0o644)
	os.WriteFile(filepath.Join(dir, "results.jsonl"), []byte("old\n"), 0o644)
	code, _, stderr := runCLI(t, append([]string{"detect", "-q", "-d", dir}, sampleFiles(t)...)...)
	if code != 1 || !strings.Contains(stderr, "being written by another offtopic run") || !strings.Contains(stderr, fmt.Sprint(os.Getpid())) {
		t.Errorf("exit %d; stderr:\n%s", code, stderr)
	}
	// The directory is taken before the input is read (issue 38 item 12):
	// a second run is refused at once, not after it indexed its input.
	missing := filepath.Join(t.TempDir(), "missing.warc.gz")
	code, _, stderr = runCLI(t, "detect", "-q", "-d", dir, missing)
	if code != 1 || !strings.Contains(stderr, "being written by another offtopic run") || strings.Contains(stderr, "missing.warc.gz") {
		t.Errorf("the lock is not taken before the input is read: exit %d; stderr:\n%s", code, stderr)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "results.jsonl")); string(b) != "old\n" {
		t.Errorf("results.jsonl was replaced: %.80q", b)
	}
	os.Remove(filepath.Join(dir, ".offtopic.lock"))
	if code, _, stderr := runCLI(t, append([]string{"detect", "-q", "-d", dir}, sampleFiles(t)...)...); code != 0 {
		t.Errorf("after the lock is gone: exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, ".offtopic.lock")); err == nil {
		t.Error("the run left its lock behind")
	}
}

// TestStderrEscapesTargetURIs: a target URI carrying terminal escapes
// (ESC [ ... m, a bidi override) reaches stderr escaped, never raw (issue
// 38, 12).
func TestStderrEscapesTargetURIs(t *testing.T) {
	var page bytes.Buffer
	pz := gzip.NewWriter(&page)
	pz.Write([]byte("<html><body><p>"))
	pz.Write(bytes.Repeat([]byte("word "), 9<<20/5))
	pz.Close()
	in := filepath.Join(t.TempDir(), "esc.warc")
	uri := "http://example.com/\x1b[2J\x1b]0;pwned\x07\u202e"
	testcorpus.WriteWARC(t, in, []testcorpus.Response{{URI: uri, At: time.Date(2014, 1, 3, 3, 3, 20, 0, time.UTC), Status: 200,
		Header: "Content-Encoding: gzip\r\n", Body: page.String()}})
	code, _, stderr := runCLI(t, "detect", "-q", "-d", t.TempDir(), in)
	if code != 0 || strings.ContainsAny(stderr, "\x1b\x07\u202e") || !strings.Contains(stderr, `http://example.com/\x1b[2J\x1b]0;pwned\a\u202e`) {
		t.Errorf("exit %d; stderr:\n%q", code, stderr)
	}
}

// TestKilledRunsTempFilesRemoved: the temporary files a run killed with
// SIGKILL left (its run directory: index folders, spill files) are removed
// by the next run, which leaves none of its own (issue 38 item 12).
func TestKilledRunsTempFilesRemoved(t *testing.T) {
	tmp := t.TempDir()
	host, _ := os.Hostname()
	killed := filepath.Join(tmp, "offtopic-run-123")
	os.MkdirAll(filepath.Join(killed, "offtopic-index-1"), 0o755)
	os.WriteFile(filepath.Join(killed, ".owner"), []byte(fmt.Sprintf("pid %d on %s since 2026-01-01T00:00:00Z\n", 1<<22+777, host)), 0o644)
	os.WriteFile(filepath.Join(killed, "offtopic-spill-1.gob"), make([]byte, 1<<20), 0o644)
	for _, args := range [][]string{{"detect", "-q", "-d", t.TempDir()}, {"timemap", "-d", t.TempDir()}} {
		if code, _, stderr := runCLI(t, append(append(args, "--temp-dir", tmp), sampleFiles(t)...)...); code != 0 {
			t.Fatalf("%s: exit %d: %s", args[0], code, stderr)
		}
		if ents, _ := os.ReadDir(tmp); len(ents) != 0 {
			t.Errorf("%s: %d entries left in the temporary directory, the killed run's among them: %v", args[0], len(ents), ents)
		}
	}
}
