package atomicfile

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

func TestCommitAndAbandon(t *testing.T) {
	old := syscall.Umask(0o027)
	defer syscall.Umask(old)
	dir := t.TempDir()
	p := filepath.Join(dir, "sub", "out.txt")
	f, err := Create(p)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p); !os.IsNotExist(err) {
		t.Fatalf("final path exists before Commit: %v", err)
	}
	f.WriteString("hello")
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if got := st.Mode().Perm(); got != 0o640 {
		t.Errorf("mode %o, want 0640 (0644 less umask 027)", got)
	}
	g, _ := Create(filepath.Join(dir, "gone.txt"))
	g.WriteString("x")
	g.Close()
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if IsTemp(e.Name()) || e.Name() == "gone.txt" {
			t.Errorf("left behind: %s", e.Name())
		}
	}
	if !IsTemp(".out.txt.tmp-123") || IsTemp("out.txt") {
		t.Error("IsTemp misjudges names")
	}
}

// TestStaleTempRemoved: the temporary file a killed run left for a name is
// removed when that name is written again; others' are left alone.
func TestStaleTempRemoved(t *testing.T) {
	dir := t.TempDir()
	stale := filepath.Join(dir, ".out[1].txt.tmp-12345")
	other := filepath.Join(dir, ".other.txt.tmp-678")
	for _, p := range []string{stale, other} {
		if err := os.WriteFile(p, []byte("partial"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := WriteFile(filepath.Join(dir, "out[1].txt"), []byte("x")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("stale temporary file left: %v", err)
	}
	if _, err := os.Stat(other); err != nil {
		t.Errorf("another name's temporary file removed: %v", err)
	}
}
