package crawl

import (
	"bufio"
	"bytes"
	"container/heap"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/offtopic/offtopic/internal/atomicfile"
	"github.com/offtopic/offtopic/timemap"
)

// Names of the files a crawl writes into its output folder (besides
// <name>.warc.gz).
const (
	StateFile     = "crawl-state.json"
	LogFile       = "crawl.jsonl"
	MissingFile   = "missing.tsv"
	RelevanceFile = "relevance.csv"
	IndexFile     = "index.cdxj"
	TimeMapsFile  = "timemaps.link"
)

func (c *crawler) saveState() error {
	c.st.Frontier = append(c.st.Frontier[:0], c.front...)
	return writeAtomic(filepath.Join(c.opts.Out, StateFile), func(w io.Writer) error {
		return json.NewEncoder(w).Encode(&c.st)
	})
}

func (c *crawler) loadState() error {
	p := filepath.Join(c.opts.Out, StateFile)
	b, err := os.ReadFile(p)
	if err != nil {
		return fmt.Errorf("crawl: resume: %w", err)
	}
	var st state
	if err := json.Unmarshal(b, &st); err != nil {
		return fmt.Errorf("crawl: resume: %s: %w", p, err)
	}
	if st.Spec != c.opts.Spec.Name {
		return fmt.Errorf("crawl: resume: %s holds a crawl of %q, not %q", p, st.Spec, c.opts.Spec.Name)
	}
	if st.Strategy != c.opts.Strategy {
		return fmt.Errorf("crawl: resume: %s holds a %s crawl, not %s", p, st.Strategy, c.opts.Strategy)
	}
	c.st = st
	c.front = frontier(append([]Item(nil), st.Frontier...))
	heap.Init(&c.front)
	for _, k := range st.Seen {
		c.seen[k] = true
	}
	if c.ownDF {
		// Rebuild the table from the documents already collected, in order.
		for _, e := range st.Log {
			if _, _, err := c.fetch(context.Background(), e.URL); err != nil {
				return fmt.Errorf("crawl: resume: %w", err)
			}
		}
	}
	return nil
}

func writeAtomic(path string, write func(io.Writer) error) error {
	f, err := atomicfile.Create(path)
	if err != nil {
		return fmt.Errorf("crawl: %w", err)
	}
	defer f.Close()
	bw := bufio.NewWriterSize(f, 1<<16)
	if err := write(bw); err != nil {
		return fmt.Errorf("crawl: write %s: %w", path, err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("crawl: write %s: %w", path, err)
	}
	if err := f.Commit(); err != nil {
		return fmt.Errorf("crawl: %w", err)
	}
	return nil
}

// WARCName is the file name of a collection's WARC.
func WARCName(spec *Spec) string {
	name := strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == ' ' {
			return '-'
		}
		return r
	}, spec.Name)
	return name + ".warc.gz"
}

// writeOutput writes the collection (WARC, CDXJ, TimeMaps) and the crawl log,
// missing list and relevance curve, each atomically.
func writeOutput(ctx context.Context, opts Options, st state) error {
	warcPath := filepath.Join(opts.Out, WARCName(opts.Spec))
	var copied []timemap.Capture
	err := writeAtomic(warcPath, func(w io.Writer) error {
		var off int64
		files := map[string]*os.File{}
		defer func() {
			for _, f := range files {
				f.Close()
			}
		}()
		for _, e := range st.Log {
			cp := e.Capture
			loc := cp.Loc
			if cp.Revisit {
				loc = cp.Payload
			}
			if loc.File == "" && cp.URIM != "" {
				// A remote capture: stored as a new record of the memento
				// (read again, from the client's cache).
				h, body, err := opts.Archive.Read(ctx, cp)
				if err != nil {
					return fmt.Errorf("store %s: %w", cp.URIM, err)
				}
				n, err := writeMementoRecord(w, cp, h, body)
				if err != nil {
					return fmt.Errorf("store %s: %w", cp.URIM, err)
				}
				nc := cp
				nc.Key = timemap.Canonicalize(cp.URIR, timemap.CanonSURT)
				nc.Revisit = false
				nc.Loc = timemap.Location{File: warcPath, Offset: off, Length: n}
				nc.Payload, nc.Length = nc.Loc, n
				copied = append(copied, nc)
				off += n
				continue
			}
			if loc.File == "" || loc.Length <= 0 || loc.MemberOffset != 0 {
				continue // a record that cannot be cut out of its file
			}
			f := files[loc.File]
			if f == nil {
				var err error
				if f, err = os.Open(loc.File); err != nil {
					return err
				}
				files[loc.File] = f
			}
			n, err := io.Copy(w, io.NewSectionReader(f, loc.Offset, loc.Length))
			if err != nil {
				return fmt.Errorf("copy %s from %s@%d: %w", e.URL, loc.File, loc.Offset, err)
			}
			if n != loc.Length {
				return fmt.Errorf("copy %s from %s@%d: short record (%d of %d bytes)", e.URL, loc.File, loc.Offset, n, loc.Length)
			}
			nc := cp
			nc.Key = timemap.Canonicalize(cp.URIR, timemap.CanonSURT)
			nc.Revisit = false
			nc.Loc = timemap.Location{File: warcPath, Offset: off, Length: n}
			nc.Payload = nc.Loc
			nc.Length = n
			copied = append(copied, nc)
			off += n
		}
		return nil
	})
	if err != nil {
		return err
	}
	sort.SliceStable(copied, func(i, j int) bool {
		if copied[i].Key != copied[j].Key {
			return copied[i].Key < copied[j].Key
		}
		return copied[i].Time.Before(copied[j].Time)
	})
	if err := writeAtomic(filepath.Join(opts.Out, IndexFile), func(w io.Writer) error {
		return timemap.WriteCDXJ(w, func(yield func(timemap.Capture) bool) {
			for _, c := range copied {
				if !yield(c) {
					return
				}
			}
		})
	}); err != nil {
		return err
	}
	if err := writeAtomic(filepath.Join(opts.Out, TimeMapsFile), func(w io.Writer) error {
		lo := timemap.LinkOptions{ArchivePrefix: opts.ArchivePrefix}
		for i := 0; i < len(copied); {
			j := i
			for j < len(copied) && copied[j].Key == copied[i].Key {
				j++
			}
			tm := &timemap.TimeMap{Key: copied[i].Key, URIR: copied[i].URIR, Captures: copied[i:j]}
			if i > 0 {
				if _, err := io.WriteString(w, "\n"); err != nil {
					return err
				}
			}
			if err := timemap.WriteLinkFormat(w, tm, lo); err != nil {
				return err
			}
			i = j
		}
		return nil
	}); err != nil {
		return err
	}
	if err := writeAtomic(filepath.Join(opts.Out, LogFile), func(w io.Writer) error {
		enc := json.NewEncoder(w)
		for i := range st.Log {
			if err := enc.Encode(&st.Log[i]); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		return err
	}
	if err := writeAtomic(filepath.Join(opts.Out, MissingFile), func(w io.Writer) error {
		fmt.Fprintln(w, "url\tdepth\tparent\treason")
		for _, m := range st.Missing {
			fmt.Fprintf(w, "%s\t%d\t%s\t%s\n", m.URL, m.Depth, m.Parent, m.Reason)
		}
		return nil
	}); err != nil {
		return err
	}
	return writeAtomic(filepath.Join(opts.Out, RelevanceFile), func(w io.Writer) error {
		fmt.Fprintln(w, "documents,ttr,accumulated_ttr,mean_ttr,accumulated_topic_r,accumulated_temp_r")
		var sum, st1, st2 float64
		for i, e := range st.Log {
			sum += e.TTR
			st1 += e.TopicR
			st2 += e.TempR
			fmt.Fprintf(w, "%d,%.6f,%.6f,%.6f,%.6f,%.6f\n", i+1, e.TTR, sum, sum/float64(i+1), st1, st2)
		}
		return nil
	})
}

// ReadLog reads a crawl log (crawl.jsonl) in the order the documents were collected.
func ReadLog(path string) ([]Entry, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("crawl log: %w", err)
	}
	var out []Entry
	for i, line := range bytes.Split(b, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var e Entry
		if err := json.Unmarshal(line, &e); err != nil {
			return nil, fmt.Errorf("crawl log %s line %d: %w", path, i+1, err)
		}
		out = append(out, e)
	}
	return out, nil
}
