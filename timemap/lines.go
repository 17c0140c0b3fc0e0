package timemap

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"iter"
	"strings"
)

// The line format of map | sort | reduce (the Hadoop Streaming contract):
// one capture per line, "SURT key <TAB> 14-digit timestamp <TAB> capture as
// JSON". Sorting the lines as text groups them by key and orders each group
// by time, which is all the shuffle has to do.

// WriteCaptureLine writes one capture as a map output line.
func WriteCaptureLine(w io.Writer, c Capture) error {
	b, err := json.Marshal(c)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\t%s\t%s\n", c.Key, c.Timestamp14(), b)
	return err
}

// LineSource reads map output lines (grouped by key, as sort or a shuffle
// leaves them) as a Source: one TimeMap per run of lines with the same key,
// made by the one builder (Build): ordered by time, revisits resolved within
// the TimeMap. Lines that cannot be
// read go to onError with their line number and are skipped.
type LineSource struct {
	r       io.Reader
	name    string
	onError func(error)
}

// NewLineSource reads lines from r (name is used in messages).
func NewLineSource(r io.Reader, name string, onError func(error)) *LineSource {
	return &LineSource{r: r, name: name, onError: onError}
}

// TimeMaps implements Source. It can be iterated once.
func (s *LineSource) TimeMaps(ctx context.Context) iter.Seq2[*TimeMap, error] {
	return func(yield func(*TimeMap, error) bool) {
		groupTimeMaps(ctx, s.entries(ctx), builder{}.build, yield)
	}
}

// entries yields the captures of the lines in input order, each with its
// line number as Seq. Lines that cannot be read go to onError; a key smaller
// than the one before is reported (its TimeMap is split) and yielded.
func (s *LineSource) entries(ctx context.Context) iter.Seq2[entry, error] {
	return func(yield func(entry, error) bool) {
		sc := bufio.NewScanner(s.r)
		sc.Buffer(make([]byte, 64<<10), 16<<20)
		prev, started := "", false
		for n := 1; sc.Scan(); n++ {
			if err := ctx.Err(); err != nil {
				yield(entry{}, err)
				return
			}
			line := sc.Text()
			if strings.TrimSpace(line) == "" {
				continue
			}
			key, rest, ok1 := strings.Cut(line, "\t")
			_, js, ok2 := strings.Cut(rest, "\t")
			var c Capture
			if !ok1 || !ok2 {
				s.report(fmt.Errorf("%s line %d: want key<TAB>timestamp<TAB>capture", s.name, n))
				continue
			}
			if err := json.Unmarshal([]byte(js), &c); err != nil {
				s.report(fmt.Errorf("%s line %d: %w", s.name, n, err))
				continue
			}
			c.Key = key
			if started && key < prev {
				s.report(fmt.Errorf("%s line %d: key %q after %q: input is not sorted, its TimeMaps are split", s.name, n, key, prev))
			}
			prev, started = key, true
			if !yield(entry{C: c, Seq: uint64(n)}, nil) {
				return
			}
		}
		if err := sc.Err(); err != nil {
			yield(entry{}, fmt.Errorf("read %s: %w", s.name, err))
		}
	}
}

func (s *LineSource) report(err error) {
	if s.onError != nil {
		s.onError(err)
	}
}
