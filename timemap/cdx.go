package timemap

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"iter"
	"path/filepath"
	"strconv"
	"strings"
)

// CDXOptions configure ReadCDX and OpenIndex.
type CDXOptions struct {
	// WARCDir is the directory the index's file names (CDX field g, CDXJ
	// "filename") are resolved against: Location.File = filepath.Join(WARCDir, g).
	// Absolute file names are kept; "" keeps the names as written.
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
	// MaxInMemory is the number of captures of an unsorted index file kept
	// in memory before a sorted run is spilled to TempDir (default
	// DefaultMaxInMemory).
	MaxInMemory int
	// TempDir is where sorted runs of unsorted index files are spilled
	// (default os.TempDir()).
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
	c.Loc.File = p.resolveFile(c.Loc.File)
	fileKey := c.Key
	mime := c.MIME
	if c.Revisit {
		mime = "warc/revisit"
	}
	status := ""
	if c.Status != 0 {
		status = strconv.Itoa(c.Status)
	}
	c.Payload = Location{}
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
		c.Loc.File = p.resolveFile(g)
	}
	if fileKey == "" {
		fileKey = fields[0]
	}
	return p.finish(fileKey, c, mime, status)
}

// resolveFile resolves an index's file name against WARCDir.
func (p *cdxParser) resolveFile(g string) string {
	if g == "" || p.opts.WARCDir == "" || filepath.IsAbs(g) {
		return g
	}
	return filepath.Join(p.opts.WARCDir, g)
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
			yield(numberedLine{}, &CDXError{File: p.name, Line: 1, Offset: -1, Err: err})
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
			yield(numberedLine{}, &CDXError{File: p.name, Line: n + 1, Offset: -1, Err: err})
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
