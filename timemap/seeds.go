package timemap

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
)

// Seeds is a seed list: the URI-Rs to score, as exact canonical keys and key
// prefixes. Read one with ReadSeeds or build one with NewSeeds.
type Seeds struct {
	exact    map[string]bool
	prefixes []string // sorted; none is a prefix of another
	n        int
}

// NewSeeds builds a seed list from entries as ReadSeeds reads them (one URL
// or SURT prefix each); empty entries are ignored.
func NewSeeds(canon CanonMode, entries ...string) *Seeds {
	s := &Seeds{exact: make(map[string]bool)}
	for _, e := range entries {
		s.add(e, canon)
	}
	s.compact()
	return s
}

// ReadSeeds reads a seed list: one entry per line, the first white-space
// separated field of the line; blank lines and lines starting with '#' are
// skipped. An entry that looks like a SURT key (no "://" and a ')' as in
// "com,example)/", or only commas and no dots before the first '/', as in
// "com,example,") is a prefix of canonical keys, as written (lower-cased
// under CanonSURT), without a trailing '*'. A URL is an exact match on its
// canonical key (Canonicalize(url, canon)); a URL ending with '*' is a
// prefix on the canonical key of what precedes the '*'. Errors name name
// and the line.
func ReadSeeds(r io.Reader, name string, canon CanonMode) (*Seeds, error) {
	s := &Seeds{exact: make(map[string]bool)}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		if !s.add(strings.Fields(line)[0], canon) {
			return nil, fmt.Errorf("timemap: %s:%d: empty seed %q", name, n, line)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("timemap: %s:%d: %w", name, n+1, err)
	}
	s.compact()
	return s, nil
}

// looksLikeSURT reports whether a seed entry is written as a SURT key.
func looksLikeSURT(e string) bool {
	if strings.Contains(e, "://") {
		return false
	}
	if strings.Contains(e, ")") {
		return true
	}
	host, _, _ := strings.Cut(e, "/")
	return strings.Contains(host, ",") && !strings.Contains(host, ".")
}

// add adds one entry, reporting false when it is empty.
func (s *Seeds) add(e string, canon CanonMode) bool {
	e = strings.TrimSpace(e)
	star := strings.HasSuffix(e, "*")
	e = strings.TrimRight(e, "*")
	if e == "" {
		return false
	}
	s.n++
	switch {
	case looksLikeSURT(e):
		if canon == CanonSURT {
			e = strings.ToLower(e)
		}
		s.prefixes = append(s.prefixes, e)
	case star:
		s.prefixes = append(s.prefixes, Canonicalize(e, canon))
	default:
		s.exact[Canonicalize(e, canon)] = true
	}
	return true
}

// compact sorts the prefixes, drops those inside another and exact keys
// that a prefix covers.
func (s *Seeds) compact() {
	slices.Sort(s.prefixes)
	var out []string
	for _, p := range s.prefixes {
		if len(out) > 0 && strings.HasPrefix(p, out[len(out)-1]) {
			continue
		}
		out = append(out, p)
	}
	s.prefixes = out
	for k := range s.exact {
		if s.matchPrefix(k) {
			delete(s.exact, k)
		}
	}
}

// matchPrefix reports whether key starts with one of the prefixes: as they
// do not nest, only the greatest prefix not after key can match.
func (s *Seeds) matchPrefix(key string) bool {
	i := sort.SearchStrings(s.prefixes, key)
	if i < len(s.prefixes) && s.prefixes[i] == key {
		return true
	}
	return i > 0 && strings.HasPrefix(key, s.prefixes[i-1])
}

// Select is src without the TimeMaps that match no seed.
func (s *Seeds) Select(src Source) Source { return FilterKeys(src, s.Match) }

// Match reports whether a canonical key is selected: equal to a URL seed's
// key or starting with a prefix.
func (s *Seeds) Match(key string) bool {
	return s.exact[key] || s.matchPrefix(key)
}

// Len returns the number of entries read (before merging duplicates).
func (s *Seeds) Len() int { return s.n }

// seedRange is the range of keys one seed selects.
type seedRange struct {
	key    string
	prefix bool
}

// in reports whether k is in the range.
func (r seedRange) in(k []byte) bool {
	if r.prefix {
		return bytes.HasPrefix(k, []byte(r.key))
	}
	return string(k) == r.key
}

// ranges returns the seeds' key ranges in key order, none inside another.
func (s *Seeds) ranges() []seedRange {
	rs := make([]seedRange, 0, len(s.exact)+len(s.prefixes))
	for k := range s.exact {
		rs = append(rs, seedRange{key: k})
	}
	for _, p := range s.prefixes {
		rs = append(rs, seedRange{key: p, prefix: true})
	}
	slices.SortFunc(rs, func(a, b seedRange) int { return strings.Compare(a.key, b.key) })
	return rs
}

// probeSize is how much a binary search probe reads at a time.
const probeSize = 512

// probeLine returns the start of the first line that starts at or after p
// (lo being a line start, p >= lo), and that line's key; q == size at the
// end. It reads probeSize bytes at a time, usually once.
func probeLine(ra io.ReaderAt, lo, p, size int64, buf []byte) (q int64, key []byte, err error) {
	var rest []byte // bytes read from q on
	q = p
	if p > lo {
		// Resync: find the first '\n' at or after p-1.
		for pos := p - 1; ; {
			if pos >= size {
				return size, nil, nil
			}
			n, err := ra.ReadAt(buf[:min(int64(len(buf)), size-pos)], pos)
			if n == 0 && err != nil {
				return 0, nil, err
			}
			if i := bytes.IndexByte(buf[:n], '\n'); i >= 0 {
				q = pos + int64(i) + 1
				rest = append(rest, buf[i+1:n]...)
				break
			}
			pos += int64(n)
		}
	}
	if q >= size {
		return size, nil, nil
	}
	for pos := q + int64(len(rest)); bytes.IndexByte(rest, ' ') < 0 && bytes.IndexByte(rest, '\n') < 0 && pos < size; {
		n, err := ra.ReadAt(buf[:min(int64(len(buf)), size-pos)], pos)
		if n == 0 && err != nil {
			return 0, nil, err
		}
		rest = append(rest, buf[:n]...)
		pos += int64(n)
	}
	return q, lineKey(rest), nil
}

// seekKey returns the offset of a line in [lo, size) at or before the first
// line whose key (its first field) is not less than target, at most about
// probeSize bytes before it, by binary search over the bytes of a file
// sorted by key, as pywb's binsearch does: probe the middle, resync to the
// next line start, compare keys. lo must be a line start. The caller reads
// on from there, skipping keys less than target.
func seekKey(ra io.ReaderAt, lo, size int64, target string) (int64, error) {
	buf := make([]byte, probeSize)
	start := lo
	hi := size
	for hi-lo > probeSize {
		mid := lo + (hi-lo)/2
		q, key, err := probeLine(ra, start, mid, size, buf)
		if err != nil {
			return 0, err
		}
		if q >= size || string(key) >= target {
			hi = mid
		} else {
			lo = q + 1
		}
	}
	if lo == start {
		return start, nil
	}
	// Every line starting before lo has a key less than target, and the
	// first line starting at or after hi does not: the first line starting
	// at or after lo is at most hi-lo bytes before the answer.
	q, _, err := probeLine(ra, start, lo, size, buf)
	return q, err
}

// searchLines yields the lines of a sorted index in ra whose key falls in
// one of ranges, with their offsets: each range found by seekKey from where
// the previous one ended, then read line by line.
func searchLines(ra io.ReaderAt, size int64, ranges []seedRange, fn func(off int64, line []byte) bool) error {
	pos := int64(0)
	for _, rg := range ranges {
		start, err := seekKey(ra, pos, size, rg.key)
		if err != nil {
			return err
		}
		br := bufio.NewReaderSize(io.NewSectionReader(ra, start, size-start), 1024)
		off := start
		for {
			line, err := br.ReadSlice('\n')
			if err == bufio.ErrBufferFull {
				long := append([]byte(nil), line...)
				for err == bufio.ErrBufferFull {
					line, err = br.ReadSlice('\n')
					long = append(long, line...)
				}
				line = long
			}
			if len(line) == 0 && err != nil {
				if err == io.EOF {
					break
				}
				return err
			}
			k := lineKey(line)
			if !rg.in(k) && string(k) > rg.key {
				break
			}
			if rg.in(k) && !fn(off, line) {
				return nil
			}
			off += int64(len(line))
			if err == io.EOF {
				break
			}
			if err != nil {
				return err
			}
		}
		pos = off
	}
	return nil
}

// searchFile yields the selected captures of one plain, sorted index file
// with canonical keys, found by binary search.
func (idx *CDXIndex) searchFile(ra io.ReaderAt, size int64, fi int, p *cdxParser, yield func(entry, error) bool) {
	stopped := false
	err := searchLines(ra, size, idx.seeds.ranges(), func(off int64, line []byte) bool {
		l, ok, err := p.parse(string(line))
		if err != nil {
			idx.report(&CDXError{File: p.name, Offset: off, Err: err})
			return true
		}
		if !ok || !idx.seeds.Match(l.c.Key) {
			return true
		}
		if !yield(entry{C: l.c, Seq: seqAt(fi, off)}, nil) {
			stopped = true
			return false
		}
		return true
	})
	if err != nil && !stopped {
		yield(entry{}, fmt.Errorf("timemap: index %s: %w", p.name, err))
	}
}
