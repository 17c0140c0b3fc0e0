package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fullWriter fails every write, as stdout on a full disk does.
type fullWriter struct{}

func (fullWriter) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

// TestExitStatusAsDocumented (issue 23 item 14): write failures are
// failures of the run (1), not usage errors; out-of-range --cdx-limit,
// --timeout, --retries, --rate and --per-host are usage errors (2), not
// failures or silent defaults. A remote source on a closed loopback port
// is named so that nothing is fetched if a check is missed.
func TestExitStatusAsDocumented(t *testing.T) {
	warc := sampleFiles(t)[0]
	dir := t.TempDir()
	notDir := filepath.Join(dir, "file")
	os.WriteFile(notDir, []byte("x"), 0o644)
	uriT := "http://127.0.0.1:1/timemap/link/http://x.example/"
	seeds := filepath.Join(dir, "seeds.txt")
	os.WriteFile(seeds, []byte("http://x.example/\n"), 0o644)
	spec := filepath.Join(dir, "spec.json")
	os.WriteFile(spec, []byte(`{"name": "x", "reference_documents": ["http://x.example/"], "keywords": ["x"],
		"event_start": "2007-06-01", "event_end": "2008-12-31", "seeds": ["http://x.example/"]}`), 0o644)
	for _, tc := range []struct {
		name   string
		args   []string
		full   bool // stdout fails
		code   int
		stderr string
	}{
		{"stdout full", []string{"detect", "-q", "--format", "jsonl", "--output", "-", warc}, true, 1, "no space left on device"},
		{"out-dir not writable", []string{"detect", "-q", "--out-dir", filepath.Join(notDir, "out"), warc}, false, 1, "not a directory"},
		{"output not writable", []string{"detect", "-q", "--format", "csv", "--output", filepath.Join(notDir, "r.csv"), warc}, false, 1, "not a directory"},
		{"unknown format", []string{"detect", "-q", "--format", "bogus", "--output", filepath.Join(dir, "r"), warc}, false, 2, `--format "bogus"`},
		{"cdx-limit -1", []string{"detect", "-q", "--out-dir", filepath.Join(dir, "o1"), "--cdx-server", "http://127.0.0.1:1/cdx", "--seeds", seeds, "--cdx-limit", "-1"}, false, 2, "negative limit -1"},
		{"timeout 0", []string{"detect", "-q", "--out-dir", filepath.Join(dir, "o2"), "--timemap", uriT, "--timeout", "0"}, false, 2, "--timeout 0s: want more than 0"},
		{"timeout negative", []string{"detect", "-q", "--out-dir", filepath.Join(dir, "o3"), "--timemap", uriT, "--timeout", "-5s"}, false, 2, "--timeout -5s"},
		{"retries negative", []string{"detect", "-q", "--out-dir", filepath.Join(dir, "o4"), "--timemap", uriT, "--retries", "-1"}, false, 2, "--retries -1"},
		{"rate negative", []string{"detect", "-q", "--out-dir", filepath.Join(dir, "o5"), "--timemap", uriT, "--rate", "-2"}, false, 2, "--rate -2"},
		{"per-host negative", []string{"detect", "-q", "--out-dir", filepath.Join(dir, "o6"), "--timemap", uriT, "--per-host", "-3"}, false, 2, "--per-host -3"},
		{"crawl timeout 0", []string{"crawl", "-q", "--spec", spec, "--timegate", "http://127.0.0.1:1/timegate/", "--timeout", "0", "--out", filepath.Join(dir, "c")}, false, 2, "--timeout 0s"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var code int
			var stderr string
			if tc.full {
				var errb strings.Builder
				code = run(context.Background(), append([]string{"offtopic"}, tc.args...), strings.NewReader(""), fullWriter{}, &errb)
				stderr = errb.String()
			} else {
				code, _, stderr = runCLI(t, tc.args...)
			}
			if code != tc.code || !strings.Contains(stderr, tc.stderr) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, stderr, tc.code, tc.stderr)
			}
		})
	}
}
