package state

import (
	"context"
	"encoding/json"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/offtopic/offtopic/similarity"
	"github.com/offtopic/offtopic/timemap"
)

// TestCodecKnowsEveryField fails when a result type gains or loses a field:
// codec.go must write it, or a run that reuses stored results would write
// less than a run over all the files.
func TestCodecKnowsEveryField(t *testing.T) {
	for _, tt := range []struct {
		v    any
		want int
	}{
		{similarity.TimeMapResult{}, 6},
		{similarity.CaptureResult{}, 24}, // 23 stored; rule (unexported, for tests) is not
		{similarity.Replay{}, 9},
		{similarity.Published{}, 3},
		{timemap.Location{}, 4},
	} {
		if n := reflect.TypeOf(tt.v).NumField(); n != tt.want {
			t.Errorf("%T has %d fields, codec.go writes %d: update it", tt.v, n, tt.want)
		}
	}
}

// TestCodecRoundTrip: results stored and read back write the same JSON,
// for real results and for every optional part set.
func TestCodecRoundTrip(t *testing.T) {
	files, _ := filepath.Glob("../testdata/sample/*.warc.gz")
	rs, err := similarity.DetectFiles(context.Background(), files, config())
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2011, 6, 1, 8, 0, 0, 5, time.FixedZone("", 7200))
	rs = append(rs, &similarity.TimeMapResult{Key: "k", URIR: "u", URIT: "t", Captures: []similarity.CaptureResult{{
		URIR: "u", Datetime: at, Partial: "gzip stream cut", Scores: map[string]float64{"cosine": 0.1 + 0.2, "nan": -0}, Kind: similarity.KindSpam,
		Replay:    &similarity.Replay{How: "redirect", URL: "http://x/", Time: at, Hops: 2, Frames: 1, Problem: "p", Moved: "m"},
		Published: &similarity.Published{Time: at.UTC(), From: "meta", InWindow: true}, Loc: timemap.Location{File: "f", Offset: 1, Length: 2, MemberOffset: 3},
	}, {}}})
	for _, r := range rs {
		back, err := decodeResult(encodeResult(r))
		if err != nil {
			t.Fatal(err)
		}
		want, _ := json.Marshal(r)
		got, _ := json.Marshal(back)
		if string(got) != string(want) {
			t.Errorf("stored and read back:\n got %s\nwant %s", got, want)
		}
	}
	if _, err := decodeResult(encodeResult(rs[0])[:20]); err == nil {
		t.Error("a cut stored result decodes")
	}
}
