package main

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/offtopic/offtopic/remote"
	"github.com/offtopic/offtopic/similarity"
)

// parseFlags parses args into flags as a command does, without running it.
func parseFlags(t *testing.T, flags []cli.Flag, args ...string) {
	t.Helper()
	app := &cli.App{Name: "t", Flags: flags, Action: func(*cli.Context) error { return nil },
		Writer: &bytes.Buffer{}, ErrWriter: &bytes.Buffer{}}
	if err := app.Run(append([]string{"t"}, args...)); err != nil {
		t.Fatalf("%v: %v", args, err)
	}
}

// TestDetectOptionsParse (issue 25 item 1): flags land in the option groups
// and each group yields the library's settings, without running detect.
func TestDetectOptionsParse(t *testing.T) {
	def := similarity.DefaultSettings()
	tests := []struct {
		args     []string
		settings similarity.Settings
		dests    []destination
		client   remote.ClientOptions
		query    remote.Query
	}{
		{
			args:     nil,
			settings: def,
			dests:    []destination{{"jsonl", "offtopic-out/results.jsonl"}, {"json", "offtopic-out/offtopic.json"}, {"csv", "offtopic-out/offtopic.csv"}},
			client:   remote.ClientOptions{Version: version, PerHost: 4, RatePerHost: 5, Timeout: 30 * time.Second, MaxRetries: 4, CacheMaxAge: remote.DefaultCacheMaxAge},
		},
		{
			args: []string{"--tm", "cosine=0.2", "--plain", "--min-t0-words", "5", "--csv", "s.csv", "--retries", "0", "--rate", "0",
				"--per-host", "0", "--timeout", "2s", "--allow-private", "--cdx-from", "2005", "--cdx-limit", "3", "--cdx-filter", "statuscode:200", "--cdx-filter", "!mimetype:image"},
			settings: func() similarity.Settings {
				s := def
				s.Measures, s.Plain, s.MinT0Words = "cosine=0.2", true, 5
				return s
			}(),
			dests:  []destination{{"csv", "s.csv"}},
			client: remote.ClientOptions{Version: version, PerHost: -1, RatePerHost: -1, Timeout: 2 * time.Second, MaxRetries: -1, AllowPrivate: true, CacheMaxAge: remote.DefaultCacheMaxAge},
			query:  remote.Query{From: "2005", Limit: 3, Filters: []string{"statuscode:200", "!mimetype:image"}},
		},
		{
			args:     []string{"--report-dir", "r", "-d", "o", "--format", "csv", "-o", "-"},
			settings: def,
			dests: []destination{{"csv", "-"}, {"jsonl", "o/results.jsonl"}, {"json", "o/offtopic.json"}, {"csv", "o/offtopic.csv"},
				{"jsonl", "r/results.jsonl"}, {"json", "r/offtopic.json"}, {"csv", "r/offtopic.csv"}, {"xlsx", "r/offtopic.xlsx"}, {"html", "r/offtopic.html"}},
			client: remote.ClientOptions{Version: version, PerHost: 4, RatePerHost: 5, Timeout: 30 * time.Second, MaxRetries: 4, CacheMaxAge: remote.DefaultCacheMaxAge},
		},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			o := &detectOptions{}
			parseFlags(t, o.flags(), tc.args...)
			if got := o.scoring.settings(); got != tc.settings {
				t.Errorf("settings %+v, want %+v", got, tc.settings)
			}
			dests, err := o.out.destinations()
			if err != nil || !reflect.DeepEqual(dests, tc.dests) {
				t.Errorf("destinations %v (%v), want %v", dests, err, tc.dests)
			}
			if got := o.src.client.options(nil); !reflect.DeepEqual(got, tc.client) {
				t.Errorf("client %+v, want %+v", got, tc.client)
			}
			q, err := o.src.cdx.query()
			if err != nil || !reflect.DeepEqual(q, tc.query) {
				t.Errorf("query %+v (%v), want %+v", q, err, tc.query)
			}
		})
	}
}

// TestCrawlOptionsParse: --out-dir and the old --out land in one place;
// the spec's limits are overridden only by flags given (--target 0 too).
func TestCrawlOptionsParse(t *testing.T) {
	for _, tc := range []struct {
		args       []string
		outDir     string
		target     int
		targetSet  bool
		sources    int
		maxRuntime time.Duration
	}{
		{nil, "offtopic-crawl", 0, false, 0, 0},
		{[]string{"--out-dir", "a", "--archive", "x"}, "a", 0, false, 1, 0},
		{[]string{"--out", "b", "--target", "0", "--timegate", "http://t/", "--archive", "x"}, "b", 0, true, 2, 0},
		{[]string{"-o", "c", "--target", "50", "--max-runtime", "1m"}, "c", 50, true, 0, time.Minute},
	} {
		o := &crawlOptions{}
		parseFlags(t, o.flags(), tc.args...)
		if o.outDir != tc.outDir || o.target != tc.target || o.targetSet != tc.targetSet || o.archive.count() != tc.sources || o.maxRuntime != tc.maxRuntime {
			t.Errorf("%v: out-dir %q target %d (set %v), %d archives, max-runtime %v; want %q %d (%v), %d, %v",
				tc.args, o.outDir, o.target, o.targetSet, o.archive.count(), o.maxRuntime, tc.outDir, tc.target, tc.targetSet, tc.sources, tc.maxRuntime)
		}
	}
}

// TestUsageErrorsOneLine (issue 24 items 2 and 7): a wrong command line is
// one line on stderr with what was meant and which --help to read, exit 2,
// never the whole help.
func TestUsageErrorsOneLine(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"prune", "--out", "x"}, "flag provided but not defined: -out (did you mean --out-dir?); see offtopic prune --help"},
		{[]string{"detect", "--meausres", "cosine"}, "(did you mean --measures?); see offtopic detect --help"},
		{[]string{"detect", "--outdir", "x"}, "(did you mean --out-dir?)"},
		{[]string{"crawl", "audit", "--treshold", "1"}, "(did you mean --threshold?); see offtopic crawl audit --help"},
		{[]string{"evaluate", "out"}, "offtopic: evaluate: --gold is required; see offtopic evaluate --help"},
		{[]string{"detcet"}, `no command "detcet" (did you mean detect?); see offtopic --help`},
		{[]string{"detect", "--zzzzzz"}, "flag provided but not defined: -zzzzzz; see offtopic detect --help"},
		{[]string{"--bogus"}, "flag provided but not defined: -bogus; see offtopic --help"},
	} {
		code, stdout, stderr := runCLI(t, tc.args...)
		if code != 2 || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, tc.want) || stdout != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 2 and one line with %q", tc.args, code, stdout, stderr, tc.want)
		}
	}
}

// TestHelpShort (issue 24 item 7): --help groups the flags and no flag's
// line is long (it was up to 323 characters).
func TestHelpShort(t *testing.T) {
	for _, cmd := range []string{"detect", "evaluate", "report", "timemap", "prune", "map", "reduce", "merge", "model", "crawl", "crawl audit"} {
		code, out, _ := runCLI(t, append(strings.Fields(cmd), "--help")...)
		if code != 0 {
			t.Fatalf("%s --help: exit %d", cmd, code)
		}
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(l, "   -") && len(l) > 140 {
				t.Errorf("%s --help: %d characters: %s", cmd, len(l), l)
			}
		}
		if cmd == "detect" {
			for _, cat := range []string{catSources, catCDX, catClient, catScoring, catOutputs, catRun} {
				if !strings.Contains(out, "\n   "+cat+":\n") {
					t.Errorf("detect --help has no group %q", cat)
				}
			}
		}
	}
	if _, out, _ := runCLI(t, "crawl", "--help"); !strings.Contains(out, "--target N              collect N documents (default: the spec's, else 200)") {
		t.Errorf("crawl --help does not show --target's real default:\n%s", out)
	}
}

// TestCLIReferenceCurrent (issue 24 item 9): docs/cli.md is what the docs
// command writes; regenerate it with go run ./cmd/offtopic docs > docs/cli.md.
func TestCLIReferenceCurrent(t *testing.T) {
	code, got, stderr := runCLI(t, "docs")
	if code != 0 {
		t.Fatalf("docs: exit %d: %s", code, stderr)
	}
	for _, w := range []string{"## offtopic detect", "## offtopic crawl audit", "### Scoring", "`--measures RULE`, `--tm RULE`", "| 130 |"} {
		if !strings.Contains(got, w) {
			t.Errorf("the reference lacks %q", w)
		}
	}
	want, err := os.ReadFile(filepath.Join("..", "..", "docs", "cli.md"))
	if err != nil || string(want) != got {
		t.Errorf("docs/cli.md is stale (%v): run go run ./cmd/offtopic docs > docs/cli.md", err)
	}
}

// TestPruneDefaults (issue 24 items 2 and 5): prune writes beside the
// results folder when not told, and takes a folder for its WARCs.
func TestPruneDefaults(t *testing.T) {
	for _, tc := range []struct{ results, mode, want string }{
		{"out", "copy", "out-pruned"},
		{"a/coll-audit/", "copy", "a/coll-audit-pruned"},
		{"out", "acl", "out-acl"},
	} {
		if got := defaultPruneDir(tc.results, tc.mode); got != tc.want {
			t.Errorf("defaultPruneDir(%q, %s) = %q, want %q", tc.results, tc.mode, got, tc.want)
		}
	}
	if got := defaultPruneDir(".", "copy"); filepath.Base(got) == "-pruned" || !strings.HasSuffix(got, "-pruned") {
		t.Errorf(`defaultPruneDir(".") = %q, want the folder's own name + "-pruned"`, got)
	}

	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	files := sampleFiles(t)
	if code, _, stderr := runCLI(t, append([]string{"detect", "-q", "-d", out}, files...)...); code != 0 {
		t.Fatalf("detect: exit %d: %s", code, stderr)
	}
	code, _, stderr := runCLI(t, "prune", "--results", out)
	if code != 0 {
		t.Fatalf("prune without --out-dir: exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "out-pruned", "index.cdxj")); err != nil {
		t.Errorf("prune did not write out-pruned: %v\n%s", err, stderr)
	}
	got, err := collectionFiles([]string{filepath.Dir(files[0])})
	if err != nil || !reflect.DeepEqual(got, files) {
		t.Errorf("collectionFiles(folder) = %v (%v), want %v", got, err, files)
	}
}
