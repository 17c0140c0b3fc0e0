// Package atomicfile owns output files that appear whole or not at all: each
// is written to a temporary name beside its final path and renamed into place.
//
// Nothing that was not ours is replaced: a path that names a FIFO, a device,
// a socket or a file descriptor (/dev/stdout, /proc/self/fd/N) is written
// through, as a shell's redirection would; a symbolic link is followed and
// the file it names replaced, so that the link stays.
package atomicfile

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// File is an output file written to a temporary name beside its final path
// and renamed into place by Commit, so that readers never see it half
// written. Close without Commit removes the temporary file.
type File struct {
	*os.File
	path    string // as the caller named it
	target  string // what is replaced: path, or the file its links lead to
	done    bool
	through bool // written through to what path names, not renamed into place
}

// maxLinks bounds the symbolic links followed for one path, as the kernel's
// ELOOP does.
const maxLinks = 40

// Create starts writing path atomically, creating its directory if needed.
// A path that is not a regular file is written through (see the package
// comment); a symbolic link's target is what is replaced.
func Create(path string) (*File, error) {
	target, through, err := resolve(path)
	if err != nil {
		return nil, fmt.Errorf("create %s: %w", path, err)
	}
	if through {
		// A descriptor's name is the descriptor itself: opening it again
		// would start a new file offset without O_APPEND and write over
		// what the caller's redirection (>>) keeps. Anything else is opened
		// without O_CREATE and O_TRUNC: what is there is written to, as it is.
		f, err := openDescriptor(path)
		if f == nil && err == nil {
			f, err = os.OpenFile(path, os.O_WRONLY, 0)
		}
		if err != nil {
			return nil, fmt.Errorf("create %s: %w", path, err)
		}
		return &File{File: f, path: path, through: true}, nil
	}
	f, err := create(target)
	if err != nil {
		return nil, err
	}
	f.path = path
	return f, nil
}

// resolve says where path's contents go: through, when it names something
// that exists and is not a regular file, or goes by a file descriptor's link;
// or else the file its chain of symbolic links ends at (path itself when it
// is no link; the end need not exist yet).
func resolve(path string) (target string, through bool, _ error) {
	if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() {
		if st.IsDir() {
			return "", false, fmt.Errorf("is a directory")
		}
		return "", true, nil
	}
	target = path
	for range maxLinks {
		if isDescriptor(target) {
			return "", true, nil
		}
		st, err := os.Lstat(target)
		if err != nil || st.Mode()&os.ModeSymlink == 0 {
			return target, false, nil
		}
		link, err := os.Readlink(target)
		if err != nil {
			return "", false, err
		}
		if !filepath.IsAbs(link) {
			link = filepath.Join(filepath.Dir(target), link)
		}
		target = link
	}
	return "", false, fmt.Errorf("too many levels of symbolic links")
}

// descriptorNumber is the number of the caller's descriptor that p names
// (/dev/stdout 1, /dev/fd/N, /proc/self/fd/N), or -1.
func descriptorNumber(p string) int {
	p = filepath.Clean(p)
	switch p {
	case "/dev/stdout":
		return 1
	case "/dev/stderr":
		return 2
	}
	for _, dir := range []string{"/dev/fd/", "/proc/self/fd/"} {
		if n, err := strconv.Atoi(strings.TrimPrefix(p, dir)); strings.HasPrefix(p, dir) && err == nil && n >= 0 {
			return n
		}
	}
	return -1
}

// isDescriptor reports whether p names an open file descriptor (/dev/stdout,
// /dev/fd/N, /proc/self/fd/N): what it leads to is the caller's, opened as
// the caller chose (appending, say), and is written through.
func isDescriptor(p string) bool {
	p = filepath.Clean(p)
	switch p {
	case "/dev/stdout", "/dev/stderr", "/dev/stdin":
		return true
	}
	return strings.HasPrefix(p, "/dev/fd/") || strings.HasPrefix(p, "/proc/") && strings.Contains(p, "/fd/")
}

func create(path string) (*File, error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("create %s: %w", dir, err)
	}
	removeStale(dir, filepath.Base(path))
	// Opened with mode 0644 so that the umask applies, as for any new file
	// (os.CreateTemp would give 0600).
	for range 100 {
		tmp := filepath.Join(dir, fmt.Sprintf(".%s.tmp-%d", filepath.Base(path), rand.Uint32()))
		f, err := os.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
		if os.IsExist(err) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("create %s: %w", path, err)
		}
		return &File{File: f, path: path, target: path}, nil
	}
	return nil, fmt.Errorf("create %s: no free temporary name", path)
}

// removeStale removes the temporary files of name that a killed run left in
// dir (two runs writing the same file at once would clobber each other's
// output anyway).
func removeStale(dir, name string) {
	stale, _ := filepath.Glob(filepath.Join(dir, "."+escapeGlob(name)+".tmp-*"))
	for _, p := range stale {
		if IsTemp(filepath.Base(p)) {
			os.Remove(p)
		}
	}
}

// escapeGlob quotes the pattern characters of s for filepath.Glob.
func escapeGlob(s string) string {
	return strings.NewReplacer(`\`, `\\`, "*", `\*`, "?", `\?`, "[", `\[`).Replace(s)
}

// IsTemp reports whether name (a base name) is one of the temporary files
// Create makes, as a killed run may leave behind.
func IsTemp(name string) bool {
	return strings.HasPrefix(name, ".") && strings.Contains(name, ".tmp-")
}

// Path is the final path of the file.
func (a *File) Path() string { return a.path }

// Commit flushes the file to disk and renames it into place.
func (a *File) Commit() error {
	if a.through {
		a.done = true
		if err := a.File.Close(); err != nil {
			return fmt.Errorf("write %s: %w", a.path, err)
		}
		return nil
	}
	if err := a.File.Sync(); err != nil {
		a.Close()
		return fmt.Errorf("write %s: %w", a.path, err)
	}
	if err := a.File.Close(); err != nil {
		os.Remove(a.File.Name())
		return fmt.Errorf("write %s: %w", a.path, err)
	}
	if err := os.Rename(a.File.Name(), a.target); err != nil {
		os.Remove(a.File.Name())
		return fmt.Errorf("rename into %s: %w", a.target, err)
	}
	a.done = true
	return nil
}

// Close abandons the file unless it was committed.
func (a *File) Close() error {
	if a.done {
		return nil
	}
	a.done = true
	if a.through {
		return a.File.Close()
	}
	a.File.Close()
	return os.Remove(a.File.Name())
}

// WriteFile writes data to path atomically.
func WriteFile(path string, data []byte) error {
	f, err := Create(path)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	return f.Commit()
}
