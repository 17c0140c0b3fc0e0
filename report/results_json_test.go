package report

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"testing"
	"time"

	"github.com/offtopic/offtopic/similarity"
	"github.com/offtopic/offtopic/timemap"
)

// TestResultJSONAsEncodingJSON: ResultsWriter writes each TimeMap as
// encoding/json writes it (HTML not escaped), for the fixtures and with
// every optional part set or not; it fails when a result type gains or
// loses a field, which appendResultJSON must then write.
func TestResultJSONAsEncodingJSON(t *testing.T) {
	for _, tt := range []struct {
		v    any
		want int
	}{
		{similarity.TimeMapResult{}, 6},
		{similarity.CaptureResult{}, 24}, // rule is unexported: not written
		{similarity.Replay{}, 9},
		{similarity.Published{}, 3},
		{timemap.Location{}, 4},
	} {
		if n := reflect.TypeOf(tt.v).NumField(); n != tt.want {
			t.Errorf("%T has %d fields, appendResultJSON writes %d: update it", tt.v, n, tt.want)
		}
	}
	at := time.Date(2011, 6, 1, 8, 0, 0, 5, time.FixedZone("", 7200))
	full := &similarity.TimeMapResult{Key: "k<&>", URIR: "u\u2028", URIT: "t", T0: "t0", T0Reason: "why \"so\"", Captures: []similarity.CaptureResult{{
		URIR: "u", URIM: "m", Datetime: at, Status: 200, MIME: "text/html", Digest: "sha1:X", Revisit: true,
		Loc: timemap.Location{File: "f", Offset: 1, Length: 2, MemberOffset: 3}, Payload: timemap.Location{File: "g", Offset: 4},
		Extractor: "readability", Lang: "en", Title: "T\xff", WordCount: 5, ByteCount: 6,
		Scores: map[string]float64{"cosine": 0.1 + 0.2, "zero": math.Copysign(0, -1), "tiny": 1e-9, "big": 1e22}, Verdict: "off-topic",
		Kind: similarity.KindSpam, Reason: "r", IsT0: true, Excerpt: "e", Partial: "gzip stream cut",
		Replay:    &similarity.Replay{How: "redirect", URL: "http://x/", URIR: "r", URIM: "m", Time: at, Hops: 2, Frames: 1, Problem: "p", Moved: "m"},
		Published: &similarity.Published{Time: at.UTC(), From: "meta", InWindow: true},
	}, {}, {Replay: &similarity.Replay{}, Published: &similarity.Published{}, Scores: map[string]float64{}}}}
	farOff := &similarity.TimeMapResult{Key: "y12000", Captures: []similarity.CaptureResult{{Datetime: time.Date(12000, 1, 1, 0, 0, 0, 0, time.UTC)}}}
	rs := append(htmlFixture(), full, farOff, sampleResult(), syntheticTimeMap(3, 5), &similarity.TimeMapResult{}, &similarity.TimeMapResult{Captures: []similarity.CaptureResult{}})
	for _, r := range rs {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		wantErr := enc.Encode(r)
		if (wantErr != nil) != (r == farOff) {
			t.Fatalf("TimeMap %q: encoding/json says %v", r.Key, wantErr)
		}
		var got bytes.Buffer
		w, _ := NewResultsWriter(&got, nil)
		err := w.Write(r)
		if (err != nil) != (wantErr != nil) || got.String() != want.String() {
			t.Errorf("TimeMap %q:\n got %s (%v)\nwant %s (%v)", r.Key, got.String(), err, want.String(), wantErr)
		}
	}
	full.Captures[0].Scores["nan"] = math.NaN()
	var out bytes.Buffer
	w, _ := NewResultsWriter(&out, nil)
	if err := w.Write(full); err == nil || out.Len() > 0 {
		t.Errorf("a NaN score: error %v, %d bytes written", err, out.Len())
	}
}
