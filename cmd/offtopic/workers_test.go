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

// TestUseCores: fewer workers than cores run on that many cores (a batch
// job given one core takes one), more workers than cores on all of them,
// and the setting is given back after the run.
func TestUseCores(t *testing.T) {
	all := runtime.GOMAXPROCS(0)
	if all < 2 {
		t.Skip("one core: nothing to limit")
	}
	for _, tc := range []struct{ workers, want int }{
		{0, all},
		{1, 1},
		{all - 1, all - 1},
		{all, all},
		{4 * all, all},
	} {
		restore := useCores(tc.workers)
		if got := runtime.GOMAXPROCS(0); got != tc.want {
			t.Errorf("--workers %d: %d cores, want %d", tc.workers, got, tc.want)
		}
		restore()
		if got := runtime.GOMAXPROCS(0); got != all {
			t.Fatalf("--workers %d: %d cores after the run, want %d back", tc.workers, got, all)
		}
	}
}
