package report

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/offtopic/offtopic/similarity"
	"github.com/offtopic/offtopic/timemap"
)

// maxDecisionsUnzip caps the unzipped size of a reviewed XLSX (a report of
// a million captures is well under it).
const maxDecisionsUnzip = 256 << 20

// ReadDecisions reads curator decisions: the DecisionColumn of the Captures
// sheet of a reviewed XLSX report, or of a CSV file (".csv": what the HTML
// report's review saves, or any table with the same column names). Columns
// are found by their header names, so rows may be re-sorted and columns added
// or moved. A decision is on-topic or off-topic in any case and spelling
// ("Off-topic", "off topic", "off", "ON"), or unsure ("unsure", "?": kept
// as DecisionUnsure, which prune keeps by default and a gold standard
// leaves out); empty cells are skipped. Each decided capture is keyed as similarity.KeyOf keys results: by
// the key and timestamp columns the reports write (exactly KeyOf), else by its
// URI-M where that has a 14-digit timestamp, else by uri_r and datetime.
// Errors name the file, sheet and row.
func ReadDecisions(path string) (map[similarity.GoldKey]string, error) {
	if strings.EqualFold(filepath.Ext(path), ".csv") {
		return readDecisionsCSV(path)
	}
	if err := isWorkbook(path); err != nil {
		return nil, err
	}
	// A zip entry's declared size is allocated up front: cap it, or a few
	// KB claiming gigabytes exhaust memory (excelize allows 16 GB).
	f, err := excelize.OpenFile(path, excelize.Options{UnzipSizeLimit: maxDecisionsUnzip})
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	defer f.Close()
	d := &decisionReader{where: path + ", sheet " + SheetCaptures}
	if p, err := f.GetWorkbookProps(); err == nil && p.Date1904 != nil {
		d.date1904 = *p.Date1904
	}
	rows, err := f.Rows(SheetCaptures)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	defer rows.Close()
	for n := 1; rows.Next(); n++ {
		cells, err := rows.Columns(excelize.Options{RawCellValue: true})
		if err != nil {
			return nil, fmt.Errorf("%s, row %d: %w", d.where, n, err)
		}
		if err := d.row(n, cells); err != nil {
			return nil, err
		}
	}
	if err := rows.Error(); err != nil {
		return nil, fmt.Errorf("%s: %w", d.where, err)
	}
	return d.result()
}

// isWorkbook refuses a file that is not a zip archive (an XLSX workbook is
// one) with what to give instead.
func isWorkbook(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	head := make([]byte, 512)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	if bytes.HasPrefix(head, []byte("PK\x03\x04")) {
		return nil
	}
	const want = "want the decisions-COLLECTION-TIME.csv the HTML report's Save decisions writes, or the workbook (XLSX) with its curator decision column filled in"
	if bytes.Contains(bytes.ToLower(head), []byte("<html")) || bytes.Contains(bytes.ToLower(head), []byte("<!doctype html")) {
		return fmt.Errorf("%s is an HTML page (the report itself?), not decisions: open it in a browser, mark captures and Save decisions; %s", path, want)
	}
	return fmt.Errorf("%s is neither a CSV file (named .csv) nor a workbook: %s", path, want)
}

// readDecisionsCSV reads decisions from a CSV file with a header row.
func readDecisionsCSV(path string) (map[similarity.GoldKey]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	cr := csv.NewReader(bufio.NewReader(f))
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	d := &decisionReader{where: path}
	for n := 1; ; n++ {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if n == 1 && len(rec) > 0 {
			rec[0] = strings.TrimPrefix(rec[0], "\ufeff")
		}
		if err := d.row(n, rec); err != nil {
			return nil, err
		}
	}
	return d.result()
}

// decisionReader collects decisions row by row: the header first (within the
// first 20 rows), then one capture per row.
type decisionReader struct {
	where    string
	date1904 bool
	col      map[string]int
	out      map[similarity.GoldKey]string
	from     map[similarity.GoldKey]int // row that decided each key
}

func (d *decisionReader) row(n int, cells []string) error {
	if d.col == nil {
		if d.col = decisionHeader(cells); d.col == nil && n >= 20 {
			return fmt.Errorf("%s: no %q column in the first 20 rows", d.where, DecisionColumn)
		}
		d.out, d.from = map[similarity.GoldKey]string{}, map[similarity.GoldKey]int{}
		return nil
	}
	cell := func(name string) string {
		if i, ok := d.col[name]; ok && i < len(cells) {
			return unneutralise(strings.TrimSpace(cells[i]))
		}
		return ""
	}
	dec, err := parseDecision(cell("decision"))
	if err != nil {
		return fmt.Errorf("%s, row %d: %w", d.where, n, err)
	}
	if dec == "" {
		return nil
	}
	k, err := rowKey(cell, d.date1904)
	if err != nil {
		return fmt.Errorf("%s, row %d: %w", d.where, n, err)
	}
	if prev, ok := d.out[k]; ok && prev != dec {
		return fmt.Errorf("%s, row %d: decides %s@%s %s, but row %d decided it %s", d.where, n, k.Key, k.TS, dec, d.from[k], prev)
	}
	d.out[k], d.from[k] = dec, n
	return nil
}

func (d *decisionReader) result() (map[similarity.GoldKey]string, error) {
	if d.col == nil {
		return nil, fmt.Errorf("%s: no %q column", d.where, DecisionColumn)
	}
	return d.out, nil
}

// DecisionsGold turns curator decisions into a gold standard: off-topic
// decisions are Off; unsure ones are left out. ReadDecisions does not keep URI-Ms, so each label's
// URIM is the capture's timestamp and SURT key ("20080312101500/org,example)/").
func DecisionsGold(decisions map[similarity.GoldKey]string) similarity.Gold {
	g := make(similarity.Gold, len(decisions))
	for k, d := range decisions {
		if d != DecisionOn && d != DecisionOff {
			continue // unsure: no label
		}
		g[k] = similarity.GoldLabel{URIM: k.TS + "/" + k.Key, Off: d == DecisionOff}
	}
	return g
}

// decisionHeader maps the columns of a header row (nil when the row is not
// the header): "decision", "uri_r", "uri_m", "datetime", "key", "timestamp".
func decisionHeader(cells []string) map[string]int {
	col := map[string]int{}
	for i, c := range cells {
		h := strings.Join(strings.FieldsFunc(strings.ToLower(c), func(r rune) bool {
			return r == ' ' || r == '_' || r == '-' || r == '\t'
		}), "_")
		var name string
		switch h {
		case "curator_decision", "decision":
			name = "decision"
		case "uri_r", "urir":
			name = "uri_r"
		case "uri_m", "urim":
			name = "uri_m"
		case "datetime", "datetime_(utc)", "memento_datetime":
			name = "datetime"
		case "key", "surt", "surt_key":
			name = "key"
		case "timestamp":
			name = "timestamp"
		default:
			continue
		}
		if _, dup := col[name]; !dup {
			col[name] = i
		}
	}
	if _, ok := col["decision"]; !ok {
		return nil
	}
	return col
}

// parseDecision normalises a decision: DecisionOn, DecisionOff,
// DecisionUnsure, or "" for an empty cell.
func parseDecision(s string) (string, error) {
	d := strings.Join(strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return r == ' ' || r == '-' || r == '_' }), "")
	switch d {
	case "ontopic", "on":
		return DecisionOn, nil
	case "offtopic", "off":
		return DecisionOff, nil
	case "unsure", "?":
		return DecisionUnsure, nil
	case "":
		return "", nil
	}
	return "", fmt.Errorf("%s %q is not on-topic, off-topic or unsure", DecisionColumn, s)
}

// unneutralise takes off the apostrophe SafeCell put before text a
// spreadsheet could read as a formula.
func unneutralise(s string) string {
	if len(s) > 1 && s[0] == '\'' && strings.ContainsRune("=+-@\t\r", rune(s[1])) {
		return s[1:]
	}
	return s
}

var timestamp14 = regexp.MustCompile(`^\d{14}$`)

// rowKey is the GoldKey of a Captures row; cell reads a named column.
func rowKey(cell func(string) string, date1904 bool) (similarity.GoldKey, error) {
	capped := func(s string) bool { return strings.HasSuffix(s, "…") && len(s) >= MaxCellChars }
	ts := cell("timestamp")
	if k := cell("key"); k != "" && !capped(k) && timestamp14.MatchString(ts) {
		return similarity.GoldKey{Key: k, TS: ts}, nil
	}
	if m := cell("uri_m"); m != "" && !capped(m) {
		if k, ok := similarity.KeyOfURIM(m); ok {
			return k, nil
		}
	}
	r := cell("uri_r")
	if r == "" || capped(r) {
		return similarity.GoldKey{}, fmt.Errorf("no URI-M with a 14-digit timestamp, no key and timestamp, and no uri_r to match the decision by")
	}
	if !timestamp14.MatchString(ts) {
		at, err := parseDatetime(cell("datetime"), date1904)
		if err != nil {
			return similarity.GoldKey{}, err
		}
		ts = at.UTC().Format("20060102150405")
	}
	return similarity.GoldKey{Key: timemap.Canonicalize(r, timemap.CanonSURT), TS: ts}, nil
}

// parseDatetime reads a datetime cell: a spreadsheet date serial (UTC), or
// text in RFC 3339 or "2006-01-02 15:04:05" (UTC).
func parseDatetime(s string, date1904 bool) (time.Time, error) {
	if s == "" {
		return time.Time{}, fmt.Errorf("no datetime to match the decision by")
	}
	if v, err := strconv.ParseFloat(s, 64); err == nil {
		t, err := excelize.ExcelDateToTime(v, date1904)
		if err != nil {
			return time.Time{}, fmt.Errorf("datetime %q: %w", s, err)
		}
		return t.Round(time.Second), nil
	}
	for _, layout := range []string{time.RFC3339, "2006-01-02 15:04:05", "2006-01-02T15:04:05", "20060102150405"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("datetime %q is neither a date cell nor RFC 3339", s)
}
