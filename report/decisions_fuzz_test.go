package report

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
)

// Fuzz targets for the reviewed XLSX a curator hands back. Under plain go
// test they run their seeds only.

// decisionsSheet returns an XLSX workbook whose Captures sheet holds rows.
func decisionsSheet(tb testing.TB, rows [][]any) []byte {
	f := excelize.NewFile()
	defer f.Close()
	if err := f.SetSheetName("Sheet1", SheetCaptures); err != nil {
		tb.Fatal(err)
	}
	for i, row := range rows {
		cell, _ := excelize.CoordinatesToCellName(1, i+1)
		if err := f.SetSheetRow(SheetCaptures, cell, &row); err != nil {
			tb.Fatal(err)
		}
	}
	var b bytes.Buffer
	if err := f.Write(&b); err != nil {
		tb.Fatal(err)
	}
	return b.Bytes()
}

// FuzzReadDecisionsCells reads sheets whose header and cells are arbitrary
// text: ReadDecisions returns decisions that are on-topic or off-topic, each
// keyed by a 14-digit timestamp, or an error naming the file.
func FuzzReadDecisionsCells(f *testing.F) {
	f.Add("uri_m", "curator decision", "http://a/20100312101500/http://example.org/", "OFF", "")
	f.Add("URI-R", "decision", "http://example.org/", "on-topic", "2010-03-12T10:15:00Z")
	f.Add("uri_r", "Curator Decision", "http://example.org/?a=%zz", "off", "40250.5")
	f.Add("uri_m", "curator decision", "=HYPERLINK(\"x\")", "'off-topic", "")
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, keyHead, decHead, key, decision, datetime string) {
		rows := [][]any{{keyHead, decHead, "datetime"}, {key, decision, datetime}, {key, decision, datetime}}
		p := filepath.Join(dir, "reviewed.xlsx")
		if err := os.WriteFile(p, decisionsSheet(t, rows), 0o644); err != nil {
			t.Fatal(err)
		}
		checkDecisions(t, p)
	})
}

// FuzzReadDecisionsFile reads arbitrary bytes as a reviewed XLSX.
func FuzzReadDecisionsFile(f *testing.F) {
	f.Add(decisionsSheet(f, [][]any{{"uri_m", "curator decision"}, {"http://a/20100312101500/http://example.org/", "off"}}))
	f.Add(decisionsSheet(f, [][]any{{"key", "timestamp", "curator decision"}, {"org,example)/", "20100312101500", "on"}}))
	f.Add([]byte("PK\x03\x04"))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(dir, "reviewed.xlsx")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		checkDecisions(t, p)
	})
}

func checkDecisions(t *testing.T, path string) {
	got, err := ReadDecisions(path)
	if err != nil {
		if !strings.Contains(err.Error(), path) {
			t.Fatalf("error %q does not name the file", err)
		}
		return
	}
	for k, d := range got {
		if d != DecisionOn && d != DecisionOff {
			t.Fatalf("decision %q for %v", d, k)
		}
		if len(k.TS) != 14 || strings.Trim(k.TS, "0123456789") != "" {
			t.Fatalf("key %v: timestamp is not 14 digits", k)
		}
	}
}
