package atomicfile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// CommitAll puts a set of files in place together, or none of them: every
// file is finished first (a file that cannot be written leaves all of them
// out); then each replaces its target, the target kept aside until every
// rename is done, and put back where a later one fails. Files written
// through (FIFOs, devices, descriptors) are finished, not renamed: what
// they took cannot be taken back.
func CommitAll(files []*File) error {
	var renamed []*File
	for i, f := range files {
		if f.through {
			continue
		}
		if err := f.File.Sync(); err == nil {
			err = f.File.Close()
			if err == nil {
				renamed = append(renamed, f)
				continue
			}
		}
		err := fmt.Errorf("write %s: cannot finish it", f.path)
		for _, g := range files[i:] {
			g.Close()
		}
		for _, g := range renamed {
			os.Remove(g.File.Name())
			g.done = true
		}
		return err
	}
	type aside struct{ target, backup string }
	var put []*File
	var kept []aside
	undo := func() {
		for _, f := range put {
			os.Remove(f.target)
		}
		for _, a := range kept {
			os.Rename(a.backup, a.target)
		}
		for _, f := range renamed {
			os.Remove(f.File.Name())
			f.done = true
		}
	}
	for _, f := range renamed {
		if st, err := os.Lstat(f.target); err == nil {
			if st.IsDir() {
				undo()
				return fmt.Errorf("rename into %s: is a directory", f.target)
			}
			backup := f.File.Name() + ".old"
			if err := os.Rename(f.target, backup); err != nil {
				undo()
				return fmt.Errorf("rename into %s: %w", f.target, err)
			}
			kept = append(kept, aside{f.target, backup})
		}
		if err := os.Rename(f.File.Name(), f.target); err != nil {
			undo()
			return fmt.Errorf("rename into %s: %w", f.target, err)
		}
		put = append(put, f)
	}
	for _, a := range kept {
		os.Remove(a.backup)
	}
	var errs []error
	for _, f := range files {
		f.done = true
		if f.through {
			if err := f.File.Close(); err != nil {
				errs = append(errs, fmt.Errorf("write %s: %w", f.path, err))
			}
		}
	}
	return errors.Join(errs...)
}

// LockName is the file that marks a directory as being written by a run.
const LockName = ".offtopic.lock"

// Lock is a directory held by this process for writing its outputs.
type Lock struct {
	path string
	// made is the directory LockDir created, removed on Release when the
	// run left nothing in it.
	made string
}

// LockDir holds dir (created if needed) for this process: a second run that
// would write into it at the same time is refused, naming the process that
// holds it. A lock left by a process of this host that no longer runs is
// taken over.
func LockDir(dir string) (*Lock, error) {
	made := ""
	if _, err := os.Stat(dir); errors.Is(err, os.ErrNotExist) {
		made = dir
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("create %s: %w", dir, err)
	}
	return lock(filepath.Join(dir, LockName), dir, made)
}

// LockFile holds path for this process as LockDir holds a directory, by a
// lock file beside it (path + ".lock"): for a file that runs update in
// place, such as a database.
func LockFile(path string) (*Lock, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("create %s: %w", filepath.Dir(path), err)
	}
	return lock(path+".lock", path, "")
}

// lock creates the lock file path for what, or says who holds it; made is
// the directory to remove on Release if left empty ("": none).
func lock(path, what, made string) (*Lock, error) {
	host, _ := os.Hostname()
	me := fmt.Sprintf("pid %d on %s since %s\n", os.Getpid(), host, time.Now().UTC().Format(time.RFC3339))
	for attempt := 0; attempt < 2; attempt++ {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
		if err == nil {
			_, werr := f.WriteString(me)
			if cerr := f.Close(); werr == nil {
				werr = cerr
			}
			if werr != nil {
				os.Remove(path)
				return nil, fmt.Errorf("lock %s: %w", what, werr)
			}
			return &Lock{path: path, made: made}, nil
		}
		if !errors.Is(err, os.ErrExist) {
			return nil, fmt.Errorf("lock %s: %w", what, err)
		}
		held, _ := os.ReadFile(path)
		holder := strings.TrimSpace(string(held))
		if attempt == 0 && stale(holder, host) {
			os.Remove(path)
			continue
		}
		return nil, fmt.Errorf("%s is being written by another offtopic run (%s); remove %s if that run is gone", what, holder, path)
	}
	return nil, fmt.Errorf("lock %s: taken while it was being freed", what)
}

// stale reports whether a lock's holder ("pid N on HOST since T") is a
// process of this host that no longer runs.
func stale(holder, host string) bool {
	var pid int
	var on string
	if _, err := fmt.Sscanf(holder, "pid %d on %s", &pid, &on); err != nil || on != host || pid <= 0 {
		return false
	}
	p, err := os.FindProcess(pid)
	if err != nil {
		return true
	}
	return p.Signal(syscall.Signal(0)) != nil && pid != os.Getpid()
}

// Release frees the directory, and removes it if LockDir made it and the
// run left nothing in it.
func (l *Lock) Release() {
	if l != nil {
		os.Remove(l.path)
		if l.made != "" {
			os.Remove(l.made) // fails, as it should, when something was written
		}
	}
}
