// Package report owns renderings of detection results: the results file (JSON
// lines, one TimeMap per line, the only hand-off between detection and
// everything after it), OTMT-style JSON, CSV, the XLSX and HTML reports a
// curator reviews in, and reading the curator's decisions back (from the
// XLSX or the decisions.csv the HTML report saves). A report never recomputes
// a score.
package report

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"iter"
	"time"

	"github.com/offtopic/offtopic/similarity"
)

// Run describes a detection run: what went in and how it was scored. It is
// the first line of a results file.
type Run struct {
	Tool       string    `json:"tool"`
	Version    string    `json:"version"`
	Started    time.Time `json:"started"`
	Inputs     []string  `json:"inputs"`
	Measures   string    `json:"measures"`
	ArchiveURL string    `json:"archive_url"`
	// Options records the remaining settings as name: value.
	Options map[string]string `json:"options,omitempty"`
	// Review, when set, is what the collection's state adds to the HTML
	// and XLSX reports: decisions and what is new (not in the results
	// file, the OTMT JSON or the CSV, which a run over all files would
	// write alike).
	Review *Review `json:"-"`
}

// line is one line of a results file: either the run or a TimeMap.
type line struct {
	Run *Run `json:"run,omitempty"`
	*similarity.TimeMapResult
}

// ResultsWriter writes a results file: the Run, then one JSON line per TimeMap.
type ResultsWriter struct {
	w   io.Writer
	buf []byte
}

// NewResultsWriter starts a results file on w with the run's description.
func NewResultsWriter(w io.Writer, run *Run) (*ResultsWriter, error) {
	if run != nil {
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(line{Run: run}); err != nil {
			return nil, err
		}
	}
	return &ResultsWriter{w: w}, nil
}

// Write adds one TimeMap's results.
func (w *ResultsWriter) Write(r *similarity.TimeMapResult) error {
	b, err := appendResultJSON(w.buf[:0], r)
	if err != nil {
		return fmt.Errorf("TimeMap %s: %w", r.URIR, err)
	}
	w.buf = append(b, '\n')
	_, err = w.w.Write(w.buf)
	return err
}

// Close implements Writer; a results file needs no ending.
func (w *ResultsWriter) Close() error { return nil }

// ReadResults iterates over a results file: the run (nil when the file has
// none) is returned first through run, then each TimeMap. Errors name the line.
func ReadResults(r io.Reader, name string, run *Run) iter.Seq2[*similarity.TimeMapResult, error] {
	return func(yield func(*similarity.TimeMapResult, error) bool) {
		br := bufio.NewReaderSize(r, 1<<20)
		for n := 1; ; n++ {
			b, err := br.ReadBytes('\n')
			if len(b) > 0 && !isBlank(b) {
				var l line
				if jerr := json.Unmarshal(b, &l); jerr != nil {
					if !yield(nil, fmt.Errorf("%s line %d: %w", name, n, jerr)) {
						return
					}
				} else if l.Run != nil {
					if run != nil {
						*run = *l.Run
					}
				} else if l.TimeMapResult != nil && !yield(l.TimeMapResult, nil) {
					return
				}
			}
			if err == io.EOF {
				return
			}
			if err != nil {
				yield(nil, fmt.Errorf("read %s: %w", name, err))
				return
			}
		}
	}
}

func isBlank(b []byte) bool {
	for _, c := range b {
		if c != ' ' && c != '\n' && c != '\r' && c != '\t' {
			return false
		}
	}
	return true
}
