package state

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/offtopic/offtopic/report"
	"github.com/offtopic/offtopic/timemap"
)

// Options say how a run reads and judges its files.
type Options struct {
	// Settings names everything besides the files that makes a result (the
	// options, the program's version and build): the documents and results
	// of a state made under other settings are not used, every file is
	// read again (decisions and verdicts are kept, to say what changed).
	Settings string
	// Index is how files are read (notes, canonicalisation, workers,
	// progress); the state sets Recall and Keep.
	Index timemap.IndexOptions
	// EachCollection is similarity.Config.EachCollection: a TimeMap's
	// collection is then that of its first capture's file, and a change in
	// it re-judges every TimeMap of that collection (its model changed).
	EachCollection bool
	// Started is when the run started as its results record it (zero:
	// now): the run's reports can be made again from its results file
	// (State.Review finds the run by it).
	Started time.Time
}

// Run is one detect run on a state, in one transaction from Begin to Commit
// (or Abort): a run killed at any point leaves the state as it was.
type Run struct {
	s       *State
	w       *tx
	mu      sync.Mutex // serialises the index's calls into w
	id      int64
	started time.Time
	opts    Options
	prev    RunInfo
	hasPrev bool
	// files: the inputs, the state's id of each, which were read this run
	// (and whether whole), how many captures each gave.
	files   []string
	rows    []fileRow
	fresh   []bool
	whole   map[int]bool
	kept    map[int]int
	keepErr error
	drop    []int64 // files replaced or no longer given
	// unchanged: every file known and unchanged, none gone, same settings.
	unchanged bool
	reread    bool // settings changed: every file read again
	idx       *timemap.Index
	stored    map[string]*storedTimeMap
	cur       map[string]*currentTimeMap
	removed   []string
	refs      map[string][]string // refs of the TimeMaps judged, by key
	touched   map[string]bool     // keys of the entries of the files read
	direct    map[string]bool     // keys of the TimeMaps whose captures changed
	newColls  map[string]bool     // collections of the files read
	review    *report.Review
	info      RunInfo
}

// currentTimeMap is a TimeMap of this run: its collection, fingerprint and
// whether it is judged again.
type currentTimeMap struct {
	collection string
	fp         []byte
	dirty      bool
}

// Begin starts a run over files: it finds which files are new or changed,
// reads those (recalling the others' entries from the state) and works out
// which TimeMaps must be judged again. Nothing is written to the state
// before Commit.
func (s *State) Begin(ctx context.Context, files []string, opts Options) (*Run, error) {
	w, err := s.db.begin(ctx)
	if err != nil {
		return nil, fmt.Errorf("state %s: %w", s.path, err)
	}
	started := opts.Started.UTC()
	if opts.Started.IsZero() {
		started = time.Now().UTC()
	}
	r := &Run{s: s, w: w, started: started, opts: opts, files: files, whole: map[int]bool{}, kept: map[int]int{}, refs: map[string][]string{}}
	if err := r.begin(ctx); err != nil {
		r.Abort()
		return nil, fmt.Errorf("state %s: %w", s.path, err)
	}
	return r, nil
}

func (r *Run) begin(ctx context.Context) error {
	var err error
	if r.prev, r.hasPrev, err = r.s.db.lastRunTx(r.w); err != nil {
		return err
	}
	r.id = r.prev.ID + 1
	settings, err := r.w.meta("settings")
	if err != nil {
		return err
	}
	if settings != r.opts.Settings {
		r.reread = settings != ""
		if err := r.w.forget(); err != nil {
			return err
		}
	}
	if err := r.classify(); err != nil {
		return err
	}
	var since time.Time
	if r.hasPrev {
		since = r.prev.Started
	}
	r.review = report.NewReview(since)
	if r.review.Decisions, err = r.w.decisions(); err != nil {
		return err
	}
	if r.unchanged {
		return nil
	}
	if err := r.readNew(ctx); err != nil {
		return err
	}
	if r.stored, err = r.w.timeMaps(); err != nil {
		return err
	}
	// Files only added after those read before (a crawl's new files): only
	// the TimeMaps they touch changed, nothing else needs its documents.
	appended := r.appended()
	if appended {
		if err := r.dirtyFromNew(); err != nil {
			return err
		}
	}
	if err := r.index(ctx, appended); err != nil {
		return err
	}
	if appended {
		return nil
	}
	return r.findDirty(ctx)
}

// readNew reads the files new or changed since the state last read them,
// keeping their entries (they are recalled with the others afterwards) and
// noting the TimeMaps they touch.
func (r *Run) readNew(ctx context.Context) error {
	var sub []string
	var at []int
	for i, f := range r.files {
		if r.fresh[i] {
			sub, at = append(sub, f), append(at, i)
		}
	}
	if len(sub) == 0 {
		return nil
	}
	r.touched, r.newColls = map[string]bool{}, map[string]bool{}
	for _, f := range sub {
		if r.opts.EachCollection {
			r.newColls[timemap.ArchiveItCollection(f)] = true
		}
	}
	opts := r.opts.Index
	opts.Keep = &newKeeper{r: r, at: at}
	idx, err := timemap.BuildIndex(ctx, sub, opts)
	if err != nil {
		return err
	}
	idx.Close()
	return r.keepErr
}

// appended reports whether the files read are only added after those the
// state holds (none gone or changed; each new file after every known one in
// the order of the inputs, so that no revisit of a known file can be
// resolved otherwise than before).
func (r *Run) appended() bool {
	if len(r.drop) > 0 || len(r.stored) == 0 {
		return false
	}
	seenNew := false
	for i := range r.files {
		if r.fresh[i] {
			seenNew = true
		} else if seenNew {
			return false
		}
	}
	return true
}

// classify matches the inputs with the files the state read: a file of the
// same path, size, modification time and first block is recalled, any
// other read.
func (r *Run) classify() error {
	known, err := r.w.files()
	if err != nil {
		return err
	}
	next, err := r.w.newFileID()
	if err != nil {
		return err
	}
	given := map[string]bool{}
	r.rows, r.fresh = make([]fileRow, len(r.files)), make([]bool, len(r.files))
	r.unchanged = r.hasPrev
	for i, path := range r.files {
		f, err := identify(path)
		if err != nil {
			// Read as new: the index reports why it cannot be read.
			f = fileRow{path: absPath(path)}
		}
		given[f.path] = true
		k, ok := known[f.path]
		if ok && err == nil && k.size == f.size && k.mtime == f.mtime && k.head == f.head {
			r.rows[i] = k
			continue
		}
		if ok {
			r.drop = append(r.drop, k.id)
		}
		f.id = next
		next++
		r.rows[i], r.fresh[i] = f, true
		r.unchanged = false
	}
	for path, k := range known {
		if !given[path] {
			r.drop = append(r.drop, k.id)
			r.unchanged = false
		}
	}
	return nil
}

// headSize is how much of a file's start identifies it with its size and
// modification time.
const headSize = 64 << 10

// identify is path's identity: absolute path, size, modification time and
// digest of its first block.
func identify(path string) (fileRow, error) {
	f, err := os.Open(path)
	if err != nil {
		return fileRow{}, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return fileRow{}, err
	}
	h := sha256.New()
	if _, err := io.CopyN(h, f, headSize); err != nil && !errors.Is(err, io.EOF) {
		return fileRow{}, err
	}
	return fileRow{path: absPath(path), size: st.Size(), mtime: st.ModTime().UTC().Format(time.RFC3339Nano), head: hex.EncodeToString(h.Sum(nil))}, nil
}

func absPath(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return path
}

// index builds the capture index: new files read (their entries kept),
// known ones recalled.
func (r *Run) index(ctx context.Context, notedOnly bool) error {
	opts := r.opts.Index
	opts.Recall = func(fi int, path string) ([]timemap.Entry, bool) {
		r.mu.Lock()
		defer r.mu.Unlock()
		es, err := r.w.fileEntries(r.rows[fi].id, notedOnly)
		if err != nil {
			r.keepErr = errors.Join(r.keepErr, fmt.Errorf("recall %s: %w", path, err))
			return nil, false
		}
		return es, true
	}
	opts.Keep = nil
	idx, err := timemap.BuildIndex(ctx, r.files, opts)
	if err != nil {
		return err
	}
	r.idx = idx
	return r.keepErr
}

// newKeeper stores the entries of the files a run reads; at maps the index's
// file numbers (of the new files) to the run's.
type newKeeper struct {
	r  *Run
	at []int
}

// Keep implements timemap.Keeper: the index calls it serialised.
func (k *newKeeper) Keep(file int, e timemap.Entry) {
	r, fi := k.r, k.at[file]
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.keepErr != nil {
		return
	}
	if err := r.w.putEntry(r.rows[fi].id, &e); err != nil {
		r.keepErr = fmt.Errorf("keep %s: %w", r.files[fi], err)
	}
	r.kept[fi]++
	r.touched[e.Key] = true
}

// Read implements timemap.Keeper.
func (k *newKeeper) Read(file int, whole bool) { k.r.whole[k.at[file]] = whole }

// Close releases what the run holds besides its transaction (the index).
func (r *Run) closeIndex() {
	if r.idx != nil {
		r.idx.Close()
		r.idx = nil
	}
}

// Abort ends the run leaving the state as it was.
func (r *Run) Abort() {
	r.closeIndex()
	if r.w != nil {
		r.w.rollback()
		r.w = nil
	}
}

// Unchanged reports whether the run found nothing to read or judge: every
// file known and unchanged, none gone, the same settings.
func (r *Run) Unchanged() bool { return r.unchanged }

// Reread reports whether the state was made under other settings (or
// another build of offtopic), so that every file is read again.
func (r *Run) Reread() bool { return r.reread }

// Review is what the run adds to the reports; its maps fill as results are
// emitted.
func (r *Run) Review() *report.Review { return r.review }

// Previous is the run before this one, ok false on a state's first run.
func (r *Run) Previous() (RunInfo, bool) { return r.prev, r.hasPrev }

// Info is the run's figures so far (complete after Judge).
func (r *Run) Info() RunInfo { return r.info }

// OutputsIntact reports whether the outputs at paths are those the last
// run wrote (same size and modification time): a run with nothing new
// leaves them as they are.
func (r *Run) OutputsIntact(paths []string) (bool, error) {
	want, err := r.w.outputs()
	if err != nil {
		return false, err
	}
	if len(want) != len(paths) {
		return false, nil
	}
	for _, p := range paths {
		st, err := os.Stat(p)
		o, ok := want[absPath(p)]
		if err != nil || !ok || st.Size() != o.size || st.ModTime().UnixNano() != o.mtime {
			return false, nil
		}
	}
	return true, nil
}

// DecisionsSince reports whether decisions were imported since the
// previous run (its reports do not show them yet).
func (r *Run) DecisionsSince() (bool, error) {
	if !r.hasPrev {
		return len(r.review.Decisions) > 0, nil
	}
	return r.w.decisionsSince(r.prev.Started)
}
