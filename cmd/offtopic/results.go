package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"iter"
	"os"
	"path/filepath"

	"github.com/offtopic/offtopic/report"
	"github.com/offtopic/offtopic/similarity"
)

// resultsFile is a results file opened for reading (evaluate, report,
// prune): the one way the commands find and open results.
type resultsFile struct {
	// path is the file's path; dir the folder it is in.
	path, dir string
	f         *os.File
	// defaulted is set when no results were named (defaultResultsDir).
	defaulted bool
	// run is the file's run line, once the results are read.
	run report.Run
}

// openResults opens the results file arg names: a file, or a folder holding
// results.jsonl ("": defaultResultsDir, which it says on stderr: they may
// be another run's). A file that cannot be opened is a usage error (an
// option file that cannot be read).
func openResults(arg string, stderr io.Writer) (*resultsFile, error) {
	given := arg != ""
	if !given {
		arg = defaultResultsDir
	}
	path := arg
	if fi, err := os.Stat(arg); err == nil && fi.IsDir() {
		path = filepath.Join(arg, report.FileName("jsonl"))
	}
	f, err := os.Open(path)
	if err != nil && !given && errors.Is(err, fs.ErrNotExist) {
		return nil, usagef("no results in %s (the default): name the results file or folder detect wrote", defaultResultsDir)
	}
	if err != nil {
		return nil, usagef("results: %w", err)
	}
	if !given {
		fmt.Fprintf(stderr, "offtopic: reading %s (no results named: the default folder of detect)\n", path)
	}
	return &resultsFile{path: path, dir: filepath.Dir(path), f: f, defaulted: !given}, nil
}

// all reads the results (the run line into r.run).
func (r *resultsFile) all() iter.Seq2[*similarity.TimeMapResult, error] {
	return report.ReadResults(r.f, r.path, &r.run)
}

// Close closes the file.
func (r *resultsFile) Close() error { return r.f.Close() }

// absPaths are local paths made absolute, as a results file records its
// inputs: prune and report find them from any folder. A path that cannot
// be made absolute stays as it is.
func absPaths(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = p
		if abs, err := filepath.Abs(p); err == nil {
			out[i] = abs
		}
	}
	return out
}
