package similarity

import (
	"context"
	"math"
	"strings"
	"testing"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestMeasures(t *testing.T) {
	a := termCounts(strings.Fields("lighthouse lens keeper lighthouse tower"))
	b := termCounts(strings.Fields("lighthouse lens casino"))
	empty := termCounts(nil)
	idf := newDFTable(2, map[string]int{"lighthouse": 2, "lens": 2, "keeper": 1, "tower": 1, "casino": 1})
	tests := []struct {
		name string
		got  float64
		want float64
	}{
		{"jaccard overlap", Jaccard(a, b), 2.0 / 5.0},
		{"jaccard identical", Jaccard(a, a), 1},
		{"jaccard empty", Jaccard(empty, empty), 0},
		{"cosine identical", Cosine(tfidf(a, idf), tfidf(a, idf)), 1},
		{"cosine disjoint", Cosine(tfidf(termCounts([]string{"x"}), idf), tfidf(termCounts([]string{"y"}), idf)), 0},
		{"cosine empty", Cosine(tfidf(empty, idf), tfidf(a, idf)), 0},
		{"tfintersection", TFIntersection(a, b, 20), 2.0 / 4.0},
		{"tfintersection identical", TFIntersection(a, a, 1), 1},
		{"tfintersection empty", TFIntersection(a, empty, 20), 0},
		{"change down", Change(10, 100), -0.9},
		{"change clamped up", Change(500, 100), 1},
		{"change from zero", Change(5, 0), 1},
		{"change zero zero", Change(0, 0), 0},
	}
	for _, tc := range tests {
		if !near(tc.got, tc.want) {
			t.Errorf("%s = %v, want %v", tc.name, tc.got, tc.want)
		}
	}
	// Smoothed IDF: a term in every document still weighs, so two identical
	// documents of a two-capture TimeMap are not scored 0.
	if w := idf.IDF("lighthouse"); w <= 0 {
		t.Errorf("IDF of a term in every document = %v, want > 0", w)
	}
	if idf.IDF("casino") <= idf.IDF("lighthouse") {
		t.Error("a rarer term must weigh more")
	}
}

func TestParseRule(t *testing.T) {
	tests := []struct {
		in      string
		want    string
		wantErr bool
	}{
		{"cosine=0.10,wordcount=-0.85", "cosine=0.1,wordcount=-0.85", false},
		{"cosine", "cosine=0.15", false},
		{" Jaccard , bytecount=-0.5 ", "jaccard=0.05,bytecount=-0.5", false},
		{"tfintersection", "tfintersection=0", false},
		{"cosine=abc", "", true},
		{"nosuch=1", "", true},
		{"cosine,cosine=0.2", "", true},
		{"", "", true},
		{"cosine=NaN", "", true},
		{"cosine=+Inf", "", true},
		{"wordcount=-Inf", "", true},
		{"cosine=1.5", "", true},
		{"jaccard=-0.1", "", true},
		{"wordcount=-1.01", "", true},
		{"topic=2.5", "topic=2.5", false},
		{"topic=-0.1", "", true},
		{"cosine=1,wordcount=-1", "cosine=1,wordcount=-1", false},
	}
	for _, tc := range tests {
		r, err := ParseRule(tc.in)
		if (err != nil) != tc.wantErr {
			t.Errorf("ParseRule(%q) error = %v, want error %v", tc.in, err, tc.wantErr)
			continue
		}
		if err == nil && r.String() != tc.want {
			t.Errorf("ParseRule(%q) = %s, want %s", tc.in, r, tc.want)
		}
	}
}

// TestRegistry checks every measure's declaration: a default threshold
// within its range, a sweep within its range, a scorer, unique names.
func TestRegistry(t *testing.T) {
	seen := map[string]bool{}
	for _, m := range Measures() {
		if seen[m.Name] {
			t.Errorf("measure %s registered twice", m.Name)
		}
		seen[m.Name] = true
		if err := m.CheckThreshold(m.Threshold); err != nil {
			t.Errorf("default threshold: %v", err)
		}
		if m.SweepLo < m.Min || m.SweepHi > m.Max || m.SweepLo >= m.SweepHi {
			t.Errorf("%s: sweep [%v, %v] outside range [%v, %v]", m.Name, m.SweepLo, m.SweepHi, m.Min, m.Max)
		}
		if m.score == nil {
			t.Errorf("%s: no scorer", m.Name)
		}
		if got, ok := LookupMeasure(m.Name); !ok || got.Name != m.Name {
			t.Errorf("LookupMeasure(%s) = %v, %v", m.Name, got.Name, ok)
		}
		if th := m.SweepThresholds(); len(th) != 21 || th[0] != m.SweepLo || th[20] != m.SweepHi {
			t.Errorf("%s: sweep thresholds %v", m.Name, th)
		}
	}
	if len(StandardMeasureNames()) == 0 || len(StandardMeasureNames()) > len(MeasureNames()) {
		t.Errorf("standard measures %v of %v", StandardMeasureNames(), MeasureNames())
	}
}

func TestRuleCrossed(t *testing.T) {
	r, _ := ParseRule("cosine=0.10,wordcount=-0.85,tfintersection")
	tests := []struct {
		scores map[string]float64
		want   []string
	}{
		{map[string]float64{"cosine": 0.5, "wordcount": 0, "tfintersection": 0.3}, nil},
		{map[string]float64{"cosine": 0.05, "wordcount": 0}, []string{"cosine"}},
		{map[string]float64{"cosine": 0.10, "wordcount": -0.9}, []string{"wordcount"}},
		{map[string]float64{"cosine": 0.5, "tfintersection": 0}, []string{"tfintersection"}},
		{map[string]float64{}, nil},
	}
	for _, tc := range tests {
		var got []string
		for _, th := range r.Crossed(tc.scores) {
			got = append(got, th.Measure)
		}
		if strings.Join(got, ",") != strings.Join(tc.want, ",") {
			t.Errorf("Crossed(%v) = %v, want %v", tc.scores, got, tc.want)
		}
	}
}

func TestBM25(t *testing.T) {
	e := NewBM25()
	e.PassageLen = 5
	e.Add("a", strings.Fields("lighthouse lens keeper lamp tower fog signal horn keeper boat"))
	e.Add("b", strings.Fields("casino poker slots bonus pills"))
	e.Add("a", strings.Fields("lighthouse lighthouse lighthouse")) // same id: skipped
	e.Freeze()
	if e.Len() != 3 {
		t.Fatalf("passages = %d, want 3", e.Len())
	}
	got, err := e.Search(context.Background(), []string{"keeper", "lens"}, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0][0] != "lighthouse" {
		t.Fatalf("Search = %v, want the lens passage first, then the other keeper passage", got)
	}
	if got, _ := e.Search(context.Background(), []string{"nothing"}, 10); len(got) != 0 {
		t.Errorf("Search for an unknown term = %v, want none", got)
	}
	kernel, err := seKernelSet(context.Background(), e, []string{"keeper", "lens"}, []string{"keeper", "lens"})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"keeper", "lens", "fog", "boat"} {
		if !kernel[w] {
			t.Errorf("kernel lacks %q: %v", w, kernel)
		}
	}
	if kernel["casino"] {
		t.Error("kernel took terms of an unrelated passage")
	}
}
