package timemap

import (
	"bufio"
	"bytes"
	"container/heap"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"sort"
)

// digestKey is the 128-bit FNV-1a hash of a payload digest (normalised by
// normDigest, as every caller has it): a
// fixed-size map key, so that the digest map holds no strings (two digests
// colliding among 10^12 has a probability below 10^-14).
type digestKey [16]byte

func keyOf(digest string) digestKey {
	h := fnv.New128a()
	h.Write([]byte(digest))
	var k digestKey
	h.Sum(k[:0])
	return k
}

// packedOriginal is an original without pointers: file and media type are
// indexes into the map's tables.
type packedOriginal struct {
	offset, length, member int64
	rank                   int64
	file, mime             uint32
	status                 int32
}

// digestRecSize is the size of one digest record on disk: the key, then
// offset, length, member, rank, file, mime and status, little-endian.
const digestRecSize = 16 + 4*8 + 3*4

// digestBlock is how many records of the merged table one lookup reads: the
// table keeps the first key of every block in memory.
const digestBlock = 64

// digestFanIn is how many runs are merged at once.
const digestFanIn = 64

// digestMap maps payload digests to the original record holding each
// payload, to resolve revisits across TimeMaps. It is the one part of an
// index that grows with the collection's distinct payloads, so it holds at
// most max digests in memory (a hashed key, offsets and small-integer
// references to interned file names and media types) and spills sorted runs
// beyond that; freeze merges them into one sorted table on disk, of which
// only the first key of every digestBlock records stays in memory (16 bytes
// per 64 digests). A lookup then reads one block. Adding is not safe for
// concurrent use; lookups after freeze are.
type digestMap struct {
	m       map[digestKey]packedOriginal
	max     int         // digests held in m before a run is spilled (0: no limit)
	tempDir string      // where runs and the table go ("" for the system's)
	runs    []string    // names of the sorted runs spilled (closed), oldest first
	table   *os.File    // the merged runs, once frozen with runs spilled
	sparse  []digestKey // first key of each block of table
	n       int64       // records in table
	err     error       // the first spill error; later adds are dropped
	files   []string
	fileIdx map[string]uint32
	mimes   []string
	mimeIdx map[string]uint32
}

// newDigestMap returns an empty map that keeps at most max digests in memory
// (0: all of them), spilling to tempDir.
func newDigestMap(max int, tempDir string) *digestMap {
	return &digestMap{m: make(map[digestKey]packedOriginal), max: max, tempDir: tempDir,
		fileIdx: make(map[string]uint32), mimeIdx: make(map[string]uint32)}
}

func intern(tab *[]string, idx map[string]uint32, s string) uint32 {
	if i, ok := idx[s]; ok {
		return i
	}
	i := uint32(len(*tab))
	*tab = append(*tab, s)
	idx[s] = i
	return i
}

// add records o as the original of digest unless one of lower rank (earlier
// in the order the caller defines) is there already; on equal ranks the
// first added stays. A spill error is kept for freeze to return.
func (d *digestMap) add(digest string, o original, rank int64) {
	if d.err != nil {
		return
	}
	k := keyOf(digest)
	if old, ok := d.m[k]; ok && old.rank <= rank {
		return
	}
	d.m[k] = packedOriginal{
		offset: o.loc.Offset, length: o.loc.Length, member: o.loc.MemberOffset, rank: rank,
		file:   intern(&d.files, d.fileIdx, o.loc.File),
		mime:   intern(&d.mimes, d.mimeIdx, o.mime),
		status: int32(o.status),
	}
	if d.max > 0 && len(d.m) >= d.max {
		d.err = d.spill()
	}
}

// spill writes the digests in memory as a sorted run and empties the map.
func (d *digestMap) spill() error {
	keys := make([]digestKey, 0, len(d.m))
	for k := range d.m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return bytes.Compare(keys[i][:], keys[j][:]) < 0 })
	f, err := d.create()
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(f, 64<<10)
	var rec [digestRecSize]byte
	for _, k := range keys {
		encodeDigestRec(&rec, k, d.m[k])
		bw.Write(rec[:])
	}
	err = bw.Flush()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	d.runs = append(d.runs, f.Name())
	if err != nil {
		return fmt.Errorf("timemap: digest spill %s: %w", f.Name(), err)
	}
	clear(d.m)
	return nil
}

func (d *digestMap) create() (*os.File, error) {
	f, err := os.CreateTemp(d.tempDir, "offtopic-digests-*.bin")
	if err != nil {
		return nil, fmt.Errorf("timemap: digest spill: %w", err)
	}
	return f, nil
}

func encodeDigestRec(rec *[digestRecSize]byte, k digestKey, p packedOriginal) {
	copy(rec[:16], k[:])
	b := rec[16:]
	binary.LittleEndian.PutUint64(b[0:], uint64(p.offset))
	binary.LittleEndian.PutUint64(b[8:], uint64(p.length))
	binary.LittleEndian.PutUint64(b[16:], uint64(p.member))
	binary.LittleEndian.PutUint64(b[24:], uint64(p.rank))
	binary.LittleEndian.PutUint32(b[32:], p.file)
	binary.LittleEndian.PutUint32(b[36:], p.mime)
	binary.LittleEndian.PutUint32(b[40:], uint32(p.status))
}

func decodeDigestRec(rec []byte) (digestKey, packedOriginal) {
	var k digestKey
	copy(k[:], rec[:16])
	b := rec[16:]
	return k, packedOriginal{
		offset: int64(binary.LittleEndian.Uint64(b[0:])),
		length: int64(binary.LittleEndian.Uint64(b[8:])),
		member: int64(binary.LittleEndian.Uint64(b[16:])),
		rank:   int64(binary.LittleEndian.Uint64(b[24:])),
		file:   binary.LittleEndian.Uint32(b[32:]),
		mime:   binary.LittleEndian.Uint32(b[36:]),
		status: int32(binary.LittleEndian.Uint32(b[40:])),
	}
}

// freeze ends adding. When runs were spilled, the digests still in memory
// are spilled too and all runs merged into one sorted table (of each key the
// lowest rank, on equal ranks the first added); otherwise the map stays in
// memory. It returns the first spill error.
func (d *digestMap) freeze() error {
	if d.err != nil || len(d.runs) == 0 {
		return d.err
	}
	if len(d.m) > 0 {
		if d.err = d.spill(); d.err != nil {
			return d.err
		}
	}
	d.m = nil
	// Each pass merges consecutive groups of runs, so that every record is
	// rewritten log_64(runs) times and runs stay in the order they were
	// added (which breaks rank ties).
	for len(d.runs) > digestFanIn {
		var next []string
		for i := 0; i < len(d.runs); i += digestFanIn {
			group := d.runs[i:min(i+digestFanIn, len(d.runs))]
			f, _, err := d.merge(group, nil)
			if err != nil { // the group's runs are still there
				d.err, d.runs = err, append(next, d.runs[i:]...)
				return err
			}
			next = append(next, f.Name())
			if err := f.Close(); err != nil {
				d.err, d.runs = err, append(next, d.runs[i+len(group):]...)
				return err
			}
		}
		d.runs = next
	}
	f, sparse, err := d.merge(d.runs, &d.n)
	if err != nil {
		d.err = err
		return err
	}
	d.runs, d.table, d.sparse = nil, f, sparse
	return nil
}

// digestRun reads one run in a merge.
type digestRun struct {
	r    *bufio.Reader
	ord  int // position of the run, oldest first: breaks rank ties
	key  digestKey
	orig packedOriginal
	rec  [digestRecSize]byte
}

func (r *digestRun) next() error {
	if _, err := io.ReadFull(r.r, r.rec[:]); err != nil {
		return err
	}
	r.key, r.orig = decodeDigestRec(r.rec[:])
	return nil
}

// lessDigestRun orders runs in a merge by key, then rank, then run order.
func lessDigestRun(a, b *digestRun) bool {
	if c := bytes.Compare(a.key[:], b.key[:]); c != 0 {
		return c < 0
	}
	if a.orig.rank != b.orig.rank {
		return a.orig.rank < b.orig.rank
	}
	return a.ord < b.ord
}

// merge merges the named runs into a new file, left open, keeping the first
// record of each key in heap order; the runs are removed once it is written.
// With count set it also counts the records and returns the first key of
// every digestBlock of them.
func (d *digestMap) merge(runs []string, count *int64) (*os.File, []digestKey, error) {
	var open []*os.File
	defer func() {
		for _, f := range open {
			f.Close()
		}
	}()
	out, err := d.create()
	if err != nil {
		return nil, nil, err
	}
	fail := func(err error) (*os.File, []digestKey, error) {
		out.Close()
		os.Remove(out.Name())
		return nil, nil, fmt.Errorf("timemap: digest merge %s: %w", out.Name(), err)
	}
	h := newMinHeap(len(runs), lessDigestRun)
	for i, name := range runs {
		f, err := os.Open(name)
		if err != nil {
			return fail(err)
		}
		open = append(open, f)
		r := &digestRun{r: bufio.NewReaderSize(f, 16<<10), ord: i}
		switch err := r.next(); {
		case err == io.EOF:
		case err != nil:
			return fail(err)
		default:
			h.items = append(h.items, r)
		}
	}
	heap.Init(h)
	bw := bufio.NewWriterSize(out, 64<<10)
	var sparse []digestKey
	var n int64
	var last digestKey
	for h.Len() > 0 {
		r := h.items[0]
		if n == 0 || r.key != last {
			if count != nil && n%digestBlock == 0 {
				sparse = append(sparse, r.key)
			}
			bw.Write(r.rec[:])
			last = r.key
			n++
		}
		switch err := r.next(); {
		case err == io.EOF:
			heap.Pop(h)
		case err != nil:
			return fail(err)
		default:
			heap.Fix(h, 0)
		}
	}
	if err := bw.Flush(); err != nil {
		return fail(err)
	}
	for _, name := range runs {
		os.Remove(name)
	}
	if count != nil {
		*count = n
	}
	return out, sparse, nil
}

// get returns the original recorded for digest. After freeze with a table
// on disk, it reads the one block that may hold the digest (a read error of
// that temporary file counts as not found: the revisit stays unresolved).
func (d *digestMap) get(digest string) (original, bool) {
	if d == nil {
		return original{}, false
	}
	k := keyOf(digest)
	p, ok := d.m[k]
	if d.table != nil {
		p, ok = d.lookup(k)
	}
	if !ok {
		return original{}, false
	}
	return original{
		loc:    Location{File: d.files[p.file], Offset: p.offset, Length: p.length, MemberOffset: p.member},
		status: int(p.status),
		mime:   d.mimes[p.mime],
	}, true
}

func (d *digestMap) lookup(k digestKey) (packedOriginal, bool) {
	b := sort.Search(len(d.sparse), func(i int) bool { return bytes.Compare(d.sparse[i][:], k[:]) > 0 }) - 1
	if b < 0 {
		return packedOriginal{}, false
	}
	first := int64(b) * digestBlock
	n := min(digestBlock, d.n-first)
	buf := make([]byte, n*digestRecSize)
	if _, err := d.table.ReadAt(buf, first*digestRecSize); err != nil {
		return packedOriginal{}, false
	}
	i := sort.Search(int(n), func(i int) bool {
		return bytes.Compare(buf[i*digestRecSize:i*digestRecSize+16], k[:]) >= 0
	})
	if i == int(n) || !bytes.Equal(buf[i*digestRecSize:i*digestRecSize+16], k[:]) {
		return packedOriginal{}, false
	}
	_, p := decodeDigestRec(buf[i*digestRecSize:])
	return p, true
}

// len returns the number of digests recorded (exact in memory and after
// freeze).
func (d *digestMap) len() int {
	if d.table != nil {
		return int(d.n)
	}
	return len(d.m)
}

// close removes the map's files.
func (d *digestMap) close() error {
	if d == nil {
		return nil
	}
	var errs []error
	for _, name := range d.runs {
		errs = append(errs, os.Remove(name))
	}
	if d.table != nil {
		errs = append(errs, d.table.Close(), os.Remove(d.table.Name()))
	}
	d.runs, d.table, d.m = nil, nil, nil
	return errors.Join(errs...)
}
