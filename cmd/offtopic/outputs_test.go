package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestOutputPathsNotReplaced: --csv, --json, --jsonl and --output to a
// FIFO are written through it, and to a symbolic link replace the file it
// names, keeping the link (issue 23 item 4).
func TestOutputPathsNotReplaced(t *testing.T) {
	tests := []struct {
		flag, format, want string
	}{
		{"--csv", "", "uri_r,uri_m,"},
		{"--json", "", `"timemap measures"`},
		{"--jsonl", "", `"uri_r"`},
		{"--output", "csv", "uri_r,uri_m,"},
	}
	for _, tc := range tests {
		t.Run(tc.flag, func(t *testing.T) {
			dir := t.TempDir()
			fifo := filepath.Join(dir, "fifo")
			if err := syscall.Mkfifo(fifo, 0o600); err != nil {
				t.Skip("mkfifo:", err)
			}
			got := make(chan string, 1)
			go func() {
				b, _ := os.ReadFile(fifo)
				got <- string(b)
			}()
			args := []string{"detect", "-q", tc.flag, fifo}
			if tc.format != "" {
				args = append(args, "--format", tc.format)
			}
			code, _, stderr := runCLI(t, append(args, sampleFiles(t)...)...)
			if code != 0 {
				t.Fatalf("FIFO: exit %d: %s", code, stderr)
			}
			select {
			case s := <-got:
				if !strings.Contains(s, tc.want) {
					t.Errorf("the FIFO's reader got %.200q, want %q in it", s, tc.want)
				}
			case <-time.After(10 * time.Second):
				t.Error("the FIFO's reader got nothing")
			}
			if st, err := os.Lstat(fifo); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
				t.Errorf("the FIFO was replaced: %v", err)
			}

			target := filepath.Join(dir, "dated-output")
			os.WriteFile(target, []byte("old"), 0o644)
			link := filepath.Join(dir, "latest")
			os.Symlink("dated-output", link)
			args[3] = link
			if code, _, stderr := runCLI(t, append(args, sampleFiles(t)...)...); code != 0 {
				t.Fatalf("symlink: exit %d: %s", code, stderr)
			}
			if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
				t.Errorf("the link was replaced: %v", err)
			}
			if b, _ := os.ReadFile(target); !strings.Contains(string(b), tc.want) {
				t.Errorf("the link's target holds %.200q, want %q in it", b, tc.want)
			}
		})
	}
}
