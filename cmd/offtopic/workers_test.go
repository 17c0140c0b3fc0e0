package main

import (
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// TestWorkersBounded (issue 23 item 8): --workers has an upper bound, 4 per
// core and at most 256; a larger value is clamped with a word on stderr and
// the run goes on.
func TestWorkersBounded(t *testing.T) {
	warc := sampleFiles(t)[0]
	for _, tc := range []struct {
		workers string
		clamped bool
	}{
		{"100000", true},
		{"2", false},
		{"0", false},
	} {
		t.Run(tc.workers, func(t *testing.T) {
			code, _, stderr := runCLI(t, "detect", "-q", "--workers", tc.workers, "--format", "jsonl", "--output", filepath.Join(t.TempDir(), "r.jsonl"), warc)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if got := strings.Contains(stderr, "--workers "+tc.workers+" is more than"); got != tc.clamped {
				t.Errorf("clamp said: %v, want %v: %s", got, tc.clamped, stderr)
			}
			if tc.clamped {
				_, used, _ := strings.Cut(stderr, "): using ")
				n, err := strconv.Atoi(strings.TrimSpace(strings.SplitN(used, "\n", 2)[0]))
				if err != nil || n < 1 || n > 256 || n > 4*runtime.NumCPU() {
					t.Errorf("clamped to %q, want 1 to min(256, 4 per core)", used)
				}
			}
		})
	}
}
