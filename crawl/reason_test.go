package crawl

import (
	"strings"
	"testing"
	"time"
)

// TestReasonApart: a document a hair below the threshold reads below it,
// not "topic 0.085 < threshold 0.085".
func TestReasonApart(t *testing.T) {
	ev := Event{Start: time.Date(2016, 1, 1, 0, 0, 0, 0, time.UTC), End: time.Date(2016, 12, 31, 0, 0, 0, 0, time.UTC)}
	for _, tc := range []struct {
		topic, thr float64
		want       string
	}{
		{0.08497, 0.085, "topic 0.08497 < threshold 0.08500;"},
		{0.0849, 0.085, "topic 0.0849 < threshold 0.0850;"},
		{0.9, 0.085, "topic 0.900 >= threshold 0.085;"},
		{0.085, 0.085, "topic 0.085 >= threshold 0.085;"},
	} {
		got := Audited{Topic: tc.topic, InWindow: true}.Reason(tc.thr, ev)
		if !strings.HasPrefix(got, tc.want) {
			t.Errorf("Reason(%v, threshold %v) = %q, want it to start %q", tc.topic, tc.thr, got, tc.want)
		}
	}
}
