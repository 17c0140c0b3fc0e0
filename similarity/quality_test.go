package similarity

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/offtopic/offtopic/internal/testcorpus"
)

// labelledF1 runs detection with default settings on a labelled collection
// (its WARCs and gold.tsv in dir) and returns the evaluation.
func labelledF1(t *testing.T, dir string) *Evaluation {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*.warc.gz"))
	if len(files) == 0 {
		t.Fatalf("no WARCs in %s", dir)
	}
	out, err := DetectFiles(context.Background(), files, Config{Options: DefaultOptions(), ArchiveURL: "http://a/", EachCollection: true})
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(dir, "gold.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gold, err := ReadGoldTSV(f, "gold.tsv", nil)
	if err != nil {
		t.Fatal(err)
	}
	return Evaluate(gold, out)
}

// TestQualityOnLabelledCollections: the default settings on the real
// Archive-It collection labelled by the study's authors and on the
// generated dev collection, at what docs/quality.md reports (real-1068 0.81,
// dev 1.00) less a margin for what a change may cost before it is noticed.
func TestQualityOnLabelledCollections(t *testing.T) {
	for _, tc := range []struct {
		corpus string
		min    float64
	}{{"real-1068", 0.78}, {"dev", 0.98}} {
		t.Run("corpus/"+tc.corpus, func(t *testing.T) {
			dir := testcorpus.Corpus(t, tc.corpus)
			ev := labelledF1(t, dir)
			c := ev.Confusion
			t.Logf("%s: TP=%d FP=%d TN=%d FN=%d F1=%.4f", tc.corpus, c.TP, c.FP, c.TN, c.FN, c.F1())
			if c.F1() < tc.min {
				t.Errorf("%s: F1 %.4f, want at least %.2f", tc.corpus, c.F1(), tc.min)
			}
			if sc := readScenarios(t, dir); sc != nil {
				checkKinds(t, ev, sc)
			}
		})
	}
}

// TestQualityPerLanguage scores the collections scripts/multilingual/build
// makes (one per language, from corpora whose text stays outside the
// repository) in $OFFTOPIC_MULTILINGUAL, where that is set: F1 at least
// 0.88 in every language. (Thai, at 0.905, is the lowest: 37 repurposed
// pages missed, its letters read as trigrams.)
func TestQualityPerLanguage(t *testing.T) {
	root := os.Getenv("OFFTOPIC_MULTILINGUAL")
	if root == "" {
		t.Skip("multilingual collections not built (scripts/multilingual/build, then set OFFTOPIC_MULTILINGUAL)")
	}
	golds, _ := filepath.Glob(filepath.Join(root, "*", "gold.tsv"))
	if len(golds) == 0 {
		t.Fatalf("no collections in %s", root)
	}
	sort.Strings(golds)
	for _, g := range golds {
		dir := filepath.Dir(g)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			c := labelledF1(t, dir).Confusion
			t.Logf("%s: TP=%d FP=%d TN=%d FN=%d F1=%.4f", filepath.Base(dir), c.TP, c.FP, c.TN, c.FN, c.F1())
			if c.F1() < 0.88 {
				t.Errorf("F1 %.4f, want at least 0.88", c.F1())
			}
		})
	}
}

// readScenarios reads a labelled collection's scenarios.tsv, nil when it
// has none.
func readScenarios(t *testing.T, dir string) map[GoldKey]Scenario {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, "scenarios.tsv"))
	if err != nil {
		return nil
	}
	defer f.Close()
	sc, err := ReadKinds(f, "scenarios.tsv")
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// checkKinds holds the kind named for caught off-topic captures right for
// at least 90% of each expected kind.
func checkKinds(t *testing.T, ev *Evaluation, sc map[GoldKey]Scenario) {
	t.Helper()
	for _, k := range KindAccuracy(ev.Judged, sc) {
		t.Logf("kind %s: %d/%d named right %v", k.Kind, k.Right, k.Caught, k.Named)
		if k.Accuracy() < 0.9 {
			t.Errorf("kind %s named right for %d of %d caught captures, want at least 90%%", k.Kind, k.Right, k.Caught)
		}
	}
}

// realPhenomena are the phenomena scripts/phenomena/gen.py takes from real
// collections (issue 33), each with the least share of its captures judged
// right (see docs/quality.md): a blog's front page showing fewer, all new
// posts is kept on-topic where its frame stays and its posts are of the
// collection's subject, which the generator's text ads and categories
// leave unclear for a fifth of them.
var realPhenomena = map[string]float64{
	"moved": 0.95, "bilingual": 0.98, "rotate-thin": 0.7, "hidden-text": 0.98, "splash": 0.95, "thin-t0": 0.98,
}

// TestQualityPhenomena scores a collection scripts/phenomena/gen.py makes
// (redirects, frames, apps, shells, drift, injected spam, parked pages of
// the site's own words, and the phenomena of real collections), in
// $OFFTOPIC_PHENOMENA where that is set: F1 at least 0.98 on every capture
// but those of drifting front pages and of the phenomena of real
// collections, and 0.97 on all; three quarters of drifted captures caught
// at least; each phenomenon of real collections judged right as
// realPhenomena says; and the kind named right for 90% of each kind.
func TestQualityPhenomena(t *testing.T) {
	dir := os.Getenv("OFFTOPIC_PHENOMENA")
	if dir == "" {
		t.Skip("no phenomena collection (python3 scripts/phenomena/gen.py --out DIR, then set OFFTOPIC_PHENOMENA=DIR)")
	}
	ev := labelledF1(t, dir)
	sc := readScenarios(t, dir)
	if sc == nil {
		t.Fatalf("no scenarios.tsv in %s", dir)
	}
	by := map[string]*Confusion{}
	var rest Confusion
	for _, j := range ev.Judged {
		name := sc[j.Key].Name
		if by[name] == nil {
			by[name] = &Confusion{}
		}
		by[name].Add(j.Gold.Off, j.PredOff())
		if _, real := realPhenomena[name]; name != "drift" && !real {
			rest.Add(j.Gold.Off, j.PredOff())
		}
	}
	names := make([]string, 0, len(by))
	for n := range by {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		c := by[n]
		t.Logf("%-15s TP=%d FP=%d TN=%d FN=%d", n, c.TP, c.FP, c.TN, c.FN)
	}
	t.Logf("all but drift and the phenomena of real collections: F1=%.4f", rest.F1())
	if rest.F1() < 0.98 {
		t.Errorf("F1 %.4f on every capture but drift's and the phenomena of real collections', want at least 0.98", rest.F1())
	}
	if f := ev.Confusion.F1(); f < 0.97 {
		t.Errorf("F1 %.4f on every capture, want at least 0.97", f)
	}
	if d := by["drift"]; d != nil && float64(d.TP) < float64(d.TP+d.FN)*3/4 {
		t.Errorf("%d of %d drifted captures caught, want three quarters at least", d.TP, d.TP+d.FN)
	}
	for name, least := range realPhenomena {
		c := by[name]
		if c == nil {
			t.Errorf("no captures of %s in %s (made by an older scripts/phenomena/gen.py?)", name, dir)
			continue
		}
		if right, all := c.TP+c.TN, c.TP+c.TN+c.FP+c.FN; float64(right) < least*float64(all) {
			t.Errorf("%s: %d of %d captures judged right, want %.0f%% at least", name, right, all, 100*least)
		}
	}
	checkKinds(t, ev, sc)
}
