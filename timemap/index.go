package timemap

import (
	"bufio"
	"bytes"
	"cmp"
	"container/heap"
	"context"
	"encoding/gob"
	"errors"
	"fmt"
	"io"
	"iter"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"
)

// DefaultMaxInMemory is the default number of capture entries an Index keeps
// in memory before it spills a sorted run to disk: about 2 MB. More buys
// nothing measurable (the runs are merged as they are read), and it is memory
// held through the whole run.
const DefaultMaxInMemory = 4096

// IndexOptions configure BuildIndex.
type IndexOptions struct {
	// Canon selects how URI-Rs become keys (default CanonSURT).
	Canon CanonMode
	// Read configures the record readers.
	Read ReadOptions
	// Workers is the number of files read in parallel (default runtime.NumCPU()).
	Workers int
	// MaxInMemory is the number of captures, and of distinct payload digests,
	// kept in memory before a sorted run is spilled to TempDir (default
	// DefaultMaxInMemory).
	MaxInMemory int
	// TempDir is where sorted runs are spilled (default os.TempDir()).
	TempDir string
	// fanIn is how many runs of one level are merged (default runFanIn;
	// small in tests).
	fanIn int
	// Progress, when set, hears how far indexing has got: files finished and
	// captures indexed so far. Calls are serialised.
	Progress func(filesDone, captures int)
	// OnError receives each skipped record (*RecordError) and each file that
	// could not be read. Calls are serialised. Nil means ignore.
	OnError func(error)
	// Note, when set, is called with the HTTP header and body (capped at
	// Read.MaxBodyBytes) of every capture whose own record holds its payload
	// (no revisit) with an HTTP head and that WantsNote (when set) accepts;
	// what it returns becomes the capture's Note. It runs on Workers
	// goroutines beside the file readers, while the payload is at hand, so
	// that per-payload work needs no second read and inflate of the record.
	Note func(c *Capture, h http.Header, body []byte) []byte
	// WantsNote says which captures Note is for; only their bodies are
	// copied for it. Nil means all.
	WantsNote func(c *Capture) bool
	// Recall, when set, is asked for each input file before it is read:
	// where it returns the file's entries (as Keep heard them when the file
	// was read, by a store of an earlier run), they are indexed instead and
	// the file is not opened. Calls may be concurrent.
	Recall func(file int, path string) ([]Entry, bool)
	// Keep, when set, hears of every entry of the files read (not those
	// recalled), with its note, and of each file once it is read.
	Keep Keeper
}

// Entry is a capture as the index holds it before its TimeMap is built:
// what its record said, its record's number in its file and, for a
// revisit, what it refers to. A store keeps the entries of a file read once
// (IndexOptions.Keep) and gives them back instead of the file
// (IndexOptions.Recall).
type Entry struct {
	Capture
	// Record numbers the record in its file, from 1 (every record counts).
	Record  uint64
	RefURI  string
	RefDate time.Time
}

// Keeper hears what the index reads (IndexOptions.Keep). Calls are
// serialised; entries of a file may come after its Read.
type Keeper interface {
	// Keep hears of one entry of input file number file.
	Keep(file int, e Entry)
	// Read hears that input file number file has been read: whole (to its
	// end, every record that could be read taken) or not.
	Read(file int, whole bool)
}

// recordBits is how many low bits of entry.Seq number the record in its
// file; the file's index is above them.
const recordBits = 40

// maxMemNotes bounds the bytes of notes the index holds in memory: past it
// the entries are spilled as a sorted run, as past MaxInMemory entries.
const maxMemNotes = 4 << 20

// Stats counts what BuildIndex read.
type Stats struct {
	// Files is the number of input files; FilesFailed those that could not be
	// opened or read to the end.
	Files, FilesFailed int
	// Records counts the records read by type ("response", "revisit", ...;
	// ARC version blocks as "warcinfo", ARC URL records as "response").
	Records map[string]int
	// Captures is the number of captures indexed, Revisits how many of them
	// are revisits.
	Captures, Revisits int
	// NonHTTP counts response, resource and revisit records with a non-HTTP
	// target (dns:, metadata:, ...): counted, not indexed.
	NonHTTP int
	// Skipped counts records reported as *RecordError.
	Skipped int
	// Cut counts captures whose HTTP body is longer than
	// ReadOptions.MaxBodyBytes: detection sees only the first MaxBodyBytes.
	Cut int
	// Runs is the number of sorted runs spilled to disk.
	Runs int
}

// entry is a capture as kept by the index, with what revisit resolution
// needs and its input order.
type entry struct {
	C       Capture
	Seq     uint64 // file index << recordBits | record index: input order
	RefURI  string // WARC-Refers-To-Target-URI of a revisit
	RefDate time.Time
	// recalled: given by IndexOptions.Recall, not read (not gob-encoded:
	// it matters only until the entry is flushed).
	recalled bool
}

func cmpEntry(a, b *entry) int {
	if c := strings.Compare(a.C.Key, b.C.Key); c != 0 {
		return c
	}
	if c := a.C.Time.Compare(b.C.Time); c != 0 {
		return c
	}
	return cmp.Compare(a.Seq, b.Seq)
}

// original is what the index keeps per distinct payload digest of a
// non-revisit capture, to resolve revisits across TimeMaps.
type original struct {
	loc    Location
	status int
	mime   string
}

// Index is a sorted capture index over a set of WARC/ARC files: captures in
// (Key, Time, input order), held as sorted runs in memory and on disk and
// merged when iterated. Memory: at most MaxInMemory capture entries (and
// maxMemNotes bytes of their notes), at
// most MaxInMemory digest-to-location entries for revisit resolution across
// TimeMaps (beyond that they go to a sorted table on disk, see digestMap),
// plus the largest TimeMap while iterating.
type Index struct {
	opts    IndexOptions
	mem     []entry
	runs    []run
	written int // runs written, to name the next
	tmpDir  string
	orig    *digestMap
	stats   Stats
	err     error
}

// BuildIndex scans files in parallel and indexes their response, resource
// and revisit records with HTTP(S) targets (ARC URL records too). Skipped
// records and unreadable files are reported to opts.OnError and reading goes
// on; BuildIndex fails only when no file could be read at all, on a spill
// error, or when ctx is done.
func BuildIndex(ctx context.Context, files []string, opts IndexOptions) (*Index, error) {
	if opts.Workers <= 0 {
		opts.Workers = runtime.NumCPU()
	}
	if opts.MaxInMemory <= 0 {
		opts.MaxInMemory = DefaultMaxInMemory
	}
	idx := &Index{opts: opts, orig: newDigestMap(opts.MaxInMemory, opts.TempDir), stats: Stats{Files: len(files), Records: map[string]int{}}}
	b := &indexBuild{idx: idx, bodies: newGate(maxNoteBodies)}
	notes, notesDone := b.startNotes()
	b.scanFiles(ctx, files, notes)
	notesDone()
	if err := b.finish(ctx, len(files)); err != nil {
		idx.Close()
		return nil, err
	}
	return idx, nil
}

// indexBuild is what BuildIndex's file readers and note workers share while
// they fill an Index.
type indexBuild struct {
	idx       *Index
	bodies    *gate      // bounds the bodies read for notes and not noted yet
	mu        sync.Mutex // guards idx.mem, idx.runs, idx.orig, idx.stats and the fields below
	memNotes  int        // bytes of the notes in idx.mem
	okFiles   int        // files that could be opened
	filesDone int
	errMu     sync.Mutex // serialises opts.OnError
	spillMu   sync.Mutex // serialises spills, guards spillErr
	spillErr  error
}

// report hands err to opts.OnError.
func (b *indexBuild) report(err error) {
	if on := b.idx.opts.OnError; on != nil {
		b.errMu.Lock()
		on(err)
		b.errMu.Unlock()
	}
}

// flush adds a batch of entries and the stats st counted for them (then
// zeroed) to the index, and spills the entries in memory as sorted runs
// once they are MaxInMemory or their notes maxMemNotes bytes.
func (b *indexBuild) flush(batch []entry, st *Stats) {
	idx, opts := b.idx, b.idx.opts
	b.mu.Lock()
	idx.mem = append(idx.mem, batch...)
	for i := range batch {
		b.memNotes += len(batch[i].C.Note)
		if k := opts.Keep; k != nil && !batch[i].recalled {
			e := &batch[i]
			k.Keep(int(e.Seq>>recordBits), Entry{Capture: e.C, Record: e.Seq & (1<<recordBits - 1), RefURI: e.RefURI, RefDate: e.RefDate})
		}
	}
	for i := range batch {
		// The original of a digest is its first response in input
		// order, whichever worker read it first.
		if c := &batch[i].C; !c.Revisit && c.Digest != "" {
			idx.orig.add(normDigest(c.Digest), original{loc: c.Loc, status: c.Status, mime: c.MIME}, int64(batch[i].Seq))
		}
	}
	idx.stats.add(st)
	if opts.Progress != nil {
		opts.Progress(b.filesDone, idx.stats.Captures)
	}
	var full []entry
	if len(idx.mem) >= opts.MaxInMemory || b.memNotes >= maxMemNotes {
		full, idx.mem = idx.mem, make([]entry, 0, min(opts.MaxInMemory, 1<<16))
		b.memNotes = 0
	}
	b.mu.Unlock()
	for len(full) > 0 {
		n := min(len(full), opts.MaxInMemory)
		b.spillMu.Lock()
		if b.spillErr == nil {
			b.spillErr = idx.spill(full[:n])
		}
		b.spillMu.Unlock()
		full = full[n:]
	}
}

// scanFiles reads files on opts.Workers goroutines until all are read or
// ctx is done.
func (b *indexBuild) scanFiles(ctx context.Context, files []string, notes chan<- noteJob) {
	opts := b.idx.opts
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range opts.Workers {
		wg.Go(func() {
			for fi := range jobs {
				ok := b.recall(fi, files[fi])
				if !ok {
					var whole bool
					ok, whole = b.scanFile(ctx, fi, files[fi], notes)
					if k := opts.Keep; k != nil {
						b.mu.Lock()
						k.Read(fi, whole)
						b.mu.Unlock()
					}
				}
				b.mu.Lock()
				if ok {
					b.okFiles++
				}
				b.filesDone++
				if opts.Progress != nil {
					opts.Progress(b.filesDone, b.idx.stats.Captures)
				}
				b.mu.Unlock()
			}
		})
	}
	for i := range files {
		if ctx.Err() != nil {
			break
		}
		jobs <- i
	}
	close(jobs)
	wg.Wait()
}

// finish readies the index for reading once every file is read: it fails
// when ctx is done, a spill failed or none of the files could be read.
func (b *indexBuild) finish(ctx context.Context, files int) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if b.spillErr != nil {
		return b.spillErr
	}
	if b.okFiles == 0 && files > 0 {
		return fmt.Errorf("timemap: none of the %d input files could be read", files)
	}
	if err := b.idx.orig.freeze(); err != nil {
		return err
	}
	slices.SortFunc(b.idx.mem, func(a, b entry) int { return cmpEntry(&a, &b) })
	return nil
}

func (s *Stats) add(o *Stats) {
	for k, v := range o.Records {
		s.Records[k] += v
	}
	s.Captures += o.Captures
	s.Revisits += o.Revisits
	s.NonHTTP += o.NonHTTP
	s.Skipped += o.Skipped
	s.Cut += o.Cut
	s.FilesFailed += o.FilesFailed
	*o = Stats{Records: map[string]int{}}
}

// recall indexes the entries opts.Recall gives for file number fi, at
// path, and reports whether it gave them.
func (b *indexBuild) recall(fi int, path string) bool {
	if b.idx.opts.Recall == nil {
		return false
	}
	es, ok := b.idx.opts.Recall(fi, path)
	if !ok {
		return false
	}
	st := Stats{Records: map[string]int{}}
	batch := make([]entry, 0, len(es))
	for _, e := range es {
		c := e.Capture
		c.Loc.File = path
		if !c.Payload.IsZero() {
			c.Payload.File = path
		}
		st.Captures++
		if c.Revisit {
			st.Revisits++
		}
		batch = append(batch, entry{C: c, Seq: uint64(fi)<<recordBits | e.Record, RefURI: e.RefURI, RefDate: e.RefDate, recalled: true})
	}
	b.flush(batch, &st)
	return true
}

// scanFile reads one file, handing batches of entries to flush. It reports
// whether the file could be opened and whether it was read whole.
func (b *indexBuild) scanFile(ctx context.Context, fi int, path string, notes chan<- noteJob) (opened, whole bool) {
	idx := b.idx
	st := Stats{Records: map[string]int{}}
	rr, err := OpenRecords(path, idx.opts.Read)
	if err != nil {
		b.report(err)
		st.FilesFailed = 1
		b.flush(nil, &st)
		return false, false
	}
	defer rr.Close()
	const batchSize = 4096
	batch := make([]entry, 0, 256)
	var n uint64
	whole = true
	for {
		if ctx.Err() != nil {
			whole = false
			break
		}
		rec, err := rr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			var re *RecordError
			if errors.As(err, &re) {
				st.Skipped++
				b.report(err)
				continue
			}
			b.report(err)
			st.FilesFailed = 1
			whole = false
			break
		}
		st.Records[rec.Type]++
		n++
		e, ok := idx.toEntry(rec, uint64(fi)<<recordBits|n, &st)
		if !ok {
			continue
		}
		if rec.BodyCut {
			st.Cut++
		}
		if notes != nil && !e.C.Revisit && rec.HTTP != nil && (idx.opts.WantsNote == nil || idx.opts.WantsNote(&e.C)) {
			// The block's length bounds the body's: one buffer, no regrowth.
			size := min(rec.ContentLength, DefaultMaxBodyBytes)
			if m := idx.opts.Read.maxBody(); m > 0 {
				size = min(size, m)
			}
			b.bodies.acquire(size)
			body := bytes.NewBuffer(make([]byte, 0, size+bytes.MinRead))
			if _, err := body.ReadFrom(rec.Body); err == nil {
				notes <- noteJob{e: e, h: rec.HTTP.Header, body: body.Bytes(), held: size}
				continue
			}
			b.bodies.release(size)
		}
		batch = append(batch, e)
		if len(batch) >= min(batchSize, idx.opts.MaxInMemory) {
			b.flush(batch, &st)
			batch = make([]entry, 0, batchSize)
		}
	}
	b.flush(batch, &st)
	return true, whole
}

// toEntry turns a record into a capture entry, or reports false for records
// that are not captures.
func (idx *Index) toEntry(rec *Record, seq uint64, st *Stats) (entry, bool) {
	switch rec.Type {
	case "response", "resource", "revisit":
	default:
		return entry{}, false
	}
	if rec.Format == FormatARC && rec.Type != "response" {
		return entry{}, false
	}
	if !isHTTPURI(rec.TargetURI) {
		st.NonHTTP++
		return entry{}, false
	}
	c := Capture{
		Key:    Canonicalize(rec.TargetURI, idx.opts.Canon),
		URIR:   rec.TargetURI,
		Time:   rec.Date,
		Digest: rec.PayloadDigest,
		Length: rec.Loc.Length,
		Loc:    rec.Loc,
	}
	e := entry{Seq: seq}
	if rec.HTTP != nil {
		c.Status = rec.HTTP.Status
		c.MIME = mimeType(rec.HTTP.Header.Get("Content-Type"))
	}
	switch {
	case rec.Type == "revisit":
		c.Revisit = true
		e.RefURI, e.RefDate = rec.RefersToTargetURI, rec.RefersToDate
		st.Revisits++
	case rec.Type == "resource":
		c.MIME = mimeType(rec.ContentType)
		c.Payload = c.Loc
	default:
		if c.MIME == "" && rec.Format == FormatARC {
			c.MIME = mimeType(rec.ContentType)
		}
		c.Payload = c.Loc
	}
	st.Captures++
	e.C = c
	return e, true
}

// normDigest returns the digest without its "sha1:" label, upper case.
func normDigest(d string) string {
	if i := strings.IndexByte(d, ':'); i >= 0 {
		d = d[i+1:]
	}
	return strings.ToUpper(strings.TrimSpace(d))
}

// runFanIn is how many sorted runs of one size are merged into one run of
// the next size: runs on disk stay O(log n) and each entry is rewritten
// log_64 of (captures / MaxInMemory) times, twice for 10^8 captures.
const runFanIn = 64

// run is a sorted run on disk; level 0 was spilled from memory, level L+1
// merged from runFanIn runs of level L.
type run struct {
	name  string
	level int
}

// spill writes a sorted run to the temp dir, then merges the newest runs
// while fanIn of them share a level.
func (idx *Index) spill(entries []entry) error {
	slices.SortFunc(entries, func(a, b entry) int { return cmpEntry(&a, &b) })
	sorted := func(yield func(entry, error) bool) {
		for i := range entries {
			if !yield(entries[i], nil) {
				return
			}
		}
	}
	if err := idx.writeRun(0, sorted, nil); err != nil {
		return err
	}
	idx.stats.Runs++
	fanIn := idx.opts.fanIn
	if fanIn < 2 {
		fanIn = runFanIn
	}
	for {
		n := len(idx.runs)
		level := idx.runs[n-1].level
		k := 0
		for k < n && idx.runs[n-1-k].level == level {
			k++
		}
		if k < fanIn {
			return nil
		}
		merged := idx.runs[n-k:]
		if err := idx.writeRun(level+1, mergeRuns(merged, nil), merged); err != nil {
			return err
		}
	}
}

// writeRun writes entries, in order, as a run of the given level. replaced
// are the newest runs it merges: they are removed once it is written.
func (idx *Index) writeRun(level int, entries iter.Seq2[entry, error], replaced []run) (err error) {
	if idx.tmpDir == "" {
		dir, err := os.MkdirTemp(idx.opts.TempDir, "offtopic-index-")
		if err != nil {
			return fmt.Errorf("timemap: index spill: %w", err)
		}
		idx.tmpDir = dir
	}
	name := filepath.Join(idx.tmpDir, fmt.Sprintf("run-%05d.gob", idx.written))
	idx.written++
	f, err := os.Create(name)
	if err != nil {
		return fmt.Errorf("timemap: index spill: %w", err)
	}
	defer func() {
		if cerr := f.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("timemap: index spill %s: %w", name, cerr)
		}
	}()
	bw := bufio.NewWriterSize(f, 256<<10)
	enc := gob.NewEncoder(bw)
	for e, err := range entries {
		if err != nil {
			return err
		}
		if err := enc.Encode(&e); err != nil {
			return fmt.Errorf("timemap: index spill %s: %w", name, err)
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("timemap: index spill %s: %w", name, err)
	}
	for _, r := range replaced {
		os.Remove(r.name)
	}
	idx.runs = append(idx.runs[:len(idx.runs)-len(replaced)], run{name: name, level: level})
	return nil
}

// Stats returns the counts gathered by BuildIndex.
func (idx *Index) Stats() Stats {
	s := idx.stats
	s.Records = make(map[string]int, len(idx.stats.Records))
	for k, v := range idx.stats.Records {
		s.Records[k] = v
	}
	return s
}

// Close removes the spilled runs. The index cannot be iterated afterwards.
func (idx *Index) Close() error {
	err := idx.orig.close()
	idx.mem, idx.runs, idx.orig = nil, nil, nil
	if idx.tmpDir != "" {
		dir := idx.tmpDir
		idx.tmpDir = ""
		err = errors.Join(err, os.RemoveAll(dir))
	}
	return err
}

// runIter iterates one sorted run.
type runIter struct {
	cur  entry
	next func() (entry, error)
	stop func()
}

// lessRun orders run iterators by their current entry.
func lessRun(a, b *runIter) bool { return cmpEntry(&a.cur, &b.cur) < 0 }

// entries yields all entries in order, merging the runs.
func (idx *Index) entries() iter.Seq2[entry, error] {
	return mergeRuns(idx.runs, idx.mem)
}

// mergeRuns yields the entries of sorted runs on disk and of sorted mem in
// order.
func mergeRuns(runs []run, mem []entry) iter.Seq2[entry, error] {
	return func(yield func(entry, error) bool) {
		var its []*runIter
		defer func() {
			for _, it := range its {
				it.stop()
			}
		}()
		for _, r := range runs {
			f, err := os.Open(r.name)
			if err != nil {
				yield(entry{}, fmt.Errorf("timemap: index run: %w", err))
				return
			}
			dec := gob.NewDecoder(bufio.NewReaderSize(f, 16<<10))
			it := &runIter{stop: func() { f.Close() }}
			it.next = func() (entry, error) {
				var e entry
				err := dec.Decode(&e)
				if err != nil && err != io.EOF {
					err = fmt.Errorf("timemap: index run %s: %w", f.Name(), err)
				}
				return e, err
			}
			its = append(its, it)
		}
		rest := mem
		its = append(its, &runIter{stop: func() {}, next: func() (entry, error) {
			if len(rest) == 0 {
				return entry{}, io.EOF
			}
			e := rest[0]
			rest = rest[1:]
			return e, nil
		}})
		mergeIters(its, yield)
	}
}

// mergeIters yields the entries of sorted run iterators in order (the
// caller stops the iterators).
func mergeIters(its []*runIter, yield func(entry, error) bool) {
	h := newMinHeap(len(its), lessRun)
	for _, it := range its {
		e, err := it.next()
		if err == io.EOF {
			continue
		}
		if err != nil {
			yield(entry{}, err)
			return
		}
		it.cur = e
		h.items = append(h.items, it)
	}
	heap.Init(h)
	for h.Len() > 0 {
		it := h.items[0]
		if !yield(it.cur, nil) {
			return
		}
		e, err := it.next()
		switch {
		case err == io.EOF:
			heap.Pop(h)
		case err != nil:
			yield(entry{}, err)
			return
		default:
			it.cur = e
			heap.Fix(h, 0)
		}
	}
}

// groupTimeMaps yields, from entries in key order, the TimeMap resolve makes
// of each key's entries: one TimeMap held at a time.
func groupTimeMaps(ctx context.Context, entries iter.Seq2[entry, error], resolve func([]entry) *TimeMap, yield func(*TimeMap, error) bool) {
	var group []entry
	emit := func() bool {
		if len(group) == 0 {
			return true
		}
		tm := resolve(group)
		group = group[:0]
		return yield(tm, nil)
	}
	for e, err := range entries {
		if err != nil {
			yield(nil, err)
			return
		}
		if len(group) > 0 && group[0].C.Key != e.C.Key {
			if err := ctx.Err(); err != nil {
				yield(nil, err)
				return
			}
			if !emit() {
				return
			}
		}
		group = append(group, e)
	}
	emit()
}

// TimeMaps yields the TimeMaps of the index in key order, revisits resolved.
// Only one TimeMap is held in memory at a time.
func (idx *Index) TimeMaps(ctx context.Context) iter.Seq2[*TimeMap, error] {
	return func(yield func(*TimeMap, error) bool) {
		groupTimeMaps(ctx, idx.entries(), idx.resolve, yield)
	}
}

// resolve builds a TimeMap from one key's entries with the one builder
// (see build.go); revisits not resolved within the TimeMap take a payload of
// the collection with their digest.
func (idx *Index) resolve(group []entry) *TimeMap {
	return builder{canon: idx.opts.Canon, collection: idx.orig.get}.build(group)
}

// Captures yields every capture of the index in key order (revisits
// resolved), e.g. for WriteCDXJ. An error while reading spilled runs ends the
// sequence early; Err reports it.
func (idx *Index) Captures() iter.Seq[Capture] {
	return func(yield func(Capture) bool) {
		idx.err = nil
		for tm, err := range idx.TimeMaps(context.Background()) {
			if err != nil {
				idx.err = err
				return
			}
			for _, c := range tm.Captures {
				if !yield(c) {
					return
				}
			}
		}
	}
}

// Err returns the error that ended the last Captures iteration early, if any.
func (idx *Index) Err() error { return idx.err }
