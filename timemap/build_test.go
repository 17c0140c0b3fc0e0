package timemap

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"
)

// TestSourcesBuildAlike feeds the same captures through every source (the
// WARC index, a CDXJ index of it, map lines through sort and LineSource, and
// Build on shuffled groups as Beam's GroupByKey hands them over) and asserts
// identical TimeMaps: one builder, one answer.
func TestSourcesBuildAlike(t *testing.T) {
	tests := []struct {
		name  string
		files []string
	}{
		// revisits of captures in another file, same URL
		{"dupes+iana", []string{"warc/pywb-dupes.warc.gz", "warc/pywb-iana.warc.gz"}},
		{"iana", []string{"warc/pywb-iana.warc.gz"}},
		{"example", []string{"warc/pywb-example.warc.gz"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var files []string
			for _, f := range tt.files {
				files = append(files, fixture(t, f))
			}
			idx, _ := buildIndex(t, files, IndexOptions{})
			want := collect(t, idx)
			if len(want) == 0 {
				t.Fatal("no TimeMaps")
			}
			revisits := 0
			for _, tm := range want {
				for _, c := range tm.Captures {
					if c.Revisit && !c.Payload.IsZero() {
						revisits++
					}
				}
			}
			t.Logf("%d TimeMaps, %d resolved revisits", len(want), revisits)

			sources := map[string][]*TimeMap{
				"cdxj":  viaCDXJ(t, idx, filepath.Dir(files[0])),
				"lines": viaLines(t, files),
				"build": viaBuild(t, files),
			}
			for name, got := range sources {
				if len(got) != len(want) {
					t.Errorf("%s: %d TimeMaps, index %d", name, len(got), len(want))
					continue
				}
				for i := range want {
					if w, g := normTM(want[i]), normTM(got[i]); !reflect.DeepEqual(w, g) {
						t.Errorf("%s: TimeMap %s differs from the index's:\n got %+v\nwant %+v", name, want[i].Key, g, w)
					}
				}
			}
		})
	}
}

// viaCDXJ writes the index as CDXJ (revisits unresolved, as pywb writes
// them) and reads it back through OpenIndex.
func viaCDXJ(t *testing.T, idx *Index, dir string) []*TimeMap {
	path := filepath.Join(t.TempDir(), "index.cdxj")
	var buf bytes.Buffer
	if err := WriteCDXJ(&buf, idx.Captures()); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	cx, err := OpenIndex([]string{path}, CDXOptions{WARCDir: dir, OnError: func(err error) { t.Log(err) }})
	if err != nil {
		t.Fatal(err)
	}
	return collect(t, cx)
}

// mapLines is what `offtopic map` writes for files: each file indexed alone.
func mapLines(t *testing.T, files []string) []string {
	var lines []string
	for _, f := range files {
		idx, _ := buildIndex(t, []string{f}, IndexOptions{})
		var buf bytes.Buffer
		for c := range idx.Captures() {
			if err := WriteCaptureLine(&buf, c); err != nil {
				t.Fatal(err)
			}
		}
		lines = append(lines, strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")...)
	}
	return lines
}

// viaLines is map | sort | reduce's reading.
func viaLines(t *testing.T, files []string) []*TimeMap {
	lines := mapLines(t, files)
	sort.Strings(lines)
	src := NewLineSource(strings.NewReader(strings.Join(lines, "\n")+"\n"), "lines", func(err error) { t.Error(err) })
	return collect(t, src)
}

// viaBuild groups map lines by key in shuffled order, as a shuffle may
// deliver them, and builds each group.
func viaBuild(t *testing.T, files []string) []*TimeMap {
	groups := map[string][]Capture{}
	lines := mapLines(t, files)
	rand.New(rand.NewPCG(7, 11)).Shuffle(len(lines), func(i, j int) { lines[i], lines[j] = lines[j], lines[i] })
	for _, l := range lines {
		f := strings.SplitN(l, "\t", 3)
		var c Capture
		if err := json.Unmarshal([]byte(f[2]), &c); err != nil {
			t.Fatal(err)
		}
		c.Key = f[0]
		groups[c.Key] = append(groups[c.Key], c)
	}
	keys := make([]string, 0, len(groups))
	for k := range groups {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]*TimeMap, len(keys))
	for i, k := range keys {
		out[i] = Build(groups[k])
	}
	return out
}

// TestBuild covers the builder's rules on made-up captures: order (time,
// then location), revisit resolution by digest before WARC-Refers-To, and
// which fields a revisit inherits.
func TestBuild(t *testing.T) {
	at := func(s int) time.Time { return time.Date(2020, 1, 1, 0, 0, s, 0, time.UTC) }
	loc := func(f string, off int64) Location { return Location{File: f, Offset: off, Length: 10} }
	resp := func(s int, f string, off int64, digest string) Capture {
		return Capture{Key: "k", URIR: "http://k/" + f, Time: at(s), Status: 200, MIME: "text/html", Digest: digest, Loc: loc(f, off), Payload: loc(f, off)}
	}
	rev := func(s int, f string, off int64, digest string, status int, mime string) Capture {
		return Capture{Key: "k", URIR: "http://k/" + f, Time: at(s), Status: status, MIME: mime, Digest: digest, Loc: loc(f, off), Revisit: true}
	}
	tests := []struct {
		name string
		in   []Capture
		// want: per output capture, its Loc.File/Offset, Payload.File/Offset, Status, MIME
		want []string
	}{
		{"time then location order",
			[]Capture{resp(2, "b", 5, "sha1:X"), resp(1, "b", 9, "sha1:Y"), resp(1, "a", 7, "sha1:Z"), resp(1, "b", 3, "sha1:W")},
			[]string{"a@7 a@7 200 text/html", "b@3 b@3 200 text/html", "b@9 b@9 200 text/html", "b@5 b@5 200 text/html"}},
		{"revisit without head inherits status and type",
			[]Capture{rev(2, "b", 0, "sha1:X", 0, ""), resp(1, "a", 0, "X")},
			[]string{"a@0 a@0 200 text/html", "b@0 a@0 200 text/html"}},
		{"revisit with its own head keeps it",
			[]Capture{resp(1, "a", 0, "sha1:X"), rev(2, "b", 0, "sha1:X", 304, "warc/revisit")},
			[]string{"a@0 a@0 200 text/html", "b@0 a@0 304 text/html"}},
		{"revisit before its original stays unresolved",
			[]Capture{rev(1, "b", 0, "sha1:X", 0, ""), resp(2, "a", 0, "sha1:X")},
			[]string{"b@0 @0 0 ", "a@0 a@0 200 text/html"}},
		{"earliest original wins",
			[]Capture{resp(1, "a", 0, "sha1:X"), resp(2, "c", 0, "sha1:X"), rev(3, "b", 0, "sha1:X", 0, "")},
			[]string{"a@0 a@0 200 text/html", "c@0 c@0 200 text/html", "b@0 a@0 200 text/html"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := append([]Capture(nil), tt.in...)
			tm := Build(in)
			if !reflect.DeepEqual(in, tt.in) {
				t.Error("Build changed its input")
			}
			var got []string
			for _, c := range tm.Captures {
				got = append(got, c.Loc.File+"@"+itoa(c.Loc.Offset)+" "+c.Payload.File+"@"+itoa(c.Payload.Offset)+" "+itoa(int64(c.Status))+" "+c.MIME)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
			if tm.URIR != tm.Captures[0].URIR {
				t.Errorf("URIR %s, first capture %s", tm.URIR, tm.Captures[0].URIR)
			}
		})
	}
}

func itoa(n int64) string { b, _ := json.Marshal(n); return string(b) }
