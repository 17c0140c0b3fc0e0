package report

import (
	"encoding/csv"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/offtopic/offtopic/similarity"
)

// MaxCellChars caps text cells; archived pages can hold anything.
const MaxCellChars = 2000

// SafeCell makes text from an archived page safe for a spreadsheet cell: it
// caps its length and neutralises what a spreadsheet would take as a formula
// (a leading =, +, -, @, tab or carriage return) by prefixing an apostrophe.
func SafeCell(s string) string {
	if len(s) > MaxCellChars {
		cut := MaxCellChars
		for cut > 0 && !utf8Start(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }

// CSVHeader is the header of the CSV report: a row per capture.
func CSVHeader() []string {
	h := []string{"uri_r", "uri_m", "datetime", "status", "mime", "word_count", "byte_count", "extractor", "lang"}
	h = append(h, similarity.StandardMeasureNames()...)
	return append(h, "verdict", "kind", "reason", "t0")
}

// CSVWriter writes the CSV report.
type CSVWriter struct {
	w        *csv.Writer
	measures []string // similarity.StandardMeasureNames
	row      []string
}

// NewCSVWriter writes the header and returns the writer.
func NewCSVWriter(w io.Writer) (*CSVWriter, error) {
	cw := &CSVWriter{w: csv.NewWriter(w), measures: similarity.StandardMeasureNames()}
	return cw, cw.w.Write(CSVHeader())
}

// Write adds the rows of one TimeMap.
func (c *CSVWriter) Write(r *similarity.TimeMapResult) error {
	for i := range r.Captures {
		cr := &r.Captures[i]
		row := append(c.row[:0], SafeCell(cr.URIR), SafeCell(cr.URIM), cr.Datetime.UTC().Format(time.RFC3339), strconv.Itoa(cr.Status),
			SafeCell(cr.MIME), strconv.Itoa(cr.WordCount), strconv.Itoa(cr.ByteCount), cr.Extractor, cr.Lang)
		for _, m := range c.measures {
			if s, ok := cr.Scores[m]; ok {
				row = append(row, strconv.FormatFloat(s, 'f', 4, 64))
			} else {
				row = append(row, "")
			}
		}
		t0 := ""
		if cr.IsT0 {
			t0 = "t0"
		}
		row = append(row, cr.Verdict, string(cr.Kind), SafeCell(cr.Reason), t0)
		c.row = row
		if err := c.w.Write(row); err != nil {
			return err
		}
	}
	return nil
}

// Close writes buffered rows and reports any write error.
func (c *CSVWriter) Close() error {
	c.w.Flush()
	return c.w.Error()
}
