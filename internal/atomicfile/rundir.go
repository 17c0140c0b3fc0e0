package atomicfile

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// RunDir is the directory of one run's temporary files (index runs, spill
// files, a --no-cache run's cache), named offtopic-run-* in a base
// temporary directory, its owner ("pid N on HOST since T") in .owner,
// removed when the run ends. A run killed with SIGKILL or crashed leaves it
// behind: each new RunDir removes those of processes of this host that no
// longer run (as LockDir takes over their locks).
type RunDir struct{ path string }

// runDirPrefix names run directories; runDirOwner is their owner file.
const (
	runDirPrefix = "offtopic-run-"
	runDirOwner  = ".owner"
)

// NewRunDir removes the run directories of dead processes of this host in
// base (os.TempDir() when "") and makes one for this process.
func NewRunDir(base string) (*RunDir, error) {
	if base == "" {
		base = os.TempDir()
	}
	host, _ := os.Hostname()
	if ents, err := os.ReadDir(base); err == nil {
		for _, e := range ents {
			if !e.IsDir() || !strings.HasPrefix(e.Name(), runDirPrefix) {
				continue
			}
			dir := filepath.Join(base, e.Name())
			if owner, err := os.ReadFile(filepath.Join(dir, runDirOwner)); err == nil && stale(strings.TrimSpace(string(owner)), host) {
				os.RemoveAll(dir)
			}
		}
	}
	dir, err := os.MkdirTemp(base, runDirPrefix)
	if err != nil {
		return nil, fmt.Errorf("temporary directory: %w", err)
	}
	me := fmt.Sprintf("pid %d on %s since %s\n", os.Getpid(), host, time.Now().UTC().Format(time.RFC3339))
	if err := os.WriteFile(filepath.Join(dir, runDirOwner), []byte(me), 0o644); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("temporary directory: %w", err)
	}
	return &RunDir{path: dir}, nil
}

// Path is the directory.
func (d *RunDir) Path() string { return d.path }

// Remove removes the directory and everything in it.
func (d *RunDir) Remove() {
	if d != nil {
		os.RemoveAll(d.path)
	}
}
