package similarity

import (
	"slices"
	"testing"
)

// TestROCPoint: a threshold's point is on the measure's ROC curve, over the
// captures that have a score of the measure.
func TestROCPoint(t *testing.T) {
	judged := []Judged{}
	add := func(off bool, scores map[string]float64) {
		var r *CaptureResult
		if scores != nil {
			r = &CaptureResult{Scores: scores}
		}
		judged = append(judged, Judged{Gold: GoldLabel{Off: off}, Result: r})
	}
	add(true, map[string]float64{MeasureCosine: 0.02})
	add(true, map[string]float64{MeasureCosine: 0.08})
	add(true, map[string]float64{MeasureCosine: 0.4})
	add(false, map[string]float64{MeasureCosine: 0.05})
	add(false, map[string]float64{MeasureCosine: 0.6})
	add(false, map[string]float64{MeasureCosine: 0.9})
	add(false, map[string]float64{MeasureCosine: 0.95})
	add(true, nil)                                      // no verdict: not on the curve
	add(false, map[string]float64{MeasureJaccard: 0.5}) // no cosine: not on the curve
	tests := []struct {
		value, fpr, tpr float64
	}{
		{0.01, 0, 0},
		{0.03, 0, 1.0 / 3},
		{0.1, 0.25, 2.0 / 3},
		{0.5, 0.25, 1},
		{1, 1, 1},
	}
	curve := ROCPoints(judged, MeasureCosine)
	for _, tc := range tests {
		fpr, tpr, ok := ROCPoint(judged, Threshold{Measure: MeasureCosine, Value: tc.value})
		if !ok || fpr != tc.fpr || tpr != tc.tpr {
			t.Errorf("cosine < %v: (%v, %v, %v), want (%v, %v)", tc.value, fpr, tpr, ok, tc.fpr, tc.tpr)
		}
		if !slices.Contains(curve, [2]float64{fpr, tpr}) {
			t.Errorf("cosine < %v: (%v, %v) is not on the ROC curve %v", tc.value, fpr, tpr, curve)
		}
	}
	if _, _, ok := ROCPoint(judged[:3], Threshold{Measure: MeasureCosine, Value: 0.1}); ok {
		t.Error("a point over off-topic captures alone")
	}
}
