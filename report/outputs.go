package report

import (
	"fmt"
	"io"

	"github.com/offtopic/offtopic/internal/atomicfile"
	"github.com/offtopic/offtopic/similarity"
)

// Outputs are the outputs of a run, several formats at once, each file
// written atomically: Write hands every TimeMap to each, Commit finishes them
// and renames them into place, Abort leaves nothing behind.
type Outputs struct {
	files   []*atomicfile.File
	writers []Writer
}

// Add opens path for one format; "-" writes to stdout instead of a file.
func (o *Outputs) Add(format, path string, run *Run, stdout io.Writer) error {
	w := stdout
	if path != "-" {
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

// Commit finishes every output and renames its file into place.
func (o *Outputs) Commit() error {
	for _, w := range o.writers {
		if err := w.Close(); err != nil {
			return err
		}
	}
	for _, f := range o.files {
		if err := f.Commit(); err != nil {
			return err
		}
	}
	return nil
}

// Abort removes the files of outputs not committed.
func (o *Outputs) Abort() {
	for _, f := range o.files {
		f.Close()
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
