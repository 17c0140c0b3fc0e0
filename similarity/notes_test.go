package similarity

import (
	"context"
	"encoding/json"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"github.com/offtopic/offtopic/internal/testcorpus"
	"github.com/offtopic/offtopic/timemap"
)

// TestNotesGiveTheSameResults: detection that takes documents from the notes
// the index made while reading (every record inflated once) gives the results
// of detection that reads and extracts every payload again, on the sample
// collection and on one of the dev corpus's three collections.
func TestNotesGiveTheSameResults(t *testing.T) {
	for _, tc := range []struct{ name, dir, glob string }{
		{"sample", "../testdata/sample", "*.warc.gz"},
		{"dev", "", "ARCHIVEIT-3002-*.warc.gz"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := tc.dir
			if dir == "" {
				dir = testcorpus.Corpus(t, "dev")
			}
			files, _ := filepath.Glob(filepath.Join(dir, tc.glob))
			if len(files) == 0 {
				t.Fatalf("no WARCs in %s", dir)
			}
			var withNotes, without string
			for _, useNotes := range []bool{true, false} {
				cfg := Config{Options: DefaultOptions(), ReadPayload: timemap.ReadPayload}
				opts := timemap.IndexOptions{TempDir: t.TempDir()}
				if useNotes {
					notes := NewPayloadNotes(cfg.Options, cfg.Extract)
					opts.Note, opts.WantsNote = notes.Note, notes.Wants
					cfg.ReadPayload = func(_ context.Context, c timemap.Capture) (h http.Header, b []byte, err error) {
						if !c.Revisit {
							t.Errorf("%s %s: payload read again", c.URIR, c.Timestamp14())
						}
						return timemap.ReadPayload(context.Background(), c)
					}
				}
				idx, err := timemap.BuildIndex(context.Background(), files, opts)
				if err != nil {
					t.Fatal(err)
				}
				var out []byte
				_, err = Detect(context.Background(), idx, cfg, func(r *TimeMapResult) error {
					b, err := json.Marshal(r)
					out = append(out, b...)
					return err
				})
				idx.Close()
				if err != nil {
					t.Fatal(err)
				}
				if useNotes {
					withNotes = string(out)
				} else {
					without = string(out)
				}
			}
			if withNotes != without {
				t.Error("results differ with notes")
			}
			if len(without) < 1000 {
				t.Errorf("results of %d bytes", len(without))
			}
		})
	}
}

// TestNotesExtractEachPayloadOnce: the index extracts a payload captured
// several times (without revisit records: in one TimeMap and at another
// URL) once; detection takes every capture's document from that note,
// reads no payload, and scores them as it scores them read one by one.
func TestNotesExtractEachPayloadOnce(t *testing.T) {
	y := func(year int) time.Time { return time.Date(year, 3, 1, 12, 0, 0, 0, time.UTC) }
	page := article("Lighthouse society", "The keepers restored the great lens of the tower on the point, and the volunteers opened the cottage.")
	other := article("Lighthouse society", "The keepers restored the great lens of the tower; the fog signal sounds again on winter nights.")
	// The file holds the last capture first: its note is the one with the
	// document, which the TimeMap's first capture takes from it.
	files := []string{writeWARC(t, []warcResponse{
		{uri: "http://lighthouse.example/", at: y(2009), status: 200, body: page},
		{uri: "http://lighthouse.example/", at: y(2005), status: 200, body: page},
		{uri: "http://lighthouse.example/", at: y(2006), status: 200, body: other},
		{uri: "http://lighthouse.example/", at: y(2007), status: 200, body: page},
		{uri: "http://www.lighthouse.example/keepers", at: y(2008), status: 200, body: page},
	})}
	// One worker: the TimeMaps are prepared in key order, so that the
	// duplicate at another URL finds its document in the cache (with more,
	// it may be prepared first and read its payload again).
	cfg := Config{Options: DefaultOptions(), Workers: 1}
	notes := NewPayloadNotes(cfg.Options, cfg.Extract)
	extracted, duplicates := 0, 0
	note := func(c *timemap.Capture, h http.Header, body []byte) []byte {
		b := notes.Note(c, h, body)
		if string(b) == duplicateNote {
			duplicates++
		} else {
			extracted++
		}
		return b
	}
	idx, err := timemap.BuildIndex(context.Background(), files, timemap.IndexOptions{TempDir: t.TempDir(), Workers: 1, Note: note, WantsNote: notes.Wants})
	if err != nil {
		t.Fatal(err)
	}
	defer idx.Close()
	if extracted != 2 || duplicates != 3 {
		t.Errorf("%d payloads extracted, %d noted as duplicates; want 2 and 3", extracted, duplicates)
	}
	cfg.ReadPayload = func(_ context.Context, c timemap.Capture) (http.Header, []byte, error) {
		t.Errorf("%s %s: payload read again", c.URIR, c.Timestamp14())
		return timemap.ReadPayload(context.Background(), c)
	}
	var got []*TimeMapResult
	if _, err := Detect(context.Background(), idx, cfg, func(r *TimeMapResult) error { got = append(got, r); return nil }); err != nil {
		t.Fatal(err)
	}
	want, err := DetectFiles(context.Background(), files, Config{Options: DefaultOptions(), Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	if string(g) != string(w) || len(got) != 2 {
		t.Errorf("results differ:\n%s\n%s", g, w)
	}
	for _, r := range got {
		for _, c := range r.Captures {
			if c.WordCount == 0 {
				t.Errorf("%s %s: no words", c.URIR, c.URIM)
			}
		}
	}
}
