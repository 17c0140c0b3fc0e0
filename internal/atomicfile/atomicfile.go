// Package atomicfile owns output files that appear whole or not at all: each
// is written to a temporary name beside its final path and renamed into place.
package atomicfile

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
)

// File is an output file written to a temporary name beside its final path
// and renamed into place by Commit, so that readers never see it half
// written. Close without Commit removes the temporary file.
type File struct {
	*os.File
	path string
	done bool
}

// Create starts writing path atomically, creating its directory if needed.
func Create(path string) (*File, error) {
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
		return &File{File: f, path: path}, nil
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
	if err := a.File.Sync(); err != nil {
		a.Close()
		return fmt.Errorf("write %s: %w", a.path, err)
	}
	if err := a.File.Close(); err != nil {
		os.Remove(a.File.Name())
		return fmt.Errorf("write %s: %w", a.path, err)
	}
	if err := os.Rename(a.File.Name(), a.path); err != nil {
		os.Remove(a.File.Name())
		return fmt.Errorf("rename into %s: %w", a.path, err)
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
