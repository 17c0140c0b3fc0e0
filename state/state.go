// Package state owns a collection's state between runs: one embedded
// database (SQLite) beside the outputs that holds the capture entries of
// every file read (with each capture's extracted document, the compact form
// the index makes), each TimeMap's result and where its replay leads, each
// capture's verdict and since when it has it, the curator's decisions (who,
// when, from which file) and the runs. A detect run with a state reads only
// the files it has not read (or that changed), re-judges only the TimeMaps
// whose captures, collection model or replay targets changed, from stored
// documents, and gives what a run over all the files gives, byte for byte.
//
// The state is for one machine: runs split over shards, reducers or Beam
// workers keep working from files. Nothing outside this package knows the
// database: sqlite.go is the only file that speaks SQL to it.
package state

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/offtopic/offtopic/internal/atomicfile"
)

// DefaultName is the state's file name in a results directory, where
// evaluate, prune and report find it beside results.jsonl.
const DefaultName = "offtopic-state.sqlite"

// State is an open collection state, held by this process (a second run on
// it is refused until Close).
type State struct {
	db   *store
	lock *atomicfile.Lock
	path string
}

// Open opens the state at path, creating it if it does not exist, and holds
// it: a second process that opens it is refused, naming the first.
func Open(path string) (*State, error) {
	lock, err := atomicfile.LockFile(path)
	if err != nil {
		return nil, err
	}
	db, err := openStore(path)
	if err != nil {
		lock.Release()
		return nil, fmt.Errorf("state %s: %w", path, err)
	}
	return &State{db: db, lock: lock, path: path}, nil
}

// Beside returns the state that lives in dir (DefaultName), nil when there is
// none: evaluate, prune and report use the state of a results directory when
// it has one.
func Beside(dir string) (*State, error) {
	path := filepath.Join(dir, DefaultName)
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	return Open(path)
}

// Path is where the state is.
func (s *State) Path() string { return s.path }

// Close closes the database and frees the state for other runs.
func (s *State) Close() error {
	if s == nil {
		return nil
	}
	err := s.db.close()
	s.lock.Release()
	return err
}

// RunInfo is one run recorded in the state.
type RunInfo struct {
	ID      int64
	Started time.Time
	// Files and Captures are the run's totals; NewFiles and NewCaptures
	// what it read that the state did not hold.
	Files, NewFiles       int
	Captures, NewCaptures int
	TimeMaps, NewTimeMaps int
	// Rejudged counts the TimeMaps scored again; Changed the captures whose
	// verdict changed, ChangedByModel those of them on pages whose captures
	// did not change (their collection's model or where they replay did);
	// NewOff the new captures judged off-topic.
	Rejudged, Changed, ChangedByModel, NewOff int
}

// LastRun is the latest run recorded, ok false when there is none.
func (s *State) LastRun(ctx context.Context) (RunInfo, bool, error) {
	return s.db.lastRun(ctx)
}
