package similarity

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/offtopic/offtopic/extract"
	"github.com/offtopic/offtopic/timemap"
)

// TestSpillSegments: the spill gives back every Input in order, decoded
// on several workers, and a read for some keys gives the Inputs of the
// segments that hold them, those among them.
func TestSpillSegments(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "spill")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w := newSpillWriter(f, 4)
	const n = 1000
	key := func(i int) string { return fmt.Sprintf("org,example)/%04d", i) }
	// Now and then a TimeMap of long pages, whose segment outgrows the
	// buffer the writer keeps.
	text := func(i int) string {
		if i%300 == 7 {
			return strings.Repeat("long ", maxKeptSpillBuffer/4)
		}
		return strings.Repeat("word ", i%50)
	}
	for i := range n {
		doc := &extract.Document{Title: key(i), Text: text(i), Terms: []string{"a", "b"}}
		in := &Input{TimeMap: &timemap.TimeMap{Key: key(i), Captures: []timemap.Capture{{URIR: "http://example.org/"}}},
			URIMs: []string{"m"}, Docs: []*extract.Document{doc}, Errs: []string{""}}
		if err := w.write(in); err != nil {
			t.Fatal(err)
		}
	}
	sf, err := w.close()
	if err != nil {
		t.Fatal(err)
	}
	if len(sf.segs) < 2 {
		t.Fatalf("%d segments", len(sf.segs))
	}
	// Each segment knows the ordinal of its first Input (the second pass
	// finds each TimeMap's replay targets by it).
	for seg := range sf.segments(nil) {
		ins, err := sf.decode(context.Background(), seg)
		if err != nil {
			t.Fatal(err)
		}
		for k, in := range ins {
			if in.TimeMap.Key != key(seg.start+k) {
				t.Fatalf("segment from Input %d holds %s as its Input %d", seg.start, in.TimeMap.Key, k)
			}
		}
	}
	i := 0
	for in, err := range sf.read(context.Background(), 3, nil) {
		if err != nil {
			t.Fatal(err)
		}
		if in.TimeMap.Key != key(i) || in.Docs[0].Title != key(i) || in.Docs[0].Text != text(i) {
			t.Fatalf("Input %d is %s", i, in.TimeMap.Key)
		}
		i++
	}
	if i != n {
		t.Fatalf("%d Inputs read, want %d", i, n)
	}
	want := map[string]bool{key(3): true, key(700): true, "org,example)/zzz": true}
	found, read := map[string]bool{}, 0
	for in, err := range sf.read(context.Background(), 2, want) {
		if err != nil {
			t.Fatal(err)
		}
		found[in.TimeMap.Key] = true
		read++
	}
	if !found[key(3)] || !found[key(700)] || read >= n/2 {
		t.Errorf("read %d Inputs for 2 keys, found %v", read, found)
	}
	// A consumer that stops early stops the read.
	for range sf.read(context.Background(), 2, nil) {
		break
	}
}

// TestTargetDocs: the join's targets' documents go to disk and come back
// whole; a target without a document stays as it is.
func TestTargetDocs(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "targets")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	d := &targetDocs{f: f}
	var ts []Target
	for i := range 20 {
		doc := &extract.Document{Title: fmt.Sprint("frame ", i), Terms: strings.Fields(strings.Repeat(fmt.Sprint("w", i, " "), 100*i+1))}
		tg := Target{Ref: i, URIR: fmt.Sprint("http://example.org/", i), Doc: doc}
		d.put(&tg)
		if tg.Doc != nil || tg.docAt == 0 {
			t.Fatalf("target %d kept its document in memory", i)
		}
		ts = append(ts, tg)
	}
	ts = append(ts, Target{Ref: 20, Problem: "not captured"})
	if d.err != nil || d.end == 0 {
		t.Fatalf("err %v, %d bytes", d.err, d.end)
	}
	if err := d.load(ts); err != nil {
		t.Fatal(err)
	}
	for i, tg := range ts[:20] {
		if tg.Doc == nil || tg.Doc.Title != fmt.Sprint("frame ", i) || len(tg.Doc.Terms) != 100*i+1 || tg.docAt != 0 {
			t.Errorf("target %d came back as %+v", i, tg)
		}
	}
	if ts[20].Doc != nil || ts[20].Problem != "not captured" {
		t.Errorf("the target without a document became %+v", ts[20])
	}
}
