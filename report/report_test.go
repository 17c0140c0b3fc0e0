package report

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/offtopic/offtopic/similarity"
)

func sampleResult() *similarity.TimeMapResult {
	at := time.Date(2008, 3, 12, 10, 15, 0, 0, time.UTC)
	return &similarity.TimeMapResult{Key: "org,example)/", URIR: "http://example.org/", URIT: "http://a/timemap/link/http://example.org/",
		T0: "http://a/20080312101500/http://example.org/", T0Reason: "first capture",
		Captures: []similarity.CaptureResult{
			{URIR: "http://example.org/", URIM: "http://a/20080312101500/http://example.org/", Datetime: at, Status: 200, MIME: "text/html",
				Scores: map[string]float64{"cosine": 1, "wordcount": 0}, Verdict: similarity.VerdictOn, Reason: "t0", IsT0: true},
			{URIR: "http://example.org/", URIM: "http://a/20090312101500/http://example.org/", Datetime: at.AddDate(1, 0, 0), Status: 200, MIME: "text/html",
				Title: "=HYPERLINK(\"http://evil\")", Scores: map[string]float64{"cosine": 0.02, "wordcount": -0.9}, Verdict: similarity.VerdictOff,
				Kind: similarity.KindParked, Reason: "parked or for sale: it says \"domain for sale\"; cosine 0.020 < 0.1; wordcount -0.900 < -0.85"},
			{URIR: "http://example.org/", URIM: "http://a/20100312101500/http://example.org/", Datetime: at.AddDate(2, 0, 0), Status: 404, MIME: "text/html",
				Verdict: similarity.VerdictNotScored, Reason: "HTTP status 404"},
		}}
}

func TestSafeCell(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain text", "plain text"},
		{"=1+2", "'=1+2"},
		{"+cmd", "'+cmd"},
		{"-2", "'-2"},
		{"@SUM(A1)", "'@SUM(A1)"},
		{"\t=x", "'\t=x"},
		{"", ""},
		{"a=b", "a=b"},
	}
	for _, tc := range tests {
		if got := SafeCell(tc.in); got != tc.want {
			t.Errorf("SafeCell(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	long := strings.Repeat("é", MaxCellChars)
	got := SafeCell(long)
	if len(got) > MaxCellChars+len("…") || !strings.HasSuffix(got, "…") || !utf8Valid(got) {
		t.Errorf("long cell not capped cleanly: %d bytes", len(got))
	}
}

func utf8Valid(s string) bool { return strings.ToValidUTF8(s, "\uFFFD") == s }

func TestResultsRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	run := &Run{Tool: "offtopic", Version: "test", Measures: "cosine=0.1", Inputs: []string{"a.warc.gz"}}
	w, err := NewResultsWriter(&buf, run)
	if err != nil {
		t.Fatal(err)
	}
	r := sampleResult()
	if err := w.Write(r); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(buf.String(), "\n"); n != 2 {
		t.Fatalf("results file has %d lines, want run + 1 TimeMap", n)
	}
	var gotRun Run
	var got []*similarity.TimeMapResult
	for tm, err := range ReadResults(&buf, "results.jsonl", &gotRun) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, tm)
	}
	if gotRun.Measures != "cosine=0.1" || len(got) != 1 || len(got[0].Captures) != 3 || got[0].Captures[1].Scores["cosine"] != 0.02 ||
		!got[0].Captures[0].IsT0 || !got[0].Captures[1].Datetime.Equal(r.Captures[1].Datetime) {
		t.Errorf("round trip lost data: run %+v results %+v", gotRun, got)
	}
	var n int
	for _, err := range ReadResults(strings.NewReader("{\"key\":\"a\"}\nnot json\n"), "bad.jsonl", nil) {
		if err != nil && !strings.Contains(err.Error(), "bad.jsonl line 2") {
			t.Errorf("error %v does not name the line", err)
		}
		n++
	}
	if n != 2 {
		t.Errorf("got %d items, want the good line and the error", n)
	}
}

func TestOTMTJSON(t *testing.T) {
	var buf bytes.Buffer
	w := NewOTMTWriter(&buf, nil)
	w.rule, _ = similarity.ParseRule("cosine=0.10,wordcount=-0.85")
	r := sampleResult()
	if err := w.Write(r); err != nil {
		t.Fatal(err)
	}
	r2 := sampleResult()
	r2.URIT = "http://a/timemap/link/http://other.org/"
	w.Write(r2)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	var out map[string]map[string]struct {
		Measures map[string]struct {
			Score  float64 `json:"comparison score"`
			Status string  `json:"topic status"`
		} `json:"timemap measures"`
		Overall string `json:"overall topic status"`
		Kind    string `json:"off-topic kind"`
	}
	if err := json.Unmarshal(buf.Bytes(), &out); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, buf.String())
	}
	if len(out) != 2 {
		t.Fatalf("%d TimeMaps, want 2", len(out))
	}
	m := out[r.URIT]["http://a/20090312101500/http://example.org/"]
	if m.Overall != "off-topic" || m.Kind != "parked" || m.Measures["cosine"].Status != "off-topic" || m.Measures["wordcount"].Status != "off-topic" || m.Measures["cosine"].Score != 0.02 {
		t.Errorf("off-topic capture: %+v", m)
	}
	if t0 := out[r.URIT]["http://a/20080312101500/http://example.org/"]; t0.Measures["cosine"].Status != "on-topic" || t0.Kind != "" {
		t.Errorf("t0: %+v", t0)
	}
}

func TestCSV(t *testing.T) {
	var buf bytes.Buffer
	w, err := NewCSVWriter(&buf)
	if err != nil {
		t.Fatal(err)
	}
	r := sampleResult()
	r.Captures[1].URIR = "=cmd|'/c calc'!A0"
	w.Write(r)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 4 || len(rows[0]) != len(CSVHeader()) {
		t.Fatalf("got %d rows of %d columns", len(rows), len(rows[0]))
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	if rows[2][col["uri_r"]] != "'=cmd|'/c calc'!A0" {
		t.Errorf("formula not neutralised: %q", rows[2][col["uri_r"]])
	}
	if rows[2][col["verdict"]] != "off-topic" || rows[2][col["kind"]] != "parked" || rows[1][col["kind"]] != "" || rows[2][col["cosine"]] != "0.0200" || rows[3][col["cosine"]] != "" || rows[1][col["t0"]] != "t0" {
		t.Errorf("rows: %v", rows)
	}
}

func TestCollectionName(t *testing.T) {
	tests := []struct {
		run  *Run
		want string
	}{
		{nil, ""},
		{&Run{}, ""},
		{&Run{Inputs: []string{"/data/10x/a.warc.gz", "/data/10x/b.warc.gz"}}, "10x"},
		{&Run{Inputs: []string{"/data/news 2016/*.warc.gz"}}, "news-2016"},
		{&Run{Inputs: []string{"coll/"}}, "coll"},
		{&Run{Inputs: []string{"coll"}}, "coll"},
		{&Run{Inputs: []string{"timemaps.jsonl"}}, "timemaps"},
		{&Run{Inputs: []string{"a.warc.gz"}}, ""},
		{&Run{Inputs: []string{`C:\crawls\wc2018\x.warc`}}, "wc2018"},
		{&Run{Inputs: []string{"../<b>&'x'=1/x.warc.gz"}}, "b-x-1"},
		{&Run{Inputs: []string{strings.Repeat("long", 30) + "/x.warc"}}, strings.Repeat("long", 10)},
		{&Run{Inputs: []string{"x.warc"}, Options: map[string]string{"audit": "Brexit referendum", "window": "2016-01-01/2016-12-31"}}, "Brexit-referendum"},
	}
	for _, tc := range tests {
		var in []string
		if tc.run != nil {
			in = tc.run.Inputs
		}
		if got := tc.run.CollectionName(); got != tc.want {
			t.Errorf("CollectionName of %q = %q, want %q", in, got, tc.want)
		}
	}
}
