package timemap

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"sync"

	"github.com/klauspost/compress/gzip"
)

// Payloads reads captures' payloads from local WARC and ARC files by their
// locations, for many captures and many goroutines: files stay open (up to a
// bound), and the common record, a gzip member of known length holding one
// WARC record, is read with exactly one read of its compressed bytes into a
// reused buffer and inflated once with a reused decompressor. Anything else
// (ARC files, uncompressed WARCs, records inside a larger gzip member, a
// record the quick path cannot read) goes through ReadResponse. It is safe for
// concurrent use; Close closes the files.
type Payloads struct {
	// MaxBodyBytes caps the body returned (0: DefaultMaxBodyBytes).
	MaxBodyBytes int64

	mu      sync.Mutex
	maxOpen int // 0: maxOpenFiles
	files   map[string]*payloadFile
	order   []string // open files, oldest first
	free    chan *inflater
}

// inflater is what one quick read needs: the member's compressed bytes, a
// gzip reader and the buffered readers over it. Payloads keeps a few in a
// free list (a sync.Pool is emptied at every collection, and a new gzip
// reader costs a 32 KiB window).
type inflater struct {
	buf []byte
	zr  *gzip.Reader
	rd  *bufio.Reader // the decompressed member
	blk *bufio.Reader // the record block
}

// maxKeptInflaters bounds the free list; maxKeptMember is the largest
// compressed buffer an inflater keeps when it goes back to the list.
const (
	maxKeptInflaters = 16
	maxKeptMember    = 4 << 20
)

func (p *Payloads) getInflater() *inflater {
	select {
	case in := <-p.free:
		return in
	default:
		return &inflater{}
	}
}

func (p *Payloads) putInflater(in *inflater) {
	if cap(in.buf) > maxKeptMember {
		in.buf = nil
	}
	select {
	case p.free <- in:
	default:
	}
}

// maxOpenFiles bounds the files Payloads keeps open.
const maxOpenFiles = 64

type payloadFile struct {
	f      *os.File
	format Format
	gz     bool
	err    error
	users  int  // reads under way, guarded by Payloads.mu
	closed bool // dropped from the table: the last user closes f
}

// NewPayloads returns a payload reader with no file open yet.
func NewPayloads() *Payloads {
	return &Payloads{files: map[string]*payloadFile{}, free: make(chan *inflater, maxKeptInflaters)}
}

// Close closes every open file.
func (p *Payloads) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, pf := range p.files {
		pf.closed = true
		if pf.users == 0 && pf.f != nil {
			pf.f.Close()
		}
	}
	p.files, p.order = map[string]*payloadFile{}, nil
	return nil
}

// acquire returns the open file of path with its sniffed format; release
// it when done.
func (p *Payloads) acquire(path string) *payloadFile {
	p.mu.Lock()
	defer p.mu.Unlock()
	if pf, ok := p.files[path]; ok {
		pf.users++
		return pf
	}
	pf := &payloadFile{}
	f, err := os.Open(path)
	if err == nil {
		pf.f = f
		var comp compression
		pf.format, comp, err = sniff(f, path)
		pf.gz = comp == gzipped
	}
	pf.err = err
	if len(p.order) >= cmp.Or(p.maxOpen, maxOpenFiles) {
		old := p.files[p.order[0]]
		delete(p.files, p.order[0])
		p.order = p.order[1:]
		old.closed = true
		if old.users == 0 && old.f != nil {
			old.f.Close()
		}
	}
	pf.users = 1
	p.files[path] = pf
	p.order = append(p.order, path)
	return pf
}

func (p *Payloads) release(pf *payloadFile) {
	p.mu.Lock()
	defer p.mu.Unlock()
	pf.users--
	if pf.closed && pf.users == 0 && pf.f != nil {
		pf.f.Close()
	}
}

func (p *Payloads) maxBody() int64 {
	if p.MaxBodyBytes > 0 {
		return p.MaxBodyBytes
	}
	return DefaultMaxBodyBytes
}

// Read returns the HTTP header and raw body (capped) of c's payload. It has
// the shape of a detection payload reader.
func (p *Payloads) Read(_ context.Context, c Capture) (http.Header, []byte, error) {
	loc := c.Payload
	pf := p.acquire(loc.File)
	if pf.err == nil && pf.format == FormatWARC && pf.gz && loc.Length > 0 && loc.MemberOffset == 0 && loc.Length <= 64<<20 {
		h, body, ok := p.quick(pf.f, loc)
		p.release(pf)
		if ok {
			return h, body, nil
		}
	} else {
		p.release(pf)
	}
	r, err := readResponse(loc, ReadOptions{MaxBodyBytes: p.maxBody()})
	if err != nil {
		return nil, nil, err
	}
	return r.Header, r.Body, nil
}

// quick reads a one-record gzip member of a WARC file: ok is false when the
// record is not a plain WARC response or request with an HTTP head (the
// caller then takes the general path, which reports what is wrong).
func (p *Payloads) quick(f *os.File, loc Location) (http.Header, []byte, bool) {
	in := p.getInflater()
	defer p.putInflater(in)
	if int64(cap(in.buf)) < loc.Length {
		in.buf = make([]byte, loc.Length)
	}
	buf := in.buf[:loc.Length]
	if _, err := f.ReadAt(buf, loc.Offset); err != nil {
		return nil, nil, false
	}
	br := bytes.NewReader(buf)
	if in.zr == nil {
		var err error
		if in.zr, err = gzip.NewReader(br); err != nil {
			in.zr = nil
			return nil, nil, false
		}
	} else if err := in.zr.Reset(br); err != nil {
		return nil, nil, false
	}
	// Multistream: buf is the record's members, which may be more than one
	// when the record goes on into the next (see warcSource.continueMember).
	if in.rd == nil {
		in.rd = bufio.NewReaderSize(in.zr, 32<<10)
	} else {
		in.rd.Reset(in.zr)
	}
	rd := in.rd
	// WARC header: version line, fields, blank line.
	line, err := rd.ReadSlice('\n')
	if err != nil || !bytes.HasPrefix(line, []byte("WARC/")) {
		return nil, nil, false
	}
	length := int64(-1)
	for n := 0; ; n++ {
		line, err = rd.ReadSlice('\n')
		if err != nil || n > 200 {
			return nil, nil, false
		}
		line = bytes.TrimRight(line, "\r\n")
		if len(line) == 0 {
			break
		}
		k, v, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			return nil, nil, false
		}
		k = bytes.TrimSpace(k)
		v = bytes.TrimSpace(v)
		switch {
		case bytes.EqualFold(k, []byte("WARC-Type")):
			if !bytes.EqualFold(v, []byte("response")) {
				return nil, nil, false
			}
		case bytes.EqualFold(k, []byte("Content-Length")):
			if length, err = strconv.ParseInt(string(v), 10, 64); err != nil || length < 0 {
				return nil, nil, false
			}
		case bytes.EqualFold(k, []byte("WARC-Segment-Number")), bytes.EqualFold(k, []byte("WARC-Truncated")):
			return nil, nil, false
		}
	}
	if length < 0 {
		return nil, nil, false
	}
	if in.blk == nil {
		in.blk = bufio.NewReaderSize(io.LimitReader(rd, length), 4<<10)
	} else {
		in.blk.Reset(io.LimitReader(rd, length))
	}
	block := in.blk
	head, err := parseHTTPHead(block)
	if err != nil {
		return nil, nil, false
	}
	var body bytes.Buffer
	body.Grow(int(min(length, p.maxBody())) + bytes.MinRead)
	if _, err := body.ReadFrom(io.LimitReader(block, p.maxBody())); err != nil {
		return nil, nil, false
	}
	return head.Header, body.Bytes(), true
}

// String describes the reader for errors.
func (p *Payloads) String() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return fmt.Sprintf("payload reader (%d files open)", len(p.files))
}
