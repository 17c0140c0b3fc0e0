package timemap

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/klauspost/compress/gzip"
)

// CDXOptions configure ReadCDX and OpenIndex.
type CDXOptions struct {
	// WARCDir is the directory the index's file names (CDX field g, CDXJ
	// "filename") are resolved against: Location.File = filepath.Join(WARCDir, g).
	// Absolute file names are kept; a relative one that leads out of it
	// ("../x.warc.gz") makes its line an error; "" keeps the names as written.
	WARCDir string
	// Canon selects how URI-Rs become keys (default CanonSURT). Keys are
	// always recomputed from the original URL: an index's own key may be
	// built differently (or not be SURT at all).
	Canon CanonMode
	// OnError receives each skipped line (*CDXError) and notices about files
	// (*CDXError with Notice set). Nil means ignore.
	OnError func(error)
	// AssumeSorted skips the check pass of OpenIndex that reads every index
	// file once to verify it is sorted by canonical key. Use it for large
	// indexes known to be sorted by SURT key with keys as Canonicalize builds
	// them (as written by WriteCDXJ). A key out of order met while reading
	// is then reported to OnError and its TimeMap may come out split.
	AssumeSorted bool
	// MaxInMemory is the number of captures of an unsorted index file, and of
	// distinct payload digests for revisit resolution, kept in memory before
	// a sorted run is spilled to TempDir (default DefaultMaxInMemory).
	MaxInMemory int
	// TempDir is where sorted runs are spilled (default os.TempDir()).
	TempDir string
}

// CDXError reports a line of a CDX or CDXJ index that could not be read
// (reading has skipped it and goes on with the next line), or, with Notice
// set, something worth knowing about a file that is not an error (an
// unsorted file sorted in memory, for instance).
type CDXError struct {
	// File is the name of the index file.
	File string
	// Line is the 1-based line number, 0 when unknown (see Offset).
	Line int
	// Offset is the byte offset of the line in the (uncompressed) file when
	// Line is unknown (lines reached by binary search); -1 when neither is
	// known (a notice about the whole file).
	Offset int64
	// Notice marks an informational message rather than a skipped line.
	Notice bool
	// Err says what is wrong.
	Err error
}

// Error implements error.
func (e *CDXError) Error() string {
	kind := ""
	if e.Notice {
		kind = "notice: "
	}
	switch {
	case e.Line > 0:
		return fmt.Sprintf("timemap: %s:%d: %s%v", e.File, e.Line, kind, e.Err)
	case e.Offset >= 0:
		return fmt.Sprintf("timemap: %s: offset %d: %s%v", e.File, e.Offset, kind, e.Err)
	}
	return fmt.Sprintf("timemap: %s: %s%v", e.File, kind, e.Err)
}

// Unwrap returns the underlying error.
func (e *CDXError) Unwrap() error { return e.Err }

// The standard CDX legends without a header line, by field count.
var (
	cdx11Legend = []byte("NbamskrMSVg")
	cdx9Legend  = []byte("NbamskrVg")
)

// cdxParser parses the lines of one index file: CDX lines (by the file's
// legend, or by field count) and CDXJ lines, sniffed per line.
type cdxParser struct {
	name   string
	opts   *CDXOptions
	legend []byte // field letters of the header line; nil until one is seen
}

// cdxLine is one parsed index line.
type cdxLine struct {
	fileKey string // the key as written in the file
	c       Capture
}

// parseLegend returns the field letters of a CDX header line (" CDX N b a
// ..."), or nil when line is not one.
func parseLegend(line string) []byte {
	f := strings.Fields(line)
	if len(f) < 2 || f[0] != "CDX" {
		return nil
	}
	legend := make([]byte, 0, len(f)-1)
	for _, l := range f[1:] {
		if len(l) != 1 {
			return nil
		}
		legend = append(legend, l[0])
	}
	return legend
}

// parse parses one line. It reports ok false, with a nil error, for lines
// that are not captures: blank lines, headers, comments ('!' lines), request
// and metadata records, non-HTTP URIs.
func (p *cdxParser) parse(line string) (l cdxLine, ok bool, err error) {
	line = strings.TrimRight(line, "\r\n")
	if strings.TrimSpace(line) == "" || line[0] == '!' {
		return l, false, nil
	}
	if legend := parseLegend(line); legend != nil {
		p.legend = legend
		return l, false, nil
	}
	if line[0] == ' ' {
		return l, false, nil
	}
	// CDXJ: "key timestamp {json}".
	if _, rest, ok := strings.Cut(line, " "); ok {
		if _, js, ok := strings.Cut(rest, " "); ok && strings.HasPrefix(js, "{") {
			return p.parseCDXJ(line)
		}
	}
	return p.parseCDX(line)
}

func (p *cdxParser) parseCDXJ(line string) (cdxLine, bool, error) {
	c, err := parseCDXJLine(line, "")
	if err != nil {
		return cdxLine{}, false, err
	}
	if c.Loc.File, err = p.resolveFile(c.Loc.File); err != nil {
		return cdxLine{}, false, err
	}
	fileKey := c.Key
	mime := c.MIME
	if c.Revisit {
		mime = "warc/revisit"
	}
	status := ""
	if c.Status != 0 {
		status = strconv.Itoa(c.Status)
	}
	c.Payload, c.MIME, c.Status, c.Revisit = Location{}, "", 0, false
	return p.finish(fileKey, c, mime, status)
}

func (p *cdxParser) parseCDX(line string) (cdxLine, bool, error) {
	fields := strings.Fields(line)
	legend := p.legend
	if legend == nil {
		switch len(fields) {
		case len(cdx11Legend):
			legend = cdx11Legend
		case len(cdx9Legend):
			legend = cdx9Legend
		default:
			return cdxLine{}, false, fmt.Errorf("%d fields; want 11 or 9 (no CDX header line)", len(fields))
		}
	} else if len(fields) != len(legend) {
		return cdxLine{}, false, fmt.Errorf("%d fields; the CDX header names %d", len(fields), len(legend))
	}
	var (
		c                                 Capture
		fileKey, ts, mime, status, off, g string
		uoff                              string
		length                            string
	)
	for i, letter := range legend {
		v := fields[i]
		if v == "-" {
			v = ""
		}
		switch letter {
		case 'N':
			fileKey = v
		case 'b':
			ts = v
		case 'a':
			c.URIR = v
		case 'm':
			mime = v
		case 's':
			status = v
		case 'k':
			c.Digest = v
		case 'S':
			length = v
		case 'V':
			off = v
		case 'v':
			uoff = v
		case 'g':
			g = v
		}
	}
	if off == "" {
		off = uoff
	}
	if len(ts) > 14 && strings.Trim(ts, "0123456789") == "" {
		ts = ts[:14] // sub-second digits
	}
	t, err := parseTimestamp(ts)
	if err != nil {
		return cdxLine{}, false, err
	}
	c.Time = t
	if length != "" {
		if c.Loc.Length, err = strconv.ParseInt(length, 10, 64); err != nil || c.Loc.Length < 0 {
			return cdxLine{}, false, fmt.Errorf("bad length %q", length)
		}
	}
	if g != "" {
		if off == "" {
			return cdxLine{}, false, fmt.Errorf("file %q without an offset", g)
		}
		if c.Loc.Offset, err = strconv.ParseInt(off, 10, 64); err != nil || c.Loc.Offset < 0 {
			return cdxLine{}, false, fmt.Errorf("bad offset %q", off)
		}
		if c.Loc.File, err = p.resolveFile(g); err != nil {
			return cdxLine{}, false, err
		}
	}
	if fileKey == "" {
		fileKey = fields[0]
	}
	return p.finish(fileKey, c, mime, status)
}

// resolveFile resolves an index's file name against WARCDir; an absolute
// name is kept, and a relative one that leads out of WARCDir ("..") is an
// error: the index reads only the files it names where it names them.
func (p *cdxParser) resolveFile(g string) (string, error) {
	if g == "" || p.opts.WARCDir == "" || filepath.IsAbs(g) {
		return g, nil
	}
	if !filepath.IsLocal(g) {
		return "", fmt.Errorf("file %q is not in --warc-dir %s: not read", g, p.opts.WARCDir)
	}
	return filepath.Join(p.opts.WARCDir, g), nil
}

// finish completes a capture from the fields common to CDX and CDXJ: the
// key recomputed from the original URL, MIME, status, digest label, revisit.
func (p *cdxParser) finish(fileKey string, c Capture, mime, status string) (cdxLine, bool, error) {
	if c.URIR == "" {
		return cdxLine{}, false, errors.New("no original URL")
	}
	if i := strings.IndexByte(c.URIR, ':'); i > 0 && !isHTTPURI(c.URIR) && isScheme(strings.ToLower(c.URIR[:i])) && !looksLikePort(c.URIR[i+1:]) {
		return cdxLine{}, false, nil // dns:, metadata:, ...: not a capture BuildIndex would index
	}
	switch m := mimeType(mime); m {
	case "warc/revisit":
		c.Revisit = true
	case "warc/request", "warc/metadata":
		return cdxLine{}, false, nil
	case "unk", "-":
	default:
		c.MIME = m
	}
	if status != "" && status != "-" {
		n, err := strconv.Atoi(status)
		if err != nil || n < 0 || n > 999 {
			return cdxLine{}, false, fmt.Errorf("bad status %q", status)
		}
		c.Status = n
	}
	if c.Digest != "" && !strings.Contains(c.Digest, ":") && len(c.Digest) == 32 {
		c.Digest = "sha1:" + c.Digest
	}
	c.Key = Canonicalize(c.URIR, p.opts.Canon)
	c.Length = c.Loc.Length
	if !c.Revisit {
		c.Payload = c.Loc
	}
	return cdxLine{fileKey: fileKey, c: c}, true, nil
}

// maybeGunzip returns r decompressed when it starts with the gzip magic.
func maybeGunzip(r io.Reader) (io.Reader, bool, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	head, _ := br.Peek(2)
	if len(head) == 2 && head[0] == 0x1f && head[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, true, err
		}
		return zr, true, nil
	}
	return br, false, nil
}

// errCDXRead marks the errors of readLines that end reading a file (as
// opposed to a bad line).
var errCDXRead = errors.New("read error")

// numberedLine is one parsed line with its line number.
type numberedLine struct {
	n int
	cdxLine
}

// readLines parses the lines of r (plain or gzipped). Bad lines are yielded
// as *CDXError and reading goes on; a read error ends the sequence.
func readLines(r io.Reader, p *cdxParser) iter.Seq2[numberedLine, error] {
	return func(yield func(numberedLine, error) bool) {
		zr, _, err := maybeGunzip(r)
		if err != nil {
			yield(numberedLine{}, &CDXError{File: p.name, Line: 1, Offset: -1, Err: fmt.Errorf("%w: %w", errCDXRead, err)})
			return
		}
		sc := bufio.NewScanner(zr)
		sc.Buffer(make([]byte, 64<<10), 16<<20)
		n := 0
		for sc.Scan() {
			n++
			l, ok, err := p.parse(sc.Text())
			if err != nil {
				if !yield(numberedLine{}, &CDXError{File: p.name, Line: n, Offset: -1, Err: err}) {
					return
				}
				continue
			}
			if ok && !yield(numberedLine{n, l}, nil) {
				return
			}
		}
		if err := sc.Err(); err != nil {
			yield(numberedLine{}, &CDXError{File: p.name, Line: n + 1, Offset: -1, Err: fmt.Errorf("%w: %w", errCDXRead, err)})
		}
	}
}

// ReadCDX reads a CDX or CDXJ index, plain or gzipped (sniffed by the gzip
// magic, not the name), into captures. CDX lines follow the file's header
// legend (" CDX N b a m s k r M S V g", the 9-field " CDX N b a m s k r V
// g", or any legend of the standard field letters); without a header, lines
// of 11 or 9 fields are read as those two forms. Lines of the form "key
// timestamp {json}" are read as pywb CDXJ, whatever the rest of the file is.
// "-" means a missing field.
//
// Each capture's Key is recomputed from its original URL with
// Canonicalize(url, opts.Canon); file names are resolved against
// opts.WARCDir; Payload equals Loc, except for revisits (mime
// "warc/revisit"), whose Payload, Status and MIME stay zero until resolved
// (OpenIndex does). Digests of 32 characters without a label get "sha1:".
// Headers, blank lines, '!' lines, request and metadata lines and non-HTTP
// URIs are skipped silently. A malformed line is yielded as a *CDXError
// naming name and the line, and reading goes on with the next line; a read
// error (a truncated gzip stream) ends the sequence.
func ReadCDX(r io.Reader, name string, opts CDXOptions) iter.Seq2[Capture, error] {
	return func(yield func(Capture, error) bool) {
		p := &cdxParser{name: name, opts: &opts}
		for l, err := range readLines(r, p) {
			if !yield(l.c, err) {
				return
			}
		}
	}
}

// lineKey returns the first field of an index line (its key as written).
func lineKey(line []byte) []byte {
	if i := bytes.IndexByte(line, ' '); i >= 0 {
		return line[:i]
	}
	return bytes.TrimRight(line, "\r\n")
}

// cdxFile is one index file of a CDXIndex and what OpenIndex learnt of it.
type cdxFile struct {
	path   string
	gz     bool
	legend []byte // of the header line, nil when none
	// sorted: the recomputed keys never decrease; canonKeys: every line's
	// own key equals its recomputed key (so a binary search by the file's
	// keys finds canonical keys). Both assumed with AssumeSorted.
	sorted, canonKeys bool
}

// CDXIndex is a Source over local CDX and CDXJ index files whose payloads
// are read from the WARC/ARC files they point to (see ReadResponse), without
// scanning those. TimeMaps streams: it merges the files by key and holds one
// TimeMap at a time, except that an index file found unsorted is sorted
// first (in memory, spilling sorted runs beyond MaxInMemory captures).
type CDXIndex struct {
	opts  CDXOptions
	files []*cdxFile
	seeds *Seeds
	mu    sync.Mutex // guards orig
	orig  *digestMap // digest -> original across the index; built when first needed
}

// OpenIndex opens CDX/CDXJ index files (plain or gzipped, format sniffed per
// file and per line). Unless opts.AssumeSorted, it reads each file once to
// check that it is sorted by canonical key; a file that is not is reported
// to opts.OnError as a notice and sorted when iterated. It fails when a
// file cannot be opened or read.
func OpenIndex(paths []string, opts CDXOptions) (*CDXIndex, error) {
	if opts.MaxInMemory <= 0 {
		opts.MaxInMemory = DefaultMaxInMemory
	}
	idx := &CDXIndex{opts: opts}
	for _, path := range paths {
		f, err := idx.openFile(path)
		if err != nil {
			return nil, err
		}
		idx.files = append(idx.files, f)
	}
	return idx, nil
}

func (idx *CDXIndex) report(err error) {
	if idx.opts.OnError != nil {
		idx.opts.OnError(err)
	}
}

func (idx *CDXIndex) openFile(path string) (*cdxFile, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("timemap: open index: %w", err)
	}
	defer fh.Close()
	r, gz, err := maybeGunzip(fh)
	if err != nil {
		return nil, fmt.Errorf("timemap: index %s: %w", path, err)
	}
	cf := &cdxFile{path: path, gz: gz}
	br := bufio.NewReader(r)
	first, err := br.ReadString('\n')
	if err != nil && err != io.EOF {
		return nil, fmt.Errorf("timemap: index %s: %w", path, err)
	}
	cf.legend = parseLegend(first)
	if idx.opts.AssumeSorted {
		cf.sorted, cf.canonKeys = true, true
		return cf, nil
	}
	if _, err := fh.Seek(0, io.SeekStart); err != nil {
		return nil, fmt.Errorf("timemap: index %s: %w", path, err)
	}
	cf.sorted, cf.canonKeys = true, true
	p := &cdxParser{name: path, opts: &idx.opts}
	prev, prevFile := "", ""
	for l, err := range readLines(fh, p) {
		if err != nil {
			if errors.Is(err, errCDXRead) {
				return nil, err
			}
			continue // bad lines are reported when the file is iterated
		}
		if cf.sorted && l.c.Key < prev {
			cf.sorted = false
			idx.report(&CDXError{File: path, Line: l.n, Offset: -1, Notice: true,
				Err: fmt.Errorf("key %q sorts before the previous key %q: index not sorted by canonical key; it will be sorted when read", l.c.Key, prev)})
		}
		if l.fileKey != l.c.Key || l.fileKey < prevFile {
			cf.canonKeys = false
		}
		prev, prevFile = l.c.Key, l.fileKey
	}
	return cf, nil
}

// Select restricts TimeMaps to the TimeMaps whose key seeds match (nil: all).
// In plain index files sorted by canonical key, TimeMaps then jumps to each
// seed's key by binary search instead of reading the whole file.
func (idx *CDXIndex) Select(seeds *Seeds) { idx.seeds = seeds }

// seqOf builds an entry's sequence number from its file index and line
// number, for input order; seqAt from a byte offset (lines reached by binary
// search, whose number is unknown).
func seqOf(fi, n int) uint64 { return uint64(fi)<<40 | uint64(n) }

func seqAt(fi int, off int64) uint64 { return uint64(fi)<<40 | seqOffsetBit | uint64(off) }

const seqOffsetBit = 1 << 39

// seqLine and seqOffset return the line number or byte offset of a sequence
// number (0 and -1 when it holds the other).
func seqLine(seq uint64) int {
	if seq&seqOffsetBit != 0 {
		return 0
	}
	return int(seq & (1<<40 - 1))
}

func seqOffset(seq uint64) int64 {
	if seq&seqOffsetBit == 0 {
		return -1
	}
	return int64(seq & (seqOffsetBit - 1))
}

// fileEntries yields one file's captures as entries in key order (the
// selected ones only when seeds are set). Bad lines go to OnError; the
// error yielded ends the sequence.
func (idx *CDXIndex) fileEntries(fi int) iter.Seq2[entry, error] {
	cf := idx.files[fi]
	return func(yield func(entry, error) bool) {
		fh, err := os.Open(cf.path)
		if err != nil {
			yield(entry{}, fmt.Errorf("timemap: open index: %w", err))
			return
		}
		defer fh.Close()
		p := &cdxParser{name: cf.path, opts: &idx.opts, legend: cf.legend}
		if idx.seeds != nil && !cf.gz && cf.sorted && cf.canonKeys {
			st, err := fh.Stat()
			if err != nil {
				yield(entry{}, fmt.Errorf("timemap: index %s: %w", cf.path, err))
				return
			}
			idx.searchFile(fh, st.Size(), fi, p, yield)
			return
		}
		lines := func(yield func(entry, error) bool) {
			for l, err := range readLines(fh, p) {
				if err != nil {
					if !errors.Is(err, errCDXRead) {
						idx.report(err)
						continue
					}
					yield(entry{}, err)
					return
				}
				if idx.seeds != nil && !idx.seeds.Match(l.c.Key) {
					continue
				}
				if !yield(entry{C: l.c, Seq: seqOf(fi, l.n)}, nil) {
					return
				}
			}
		}
		if cf.sorted {
			prev := ""
			for e, err := range lines {
				if err == nil && e.C.Key < prev {
					idx.report(&CDXError{File: cf.path, Line: seqLine(e.Seq), Offset: seqOffset(e.Seq),
						Err: fmt.Errorf("key %q sorts before the previous key %q: index not sorted, TimeMap %q may come out split", e.C.Key, prev, e.C.Key)})
				}
				if !yield(e, err) || err != nil {
					return
				}
				prev = e.C.Key
			}
			return
		}
		// Unsorted: sort through the Index's sorted runs.
		tmp := &Index{opts: IndexOptions{MaxInMemory: idx.opts.MaxInMemory, TempDir: idx.opts.TempDir}}
		defer tmp.Close()
		for e, err := range lines {
			if err != nil {
				yield(entry{}, err)
				return
			}
			tmp.mem = append(tmp.mem, e)
			if len(tmp.mem) >= idx.opts.MaxInMemory {
				if err := tmp.spill(tmp.mem); err != nil {
					yield(entry{}, err)
					return
				}
				tmp.mem = nil
			}
		}
		slices.SortFunc(tmp.mem, func(a, b entry) int { return cmpEntry(&a, &b) })
		for e, err := range tmp.entries() {
			if !yield(e, err) || err != nil {
				return
			}
		}
	}
}

// TimeMaps yields the TimeMaps of the index in key order: the files merged
// by key, consecutive captures with the same canonical key grouped and
// ordered by time (ties in file and line order), revisits resolved to the
// payload of the earlier capture with the same digest in the TimeMap, else of
// the earliest capture with that digest anywhere in the index (a map built
// by one extra pass over the index the first time it is needed). A revisit
// left unresolved keeps a zero Payload and is reported to OnError as a
// notice. Only the selected TimeMaps are yielded when Select was called.
func (idx *CDXIndex) TimeMaps(ctx context.Context) iter.Seq2[*TimeMap, error] {
	return func(yield func(*TimeMap, error) bool) {
		var its []*runIter
		defer func() {
			for _, it := range its {
				it.stop()
			}
		}()
		for fi := range idx.files {
			next, stop := iter.Pull2(idx.fileEntries(fi))
			its = append(its, &runIter{stop: stop, next: func() (entry, error) {
				e, err, ok := next()
				if !ok {
					return entry{}, io.EOF
				}
				return e, err
			}})
		}
		merged := func(yield func(entry, error) bool) { mergeIters(its, yield) }
		groupTimeMaps(ctx, merged, idx.resolve, yield)
	}
}

// resolve builds the TimeMap of one key's entries with the one builder (see
// build.go), reporting revisits left unresolved as notices.
func (idx *CDXIndex) resolve(group []entry) *TimeMap {
	return builder{canon: idx.opts.Canon,
		collection: func(d string) (original, bool) {
			return idx.origMap().get(d)
		},
		unresolved: func(e *entry) {
			idx.report(&CDXError{File: idx.files[e.Seq>>40].path, Line: seqLine(e.Seq), Offset: seqOffset(e.Seq), Notice: true,
				Err: fmt.Errorf("revisit of %s at %s: no capture with digest %q in the index", e.C.URIR, e.C.Timestamp14(), e.C.Digest)})
		}}.build(group)
}

// origMap returns the digest map over the whole index, building it on first
// use: for each payload digest, the earliest non-revisit capture.
func (idx *CDXIndex) origMap() *digestMap {
	idx.mu.Lock()
	defer idx.mu.Unlock()
	if idx.orig != nil {
		return idx.orig
	}
	idx.orig = newDigestMap(idx.opts.MaxInMemory, idx.opts.TempDir)
	for _, cf := range idx.files {
		fh, err := os.Open(cf.path)
		if err != nil {
			continue // reported when the file is iterated
		}
		p := &cdxParser{name: cf.path, opts: &idx.opts}
		for l, err := range readLines(fh, p) {
			if err != nil || l.c.Revisit || l.c.Digest == "" {
				continue
			}
			// The earliest capture is the original; of equal times, the first listed.
			idx.orig.add(normDigest(l.c.Digest), original{loc: l.c.Payload, status: l.c.Status, mime: l.c.MIME}, l.c.Time.Unix())
		}
		fh.Close()
	}
	if err := idx.orig.freeze(); err != nil {
		idx.report(err)
	}
	return idx.orig
}

// Close removes the temporary files of revisit resolution. The index can be
// iterated again afterwards (they are rebuilt when needed).
func (idx *CDXIndex) Close() error {
	idx.mu.Lock()
	defer idx.mu.Unlock()
	err := idx.orig.close()
	idx.orig = nil
	return err
}
