package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
)

// TestHelpFits: every command's --help fits 80 columns, and its flag groups
// come in the order a run needs them (sources first, the remote archives'
// settings last), not alphabetically (issue 36 point 11).
func TestHelpFits(t *testing.T) {
	var paths [][]string
	var walk func(path []string, cmds []*cli.Command)
	walk = func(path []string, cmds []*cli.Command) {
		for _, c := range cmds {
			if c.Hidden || c.Name == "help" {
				continue
			}
			p := append(slices.Clone(path), c.Name)
			paths = append(paths, p)
			walk(p, c.Subcommands)
		}
	}
	var notFound error
	walk(nil, newApp(nil, nil, nil, &notFound).Commands)
	paths = append(paths, nil) // the app's own help
	for _, p := range paths {
		code, out, stderr := runCLI(t, append(p, "--help")...)
		if code != 0 || out == "" {
			t.Errorf("offtopic %s --help: exit %d, %d bytes: %s", strings.Join(p, " "), code, len(out), stderr)
			continue
		}
		for i, line := range strings.Split(out, "\n") {
			if n := len([]rune(line)); n > 80 {
				t.Errorf("offtopic %s --help, line %d is %d columns: %s", strings.Join(p, " "), i+1, n, line)
			}
		}
	}
	_, out, _ := runCLI(t, "detect", "--help")
	var at []int
	for _, g := range []string{catSources, catScoring, catOutputs, catRun, catClient, catCDX} {
		at = append(at, strings.Index(out, "\n   "+g+":\n"))
	}
	if slices.Contains(at, -1) || !slices.IsSorted(at) {
		t.Errorf("detect --help's groups are not Sources, Scoring, Outputs, Run, Remote client, CDX server in that order (at %v):\n%s", at, out)
	}
}

// TestSummaryFits: detect's closing summary fits 80 columns (it was up to
// 134), but for the lines naming the files it wrote.
func TestSummaryFits(t *testing.T) {
	code, _, stderr := runCLI(t, append([]string{"detect", "-q", "-d", t.TempDir()}, sampleFiles(t)...)...)
	if code != 0 {
		t.Fatalf("detect: exit %d: %s", code, stderr)
	}
	for _, line := range strings.Split(strings.TrimSpace(stderr), "\n") {
		if !strings.HasPrefix(line, "offtopic: wrote ") && len(line) > 80 {
			t.Errorf("detect's summary has a line of %d columns: %s", len(line), line)
		}
	}
}

// TestFlagNames: a flag that takes a value shows what (no bare "value"),
// detect's results file is --jsonl beside --json and --csv (prune's
// --results reads results), evaluate writes into --report-dir as detect
// does, crawl's random seed is --random-seed beside detect's --seeds FILE;
// the old names still work and say the new ones (issue 37 item 5).
func TestFlagNames(t *testing.T) {
	var notFound error
	var walk func(path string, cmds []*cli.Command)
	walk = func(path string, cmds []*cli.Command) {
		for _, c := range cmds {
			p := strings.TrimSpace(path + " " + c.Name)
			for _, f := range c.Flags {
				if vf, ok := f.(cli.VisibleFlag); ok && !vf.IsVisible() {
					continue
				}
				if names, _ := flagHelp(f); strings.Contains(names, " VALUE") || strings.Contains(names, " value") {
					t.Errorf("offtopic %s: %s has no placeholder", p, names)
				}
			}
			walk(p, c.Subcommands)
		}
	}
	walk("", newApp(nil, nil, nil, &notFound).Commands)
	for _, tc := range []struct {
		cmd, flag string
		absent    []string
	}{
		{"detect", "--jsonl FILE", []string{"--results"}},
		{"evaluate", "--report-dir DIR", []string{"--report "}},
		{"crawl", "--random-seed N", []string{"--seed "}},
		{"crawl audit", "--random-seed N", []string{"--seed "}},
	} {
		_, out, _ := runCLI(t, append(strings.Fields(tc.cmd), "--help")...)
		if !strings.Contains(out, tc.flag) {
			t.Errorf("offtopic %s --help does not show %s", tc.cmd, tc.flag)
		}
		for _, a := range tc.absent {
			if strings.Contains(out, a) {
				t.Errorf("offtopic %s --help still shows %s", tc.cmd, a)
			}
		}
	}
	dir := t.TempDir()
	code, _, stderr := runCLI(t, append([]string{"detect", "-q", "--results", filepath.Join(dir, "r.jsonl")}, sampleFiles(t)...)...)
	if code != 0 || !strings.Contains(stderr, "--results is now --jsonl") {
		t.Errorf("detect --results (the old name): exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "r.jsonl")); err != nil {
		t.Errorf("detect --results wrote nothing: %v", err)
	}
}
