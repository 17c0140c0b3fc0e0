package timemap

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"sync"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
	"github.com/nlnwa/gowarc/v2"
)

// newUnmarshalerMu serialises gowarc.NewUnmarshaler, which writes a global
// of github.com/google/uuid (EnableRandPool) without synchronisation: a
// data race when readers are opened from several goroutines. It guards
// gowarc's state, not ours.
var newUnmarshalerMu sync.Mutex

// warcSource reads WARC records, driving the gzip members itself so that it
// knows each member's offset and compressed length and can read members
// holding more than one record (gowarc stops after the first record of a
// member and discards the rest of it).
//
// It parses every record header itself (it must, to bound what a damaged file
// can make a parser read). A record whose block fits in directBlockMax and
// that needs no payload digest computed is then read straight into a reused
// buffer. The others go through gowarc, with its default validation policy,
// the only one under which record blocks stay readable after Unmarshal
// returns: it computes the payload digest a response or resource record does
// not state, and buffers a large block in memory or in TempDir. Its
// validation (a WHATWG parse of every URI, a SHA-1 of every block, a copy of
// every block into its buffer) is a third of the index pass and its verdicts
// are not used, so no record pays for it that does not need it.
type warcSource struct {
	path string
	opts ReadOptions
	f    *os.File
	base int64 // file offset where reading started
	cnt  countingReader
	br   *bufio.Reader // file bytes
	gz   bool          // read as members: gzip members, or zstd frames (zd)
	zr   *gzip.Reader
	zd   *zstd.Decoder // of a .warc.zst, with its dictionary

	inMember   bool
	memberOff  int64
	memberRecs int
	span       bool         // a record's bytes may continue into the next member
	need       func() int64 // while span: bytes the record still needs
	probe      *gzip.Reader // looks at the start of the next member
	skipInner  int64        // bytes to skip in the first member (ReadResponse)
	dcnt       countingReader
	dbr        *bufio.Reader // decompressed member bytes (gzip) or br
	u          gowarc.Unmarshaler
	cur        gowarc.WarcRecord
	gwr        *bufio.Reader // what gowarc reads: one record, bounded
	body       *bufio.Reader
	bcnt       countingReader // block bytes read through body
	blk        []byte         // the block of a record read directly
	viaGowarc  bool           // read every record through gowarc (tests)
	done       bool
	resynced   bool  // skipped bytes after a bad record are not reported
	trailerErr error // a member read whole whose trailer failed, reported next
}

func newWARCSource(path string, f *os.File, base int64, comp compression, skipInner int64, opts ReadOptions) (*warcSource, error) {
	s := &warcSource{path: path, opts: opts, f: f, base: base, gz: comp != plain, skipInner: skipInner}
	if comp == zstdFramed {
		dict, err := zstdDictionary(f)
		if err == nil {
			s.zd, err = newZstdDecoder(dict)
		}
		if err != nil {
			return nil, err
		}
	}
	s.cnt.r = f
	s.br = bufio.NewReaderSize(&s.cnt, 256<<10)
	gopts := []gowarc.WarcRecordOption{gowarc.WithBufferMaxMemBytes(8 << 20)}
	if opts.TempDir != "" {
		gopts = append(gopts, gowarc.WithBufferTmpDir(opts.TempDir))
	}
	newUnmarshalerMu.Lock()
	s.u = gowarc.NewUnmarshaler(gopts...)
	newUnmarshalerMu.Unlock()
	if s.gz {
		s.dbr = bufio.NewReaderSize(&s.dcnt, 64<<10)
	} else {
		s.dbr = s.br
	}
	return s, nil
}

// filePos is the file offset of the next unread byte of br.
func (s *warcSource) filePos() int64 { return s.base + s.cnt.n - int64(s.br.Buffered()) }

// memberPos is the offset of the next unread decompressed byte in the member.
func (s *warcSource) memberPos() int64 { return s.dcnt.n - int64(s.dbr.Buffered()) }

// memberChain reads the current gzip member and, while s.span is set (a
// record's header or block is being read), continues into the next member
// when this one ends: writers that cut members at fixed sizes split records
// across members, and a whole-stream reader reads them whole. It does not
// continue into a member that starts with a record: the record before is
// then cut short.
type memberChain struct{ s *warcSource }

func (c memberChain) Read(p []byte) (int, error) {
	s := c.s
	if s.zd != nil {
		return s.zd.Read(p) // a zstd frame holds whole records
	}
	for {
		n, err := s.zr.Read(p)
		if err != io.EOF {
			return n, err
		}
		if n > 0 {
			return n, nil
		}
		if !s.span || !s.continueMember() {
			return 0, io.EOF
		}
	}
}

// continueMember starts the gzip member that follows the current one when
// it does not start with a record. Reading goes on as in one member: the
// records read from there on are located by the offset of the first member
// and their offset in the decompressed stream since its start, as in a file
// gzipped as one member.
func (s *warcSource) continueMember() bool {
	if s.zd != nil {
		return false // a zstd frame is not continued into the next
	}
	p, _ := s.br.Peek(min(s.br.Size(), 64<<10))
	if len(p) < 3 || p[0] != 0x1f || p[1] != 0x8b || p[2] != 8 {
		return false
	}
	var err error
	if s.probe == nil {
		s.probe, err = gzip.NewReader(bytes.NewReader(p))
	} else {
		err = s.probe.Reset(bytes.NewReader(p))
	}
	if err != nil {
		return false
	}
	var buf [64]byte
	head := buf[:]
	m, _ := io.ReadFull(s.probe, head)
	if m == 0 || startsWARCRecord(head[:m]) && int64(len(head[:m])-len(bytes.TrimLeft(head[:m], "\r\n"))) < s.need() {
		return false
	}
	return startGzipMember(&s.zr, s.br) == nil
}

// startsWARCRecord reports whether b, the start of a gzip member, starts
// with a WARC record (after line ends). The member still continues the
// record before when these line ends are all that record needs.
func startsWARCRecord(b []byte) bool {
	t := bytes.TrimLeft(b, "\r\n")
	return len(t) > 0 && (bytes.HasPrefix(t, []byte("WARC/")) || len(t) < 5 && bytes.HasPrefix([]byte("WARC/"), t))
}

func (s *warcSource) close() error {
	s.closeCur()
	if s.zr != nil {
		s.zr.Close()
	}
	if s.zd != nil {
		s.zd.Close()
	}
	return s.f.Close()
}

func (s *warcSource) closeCur() {
	if s.cur != nil {
		_ = s.cur.Close()
		s.cur = nil
	}
}

func (s *warcSource) recErr(off int64, err error) *RecordError {
	return &RecordError{File: s.path, Offset: off, Err: err}
}

// startMember positions the decompressor on the next gzip member (or zstd
// frame).
func (s *warcSource) startMember() error {
	if s.zd != nil {
		return s.startFrame()
	}
	off := s.filePos()
	magic, err := s.br.Peek(3)
	if len(magic) == 0 && err != nil {
		if err == io.EOF {
			return io.EOF
		}
		return fmt.Errorf("timemap: %s: offset %d: %w", s.path, off, err)
	}
	if len(magic) < 3 || magic[0] != 0x1f || magic[1] != 0x8b || magic[2] != 8 {
		n, serr := skipToGzipMagic(s.br)
		if trailingSpaceOnly(magic) && serr == io.EOF {
			return io.EOF
		}
		if serr == io.EOF && n == 0 {
			return io.EOF
		}
		return s.recErr(off, fmt.Errorf("%d bytes of garbage %s", n, garbageWhere(off)))
	}
	if err := startGzipMember(&s.zr, s.br); err != nil {
		return s.recErr(off, err)
	}
	s.dcnt = countingReader{r: memberChain{s}}
	s.dbr.Reset(&s.dcnt)
	s.inMember, s.memberOff, s.memberRecs = true, off, 0
	if s.skipInner > 0 {
		// The record may lie in a member continued into: reading
		// found it there, so every member up to it is continued into.
		s.span, s.need = true, func() int64 { return 0 }
		_, err := s.dbr.Discard(int(s.skipInner))
		s.span = false
		if err != nil {
			return fmt.Errorf("timemap: %s: offset %d: member offset %d: %w", s.path, off, s.skipInner, err)
		}
		s.skipInner = 0
	}
	return nil
}

// startFrame positions the decompressor on the next zstd frame, past
// skippable frames (a .warc.zst's dictionary); garbage before it is
// reported as between gzip members.
func (s *warcSource) startFrame() error {
	for {
		off := s.filePos()
		magic, err := s.br.Peek(4)
		if len(magic) == 0 && err == io.EOF || len(magic) < 4 && trailingSpaceOnly(magic) {
			return io.EOF
		}
		if isSkippableFrame(magic) {
			size, err := zstdFrameSize(s.f, off)
			if err != nil {
				return s.recErr(off, err)
			}
			if _, err := s.br.Discard(int(min(size, 1<<30))); err != nil {
				return s.recErr(off, fmt.Errorf("skippable zstd frame: %w", noEOF(err)))
			}
			continue
		}
		if !bytes.Equal(magic, zstdMagic) {
			n, serr := skipToMagic(s.br, zstdMagic)
			if serr == io.EOF && n == 0 {
				return io.EOF
			}
			return s.recErr(off, fmt.Errorf("%d bytes of garbage %s", n, strings.ReplaceAll(garbageWhere(off), "gzip members", "zstd frames")))
		}
		size, err := zstdFrameSize(s.f, off)
		if err == nil {
			err = s.zd.Reset(io.LimitReader(s.br, size))
		}
		if err != nil {
			_, _ = s.br.Discard(1)
			_, _ = skipToMagic(s.br, zstdMagic)
			return s.recErr(off, fmt.Errorf("bad zstd frame: %w", err))
		}
		s.dcnt = countingReader{r: memberChain{s}}
		s.dbr.Reset(&s.dcnt)
		s.inMember, s.memberOff, s.memberRecs = true, off, 0
		if s.skipInner > 0 {
			if _, err := s.dbr.Discard(int(s.skipInner)); err != nil {
				return fmt.Errorf("timemap: %s: offset %d: member offset %d: %w", s.path, off, s.skipInner, err)
			}
			s.skipInner = 0
		}
		return nil
	}
}

// memberName is what the file's members are: "gzip member" or "zstd frame".
func (s *warcSource) memberName() string {
	if s.zd != nil {
		return "zstd frame"
	}
	return "gzip member"
}

// skipToMember discards bytes up to the next gzip member or zstd frame.
func (s *warcSource) skipToMember() {
	if s.zd != nil {
		_, _ = skipToMagic(s.br, zstdMagic)
		return
	}
	_, _ = skipToGzipMagic(s.br)
}

// ErrGarbage is wrapped by the *RecordError of bytes between the records of
// a plain WARC file that are no record: most often the tail of the record
// before, whose Content-Length is short. Such bytes belong with that record
// (prune copies them with it).
var ErrGarbage = errors.New("bytes that are no record")

// garbageError is the error of such bytes, as said in msg.
type garbageError string

func (e garbageError) Error() string        { return string(e) }
func (e garbageError) Is(target error) bool { return target == ErrGarbage }

func garbage(msg string) error { return garbageError(msg) }

// garbageWhere says where garbage found at file offset off lies.
func garbageWhere(off int64) string {
	if off == 0 {
		return "before the first gzip member"
	}
	return "between gzip members"
}

func trailingSpaceOnly(b []byte) bool { return len(bytes.TrimSpace(b)) == 0 }

// startGzipMember makes *zr (reused when there is one) read the gzip member
// at the start of br, that member only. When its header is bad, br is left
// at the next gzip magic after it and the error says so.
func startGzipMember(zr **gzip.Reader, br *bufio.Reader) error {
	var err error
	if *zr == nil {
		*zr, err = gzip.NewReader(br)
	} else {
		err = (*zr).Reset(br)
	}
	if err != nil {
		_, _ = br.Discard(1)
		_, _ = skipToGzipMagic(br)
		return fmt.Errorf("bad gzip member: %w", err)
	}
	(*zr).Multistream(false)
	return nil
}

// skipToGzipMagic discards bytes up to the next gzip member header.
func skipToGzipMagic(br *bufio.Reader) (int64, error) {
	return skipToMagic(br, []byte{0x1f, 0x8b, 8})
}

// skipToMagic discards bytes up to the next occurrence of magic.
func skipToMagic(br *bufio.Reader, magic []byte) (int64, error) {
	var skipped int64
	for {
		buf, err := br.Peek(br.Size())
		if i := bytes.Index(buf, magic); i >= 0 {
			_, _ = br.Discard(i)
			return skipped + int64(i), nil
		}
		n := len(buf) - (len(magic) - 1)
		if err != nil || n <= 0 {
			_, _ = br.Discard(len(buf))
			skipped += int64(len(buf))
			if err == nil {
				err = io.EOF
			}
			return skipped, err
		}
		_, _ = br.Discard(n)
		skipped += int64(n)
	}
}

// errPartialWARC is returned by skipToWARC when the data ends in the first
// bytes of "WARC/<digit>", which are left unread.
var errPartialWARC = errors.New("data ends in a partial WARC/ line")

// skipToWARC discards bytes up to the next "WARC/<digit>" and returns how
// many were skipped and whether any of them was not white space; err is
// io.EOF when none is left, or errPartialWARC (when keepPartial is set and
// the data ends in a prefix of "WARC/", left unread).
func skipToWARC(br *bufio.Reader, keepPartial bool) (skipped int64, junk bool, err error) {
	discard := func(n int, buf []byte) {
		junk = junk || len(bytes.TrimSpace(buf[:n])) > 0
		_, _ = br.Discard(n)
		skipped += int64(n)
	}
	for {
		buf, err := br.Peek(br.Size())
		for i := 0; ; {
			j := bytes.Index(buf[i:], []byte("WARC/"))
			if j < 0 {
				break
			}
			j += i
			if j+5 < len(buf) && buf[j+5] >= '0' && buf[j+5] <= '9' {
				discard(j, buf)
				return skipped, junk, nil
			}
			if j+5 >= len(buf) && err == nil {
				break // need more bytes
			}
			i = j + 1
		}
		n := len(buf) - 5
		if err != nil || n <= 0 {
			if k := partialWARCSuffix(buf); keepPartial && k > 0 && (err == nil || err == io.EOF) {
				discard(len(buf)-k, buf)
				return skipped, junk, errPartialWARC
			}
			discard(len(buf), buf)
			if err == nil {
				err = io.EOF
			}
			return skipped, junk, err
		}
		discard(n, buf)
	}
}

// partialWARCSuffix returns the length of the longest end of b that is a
// prefix of "WARC/" (whole, at most), or 0.
func partialWARCSuffix(b []byte) int {
	for k := min(5, len(b)); k > 0; k-- {
		if bytes.HasPrefix([]byte("WARC/"), b[len(b)-k:]) {
			return k
		}
	}
	return 0
}

func (s *warcSource) next() (*Record, error) {
	s.closeCur()
	if err := s.trailerErr; err != nil {
		s.trailerErr = nil
		return nil, err
	}
	if s.done {
		return nil, io.EOF
	}
	for {
		if s.gz && !s.inMember {
			if err := s.startMember(); err != nil {
				if err == io.EOF {
					s.done = true
				}
				return nil, err
			}
		}
		// Locate the record start.
		recOff := s.filePos()
		var inner int64
		if s.gz {
			inner = s.memberPos()
		}
		skipped, junk, err := skipToWARC(s.dbr, s.gz)
		if err == errPartialWARC {
			// The member ends in the first bytes of a record header: it
			// may go on in the next member, if that does not start with
			// a record.
			s.span, s.need = true, func() int64 { return math.MaxInt64 }
			_, _ = s.dbr.Peek(s.dbr.Buffered() + 1)
			s.span = false
			n, j, e := skipToWARC(s.dbr, false)
			skipped, junk, err = skipped+n, junk || j, e
		}
		report := junk && !s.resynced
		s.resynced = false
		if err != nil {
			if s.gz {
				s.inMember = false
				if err != io.EOF {
					// Corrupt compressed data: find the next member.
					s.skipToMember()
					if errors.Is(err, io.ErrUnexpectedEOF) {
						return nil, s.recErr(s.memberOff, fmt.Errorf("%w: %s cut short", errTruncated, s.memberName()))
					}
					return nil, s.recErr(s.memberOff, fmt.Errorf("bad %s data: %w", strings.Fields(s.memberName())[0], err))
				}
				if report {
					return nil, s.recErr(s.memberOff, fmt.Errorf("%d bytes of garbage at end of %s", skipped, s.memberName()))
				}
				continue
			}
			s.done = true
			if err != io.EOF {
				return nil, fmt.Errorf("timemap: %s: offset %d: %w", s.path, s.filePos(), err)
			}
			if report {
				return nil, s.recErr(recOff, garbage(fmt.Sprintf("%d bytes of garbage at end of file", skipped)))
			}
			return nil, io.EOF
		}
		if report {
			// Reported once; the record found is read by the next call.
			if s.gz {
				return nil, s.recErr(s.memberOff, fmt.Errorf("%d bytes of garbage before the record at member offset %d", skipped, inner+skipped))
			}
			return nil, s.recErr(recOff, garbage(fmt.Sprintf("%d bytes of garbage before the record at offset %d (the Content-Length of the record before may be short)", skipped, recOff+skipped)))
		}
		if s.gz {
			inner += skipped
		} else {
			recOff += skipped
		}
		return s.readOne(recOff, inner)
	}
}

// overrun checks, in a plain file, that the record [start, end) ends where
// the next one starts. When something other than line ends and "WARC/"
// follows and a record header starts inside the span (the declared length
// swallowed the next record), it returns that header's offset; else -1.
// Garbage after a record that swallowed nothing is left to next.
func (s *warcSource) overrun(start, end int64) int64 {
	p, _ := s.dbr.Peek(16)
	p = bytes.TrimLeft(p, "\r\n")
	if len(p) == 0 || bytes.HasPrefix(p, []byte("WARC/")) {
		return -1
	}
	const maxSpan = 64 << 20
	if end-start > maxSpan {
		return -1
	}
	span := make([]byte, end-start)
	if _, err := s.f.ReadAt(span, start); err != nil {
		return -1
	}
	for i := 1; ; {
		j := bytes.Index(span[i:], []byte("\nWARC/"))
		if j < 0 {
			return -1
		}
		k := i + j + 6 // the digit after "\nWARC/"
		if k < len(span) && span[k] >= '0' && span[k] <= '9' {
			return start + int64(i+j+1)
		}
		i += j + 1
	}
}

// memberHasMore reports whether the current gzip member holds more than
// white space after the record just read. When it does not, the member has
// been read to its end (trailer included).
func (s *warcSource) memberHasMore() bool {
	for {
		b, err := s.dbr.Peek(1)
		if err != nil {
			if err != io.EOF && s.trailerErr == nil {
				// The member's data decompressed whole but its trailer
				// fails (CRC, length): its records stand as read, and the
				// next call says so.
				s.trailerErr = s.recErr(s.memberOff, fmt.Errorf("%s fails its check (%w): its records were read as they decompress, and may be damaged", s.memberName(), err))
			}
			return false
		}
		if b[0] == '\r' || b[0] == '\n' {
			_, _ = s.dbr.Discard(1)
			continue
		}
		return true
	}
}

// resync positions the reader after a bad record, always past its first
// byte: in a gzip file, on the next member (or, inside a member holding
// several records whose data is sound, past the record start, from where
// next scans for the next "WARC/" line); in a plain file, on the next "WARC/"
// after recOff. streamErr says the gzip data itself failed.
func (s *warcSource) resync(recOff, inner int64, streamErr bool) {
	s.resynced = true
	if s.gz {
		if s.memberRecs > 0 && !streamErr {
			if s.memberPos() <= inner {
				_, _ = s.dbr.Discard(1)
			}
			return
		}
		s.inMember = false
		if _, err := io.Copy(io.Discard, s.dbr); err != nil {
			s.skipToMember()
		}
		return
	}
	if _, err := s.f.Seek(recOff+1, io.SeekStart); err != nil {
		s.done = true
		return
	}
	s.base = recOff + 1
	s.cnt = countingReader{r: s.f}
	s.br.Reset(&s.cnt)
}
