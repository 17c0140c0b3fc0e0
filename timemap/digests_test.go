package timemap

import "testing"

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
		t.Run(tt.name, func(t *testing.T) {
			m := newDigestMap()
			for _, a := range tt.adds {
				m.add("ABC", a.o, a.rank)
			}
			m.add("OTHER", at("c.warc.gz", 1, 301, "text/html"), 0)
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
	var nilMap *digestMap
	if _, ok := nilMap.get("ABC"); ok {
		t.Error("get on a nil map (a closed index) found a digest")
	}
}
