package crawl

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/offtopic/offtopic/extract"
)

func sharedDir(t testing.TB) string {
	t.Helper()
	d := os.Getenv("OFFTOPIC_SHARED")
	if d == "" {
		d = filepath.Join("..", "..", "shared")
	}
	if _, err := os.Stat(filepath.Join(d, "corpus", "event-dev", "archive", "index.cdxj")); err != nil {
		t.Skipf("dev corpus not found under %s (set OFFTOPIC_SHARED): %v", d, err)
	}
	return filepath.Join(d, "corpus", "event-dev")
}

func TestDevCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("dev corpus evaluation skipped in -short mode")
	}
	dev := sharedDir(t)
	ctx := context.Background()
	t0 := time.Now()
	a, err := OpenLocal(ctx, filepath.Join(dev, "archive"), "", nil)
	if err != nil {
		t.Fatal(err)
	}
	df, err := BuildDF(ctx, a, extract.Options{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("archive + DF: %d URLs, %d docs, %v", a.Len(), df.Docs(), time.Since(t0))
	for _, event := range []string{"election2005", "mobiles2005"} {
		spec, err := LoadSpec(filepath.Join(dev, event, "spec.json"))
		if err != nil {
			t.Fatal(err)
		}
		rel, err := ReadRelevant(filepath.Join(dev, event, "relevant.tsv"))
		if err != nil {
			t.Fatal(err)
		}
		res := map[Strategy][]int{}
		for _, s := range []Strategy{CTF, CF, TF, Unfocused} {
			t1 := time.Now()
			r, err := Crawl(ctx, Options{Spec: spec, Archive: a, DF: df, Strategy: s, Out: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			res[s] = RelevantAt(r.Log, rel, DefaultBudgets)
			t.Logf("%s %-9s relevant at 50/100/200: %v  (%d docs, %d missing, %.0f docs/s, %v)", event, s, res[s], len(r.Log), len(r.Missing), float64(len(r.Log)+len(r.Missing))/time.Since(t1).Seconds(), time.Since(t1))
		}
		ctf, bfs := res[CTF], res[Unfocused]
		if event == "election2005" && float64(ctf[1]) < 1.5*float64(bfs[1]) {
			t.Errorf("election2005: ct-f %d relevant at 100, unfocused %d: want at least 1.5 times", ctf[1], bfs[1])
		}
		for i, b := range DefaultBudgets {
			if ctf[i] < bfs[i] {
				t.Errorf("%s: ct-f %d relevant at %d, unfocused %d: want at least as many", event, ctf[i], b, bfs[i])
			}
		}
	}
}
