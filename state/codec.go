package state

import (
	"encoding/binary"
	"errors"
	"math"
	"time"

	"github.com/offtopic/offtopic/similarity"
	"github.com/offtopic/offtopic/timemap"
)

// The stored form of a TimeMap's result: every field in a fixed order,
// strings and numbers as varints, floats by their bits. It decodes about
// six times faster than JSON, which a run that reuses most results pays
// per capture; TestCodecKnowsEveryField fails when a result type gains a
// field this file does not write.

// resultFormat is the first byte of a stored result.
const resultFormat = 2

type enc struct{ b []byte }

func (e *enc) uint(v uint64) { e.b = binary.AppendUvarint(e.b, v) }
func (e *enc) int(v int64)   { e.b = binary.AppendVarint(e.b, v) }
func (e *enc) str(s string)  { e.uint(uint64(len(s))); e.b = append(e.b, s...) }
func (e *enc) bool(v bool) {
	if v {
		e.b = append(e.b, 1)
	} else {
		e.b = append(e.b, 0)
	}
}
func (e *enc) time(t time.Time) {
	if t.IsZero() {
		e.bool(false)
		return
	}
	e.bool(true)
	_, off := t.Zone()
	e.int(t.Unix())
	e.int(int64(t.Nanosecond()))
	e.int(int64(off))
}
func (e *enc) loc(l timemap.Location) {
	e.str(l.File)
	e.int(l.Offset)
	e.int(l.Length)
	e.int(l.MemberOffset)
}

// encodeResult is r in its stored form.
func encodeResult(r *similarity.TimeMapResult) []byte {
	e := &enc{b: make([]byte, 0, 1024)}
	e.b = append(e.b, resultFormat)
	e.str(r.Key)
	e.str(r.URIR)
	e.str(r.URIT)
	e.str(r.T0)
	e.str(r.T0Reason)
	e.uint(uint64(len(r.Captures)))
	for i := range r.Captures {
		encodeCapture(e, &r.Captures[i])
	}
	return e.b
}

func encodeCapture(e *enc, c *similarity.CaptureResult) {
	e.str(c.URIR)
	e.str(c.URIM)
	e.time(c.Datetime)
	e.int(int64(c.Status))
	e.str(c.MIME)
	e.str(c.Digest)
	e.bool(c.Revisit)
	e.loc(c.Loc)
	e.loc(c.Payload)
	e.str(c.Extractor)
	e.str(c.Lang)
	e.str(c.Title)
	e.int(int64(c.WordCount))
	e.int(int64(c.ByteCount))
	e.uint(uint64(len(c.Scores)))
	for m, s := range c.Scores {
		e.str(m)
		e.b = binary.LittleEndian.AppendUint64(e.b, math.Float64bits(s))
	}
	e.str(c.Verdict)
	e.str(string(c.Kind))
	e.str(c.Reason)
	e.bool(c.Replay != nil)
	if p := c.Replay; p != nil {
		e.str(p.How)
		e.str(p.URL)
		e.str(p.URIR)
		e.str(p.URIM)
		e.time(p.Time)
		e.int(int64(p.Hops))
		e.int(int64(p.Frames))
		e.str(p.Problem)
		e.str(p.Moved)
	}
	e.bool(c.IsT0)
	e.bool(c.Published != nil)
	if p := c.Published; p != nil {
		e.time(p.Time)
		e.str(p.From)
		e.bool(p.InWindow)
	}
	e.str(c.Excerpt)
	e.str(c.Partial)
}

// errCorrupt: a stored result that does not decode.
var errCorrupt = errors.New("corrupt stored result")

type dec struct {
	b   []byte
	err error
}

// varint takes the n bytes of a varint read as v off d (n <= 0: corrupt).
func varint[T uint64 | int64](d *dec, v T, n int) T {
	if n <= 0 {
		d.err, d.b = errCorrupt, nil
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *dec) uint() uint64 {
	v, n := binary.Uvarint(d.b)
	return varint(d, v, n)
}
func (d *dec) int() int64 {
	v, n := binary.Varint(d.b)
	return varint(d, v, n)
}
func (d *dec) str() string {
	n := d.uint()
	if n > uint64(len(d.b)) {
		d.err, d.b = errCorrupt, nil
		return ""
	}
	s := string(d.b[:n])
	d.b = d.b[n:]
	return s
}
func (d *dec) bool() bool {
	if len(d.b) == 0 {
		d.err = errCorrupt
		return false
	}
	v := d.b[0] == 1
	d.b = d.b[1:]
	return v
}
func (d *dec) time() time.Time {
	if !d.bool() {
		return time.Time{}
	}
	sec, nsec, off := d.int(), d.int(), d.int()
	t := time.Unix(sec, nsec)
	if off == 0 {
		return t.UTC()
	}
	return t.In(time.FixedZone("", int(off)))
}
func (d *dec) loc() timemap.Location {
	return timemap.Location{File: d.str(), Offset: d.int(), Length: d.int(), MemberOffset: d.int()}
}
func (d *dec) float() float64 {
	if len(d.b) < 8 {
		d.err, d.b = errCorrupt, nil
		return 0
	}
	v := math.Float64frombits(binary.LittleEndian.Uint64(d.b))
	d.b = d.b[8:]
	return v
}

// decodeResult reads a result in its stored form.
func decodeResult(b []byte) (*similarity.TimeMapResult, error) {
	if len(b) == 0 || b[0] != resultFormat {
		return nil, errCorrupt
	}
	d := &dec{b: b[1:]}
	r := &similarity.TimeMapResult{Key: d.str(), URIR: d.str(), URIT: d.str(), T0: d.str(), T0Reason: d.str()}
	n := d.uint()
	if n > uint64(len(d.b)) {
		return nil, errCorrupt
	}
	r.Captures = make([]similarity.CaptureResult, n)
	for i := range r.Captures {
		decodeCapture(d, &r.Captures[i])
	}
	if d.err != nil || len(d.b) > 0 {
		return nil, errCorrupt
	}
	return r, nil
}

func decodeCapture(d *dec, c *similarity.CaptureResult) {
	c.URIR, c.URIM, c.Datetime = d.str(), d.str(), d.time()
	c.Status, c.MIME, c.Digest, c.Revisit = int(d.int()), d.str(), d.str(), d.bool()
	c.Loc, c.Payload = d.loc(), d.loc()
	c.Extractor, c.Lang, c.Title = d.str(), d.str(), d.str()
	c.WordCount, c.ByteCount = int(d.int()), int(d.int())
	if n := d.uint(); n > 0 && n <= uint64(len(d.b)) {
		c.Scores = make(map[string]float64, n)
		for range n {
			m := d.str()
			c.Scores[m] = d.float()
		}
	}
	c.Verdict, c.Kind, c.Reason = d.str(), similarity.Kind(d.str()), d.str()
	if d.bool() {
		c.Replay = &similarity.Replay{How: d.str(), URL: d.str(), URIR: d.str(), URIM: d.str(), Time: d.time(),
			Hops: int(d.int()), Frames: int(d.int()), Problem: d.str(), Moved: d.str()}
	}
	c.IsT0 = d.bool()
	if d.bool() {
		c.Published = &similarity.Published{Time: d.time(), From: d.str(), InWindow: d.bool()}
	}
	c.Excerpt, c.Partial = d.str(), d.str()
}
