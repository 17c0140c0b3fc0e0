package report

import (
	"fmt"
	"math"
	"strconv"

	"github.com/offtopic/offtopic/similarity"
)

// coord formats an SVG coordinate.
func coord(v float64) string { return strconv.FormatFloat(math.Round(v*10)/10, 'f', -1, 64) }

// measureRange is the axis of a measure's histogram: similarities lie in
// [0, 1], changes in [-1, ∞) (shown up to +1), topic around 1.
func measureRange(m string) (lo, hi float64) {
	switch m {
	case similarity.MeasureWordCount, similarity.MeasureByteCount:
		return -1, 1
	case similarity.MeasureTopic:
		return 0, 1.5
	}
	return 0, 1
}

// histogram counts one measure's scores in fixed bins; scores outside the
// axis count in the end bins.
type histogram struct {
	lo, hi  float64
	bins    [histBins]int
	clamped int
	// crossedOff and crossedOn count the scores across the threshold of
	// off-topic and of on-topic captures.
	crossedOff, crossedOn int
}

func newHistogram(m string) *histogram {
	lo, hi := measureRange(m)
	return &histogram{lo: lo, hi: hi}
}

func (hg *histogram) add(s float64, thr *similarity.Threshold, off bool) {
	if thr != nil && thr.Crossed(s) {
		if off {
			hg.crossedOff++
		} else {
			hg.crossedOn++
		}
	}
	i := int(math.Floor((s - hg.lo) / (hg.hi - hg.lo) * histBins))
	if i < 0 || i >= histBins {
		if s != hg.hi {
			hg.clamped++
		}
		i = min(max(i, 0), histBins-1)
	}
	hg.bins[i]++
}

// histChart is a histogram ready to draw.
type histChart struct {
	Measure    string
	W, H       int
	X0, X1, Y0 string
	Bars       []histBar
	Ticks      []svgText
	Max        string
	HasThr     bool
	Thr        string
	ThrX       string
	Clamped    int
	// InRule is set for a measure of the rule.
	InRule                bool
	CrossedOff, CrossedOn int
}

type histBar struct {
	X, Y, W, H, Label string
	Cross             bool
}

type svgText struct {
	X, Y, Label string
}

func (hg *histogram) chart(m string, thr *similarity.Threshold, inRule bool) histChart {
	const w, h, left, right, top, bottom = 300, 120, 8.0, 292.0, 14.0, 102.0
	c := histChart{Measure: m, W: w, H: h, X0: coord(left), X1: coord(right), Y0: coord(bottom), Clamped: hg.clamped,
		InRule: inRule, CrossedOff: hg.crossedOff, CrossedOn: hg.crossedOn}
	maxN := 0
	for _, n := range hg.bins {
		maxN = max(maxN, n)
	}
	c.Max = "max " + strconv.Itoa(maxN) + " per bin"
	bw := (right - left) / histBins
	x := func(v float64) float64 { return left + (v-hg.lo)/(hg.hi-hg.lo)*(right-left) }
	for i, n := range hg.bins {
		a := hg.lo + float64(i)*(hg.hi-hg.lo)/histBins
		b := a + (hg.hi-hg.lo)/histBins
		bh := 0.0
		if maxN > 0 {
			bh = float64(n) / float64(maxN) * (bottom - top)
		}
		if n > 0 && bh < 1 {
			bh = 1
		}
		bar := histBar{X: coord(left + float64(i)*bw + 0.5), Y: coord(bottom - bh), W: coord(bw - 1), H: coord(bh),
			Label: fmt.Sprintf("%s in [%s, %s): %d", m, fmtScore(a), fmtScore(b), n)}
		bar.Cross = thr != nil && thr.Crossed(a)
		c.Bars = append(c.Bars, bar)
	}
	step := (hg.hi - hg.lo) / 4
	for i := 0; i <= 4; i++ {
		v := hg.lo + float64(i)*step
		c.Ticks = append(c.Ticks, svgText{X: coord(math.Min(math.Max(x(v), left+8), right-8)), Y: coord(bottom + 13), Label: strconv.FormatFloat(v, 'f', -1, 64)})
	}
	if thr != nil {
		c.HasThr = true
		c.Thr = strconv.FormatFloat(thr.Value, 'f', -1, 64)
		c.ThrX = coord(x(math.Min(math.Max(thr.Value, hg.lo), hg.hi)))
	}
	return c
}
