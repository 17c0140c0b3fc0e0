package atomicfile

import (
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"
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

// TestNotOursNotReplaced: a FIFO, a character device and a symbolic link
// are never replaced by a regular file: the first two are written through,
// the link's target is replaced and the link stays.
func TestNotOursNotReplaced(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name  string
		setup func(t *testing.T, p string) (check func(t *testing.T))
	}{
		{"fifo", func(t *testing.T, p string) func(t *testing.T) {
			if err := syscall.Mkfifo(p, 0o600); err != nil {
				t.Skip("mkfifo:", err)
			}
			got := make(chan string, 1)
			go func() {
				b, _ := os.ReadFile(p)
				got <- string(b)
			}()
			return func(t *testing.T) {
				select {
				case s := <-got:
					if s != "hello" {
						t.Errorf("the FIFO's reader got %q, want hello", s)
					}
				case <-time.After(5 * time.Second):
					t.Error("the FIFO's reader got nothing")
				}
				if st, err := os.Lstat(p); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
					t.Errorf("the FIFO was replaced: %v %v", st.Mode(), err)
				}
			}
		}},
		{"symlink", func(t *testing.T, p string) func(t *testing.T) {
			target := filepath.Join(dir, "real.txt")
			os.WriteFile(target, []byte("old"), 0o644)
			if err := os.Symlink("real.txt", p); err != nil {
				t.Fatal(err)
			}
			return linkKept(p, target)
		}},
		{"dangling symlink", func(t *testing.T, p string) func(t *testing.T) {
			target := filepath.Join(dir, "new.txt")
			if err := os.Symlink(target, p); err != nil {
				t.Fatal(err)
			}
			return linkKept(p, target)
		}},
		{"char device", func(t *testing.T, p string) func(t *testing.T) {
			// /dev/null's numbers (1, 3): writes vanish, as they must.
			if err := syscall.Mknod(p, syscall.S_IFCHR|0o666, 1<<8|3); err != nil {
				t.Skip("mknod needs root:", err)
			}
			return func(t *testing.T) {
				if st, err := os.Lstat(p); err != nil || st.Mode()&os.ModeCharDevice == 0 {
					t.Errorf("the device was replaced: %v %v", st.Mode(), err)
				}
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(dir, tc.name)
			check := tc.setup(t, p)
			if err := WriteFile(p, []byte("hello")); err != nil {
				t.Fatal(err)
			}
			check(t)
			ents, _ := os.ReadDir(dir)
			for _, e := range ents {
				if IsTemp(e.Name()) {
					t.Errorf("left behind: %s", e.Name())
				}
			}
		})
	}
}

// TestResolve: which paths are written through and which file a link's
// replacement goes to.
func TestResolve(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	reg := filepath.Join(dir, "reg")
	os.WriteFile(reg, nil, 0o644)
	os.Symlink("reg", filepath.Join(dir, "l1"))
	os.Symlink("l1", filepath.Join(dir, "l2"))
	os.Symlink("fifo", filepath.Join(dir, "lfifo"))
	os.Symlink("loop", filepath.Join(dir, "loop"))
	tests := []struct {
		path    string
		target  string
		through bool
		err     bool
	}{
		{reg, reg, false, false},
		{filepath.Join(dir, "absent"), filepath.Join(dir, "absent"), false, false},
		{filepath.Join(dir, "l2"), reg, false, false},
		{fifo, "", true, false},
		{filepath.Join(dir, "lfifo"), "", true, false},
		{"/dev/stdout", "", true, false},
		{"/dev/fd/1", "", true, false},
		{"/proc/self/fd/1", "", true, false},
		{"/dev/full", "", true, false},
		{dir, "", false, true},
		{filepath.Join(dir, "loop"), "", false, true},
	}
	for _, tc := range tests {
		target, through, err := resolve(tc.path)
		if (err != nil) != tc.err || target != tc.target || through != tc.through {
			t.Errorf("resolve(%s) = %q, %v, %v; want %q, %v, error %v", tc.path, target, through, err, tc.target, tc.through, tc.err)
		}
	}
}

// TestDescriptorShared: an output path that names one of the process's
// descriptors (/dev/fd/N, /proc/self/fd/N) writes through that descriptor,
// at its offset and with its O_APPEND, as a shell's >> left it: what the
// file held is kept.
func TestDescriptorShared(t *testing.T) {
	for _, dir := range []string{"/dev/fd/", "/proc/self/fd/"} {
		t.Run(dir, func(t *testing.T) {
			if _, err := os.Stat(dir); err != nil {
				t.Skip(err)
			}
			p := filepath.Join(t.TempDir(), "log.csv")
			os.WriteFile(p, []byte("first\n"), 0o644)
			f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if err := WriteFile(dir+strconv.Itoa(int(f.Fd())), []byte("hello\n")); err != nil {
				t.Fatal(err)
			}
			if _, err := f.WriteString("last\n"); err != nil {
				t.Errorf("the caller's descriptor was closed: %v", err)
			}
			if b, _ := os.ReadFile(p); string(b) != "first\nhello\nlast\n" {
				t.Errorf("file holds %q, want first, hello, last", b)
			}
		})
	}
	for p, want := range map[string]int{"/dev/stdout": 1, "/dev/stderr": 2, "/dev/fd/7": 7, "/proc/self/fd/12": 12, "/proc/1/fd/3": -1, "/dev/fd/x": -1, "/tmp/fd/3": -1} {
		if got := descriptorNumber(p); got != want {
			t.Errorf("descriptorNumber(%s) = %d, want %d", p, got, want)
		}
	}
}

// linkKept checks that the symbolic link p is still a link and that what
// was written went to its target.
func linkKept(p, target string) func(t *testing.T) {
	return func(t *testing.T) {
		if st, err := os.Lstat(p); err != nil || st.Mode()&os.ModeSymlink == 0 {
			t.Errorf("the link was replaced: %v", err)
		}
		if b, _ := os.ReadFile(target); string(b) != "hello" {
			t.Errorf("the link's target holds %q, want hello", b)
		}
	}
}
