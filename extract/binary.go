package extract

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"
)

// docFormat is the first byte of a Document's binary form: its version.
// Other versions are rejected: a Document of an older format was extracted
// by an older extract, whose Documents lack what later ones find (format 3
// added Embedded, Redirect, Frames and Shell, and Text changed with them;
// format 4 added Canonical, format 5 Partial, format 6 Copyright), so it is to be extracted
// again rather than read as if it were new. Format 7 writes the terms'
// lengths, then their bytes together.
const docFormat = 7

// AppendBinary appends the Document in a compact binary form to b (see
// UnmarshalBinary), for what keeps extracted documents on disk between two
// passes. It implements encoding.BinaryAppender.
func (d *Document) AppendBinary(b []byte) ([]byte, error) {
	b = slices.Grow(b, d.binaryLen())
	b = append(b, docFormat)
	for _, s := range []string{d.Title, d.Text, d.Chrome, d.Extractor, d.Lang, d.MediaType, d.Charset, d.CharsetFrom, d.TermsLang, d.PublishedFrom, d.Embedded, d.Redirect, d.Partial} {
		b = appendString(b, s)
	}
	for _, n := range []int{d.WordCount, d.ContentWords, d.ByteCount, d.ContentTerms, d.Copyright} {
		b = binary.AppendVarint(b, int64(n))
	}
	b = append(b, boolByte(d.Shell)|boolByte(d.TextCut)<<1)
	b, err := d.Published.AppendBinary(b)
	if err != nil {
		return nil, fmt.Errorf("extract: document: %w", err)
	}
	b = binary.AppendUvarint(b, uint64(len(d.Terms)))
	for _, t := range d.Terms {
		b = binary.AppendUvarint(b, uint64(len(t)))
	}
	for _, t := range d.Terms {
		b = append(b, t...)
	}
	b = binary.AppendUvarint(b, uint64(len(d.Langs)))
	for _, l := range d.Langs {
		b = binary.AppendUvarint(appendString(b, l.Lang), uint64(math.Round(l.Share*1000)))
	}
	b = binary.AppendUvarint(b, uint64(len(d.Links)))
	for _, l := range d.Links {
		b = appendString(appendString(b, l.URL), l.Anchor)
	}
	for _, list := range [][]string{d.Frames, d.Canonical} {
		b = binary.AppendUvarint(b, uint64(len(list)))
		for _, f := range list {
			b = appendString(b, f)
		}
	}
	return b, nil
}

// binaryLen is at least the length of the Document's binary form, so that
// AppendBinary grows its slice once: a page's terms are most of it.
func (d *Document) binaryLen() int {
	str := func(s string) int { return uvarintLen(len(s)) + len(s) }
	// The format, the numbers, the flags, the time (16 bytes at most) and
	// the lists' lengths.
	n := 1 + 5*binary.MaxVarintLen64 + 1 + 16 + 5*binary.MaxVarintLen64
	for _, s := range []string{d.Title, d.Text, d.Chrome, d.Extractor, d.Lang, d.MediaType, d.Charset, d.CharsetFrom, d.TermsLang, d.PublishedFrom, d.Embedded, d.Redirect, d.Partial} {
		n += str(s)
	}
	for _, t := range d.Terms {
		n += str(t)
	}
	for _, l := range d.Langs {
		n += str(l.Lang) + binary.MaxVarintLen64
	}
	for _, l := range d.Links {
		n += str(l.URL) + str(l.Anchor)
	}
	for _, list := range [][]string{d.Frames, d.Canonical} {
		for _, f := range list {
			n += str(f)
		}
	}
	return n
}

// uvarintLen is the length of x's uvarint.
func uvarintLen(x int) int {
	n := 1
	for ; x >= 0x80; x >>= 7 {
		n++
	}
	return n
}

// MarshalBinary returns the Document in the form AppendBinary writes. It
// implements encoding.BinaryMarshaler (which encoding/gob uses too).
func (d *Document) MarshalBinary() ([]byte, error) { return d.AppendBinary(nil) }

// UnmarshalBinary sets the Document from the form AppendBinary wrote. It
// implements encoding.BinaryUnmarshaler.
func (d *Document) UnmarshalBinary(b []byte) error {
	r := docReader{b: b}
	if v := r.byte(); v != docFormat {
		return fmt.Errorf("extract: document: format %d, want %d", v, docFormat)
	}
	*d = Document{}
	for _, s := range []*string{&d.Title, &d.Text, &d.Chrome, &d.Extractor, &d.Lang, &d.MediaType, &d.Charset, &d.CharsetFrom, &d.TermsLang, &d.PublishedFrom, &d.Embedded, &d.Redirect, &d.Partial} {
		*s = r.string()
	}
	for _, n := range []*int{&d.WordCount, &d.ContentWords, &d.ByteCount, &d.ContentTerms, &d.Copyright} {
		*n = int(r.varint())
	}
	if flags := r.byte(); flags > 3 {
		r.fail(errors.New("bad flags"))
	} else {
		d.Shell, d.TextCut = flags&1 != 0, flags&2 != 0
	}
	r.time(&d.Published)
	if n := r.count(); n > 0 {
		d.Terms = r.strings(n)
	}
	if n := r.count(); n > 0 {
		d.Langs = make([]LangShare, n)
		for i := range d.Langs {
			d.Langs[i].Lang = r.string()
			d.Langs[i].Share = float64(r.uvarint()) / 1000
		}
	}
	if n := r.count(); n > 0 {
		d.Links = make([]Link, n)
		for i := range d.Links {
			d.Links[i] = Link{URL: r.string(), Anchor: r.string()}
		}
	}
	for _, list := range []*[]string{&d.Frames, &d.Canonical} {
		if n := r.count(); n > 0 {
			*list = make([]string, n)
			for i := range *list {
				(*list)[i] = r.string()
			}
		}
	}
	if r.err == nil && len(r.b) > 0 {
		r.err = fmt.Errorf("%d bytes left over", len(r.b))
	}
	if r.err != nil {
		return fmt.Errorf("extract: document: %w", r.err)
	}
	return nil
}

func boolByte(v bool) byte {
	if v {
		return 1
	}
	return 0
}

func appendString(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

var errShort = errors.New("cut short")

// docReader reads what AppendBinary wrote; the first error sticks and every
// later read returns zero values.
type docReader struct {
	b   []byte
	err error
}

func (r *docReader) byte() byte {
	if r.err != nil || len(r.b) == 0 {
		r.fail(errShort)
		return 0
	}
	c := r.b[0]
	r.b = r.b[1:]
	return c
}

func (r *docReader) uvarint() uint64 { return readVarint(r, binary.Uvarint) }

func (r *docReader) varint() int64 { return readVarint(r, binary.Varint) }

// readVarint reads one number with decode (binary.Uvarint or Varint).
func readVarint[T int64 | uint64](r *docReader, decode func([]byte) (T, int)) T {
	v, n := decode(r.b)
	if n <= 0 {
		r.fail(errShort)
		return 0
	}
	r.b = r.b[n:]
	return v
}

// count reads a length that cannot exceed the bytes left (every element
// takes one byte at least).
func (r *docReader) count() int {
	n := r.uvarint()
	if n > uint64(len(r.b)) {
		r.fail(errShort)
		return 0
	}
	return int(n)
}

func (r *docReader) string() string {
	n := r.count()
	if r.err != nil {
		return ""
	}
	s := string(r.b[:n])
	r.b = r.b[n:]
	return s
}

// strings reads n strings written as their lengths, then their bytes
// together; they share one allocation: a page's terms are thousands of
// short strings.
func (r *docReader) strings(n int) []string {
	lens := make([]uint32, n)
	rest, total := r.b, 0
	for i := range n {
		m, k := binary.Uvarint(rest)
		if k <= 0 || m > uint64(len(rest)-k) {
			r.fail(errShort)
			return nil
		}
		lens[i] = uint32(m)
		rest = rest[k:]
		total += int(m)
	}
	if total > len(rest) {
		r.fail(errShort)
		return nil
	}
	all := string(rest[:total])
	out := make([]string, n)
	at := 0
	for i, m := range lens {
		out[i] = all[at : at+int(m)]
		at += int(m)
	}
	r.b = rest[total:]
	return out
}

// time reads a time.Time's binary form, whose length its first bytes give:
// a version byte, 8 bytes of seconds, 4 of nanoseconds, 2 of zone offset,
// and 1 more of seconds offset in version 2.
func (r *docReader) time(t *time.Time) {
	if r.err != nil || len(r.b) == 0 {
		r.fail(errShort)
		return
	}
	n := 15
	if r.b[0] == 2 {
		n = 16
	}
	if len(r.b) < n {
		r.fail(errShort)
		return
	}
	if err := t.UnmarshalBinary(r.b[:n]); err != nil {
		r.fail(err)
		return
	}
	r.b = r.b[n:]
}

func (r *docReader) fail(err error) {
	if r.err == nil {
		r.err = err
	}
	r.b = nil
}
