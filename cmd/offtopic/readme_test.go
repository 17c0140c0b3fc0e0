package main

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// readmeCommand is the README's command line whose comment says what, as
// the arguments to run it with (without the program's name and the
// comment), COLLECTION in place of the collection and DIR/ before the
// outputs it names.
func readmeCommand(t *testing.T, what string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		cmd, comment, ok := strings.Cut(line, "#")
		if !ok || !strings.Contains(comment, what) || !strings.HasPrefix(strings.TrimPrefix(cmd, "./"), "offtopic ") {
			continue
		}
		return strings.Fields(cmd)[1:]
	}
	t.Fatalf("the README has no command line whose comment says %q", what)
	return nil
}

// TestReadmeOTMTRule: the README's OTMT line judges as OTMT's rule does:
// a scored capture is off-topic when, and only when, its cosine is below
// the threshold (issue 36 point 9).
func TestReadmeOTMTRule(t *testing.T) {
	args := readmeCommand(t, "OTMT's -tm rule")
	dir := t.TempDir()
	var threshold float64
	for i, a := range args {
		switch {
		case strings.HasPrefix(a, "collection"):
			args[i] = filepath.Dir(sampleFiles(t)[0])
		case strings.HasSuffix(a, ".csv"):
			args[i] = filepath.Join(dir, a)
		case strings.HasPrefix(a, "cosine="):
			threshold, _ = strconv.ParseFloat(strings.TrimPrefix(a, "cosine="), 64)
		}
	}
	if threshold == 0 || !slices.Contains(args, "--csv") {
		t.Fatalf("the README's OTMT line %q names no cosine threshold or no CSV", args)
	}
	if code, _, stderr := runCLI(t, append([]string{args[0], "-q"}, args[1:]...)...); code != 0 {
		t.Fatalf("offtopic %s: exit %d: %s", strings.Join(args, " "), code, stderr)
	}
	f, err := os.Open(args[slices.Index(args, "--csv")+1])
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	head := rows[0]
	cos, verdict := slices.Index(head, "cosine"), slices.Index(head, "verdict")
	for _, r := range rows[1:] {
		if r[verdict] == "not scored" || r[cos] == "" {
			continue
		}
		c, _ := strconv.ParseFloat(r[cos], 64)
		if want := c < threshold; want != (r[verdict] == "off-topic") {
			t.Errorf("%s at cosine %s is %s under the README's OTMT rule (cosine < %v)", r[1], r[cos], r[verdict], threshold)
		}
	}
}
