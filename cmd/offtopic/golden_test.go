package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"
	"golang.org/x/net/html"

	"github.com/offtopic/offtopic/report"
)

var update = flag.Bool("update", false, "rewrite the golden outputs in testdata/golden from this run (TestGoldenSample)")

// goldenDir holds the outputs of detect on testdata/sample with default
// settings, as TestGoldenSample compares them.
const goldenDir = "testdata/golden"

// TestGoldenSample runs detect with default settings on testdata/sample and
// compares its outputs byte for byte with testdata/golden: the results file
// (its run line made independent of the time, version and folder of the
// run), the CSV, the OTMT JSON, and the text of the HTML and XLSX reports
// rendered from those results. A refactoring leaves them as they are; a
// change of verdict or of format changes them on purpose: then run
//
//	go test ./cmd/offtopic -run TestGoldenSample -update
//
// and read the diff of testdata/golden before committing it.
func TestGoldenSample(t *testing.T) {
	dir := t.TempDir()
	out, reports := filepath.Join(dir, "out"), filepath.Join(dir, "reports")
	if code, _, stderr := runCLI(t, append([]string{"detect", "-q", "--out-dir", out}, sampleFiles(t)...)...); code != 0 {
		t.Fatalf("detect: exit %d: %s", code, stderr)
	}
	results := goldenResults(t, filepath.Join(out, report.FileName("jsonl")))
	if err := os.WriteFile(filepath.Join(out, report.FileName("jsonl")), results, 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runCLI(t, "report", "--format", "html,xlsx", "--out-dir", reports, out); code != 0 {
		t.Fatalf("report: exit %d: %s", code, stderr)
	}
	got := map[string][]byte{
		"results.jsonl":     results,
		"offtopic.csv":      readFile(t, filepath.Join(out, report.FileName("csv"))),
		"offtopic.json":     readFile(t, filepath.Join(out, report.FileName("json"))),
		"offtopic.html.txt": htmlText(t, filepath.Join(reports, report.FileName("html"))),
		"offtopic.xlsx.txt": xlsxText(t, filepath.Join(reports, report.FileName("xlsx"))),
	}
	for name, b := range got {
		path := filepath.Join(goldenDir, name)
		if *update {
			if err := os.MkdirAll(goldenDir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, b, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("%v: make the golden outputs with: go test ./cmd/offtopic -run TestGoldenSample -update", err)
			continue
		}
		if !bytes.Equal(b, want) {
			t.Errorf("%s differs from the golden output %s at %s\nIf the change is meant (verdicts or formats changed), run\n\tgo test ./cmd/offtopic -run TestGoldenSample -update\nand review the diff of %s before committing it.",
				name, path, firstDiff(b, want), goldenDir)
		}
	}
}

// goldenResults is the results file with its run line made independent of
// when, by which version and from where detect ran.
func goldenResults(t *testing.T, path string) []byte {
	t.Helper()
	b := readFile(t, path)
	first, rest, _ := bytes.Cut(b, []byte("\n"))
	var line struct {
		Run report.Run `json:"run"`
	}
	if err := json.Unmarshal(first, &line); err != nil {
		t.Fatalf("%s: the run line: %v", path, err)
	}
	line.Run.Started = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	line.Run.Version = "golden"
	for i, in := range line.Run.Inputs {
		line.Run.Inputs[i] = "testdata/sample/" + filepath.Base(in)
	}
	first, err := json.Marshal(line)
	if err != nil {
		t.Fatal(err)
	}
	return append(append(first, '\n'), rest...)
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// htmlText is the text of an HTML report, a line per text node, without
// its stylesheet and script; its JSON data blocks are indented.
func htmlText(t *testing.T, path string) []byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var b bytes.Buffer
	z := html.NewTokenizer(f)
	skip, data := false, false
	for {
		switch z.Next() {
		case html.ErrorToken:
			if z.Err() != io.EOF {
				t.Fatalf("%s: %v", path, z.Err())
			}
			return b.Bytes()
		case html.StartTagToken:
			tok := z.Token()
			if tok.Data == "style" || tok.Data == "script" {
				skip, data = true, false
				for _, a := range tok.Attr {
					if a.Key == "type" && a.Val == "application/json" {
						skip, data = false, true
					}
				}
			}
		case html.EndTagToken:
			skip, data = false, false
		case html.TextToken:
			text := strings.TrimSpace(string(z.Text()))
			switch {
			case skip || text == "":
			case data:
				var ind bytes.Buffer
				if err := json.Indent(&ind, []byte(text), "", " "); err != nil {
					t.Fatalf("%s: a data block: %v", path, err)
				}
				b.Write(ind.Bytes())
				b.WriteByte('\n')
			default:
				b.WriteString(strings.Join(strings.Fields(text), " ") + "\n")
			}
		}
	}
}

// xlsxText is the text of a workbook: each sheet's name, then its rows as
// tab-separated cell values.
func xlsxText(t *testing.T, path string) []byte {
	t.Helper()
	f, err := excelize.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var b bytes.Buffer
	for _, sheet := range f.GetSheetList() {
		rows, err := f.GetRows(sheet)
		if err != nil {
			t.Fatalf("%s, sheet %s: %v", path, sheet, err)
		}
		fmt.Fprintf(&b, "## %s\n", sheet)
		for _, r := range rows {
			b.WriteString(strings.Join(r, "\t") + "\n")
		}
	}
	return b.Bytes()
}

// firstDiff says where got first differs from want: its line and both
// versions of it.
func firstDiff(got, want []byte) string {
	g, w := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := 0; i < max(len(g), len(w)); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return fmt.Sprintf("line %d:\n\tgot  %.300q\n\twant %.300q", i+1, gl, wl)
		}
	}
	return "(no line differs: line endings?)"
}
