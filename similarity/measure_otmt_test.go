package similarity

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/offtopic/offtopic/extract"
	"github.com/offtopic/offtopic/timemap"
)

func TestSorensen(t *testing.T) {
	a := termCounts(strings.Fields("lighthouse lens keeper lighthouse tower"))
	b := termCounts(strings.Fields("lighthouse lens casino"))
	tests := []struct {
		name      string
		got, want float64
	}{
		{"overlap", Sorensen(a, b), 2 * 2.0 / 7.0},
		{"identical", Sorensen(a, a), 1},
		{"empty", Sorensen(termCounts(nil), termCounts(nil)), 0},
		{"dice = 2J/(1+J)", Sorensen(a, b), 2 * Jaccard(a, b) / (1 + Jaccard(a, b))},
	}
	for _, tc := range tests {
		if !near(tc.got, tc.want) {
			t.Errorf("%s = %v, want %v", tc.name, tc.got, tc.want)
		}
	}
}

func TestLevenshtein(t *testing.T) {
	seq := func(s string) []int32 {
		var out []int32
		for _, r := range s {
			out = append(out, int32(r))
		}
		return out
	}
	tests := []struct {
		a, b string
		want int
	}{
		{"kitten", "sitting", 3},
		{"", "abc", 3},
		{"abc", "", 3},
		{"abc", "abc", 0},
		{"flaw", "lawn", 2},
		{"ab", "ba", 2},
	}
	for _, tc := range tests {
		if got := levenshtein(seq(tc.a), seq(tc.b)); got != tc.want {
			t.Errorf("levenshtein(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestSimhash(t *testing.T) {
	text := "The lighthouse keeper climbed the tower every night to light the great lens above the harbour."
	near1 := text + " A gull watched."
	other := "Casino bonus offers: play poker, slots and roulette online for real money today."
	if s := hammingSim(textSimhash(text), textSimhash(text)); s != 1 {
		t.Errorf("same text: %v, want 1", s)
	}
	sNear, sFar := hammingSim(textSimhash(text), textSimhash(near1)), hammingSim(textSimhash(text), textSimhash(other))
	if sNear <= sFar {
		t.Errorf("raw simhash: near edit %v <= unrelated text %v", sNear, sFar)
	}
	voc := newVocab()
	th := func(s string) uint64 { return termSimhash(tfOf(voc, strings.Fields(strings.ToLower(s))), voc.terms) }
	tNear, tFar := hammingSim(th(text), th(near1)), hammingSim(th(text), th(other))
	if tNear <= tFar {
		t.Errorf("term simhash: near edit %v <= unrelated text %v", tNear, tFar)
	}
	if hammingSim(0, math.MaxUint64) != 0 || hammingSim(5, 5) != 1 {
		t.Error("hammingSim bounds")
	}
}

// TestOTMTMeasuresInScore scores a TimeMap with every measure selected:
// each new measure gives t0 its best score and ranks an unrelated page
// below a lightly edited one; LSI agrees with cosine where the TimeMap has
// fewer captures than LSI dimensions (the SVD is then exact).
func TestOTMTMeasuresInScore(t *testing.T) {
	texts := []string{
		"harbour lighthouse keeper tower lens night ships rocks storm light beacon coast",
		"harbour lighthouse keeper tower lens night ships rocks storm light beacon coast gull",
		"casino poker slots roulette bonus money jackpot dealer chips cards",
		"harbour lighthouse keeper tower lens morning ships rocks calm light beacon coast",
	}
	tm := &timemap.TimeMap{Key: "k", URIR: "http://k/"}
	in := Input{TimeMap: tm}
	for i, s := range texts {
		tm.Captures = append(tm.Captures, timemap.Capture{Key: "k", URIR: "http://k/", Status: 200, MIME: "text/html",
			Time: timemap.Capture{}.Time.AddDate(2000+i, 0, 0)})
		words := strings.Fields(s)
		for len(words) < 25 {
			words = append(words, words...)
		}
		in.Docs = append(in.Docs, &extract.Document{Text: strings.Join(words, " "), Terms: words, WordCount: len(words), ByteCount: 10 * len(words)})
		in.URIMs = append(in.URIMs, "m"+string(rune('0'+i)))
	}
	res, err := Score(context.Background(), in, nil, Options{Measures: MeasureNames()})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{MeasureSorensen, MeasureNLevenshtein, MeasureTFSimhash, MeasureRawSimhash, MeasureLSI, MeasureLevenshtein} {
		def, _ := LookupMeasure(m)
		sc := func(i int) float64 {
			v, ok := res.Captures[i].Scores[m]
			if !ok {
				t.Fatalf("%s: no score for capture %d", m, i)
			}
			if def.Direction == HigherIsOff {
				return -v
			}
			return v
		}
		best := 1.0
		if def.Direction == HigherIsOff {
			best = 0
		}
		if got := res.Captures[0].Scores[m]; got != best {
			t.Errorf("%s of t0 = %v, want %v", m, got, best)
		}
		if sc(1) <= sc(2) || sc(3) <= sc(2) {
			t.Errorf("%s: edited pages %v, %v not above the unrelated one %v", m, sc(1), sc(3), sc(2))
		}
	}
	for i, c := range res.Captures {
		if math.Abs(c.Scores[MeasureLSI]-c.Scores[MeasureCosine]) > 1e-5 {
			t.Errorf("capture %d: lsi %v != cosine %v with fewer captures than dimensions", i, c.Scores[MeasureLSI], c.Scores[MeasureCosine])
		}
	}
}

func TestLSISample(t *testing.T) {
	docs := make([]int, 1000)
	for i := range docs {
		docs[i] = i
	}
	s := lsiSample(docs, 500, 300)
	if len(s) > 300 || s[0] != 500 {
		t.Fatalf("sample of %d starting %d", len(s), s[0])
	}
	seen := map[int]bool{}
	for _, i := range s {
		if seen[i] {
			t.Fatalf("%d sampled twice", i)
		}
		seen[i] = true
	}
}
