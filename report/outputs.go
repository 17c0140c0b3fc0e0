package report

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/offtopic/offtopic/internal/atomicfile"
	"github.com/offtopic/offtopic/similarity"
)

// Outputs are the outputs of a run, several formats at once, each file
// written atomically: Write hands every TimeMap to each, Commit finishes them
// and puts them in place together (or none of them), Abort leaves nothing
// behind. While a run writes, each directory it writes into is locked: a
// second run into it at the same time is refused, naming the first.
type Outputs struct {
	files   []*atomicfile.File
	writers []Writer
	locks   map[string]*atomicfile.Lock
}

// Reserve locks the directory path is to be written into (not for "-" or a
// path that is a FIFO, device or descriptor), as Add does: a run that reads
// its input for long reserves its outputs first, so that a second run into
// the same directory is refused at its start, not when the first finishes.
func (o *Outputs) Reserve(path string) error {
	if path == "-" {
		return nil
	}
	dir := filepath.Dir(filepath.Clean(path))
	if _, ok := o.locks[dir]; ok {
		return nil
	}
	if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() {
		return nil
	}
	l, err := atomicfile.LockDir(dir)
	if err != nil {
		return err
	}
	if o.locks == nil {
		o.locks = map[string]*atomicfile.Lock{}
	}
	o.locks[dir] = l
	return nil
}

// Add opens path for one format; "-" writes to stdout instead of a file.
func (o *Outputs) Add(format, path string, run *Run, stdout io.Writer) error {
	w := stdout
	if path != "-" {
		if err := o.Reserve(path); err != nil {
			return err
		}
		f, err := atomicfile.Create(path)
		if err != nil {
			return err
		}
		o.files = append(o.files, f)
		w = f
	}
	rw, err := New(format, w, run)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	o.writers = append(o.writers, rw)
	return nil
}

// AddWriter adds a writer the caller opened.
func (o *Outputs) AddWriter(w Writer) { o.writers = append(o.writers, w) }

// Write hands one TimeMap's results to every output.
func (o *Outputs) Write(r *similarity.TimeMapResult) error {
	for _, w := range o.writers {
		if err := w.Write(r); err != nil {
			return err
		}
	}
	return nil
}

// Commit finishes every output and puts the files in place together: where
// one cannot be finished or renamed, the files there before stay, all of
// them.
func (o *Outputs) Commit() error {
	defer o.release()
	for _, w := range o.writers {
		if err := w.Close(); err != nil {
			o.Abort()
			return err
		}
	}
	return atomicfile.CommitAll(o.files)
}

// Abort removes the files of outputs not committed.
func (o *Outputs) Abort() {
	for _, f := range o.files {
		f.Close()
	}
	o.release()
}

// release frees the directories written.
func (o *Outputs) release() {
	for dir, l := range o.locks {
		l.Release()
		delete(o.locks, dir)
	}
}

// Paths are the final paths of the output files.
func (o *Outputs) Paths() []string {
	out := make([]string, len(o.files))
	for i, f := range o.files {
		out[i] = f.Path()
	}
	return out
}
