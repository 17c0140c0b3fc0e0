package similarity

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/offtopic/offtopic/timemap"
)

// GoldKey identifies a capture across tools: canonical URI-R and 14-digit time.
type GoldKey struct {
	Key string
	TS  string
}

// GoldLabel is one labelled capture.
type GoldLabel struct {
	URIM string
	// Off is true for off-topic (label 0 in the public gold standard).
	Off bool
	// Seed is the seed (the page) the capture is of, as the gold standard
	// numbers it ("" where it does not: then its TimeMap is its seed).
	Seed string
}

// Gold is a gold standard: labels by capture.
type Gold map[GoldKey]GoldLabel

var urimPattern = regexp.MustCompile(`/(\d{14})(?:[a-z]{2}_)?/(.+)$`)

// KeyOfURIM recovers the GoldKey of a Wayback-style URI-M
// (".../<14-digit time>[mod_]/<URI-R>"); ok is false when it has no timestamp.
func KeyOfURIM(urim string) (GoldKey, bool) {
	m := urimPattern.FindStringSubmatch(strings.TrimSpace(urim))
	if m == nil {
		return GoldKey{}, false
	}
	return GoldKey{Key: timemap.Canonicalize(m[2], timemap.CanonSURT), TS: m[1]}, true
}

// KeyOf is the GoldKey of a capture result.
func KeyOf(c *CaptureResult) GoldKey {
	return GoldKey{Key: timemap.Canonicalize(c.URIR, timemap.CanonSURT), TS: c.Datetime.UTC().Format("20060102150405")}
}

// ReadGoldTSV reads the public off-topic gold standard format: a header, then
// tab-separated id, date, URI (a URI-M), label (1 on-topic, 0 off-topic).
// name is used in error messages.
//
// A capture labelled on one line on-topic and on another off-topic is left
// out of the gold standard (either label would be a guess) and warn, when
// not nil, hears of it with both lines; rows that repeat a label agree and
// are taken once.
func ReadGoldTSV(r io.Reader, name string, warn func(error)) (Gold, error) {
	g := Gold{}
	firstLine := map[GoldKey]int{}
	conflicts := map[GoldKey]bool{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	idCol, uriCol, labelCol, line := 0, 2, 3, 0
	for sc.Scan() {
		line++
		text := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(text) == "" {
			continue
		}
		f := strings.Split(text, "\t")
		if line == 1 {
			idCol = -1 // a header numbers seeds only in an id or seed column
			for i, h := range f {
				switch strings.ToLower(strings.TrimSpace(h)) {
				case "uri", "urim", "uri-m", "uri_m":
					uriCol = i
				case "label":
					labelCol = i
				case "id", "seed":
					idCol = i
				}
			}
			if _, ok := KeyOfURIM(f[min(uriCol, len(f)-1)]); !ok {
				continue // a header line
			}
			idCol = 0 // no header: the public format's columns
		}
		if len(f) <= max(uriCol, labelCol) {
			return nil, fmt.Errorf("%s line %d: want at least %d tab-separated fields, got %d", name, line, max(uriCol, labelCol)+1, len(f))
		}
		k, ok := KeyOfURIM(f[uriCol])
		if !ok {
			return nil, fmt.Errorf("%s line %d: %q is not a URI-M with a 14-digit timestamp", name, line, f[uriCol])
		}
		lab := strings.TrimSpace(f[labelCol])
		if lab != "0" && lab != "1" {
			return nil, fmt.Errorf("%s line %d: label %q is neither 0 nor 1", name, line, lab)
		}
		l := GoldLabel{URIM: f[uriCol], Off: lab == "0"}
		if idCol >= 0 && idCol != uriCol && idCol != labelCol && idCol < len(f) {
			l.Seed = strings.TrimSpace(f[idCol])
		}
		if prev, ok := g[k]; ok && prev.Off != l.Off {
			conflicts[k] = true
			if warn != nil {
				warn(fmt.Errorf("%s lines %d and %d: %q and %q, the same capture, are labelled %s and %s: left out of the evaluation",
					name, firstLine[k], line, prev.URIM, l.URIM, labelName(prev.Off), labelName(l.Off)))
			}
			continue
		}
		if _, ok := g[k]; !ok {
			firstLine[k] = line
			g[k] = l
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	for k := range conflicts {
		delete(g, k)
	}
	return g, nil
}

// labelName names a gold label as the TSV writes it.
func labelName(off bool) string {
	if off {
		return "off-topic (0)"
	}
	return "on-topic (1)"
}

// Confusion counts verdicts against the gold standard; off-topic is the positive class.
type Confusion struct {
	TP, FP, TN, FN int
}

// Add counts one judged capture.
func (c *Confusion) Add(goldOff, predOff bool) {
	switch {
	case goldOff && predOff:
		c.TP++
	case goldOff:
		c.FN++
	case predOff:
		c.FP++
	default:
		c.TN++
	}
}

// Accuracy is (TP+TN)/all.
func (c Confusion) Accuracy() float64 { return ratio(c.TP+c.TN, c.TP+c.TN+c.FP+c.FN) }

// Precision is TP/(TP+FP).
func (c Confusion) Precision() float64 { return ratio(c.TP, c.TP+c.FP) }

// Recall is TP/(TP+FN).
func (c Confusion) Recall() float64 { return ratio(c.TP, c.TP+c.FN) }

// F1 is the harmonic mean of precision and recall.
func (c Confusion) F1() float64 {
	p, r := c.Precision(), c.Recall()
	if p+r == 0 {
		return 0
	}
	return 2 * p * r / (p + r)
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// Judged is one gold capture with what detection said of it.
type Judged struct {
	Key    GoldKey
	Gold   GoldLabel
	Result *CaptureResult // nil when detection has no verdict for it
	// Lang is the language of the page: that of its TimeMap's t0, else the
	// first language detected among its captures ("" when none).
	Lang string
}

// Outcome names what the verdict was against the gold standard: "TP", "FN",
// "FP", "TN" (off-topic is the positive class), or "missing" where detection
// gave no verdict.
func (j Judged) Outcome() string {
	switch {
	case j.Result == nil:
		return "missing"
	case j.Gold.Off && j.PredOff():
		return "TP"
	case j.Gold.Off:
		return "FN"
	case j.PredOff():
		return "FP"
	}
	return "TN"
}

// PredOff reports whether detection called the capture off-topic.
func (j Judged) PredOff() bool { return j.Result != nil && j.Result.Verdict == VerdictOff }

// Evaluation is detection measured against a gold standard.
type Evaluation struct {
	Confusion Confusion
	// Missing counts gold captures absent from the results; they count as
	// wrong verdicts in Confusion, as the independent scorer does.
	Missing int
	// NotScored counts gold captures detection did not score (no payload,
	// HTTP errors, no t0): not called off-topic, so on-topic in Confusion,
	// as the independent scorer reads them.
	NotScored int
	// Extra counts scored captures that the gold standard does not label.
	Extra int
	// AUC is the ROC AUC of each measure's raw score, taken in the measure's
	// Direction (lower = more off-topic for similarities).
	AUC map[string]float64
	// Judged lists every gold capture, in gold-key order.
	Judged []Judged
}

// Evaluate matches results to the gold standard by canonical URI-R and timestamp.
func Evaluate(gold Gold, results []*TimeMapResult) *Evaluation {
	byKey := map[GoldKey]*CaptureResult{}
	langs := map[GoldKey]string{}
	ev := &Evaluation{AUC: map[string]float64{}}
	for _, r := range results {
		lang := r.Lang()
		for i := range r.Captures {
			c := &r.Captures[i]
			k := KeyOf(c)
			langs[k] = lang
			if prev := byKey[k]; prev != nil && prev.Verdict != VerdictNotScored {
				continue // the same key twice: a scored capture wins
			}
			byKey[k] = c
			if _, ok := gold[k]; !ok && c.Verdict != VerdictNotScored {
				ev.Extra++
			}
		}
	}
	keys := make([]GoldKey, 0, len(gold))
	for k := range gold {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].Key != keys[j].Key {
			return keys[i].Key < keys[j].Key
		}
		return keys[i].TS < keys[j].TS
	})
	for _, k := range keys {
		g := gold[k]
		j := Judged{Key: k, Gold: g, Result: byKey[k], Lang: langs[k]}
		ev.Judged = append(ev.Judged, j)
		if j.Result == nil {
			ev.Missing++
			ev.Confusion.Add(g.Off, !g.Off) // a capture not judged is a wrong verdict
			continue
		}
		if j.Result.Verdict == VerdictNotScored {
			ev.NotScored++
		}
		ev.Confusion.Add(g.Off, j.PredOff())
	}
	for _, m := range MeasureNames() {
		if auc, ok := rocAUC(ev.Judged, m); ok {
			ev.AUC[m] = auc
		}
	}
	return ev
}

// ByLang tallies the verdicts of each page language (Judged.Lang, "" for
// pages of no known language), most gold captures first.
func (ev *Evaluation) ByLang() []LangConfusion {
	by := map[string]*LangConfusion{}
	for _, j := range ev.Judged {
		l := by[j.Lang]
		if l == nil {
			l = &LangConfusion{Lang: j.Lang}
			by[j.Lang] = l
		}
		if j.Result == nil {
			l.Confusion.Add(j.Gold.Off, !j.Gold.Off)
		} else {
			l.Confusion.Add(j.Gold.Off, j.PredOff())
		}
	}
	out := make([]LangConfusion, 0, len(by))
	for _, l := range by {
		out = append(out, *l)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i].Confusion, out[j].Confusion
		if na, nb := a.TP+a.FP+a.TN+a.FN, b.TP+b.FP+b.TN+b.FN; na != nb {
			return na > nb
		}
		return out[i].Lang < out[j].Lang
	})
	return out
}

// SeedConfusion is the confusion matrix of one seed's captures.
type SeedConfusion struct {
	Seed      string
	Confusion Confusion
}

// BySeed tallies the verdicts of each seed (GoldLabel.Seed, or the
// capture's TimeMap where the gold standard numbers no seeds), in seed
// order (numerically where seeds are numbers).
func (ev *Evaluation) BySeed() []SeedConfusion {
	by := map[string]*SeedConfusion{}
	for _, j := range ev.Judged {
		seed := j.Gold.Seed
		if seed == "" {
			seed = j.Key.Key
		}
		sc := by[seed]
		if sc == nil {
			sc = &SeedConfusion{Seed: seed}
			by[seed] = sc
		}
		if j.Result == nil {
			sc.Confusion.Add(j.Gold.Off, !j.Gold.Off)
		} else {
			sc.Confusion.Add(j.Gold.Off, j.PredOff())
		}
	}
	out := make([]SeedConfusion, 0, len(by))
	for _, sc := range by {
		out = append(out, *sc)
	}
	sort.Slice(out, func(i, j int) bool {
		a, errA := strconv.Atoi(out[i].Seed)
		b, errB := strconv.Atoi(out[j].Seed)
		switch {
		case errA == nil && errB == nil:
			return a < b
		case (errA == nil) != (errB == nil):
			return errA == nil // numbers first
		}
		return out[i].Seed < out[j].Seed
	})
	return out
}

// MacroF1 is the mean of the seeds' F1 (see BySeed) over the seeds that
// have an off-topic capture in the gold standard or in the results (a seed
// with neither has no F1), and how many those are: one seed of hundreds of
// captures cannot hide how the others fare, as it can in the F1 of all
// captures together.
func (ev *Evaluation) MacroF1() (float64, int) {
	var sum float64
	n := 0
	for _, sc := range ev.BySeed() {
		if c := sc.Confusion; c.TP+c.FP+c.FN > 0 {
			sum += c.F1()
			n++
		}
	}
	if n == 0 {
		return 0, 0
	}
	return sum / float64(n), n
}

// LangConfusion is the confusion matrix of the pages of one language.
type LangConfusion struct {
	Lang      string
	Confusion Confusion
}

// ROCPoints returns the ROC curve of a measure: (false positive rate, true
// positive rate) as the threshold moves through every distinct score from
// the off-topic end (rising for similarities, falling for distances).
func ROCPoints(judged []Judged, measure string) [][2]float64 {
	sign := 1.0
	if m, ok := LookupMeasure(measure); ok && m.Direction == HigherIsOff {
		sign = -1
	}
	type sl struct {
		s   float64
		off bool
	}
	var xs []sl
	var pos, neg int
	for _, j := range judged {
		if j.Result == nil {
			continue
		}
		s, ok := j.Result.Scores[measure]
		if !ok {
			continue
		}
		xs = append(xs, sl{sign * s, j.Gold.Off})
		if j.Gold.Off {
			pos++
		} else {
			neg++
		}
	}
	if pos == 0 || neg == 0 {
		return nil
	}
	sort.Slice(xs, func(a, b int) bool { return xs[a].s < xs[b].s })
	pts := [][2]float64{{0, 0}}
	tp, fp := 0, 0
	for i := 0; i < len(xs); {
		k := i
		for ; k < len(xs) && xs[k].s == xs[i].s; k++ {
			if xs[k].off {
				tp++
			} else {
				fp++
			}
		}
		pts = append(pts, [2]float64{float64(fp) / float64(neg), float64(tp) / float64(pos)})
		i = k
	}
	return pts
}

// ROCPoint is where one threshold of a measure lies on its ROC curve:
// (false positive rate, true positive rate) over the captures ROCPoints
// draws the curve from, those with a score of the measure; ok is false when
// they are not of both classes.
func ROCPoint(judged []Judged, t Threshold) (fpr, tpr float64, ok bool) {
	var tp, fp, pos, neg int
	for _, j := range judged {
		if j.Result == nil {
			continue
		}
		s, has := j.Result.Scores[t.Measure]
		if !has {
			continue
		}
		hit := 0
		if t.Crossed(s) {
			hit = 1
		}
		if j.Gold.Off {
			pos, tp = pos+1, tp+hit
		} else {
			neg, fp = neg+1, fp+hit
		}
	}
	if pos == 0 || neg == 0 {
		return 0, 0, false
	}
	return float64(fp) / float64(neg), float64(tp) / float64(pos), true
}

// rocAUC is the area under ROCPoints (trapezoids, so ties count half).
func rocAUC(judged []Judged, measure string) (float64, bool) {
	pts := ROCPoints(judged, measure)
	if len(pts) < 2 {
		return 0, false
	}
	var area float64
	for i := 1; i < len(pts); i++ {
		area += (pts[i][0] - pts[i-1][0]) * (pts[i][1] + pts[i-1][1]) / 2
	}
	return area, true
}

// SweepResult is one rule tried by Sweep with its quality.
type SweepResult struct {
	Rule      Rule
	Confusion Confusion
}

// SweepThresholds are the 21 thresholds tried per measure (see
// Measure.SweepThresholds): 0, 0.05, ..., 1 for similarities and -1, -0.95,
// ..., 0 for changes; none for an unknown measure.
func SweepThresholds(measure string) []float64 {
	m, ok := LookupMeasure(measure)
	if !ok {
		return nil
	}
	return m.SweepThresholds()
}

// Sweep tries 21 thresholds for every measure with scores, alone and in every
// pair (OR), as AlNoamany et al. did, and returns the best single-measure rule
// of each measure followed by the best pair of each two measures, each by F1.
func Sweep(judged []Judged) []SweepResult {
	var measures []string
	for _, m := range MeasureNames() {
		for _, j := range judged {
			if j.Result != nil {
				if _, ok := j.Result.Scores[m]; ok {
					measures = append(measures, m)
					break
				}
			}
		}
	}
	eval := func(r Rule) Confusion { return ConfusionOf(judged, r) }
	var out []SweepResult
	for _, m := range measures {
		best := SweepResult{Confusion: Confusion{FN: -1}}
		for _, t := range SweepThresholds(m) {
			r := Rule{{m, t}}
			if c := eval(r); best.Confusion.FN < 0 || c.F1() > best.Confusion.F1() {
				best = SweepResult{r, c}
			}
		}
		out = append(out, best)
	}
	for a := 0; a < len(measures); a++ {
		for b := a + 1; b < len(measures); b++ {
			best := SweepResult{Confusion: Confusion{FN: -1}}
			for _, ta := range SweepThresholds(measures[a]) {
				for _, tb := range SweepThresholds(measures[b]) {
					r := Rule{{measures[a], ta}, {measures[b], tb}}
					if c := eval(r); best.Confusion.FN < 0 || c.F1() > best.Confusion.F1() {
						best = SweepResult{r, c}
					}
				}
			}
			out = append(out, best)
		}
	}
	return out
}

// Scenario is what a labelled collection says happened to one capture: its
// scenario's name (gen_collection.py's "parked", "soft404", "on"...) and
// the kind of off-topic expected of it ("" when on-topic or unknown).
type Scenario struct {
	Name string
	Kind Kind
}

// ReadKinds reads an optional TSV (with a header naming a URI or urim column
// and a scenario or kind column, or both) that says what happened to each
// capture, for breaking errors down by scenario and measuring how often the
// kind of off-topic is named right. Without a kind column, the kind is that
// of the scenario's name (see ScenarioKind).
func ReadKinds(r io.Reader, name string) (map[GoldKey]Scenario, error) {
	cr := csv.NewReader(r)
	cr.Comma = '\t'
	cr.FieldsPerRecord = -1
	cr.LazyQuotes = true
	head, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	uc, sc, kc := -1, -1, -1
	for i, h := range head {
		switch strings.ToLower(h) {
		case "uri", "urim", "uri_m", "uri-m":
			uc = i
		case "scenario":
			sc = i
		case "kind":
			kc = i
		}
	}
	if uc < 0 || sc < 0 && kc < 0 {
		return nil, fmt.Errorf("%s: header needs a URI and a scenario (or kind) column, has %v", name, head)
	}
	out := map[GoldKey]Scenario{}
	for line := 2; ; line++ {
		rec, err := cr.Read()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s line %d: %w", name, line, err)
		}
		k, ok := KeyOfURIM(field(rec, uc))
		if !ok {
			continue
		}
		s := Scenario{Name: field(rec, sc)}
		if kind, ok := ParseKind(field(rec, kc)); ok {
			s.Kind = kind
		} else {
			s.Kind = ScenarioKind(s.Name)
		}
		if s.Name == "" {
			s.Name = string(s.Kind)
		}
		out[k] = s
	}
}

func field(rec []string, i int) string {
	if i < 0 || i >= len(rec) {
		return ""
	}
	return rec[i]
}

// ScenarioKind is the kind of off-topic of a scenario named as
// gen_collection.py names them ("" for on-topic and unknown names).
func ScenarioKind(name string) Kind {
	if k, ok := ParseKind(name); ok {
		return k
	}
	switch name {
	case "dberror":
		return KindError
	case "soft404":
		return KindNotFound
	case "construction":
		return KindMaintenance
	case "repurposed":
		return KindReplaced
	}
	return ""
}

// KindTally counts, for one expected kind, the off-topic captures caught
// (gold off-topic, judged off-topic) and how many of them were given that
// kind; Named counts the kinds given instead.
type KindTally struct {
	Kind   Kind
	Caught int
	Right  int
	Named  map[Kind]int
}

// Accuracy is the share of caught captures given the expected kind.
func (t KindTally) Accuracy() float64 {
	if t.Caught == 0 {
		return 0
	}
	return float64(t.Right) / float64(t.Caught)
}

// KindAccuracy tallies, per expected kind, how often the kind of a caught
// off-topic capture was named right, in the order of Kinds.
func KindAccuracy(judged []Judged, scenarios map[GoldKey]Scenario) []KindTally {
	by := map[Kind]*KindTally{}
	for _, j := range judged {
		want := scenarios[j.Key].Kind
		if want == "" || !j.Gold.Off || !j.PredOff() {
			continue
		}
		t := by[want]
		if t == nil {
			t = &KindTally{Kind: want, Named: map[Kind]int{}}
			by[want] = t
		}
		t.Caught++
		t.Named[j.Result.Kind]++
		if j.Result.Kind == want {
			t.Right++
		}
	}
	var out []KindTally
	for _, k := range Kinds() {
		if t := by[k]; t != nil {
			out = append(out, *t)
		}
	}
	return out
}

// CurvePoint is a rule's quality at one threshold.
type CurvePoint struct {
	Threshold float64
	Confusion Confusion
}

// ThresholdCurve is the quality of one measure alone at each of its 21 sweep
// thresholds (F1 against threshold, for choosing one).
func ThresholdCurve(judged []Judged, measure string) []CurvePoint {
	var out []CurvePoint
	for _, t := range SweepThresholds(measure) {
		out = append(out, CurvePoint{t, ConfusionOf(judged, Rule{{measure, t}})})
	}
	return out
}

// ConfusionOf judges the gold captures by a rule applied to their stored
// scores alone (a capture without scores counts as a wrong verdict).
func ConfusionOf(judged []Judged, r Rule) Confusion {
	var c Confusion
	for _, j := range judged {
		if j.Result == nil || j.Result.Scores == nil {
			c.Add(j.Gold.Off, !j.Gold.Off)
			continue
		}
		c.Add(j.Gold.Off, len(r.Crossed(j.Result.Scores)) > 0)
	}
	return c
}
