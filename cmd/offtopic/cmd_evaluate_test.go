package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPrintable(t *testing.T) {
	tests := []struct{ in, want string }{
		{"http://a/20050101000000/http://x/", "http://a/20050101000000/http://x/"},
		{"http://a/\x1b]0;pwned\x07/20050101000000/http://x/", `http://a/\x1b]0;pwned\a/20050101000000/http://x/`},
		{"http://a/\u009b31m/x", `http://a/\u009b31m/x`},
		{"http://a/\u202etxt.exe", `http://a/\u202etxt.exe`},
		{"http://a/\xff\x7f", `http://a/\xff\x7f`},
		{`http://a/\x1b`, `http://a/\\x1b`},
		{"http://a/café/日本", "http://a/café/日本"},
	}
	for _, tc := range tests {
		if got := printable(tc.in); got != tc.want {
			t.Errorf("printable(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

// TestEvaluateGoldHostile: a gold file whose rows label one capture both
// ways, or whose URI-Ms hold terminal escape sequences, is evaluated; the
// conflict is named with both lines on stderr and the capture left out, and
// --misses shows the URI-M escaped (issue 23 item 14).
func TestEvaluateGoldHostile(t *testing.T) {
	dir := t.TempDir()
	res := filepath.Join(dir, "res")
	if code, _, stderr := runCLI(t, append([]string{"detect", "-q", "-d", res}, sampleFiles(t)...)...); code != 0 {
		t.Fatalf("detect exit %d: %s", code, stderr)
	}
	gold, err := os.ReadFile(filepath.Join("..", "..", "testdata", "sample", "gold.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(string(gold), "\n"), "\n")
	row2 := strings.Split(lines[1], "\t")
	tests := []struct {
		name            string
		edit            func([]string) []string
		stdout, stderr  []string
		notInStdoutByte string
	}{
		{"conflicting rows", func(l []string) []string {
			flip := append([]string(nil), row2...)
			flip[3] = "0"
			return append(l, strings.Join(flip, "\t"))
		}, []string{"wrong verdicts: none"}, []string{"evaluate: warning:", "lines 2 and 14", "on-topic (1) and off-topic (0): left out of the evaluation"}, ""},
		{"escape sequence in a URI-M", func(l []string) []string {
			f := append([]string(nil), row2...)
			f[2] = strings.Replace(f[2], "/sample/", "/sample\x1b]0;pwned\x07\x1b[2J/", 1)
			f[3] = "0"
			l[1] = strings.Join(f, "\t")
			return l
		}, []string{"wrong verdicts: 1", `FN      http://archive.example.org/sample\x1b]0;pwned\a\x1b[2J/20080312101500/`}, nil, "\x1b"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := filepath.Join(t.TempDir(), "gold.tsv")
			os.WriteFile(g, []byte(strings.Join(tc.edit(append([]string(nil), lines...)), "\n")+"\n"), 0o644)
			code, stdout, stderr := runCLI(t, "evaluate", "--gold", g, "--misses", "5", res)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			for _, w := range tc.stdout {
				if !strings.Contains(stdout, w) {
					t.Errorf("stdout lacks %q:\n%s", w, stdout)
				}
			}
			for _, w := range tc.stderr {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, stderr)
				}
			}
			if tc.notInStdoutByte != "" && strings.Contains(stdout+stderr, tc.notInStdoutByte) {
				t.Errorf("output holds %q raw", tc.notInStdoutByte)
			}
		})
	}
}
