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
		sc := bufio.NewScanner(s.r)
		sc.Buffer(make([]byte, 64<<10), 16<<20)
		var cur []Capture
		flush := func() bool {
			if len(cur) == 0 {
				return true
			}
			tm := Build(cur)
			cur = cur[:0]
			return yield(tm, nil)
		}
		for n := 1; sc.Scan(); n++ {
			if ctx.Err() != nil {
				yield(nil, ctx.Err())
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
			if len(cur) > 0 && cur[0].Key != key {
				if key < cur[0].Key {
					s.report(fmt.Errorf("%s line %d: key %q after %q: input is not sorted, its TimeMaps are split", s.name, n, key, cur[0].Key))
				}
				if !flush() {
					return
				}
			}
			cur = append(cur, c)
		}
		if err := sc.Err(); err != nil {
			yield(nil, fmt.Errorf("read %s: %w", s.name, err))
			return
		}
		flush()
	}
}

func (s *LineSource) report(err error) {
	if s.onError != nil {
		s.onError(err)
	}
}
