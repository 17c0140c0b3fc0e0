package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSourcesRefused: a run reads one source; two kinds of source, or an
// option of a source that is not the one given, are refused before
// anything is read (exit 2), and an @list that cannot be read is a usage
// error as docs/usage.md says (issue 37 item 4).
func TestSourcesRefused(t *testing.T) {
	files := sampleFiles(t)
	dir := t.TempDir()
	list := filepath.Join(dir, "uri-ts.txt")
	os.WriteFile(list, []byte("http://127.0.0.1:1/timemap/link/http://example.org/\n"), 0o644)
	seeds := filepath.Join(dir, "seeds.txt")
	os.WriteFile(seeds, []byte("http://example.org/\n"), 0o644)
	out := filepath.Join(dir, "out")
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"TimeMaps and WARCs", append([]string{"detect", "-d", out, "--timemap", "@" + list}, files...), "WARC/ARC files and --timemap name 2 sources; a run reads one"},
		{"TimeMaps and Archive-It", []string{"detect", "-d", out, "--timemap", "@" + list, "--archiveit", "1234"}, "--timemap and --archiveit name 2 sources"},
		{"an index and WARCs", append([]string{"detect", "-d", out, "--index", "x.cdxj"}, files...), "WARC/ARC files and --index name 2 sources"},
		{"a CDX server and a TimeGate", []string{"detect", "-d", out, "--cdx-server", "http://127.0.0.1:1/cdx", "--timegate", "http://127.0.0.1:1/tg/", "--seeds", seeds}, "--timegate and --cdx-server name 2 sources"},
		{"seeds with TimeMaps", []string{"detect", "-d", out, "--timemap", "@" + list, "--seeds", seeds}, "--seeds does not apply to --timemap"},
		{"a CDX query without a CDX server", append([]string{"detect", "-d", out, "--cdx-from", "2010"}, files...), "--cdx-from does not apply to WARC/ARC files"},
		{"--warc-dir without an index", append([]string{"detect", "-d", out, "--warc-dir", dir}, files...), "--warc-dir does not apply to WARC/ARC files"},
		{"an unreadable @list", []string{"detect", "-d", out, "--timemap", "@" + filepath.Join(dir, "missing.txt")}, "--timemap: open " + filepath.Join(dir, "missing.txt")},
		{"unreadable seeds", append([]string{"detect", "-d", out, "--seeds", filepath.Join(dir, "missing.txt")}, files...), "--seeds: open"},
		{"model: two sources", append([]string{"model", "-o", filepath.Join(dir, "m.json.gz"), "--archiveit", "1"}, files...), "WARC/ARC files and --archiveit name 2 sources"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := runCLI(t, tc.args...)
			if code != exitUsage || !strings.Contains(stderr, tc.want) {
				t.Errorf("offtopic %s: exit %d, stderr %q; want exit 2 and %q", strings.Join(tc.args, " "), code, stderr, tc.want)
			}
		})
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a refused run wrote its outputs")
	}
}
