package similarity

import (
	"context"
	"encoding/json"
	"net/http"
	"path/filepath"
	"testing"

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
