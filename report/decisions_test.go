package report

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/offtopic/offtopic/similarity"
	"github.com/offtopic/offtopic/timemap"
)

// TestDecisionsRoundTrip writes a report, reviews it as a curator would
// (decisions typed in any spelling, a column added in front, rows re-sorted)
// and reads the decisions back.
func TestDecisionsRoundTrip(t *testing.T) {
	results := xlsxResults()
	p := writeXLSX(t, xlsxRun(), results)
	f := openXLSX(t, p)

	// The Captures sheet lists pages most off-topic first: the hostile
	// page (1 of 1 scored off-topic), the sample (1 of 2), the lighthouse.
	var caps []*similarity.CaptureResult
	for _, r := range []*similarity.TimeMapResult{results[0], results[2], results[1]} {
		for i := range r.Captures {
			caps = append(caps, &r.Captures[i])
		}
	}
	typed := []string{"Off-topic", "off", "UNSURE", "", "on", "On-Topic", "off topic", "  ON  "}
	if len(typed) != len(caps) {
		t.Fatalf("%d decisions for %d captures", len(typed), len(caps))
	}
	want := map[similarity.GoldKey]string{}
	for i, d := range typed {
		switch strings.ToLower(strings.TrimSpace(d)) {
		case "off-topic", "off", "off topic":
			want[similarity.KeyOf(caps[i])] = DecisionOff
		case "on", "on-topic":
			want[similarity.KeyOf(caps[i])] = DecisionOn
		case "unsure":
			want[similarity.KeyOf(caps[i])] = DecisionUnsure
		}
	}

	// The curator decides in the report's row order...
	dec := column(t, DecisionColumn)
	for i, d := range typed {
		if err := f.SetCellStr(SheetCaptures, dec+strconv.Itoa(i+2), d); err != nil {
			t.Fatal(err)
		}
	}
	// ...re-sorts the rows (reversed), keeping dates as dates...
	rows, err := f.GetRows(SheetCaptures, excelize.Options{RawCellValue: true})
	if err != nil {
		t.Fatal(err)
	}
	dateCol := slices.Index(XLSXCapturesHeader(), "datetime")
	data := rows[1:]
	slices.Reverse(data)
	for i, row := range data {
		vals := make([]any, len(row))
		for j, v := range row {
			vals[j] = v
			if j == dateCol {
				if x, err := strconv.ParseFloat(v, 64); err == nil {
					vals[j] = x
				}
			}
		}
		if err := f.SetSheetRow(SheetCaptures, "A"+strconv.Itoa(i+2), &vals); err != nil {
			t.Fatal(err)
		}
	}
	// ...and adds a column of notes in front.
	if err := f.InsertCols(SheetCaptures, "A", 1); err != nil {
		t.Fatal(err)
	}
	if err := f.SetCellStr(SheetCaptures, "A1", "notes"); err != nil {
		t.Fatal(err)
	}
	reviewed := filepath.Join(t.TempDir(), "reviewed.xlsx")
	if err := f.SaveAs(reviewed); err != nil {
		t.Fatal(err)
	}

	got, err := ReadDecisions(reviewed)
	if err != nil {
		t.Fatal(err)
	}
	if !maps.Equal(got, want) {
		t.Errorf("decisions\n got %v\nwant %v", got, want)
	}
	gold := DecisionsGold(got)
	off := 0
	for k, l := range gold {
		if l.Off != (want[k] == DecisionOff) {
			t.Errorf("gold %v: Off = %v, decision %s", k, l.Off, want[k])
		}
		if l.Off {
			off++
		}
	}
	// The unsure decision is no label.
	if len(gold) != len(want)-1 || off != 3 {
		t.Errorf("gold has %d labels (%d off-topic), want %d (3)", len(gold), off, len(want)-1)
	}
}

// TestReadDecisions reads hand-made sheets: fallbacks for the key, and errors.
func TestReadDecisions(t *testing.T) {
	at := time.Date(2010, 3, 12, 10, 15, 0, 0, time.UTC)
	keyR := timemap.Canonicalize("http://example.org/", timemap.CanonSURT)
	tests := []struct {
		name    string
		sheet   string
		rows    [][]any
		want    map[similarity.GoldKey]string
		wantErr []string
	}{
		{name: "by URI-M", rows: [][]any{{"uri_m", "Curator Decision"}, {"http://a/20100312101500/http://example.org/", "OFF"}},
			want: map[similarity.GoldKey]string{{Key: keyR, TS: "20100312101500"}: DecisionOff}},
		{name: "by uri_r and a date cell", rows: [][]any{{"URI-R", "datetime", "decision"}, {"http://example.org/", at, "on-topic"}},
			want: map[similarity.GoldKey]string{{Key: keyR, TS: "20100312101500"}: DecisionOn}},
		{name: "by uri_r and date text", rows: [][]any{{"uri_r", "datetime", "curator decision"}, {"http://example.org/", "2010-03-12T10:15:00Z", "off-topic"}},
			want: map[similarity.GoldKey]string{{Key: keyR, TS: "20100312101500"}: DecisionOff}},
		{name: "title rows above the header", rows: [][]any{{"reviewed by A. Curator"}, {}, {"uri_m", "curator decision"},
			{"http://a/20100312101500/http://example.org/", "unsure"}, {"http://a/20110312101500/http://example.org/", "on"}},
			want: map[similarity.GoldKey]string{{Key: keyR, TS: "20100312101500"}: DecisionUnsure, {Key: keyR, TS: "20110312101500"}: DecisionOn}},
		{name: "unknown decision", rows: [][]any{{"uri_m", "curator decision"}, {"http://a/20100312101500/http://example.org/", "maybe"}},
			wantErr: []string{"sheet Captures, row 2", `"maybe"`}},
		{name: "no key", rows: [][]any{{"uri_m", "curator decision"}, {"http://a/20100312101500/http://example.org/", "on"}, {"not a URI-M", "off"}},
			wantErr: []string{"row 3", "no URI-M"}},
		{name: "conflict", rows: [][]any{{"uri_m", "curator decision"}, {"http://a/20100312101500/http://example.org/", "on"},
			{"http://a/20100312101500id_/http://example.org/", "off"}}, wantErr: []string{"row 3", "row 2 decided it on-topic"}},
		{name: "no decision column", rows: [][]any{{"uri_m", "verdict"}, {"http://a/20100312101500/http://example.org/", "on"}},
			wantErr: []string{"sheet Captures", "no \"curator decision\" column"}},
		{name: "no Captures sheet", sheet: "Sheet1", rows: [][]any{{"uri_m", "curator decision"}}, wantErr: []string{"Captures"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := excelize.NewFile()
			defer f.Close()
			sheet := tc.sheet
			if sheet == "" {
				sheet = SheetCaptures
				if err := f.SetSheetName("Sheet1", sheet); err != nil {
					t.Fatal(err)
				}
			}
			for i, row := range tc.rows {
				if err := f.SetSheetRow(sheet, "A"+strconv.Itoa(i+1), &row); err != nil {
					t.Fatal(err)
				}
			}
			p := filepath.Join(t.TempDir(), "reviewed.xlsx")
			if err := f.SaveAs(p); err != nil {
				t.Fatal(err)
			}
			got, err := ReadDecisions(p)
			if tc.wantErr != nil {
				if err == nil {
					t.Fatalf("no error, got %v", got)
				}
				for _, w := range append(tc.wantErr, p) {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("error %q lacks %q", err, w)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !maps.Equal(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

func TestParseDecision(t *testing.T) {
	tests := []struct{ in, want string }{
		{"on-topic", DecisionOn}, {"On-Topic", DecisionOn}, {"on topic", DecisionOn}, {"ON", DecisionOn}, {"on_topic", DecisionOn},
		{"off-topic", DecisionOff}, {"Off-topic", DecisionOff}, {"OFF", DecisionOff}, {"offtopic", DecisionOff},
		{"unsure", DecisionUnsure}, {"Unsure", DecisionUnsure}, {"", ""}, {"?", DecisionUnsure},
	}
	for _, tc := range tests {
		if got, err := parseDecision(tc.in); err != nil || got != tc.want {
			t.Errorf("parseDecision(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{"yes", "1", "offish", "not sure"} {
		if _, err := parseDecision(bad); err == nil {
			t.Errorf("parseDecision(%q) accepted", bad)
		}
	}
}

// TestReadDecisionsCSV reads decisions files as the HTML report saves them
// and as a curator may edit them (columns moved, a byte-order mark, quoting,
// a formula-neutralised cell), and reports bad rows by line.
func TestReadDecisionsCSV(t *testing.T) {
	const head = "key,timestamp,uri_m,uri_r,curator decision\r\n"
	k := similarity.GoldKey{Key: "org,example)/", TS: "20080312101500"}
	k2 := similarity.GoldKey{Key: "org,example)/a", TS: "20090101000000"}
	for _, tc := range []struct {
		name, text string
		want       map[similarity.GoldKey]string
		err        string
	}{
		{"saved", head + `"org,example)/",20080312101500,http://a.test/c/20080312101500/http://example.org/,http://example.org/,off-topic` + "\r\n" +
			`"org,example)/a",20090101000000,,http://example.org/a,on-topic` + "\r\n" +
			`"org,example)/b",20090101000000,,http://example.org/b,unsure` + "\r\n",
			map[similarity.GoldKey]string{k: DecisionOff, k2: DecisionOn, {Key: "org,example)/b", TS: "20090101000000"}: DecisionUnsure}, ""},
		{"moved and BOM", "\ufeffcurator decision,uri_m\nOff,http://a.test/c/20080312101500/http://example.org/\n",
			map[similarity.GoldKey]string{k: DecisionOff}, ""},
		{"neutralised", head + `"'=org,example)/",20080312101500,,,off` + "\n",
			map[similarity.GoldKey]string{{Key: "=org,example)/", TS: "20080312101500"}: DecisionOff}, ""},
		{"bad decision", head + `"org,example)/",20080312101500,,,maybe` + "\n", nil, "row 2"},
		{"conflict", head + `"org,example)/",20080312101500,,,off` + "\n" + `"org,example)/",20080312101500,,,on` + "\n", nil, "row 2 decided it off-topic"},
		{"no column", "key,timestamp\nx,20080312101500\n", nil, `no "curator decision" column`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "decisions.csv")
			if err := os.WriteFile(p, []byte(tc.text), 0o644); err != nil {
				t.Fatal(err)
			}
			got, err := ReadDecisions(p)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) || !strings.Contains(err.Error(), p) {
					t.Fatalf("error %v, want one naming %s and %q", err, p, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !maps.Equal(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}
