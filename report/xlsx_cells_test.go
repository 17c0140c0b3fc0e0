package report

import (
	"archive/zip"
	"bufio"
	"bytes"
	"io"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"
)

// sheetDataOf is what a workbook's first sheet holds between <sheetData>
// and </sheetData>.
func sheetDataOf(t *testing.T, b []byte) string {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	rc, err := zr.Open("xl/worksheets/sheet1.xml")
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	x, err := io.ReadAll(rc)
	if err != nil {
		t.Fatal(err)
	}
	s := string(x)
	i, j := strings.Index(s, "<sheetData>"), strings.Index(s, "</sheetData>")
	if i < 0 || j < i {
		t.Fatalf("no sheetData in %.200s", s)
	}
	return s[i+len("<sheetData>") : j]
}

// TestCellsAsExcelizeWrites writes rows of every kind of value the
// Captures sheet holds, and of the hostile ones pages can hold, through
// excelize's StreamWriter and through appendRow and rowWriter: the sheet
// data must be the same, byte for byte.
func TestCellsAsExcelizeWrites(t *testing.T) {
	paris := time.FixedZone("CET", 3600)
	long := strings.Repeat("𝄞é", 9000) // 4-byte runes are two UTF-16 units
	strs := []string{"", "plain", " lead", "trail ", "\ttab", "new\nline\n", "cr\r", "a\"b'c<d>e&f", "&#xA; literal",
		"bad \xff\xfe utf8", "ctl \x01\x08 chars", "\uFFFD kept", "\uFFFE out", "x_x0041_y", "_x005F_x0041_", "_x005F_", "_x005F_zzz",
		"_xD800_ surrogate", "_x00e9__x0041_", "_X0041_ upper", "日本語テキスト", long, long[:len(long)-1], strings.Repeat("a", 40000),
		"=1+2", "'quoted"}
	floats := []float64{0, 1, -1, 0.1, 1.0 / 3, 2.0 / 3 * 1e-20, 123456789012345678, 1234567890.123456789, -0.000123456789012345678,
		math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64, math.NaN(), math.Inf(1), math.Inf(-1), 0.9999999999999999}
	times := []time.Time{time.Date(2005, 1, 14, 6, 45, 54, 0, time.UTC), time.Date(2005, 1, 14, 6, 45, 54, 123456789, paris),
		time.Date(1899, 12, 31, 0, 0, 0, 0, time.UTC), time.Date(1899, 12, 30, 23, 0, 0, 0, time.UTC), time.Date(1900, 2, 28, 12, 0, 0, 0, time.UTC),
		time.Date(1900, 3, 1, 0, 0, 0, 0, time.UTC), time.Date(2300, 6, 1, 0, 0, 0, 1, time.UTC), time.Date(1800, 1, 1, 0, 0, 0, 0, paris)}
	var rows [][]any
	for i, s := range strs {
		rows = append(rows, []any{s, nil, excelize.Cell{StyleID: 3, Value: s}, i, excelize.Cell{StyleID: 2, Value: -i}})
	}
	for _, f := range floats {
		rows = append(rows, []any{nil, f, excelize.Cell{StyleID: 4, Value: f}})
	}
	for _, tm := range times {
		rows = append(rows, []any{excelize.Cell{StyleID: 1, Value: tm}, excelize.Cell{StyleID: 5, Value: tm}, nil, nil, "t0"})
	}
	rows = append(rows, make([]any, 3), []any{}, make([]any, 40)) // empty rows, and a row out to column AN
	rows[len(rows)-1][39] = "AN"
	if _, _, err := cellTail(nil, time.Now()); err == nil {
		t.Error("a date without a style: no error")
	}

	f := excelize.NewFile()
	sw, err := f.NewStreamWriter("Sheet1")
	if err != nil {
		t.Fatal(err)
	}
	var recs []byte
	for i, row := range rows {
		if err := sw.SetRow("A"+strconv.Itoa(i+1), row); err != nil {
			t.Fatal(err)
		}
		if recs, err = appendRow(recs, "", row); err != nil {
			t.Fatal(err)
		}
	}
	if err := sw.Flush(); err != nil {
		t.Fatal(err)
	}
	b, err := f.WriteToBuffer()
	if err != nil {
		t.Fatal(err)
	}
	want := sheetDataOf(t, b.Bytes())

	var got bytes.Buffer
	bw := bufio.NewWriter(&got)
	rw := newRowWriter(bw, 40)
	for n := 1; len(recs) > 0; n++ {
		var r rowRecord
		if r, recs, err = nextRow(recs); err != nil {
			t.Fatal(err)
		}
		if err := rw.write(r, n, -1, 0); err != nil {
			t.Fatal(err)
		}
	}
	bw.Flush()
	if got.String() != want {
		g, w := got.String(), want
		i := 0
		for i < len(g) && i < len(w) && g[i] == w[i] {
			i++
		}
		t.Fatalf("sheet data differs at byte %d:\n got %.300q\nwant %.300q", i, g[max(i-100, 0):], w[max(i-100, 0):])
	}
}

// TestRowRecordLink: a row's link comes back, and the cell of the linked
// column gets its style as excelize would write it.
func TestRowRecordLink(t *testing.T) {
	rec, err := appendRow(nil, "http://a/?x=1&y=2", []any{"u", "http://a/?x=1&y=2", 3})
	if err != nil {
		t.Fatal(err)
	}
	r, rest, err := nextRow(rec)
	if err != nil || len(rest) != 0 || r.link != "http://a/?x=1&y=2" || r.n != 3 {
		t.Fatalf("nextRow = %+v, %d left, %v", r, len(rest), err)
	}
	var out bytes.Buffer
	bw := bufio.NewWriter(&out)
	if err := newRowWriter(bw, 3).write(r, 7, 1, 9); err != nil {
		t.Fatal(err)
	}
	bw.Flush()
	want := `<row r="7"><c r="A7" t="inlineStr"><is><t>u</t></is></c><c r="B7" s="9" t="inlineStr"><is><t>http://a/?x=1&amp;y=2</t></is></c><c r="C7"><v>3</v></c></row>`
	if out.String() != want {
		t.Errorf("row =\n%s\nwant\n%s", out.String(), want)
	}
	if _, _, err := nextRow(rec[:len(rec)-2]); err == nil {
		t.Error("a cut record read without error")
	}
}
