package timemap

import (
	"fmt"
	"math/rand/v2"
	"os"
	"testing"
)

func TestDigestMapKeepsLowestRank(t *testing.T) {
	type added struct {
		o    original
		rank int64
	}
	at := func(file string, off int64, status int, mime string) original {
		return original{loc: Location{File: file, Offset: off, Length: 10, MemberOffset: 3}, status: status, mime: mime}
	}
	tests := []struct {
		name string
		adds []added
		want original
	}{
		{"one", []added{{at("a.warc.gz", 5, 200, "text/html"), 7}}, at("a.warc.gz", 5, 200, "text/html")},
		{"later rank loses", []added{{at("a.warc.gz", 5, 200, "text/html"), 7}, {at("b.warc.gz", 9, 404, "text/plain"), 8}}, at("a.warc.gz", 5, 200, "text/html")},
		{"earlier rank wins whenever it comes", []added{{at("b.warc.gz", 9, 404, "text/plain"), 8}, {at("a.warc.gz", 5, 200, "text/html"), 7}}, at("a.warc.gz", 5, 200, "text/html")},
		{"equal rank keeps the first", []added{{at("b.warc.gz", 9, 404, "text/plain"), 7}, {at("a.warc.gz", 5, 200, "text/html"), 7}}, at("b.warc.gz", 9, 404, "text/plain")},
	}
	for _, tt := range tests {
		// max 1 spills a run at every add, so that every case is also
		// decided by merging runs on disk.
		for _, max := range []int{0, 1} {
			t.Run(fmt.Sprintf("%s/max=%d", tt.name, max), func(t *testing.T) {
				m := newDigestMap(max, t.TempDir())
				defer m.close()
				for _, a := range tt.adds {
					m.add("ABC", a.o, a.rank)
				}
				m.add("OTHER", at("c.warc.gz", 1, 301, "text/html"), 0)
				if err := m.freeze(); err != nil {
					t.Fatal(err)
				}
				if spilled := m.table != nil; spilled != (max > 0) {
					t.Errorf("table on disk = %v with max %d", spilled, max)
				}
				got, ok := m.get("ABC")
				if !ok || got != tt.want {
					t.Errorf("get = %+v, %v; want %+v", got, ok, tt.want)
				}
				if m.len() != 2 {
					t.Errorf("len = %d, want 2", m.len())
				}
				if _, ok := m.get("MISSING"); ok {
					t.Error("get of an unknown digest found one")
				}
			})
		}
	}
	var nilMap *digestMap
	if _, ok := nilMap.get("ABC"); ok {
		t.Error("get on a nil map (a closed index) found a digest")
	}
}

// TestDigestMapSpillAgrees checks that a map spilled to many runs (more than
// one merge round) and frozen answers every digest as the map held in
// memory, with ranks arriving in random order and repeated digests.
func TestDigestMapSpillAgrees(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(1, 2))
	mem := newDigestMap(0, "")
	disk := newDigestMap(3, dir)
	for i := range 1000 {
		d := fmt.Sprintf("sha1:D%d", rng.IntN(600))
		o := original{loc: Location{File: fmt.Sprintf("f%d.warc.gz", rng.IntN(5)), Offset: int64(i), Length: 10}, status: 200, mime: "text/html"}
		rank := int64(rng.IntN(50))
		mem.add(d, o, rank)
		disk.add(d, o, rank)
	}
	if len(disk.runs) <= digestFanIn {
		t.Fatalf("%d runs spilled: too few for more than one merge pass", len(disk.runs))
	}
	if err := disk.freeze(); err != nil {
		t.Fatal(err)
	}
	if len(disk.runs) != 0 || disk.table == nil {
		t.Fatalf("after freeze: %d runs, table %v", len(disk.runs), disk.table != nil)
	}
	if disk.len() != mem.len() {
		t.Errorf("len: spilled %d, in memory %d", disk.len(), mem.len())
	}
	for i := range 700 {
		d := fmt.Sprintf("sha1:D%d", i)
		a, aok := mem.get(d)
		b, bok := disk.get(d)
		if a != b || aok != bok {
			t.Errorf("%s: spilled %+v %v, in memory %+v %v", d, b, bok, a, aok)
		}
	}
	if err := disk.close(); err != nil {
		t.Fatal(err)
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("close left %d files", len(left))
	}
}
