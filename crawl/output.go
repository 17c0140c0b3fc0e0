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
	"slices"
	"sort"
	"strings"
	"time"

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

// saveState writes the crawl state (atomically) for --resume.
func (c *crawler) saveState() error {
	t := time.Now()
	c.st.Frontier = append(c.st.Frontier[:0], c.front...)
	err := writeAtomic(filepath.Join(c.opts.Out, StateFile), func(w io.Writer) error {
		return json.NewEncoder(w).Encode(&c.st)
	})
	c.lastSave, c.saveCost = time.Now(), time.Since(t)
	return err
}

// saveDue reports whether the time since the last save of the state is at
// least 20 times what that save took. The state holds every URL seen and
// the whole log, so it grows with the crawl, and saving it every SaveEvery
// documents made the cost of a crawl quadratic (a sixth of a 400-document
// crawl's CPU); this way saving costs at most a twentieth of it, and a
// crawl that is killed loses the work of SaveEvery documents or of 20
// times a save, whichever is longer.
func (c *crawler) saveDue() bool { return time.Since(c.lastSave) >= 20*c.saveCost }

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
	copied, err := writeCollectionWARC(ctx, opts, st.Log)
	if err != nil {
		return err
	}
	sort.SliceStable(copied, func(i, j int) bool {
		if copied[i].Key != copied[j].Key {
			return copied[i].Key < copied[j].Key
		}
		return copied[i].Time.Before(copied[j].Time)
	})
	for _, out := range []struct {
		name  string
		write func(io.Writer) error
	}{
		{IndexFile, func(w io.Writer) error { return timemap.WriteCDXJ(w, slices.Values(copied)) }},
		{TimeMapsFile, func(w io.Writer) error { return writeTimeMaps(w, copied, opts.ArchivePrefix) }},
		{LogFile, func(w io.Writer) error { return writeLog(w, st.Log) }},
		{MissingFile, func(w io.Writer) error { return writeMissing(w, st.Missing) }},
		{RelevanceFile, func(w io.Writer) error { return writeRelevance(w, st.Log) }},
	} {
		if err := writeAtomic(filepath.Join(opts.Out, out.name), out.write); err != nil {
			return err
		}
	}
	return nil
}

// writeCollectionWARC writes the WARC of the documents of log, in order:
// each local record copied as it is, each remote capture stored as a new
// record of its memento. It returns their captures, located in that WARC.
func writeCollectionWARC(ctx context.Context, opts Options, log []Entry) ([]timemap.Capture, error) {
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
		for _, e := range log {
			cp := e.Capture
			loc := cp.Loc
			if cp.Revisit {
				loc = cp.Payload
			}
			var n int64
			switch {
			case loc.File == "" && cp.URIM != "":
				// A remote capture: stored as a new record of the memento
				// (read again, from the client's cache).
				h, body, err := opts.Archive.Read(ctx, cp)
				if err != nil {
					return fmt.Errorf("store %s: %w", cp.URIM, err)
				}
				if n, err = writeMementoRecord(w, cp, h, body); err != nil {
					return fmt.Errorf("store %s: %w", cp.URIM, err)
				}
			case loc.File == "" || loc.Length <= 0 || loc.MemberOffset != 0:
				continue // a record that cannot be cut out of its file
			default:
				var err error
				if n, err = copyRecord(w, files, loc); err != nil {
					return fmt.Errorf("copy %s from %s@%d: %w", e.URL, loc.File, loc.Offset, err)
				}
			}
			nc := cp
			nc.Key = timemap.Canonicalize(cp.URIR, timemap.CanonSURT)
			nc.Revisit = false
			nc.Loc = timemap.Location{File: warcPath, Offset: off, Length: n}
			nc.Payload, nc.Length = nc.Loc, n
			copied = append(copied, nc)
			off += n
		}
		return nil
	})
	return copied, err
}

// copyRecord copies the record at loc to w, opening its file once (files
// holds those open) and returns its length.
func copyRecord(w io.Writer, files map[string]*os.File, loc timemap.Location) (int64, error) {
	f := files[loc.File]
	if f == nil {
		var err error
		if f, err = os.Open(loc.File); err != nil {
			return 0, err
		}
		files[loc.File] = f
	}
	n, err := io.Copy(w, io.NewSectionReader(f, loc.Offset, loc.Length))
	if err != nil {
		return n, err
	}
	if n != loc.Length {
		return n, fmt.Errorf("short record (%d of %d bytes)", n, loc.Length)
	}
	return n, nil
}

// writeTimeMaps writes the TimeMaps of captures (sorted by key) in link
// format, a blank line between two.
func writeTimeMaps(w io.Writer, captures []timemap.Capture, archivePrefix string) error {
	lo := timemap.LinkOptions{ArchivePrefix: archivePrefix}
	for i := 0; i < len(captures); {
		j := i
		for j < len(captures) && captures[j].Key == captures[i].Key {
			j++
		}
		tm := &timemap.TimeMap{Key: captures[i].Key, URIR: captures[i].URIR, Captures: captures[i:j]}
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
}

// writeLog writes the crawl log, a JSON line a document.
func writeLog(w io.Writer, log []Entry) error {
	enc := json.NewEncoder(w)
	for i := range log {
		if err := enc.Encode(&log[i]); err != nil {
			return err
		}
	}
	return nil
}

// writeMissing writes the URLs the crawl could not collect, as TSV.
func writeMissing(w io.Writer, missing []Missing) error {
	fmt.Fprintln(w, "url\tdepth\tparent\treason")
	for _, m := range missing {
		fmt.Fprintf(w, "%s\t%d\t%s\t%s\n", m.URL, m.Depth, m.Parent, m.Reason)
	}
	return nil
}

// writeRelevance writes the relevance curve of log as CSV: per document
// collected, its TTR and the accumulated TTR, mean TTR, TopicR and TempR.
func writeRelevance(w io.Writer, log []Entry) error {
	fmt.Fprintln(w, "documents,ttr,accumulated_ttr,mean_ttr,accumulated_topic_r,accumulated_temp_r")
	var sum, topic, temp float64
	for i, e := range log {
		sum += e.TTR
		topic += e.TopicR
		temp += e.TempR
		fmt.Fprintf(w, "%d,%.6f,%.6f,%.6f,%.6f,%.6f\n", i+1, e.TTR, sum, sum/float64(i+1), topic, temp)
	}
	return nil
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
