package timemap

import (
	"bufio"
	"bytes"
	"crypto/sha1"
	"encoding/base32"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/klauspost/compress/gzip"
)

// DefaultMaxBodyBytes is the default cap on the HTTP body a Record or
// ReadResponse exposes.
const DefaultMaxBodyBytes = 16 << 20

// ReadOptions configure OpenRecords and ReadResponse.
type ReadOptions struct {
	// MaxBodyBytes caps Record.Body (default DefaultMaxBodyBytes; negative
	// means no cap).
	MaxBodyBytes int64
	// TempDir is where gowarc may buffer large record blocks (default
	// os.TempDir()).
	TempDir string
}

func (o ReadOptions) maxBody() int64 {
	switch {
	case o.MaxBodyBytes == 0:
		return DefaultMaxBodyBytes
	case o.MaxBodyBytes < 0:
		return 0
	}
	return o.MaxBodyBytes
}

// spoolCap is how much of a record block the reader hands on (and gowarc
// buffers, in memory or in TempDir): room for the HTTP head, leading white
// space and the capped body. 0 means no cap.
func (o ReadOptions) spoolCap() int64 {
	if m := o.maxBody(); m > 0 {
		return m + maxHeadBytes + 64<<10
	}
	return 0
}

// Format is the container format of an archive file.
type Format int

const (
	// FormatWARC is a WARC file (0.17, 1.0 or 1.1), plain or gzipped.
	FormatWARC Format = iota
	// FormatARC is a legacy ARC file (version 1 or 2), plain or gzipped.
	FormatARC
)

// String returns "warc" or "arc".
func (f Format) String() string {
	if f == FormatARC {
		return "arc"
	}
	return "warc"
}

// Record is one record read from a WARC or ARC file. ARC records are mapped
// onto WARC terms: the filedesc version block is a "warcinfo" record, every
// URL record a "response" record whose TargetURI, Date and ContentType come
// from the ARC header line.
//
// Body and the record are valid only until the next call to Next.
type Record struct {
	// Format is the container format the record came from.
	Format Format
	// Version is the WARC version ("1.0", "1.1", "0.17"), "" for ARC.
	Version string
	// Type is the WARC-Type, lower case ("response", "revisit", ...).
	Type string
	// TargetURI is WARC-Target-URI (ARC: the URL) without angle brackets.
	TargetURI string
	// Date is WARC-Date (ARC: the 14-digit date), UTC.
	Date time.Time
	// RecordID is WARC-Record-ID ("" for ARC).
	RecordID string
	// PayloadDigest is WARC-Payload-Digest as recorded ("sha1:..."); for ARC
	// records and WARC records without one it is computed over the raw HTTP
	// body (sha1, base32) when the body was read by the reader.
	PayloadDigest string
	// RefersTo, RefersToTargetURI and RefersToDate are the WARC-Refers-To*
	// fields of revisit records.
	RefersTo          string
	RefersToTargetURI string
	RefersToDate      time.Time
	// Profile is WARC-Profile (revisit records).
	Profile string
	// ContentType is the record's Content-Type (ARC: the MIME field).
	ContentType string
	// ContentLength is the declared length of the record block.
	ContentLength int64
	// Fields holds the raw WARC header fields as written (first value per
	// name under canonical keys); nil for ARC records.
	Fields http.Header
	// Loc is where the record is stored.
	Loc Location
	// HTTP is the leniently parsed HTTP head of an HTTP response (also of a
	// revisit carrying one); nil otherwise.
	HTTP *HTTPHead
	// Body is the raw HTTP body (after the head) of an HTTP response, else the
	// raw record block; capped at ReadOptions.MaxBodyBytes. Never nil. It is
	// neither de-chunked nor decoded.
	Body io.Reader
	// BodyCut says the body is longer than ReadOptions.MaxBodyBytes: Body
	// holds its first MaxBodyBytes only (and the rest of the block was
	// skipped, not buffered).
	BodyCut bool
}

// RecordError reports a record that could not be read (truncated, corrupt,
// unparsable). The reader has skipped it: calling Next again continues with
// the rest of the file.
type RecordError struct {
	// File is the path of the archive file.
	File string
	// Offset is the file offset where the bad record (or its gzip member) starts.
	Offset int64
	// Err says what is wrong.
	Err error
}

// Error implements error.
func (e *RecordError) Error() string {
	return fmt.Sprintf("%s: offset %d: %v", e.File, e.Offset, e.Err)
}

// Unwrap returns the underlying error.
func (e *RecordError) Unwrap() error { return e.Err }

// recordSource is one format's record reader.
type recordSource interface {
	next() (*Record, error)
	close() error
}

// RecordReader reads the records of one WARC or ARC file in order, in the
// style of archive/tar: call Next until it returns io.EOF. A *RecordError
// means one record was skipped and Next may be called again; any other error
// is fatal for the file.
type RecordReader struct {
	path   string
	format Format
	comp   compression
	src    recordSource
}

// OpenRecords opens a WARC or ARC file, plain or gzipped, or a WARC of zstd
// frames (see zstd.go); other compressions are refused with a
// *CompressionError. The format is
// sniffed from the content (gzip magic, "WARC/" or "filedesc://"); when the
// file starts with neither (a stray byte, a damaged first member), from the
// first gzip member or record found in its first 64 MiB, and Next reports
// the bytes before it as a *RecordError at offset 0; else from the file
// name. Gzipped files may hold one member per record (the
// norm) or any other member layout, including one member for the whole
// file: records after the first in a member get Location.MemberOffset set.
func OpenRecords(path string, opts ReadOptions) (*RecordReader, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("timemap: open %s: %w", path, err)
	}
	format, comp, err := sniff(f, path)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("timemap: %s: offset 0: %w", path, err)
	}
	rr := &RecordReader{path: path, format: format, comp: comp}
	if format == FormatARC {
		rr.src = newARCSource(path, f, comp == gzipped, opts)
	} else if rr.src, err = newWARCSource(path, f, 0, comp, 0, opts); err != nil {
		f.Close()
		return nil, fmt.Errorf("timemap: %s: offset 0: %w", path, err)
	}
	return rr, nil
}

// Next returns the next record, io.EOF at the end of the file, a
// *RecordError for a skipped record (call Next again), or another error when
// the file cannot be read further.
func (r *RecordReader) Next() (*Record, error) { return r.src.next() }

// Close releases the file and the current record.
func (r *RecordReader) Close() error { return r.src.close() }

// Gzipped reports whether the file is read as gzip members (decided from
// its first gzip member or record, wherever it is found).
func (r *RecordReader) Gzipped() bool { return r.comp == gzipped }

// Zstd reports whether the file is read as zstd frames (a .warc.zst).
func (r *RecordReader) Zstd() bool { return r.comp == zstdFramed }

// Path returns the path of the file being read.
func (r *RecordReader) Path() string { return r.path }

// Format returns the sniffed container format.
func (r *RecordReader) Format() Format { return r.format }

// sniff looks at the start of f and reports its format and its
// compression; f is left at offset 0.
func sniff(f *os.File, path string) (Format, compression, error) {
	format, gz, err := sniffGzip(f, path)
	if errors.Is(err, errZstd) {
		return sniffZstd(f)
	}
	if gz {
		return format, gzipped, err
	}
	return format, plain, err
}

// errZstd: the file starts with a zstd frame (sniffZstd tells more).
var errZstd = errors.New("zstd")

// sniffZstd reports the format of a file of zstd frames: a WARC, whose
// frames are read as members; anything else (an ARC, a frame that does not
// decode) is refused.
func sniffZstd(f *os.File) (Format, compression, error) {
	refuse := &CompressionError{Compression: "zstd"}
	dict, err := zstdDictionary(f)
	if err != nil {
		refuse.Err = err
		return 0, 0, refuse
	}
	off := int64(0)
	for range 16 { // skippable frames (the dictionary's, others) before the first record
		size, err := zstdFrameSize(f, off)
		if err != nil {
			refuse.Err = err
			return 0, 0, refuse
		}
		var m [4]byte
		if _, err := f.ReadAt(m[:], off); err == nil && bytes.Equal(m[:], zstdMagic) {
			dec, err := newZstdDecoder(dict)
			if err != nil {
				refuse.Err = err
				return 0, 0, refuse
			}
			defer dec.Close()
			head := make([]byte, 512)
			n := 0
			if err = dec.Reset(io.NewSectionReader(f, off, size)); err == nil {
				n, _ = io.ReadFull(dec, head)
			}
			if format, ok := contentFormat(head[:n]); ok && format == FormatWARC {
				return FormatWARC, zstdFramed, nil
			}
			refuse.Err = errors.New("its first frame holds no WARC record")
			return 0, 0, refuse
		}
		off += size
	}
	refuse.Err = errors.New("no zstd frame among the first 16")
	return 0, 0, refuse
}

// sniffGzip sniffs a plain or gzipped file: its format and whether it is
// gzipped. A file compressed otherwise is a *CompressionError (errZstd for
// zstd, which sniff reads further).
func sniffGzip(f *os.File, path string) (Format, bool, error) {
	head := make([]byte, 512)
	n, err := io.ReadFull(f, head)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return 0, false, err
	}
	head = head[:n]
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return 0, false, err
	}
	switch c := compressedAs(head); c {
	case "":
	case "zstd":
		return 0, false, errZstd
	default:
		return 0, false, &CompressionError{Compression: c}
	}
	gz := len(head) >= 2 && head[0] == 0x1f && head[1] == 0x8b
	content := head
	if gz {
		zr, err := gzip.NewReader(f)
		if err == nil {
			buf := make([]byte, 512)
			m, _ := io.ReadFull(zr, buf)
			content = buf[:m]
		}
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return 0, false, err
		}
	}
	if format, ok := contentFormat(content); ok {
		return format, gz, nil
	}
	if format, fgz, ok := findStart(f); ok {
		// Neither a gzip member nor a record starts the file (a stray
		// byte, a damaged first member): what the first member or record
		// found further on is decides, and the reader reports the bytes
		// before it.
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return 0, false, err
		}
		return format, fgz, nil
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return 0, false, err
	}
	name := strings.ToLower(filepath.Base(path))
	if strings.Contains(name, ".arc") && !strings.Contains(name, ".warc") {
		return FormatARC, gz, nil
	}
	return FormatWARC, gz, nil
}

// CompressionError is the error of a file compressed in a way the reader
// does not read (bzip2, xz; zstd other than a WARC of zstd frames): it is
// refused whole, never read as garbage.
type CompressionError struct {
	// Compression names it: "zstd", "bzip2" or "xz".
	Compression string
	// Err says more, where there is more to say (of a zstd file).
	Err error
}

// Error says what the file is and what to do.
func (e *CompressionError) Error() string {
	tool := map[string]string{"zstd": "zstd -d", "bzip2": "bunzip2", "xz": "unxz"}[e.Compression]
	what := "WARC and ARC files are read plain or gzipped, WARCs also as zstd frames"
	if e.Err != nil {
		what = e.Err.Error() + "; " + what
	}
	return fmt.Sprintf("%s-compressed: not read (%s; decompress it first: %s, then gzip)", e.Compression, what, tool)
}

// Unwrap returns what more there is to say.
func (e *CompressionError) Unwrap() error { return e.Err }

// compressedAs names the compression whose signature starts head, among
// those the reader refuses; "" for none of them.
func compressedAs(head []byte) string {
	switch {
	case len(head) >= 4 && head[0] == 0x28 && head[1] == 0xb5 && head[2] == 0x2f && head[3] == 0xfd,
		len(head) >= 4 && head[0]&0xf0 == 0x50 && head[1] == 0x2a && head[2] == 0x4d && head[3] == 0x18:
		return "zstd" // a frame, or a skippable frame (the dictionary of a .warc.zst)
	case len(head) >= 10 && bytes.HasPrefix(head, []byte("BZh")) && head[3] >= '1' && head[3] <= '9' &&
		(bytes.Equal(head[4:10], []byte{0x31, 0x41, 0x59, 0x26, 0x53, 0x59}) || bytes.Equal(head[4:10], []byte{0x17, 0x72, 0x45, 0x38, 0x50, 0x90})):
		return "bzip2"
	case len(head) >= 6 && bytes.Equal(head[:6], []byte{0xfd, '7', 'z', 'X', 'Z', 0}):
		return "xz"
	}
	return ""
}

// contentFormat reports the format of the decompressed bytes that start a
// file, when a WARC or ARC record starts them.
func contentFormat(content []byte) (Format, bool) {
	content = bytes.TrimLeft(content, " \t\r\n")
	switch {
	case bytes.HasPrefix(content, []byte("WARC/")):
		return FormatWARC, true
	case bytes.HasPrefix(content, []byte("filedesc://")), looksLikeARCHeader(content):
		return FormatARC, true
	}
	return 0, false
}

// maxSniffScan bounds how far findStart looks for the first record.
const maxSniffScan = 64 << 20

// findStart looks, in a file whose start is neither a gzip member nor a
// record, for the first gzip member (magic 1f 8b 08) that decompresses to a
// WARC or ARC record, or the first plain "WARC/<digit>" or "filedesc://",
// whichever comes first in the first maxSniffScan bytes, and reports the
// format and whether the file is gzipped.
func findStart(f *os.File) (Format, bool, bool) {
	const chunk = 1 << 20
	buf := make([]byte, chunk+16)
	for base := int64(0); base < maxSniffScan; base += chunk {
		n, err := f.ReadAt(buf, base)
		if n == 0 {
			return 0, false, false
		}
		b := buf[:n]
		for i := 0; i < len(b) && i < chunk; i++ {
			switch b[i] {
			case 0x1f:
				if i+2 < len(b) && b[i+1] == 0x8b && b[i+2] == 8 {
					if format, ok := gzipMemberFormat(f, base+int64(i)); ok {
						return format, true, true
					}
				}
			case 'W':
				if bytes.HasPrefix(b[i:], []byte("WARC/")) && i+5 < len(b) && b[i+5] >= '0' && b[i+5] <= '9' {
					return FormatWARC, false, true
				}
			case 'f':
				if bytes.HasPrefix(b[i:], []byte("filedesc://")) {
					return FormatARC, false, true
				}
			}
		}
		if err != nil {
			return 0, false, false
		}
	}
	return 0, false, false
}

// gzipMemberFormat reports the format of the record a gzip member at off
// starts with, if it decompresses to one.
func gzipMemberFormat(f *os.File, off int64) (Format, bool) {
	zr, err := gzip.NewReader(bufio.NewReader(io.NewSectionReader(f, off, 1<<62)))
	if err != nil {
		return 0, false
	}
	zr.Multistream(false)
	buf := make([]byte, 512)
	m, _ := io.ReadFull(zr, buf)
	return contentFormat(buf[:m])
}

func looksLikeARCHeader(b []byte) bool {
	line, _, _ := bytes.Cut(b, []byte("\n"))
	_, ok := parseARCHeader(string(bytes.TrimRight(line, "\r")))
	return ok == nil
}

// parseWARCDate parses a WARC-Date (W3C profile of ISO 8601, any precision)
// or a 14-digit timestamp.
func parseWARCDate(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04Z07:00", "2006-01-02", "20060102150405"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, fmt.Errorf("bad date %q", s)
}

// sha1Base32 returns "sha1:" and the base32 SHA-1 of the bytes read from r.
func sha1Base32(r io.Reader) (string, error) {
	h := sha1.New()
	if _, err := io.Copy(h, r); err != nil {
		return "", err
	}
	return "sha1:" + base32.StdEncoding.EncodeToString(h.Sum(nil)), nil
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// rawWARCHeader parses the WARC header at the start of b (as far as it is
// in b) without validating values, so that values gowarc blanks can be
// recovered. It returns the length of the header (including the blank line
// ending it) and whether that end was found.
func rawWARCHeader(b []byte) (http.Header, int, bool) {
	h := make(http.Header)
	first := true
	n := 0
	for len(b) > 0 {
		var line []byte
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			return h, n, false
		}
		n += i + 1
		line, b = bytes.TrimRight(b[:i], "\r"), b[i+1:]
		if first {
			first = false
			continue // WARC/1.0
		}
		if len(line) == 0 {
			return h, n, true
		}
		k, v, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			continue
		}
		key := http.CanonicalHeaderKey(string(bytes.TrimSpace(k)))
		if _, dup := h[key]; !dup {
			h[key] = []string{string(bytes.TrimSpace(v))}
		}
	}
	return h, n, false
}

func atoi64(s string) (int64, error) {
	return strconv.ParseInt(strings.TrimSpace(s), 10, 64)
}

var errTruncated = errors.New("truncated record")
