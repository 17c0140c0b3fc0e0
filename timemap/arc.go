package timemap

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/klauspost/compress/gzip"
)

// ARC files (the Internet Archive's format before WARC) are a version block
// ("filedesc://name ip date mime length" and its body) followed by URL
// records: a header line "url ip date mime length" (version 1) or
// "url ip date mime status checksum location offset filename length"
// (version 2), then length bytes (for HTTP URLs, the HTTP response), then a
// newline. gowarc has no ARC reader, so this is a small one.
//
// A gzipped ARC file is read one gzip member at a time, each member held in
// memory (writers put one record per member; a record a writer split across
// members of a fixed size is read on into the next ones, which then count as
// one member); a plain ARC file is held in
// memory whole. Declared lengths are checked against where the next header
// line is: a record whose length runs into the next record, or past the end
// of the file, is reported as a RecordError and skipped.

// arcHeader is a parsed ARC header line.
type arcHeader struct {
	url    string
	date   time.Time
	mime   string
	length int64
}

// parseARCHeader parses an ARC header line (without line end). A line of
// other than 10 fields is read as version 1 with the URL all fields but the
// last four, as peer readers do (crawlers wrote URLs holding spaces); the
// spaces are kept as %20, since a URI holds none and index lines are split
// on them. Of a date longer than 14 digits the first 14 are taken.
func parseARCHeader(line string) (arcHeader, error) {
	f := strings.Fields(line)
	if len(f) < 5 {
		return arcHeader{}, fmt.Errorf("ARC header line has %d fields, want 5 or 10", len(f))
	}
	if len(f) != 10 {
		f = append([]string{strings.Join(f[:len(f)-4], "%20")}, f[len(f)-4:]...)
	}
	if !strings.Contains(f[0], ":") {
		return arcHeader{}, fmt.Errorf("ARC header line does not start with a URL")
	}
	h := arcHeader{url: f[0], mime: f[3]}
	date := f[2]
	if len(date) > 14 && allDigits(date) {
		date = date[:14]
	}
	if len(date) != 14 {
		return h, fmt.Errorf("bad ARC date %q", f[2])
	}
	t, err := time.Parse("20060102150405", date)
	if err != nil {
		return h, fmt.Errorf("bad ARC date %q", f[2])
	}
	h.date = t
	n, err := strconv.ParseInt(f[len(f)-1], 10, 64)
	if err != nil || n < 0 {
		return h, fmt.Errorf("bad ARC length %q", f[len(f)-1])
	}
	h.length = n
	return h, nil
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// arcItem is one parsed record or one error of a chunk.
type arcItem struct {
	start, end int // in the chunk: header line start, end of body
	hdr        arcHeader
	err        error
}

// parseARCChunk splits a chunk (a gzip member, or a whole plain file) into
// records and errors.
func parseARCChunk(buf []byte) []arcItem {
	var items []arcItem
	pos := skipSpace(buf, 0)
	for pos < len(buf) {
		line, lineEnd := lineAt(buf, pos)
		hdr, err := parseARCHeader(line)
		if err != nil {
			items = append(items, arcItem{start: pos, err: fmt.Errorf("%v in %q", err, clip(line))})
			pos = nextLine(buf, lineEnd, isCandidateLine)
			continue
		}
		bodyStart := lineEnd
		bodyEnd := bodyStart + int(hdr.length)
		if bodyEnd <= len(buf) && followsRecord(buf, bodyEnd) {
			items = append(items, arcItem{start: pos, end: bodyEnd, hdr: hdr})
			pos = skipSpace(buf, bodyEnd)
			continue
		}
		// The declared length does not land on a record boundary.
		limit := min(bodyEnd, len(buf))
		if q := nextLine(buf[:limit], bodyStart, isHeaderLine); q < limit {
			items = append(items, arcItem{start: pos, err: fmt.Errorf("declared length %d runs into the next record at chunk offset %d", hdr.length, q)})
			pos = q
			continue
		}
		if bodyEnd > len(buf) {
			// Cut short: what is there is kept (see arcSource.next),
			// unless the chunk is joined with the next.
			items = append(items, arcItem{start: pos, end: len(buf), hdr: hdr,
				err: fmt.Errorf("%w: declared length %d, %d bytes left", errTruncated, hdr.length, len(buf)-bodyStart)})
			pos = len(buf)
			continue
		}
		// Garbage follows the body: keep the record, resync after it and
		// say what was skipped.
		items = append(items, arcItem{start: pos, end: bodyEnd, hdr: hdr})
		pos = nextLine(buf, bodyEnd, isCandidateLine)
		if from := skipSpace(buf, bodyEnd); from < pos {
			items = append(items, arcItem{start: from, err: fmt.Errorf("%d bytes skipped after the record at chunk offset %d, up to the next header line", pos-from, items[len(items)-1].start)})
		}
	}
	return items
}

func clip(s string) string {
	if len(s) > 120 {
		return s[:120] + "..."
	}
	return s
}

func skipSpace(buf []byte, pos int) int {
	for pos < len(buf) && (buf[pos] == '\n' || buf[pos] == '\r' || buf[pos] == ' ' || buf[pos] == '\t' || buf[pos] == 0) {
		pos++
	}
	return pos
}

// lineAt returns the line at pos without its line end, and the offset after it.
func lineAt(buf []byte, pos int) (string, int) {
	i := bytes.IndexByte(buf[pos:], '\n')
	if i < 0 {
		return strings.TrimRight(string(buf[pos:]), "\r"), len(buf)
	}
	return strings.TrimRight(string(buf[pos:pos+i]), "\r"), pos + i + 1
}

// followsRecord reports whether a record may end at pos: only white space
// up to the end, or a valid header line after a newline.
func followsRecord(buf []byte, pos int) bool {
	p := skipSpace(buf, pos)
	if p >= len(buf) {
		return true
	}
	if p == pos && pos > 0 && buf[pos-1] != '\n' {
		return false
	}
	line, _ := lineAt(buf, p)
	return isHeaderLine(line)
}

// nextLine returns the offset of the first line at or after pos (at a line
// start) that match accepts, or len(buf).
func nextLine(buf []byte, pos int, match func(line string) bool) int {
	for pos < len(buf) {
		if pos == 0 || buf[pos-1] == '\n' {
			if line, _ := lineAt(buf, pos); match(line) {
				return pos
			}
		}
		i := bytes.IndexByte(buf[pos:], '\n')
		if i < 0 {
			return len(buf)
		}
		pos += i + 1
	}
	return len(buf)
}

// isHeaderLine reports whether line parses as an ARC header line.
func isHeaderLine(line string) bool {
	_, err := parseARCHeader(line)
	return err == nil
}

// isCandidateLine reports whether line looks like an ARC header line, valid
// or not: a URL followed by 4 or more fields.
func isCandidateLine(line string) bool {
	f := strings.Fields(line)
	return len(f) >= 5 && (strings.Contains(f[0], "://") || strings.HasPrefix(f[0], "dns:"))
}

// arcSource reads an ARC file chunk by chunk.
type arcSource struct {
	path  string
	opts  ReadOptions
	f     *os.File
	cnt   countingReader
	br    *bufio.Reader
	gz    bool
	zr    *gzip.Reader
	first bool
	done  bool

	chunk    []byte
	chunkOff int64 // file offset of the chunk (member start, or 0)
	chunkLen int64 // compressed length of the member
	items    []arcItem
	multi    bool
}

func newARCSource(path string, f *os.File, gz bool, opts ReadOptions) *arcSource {
	s := &arcSource{path: path, opts: opts, f: f, gz: gz, first: true}
	s.cnt.r = f
	s.br = bufio.NewReaderSize(&s.cnt, 64<<10)
	return s
}

func (s *arcSource) close() error { return s.f.Close() }

func (s *arcSource) filePos() int64 { return s.cnt.n - int64(s.br.Buffered()) }

// load reads the next chunk; a returned error other than io.EOF is a
// RecordError for a damaged member, after which reading goes on.
func (s *arcSource) load() error {
	if !s.gz {
		if !s.first {
			return io.EOF
		}
		s.first = false
		b, err := io.ReadAll(s.br)
		if err != nil {
			return fmt.Errorf("timemap: %s: %w", s.path, err)
		}
		s.chunk, s.chunkOff, s.chunkLen = b, 0, 0
		s.items = parseARCChunk(b)
		s.multi = true
		return nil
	}
	off := s.filePos()
	magic, err := s.br.Peek(3)
	if len(magic) < 3 || err != nil {
		if len(bytes.TrimSpace(magic)) == 0 {
			return io.EOF
		}
	}
	if len(magic) < 3 || magic[0] != 0x1f || magic[1] != 0x8b || magic[2] != 8 {
		n, _ := skipToGzipMagic(s.br)
		return &RecordError{File: s.path, Offset: off, Err: fmt.Errorf("%d bytes of garbage %s", n, garbageWhere(off))}
	}
	if err := startGzipMember(&s.zr, s.br); err != nil {
		return &RecordError{File: s.path, Offset: off, Err: err}
	}
	b, rerr := io.ReadAll(s.zr)
	items := parseARCChunk(b)
	// A writer that cut members at fixed sizes left the last record of
	// this one to go on in the next: read on, as a whole-stream reader
	// does, while the next member does not start with a record.
	for rerr == nil && arcCutShort(b, items) && len(b) < maxARCJoin && s.nextMemberContinues() {
		// Read on as far as the record cut short needs (its declared
		// length, when its header line is whole), then parse again from
		// it: what comes before it stays as parsed.
		last := items[len(items)-1].start
		need := len(b) + 1
		if line, lineEnd := lineAt(b, last); lineEnd < len(b) || len(b) > 0 && b[len(b)-1] == '\n' {
			if h, err := parseARCHeader(line); err == nil {
				need = max(need, lineEnd+int(min(h.length, maxARCJoin))+1)
			}
		}
		for len(b) < need && rerr == nil {
			if err := startGzipMember(&s.zr, s.br); err != nil {
				rerr = err
				break
			}
			more, err := io.ReadAll(s.zr)
			b, rerr = append(b, more...), err
			if len(b) < need && (rerr != nil || !s.nextMemberContinues()) {
				break
			}
		}
		items = items[:len(items)-1]
		for _, it := range parseARCChunk(b[last:]) {
			it.start += last
			if it.end > 0 {
				it.end += last
			}
			items = append(items, it)
		}
	}
	s.chunk, s.chunkOff, s.chunkLen = b, off, s.filePos()-off
	s.items = items
	s.multi = len(s.items) > 1
	if rerr != nil {
		_, _ = skipToGzipMagic(s.br)
		s.items = append(s.items, arcItem{start: len(b), err: fmt.Errorf("bad gzip data: %w", rerr)})
	}
	return nil
}

// maxARCJoin bounds the members read on into for one record.
const maxARCJoin = 256 << 20

// arcCutShort reports whether a chunk's last record is cut short: its
// declared length runs past the chunk, or the chunk ends inside a header
// line.
func arcCutShort(b []byte, items []arcItem) bool {
	if len(items) == 0 {
		return false
	}
	last := items[len(items)-1]
	if last.err == nil {
		return false
	}
	return errors.Is(last.err, errTruncated) || len(b) > 0 && b[len(b)-1] != '\n' && bytes.IndexByte(b[last.start:], '\n') < 0
}

// nextMemberContinues reports whether a gzip member follows that does not
// start with an ARC header line.
func (s *arcSource) nextMemberContinues() bool {
	p, _ := s.br.Peek(min(s.br.Size(), 64<<10))
	if len(p) < 3 || p[0] != 0x1f || p[1] != 0x8b || p[2] != 8 {
		return false
	}
	zr, err := gzip.NewReader(bytes.NewReader(p))
	if err != nil {
		return false
	}
	head := make([]byte, 4096)
	m, _ := io.ReadFull(zr, head)
	if m == 0 {
		return false
	}
	line, _ := lineAt(head[:m], skipSpace(head[:m], 0))
	_, herr := parseARCHeader(line)
	return herr != nil
}

func (s *arcSource) next() (*Record, error) {
	for len(s.items) == 0 {
		if s.done {
			return nil, io.EOF
		}
		if err := s.load(); err != nil {
			if err == io.EOF {
				s.done = true
				s.chunk = nil
			}
			return nil, err
		}
	}
	it := s.items[0]
	s.items = s.items[1:]
	loc := s.location(it)
	if it.err != nil && it.end > it.start && errors.Is(it.err, errTruncated) {
		// A record cut short by the end of the file or member is kept with
		// the bytes there are, as other readers (warcio) keep it; the next
		// call reports the cut at the record's offset.
		s.items = append([]arcItem{{start: it.start, err: fmt.Errorf("%w: kept with the bytes there are", it.err)}}, s.items...)
		it.err = nil
		return s.record(it, loc), nil
	}
	if it.err != nil {
		err := it.err
		if s.gz && it.start > 0 {
			err = fmt.Errorf("at offset %d in the gzip member: %w", it.start, err)
		}
		return nil, &RecordError{File: s.path, Offset: loc.Offset, Err: err}
	}
	return s.record(it, loc), nil
}

func (s *arcSource) location(it arcItem) Location {
	if !s.gz {
		end := it.end
		if end < len(s.chunk) && s.chunk[end] == '\n' {
			end++
		}
		return Location{File: s.path, Offset: int64(it.start), Length: int64(end - it.start)}
	}
	if !s.multi && it.start == skipSpace(s.chunk, 0) {
		return Location{File: s.path, Offset: s.chunkOff, Length: s.chunkLen}
	}
	return Location{File: s.path, Offset: s.chunkOff, MemberOffset: int64(it.start)}
}

func (s *arcSource) record(it arcItem, loc Location) *Record {
	_, bodyStart := lineAt(s.chunk, it.start)
	block := s.chunk[bodyStart:it.end]
	return arcRecord(it.hdr, block, loc, s.opts)
}

// arcRecord turns an ARC header and its block into a Record.
func arcRecord(h arcHeader, block []byte, loc Location, opts ReadOptions) *Record {
	rec := &Record{
		Format:        FormatARC,
		Type:          "response",
		TargetURI:     h.url,
		Date:          h.date,
		ContentType:   h.mime,
		ContentLength: h.length,
		Loc:           loc,
	}
	if strings.HasPrefix(h.url, "filedesc:") {
		rec.Type = "warcinfo"
	}
	payload := block
	if rec.Type == "response" && isHTTPURI(h.url) {
		cr := &countingReader{r: bytes.NewReader(block)}
		br := bufio.NewReaderSize(cr, 16<<10)
		if hd, err := parseHTTPHead(br); err == nil {
			rec.HTTP = hd
			payload = block[cr.n-int64(br.Buffered()):]
		}
	}
	rec.PayloadDigest, _ = sha1Base32(bytes.NewReader(payload))
	rec.Body = limitedReader(bytes.NewReader(payload), opts.maxBody())
	return rec
}

// readARCAt reads one ARC record from r (positioned on its header line).
func readARCAt(r *bufio.Reader, loc Location, opts ReadOptions) (*Record, error) {
	var line string
	for {
		l, err := r.ReadString('\n')
		if t := strings.TrimSpace(l); t != "" {
			line = t
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%w: no ARC header line", errTruncated)
		}
	}
	h, err := parseARCHeader(line)
	if err != nil {
		return nil, err
	}
	max := opts.maxBody()
	n := h.length
	if max > 0 && n > max+maxHeadBytes {
		n = max + maxHeadBytes
	}
	block := make([]byte, n)
	if m, err := io.ReadFull(r, block); err == io.ErrUnexpectedEOF {
		block = block[:m] // cut short by the end of the file: what is there, as the index read it
	} else if err != nil {
		return nil, fmt.Errorf("%w: %v", errTruncated, err)
	}
	return arcRecord(h, block, loc, opts), nil
}
