package timemap

import (
	"context"
	"errors"
	"iter"
	"slices"
	"testing"
)

// listSource yields TimeMaps of the given keys, and an error after the first.
type listSource []string

func (l listSource) TimeMaps(context.Context) iter.Seq2[*TimeMap, error] {
	return func(yield func(*TimeMap, error) bool) {
		for i, k := range l {
			if !yield(&TimeMap{Key: k}, nil) {
				return
			}
			if i == 0 && !yield(nil, errors.New("broken")) {
				return
			}
		}
	}
}

// TestSelect: seeds and shards keep the TimeMaps they select and pass errors on.
func TestSelect(t *testing.T) {
	src := listSource{"com,example)/", "com,example)/a", "org,other)/", "org,other)/b"}
	shard0, _ := ParseShard("0/2")
	shard1, _ := ParseShard("1/2")
	for _, tc := range []struct {
		name string
		sel  Source
		want []string
	}{
		{"exact seed", NewSeeds(CanonSURT, "http://example.com/").Select(src), []string{"com,example)/"}},
		{"prefix seed", NewSeeds(CanonSURT, "http://example.com/*").Select(src), []string{"com,example)/", "com,example)/a"}},
		{"no seed matches", NewSeeds(CanonSURT, "http://nowhere.net/").Select(src), nil},
	} {
		var keys []string
		errs := 0
		for tm, err := range tc.sel.TimeMaps(context.Background()) {
			if err != nil {
				errs++
				continue
			}
			keys = append(keys, tm.Key)
		}
		if !slices.Equal(keys, tc.want) || errs != 1 {
			t.Errorf("%s: %v and %d errors, want %v and 1", tc.name, keys, errs, tc.want)
		}
	}
	var all []string
	for _, sh := range []Shard{shard0, shard1} {
		for tm, err := range sh.Select(src).TimeMaps(context.Background()) {
			if err == nil {
				all = append(all, tm.Key)
			}
		}
	}
	slices.Sort(all)
	if !slices.Equal(all, []string{"com,example)/", "com,example)/a", "org,other)/", "org,other)/b"}) {
		t.Errorf("two shards hold %v", all)
	}
}
