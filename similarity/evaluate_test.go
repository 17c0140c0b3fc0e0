package similarity

import (
	"math"
	"strings"
	"testing"
	"time"
)

const goldTSV = "id\tdate\tURI\tlabel\n" +
	"1\t20050101000000\thttp://archive.example.org/1/20050101000000/http://www.example.org/\t1\n" +
	"1\t20060101000000\thttp://archive.example.org/1/20060101000000/https://example.org/\t1\n" +
	"1\t20070101000000\thttp://archive.example.org/1/20070101000000id_/http://example.org/\t0\n" +
	"1\t20080101000000\thttp://archive.example.org/1/20080101000000/http://example.org/\t0\n" +
	"2\t20050101000000\thttp://archive.example.org/1/20050101000000/http://other.org/a\t1\n"

func cr(uri, ts, verdict string, cos float64) CaptureResult {
	t, _ := time.Parse("20060102150405", ts)
	return CaptureResult{URIR: uri, Datetime: t, Verdict: verdict, Scores: map[string]float64{MeasureCosine: cos}}
}

func TestEvaluate(t *testing.T) {
	gold, err := ReadGoldTSV(strings.NewReader(goldTSV), "gold.tsv", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(gold) != 5 {
		t.Fatalf("gold has %d captures, want 5", len(gold))
	}
	results := []*TimeMapResult{{Captures: []CaptureResult{
		cr("http://example.org/", "20050101000000", VerdictOn, 1),
		cr("http://example.org/", "20060101000000", VerdictOff, 0.05), // FP
		cr("http://example.org/", "20070101000000", VerdictOff, 0.02), // TP
		cr("http://example.org/", "20080101000000", VerdictOn, 0.5),   // FN
		cr("http://example.org/", "20090101000000", VerdictOn, 0.9),   // not in gold
	}}}
	ev := Evaluate(gold, results)
	want := Confusion{TP: 1, FP: 2, TN: 1, FN: 1} // the missing other.org capture counts as a false positive
	if ev.Confusion != want || ev.Missing != 1 || ev.Extra != 1 {
		t.Fatalf("confusion %+v missing %d extra %d, want %+v missing 1 extra 1", ev.Confusion, ev.Missing, ev.Extra, want)
	}
	if !near(ev.Confusion.Precision(), 1.0/3) || !near(ev.Confusion.Recall(), 0.5) || !near(ev.Confusion.Accuracy(), 0.4) {
		t.Errorf("precision %v recall %v accuracy %v", ev.Confusion.Precision(), ev.Confusion.Recall(), ev.Confusion.Accuracy())
	}
	// cosine: off-topic scores 0.02 and 0.5, on-topic 1 and 0.05: of the four
	// (off, on) pairs, three rank the off-topic capture lower.
	if auc := ev.AUC[MeasureCosine]; math.Abs(auc-0.75) > 1e-9 {
		t.Errorf("AUC = %v, want 0.75", auc)
	}
	best := Sweep(ev.Judged)[0]
	if best.Rule[0].Measure != MeasureCosine || best.Confusion.F1() < ev.Confusion.F1() {
		t.Errorf("sweep best %v %+v, want a cosine rule at least as good as the verdicts", best.Rule, best.Confusion)
	}
}

// TestEvaluateNotScoredAndLanguages: a capture detection did not score is
// not called off-topic (as the independent scorer reads a "not scored"
// row), and verdicts are tallied by the language of each page's t0.
func TestEvaluateNotScoredAndLanguages(t *testing.T) {
	gold, err := ReadGoldTSV(strings.NewReader(goldTSV), "gold.tsv", nil)
	if err != nil {
		t.Fatal(err)
	}
	page := func(lang string, caps ...CaptureResult) *TimeMapResult {
		for i := range caps {
			caps[i].Lang = lang
		}
		caps[0].IsT0 = true
		return &TimeMapResult{Captures: caps}
	}
	results := []*TimeMapResult{
		page("fr",
			cr("http://example.org/", "20050101000000", VerdictOn, 1),
			cr("http://example.org/", "20060101000000", VerdictNotScored, 0), // on-topic in gold: TN
			cr("http://example.org/", "20070101000000", VerdictOff, 0.02),    // TP
			cr("http://example.org/", "20080101000000", VerdictNotScored, 0), // off-topic in gold: FN
		),
		page("ja", cr("http://other.org/a", "20050101000000", VerdictOn, 1)),
	}
	ev := Evaluate(gold, results)
	if want := (Confusion{TP: 1, TN: 3, FN: 1}); ev.Confusion != want || ev.Missing != 0 || ev.NotScored != 2 {
		t.Fatalf("confusion %+v missing %d not scored %d, want %+v, 0 and 2", ev.Confusion, ev.Missing, ev.NotScored, want)
	}
	by := ev.ByLang()
	if len(by) != 2 || by[0].Lang != "fr" || by[0].Confusion != (Confusion{TP: 1, TN: 2, FN: 1}) || by[1].Lang != "ja" || by[1].Confusion != (Confusion{TN: 1}) {
		t.Errorf("by language %+v", by)
	}
}

func TestReadGoldErrors(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"bad label", "id\tdate\tURI\tlabel\n1\t2005\thttp://a/20050101000000/http://x/\t7\n", "line 2"},
		{"no timestamp", "id\tdate\tURI\tlabel\n1\t2005\thttp://x/\t1\n", "line 2"},
		{"short", "id\tdate\tURI\tlabel\n1\t2005\n", "line 2"},
	}
	for _, tc := range tests {
		_, err := ReadGoldTSV(strings.NewReader(tc.in), "g.tsv", nil)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "g.tsv") {
			t.Errorf("%s: error %v, want one naming g.tsv %s", tc.name, err, tc.want)
		}
	}
}

func TestSweepThresholds(t *testing.T) {
	c := SweepThresholds(MeasureCosine)
	w := SweepThresholds(MeasureWordCount)
	if len(c) != 21 || c[0] != 0 || c[20] != 1 || c[2] != 0.1 {
		t.Errorf("cosine thresholds %v", c)
	}
	if len(w) != 21 || w[0] != -1 || w[20] != 0 || w[3] != -0.85 {
		t.Errorf("wordcount thresholds %v", w)
	}
}

// TestReadGoldConflicts: a capture labelled both ways is left out with a
// warning naming both lines; a repeated label is taken once, silently.
func TestReadGoldConflicts(t *testing.T) {
	const head = "id\tdate\tURI\tlabel\n"
	a := "http://a/20050101000000/http://x/"
	b := "http://a/20060101000000/http://x/"
	tests := []struct {
		name  string
		in    string
		keys  int
		warns []string
	}{
		{"agree", head + "1\t2005\t" + a + "\t1\n2\t2005\t" + a + "\t1\n3\t2006\t" + b + "\t0\n", 2, nil},
		{"conflict", head + "1\t2005\t" + a + "\t1\n2\t2006\t" + b + "\t0\n3\t2005\t" + a + "\t0\n", 1,
			[]string{"g.tsv lines 2 and 4: " + `"` + a + `" and "` + a + `"` + ", the same capture, are labelled on-topic (1) and off-topic (0): left out"}},
		{"conflict through another URI-M of the capture", head + "1\t2005\t" + a + "\t0\n2\t2005\thttp://b/20050101000000id_/http://x/\t1\n", 0,
			[]string{"lines 2 and 3", "off-topic (0) and on-topic (1)"}},
		{"three rows", head + "1\t2005\t" + a + "\t1\n2\t2005\t" + a + "\t0\n3\t2005\t" + a + "\t1\n4\t2005\t" + a + "\t0\n", 0,
			[]string{"lines 2 and 3", "lines 2 and 5"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var warned []string
			g, err := ReadGoldTSV(strings.NewReader(tc.in), "g.tsv", func(err error) { warned = append(warned, err.Error()) })
			if err != nil {
				t.Fatal(err)
			}
			if len(g) != tc.keys {
				t.Errorf("%d captures in the gold, want %d: %v", len(g), tc.keys, g)
			}
			all := strings.Join(warned, "\n")
			for _, w := range tc.warns {
				if !strings.Contains(all, w) {
					t.Errorf("warnings lack %q:\n%s", w, all)
				}
			}
			if tc.warns == nil && len(warned) > 0 {
				t.Errorf("warned: %s", all)
			}
		})
	}
}

// TestMacroF1: F1 by seed, averaged over the seeds with an off-topic
// capture in the gold standard or the results; a seed without is left out.
func TestMacroF1(t *testing.T) {
	gold := "id\tdate\tURI\tlabel\n" +
		"7\t20050101000000\thttp://a/1/20050101000000/http://big.org/\t1\n" +
		"7\t20060101000000\thttp://a/1/20060101000000/http://big.org/\t0\n" +
		"7\t20070101000000\thttp://a/1/20070101000000/http://big.org/\t0\n" +
		"7\t20080101000000\thttp://a/1/20080101000000/http://big.org/\t0\n" +
		"10\t20050101000000\thttp://a/1/20050101000000/http://small.org/\t1\n" +
		"10\t20060101000000\thttp://a/1/20060101000000/http://small.org/\t1\n" +
		"9\t20050101000000\thttp://a/1/20050101000000/http://quiet.org/\t1\n"
	g, err := ReadGoldTSV(strings.NewReader(gold), "gold.tsv", nil)
	if err != nil {
		t.Fatal(err)
	}
	results := []*TimeMapResult{
		{Captures: []CaptureResult{cr("http://big.org/", "20050101000000", VerdictOn, 1), cr("http://big.org/", "20060101000000", VerdictOff, 0),
			cr("http://big.org/", "20070101000000", VerdictOff, 0), cr("http://big.org/", "20080101000000", VerdictOff, 0)}},
		{Captures: []CaptureResult{cr("http://small.org/", "20050101000000", VerdictOn, 1), cr("http://small.org/", "20060101000000", VerdictOff, 0)}},
		{Captures: []CaptureResult{cr("http://quiet.org/", "20050101000000", VerdictOn, 1)}},
	}
	ev := Evaluate(g, results)
	var seeds []string
	for _, s := range ev.BySeed() {
		seeds = append(seeds, s.Seed)
	}
	if strings.Join(seeds, " ") != "7 9 10" {
		t.Errorf("seeds %q, want 7 9 10 in numeric order", seeds)
	}
	macro, n := ev.MacroF1()
	if n != 2 || macro != 0.5 { // seed 7 all right (1), seed 10 one false positive (0), seed 9 left out
		t.Errorf("macro F1 %v over %d seeds, want 0.5 over 2 (F1 of all captures %.3f)", macro, n, ev.Confusion.F1())
	}
}

// TestSeedsWithoutIDColumn: a gold standard whose header names no id or
// seed column has no seeds of its own: each capture's TimeMap is its seed.
func TestSeedsWithoutIDColumn(t *testing.T) {
	gold := "date\tURI\tlabel\n" +
		"20050101000000\thttp://a/1/20050101000000/http://big.org/\t1\n" +
		"20060101000000\thttp://a/1/20060101000000/http://big.org/\t0\n"
	g, err := ReadGoldTSV(strings.NewReader(gold), "gold.tsv", nil)
	if err != nil {
		t.Fatal(err)
	}
	ev := Evaluate(g, nil)
	if by := ev.BySeed(); len(by) != 1 || by[0].Seed != "org,big)/" {
		t.Errorf("seeds %+v, want the one TimeMap org,big)/", by)
	}
}
