package main

import (
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/offtopic/offtopic/report"
	"github.com/offtopic/offtopic/similarity"
)

// TestWeeklyRound is the curator's week of docs/review.md, each command run
// from the folder the page says: detect from the collection's parent folder
// with relative paths, prune from the downloads folder where the decisions
// were saved (as the report prints it), then a second prune into the same
// output with more decisions, which replaces the first.
func TestWeeklyRound(t *testing.T) {
	home := t.TempDir()
	coll := filepath.Join(home, "collection")
	if err := os.MkdirAll(coll, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range sampleFiles(t) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(coll, filepath.Base(f)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(home)
	if code, _, stderr := runCLI(t, "detect", "-q", "--report-dir", "review", "collection/"); code != 0 {
		t.Fatalf("detect --report-dir review collection/: exit %d: %s", code, stderr)
	}
	review := filepath.Join(home, "review")
	var run report.Run
	rf, err := openResults(review, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	var results []*similarity.TimeMapResult
	for r, err := range report.ReadResults(rf.f, rf.path, &run) {
		if err != nil {
			t.Fatal(err)
		}
		results = append(results, r)
	}
	rf.Close()
	for _, in := range run.Inputs {
		if !filepath.IsAbs(in) {
			t.Errorf("results.jsonl records the input %q relative to the folder detect ran in", in)
		}
	}

	// The curator marks one off-topic capture on-topic and one on-topic
	// capture unsure, and saves from the report into ~/Downloads.
	var on, off *similarity.CaptureResult
	for _, r := range results {
		for i := range r.Captures {
			c := &r.Captures[i]
			switch {
			case c.Verdict == similarity.VerdictOff && off == nil:
				off = c
			case c.Verdict == similarity.VerdictOn && on == nil && i > 0:
				on = c
			}
		}
	}
	if on == nil || off == nil {
		t.Fatal("the sample has no on-topic and off-topic captures to decide")
	}
	downloads := filepath.Join(home, "Downloads")
	os.MkdirAll(downloads, 0o755)
	decide := func(name string, ds map[*similarity.CaptureResult]string) {
		t.Helper()
		csv := "key,timestamp,uri_m,uri_r,curator decision\n"
		for c, d := range ds {
			k := similarity.KeyOf(c)
			csv += fmt.Sprintf("%q,%s,%q,%q,%s\n", k.Key, k.TS, c.URIM, c.URIR, d)
		}
		if err := os.WriteFile(filepath.Join(downloads, name), []byte(csv), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	decide("decisions-1.csv", map[*similarity.CaptureResult]string{off: "on-topic", on: "unsure"})
	t.Chdir(downloads)
	// The command the report prints after saving (its folder is absolute).
	code, _, stderr := runCLI(t, "prune", "--results", review, "--decisions", "decisions-1.csv")
	if code != 0 {
		t.Fatalf("prune as the report prints it, run from the downloads folder: exit %d: %s", code, stderr)
	}
	for _, want := range []string{"2 curator decisions: 0 off-topic, 1 on-topic, 1 unsure (kept: --unsure keep)\n",
		"3 captures left out: 3 off-topic by verdict, 0 by curator decision\n", "wrote " + review + "-pruned (11 captures)"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("prune says:\n%s\nwant %q", stderr, want)
		}
	}

	// A week later: one more capture decided off-topic; prune again into
	// the same folder.
	decide("decisions-2.csv", map[*similarity.CaptureResult]string{off: "on-topic", on: "off-topic"})
	code, _, stderr = runCLI(t, "prune", "--results", review, "--decisions", "decisions-2.csv")
	if code != 0 {
		t.Fatalf("a second prune into %s-pruned: exit %d: %s", review, code, stderr)
	}
	if want := "4 captures left out: 3 off-topic by verdict, 1 by curator decision\n"; !strings.Contains(stderr, want) {
		t.Errorf("the second prune says:\n%s\nwant %q", stderr, want)
	}
	idx, err := os.ReadFile(filepath.Join(review+"-pruned", "index.cdxj"))
	if err != nil || strings.Count(string(idx), "\n") != 10 {
		t.Errorf("after the second prune index.cdxj holds %d captures (%v), want 10", strings.Count(string(idx), "\n"), err)
	}
}

// TestDeadTimeGate: a TimeGate with nothing listening ends the run after
// the first seed's tries, with a message that says what to check, not after
// every seed's.
func TestDeadTimeGate(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	dir := t.TempDir()
	seeds := filepath.Join(dir, "seeds.txt")
	var b strings.Builder
	for i := range 30 {
		fmt.Fprintf(&b, "http://example%d.org/\n", i)
	}
	os.WriteFile(seeds, []byte(b.String()), 0o644)
	code, _, stderr := runCLI(t, "detect", "-q", "--no-cache", "--retries", "1", "--out-dir", filepath.Join(dir, "out"),
		"--timegate", "http://"+addr+"/timegate/", "--seeds", seeds)
	if code != exitFailed || !strings.Contains(stderr, addr+" refuses connections") {
		t.Errorf("detect with a dead TimeGate: exit %d: %s", code, stderr)
	}
	m := regexp.MustCompile(`offtopic: (\d+) requests`).FindStringSubmatch(stderr)
	if m == nil {
		t.Fatalf("no request count in:\n%s", stderr)
	}
	// At most the first requests in flight (4 per host), each tried twice.
	if n, _ := strconv.Atoi(m[1]); n > 8 {
		t.Errorf("%d requests to a TimeGate that refused the first seed's every try, want at most 8", n)
	}
}

// TestWeeklyRoundAsDocumented runs docs/review.md's weekly round as it is
// printed: each "cd" and each offtopic command of its block, in order, with
// ~ a home of the test's; the decisions files the browser would download
// are written when a command first names them.
func TestWeeklyRoundAsDocumented(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "review.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(b), "## The weekly round\n")
	_, block, ok2 := strings.Cut(section, "```sh\n")
	block, _, ok3 := strings.Cut(block, "```")
	if !ok || !ok2 || !ok3 {
		t.Fatal("docs/review.md has no sh block under \"## The weekly round\"")
	}
	home := t.TempDir()
	coll := filepath.Join(home, "archive", "collection")
	os.MkdirAll(coll, 0o755)
	os.MkdirAll(filepath.Join(home, "Downloads"), 0o755)
	// The crawl adds the last file before week 2's detect.
	files := absPaths(sampleFiles(t))
	add := func(f string) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(coll, filepath.Base(f)), data, 0o644)
	}
	for _, f := range files[:len(files)-1] {
		add(f)
	}
	detects := 0
	expand := func(s string) string {
		if s == "~" || strings.HasPrefix(s, "~/") {
			return home + s[1:]
		}
		return s
	}
	decisionsFiles := 0
	ran := 0
	for _, line := range strings.Split(block, "\n") {
		cmd, _, _ := strings.Cut(line, "#")
		fields := strings.Fields(cmd)
		if len(fields) == 0 {
			continue
		}
		for i := range fields {
			fields[i] = expand(fields[i])
		}
		switch fields[0] {
		case "cd":
			t.Chdir(fields[1])
			continue
		case "offtopic":
			if fields[1] == "detect" {
				if detects++; detects == 2 {
					add(files[len(files)-1])
				}
			}
		default:
			t.Fatalf("docs/review.md's round runs %q, which this test does not know", line)
		}
		for i, f := range fields {
			if i > 0 && (fields[i-1] == "--gold" || fields[i-1] == "--decisions") {
				if _, err := os.Stat(f); err != nil {
					decisionsFiles++
					writeDecisions(t, f, filepath.Join(home, "archive", "review"), decisionsFiles)
				}
			}
		}
		code, _, stderr := runCLI(t, fields[1:]...)
		if code != 0 {
			t.Fatalf("%s (in %s): exit %d: %s", strings.TrimSpace(cmd), mustGetwd(t), code, stderr)
		}
		ran++
	}
	if ran < 4 || decisionsFiles != 2 {
		t.Errorf("the round ran %d commands with %d decisions files, want detect, evaluate and two prunes with two files", ran, decisionsFiles)
	}
	if _, err := os.Stat(filepath.Join(home, "archive", "review-pruned", "index.cdxj")); err != nil {
		t.Errorf("the round left no pruned copy: %v", err)
	}
	// Week 2's report opens on what is new and shows week 1's decision.
	page, err := os.ReadFile(filepath.Join(home, "archive", "review", "offtopic.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`id="news-card"`, `<option value="new" selected>`, `"decided":[[`} {
		if !strings.Contains(string(page), want) {
			t.Errorf("week 2's HTML report has no %s", want)
		}
	}
}

// writeDecisions writes the decisions the curator saves in the week's
// round n: the first on-topic capture after a t0 off-topic, then (n > 1,
// when the grown collection has off-topic captures) the first off-topic
// capture on-topic too.
func writeDecisions(t *testing.T, path, results string, n int) {
	t.Helper()
	rf, err := openResults(results, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer rf.Close()
	csv := "key,timestamp,uri_m,uri_r,curator decision\n"
	var on, off bool
	for r, err := range rf.all() {
		if err != nil {
			t.Fatal(err)
		}
		for i, c := range r.Captures {
			k := similarity.KeyOf(&c)
			switch {
			case c.Verdict == similarity.VerdictOff && n > 1 && !off:
				csv += fmt.Sprintf("%q,%s,%q,%q,on-topic\n", k.Key, k.TS, c.URIM, c.URIR)
				off = true
			case c.Verdict == similarity.VerdictOn && i > 0 && !on:
				csv += fmt.Sprintf("%q,%s,%q,%q,off-topic\n", k.Key, k.TS, c.URIM, c.URIR)
				on = true
			}
		}
	}
	if err := os.WriteFile(path, []byte(csv), 0o644); err != nil {
		t.Fatal(err)
	}
}

func mustGetwd(t *testing.T) string {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	return wd
}
