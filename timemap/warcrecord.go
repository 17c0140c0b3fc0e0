package timemap

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/nlnwa/gowarc/v2"
)

// One WARC record, as warcSource.readOne reads it: its header, its block,
// its fields, where it lies and its body.

// maxWARCHeader bounds a WARC record header: a longer one is reported and
// skipped.
const maxWARCHeader = 64 << 10

// blockReader hands gowarc at most n bytes of a record block from r. It ends
// with io.EOF at the first error of r and keeps that error: gowarc v2.0.1's
// lenient header parser loops forever, growing its list of warnings, on a
// reader that keeps returning an error other than io.EOF (a gzip member cut
// short does).
type blockReader struct {
	r   io.Reader
	n   int64 // bytes still to hand over
	err error // first error of r other than io.EOF
	eof bool  // r ended (or failed) before n bytes
}

func (b *blockReader) Read(p []byte) (int, error) {
	if b.n <= 0 || b.eof {
		return 0, io.EOF
	}
	if int64(len(p)) > b.n {
		p = p[:b.n]
	}
	n, err := b.r.Read(p)
	b.n -= int64(n)
	if err != nil {
		b.eof = true
		if err != io.EOF {
			b.err = err
		}
		return n, io.EOF
	}
	return n, nil
}

// recordStart is where the record readOne reads starts: its file offset
// (the member's, in a gzip file), its offset in the decompressed member, and
// the member's state before it, from which readOne locates the record and
// reports its errors.
type recordStart struct {
	off        int64 // file offset where the record (plain) or scan (gzip) started
	inner      int64 // offset in the decompressed member (gzip)
	errOff     int64 // the offset errors name: off, or the member's
	memberOff  int64
	recsBefore int // records read from the member before this one
}

// warcBlock is a record block as readBlock read it: whole into s.blk
// (direct) or through gowarc (wr), at most spool of its declared bytes.
type warcBlock struct {
	declared, spool int64
	direct          bool
	data            io.Reader         // direct: the block's bytes
	wr              gowarc.WarcRecord // not direct: the record gowarc read
}

// readOne parses the record at the current position, as archive/tar's
// Reader.next does: readHeader checks the header itself (complete, at most
// maxWARCHeader bytes, a Content-Length that is a number >= 0), readBlock
// hands gowarc exactly that header and at most the declared block, capped at
// the spool limit, so that no damage in the file can make gowarc read on
// without end (the rest of a block over the cap is skipped), and
// warcFields, locate and openBody make the Record of what they read.
func (s *warcSource) readOne(recOff, inner int64) (*Record, error) {
	at := recordStart{off: recOff, inner: inner, errOff: recOff, memberOff: s.memberOff, recsBefore: s.memberRecs}
	if s.gz {
		at.errOff = s.memberOff
	}
	defer func() { s.span = false }()
	raw, header, declared, err := s.readHeader(at)
	if err != nil {
		return nil, err
	}
	b, err := s.readBlock(at, header, declared)
	if err != nil {
		return nil, err
	}
	rec := warcFields(raw, header, b)
	if err := s.locate(rec, at); err != nil {
		return nil, err
	}
	s.openBody(rec, b)
	return rec, nil
}

// failRecord gives up on the record at at: it resynchronises the reader
// after it (streamErr says the gzip data itself failed) and returns err
// located at the record.
func (s *warcSource) failRecord(at recordStart, err error, streamErr bool) (*Record, error) {
	s.span = false
	s.closeCur()
	s.resync(at.off, at.inner, streamErr)
	return nil, s.recErr(at.errOff, err)
}

// readHeader reads the record header at the current position and returns
// it parsed, as written (up to its blank line; CR CR LF line ends made CR
// LF) and its Content-Length. A gzip member that ends inside the header is
// continued into the next one.
func (s *warcSource) readHeader(at recordStart) (raw http.Header, header []byte, declared int64, err error) {
	limit := min(s.dbr.Size(), maxWARCHeader)
	peek, perr := s.dbr.Peek(limit)
	raw, hlen, hok := rawWARCHeader(peek)
	if !hok && perr == io.EOF && s.gz {
		// The member ends inside the header: it may go on in the next.
		// Members are continued into one byte at a time, only while the
		// header is incomplete, so that reading and ReadResponse continue
		// into the same members.
		s.need = func() int64 { return 2 }
		for !hok && len(peek) < limit {
			s.span = true
			more, err := s.dbr.Peek(len(peek) + 1)
			s.span = false
			if len(more) <= len(peek) {
				perr = err
				break
			}
			peek, perr = s.dbr.Peek(min(s.dbr.Buffered(), limit))
			raw, hlen, hok = rawWARCHeader(peek)
		}
	}
	if j := embeddedWARCLine(peek[:hlen]); j > 0 {
		// The header is cut short: the next record starts inside it.
		if s.gz {
			_, _ = s.dbr.Discard(j)
		} else {
			s.resync(at.off, at.inner, false)
		}
		return nil, nil, 0, s.recErr(at.errOff, fmt.Errorf("%w: record header cut short by the next record %d bytes further", errTruncated, j))
	}
	if !hok {
		if perr != nil {
			_, err = s.failRecord(at, fmt.Errorf("%w: the data ends inside the record header, after %d bytes", errTruncated, len(peek)), perr != io.EOF)
		} else {
			_, err = s.failRecord(at, fmt.Errorf("record header longer than %d bytes", maxWARCHeader), false)
		}
		return nil, nil, 0, err
	}
	declared, derr := atoi64(raw.Get("Content-Length"))
	if derr != nil || declared < 0 {
		_, err = s.failRecord(at, fmt.Errorf("bad Content-Length %q", raw.Get("Content-Length")), false)
		return nil, nil, 0, err
	}
	header = bytes.Clone(peek[:hlen])
	_, _ = s.dbr.Discard(hlen)
	if bytes.Contains(header, []byte("\r\r\n")) {
		// gowarc rejects header lines ending in CR CR LF.
		header = bytes.ReplaceAll(header, []byte("\r\r\n"), []byte("\r\n"))
	}
	return raw, header, declared, nil
}

// readBlock reads the block of declared bytes that follows header: at most
// the spool cap of it, directly or through gowarc (which is handed header,
// that block and the end-of-record marker), skipping the rest; then the
// end-of-record marker (leniently: any CR and LF).
func (s *warcSource) readBlock(at recordStart, header []byte, declared int64) (warcBlock, error) {
	b := warcBlock{declared: declared, spool: declared}
	if c := s.opts.spoolCap(); c > 0 && b.spool > c {
		b.spool = c
	}
	b.direct = s.direct(b.spool)
	blkr := &blockReader{r: s.dbr, n: b.spool}
	s.span, s.need = s.gz, func() int64 { return blkr.n }
	var err error
	if b.direct {
		if int64(cap(s.blk)) < b.spool {
			s.blk = make([]byte, b.spool)
		}
		n, _ := io.ReadFull(blkr, s.blk[:b.spool])
		b.data = bytes.NewReader(s.blk[:n])
	} else {
		if s.gwr == nil {
			s.gwr = bufio.NewReaderSize(nil, 32<<10)
		}
		s.gwr.Reset(io.MultiReader(bytes.NewReader(header), blkr, strings.NewReader("\r\n\r\n")))
		b.wr, _, _, err = s.u.Unmarshal(s.gwr)
		if b.wr != nil {
			s.cur = b.wr
		}
	}
	switch {
	case blkr.err != nil:
		_, err = s.failRecord(at, fmt.Errorf("%w: %v", errTruncated, blkr.err), true)
		return b, err
	case blkr.n > 0:
		_, err = s.failRecord(at, fmt.Errorf("%w: Content-Length %d, block has %d bytes", errTruncated, declared, b.spool-blkr.n), false)
		return b, err
	case err != nil:
		_, err = s.failRecord(at, err, false)
		return b, err
	}
	if rest := declared - b.spool; rest > 0 {
		// Skip the part of the block past the spool cap.
		s.need = func() int64 { return rest }
		if n, err := io.CopyN(io.Discard, s.dbr, rest); err != nil {
			_, err = s.failRecord(at, fmt.Errorf("%w: Content-Length %d, block has %d bytes", errTruncated, declared, b.spool+n), err != io.EOF)
			return b, err
		}
	}
	s.span = false
	for {
		p, err := s.dbr.Peek(1)
		if err != nil || (p[0] != '\r' && p[0] != '\n') {
			break
		}
		_, _ = s.dbr.Discard(1)
	}
	return b, nil
}

// warcFields makes the Record of the header fields: those of raw, the
// header as written, then those gowarc read (of a record read through it).
func warcFields(raw http.Header, header []byte, b warcBlock) *Record {
	rec := &Record{Format: FormatWARC, Fields: raw, ContentLength: b.declared}
	get := raw.Get
	if b.direct {
		rec.Version = warcVersion(header)
	} else {
		if v := b.wr.Version(); v != nil {
			rec.Version = strings.TrimPrefix(v.String(), "WARC/")
		}
		hdr := b.wr.WarcHeader()
		get = func(k string) string {
			if v := raw.Get(k); v != "" {
				return v
			}
			return hdr.Get(k)
		}
	}
	rec.Type = strings.ToLower(get(gowarc.WarcType))
	rec.TargetURI = CleanURI(get(gowarc.WarcTargetURI))
	rec.RecordID = get(gowarc.WarcRecordID)
	// As recorded: gowarc adds a computed one to every record lacking it,
	// which only response and resource records get in openBody.
	rec.PayloadDigest = raw.Get(gowarc.WarcPayloadDigest)
	rec.RefersTo = get(gowarc.WarcRefersTo)
	rec.RefersToTargetURI = CleanURI(get(gowarc.WarcRefersToTargetURI))
	if d := get(gowarc.WarcRefersToDate); d != "" {
		rec.RefersToDate, _ = parseWARCDate(d)
	}
	rec.Profile = get(gowarc.WarcProfile)
	rec.ContentType = get(gowarc.ContentType)
	if d := get(gowarc.WarcDate); d != "" {
		if t, err := parseWARCDate(d); err == nil {
			rec.Date = t
		}
	}
	return rec
}

// locate sets rec.Loc, the record just read from at: in a gzip file the
// member's offset, with the offset in the member unless the record is the
// member's only one (then the member's length); in a plain file its offset
// and length, after checking that the declared length did not swallow the
// next record.
func (s *warcSource) locate(rec *Record, at recordStart) error {
	if !s.gz {
		rec.Loc = Location{File: s.path, Offset: at.off, Length: s.filePos() - at.off}
		if q := s.overrun(at.off, s.filePos()); q >= 0 {
			_, err := s.failRecord(at, fmt.Errorf("Content-Length %d runs into the next record at offset %d", rec.ContentLength, q), false)
			return err
		}
		return nil
	}
	s.memberRecs++
	rec.Loc = Location{File: s.path, Offset: at.memberOff}
	more := s.memberHasMore()
	if at.recsBefore == 0 && at.inner == 0 && !more {
		rec.Loc.Length = s.filePos() - at.memberOff
	} else {
		rec.Loc.MemberOffset = at.inner
	}
	if !more {
		s.inMember = false
	}
	return nil
}

// openBody sets rec.Body (and rec.HTTP, the HTTP head of a response or
// revisit record) from the block b, and computes the payload digest a
// response or resource record read whole does not state.
func (s *warcSource) openBody(rec *Record, b warcBlock) {
	rec.Body = bytes.NewReader(nil)
	block := b.data
	var blk gowarc.Block
	if !b.direct {
		if blk = b.wr.Block(); blk == nil {
			return
		}
		var err error
		if block, err = blk.RawBytes(); err != nil {
			return
		}
	}
	s.bcnt = countingReader{r: block}
	if s.body == nil {
		s.body = bufio.NewReaderSize(&s.bcnt, 32<<10)
	} else {
		s.body.Reset(&s.bcnt)
	}
	if (rec.Type == "response" || rec.Type == "revisit") && isHTTPBlock(rec.ContentType, s.body) {
		if h, err := parseHTTPHead(s.body); err == nil {
			rec.HTTP = h
		}
	}
	maxBody := s.opts.maxBody()
	bodyLen := b.declared - (s.bcnt.n - int64(s.body.Buffered()))
	rec.BodyCut = maxBody > 0 && bodyLen > maxBody
	rec.Body = limitedReader(s.body, maxBody)
	if rec.PayloadDigest == "" && b.spool == b.declared && digestable(rec.Type) {
		if blk == nil && rec.HTTP != nil {
			// Read directly: the block is in s.blk, the payload after
			// what the HTTP head took of it.
			payload := s.blk[min(s.bcnt.n-int64(s.body.Buffered()), b.declared):b.declared]
			rec.PayloadDigest, _ = sha1Base32(bytes.NewReader(payload))
		} else if pb, ok := blk.(gowarc.PayloadBlock); ok {
			rec.PayloadDigest = pb.PayloadDigest()
		}
	}
}

// directBlockMax is the largest record block read directly, into a buffer
// reused from record to record; larger blocks go through gowarc, which
// buffers them in TempDir beyond a few megabytes.
const directBlockMax = 1 << 20

// direct reports whether a record block of spool bytes is read directly
// rather than through gowarc.
func (s *warcSource) direct(spool int64) bool { return !s.viaGowarc && spool <= directBlockMax }

// digestable reports whether a record of type typ without a
// WARC-Payload-Digest gets one computed from its payload, the HTTP body.
func digestable(typ string) bool { return typ == "response" || typ == "resource" }

// warcVersion returns the version of the record header h ("1.0" of
// "WARC/1.0").
func warcVersion(h []byte) string {
	line, _, _ := bytes.Cut(h, []byte("\n"))
	return string(bytes.TrimPrefix(bytes.TrimSpace(line), []byte("WARC/")))
}

// isHTTPBlock reports whether the block is an HTTP message: by content type,
// or because it starts with "HTTP".
func isHTTPBlock(ct string, br *bufio.Reader) bool {
	if strings.HasPrefix(strings.ToLower(strings.TrimSpace(ct)), "application/http") {
		return true
	}
	p, _ := br.Peek(4)
	return bytes.EqualFold(p, []byte("HTTP"))
}

// embeddedWARCLine returns the offset of a "WARC/<d>.<d>" version line
// start inside a record header (after its first line; the header line before
// it may be cut short, so no line start is required), or -1.
func embeddedWARCLine(h []byte) int {
	for i := 1; i < len(h); {
		j := bytes.Index(h[i:], []byte("WARC/"))
		if j < 0 {
			return -1
		}
		k := i + j + 5
		rest := h[k:]
		if len(rest) >= 4 && rest[0] >= '0' && rest[0] <= '9' && rest[1] == '.' {
			e := bytes.IndexByte(rest, '\n')
			if e > 0 && e <= 6 {
				return i + j
			}
		}
		i += j + 1
	}
	return -1
}
