package report

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"image/color"
	"image/png"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/offtopic/offtopic/similarity"
)

const (
	xlsxHostileTitle = `=HYPERLINK("http://evil","x")`
	xlsxHostileMIME  = `+cmd|' /C calc'!A0`
	xlsxHostileURIR  = "@evil.example/page"
)

// xlsxResults is a small collection in key order: the sample TimeMap, one
// with hostile text, and one whose t0 is not its first capture.
func xlsxResults() []*similarity.TimeMapResult {
	at := time.Date(2012, 6, 1, 8, 0, 0, 0, time.UTC)
	hostile := &similarity.TimeMapResult{Key: "evil", URIR: xlsxHostileURIR, T0: "", T0Reason: "no capture with HTTP 200, an HTML type and at least 10 words",
		Captures: []similarity.CaptureResult{
			{URIR: xlsxHostileURIR, URIM: "http://a/20120601080000/" + xlsxHostileURIR, Datetime: at, Status: 200, MIME: xlsxHostileMIME,
				Title: xlsxHostileTitle, Scores: map[string]float64{"cosine": 0.01}, Verdict: similarity.VerdictOff,
				Kind: similarity.KindSpam, Reason: strings.Repeat("x", 40000)},
			{URIR: xlsxHostileURIR, URIM: "ftp://a/20130601080000/x", Datetime: at.AddDate(1, 0, 0), Status: 200, MIME: "text/html",
				Title: "-1+1", Verdict: similarity.VerdictNotScored, Reason: "=1+1"},
		}}
	swapped := &similarity.TimeMapResult{Key: "org,lighthouse)/", URIR: "http://lighthouse.org/", T0: "http://a/20100101000000/http://lighthouse.org/",
		T0Reason: "first capture http://a/20090101000000/http://lighthouse.org/ looks off the collection's topic", Captures: []similarity.CaptureResult{
			{URIR: "http://lighthouse.org/", URIM: "http://a/20090101000000/http://lighthouse.org/", Datetime: time.Date(2009, 1, 1, 0, 0, 0, 0, time.UTC),
				Status: 200, MIME: "text/html", Scores: map[string]float64{"cosine": 0.05, "wordcount": -0.9, "topic": 0.1}, Verdict: similarity.VerdictOff,
				Reason: "cosine 0.050 < 0.1; wordcount -0.900 < -0.85"},
			{URIR: "http://lighthouse.org/", URIM: "http://a/20100101000000/http://lighthouse.org/", Datetime: time.Date(2010, 1, 1, 0, 0, 0, 0, time.UTC),
				Status: 200, MIME: "text/html", Scores: map[string]float64{"cosine": 1, "wordcount": 0, "topic": 1}, Verdict: similarity.VerdictOn,
				Reason: "t0", IsT0: true},
			{URIR: "http://lighthouse.org/", URIM: "http://a/20110101000000/http://lighthouse.org/", Datetime: time.Date(2011, 1, 1, 0, 0, 0, 0, time.UTC),
				Status: 200, MIME: "text/html", Scores: map[string]float64{"cosine": 0.5, "wordcount": -0.1, "topic": 0.9}, Verdict: similarity.VerdictOn,
				Reason: "no threshold crossed"},
		}}
	return []*similarity.TimeMapResult{hostile, swapped, sampleResult()}
}

func xlsxRun() *Run {
	return &Run{Tool: "offtopic", Version: "test", Started: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC), Measures: "cosine=0.1,wordcount=-0.85",
		Inputs: []string{"a.warc.gz", "=evil.warc.gz"}, Options: map[string]string{"idf": "timemap"}}
}

// writeXLSX writes results as an XLSX report into a temporary file.
func writeXLSX(t testing.TB, run *Run, results []*similarity.TimeMapResult) string {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewXLSXWriter(&buf, run)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range results {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if keep := os.Getenv("OFFTOPIC_KEEP_XLSX"); keep != "" {
		dir = keep // to look at the workbook by hand
	}
	p := filepath.Join(dir, t.Name()+".xlsx")
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func openXLSX(t testing.TB, p string) *excelize.File {
	t.Helper()
	f, err := excelize.OpenFile(p)
	if err != nil {
		t.Fatalf("open %s: %v", p, err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// column returns the 1-based column of a header name on the Captures sheet.
func column(t testing.TB, name string) string {
	t.Helper()
	i := slices.Index(XLSXCapturesHeader(), name)
	if i < 0 {
		t.Fatalf("no column %q", name)
	}
	c, _ := excelize.ColumnNumberToName(i + 1)
	return c
}

func TestXLSXWorkbook(t *testing.T) {
	results := xlsxResults()
	p := writeXLSX(t, xlsxRun(), results)
	f := openXLSX(t, p)

	if got, want := f.GetSheetList(), []string{SheetSummary, SheetTimeMaps, SheetCaptures, SheetTimeline}; !slices.Equal(got, want) {
		t.Fatalf("sheets %v, want %v", got, want)
	}
	rows, err := f.GetRows(SheetCaptures)
	if err != nil {
		t.Fatal(err)
	}
	ncap := 0
	for _, r := range results {
		ncap += len(r.Captures)
	}
	if len(rows) != ncap+1 {
		t.Errorf("Captures has %d rows, want header + %d", len(rows), ncap)
	}
	if !slices.Equal(rows[0], XLSXCapturesHeader()) {
		t.Errorf("Captures header %v, want %v", rows[0], XLSXCapturesHeader())
	}
	tmRows, err := f.GetRows(SheetTimeMaps)
	if err != nil {
		t.Fatal(err)
	}
	if len(tmRows) != len(results)+1 || tmRows[0][0] != "uri_r" {
		t.Errorf("TimeMaps has %d rows (header %v), want header + %d", len(tmRows), tmRows[0], len(results))
	}

	// No cell anywhere is a formula; hostile text is stored neutralised.
	for _, sheet := range f.GetSheetList() {
		rows, err := f.GetRows(sheet)
		if err != nil {
			t.Fatal(err)
		}
		for i, row := range rows {
			for j, v := range row {
				cell, _ := excelize.CoordinatesToCellName(j+1, i+1)
				if fo, err := f.GetCellFormula(sheet, cell); err != nil || fo != "" {
					t.Errorf("%s!%s has formula %q (%v)", sheet, cell, fo, err)
				}
				if v != "" && strings.ContainsRune("=+-@", rune(v[0])) {
					if _, err := strconv.ParseFloat(v, 64); err != nil {
						t.Errorf("%s!%s = %q starts like a formula", sheet, cell, v)
					}
				}
				if len(v) > MaxCellChars+len("'…") {
					t.Errorf("%s!%s holds %d bytes, more than the cap", sheet, cell, len(v))
				}
			}
		}
	}
	get := func(sheet, cell string) string {
		t.Helper()
		v, err := f.GetCellValue(sheet, cell)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	checks := []struct{ sheet, cell, want string }{
		{SheetCaptures, "A2", "'" + xlsxHostileURIR},
		{SheetCaptures, column(t, "title") + "2", "'" + xlsxHostileTitle},
		{SheetCaptures, column(t, "mime") + "2", "'" + xlsxHostileMIME},
		{SheetCaptures, column(t, "title") + "3", "'-1+1"},
		{SheetCaptures, column(t, "reason") + "3", "'=1+1"},
		{SheetCaptures, column(t, "verdict") + "2", similarity.VerdictOff},
		{SheetCaptures, column(t, "off-topic kind") + "2", similarity.KindSpam.Label()},
		{SheetCaptures, column(t, "off-topic kind") + "3", ""},
		{SheetCaptures, column(t, "timestamp") + "2", "20120601080000"},
		{SheetTimeMaps, "A2", "'" + xlsxHostileURIR},
		{SheetTimeMaps, "M1", "off-topic kinds"},
		{SheetTimeMaps, "M2", similarity.KindSpam.Label()},
	}
	for _, c := range checks {
		if got := get(c.sheet, c.cell); got != c.want {
			t.Errorf("%s!%s = %q, want %q", c.sheet, c.cell, got, c.want)
		}
	}
	if r := get(SheetCaptures, column(t, "reason")+"2"); len(r) > MaxCellChars+len("…") || !strings.HasSuffix(r, "…") {
		t.Errorf("40,000-character reason stored as %d bytes", len(r))
	}

	// Dates are numbers with a date format.
	dc := column(t, "datetime") + "2"
	raw, err := f.GetCellValue(SheetCaptures, dc, excelize.Options{RawCellValue: true})
	if err != nil {
		t.Fatal(err)
	}
	serial, err := strconv.ParseFloat(raw, 64)
	if err != nil {
		t.Fatalf("date cell %s = %q, not a number", dc, raw)
	}
	if got, _ := excelize.ExcelDateToTime(serial, false); !got.Equal(time.Date(2012, 6, 1, 8, 0, 0, 0, time.UTC)) {
		t.Errorf("date cell %s = %v", dc, got)
	}
	sid, err := f.GetCellStyle(SheetCaptures, dc)
	if err != nil {
		t.Fatal(err)
	}
	if st, err := f.GetStyle(sid); err != nil || st.CustomNumFmt == nil || !strings.Contains(*st.CustomNumFmt, "yyyy") {
		t.Errorf("date cell %s has style %+v (%v), want a date format", dc, st, err)
	}

	// URI-M cells link to http(s) URI-Ms only.
	if ok, target, err := f.GetCellHyperLink(SheetCaptures, "B2"); err != nil || !ok || target != results[0].Captures[0].URIM {
		t.Errorf("B2 hyperlink = %v %q %v, want %q", ok, target, err, results[0].Captures[0].URIM)
	}
	if ok, _, _ := f.GetCellHyperLink(SheetCaptures, "B3"); ok {
		t.Errorf("B3 (an ftp URI-M) is a hyperlink")
	}
	// Captures come most off-topic first, as on the TimeMaps sheet: the
	// hostile page (1 of 1 scored off-topic), the sample (1 of 2), the
	// lighthouse (1 of 3); each page's captures together, in time order.
	var order []string
	for _, r := range rows[1:] {
		order = append(order, strings.TrimPrefix(r[0], "'"))
	}
	wantOrder := []string{xlsxHostileURIR, xlsxHostileURIR, "http://example.org/", "http://example.org/", "http://example.org/",
		"http://lighthouse.org/", "http://lighthouse.org/", "http://lighthouse.org/"}
	if !slices.Equal(order, wantOrder) {
		t.Errorf("Captures rows are of %q, want %q", order, wantOrder)
	}
	if ok, target, _ := f.GetCellHyperLink(SheetCaptures, fmt.Sprintf("B%d", ncap+1)); !ok || target != results[1].Captures[2].URIM {
		t.Errorf("last URI-M is not linked to its URI-M: %v %q", ok, target)
	}

	// Drop-down, filter, frozen header, highlighting.
	dvs, err := f.GetDataValidations(SheetCaptures)
	if err != nil {
		t.Fatal(err)
	}
	dec := column(t, DecisionColumn)
	if len(dvs) != 1 || dvs[0].Sqref != fmt.Sprintf("%s2:%s%d", dec, dec, ncap+1) || !strings.Contains(dvs[0].Formula1, "off-topic") {
		t.Errorf("data validations %+v, want a list over %s2:%s%d", dvs, dec, dec, ncap+1)
	}
	panes, err := f.GetPanes(SheetCaptures)
	if err != nil || !panes.Freeze || panes.YSplit != 1 {
		t.Errorf("Captures panes %+v (%v), want the header row frozen", panes, err)
	}
	names := f.GetDefinedName()
	if !slices.ContainsFunc(names, func(d excelize.DefinedName) bool {
		return d.Name == "_xlnm._FilterDatabase" && strings.Contains(d.RefersTo, SheetCaptures)
	}) {
		t.Errorf("no autofilter on Captures: defined names %+v", names)
	}
	// Shading: only scores of the rule's measures that decided a verdict.
	fill := func(cell string) string {
		t.Helper()
		id, err := f.GetCellStyle(SheetCaptures, cell)
		if err != nil {
			t.Fatal(err)
		}
		st, err := f.GetStyle(id)
		if err != nil {
			t.Fatal(err)
		}
		if len(st.Fill.Color) == 0 {
			return ""
		}
		return st.Fill.Color[0]
	}
	cos, wc, topic := column(t, "cosine"), column(t, "wordcount"), column(t, "topic")
	for _, tc := range []struct {
		cell, want, why string
	}{
		{cos + "2", "FFC7CE", "the hostile page's cosine 0.01 made it off-topic"},
		{cos + "4", "", "t0's cosine"},
		{cos + "5", "FFC7CE", "the sample's cosine 0.02 made it off-topic"},
		{wc + "5", "FFC7CE", "so did its wordcount -0.9"},
		{cos + "6", "", "not scored"},
		{wc + "6", "", "not scored"},
		{topic + "7", "", "topic 0.1 is below its default threshold but not in the rule"},
		{cos + "7", "FFC7CE", "the lighthouse's first capture: cosine 0.05"},
		{cos + "9", "", "an on-topic score above the threshold"},
	} {
		if got := fill(tc.cell); !strings.EqualFold(got, tc.want) {
			t.Errorf("Captures!%s shaded %q, want %q: %s", tc.cell, got, tc.want, tc.why)
		}
	}
	cfs, err := f.GetConditionalFormats(SheetCaptures)
	if err != nil {
		t.Fatal(err)
	}
	for ref := range cfs {
		if strings.HasPrefix(ref, cos) || strings.HasPrefix(ref, topic) {
			t.Errorf("conditional format on a score column %s: %v", ref, cfs[ref])
		}
	}

	// Print set-up: landscape, one page wide, the header on every page.
	for _, sheet := range []string{SheetTimeMaps, SheetCaptures} {
		pl, err := f.GetPageLayout(sheet)
		if err != nil || pl.Orientation == nil || *pl.Orientation != "landscape" || pl.FitToWidth == nil || *pl.FitToWidth != 1 || pl.FitToHeight == nil || *pl.FitToHeight != 0 {
			t.Errorf("%s page layout %+v (%v), want landscape, one page wide", sheet, pl, err)
		}
		props, err := f.GetSheetProps(sheet)
		if err != nil || props.FitToPage == nil || !*props.FitToPage {
			t.Errorf("%s is not set to fit its pages (%v)", sheet, err)
		}
		if !slices.ContainsFunc(names, func(d excelize.DefinedName) bool {
			return d.Name == "_xlnm.Print_Titles" && d.Scope == sheet && strings.Contains(d.RefersTo, "$1:$1")
		}) {
			t.Errorf("%s does not repeat its header row on each page: %+v", sheet, names)
		}
	}

	// Summary: counts and the t0 that was not the first capture.
	sum, err := f.GetRows(SheetSummary)
	if err != nil {
		t.Fatal(err)
	}
	text := fmt.Sprint(sum)
	for _, want := range []string{"[TimeMaps 3]", "[captures 8]", "[off-topic 3", "'=evil.warc.gz", "cosine=0.1,wordcount=-0.85",
		"looks off the collection's topic", "t0 other than the first capture (2 TimeMaps)"} {
		if !strings.Contains(text, want) {
			t.Errorf("Summary lacks %q:\n%s", want, text)
		}
	}

	// Timeline: a chart per affected TimeMap.
	if n := countParts(t, p, "xl/charts/chart"); n != 3 {
		t.Errorf("%d charts, want 3 (one per TimeMap with an off-topic capture)", n)
	}
}

func countParts(t testing.TB, p, prefix string) int {
	t.Helper()
	zr, err := zip.OpenReader(p)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	n := 0
	for _, f := range zr.File {
		if strings.HasPrefix(f.Name, prefix) {
			n++
		}
	}
	return n
}

// syntheticTimeMap makes TimeMap i of a synthetic collection: m captures,
// about every third off-topic.
func syntheticTimeMap(i, m int) *similarity.TimeMapResult {
	at := time.Date(2005, 1, 1, 0, 0, 0, 0, time.UTC)
	urir := fmt.Sprintf("http://site%05d.example.org/page", i)
	r := &similarity.TimeMapResult{Key: fmt.Sprintf("org,example,site%05d)/page", i), URIR: urir,
		T0: "http://a/20050101000000/" + urir, T0Reason: "first capture with HTTP 200, an HTML type and text"}
	for j := range m {
		d := at.AddDate(0, j, i%28)
		c := similarity.CaptureResult{URIR: urir, URIM: "http://a/" + d.Format("20060102150405") + "/" + urir, Datetime: d,
			Status: 200, MIME: "text/html", Title: "Lighthouse preservation society news", WordCount: 400 + j, ByteCount: 9000 + j,
			Extractor: "main", Lang: "en", Verdict: similarity.VerdictOn, Reason: "no threshold crossed",
			Scores: map[string]float64{"cosine": 1 - float64(j)/20, "jaccard": 0.5, "wordcount": -float64(j) / 20, "topic": 0.9}}
		if j == 0 {
			c.IsT0, c.Reason = true, "t0"
		} else if (i+j)%3 == 0 {
			c.Verdict, c.Reason, c.Scores["cosine"] = similarity.VerdictOff, "cosine 0.020 < 0.1", 0.02
		}
		r.Captures = append(r.Captures, c)
	}
	return r
}

// BenchmarkXLSX100k writes a 100,000-capture report (10,000 TimeMaps x 10
// captures, made as they are written) to io.Discard. live-MB is the most heap
// in use after a collection, sampled every 500 TimeMaps and before and after
// Close: what the writer holds. heap-sys-MB is what the heap took from the OS.
func BenchmarkXLSX100k(b *testing.B) {
	run := xlsxRun()
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	base := ms.HeapAlloc
	var peak uint64
	sample := func() {
		b.StopTimer()
		runtime.GC()
		runtime.ReadMemStats(&ms)
		peak = max(peak, ms.HeapAlloc)
		b.StartTimer()
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		w, err := NewXLSXWriter(io.Discard, run)
		if err != nil {
			b.Fatal(err)
		}
		for i := range 10000 {
			if err := w.Write(syntheticTimeMap(i, 10)); err != nil {
				b.Fatal(err)
			}
			if i%500 == 499 {
				sample()
			}
		}
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
		sample()
	}
	b.StopTimer()
	b.ReportMetric(float64(peak-min(base, peak))/(1<<20), "live-MB")
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(ms.HeapSys)/(1<<20), "heap-sys-MB")
}

// soffice runs LibreOffice headless with a throw-away profile, so that it
// works as root and leaves the real profile alone; it skips the test where
// LibreOffice is absent.
func soffice(t *testing.T, args ...string) {
	t.Helper()
	bin, err := exec.LookPath("soffice")
	if err != nil {
		t.Skip("soffice not on PATH (Debian: apt-get install libreoffice-calc-nogui); skipping the LibreOffice check")
	}
	if testing.Short() {
		t.Skip("LibreOffice test skipped in -short mode")
	}
	home := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, append([]string{"-env:UserInstallation=file://" + filepath.ToSlash(filepath.Join(home, "profile")),
		"--headless", "--norestore"}, args...)...)
	cmd.Env = append(os.Environ(), "HOME="+home)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("soffice %v: %v\n%s", args, err, out)
	}
}

// TestXLSXLibreOffice opens the report in LibreOffice Calc: the Captures
// sheet exported as CSV has a row per capture, dates as dates, and the
// neutralised cells as text; and a workbook reviewed and saved by Calc still
// gives its decisions back.
func TestXLSXLibreOffice(t *testing.T) {
	results := xlsxResults()
	p := writeXLSX(t, xlsxRun(), results)
	out := t.TempDir()
	// CSV filter options: separator, quote, UTF-8, first line, cell formats,
	// language, quoted as text, detect numbers, save as shown, formulas, trim
	// spaces, and the 12th token: which sheet (1-based; -1 = every sheet).
	sheet := slices.Index([]string{SheetSummary, SheetTimeMaps, SheetCaptures, SheetTimeline}, SheetCaptures) + 1
	soffice(t, "--convert-to", "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,true,false,false,"+strconv.Itoa(sheet), "--outdir", out, p)
	matches, _ := filepath.Glob(filepath.Join(out, "*.csv"))
	if len(matches) != 1 {
		t.Fatalf("LibreOffice wrote %v, want one CSV", matches)
	}
	b, err := os.ReadFile(matches[0])
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", matches[0], err)
	}
	ncap := 0
	for _, r := range results {
		ncap += len(r.Captures)
	}
	if len(rows) != ncap+1 || !slices.Equal(rows[0], XLSXCapturesHeader()) {
		t.Fatalf("LibreOffice sees %d rows (header %v), want header + %d", len(rows), rows[0], ncap)
	}
	idx := func(name string) int { return slices.Index(XLSXCapturesHeader(), name) }
	checks := []struct {
		row  int
		col  string
		want string
	}{
		{1, "uri_r", "'" + xlsxHostileURIR},
		{1, "title", "'" + xlsxHostileTitle},
		{1, "mime", "'" + xlsxHostileMIME},
		{1, "datetime", "2012-06-01 08:00:00"},
		{1, "cosine", "0.010"},
		{2, "title", "'-1+1"},
		{2, "reason", "'=1+1"},
		{2, "timestamp", "20130601080000"},
	}
	for _, c := range checks {
		if got := rows[c.row][idx(c.col)]; got != c.want {
			t.Errorf("LibreOffice row %d %s = %q, want %q", c.row, c.col, got, c.want)
		}
	}

	// A curator reviews the workbook and saves it from Calc.
	f := openXLSX(t, p)
	dec := column(t, DecisionColumn)
	for row, d := range map[int]string{2: "off-topic", 4: "On", 7: "unsure"} {
		if err := f.SetCellStr(SheetCaptures, dec+strconv.Itoa(row), d); err != nil {
			t.Fatal(err)
		}
	}
	edited := filepath.Join(t.TempDir(), "edited.xlsx")
	if err := f.SaveAs(edited); err != nil {
		t.Fatal(err)
	}
	saved := t.TempDir()
	soffice(t, "--convert-to", "xlsx:Calc MS Excel 2007 XML", "--outdir", saved, edited)
	got, err := ReadDecisions(filepath.Join(saved, "edited.xlsx"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[similarity.GoldKey]string{
		similarity.KeyOf(&results[0].Captures[0]): DecisionOff,
		similarity.KeyOf(&results[2].Captures[0]): DecisionOn, // row 4
	}
	for k, d := range got {
		if d == DecisionUnsure {
			want[k] = DecisionUnsure // row 7: kept as unsure, for prune to keep
		}
	}
	if !maps.Equal(got, want) {
		t.Errorf("decisions after Calc saved the workbook: got %v, want %v", got, want)
	}
}

// TestXLSXLinkCap: past the hyperlink cap URI-Ms stay plain text, and the
// Summary says so.
func TestXLSXLinkCap(t *testing.T) {
	var buf bytes.Buffer
	w, err := NewXLSXWriter(&buf, xlsxRun())
	if err != nil {
		t.Fatal(err)
	}
	w.maxLinks = 3
	for i := range 2 {
		if err := w.Write(syntheticTimeMap(i, 4)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f, err := excelize.OpenReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for row := 2; row <= 9; row++ {
		ok, target, err := f.GetCellHyperLink(SheetCaptures, "B"+strconv.Itoa(row))
		v, _ := f.GetCellValue(SheetCaptures, "B"+strconv.Itoa(row))
		if err != nil || ok != (row <= 4) || (ok && target != v) {
			t.Errorf("B%d: link %v %q (%v), value %q; want links on rows 2-4 only", row, ok, target, err, v)
		}
	}
	sum, _ := f.GetRows(SheetSummary)
	if !strings.Contains(fmt.Sprint(sum), "Only the first 3 URI-Ms are hyperlinks") {
		t.Errorf("Summary does not mention the link cap:\n%v", sum)
	}
}

// TestXLSXToDecideIn checks what a curator deciding in the workbook relies on:
// the decision column right after the verdict, the URI-R column frozen, the
// text of the capture and of t0, the TimeMaps sheet with pages first and the
// most off-topic first, a filter and links, and a note on the default archive.
func TestXLSXToDecideIn(t *testing.T) {
	head := XLSXCapturesHeader()
	if v := slices.Index(head, "verdict"); head[v+1] != DecisionColumn {
		t.Errorf("Captures header %v: the decision is not right after the verdict", head)
	}
	run := xlsxRun()
	run.ArchiveURL = DefaultArchiveURL
	results := append(htmlFixture(), htmlGuardAndCSS()...)
	f := openXLSX(t, writeXLSX(t, run, results))
	panes, err := f.GetPanes(SheetCaptures)
	if err != nil || !panes.Freeze || panes.XSplit != 1 || panes.YSplit != 1 {
		t.Errorf("Captures panes %+v (%v): want the header row and the URI-R column frozen", panes, err)
	}
	rows, err := f.GetRows(SheetCaptures)
	if err != nil {
		t.Fatal(err)
	}
	idx := func(name string) int { return slices.Index(head, name) }
	var offWithT0Text bool
	for _, r := range rows[1:] {
		if len(r) > idx("t0 excerpt") && r[idx("verdict")] == similarity.VerdictOff && strings.Contains(r[idx("t0 excerpt")], "The society looks after") &&
			strings.Contains(r[idx("excerpt")], "domain") {
			offWithT0Text = true
		}
	}
	if !offWithT0Text {
		t.Error("no off-topic capture shows its own excerpt and t0's")
	}
	tm, err := f.GetRows(SheetTimeMaps)
	if err != nil {
		t.Fatal(err)
	}
	if len(tm) != len(results)+1 {
		t.Fatalf("%d TimeMaps rows for %d TimeMaps", len(tm)-1, len(results))
	}
	last := -1.0
	for i, r := range tm[1 : len(tm)-1] { // the stylesheet comes last
		sh := -1.0
		if r[8] != "" {
			sh, _ = strconv.ParseFloat(strings.TrimSuffix(r[8], "%"), 64)
		}
		if i > 0 && sh > last {
			t.Errorf("TimeMaps row %d share %v after %v: not most off-topic first", i+2, sh, last)
		}
		last = sh
	}
	if r := tm[len(tm)-1]; r[1] != "text/css" {
		t.Errorf("last TimeMaps row %v, want the stylesheet after the pages", r)
	}
	// Each URI-R links to its first capture on the Captures sheet.
	for i, r := range tm[1:] {
		n := strconv.Itoa(i + 2)
		ok, link, _ := f.GetCellHyperLink(SheetTimeMaps, "A"+n)
		at, found := strings.CutPrefix(link, "'"+SheetCaptures+"'!A")
		row, _ := strconv.Atoi(at)
		if !ok || !found || row < 2 || row > len(rows) || rows[row-1][0] != r[0] || rows[row-2][0] == r[0] {
			t.Errorf("TimeMaps A%s (%s) links to %q (%v), want the first Captures row of its captures", n, r[0], link, ok)
		}
	}
	if dn := f.GetDefinedName(); !slices.ContainsFunc(dn, func(d excelize.DefinedName) bool {
		return d.Name == "_xlnm._FilterDatabase" && strings.Contains(d.RefersTo, SheetTimeMaps)
	}) {
		t.Errorf("TimeMaps sheet has no filter (defined names %v)", dn)
	}
	sum, _ := f.GetRows(SheetSummary)
	var note bool
	for _, r := range sum {
		if len(r) > 0 && strings.Contains(r[0], DefaultArchiveURL) && strings.Contains(r[0], "--archive-url") {
			note = true
		}
	}
	if !note {
		t.Error("the Summary does not say the URI-Ms point at the default archive URL")
	}
}

// TestXLSXChartsRender prints the workbook with LibreOffice and looks at
// the pages: the Timeline's series are drawn in their measures' colours
// (LibreOffice draws series whose colour is left unset white, markers and
// legend keys alike, which left the charts looking empty).
func TestXLSXChartsRender(t *testing.T) {
	pdftoppm, err := exec.LookPath("pdftoppm")
	if err != nil {
		t.Skip("pdftoppm not on PATH (Debian: apt-get install poppler-utils); skipping the rendering check")
	}
	p := writeXLSX(t, xlsxRun(), xlsxResults())
	out := t.TempDir()
	soffice(t, "--convert-to", "pdf", "--outdir", out, p)
	pdfs, _ := filepath.Glob(filepath.Join(out, "*.pdf"))
	if len(pdfs) != 1 {
		t.Fatalf("LibreOffice wrote %v, want one PDF", pdfs)
	}
	if b, err := exec.Command(pdftoppm, "-r", "100", "-png", pdfs[0], filepath.Join(out, "page")).CombinedOutput(); err != nil {
		t.Fatalf("pdftoppm: %v\n%s", err, b)
	}
	pages, _ := filepath.Glob(filepath.Join(out, "page*.png"))
	near := func(c color.Color, hex string) bool {
		v, _ := strconv.ParseUint(hex, 16, 32)
		r, g, b, _ := c.RGBA()
		d := func(x uint32, y uint64) int { return int(x>>8) - int(y&0xff) }
		dr, dg, db := d(r, v>>16), d(g, v>>8), d(b, v)
		return dr*dr+dg*dg+db*db < 40*40
	}
	for _, m := range []string{similarity.MeasureCosine, similarity.MeasureWordCount, similarity.MeasureTopic} {
		n := 0
		for _, page := range pages {
			f, err := os.Open(page)
			if err != nil {
				t.Fatal(err)
			}
			img, err := png.Decode(f)
			f.Close()
			if err != nil {
				t.Fatalf("%s: %v", page, err)
			}
			for y := img.Bounds().Min.Y; y < img.Bounds().Max.Y; y++ {
				for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x++ {
					if near(img.At(x, y), measureColour(m)) {
						n++
					}
				}
			}
		}
		if n < 40 {
			t.Errorf("the printed workbook (%d pages) has %d pixels of %s's colour #%s: its series are not drawn", len(pages), n, m, measureColour(m))
		}
	}
}
