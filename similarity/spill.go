package similarity

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/gob"
	"errors"
	"fmt"
	"io"
	"iter"
	"os"
	"sync"

	"github.com/offtopic/offtopic/extract"
)

// The spill holds the first pass's Inputs, in key order, for the replay
// join and the second pass. It is written in segments of about
// spillSegment bytes, each a gob stream of its own, so that segments are
// decoded on all workers and a join pass reads only the segments that
// hold the keys it waits for.

// spillSegment is the size at which a segment is closed, and
// spillSegmentInputs the most Inputs it holds.
const (
	spillSegment       = 64 << 10
	spillSegmentInputs = 16
)

// maxKeptSpillBuffer is the most memory the spill writer keeps for its
// next segment: a segment holding a TimeMap of long pages grows past it.
const maxKeptSpillBuffer = 1 << 20

// segment is where one segment of the spill is, the ordinal of its first
// TimeMap (the count of those before it), how many it holds, and the least
// and the greatest key of them.
type segment struct {
	off, n       int64
	start, count int
	first, last  string
}

// spillFile is a spill file and its segments, once written.
type spillFile struct {
	f    *os.File
	segs []segment
}

// spillWriter encodes Inputs into the spill file, in the order it is
// handed them, on a goroutine of its own.
type spillWriter struct {
	sf   *spillFile
	in   chan *Input
	done chan error
	mu   sync.Mutex
	err  error
}

func newSpillWriter(f *os.File, queue int) *spillWriter {
	w := &spillWriter{sf: &spillFile{f: f}, in: make(chan *Input, queue), done: make(chan error, 1)}
	go w.run()
	return w
}

// run encodes what is queued, segment by segment.
func (w *spillWriter) run() {
	var buf bytes.Buffer
	var enc *gob.Encoder
	var seg segment
	var count, written int
	var err error
	flush := func() {
		if buf.Len() == 0 || err != nil {
			return
		}
		if _, werr := w.sf.f.WriteAt(buf.Bytes(), seg.off); werr != nil {
			err = fmt.Errorf("write spill file: %w", werr)
			w.setErr(err)
			return
		}
		seg.n, seg.count = int64(buf.Len()), count
		w.sf.segs = append(w.sf.segs, seg)
		seg = segment{off: seg.off + seg.n, start: written}
		buf.Reset()
		if buf.Cap() > maxKeptSpillBuffer {
			buf = bytes.Buffer{} // a TimeMap of long pages is not held to the end
		}
		enc, count = nil, 0
	}
	for in := range w.in {
		if err != nil {
			continue
		}
		if enc == nil {
			enc = gob.NewEncoder(&buf)
		}
		sp, eerr := toSpill(in)
		if eerr == nil {
			eerr = enc.Encode(sp)
		}
		if eerr != nil {
			err = fmt.Errorf("write spill file: %w", eerr)
			w.setErr(err)
			continue
		}
		for _, d := range sp.docs {
			buf.Write(d)
		}
		written++
		k := in.TimeMap.Key
		if count == 0 || k < seg.first {
			seg.first = k
		}
		if count == 0 || k > seg.last {
			seg.last = k
		}
		if count++; buf.Len() >= spillSegment || count >= spillSegmentInputs {
			flush()
		}
	}
	flush()
	w.done <- err
}

func (w *spillWriter) setErr(err error) {
	w.mu.Lock()
	w.err = err
	w.mu.Unlock()
}

// write queues in; the error is that of an earlier write.
func (w *spillWriter) write(in *Input) error {
	w.mu.Lock()
	err := w.err
	w.mu.Unlock()
	if err != nil {
		return err
	}
	w.in <- in
	return nil
}

// close waits for what was queued to be written and returns the spill.
func (w *spillWriter) close() (*spillFile, error) {
	close(w.in)
	err := <-w.done
	return w.sf, err
}

// errStopped ends a read of the spill its consumer stopped.
var errStopped = errors.New("stopped")

// read returns the Inputs of the segments that may hold one of keys (nil:
// every segment), in order, decoding segments on workers goroutines.
func (sf *spillFile) read(ctx context.Context, workers int, keys map[string]bool) iter.Seq2[*Input, error] {
	return func(yield func(*Input, error) bool) {
		err := orderedMap(ctx, workers, sf.segments(keys), sf.decode, func(ins []*Input) error {
			for _, in := range ins {
				if !yield(in, nil) {
					return errStopped
				}
			}
			return nil
		})
		if err != nil && !errors.Is(err, errStopped) {
			yield(nil, err)
		}
	}
}

// segments returns the spill's segments that may hold one of keys (nil:
// every segment), in order.
func (sf *spillFile) segments(keys map[string]bool) iter.Seq2[segment, error] {
	return func(yield func(segment, error) bool) {
		for _, s := range sf.segs {
			if keys != nil && !holdsOne(s, keys) {
				continue
			}
			if !yield(s, nil) {
				return
			}
		}
	}
}

// holdsOne reports whether segment s may hold one of keys.
func holdsOne(s segment, keys map[string]bool) bool {
	for k := range keys {
		if k >= s.first && k <= s.last {
			return true
		}
	}
	return false
}

// decode reads and decodes the Inputs of one segment.
func (sf *spillFile) decode(_ context.Context, s segment) ([]*Input, error) {
	b := make([]byte, s.n)
	if _, err := sf.f.ReadAt(b, s.off); err != nil {
		return nil, fmt.Errorf("read spill file: %w", err)
	}
	r := bytes.NewReader(b)
	dec := gob.NewDecoder(r) // reads no further than each message (r is an io.ByteReader)
	var out []*Input
	for {
		var sp spilled
		err := dec.Decode(&sp)
		if err == nil {
			for _, n := range sp.DocLens {
				at := len(b) - r.Len()
				if n < 0 || n > r.Len() {
					return nil, fmt.Errorf("read spill file: a document of %d bytes at %d, past its segment", n, s.off+int64(at))
				}
				sp.docs = append(sp.docs, b[at:at+n:at+n])
				r.Seek(int64(n), io.SeekCurrent)
			}
			in, err := sp.input()
			if err != nil {
				return nil, fmt.Errorf("read spill file: %w", err)
			}
			out = append(out, in)
			continue
		}
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		return nil, fmt.Errorf("read spill file: %w", err)
	}
}

// targetDocs holds the documents of the replay join's targets in a file
// until the TimeMaps that lead to them are scored: a collection of
// framesets keeps thousands of framed pages (issue 38: 300 framesets of 16
// frames of 64 KiB held 3 GB).
type targetDocs struct {
	f   *os.File
	end int64
	err error
}

// put writes t's document away and leaves t pointing at it.
func (d *targetDocs) put(t *Target) {
	if d.err != nil {
		return
	}
	doc, err := t.Doc.AppendBinary(nil)
	if err == nil {
		b := append(binary.AppendUvarint(nil, uint64(len(doc))), doc...)
		if _, err = d.f.WriteAt(b, d.end); err == nil {
			t.docAt, t.Doc = d.end+1, nil // 0 means "not put away"
			d.end += int64(len(b))
			return
		}
	}
	d.err = fmt.Errorf("write the replay targets' file: %w", err)
}

// load reads back the documents of ts that put wrote away.
func (d *targetDocs) load(ts []Target) error {
	for k := range ts {
		t := &ts[k]
		if t.docAt == 0 {
			continue
		}
		at := t.docAt - 1
		head := make([]byte, binary.MaxVarintLen64)
		n, _ := d.f.ReadAt(head, at)
		size, k := binary.Uvarint(head[:n])
		if k <= 0 {
			return errors.New("read the replay targets' file: bad length")
		}
		b := make([]byte, size)
		if _, err := d.f.ReadAt(b, at+int64(k)); err != nil {
			return fmt.Errorf("read the replay targets' file: %w", err)
		}
		doc := new(extract.Document)
		if err := doc.UnmarshalBinary(b); err != nil {
			return fmt.Errorf("read the replay targets' file: %w", err)
		}
		t.Doc, t.docAt = doc, 0
	}
	return nil
}
