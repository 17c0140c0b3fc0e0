package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/urfave/cli/v2"

	"github.com/offtopic/offtopic/internal/atomicfile"
	"github.com/offtopic/offtopic/report"
	"github.com/offtopic/offtopic/similarity"
)

// evaluateOptions are evaluate's flags.
type evaluateOptions struct {
	gold, report, kinds string
	sweep               bool
	misses              int
}

func evaluateCommand() *cli.Command {
	o := &evaluateOptions{}
	return &cli.Command{
		Name:      "evaluate",
		Usage:     "measure detection results against a gold standard",
		ArgsUsage: "[RESULTS.jsonl|DIR]",
		Description: `Matches captures by canonical URI-R and 14-digit timestamp and prints TP, FP,
TN, FN, accuracy, precision, recall and F1 (off-topic is the positive class),
and the ROC AUC of each measure's raw score. RESULTS is a results file written
by 'detect' or the directory holding results.jsonl (default: ` + defaultResultsDir + `).

Examples:
   offtopic evaluate --gold gold.tsv out
   offtopic evaluate --gold ~/Downloads/decisions.csv out
   offtopic evaluate --gold gold.tsv --sweep --kinds scenarios.tsv \
       out/results.jsonl`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "gold", Destination: &o.gold,
				Usage: "gold standard `FILE` (required): a TSV, decisions.csv or a reviewed XLSX"},
			&cli.StringFlag{Name: "report-dir", Destination: &o.report,
				Usage: "also write the evaluation page (evaluation.html) into `DIR`"},
			renamedString("report", "report-dir", &o.report, "as detect's"),
			&cli.BoolFlag{Name: "sweep", Destination: &o.sweep,
				Usage: "try 21 thresholds per measure and every pair; print the best by F1"},
			&cli.StringFlag{Name: "kinds", Destination: &o.kinds,
				Usage: "TSV with URI and scenario (or kind) columns: errors by kind (`FILE`)"},
			&cli.IntFlag{Name: "misses", Destination: &o.misses,
				Usage: "list up to `N` wrong verdicts with their scores"},
		},
		Action: action(o.run),
	}
}

// run1 is evaluate's action.
func (o *evaluateOptions) run(ctx context.Context, e env) error {
	if o.gold == "" {
		return usagef("--gold is required")
	}
	gold, err := readGold(o.gold, func(err error) { fmt.Fprintln(e.stderr, "evaluate: warning:", err) })
	if err != nil {
		return asUsage(err)
	}
	rf, err := openResults(e.first(), e.stderr)
	if err != nil {
		return err
	}
	defer rf.Close()
	if err := o.remember(ctx, e.stderr, rf.dir); err != nil {
		return err
	}
	var results []*similarity.TimeMapResult
	for r, err := range rf.all() {
		if err != nil {
			return err
		}
		results = append(results, r)
	}
	ev := similarity.Evaluate(gold, results)
	w := e.stdout
	printEvaluation(w, ev, rf.run.Measures)
	printLanguages(w, ev)
	if o.kinds != "" {
		kinds, err := readKinds(o.kinds)
		if err != nil {
			return asUsage(err)
		}
		printKinds(w, ev, kinds)
	}
	if o.misses > 0 {
		printMisses(w, ev, o.misses)
	}
	if o.report != "" {
		if err := writeEvaluationPage(e.stderr, o.report, &rf.run, ev, results); err != nil {
			return err
		}
	}
	if o.sweep {
		printSweep(w, ev)
	}
	return nil
}

// remember takes curator decisions given as --gold (CSV or XLSX, not a
// gold standard TSV) into the state beside the results, if there is one.
func (o *evaluateOptions) remember(ctx context.Context, w io.Writer, dir string) error {
	if ext := strings.ToLower(filepath.Ext(o.gold)); ext != ".xlsx" && ext != ".csv" {
		return nil
	}
	d, err := report.ReadDecisions(o.gold)
	if err != nil {
		return asUsage(err)
	}
	_, err = besideResults(ctx, w, dir, o.gold, d)
	return err
}

// readKinds reads a TSV of scenarios (or kinds) by URI.
func readKinds(path string) (map[similarity.GoldKey]similarity.Scenario, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return similarity.ReadKinds(f, path)
}

// writeEvaluationPage writes evaluation.html into dir.
func writeEvaluationPage(stderr io.Writer, dir string, run *report.Run, ev *similarity.Evaluation, results []*similarity.TimeMapResult) error {
	page, err := atomicfile.Create(filepath.Join(dir, "evaluation.html"))
	if err != nil {
		return err
	}
	defer page.Close()
	if err := report.WriteEvaluationHTML(page, run, ev, report.EvalOptions{Results: results}); err != nil {
		return fmt.Errorf("write %s: %w", page.Path(), err)
	}
	if err := page.Commit(); err != nil {
		return err
	}
	fmt.Fprintln(stderr, "offtopic: wrote", page.Path())
	return nil
}

// printSweep prints the best rules of the sweep by F1.
func printSweep(w io.Writer, ev *similarity.Evaluation) {
	fmt.Fprintln(w, "\nSweep (21 thresholds per measure, OR of pairs), best by F1:")
	for _, s := range similarity.Sweep(ev.Judged) {
		auc := ""
		if len(s.Rule) == 1 {
			auc = fmt.Sprintf("AUC=%.4f ", ev.AUC[s.Rule[0].Measure])
		}
		fmt.Fprintf(w, "  %-40s %s%s\n", s.Rule.String(), auc, formatConfusion(s.Confusion))
	}
}

// readGold reads a gold standard; warn hears of what is left out of it.
func readGold(path string, warn func(error)) (similarity.Gold, error) {
	if ext := strings.ToLower(filepath.Ext(path)); ext == ".xlsx" || ext == ".csv" {
		d, err := report.ReadDecisions(path)
		if err != nil {
			return nil, err
		}
		if len(d) == 0 {
			return nil, fmt.Errorf("%s: no on-topic or off-topic decisions (mark captures in the HTML report and save, or fill in the %q column of the XLSX's Captures sheet)", path, report.DecisionColumn)
		}
		return report.DecisionsGold(d), nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return similarity.ReadGoldTSV(f, path, warn)
}

func formatConfusion(c similarity.Confusion) string {
	return fmt.Sprintf("TP=%d FP=%d TN=%d FN=%d accuracy=%.4f precision=%.4f recall=%.4f F1=%.4f",
		c.TP, c.FP, c.TN, c.FN, c.Accuracy(), c.Precision(), c.Recall(), c.F1())
}

func printEvaluation(w io.Writer, ev *similarity.Evaluation, measures string) {
	fmt.Fprintf(w, "gold captures: %d (absent from the results: %d; not scored, so not off-topic: %d; scored captures not in the gold standard: %d)\n",
		len(ev.Judged), ev.Missing, ev.NotScored, ev.Extra)
	if measures != "" {
		fmt.Fprintf(w, "verdicts (%s), off-topic is the positive class:\n", measures)
	} else {
		fmt.Fprintln(w, "verdicts, off-topic is the positive class:")
	}
	fmt.Fprintf(w, "  %s\n", formatConfusion(ev.Confusion))
	printSeeds(w, ev)
	fmt.Fprintln(w, "ROC AUC of each measure's raw score:")
	for _, m := range similarity.MeasureNames() {
		if auc, ok := ev.AUC[m]; ok {
			fmt.Fprintf(w, "  %-15s %.4f\n", m, auc)
		}
	}
	fmt.Fprintln(w, "each measure alone at its default threshold (Table 2 of the paper for the paper's measures):")
	for _, m := range similarity.MeasureNames() {
		if _, ok := ev.AUC[m]; !ok {
			continue
		}
		def, _ := similarity.LookupMeasure(m)
		rule := similarity.Rule{{Measure: m, Value: def.Threshold}}
		cm := similarity.ConfusionOf(ev.Judged, rule)
		fmt.Fprintf(w, "  %-22s %s\n", rule.String(), formatConfusion(cm))
	}
}

// worstSeeds is how many of the seeds with the lowest F1 printSeeds names.
const worstSeeds = 3

// printSeeds prints the F1 by seed (macro) and the seeds that fare worst.
func printSeeds(w io.Writer, ev *similarity.Evaluation) {
	macro, n := ev.MacroF1()
	if n == 0 {
		return
	}
	fmt.Fprintf(w, "  F1 by seed (macro) %.4f, over the %d seeds with an off-topic capture in the gold standard or the results\n", macro, n)
	var wrong []similarity.SeedConfusion
	for _, sc := range ev.BySeed() {
		if c := sc.Confusion; c.FP+c.FN > 0 {
			wrong = append(wrong, sc)
		}
	}
	sort.SliceStable(wrong, func(i, j int) bool { return wrong[i].Confusion.F1() < wrong[j].Confusion.F1() })
	for _, sc := range wrong[:min(worstSeeds, len(wrong))] {
		c := sc.Confusion
		fmt.Fprintf(w, "    lowest: seed %s F1=%.4f (TP=%d FP=%d FN=%d)\n", sc.Seed, c.F1(), c.TP, c.FP, c.FN)
	}
}

// printLanguages prints the verdicts of each page language, where there
// are several.
func printLanguages(w io.Writer, ev *similarity.Evaluation) {
	by := ev.ByLang()
	if len(by) < 2 {
		return
	}
	fmt.Fprintln(w, "by language of the page (t0's):")
	for _, l := range by {
		name := l.Lang
		if name == "" {
			name = "unknown"
		}
		fmt.Fprintf(w, "  %-8s %s\n", name, formatConfusion(l.Confusion))
	}
}

func printKinds(w io.Writer, ev *similarity.Evaluation, kinds map[similarity.GoldKey]similarity.Scenario) {
	by := map[string]map[string]int{}
	for _, j := range ev.Judged {
		k := kinds[j.Key].Name
		if k == "" {
			k = "?"
		}
		if by[k] == nil {
			by[k] = map[string]int{}
		}
		by[k][j.Outcome()]++
	}
	names := make([]string, 0, len(by))
	for k := range by {
		names = append(names, k)
	}
	sort.Strings(names)
	fmt.Fprintln(w, "by kind:")
	for _, k := range names {
		var parts []string
		for _, o := range []string{"TP", "FN", "TN", "FP", "missing"} {
			if n := by[k][o]; n > 0 {
				parts = append(parts, fmt.Sprintf("%s=%d", o, n))
			}
		}
		fmt.Fprintf(w, "  %-14s %s\n", k, strings.Join(parts, " "))
	}
	tallies := similarity.KindAccuracy(ev.Judged, kinds)
	if len(tallies) == 0 {
		return
	}
	fmt.Fprintln(w, "kind of off-topic named right (of the off-topic captures caught):")
	for _, t := range tallies {
		var wrong []string
		for _, k := range similarity.Kinds() {
			if n := t.Named[k]; n > 0 && k != t.Kind {
				wrong = append(wrong, fmt.Sprintf("%s %d", k, n))
			}
		}
		if n := t.Named[""]; n > 0 {
			wrong = append(wrong, fmt.Sprintf("none %d", n))
		}
		line := fmt.Sprintf("  %-12s %d/%d %5.1f%%", t.Kind, t.Right, t.Caught, 100*t.Accuracy())
		if len(wrong) > 0 {
			line += " (named " + strings.Join(wrong, ", ") + ")"
		}
		fmt.Fprintln(w, line)
	}
}

func printMisses(w io.Writer, ev *similarity.Evaluation, n int) {
	wrong := 0
	for _, j := range ev.Judged {
		if o := j.Outcome(); o != "TP" && o != "TN" {
			wrong++
		}
	}
	if wrong == 0 {
		fmt.Fprintln(w, "wrong verdicts: none")
		return
	}
	if wrong > n {
		fmt.Fprintf(w, "wrong verdicts: %d (the first %d; FP = detected off-topic but on-topic, FN = missed off-topic):\n", wrong, n)
	} else {
		fmt.Fprintf(w, "wrong verdicts: %d (FP = detected off-topic but on-topic, FN = missed off-topic):\n", wrong)
	}
	for _, j := range ev.Judged {
		o := j.Outcome()
		if o == "TP" || o == "TN" {
			continue
		}
		if n == 0 {
			break
		}
		n--
		if j.Result == nil {
			fmt.Fprintf(w, "  %-7s %s\n", o, printable(j.Gold.URIM))
			continue
		}
		var sc []string
		for _, m := range similarity.MeasureNames() {
			if s, ok := j.Result.Scores[m]; ok {
				sc = append(sc, fmt.Sprintf("%s=%.3f", m, s))
			}
		}
		fmt.Fprintf(w, "  %-7s %s words=%d %s [%s] %.80q\n", o, printable(j.Gold.URIM), j.Result.WordCount, strings.Join(sc, " "), printable(j.Result.Reason), j.Result.Excerpt)
	}
}

// printable renders s for a terminal: control characters (C0, DEL, C1),
// format characters such as bidi overrides and bytes that are not UTF-8 are
// written as Go escapes (\x1b, \u202e), and a backslash as \\, so that a
// URI-M from a gold file or results cannot drive the terminal and reads
// unambiguously; everything else is as it is.
func printable(s string) string {
	clean := true
	for _, r := range s {
		if r == utf8.RuneError || r == '\\' || !strconv.IsPrint(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n <= 1:
			fmt.Fprintf(&b, "\\x%02x", s[i])
		case r == '\\':
			b.WriteString(`\\`)
		case !strconv.IsPrint(r):
			q := strconv.QuoteRune(r) // '\x1b', '\u202e'
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteRune(r)
		}
		i += n
	}
	return b.String()
}
