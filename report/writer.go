package report

import (
	"fmt"
	"io"

	"github.com/offtopic/offtopic/similarity"
)

// Writer renders a stream of TimeMap results in one format. Results arrive in
// key order; Close finishes the output (a Writer never closes the underlying
// io.Writer).
type Writer interface {
	Write(r *similarity.TimeMapResult) error
	Close() error
}

// Formats lists the formats detect writes by default, in order.
var Formats = []string{"jsonl", "json", "csv"}

// ReportFormats lists every format New knows: what --report-dir writes.
var ReportFormats = []string{"jsonl", "json", "csv", "xlsx", "html"}

// FileName is the name each format gets in an output directory.
func FileName(format string) string {
	switch format {
	case "jsonl":
		return "results.jsonl"
	case "json":
		return "offtopic.json"
	case "csv":
		return "offtopic.csv"
	case "xlsx":
		return "offtopic.xlsx"
	case "html":
		return "offtopic.html"
	}
	return "offtopic." + format
}

// New returns the Writer of a format over w. run describes the detection run
// (its rule decides which scores a report marks as crossing a threshold).
func New(format string, w io.Writer, run *Run) (Writer, error) {
	rule, err := run.Rule()
	if err != nil {
		return nil, err
	}
	var rw Writer
	switch format {
	case "jsonl", "results":
		rw, err = NewResultsWriter(w, run)
	case "json", "otmt":
		rw = NewOTMTWriter(w, rule)
	case "csv":
		rw, err = NewCSVWriter(w)
	case "xlsx":
		rw, err = NewXLSXWriter(w, run)
	case "html":
		rw, err = NewHTMLWriter(w, run)
	default:
		return nil, fmt.Errorf("unknown format %q (known: %v)", format, ReportFormats)
	}
	if err != nil {
		return nil, err
	}
	return rw, nil
}

// Rule is the rule the run decided by (the paper's default where the run
// does not say).
func (r *Run) Rule() (similarity.Rule, error) {
	m := similarity.DefaultMeasures
	if r != nil && r.Measures != "" {
		m = r.Measures
	}
	rule, err := similarity.ParseRule(m)
	if err != nil {
		return nil, fmt.Errorf("measures of the run: %w", err)
	}
	return rule, nil
}
