package similarity

import (
	"context"
	"reflect"
	"testing"

	"github.com/offtopic/offtopic/internal/testcorpus"
)

// TestEachCollection: with EachCollection, a TimeMap of one Archive-It
// collection gets the verdicts and scores of a run over that collection's
// files alone, though another collection's files are read with it; judged
// against one model, its subject's scores change.
func TestEachCollection(t *testing.T) {
	files := testcorpus.TwoCollections(t, t.TempDir())
	run := func(each bool, files ...string) map[string]*TimeMapResult {
		t.Helper()
		res, err := DetectFiles(context.Background(), files, Config{Options: DefaultOptions(), Workers: 2, EachCollection: each})
		if err != nil {
			t.Fatal(err)
		}
		byKey := map[string]*TimeMapResult{}
		for _, r := range res {
			byKey[r.Key] = r
		}
		return byKey
	}
	alone, both, one := run(true, files[0]), run(true, files...), run(false, files...)
	if len(alone) != 8 || len(both) != 16 {
		t.Fatalf("%d and %d TimeMaps, want 8 and 16", len(alone), len(both))
	}
	changed := false
	for key, a := range alone {
		for i, c := range a.Captures {
			if b := both[key].Captures[i]; c.Verdict != b.Verdict || !reflect.DeepEqual(c.Scores, b.Scores) {
				t.Errorf("%s capture %d: %s %v with its collection's files alone, %s %v with both collections'", key, i, c.Verdict, c.Scores, b.Verdict, b.Scores)
			}
			if o := one[key].Captures[i]; o.Scores[MeasureTopic] != c.Scores[MeasureTopic] {
				changed = true
			}
		}
	}
	if !changed {
		t.Error("one model for both collections gives every topic score of a collection alone")
	}
}
