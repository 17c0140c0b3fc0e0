package atomicfile

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCommitAllOrNothing: when one file of a set cannot be put in place,
// the files there before stay, all of them; when all can, all are new.
func TestCommitAllOrNothing(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.txt"), filepath.Join(dir, "b.txt")
	os.WriteFile(a, []byte("old a"), 0o644)
	os.WriteFile(b, []byte("old b"), 0o644)
	set := func() []*File {
		var out []*File
		for _, p := range []string{a, b} {
			f, err := Create(p)
			if err != nil {
				t.Fatal(err)
			}
			f.WriteString("new " + filepath.Base(p))
			out = append(out, f)
		}
		return out
	}
	files := set()
	// b's target turns into a non-empty directory: its rename must fail.
	os.Remove(b)
	os.MkdirAll(filepath.Join(b, "x"), 0o755)
	if err := CommitAll(files); err == nil {
		t.Fatal("CommitAll put a file over a directory")
	}
	if got, _ := os.ReadFile(a); string(got) != "old a" {
		t.Errorf("a.txt is %q after a failed set, want the old one", got)
	}
	os.RemoveAll(b)
	os.WriteFile(b, []byte("old b"), 0o644)
	if err := CommitAll(set()); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{a, b} {
		if got, _ := os.ReadFile(p); !strings.HasPrefix(string(got), "new ") {
			t.Errorf("%s is %q, want the new one", p, got)
		}
	}
	left, _ := filepath.Glob(filepath.Join(dir, ".*"))
	if len(left) != 0 {
		t.Errorf("left behind: %v", left)
	}
}

// TestLockDir: a directory being written is refused to a second writer,
// which is told who holds it; a lock left by a process that is gone is
// taken over; released, it can be taken again.
func TestLockDir(t *testing.T) {
	dir := t.TempDir()
	l, err := LockDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := LockDir(dir); err == nil || !strings.Contains(err.Error(), "being written by another offtopic run") ||
		!strings.Contains(err.Error(), "pid") {
		t.Errorf("second lock: %v", err)
	}
	l.Release()
	host, _ := os.Hostname()
	// A pid no process has (above the kernel's pid_max).
	os.WriteFile(filepath.Join(dir, LockName), []byte("pid 2147483646 on "+host+" since 2020-01-01T00:00:00Z\n"), 0o644)
	l, err = LockDir(dir)
	if err != nil {
		t.Fatalf("a stale lock was not taken over: %v", err)
	}
	l.Release()
	os.WriteFile(filepath.Join(dir, LockName), []byte("pid 1 on another-host since 2020-01-01T00:00:00Z\n"), 0o644)
	if _, err := LockDir(dir); err == nil {
		t.Error("a lock held on another host was taken over")
	}
}

// TestLockFile: a file held by LockFile is refused to a second holder,
// naming the first, and free again once released.
func TestLockFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "state.db")
	l, err := LockFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := LockFile(path); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("pid %d", os.Getpid())) {
		t.Fatalf("second LockFile: %v, want refused naming pid %d", err, os.Getpid())
	}
	l.Release()
	l2, err := LockFile(path)
	if err != nil {
		t.Fatalf("after Release: %v", err)
	}
	l2.Release()
}
