package report

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/xuri/excelize/v2"
)

// The Captures sheet holds a row per capture: its rows are encoded here,
// as excelize's StreamWriter would write them byte for byte
// (TestCellsAsExcelizeWrites holds the two together), but when each
// TimeMap is written rather than at Close, and without the cells'
// references, which depend on the sheet's order, known only at Close.
// Building excelize's cell structs, escaping each text twice and matching
// a regular expression in it cost more than the rest of a detect run that
// judges a grown collection's new captures.

// cellTail appends the XML of a cell holding v after its opening `<c
// r="REF"`: its style, type and value, through `</c>`. ok is false for a
// nil v, which excelize leaves out. v is what StreamWriter.SetRow takes, of
// the types the report writes: string, int, float64, or an excelize.Cell
// of one of those or of a time.Time.
func cellTail(dst []byte, v any) (out []byte, ok bool, err error) {
	style := 0
	if c, isCell := v.(excelize.Cell); isCell {
		style, v = c.StyleID, c.Value
	} else if v == nil {
		return dst, false, nil
	}
	var val string // the cell's <v>, when not an inline string
	switch v := v.(type) {
	case nil:
	case string:
		return inlineString(appendStyle(dst, style), v, true), true, nil
	case int:
		val = strconv.Itoa(v)
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return inlineString(appendStyle(dst, style), fmt.Sprint(v), true), true, nil
		}
		val = formatCellFloat(v)
	case time.Time:
		if style == 0 {
			return dst, false, errors.New("xlsx cell: a date without a style (excelize would make one)")
		}
		serial, wall := excelTime(v)
		if serial <= 0 {
			// excelize writes such a date as its text, unescaped.
			return inlineString(appendStyle(dst, style), wall.Format(time.RFC3339Nano), false), true, nil
		}
		val = strconv.FormatFloat(serial, 'f', -1, 64)
	default:
		return dst, false, fmt.Errorf("xlsx cell: a %T", v)
	}
	dst = append(appendStyle(dst, style), '>')
	if val != "" {
		dst = append(dst, "<v>"...)
		dst = append(dst, val...) // digits, a point, a minus: nothing to escape
		dst = append(dst, "</v>"...)
	}
	return append(dst, "</c>"...), true, nil
}

func appendStyle(dst []byte, style int) []byte {
	if style == 0 {
		return dst
	}
	dst = append(dst, ` s="`...)
	dst = strconv.AppendInt(dst, int64(style), 10)
	return append(dst, '"')
}

// inlineString appends an inline string cell's type and value: capped at
// excelize.TotalCellChars UTF-16 units, xml:space="preserve" where it
// starts or ends with white space, escaped for XML (but new lines) and
// for OOXML's _xHHHH_ escapes (unless raw).
func inlineString(dst []byte, s string, escape bool) []byte {
	// A UTF-8 string has at most as many UTF-16 units as bytes.
	if len(s) > excelize.TotalCellChars {
		s = truncateUTF16(s, excelize.TotalCellChars)
	}
	dst = append(dst, ` t="inlineStr"><is><t`...)
	if s != "" && (isEdgeSpace(s[0]) || isEdgeSpace(s[len(s)-1])) {
		dst = append(dst, ` xml:space="preserve"`...)
	}
	dst = append(dst, '>')
	if escape {
		at := len(dst)
		dst = escapeXMLText(dst, s)
		if strings.Contains(string(dst[at:]), "_x") {
			dst = append(dst[:at], bstrMarshal(string(dst[at:]))...)
		}
	} else {
		dst = append(dst, s...)
	}
	return append(dst, "</t></is></c>"...)
}

func isEdgeSpace(b byte) bool { return b == '\t' || b == '\n' || b == '\r' || b == ' ' }

// truncateUTF16 cuts s to at most n UTF-16 units, at a rune's start.
func truncateUTF16(s string, n int) string {
	units := 0
	for i, r := range s {
		if units += utf16.RuneLen(r); units > n {
			return s[:i]
		}
	}
	return s
}

// escapeXMLText appends s escaped as xml.EscapeText escapes it, but for new
// lines, which excelize writes as they are.
func escapeXMLText(dst []byte, s string) []byte {
	last := 0
	for i := 0; i < len(s); {
		b := s[i]
		if b < utf8.RuneSelf && b >= 0x20 && b != '"' && b != '\'' && b != '&' && b != '<' && b != '>' {
			i++
			continue
		}
		r, width := utf8.DecodeRuneInString(s[i:])
		var esc string
		switch r {
		case '"':
			esc = "&#34;"
		case '\'':
			esc = "&#39;"
		case '&':
			esc = "&amp;"
		case '<':
			esc = "&lt;"
		case '>':
			esc = "&gt;"
		case '\t':
			esc = "&#x9;"
		case '\n':
			esc = "\n"
		case '\r':
			esc = "&#xD;"
		default:
			if !isInCharacterRange(r) || (r == utf8.RuneError && width == 1) {
				esc = "\uFFFD"
				break
			}
			i += width
			continue
		}
		dst = append(dst, s[last:i]...)
		dst = append(dst, esc...)
		i += width
		last = i
	}
	return append(dst, s[last:]...)
}

// isInCharacterRange is encoding/xml's: whether r may appear in XML text.
func isInCharacterRange(r rune) bool {
	return r == 0x09 || r == 0x0A || r == 0x0D || r >= 0x20 && r <= 0xD7FF || r >= 0xE000 && r <= 0xFFFD || r >= 0x10000 && r <= 0x10FFFF
}

var (
	bstrExp       = regexp.MustCompile(`_x[a-fA-F\d]{4}_`)
	bstrEscapeExp = regexp.MustCompile(`x[a-fA-F\d]{4}_`)
)

// bstrMarshal escapes what a spreadsheet would read as an _xHHHH_ escape
// of a character, as excelize does (and as it does, it drops an escape of
// a UTF-16 surrogate).
func bstrMarshal(s string) string {
	var out strings.Builder
	cursor := 0
	for _, m := range bstrExp.FindAllStringIndex(s, -1) {
		out.WriteString(s[cursor:m[0]])
		sub := s[m[0]:m[1]]
		cursor = m[1]
		if sub == "_x005F_" {
			if m[1]+6 <= len(s) && bstrEscapeExp.MatchString(s[m[1]:m[1]+6]) && validEscape(s[m[1]+1:m[1]+5]) {
				out.WriteString(sub + "x005F" + sub)
				continue
			}
			out.WriteString(sub + "x005F_")
			continue
		}
		if validEscape(sub[2:6]) {
			out.WriteString("_x005F" + sub)
		}
	}
	out.WriteString(s[cursor:])
	return out.String()
}

// validEscape reports whether hex (four hex digits) names a character
// (not a UTF-16 surrogate).
func validEscape(hex string) bool {
	_, err := strconv.Unquote(`"\u` + hex + `"`)
	return err == nil
}

// formatCellFloat formats v as excelize does: the shortest form that reads
// back as v, cut to Excel's 15 significant digits.
func formatCellFloat(v float64) string {
	str := strconv.FormatFloat(v, 'f', -1, 64)
	if math.Abs(v) == math.MaxFloat64 {
		return str
	}
	const maxPrec = 15
	decimal := strings.IndexByte(str, '.')
	significant := 0
	for i := range len(str) {
		if str[i] < '0' || str[i] > '9' || significant == 0 && str[i] == '0' {
			continue
		}
		significant++
		if significant <= maxPrec {
			continue
		}
		if decimal >= 0 && i > decimal {
			return strings.TrimSuffix(str[:i], ".")
		}
		if decimal < 0 {
			decimal = len(str)
		}
		cut := []byte(str[:decimal])
		for ; i < len(cut); i++ {
			cut[i] = '0'
		}
		return string(cut)
	}
	return str
}

// Excel's 1900 date system, as excelize reckons it.
var (
	excelMinTime1900      = time.Date(1899, time.December, 31, 0, 0, 0, 0, time.UTC)
	excelBuggyPeriodStart = time.Date(1900, time.March, 1, 0, 0, 0, 0, time.UTC).Add(-time.Nanosecond)
)

// excelTime is t's wall clock in its zone (wall, the instant as far from
// UTC as t's zone) as an Excel serial date, 0 before 1900 (which excelize
// writes as text).
func excelTime(t time.Time) (serial float64, wall time.Time) {
	_, offset := t.Zone()
	t = t.Add(time.Duration(offset) * time.Second)
	if t.Before(excelMinTime1900) {
		return 0, t
	}
	const day = 24 * time.Hour
	const maxDuration = 290 * 364 * day
	tt, diff := t, t.Sub(excelMinTime1900)
	for diff >= maxDuration {
		serial += float64(maxDuration / day)
		tt = tt.Add(-maxDuration)
		diff = tt.Sub(excelMinTime1900)
	}
	rem := diff % day
	serial += float64(diff-rem)/float64(day) + float64(rem)/float64(day)
	if t.After(excelBuggyPeriodStart) {
		serial++
	}
	return serial, t
}

// A row record is a row of the Captures sheet as Write leaves it for
// Close: the URI-M it may link to (empty when it cannot be a hyperlink),
// then each cell not nil: its column and tail (cellTail).

// appendRow appends a row record of row (values as StreamWriter.SetRow
// takes them, from column A) whose URI-M link is link ("": none).
func appendRow(dst []byte, link string, row []any) ([]byte, error) {
	dst = binary.AppendUvarint(dst, uint64(len(link)))
	dst = append(dst, link...)
	n := 0
	for _, v := range row {
		if v != nil {
			n++
		}
	}
	dst = binary.AppendUvarint(dst, uint64(n))
	var err error
	for col, v := range row {
		if v == nil {
			continue
		}
		dst = binary.AppendUvarint(dst, uint64(col))
		at := len(dst)
		dst = append(dst, 0, 0, 0) // the tail's length, room for three bytes
		var ok bool
		if dst, ok, err = cellTail(dst, v); err != nil {
			return nil, err
		} else if !ok {
			return nil, fmt.Errorf("xlsx row: column %d: no value", col)
		}
		if err := putLength(dst, at); err != nil {
			return nil, err
		}
	}
	return dst, nil
}

// putLength writes the length of what follows the three bytes at dst[at:]
// into them (big-endian).
func putLength(dst []byte, at int) error {
	n := len(dst) - at - 3
	if n >= 1<<24 {
		return fmt.Errorf("xlsx cell of %d bytes", n)
	}
	dst[at], dst[at+1], dst[at+2] = byte(n>>16), byte(n>>8), byte(n)
	return nil
}

// rowRecord is a row record read back.
type rowRecord struct {
	link  string
	cells []byte // the cells, as appendRow wrote them
	n     int    // how many
}

// nextRow reads the row record at the start of b and returns the rest.
func nextRow(b []byte) (rowRecord, []byte, error) {
	var r rowRecord
	l, k := binary.Uvarint(b)
	if k <= 0 || uint64(len(b)-k) < l {
		return r, nil, errors.New("xlsx spool: bad row record")
	}
	r.link, b = string(b[k:k+int(l)]), b[k+int(l):]
	n, k := binary.Uvarint(b)
	if k <= 0 {
		return r, nil, errors.New("xlsx spool: bad row record")
	}
	b = b[k:]
	r.n = int(n)
	cells := b
	for range r.n {
		_, k := binary.Uvarint(b)
		if k <= 0 || len(b) < k+3 {
			return r, nil, errors.New("xlsx spool: bad cell")
		}
		l := int(b[k])<<16 | int(b[k+1])<<8 | int(b[k+2])
		if len(b) < k+3+l {
			return r, nil, errors.New("xlsx spool: bad cell")
		}
		b = b[k+3+l:]
	}
	r.cells = cells[:len(cells)-len(b)]
	return r, b, nil
}

// rowWriter writes row records as a sheet's rows.
type rowWriter struct {
	w    *bufio.Writer
	cols []string // names of the columns
	num  []byte   // the row's number
	buf  []byte
}

func newRowWriter(w *bufio.Writer, cols int) *rowWriter {
	rw := &rowWriter{w: w}
	for i := range cols {
		name, _ := excelize.ColumnNumberToName(i + 1)
		rw.cols = append(rw.cols, name)
	}
	return rw
}

// write writes r as row n; the cell of column styleCol (-1: none) gets the
// style style (its record has none).
func (rw *rowWriter) write(r rowRecord, n, styleCol, style int) error {
	w := rw.w
	rw.num = strconv.AppendInt(rw.num[:0], int64(n), 10)
	w.WriteString(`<row r="`)
	w.Write(rw.num)
	w.WriteString(`">`)
	b := r.cells
	for range r.n {
		col, k := binary.Uvarint(b)
		if col >= uint64(len(rw.cols)) {
			return fmt.Errorf("xlsx spool: column %d", col)
		}
		l := int(b[k])<<16 | int(b[k+1])<<8 | int(b[k+2])
		w.WriteString(`<c r="`)
		w.WriteString(rw.cols[col])
		w.Write(rw.num)
		w.WriteByte('"')
		if int(col) == styleCol {
			rw.buf = appendStyle(rw.buf[:0], style)
			w.Write(rw.buf)
		}
		w.Write(b[k+3 : k+3+l])
		b = b[k+3+l:]
	}
	_, err := w.WriteString(`</row>`)
	return err
}
