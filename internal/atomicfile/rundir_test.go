package atomicfile

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestRunDirSweepsDeadRuns: a run directory whose owner no longer runs (a
// run killed with SIGKILL) is removed by the next run; one of a live
// process or another host stays (issue 38 item 12).
func TestRunDirSweepsDeadRuns(t *testing.T) {
	base := t.TempDir()
	host, _ := os.Hostname()
	mk := func(name, owner string) string {
		dir := filepath.Join(base, name)
		os.MkdirAll(dir, 0o755)
		os.WriteFile(filepath.Join(dir, runDirOwner), []byte(owner), 0o644)
		os.WriteFile(filepath.Join(dir, "offtopic-spill-1.gob"), make([]byte, 1<<10), 0o644)
		return dir
	}
	dead := mk(runDirPrefix+"dead", fmt.Sprintf("pid %d on %s since 2026-01-01T00:00:00Z\n", 1<<22+12345, host))
	live := mk(runDirPrefix+"live", fmt.Sprintf("pid %d on %s since 2026-01-01T00:00:00Z\n", os.Getppid(), host))
	other := mk(runDirPrefix+"other", "pid 4194000 on another-host since 2026-01-01T00:00:00Z\n")
	d, err := NewRunDir(base)
	if err != nil {
		t.Fatal(err)
	}
	for dir, want := range map[string]bool{dead: false, live: true, other: true, d.Path(): true} {
		if _, err := os.Stat(dir); (err == nil) != want {
			t.Errorf("%s: exists %v, want %v", filepath.Base(dir), err == nil, want)
		}
	}
	d.Remove()
	if _, err := os.Stat(d.Path()); err == nil {
		t.Error("Remove left the directory")
	}
}
