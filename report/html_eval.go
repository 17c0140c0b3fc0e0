package report

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/offtopic/offtopic/similarity"
)

// DefaultMaxMisses is how many wrong verdicts an evaluation page lists when
// EvalOptions does not say.
const DefaultMaxMisses = 500

// EvalOptions tunes the evaluation page.
type EvalOptions struct {
	// MaxMisses caps the wrong verdicts listed (0: DefaultMaxMisses); the
	// page says how many more there are.
	MaxMisses int
	// Results, when given, are the results evaluated; they supply the text of
	// each miss's t0 to show beside the capture's.
	Results []*similarity.TimeMapResult
}

// WriteEvaluationHTML writes the evaluation page: the confusion matrix and
// metrics of the run's verdicts against the gold standard, each measure's ROC
// curve with its AUC, F1 against threshold with the run's threshold marked,
// and the wrong verdicts with their scores and text. The page is
// self-contained and runs no script (its CSP allows none).
func WriteEvaluationHTML(w io.Writer, run *Run, ev *similarity.Evaluation, opts EvalOptions) error {
	rule, err := run.Rule()
	if err != nil {
		return err
	}
	tmpl, css, _, err := parseHTMLAssets("assets/html.tmpl", "assets/eval.tmpl")
	if err != nil {
		return err
	}
	maxMisses := opts.MaxMisses
	if maxMisses <= 0 {
		maxMisses = DefaultMaxMisses
	}
	d := evalPage{htmlPage: newHTMLPage(run, "Off-topic detection against the gold standard", contentSecurityPolicy("", string(css)), css, ""),
		Gold: len(ev.Judged), Missing: ev.Missing, Extra: ev.Extra, C: ev.Confusion, Rule: rule.String()}
	for _, m := range similarity.MeasureNames() {
		auc, ok := ev.AUC[m]
		if !ok {
			continue
		}
		d.Measures = append(d.Measures, evalMeasure(ev.Judged, m, auc, rule))
		d.MissMeasures = append(d.MissMeasures, m)
	}
	t0Of := map[*similarity.CaptureResult]*similarity.CaptureResult{}
	for _, r := range opts.Results {
		var t0 *similarity.CaptureResult
		for i := range r.Captures {
			if r.Captures[i].IsT0 {
				t0 = &r.Captures[i]
			}
		}
		if t0 != nil {
			for i := range r.Captures {
				t0Of[&r.Captures[i]] = t0
			}
		}
	}
	// False negatives (missed off-topic captures) first, then false
	// positives, then captures without a verdict.
	for _, want := range []string{"FN", "FP", "no verdict"} {
		for _, j := range ev.Judged {
			o := outcomeLabel(j)
			if o != want {
				continue
			}
			d.MissCount++
			if len(d.Misses) >= maxMisses {
				continue
			}
			d.Misses = append(d.Misses, evalMissRow(j, o, d.MissMeasures, rule, t0Of))
		}
	}
	d.More = d.MissCount - len(d.Misses)
	bw := bufio.NewWriter(w)
	if err := tmpl.ExecuteTemplate(bw, "eval", d); err != nil {
		return fmt.Errorf("evaluation page: %w", err)
	}
	return bw.Flush()
}

type evalPage struct {
	htmlPage
	Gold, Missing, Extra int
	C                    similarity.Confusion
	Rule                 string
	Measures             []evalMeasureData
	MissMeasures         []string
	Misses               []evalMiss
	MissCount, More      int
}

type evalMeasureData struct {
	Measure, AUC, Thr, BestThr string
	InRule                     bool
	AtThr                      similarity.Confusion
	BestF1                     float64
	ROC                        rocChart
	F1                         f1Chart
}

type evalMiss struct {
	Date, URIM, Link, Outcome, Class, Explain string
	Words                                     int
	Scores                                    []htmlScore
	Reason, Title, Excerpt, T0Excerpt         string
}

func evalMissRow(j similarity.Judged, outcome string, measures []string, rule similarity.Rule, t0Of map[*similarity.CaptureResult]*similarity.CaptureResult) evalMiss {
	m := evalMiss{URIM: j.Gold.URIM, Link: httpLink(j.Gold.URIM), Outcome: outcome, Date: j.Key.TS}
	if len(j.Key.TS) == 14 {
		ts := j.Key.TS
		m.Date = ts[:4] + "-" + ts[4:6] + "-" + ts[6:8] + " " + ts[8:10] + ":" + ts[10:12]
	}
	switch outcome {
	case "FN":
		m.Class, m.Explain = "on", "gold off-topic, detected on-topic"
	case "FP":
		m.Class, m.Explain = "off", "gold on-topic, detected off-topic"
	default:
		m.Class, m.Explain = "ns", "in the gold standard, no verdict"
	}
	c := j.Result
	if c == nil {
		return m
	}
	if c.URIM != "" {
		m.URIM, m.Link = c.URIM, httpLink(c.URIM)
	}
	if c.Verdict == similarity.VerdictNotScored {
		m.Explain = "not scored"
	}
	m.Words, m.Reason = c.WordCount, cutText(c.Reason, 300)
	m.Title, m.Excerpt = cutText(c.Title, 120), cutText(c.Excerpt, HTMLExcerptChars)
	if t0 := t0Of[c]; t0 != nil && t0 != c {
		m.T0Excerpt = cutText(t0.Excerpt, HTMLExcerptChars)
	}
	m.Scores = make([]htmlScore, len(measures))
	for i, name := range measures {
		if v, ok := c.Scores[name]; ok {
			m.Scores[i] = htmlScore{S: fmtScore(v), Crossed: crosses(rule, name, v)}
		}
	}
	return m
}

// evalMeasure draws one measure's ROC curve and F1 curve and its quality at
// the rule's threshold (the paper's where the rule does not use it).
func evalMeasure(judged []similarity.Judged, m string, auc float64, rule similarity.Rule) evalMeasureData {
	d := evalMeasureData{Measure: m, AUC: strconv.FormatFloat(auc, 'f', 3, 64)}
	single := thresholdOf(rule, m)
	thr := single.Value
	d.InRule = rule.Has(m)
	d.Thr = strconv.FormatFloat(thr, 'f', -1, 64)
	d.AtThr = similarity.ConfusionOf(judged, similarity.Rule{single})
	curve := similarity.ThresholdCurve(judged, m)
	best := -1.0
	for _, p := range curve {
		if f := p.Confusion.F1(); f > best {
			best, d.BestThr = f, strconv.FormatFloat(p.Threshold, 'f', -1, 64)
		}
	}
	d.BestF1 = math.Max(best, 0)
	d.ROC = newROCChart(judged, m, single)
	d.F1 = newF1Chart(m, curve, thr, d.AtThr)
	return d
}

// chart geometry shared by the evaluation's small charts.
const (
	ecW, ecH                   = 300, 250
	ecL, ecR, ecT, ecB float64 = 40, 290, 10, 220
)

type svgLine struct{ X1, Y1, X2, Y2 string }

type svgLabel struct{ X, Y, Anchor, Label string }

type chartFrame struct {
	Measure    string
	W, H       int
	L, R, T, B string
	Grid       []svgLine
	Labels     []svgLabel
}

// newFrame draws a plot area with x from x0 to x1 and y from 0 to 1.
func newFrame(m string, x0, x1 float64, xName, yName string) chartFrame {
	f := chartFrame{Measure: m, W: ecW, H: ecH, L: coord(ecL), R: coord(ecR), T: coord(ecT), B: coord(ecB)}
	for i := 0; i <= 4; i++ {
		v := float64(i) / 4
		y := ecB - v*(ecB-ecT)
		x := ecL + v*(ecR-ecL)
		f.Grid = append(f.Grid, svgLine{coord(ecL), coord(y), coord(ecR), coord(y)}, svgLine{coord(x), coord(ecT), coord(x), coord(ecB)})
		f.Labels = append(f.Labels, svgLabel{X: coord(ecL - 4), Y: coord(y + 3), Anchor: "end", Label: strconv.FormatFloat(v, 'f', -1, 64)},
			svgLabel{X: coord(x), Y: coord(ecB + 12), Anchor: "middle", Label: strconv.FormatFloat(x0+v*(x1-x0), 'f', -1, 64)})
	}
	f.Labels = append(f.Labels, svgLabel{X: coord((ecL + ecR) / 2), Y: coord(ecB + 26), Anchor: "middle", Label: xName},
		svgLabel{X: coord(ecL + 4), Y: coord(ecT + 10), Anchor: "start", Label: yName})
	return f
}

type rocChart struct {
	chartFrame
	Points     string
	HasPoint   bool
	PX, PY     string
	PointLabel string
}

func newROCChart(judged []similarity.Judged, m string, thr similarity.Threshold) rocChart {
	c := rocChart{chartFrame: newFrame(m, 0, 1, "false positive rate", "true positive rate")}
	xy := func(fpr, tpr float64) (string, string) {
		return coord(ecL + fpr*(ecR-ecL)), coord(ecB - tpr*(ecB-ecT))
	}
	var pts []string
	for _, p := range similarity.ROCPoints(judged, m) {
		x, y := xy(p[0], p[1])
		pts = append(pts, x+","+y)
	}
	c.Points = strings.Join(pts, " ")
	// The threshold's point, on the captures the curve is drawn from.
	if fpr, tpr, ok := similarity.ROCPoint(judged, thr); ok {
		c.HasPoint = true
		c.PX, c.PY = xy(fpr, tpr)
		c.PointLabel = fmt.Sprintf("%s < %s: true positive rate %.3f, false positive rate %.3f", m, strconv.FormatFloat(thr.Value, 'f', -1, 64), tpr, fpr)
	}
	return c
}

type f1Chart struct {
	chartFrame
	F1, Precision, Recall string
	ThrX, ThrY, ThrLabel  string
}

func newF1Chart(m string, curve []similarity.CurvePoint, thr float64, at similarity.Confusion) f1Chart {
	def, _ := similarity.LookupMeasure(m)
	x0, x1 := def.SweepLo, def.SweepHi
	side := "below"
	if def.Direction == similarity.HigherIsOff {
		side = "above"
	}
	c := f1Chart{chartFrame: newFrame(m, x0, x1, "threshold (off-topic "+side+")", "F1")}
	xOf := func(t float64) float64 { return ecL + (math.Min(math.Max(t, x0), x1)-x0)/(x1-x0)*(ecR-ecL) }
	yOf := func(v float64) float64 { return ecB - v*(ecB-ecT) }
	var f1, p, r []string
	for _, pt := range curve {
		x := coord(xOf(pt.Threshold))
		f1 = append(f1, x+","+coord(yOf(pt.Confusion.F1())))
		p = append(p, x+","+coord(yOf(pt.Confusion.Precision())))
		r = append(r, x+","+coord(yOf(pt.Confusion.Recall())))
	}
	c.F1, c.Precision, c.Recall = strings.Join(f1, " "), strings.Join(p, " "), strings.Join(r, " ")
	c.ThrX, c.ThrY = coord(xOf(thr)), coord(yOf(at.F1()))
	c.ThrLabel = fmt.Sprintf("%s < %s: F1 %.3f, precision %.3f, recall %.3f", m, strconv.FormatFloat(thr, 'f', -1, 64), at.F1(), at.Precision(), at.Recall())
	return c
}

// outcomeLabel is a gold capture's outcome as the page shows it.
func outcomeLabel(j similarity.Judged) string {
	if o := j.Outcome(); o != "missing" {
		return o
	}
	return "no verdict"
}
