package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/offtopic/offtopic/prune"
	"github.com/offtopic/offtopic/report"
	"github.com/offtopic/offtopic/similarity"
)

// pruneOptions are prune's flags.
type pruneOptions struct {
	results, decisions, unsure, mode, outDir string
	keepDamaged, strict                      bool
}

func pruneCommand() *cli.Command {
	o := &pruneOptions{}
	return &cli.Command{
		Name:      "prune",
		Usage:     "write a copy of the collection without its off-topic captures, or pywb rules that hide them",
		ArgsUsage: "[FILE.warc.gz...]",
		Description: `Reads a results file written by 'detect' (and optionally a reviewed spreadsheet
whose "curator decision" column wins over the automatic verdicts) and acts on
the collection's files (by default the inputs the results name; a folder
stands for the WARC and ARC files in it, as a crawl's or audit's does):

  --mode copy  (default) new WARC/ARC files in --out-dir that keep every record
               except the responses (and their paired request and metadata
               records) of off-topic captures, index.cdxj of the new files and
               excluded.tsv (what was left out and why). Damaged stretches of
               the inputs (cut or corrupt records, junk between records) are
               left out and listed too, unless --keep-damaged. An off-topic
               capture whose payload an on-topic revisit replays is kept (and
               said so), unless a curator decided it off-topic and the revisit
               was not decided: then the revisit goes too. Built in a temporary
               directory and renamed into place: no partial output, ever.
  --mode acl   offtopic.aclj (pywb access-control rules) and kept.cdxj (an
               index of the original files without the off-topic captures);
               no WARC is copied.

Examples:
   offtopic prune --results out                   (writes out-pruned)
   offtopic prune --results out --decisions reviewed.xlsx --out-dir clean
   offtopic prune --results out --decisions decisions.csv --unsure verdict \
       --out-dir clean
   offtopic prune --results out --mode acl --out-dir acl
   offtopic prune --results coll-audit            (after crawl audit coll)`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "results", Destination: &o.results, DefaultText: defaultResultsDir,
				Usage: "results `FILE`, or its folder, of detect or crawl audit"},
			&cli.StringFlag{Name: "decisions", Destination: &o.decisions,
				Usage: "curator decisions `FILE` (CSV or XLSX) that override verdicts (taken into the state beside the results, whose decisions apply without it)"},
			&cli.StringFlag{Name: "unsure", Value: "keep", Destination: &o.unsure,
				Usage: "captures marked unsure: `keep`, verdict or off"},
			&cli.StringFlag{Name: "mode", Value: "copy", Destination: &o.mode,
				Usage: "`MODE`: copy (a pruned copy) or acl (pywb rules)"},
			&cli.StringFlag{Name: "out-dir", Aliases: []string{"d"}, Destination: &o.outDir, DefaultText: "RESULTS-pruned or RESULTS-acl",
				Usage: "write into `DIR` (copy: new or empty)"},
			&cli.BoolFlag{Name: "keep-damaged", Destination: &o.keepDamaged,
				Usage: "copy damaged stretches of the inputs, not leave them out"},
			&cli.BoolFlag{Name: "strict", Destination: &o.strict, Category: catRun,
				Usage: "exit 1 when anything could not be done as the results and decisions ask"},
		},
		Action: action(o.run),
	}
}

// prunePlan is what prune's flags and results ask for.
type prunePlan struct {
	plan    *prune.Plan
	unsure  prune.Unsure
	files   []string
	dir     string
	results string // the results file
}

// plan reads the results and decisions and checks the flags: errors are
// usage errors, except a results file that cannot be read whole.
func (o *pruneOptions) plan(ctx context.Context, args []string, stderr io.Writer) (*prunePlan, error) {
	if o.mode != "copy" && o.mode != "acl" {
		return nil, usagef("--mode %q: want copy or acl", o.mode)
	}
	unsure, err := prune.ParseUnsure(o.unsure)
	if err != nil {
		return nil, usagef("--%w", err)
	}
	rf, err := openResults(o.results, stderr)
	if err != nil {
		return nil, err
	}
	defer rf.Close()
	var decisions map[similarity.GoldKey]string
	if o.decisions != "" {
		if decisions, err = report.ReadDecisions(o.decisions); err != nil {
			return nil, asUsage(err)
		}
	}
	// The state beside the results remembers every decision taken in: a
	// file given is added to it, and none need be given again.
	if decisions, err = besideResults(ctx, stderr, rf.dir, o.decisions, decisions); err != nil {
		return nil, err
	}
	plan, err := prune.NewPlan(rf.all(), decisions, unsure)
	if err != nil {
		return nil, err
	}
	if rf.defaulted && o.decisions != "" && len(decisions) > 0 && len(plan.Unmatched) == len(decisions) {
		return nil, usagef("none of the %d decisions in %s is of a capture in %s, the default results: name the results of the run you reviewed with --results",
			len(decisions), o.decisions, rf.path)
	}
	p := &prunePlan{plan: plan, unsure: unsure, files: args, dir: o.outDir, results: rf.path}
	if len(p.files) == 0 {
		if p.files, err = namedInputs(rf); err != nil {
			return nil, err
		}
	}
	if p.files, err = collectionFiles(p.files); err != nil {
		return nil, err
	}
	if p.dir == "" {
		p.dir = defaultPruneDir(rf.dir, o.mode)
	}
	return p, nil
}

// namedInputs are the collection's files the results name. Results record
// them as absolute paths; those of older versions relative to the folder
// detect ran in, which only works from there: a file not found is a usage
// error that says what to do.
func namedInputs(rf *resultsFile) ([]string, error) {
	for _, f := range rf.run.Inputs {
		if _, err := os.Stat(f); err != nil {
			hint := "give the collection's files as arguments: offtopic prune --results " + rf.path + " FILE..."
			if !filepath.IsAbs(f) {
				hint = "the results name it relative to the folder detect ran in: run prune from there, or " + hint
			}
			return nil, usagef("%s names the input %s, which cannot be read (%w); %s", rf.path, f, errors.Unwrap(err), hint)
		}
	}
	return rf.run.Inputs, nil
}

// defaultPruneDir is where prune writes when not told: beside the results
// folder, named after it (out: out-pruned or out-acl), never into the
// collection's files.
func defaultPruneDir(resultsDir, mode string) string {
	if abs, err := filepath.Abs(resultsDir); err == nil && filepath.Clean(resultsDir) == "." {
		resultsDir = abs
	}
	suffix := "-pruned"
	if mode == "acl" {
		suffix = "-acl"
	}
	return filepath.Clean(resultsDir) + suffix
}

// collectionFiles are the WARC and ARC files paths name: a folder stands
// for the files in it (a crawl's or an audit's collection), in name order.
func collectionFiles(paths []string) ([]string, error) {
	if len(paths) == 0 {
		return nil, usagef("the results name no input files; give them as arguments")
	}
	var files []string
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil || !fi.IsDir() {
			if err == nil {
				if err := looksLikeRecords(p); err != nil {
					return nil, err
				}
			}
			files = append(files, p) // a file, or what the reader says cannot be read
			continue
		}
		var in []string
		for _, pat := range []string{"*.warc.gz", "*.warc", "*.arc.gz", "*.arc"} {
			m, _ := filepath.Glob(filepath.Join(p, pat))
			in = append(in, m...)
		}
		if len(in) == 0 {
			return nil, fmt.Errorf("%s: no WARC or ARC files in the folder", p)
		}
		slices.Sort(in)
		files = append(files, in...)
	}
	return files, nil
}

// looksLikeRecords refuses (a usage error) a file that neither is named nor
// starts like a WARC or ARC file: a gold standard or a report given where
// the collection goes. A file named like one is read whatever it starts
// with: junk before the first record is a damaged stretch, reported as such.
func looksLikeRecords(path string) error {
	if isRecordFile(path) {
		return nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil // the reader says why
	}
	defer f.Close()
	head := make([]byte, 64)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	start := bytes.TrimLeft(head, " \t\r\n")
	// Compressed in a way the reader refuses (zstd, bzip2, xz): it says so.
	for _, magic := range [][]byte{{0x1f, 0x8b}, {0x28, 0xb5, 0x2f, 0xfd}, []byte("BZh"), {0xfd, '7', 'z', 'X', 'Z', 0}, []byte("WARC/"), []byte("filedesc:")} {
		if bytes.HasPrefix(start, magic) || n == 0 {
			return nil
		}
	}
	shown := strings.Map(func(r rune) rune {
		if r < ' ' || r == 0x7f {
			return ' '
		}
		return r
	}, strings.ToValidUTF8(string(head[:min(n, 32)]), "?"))
	return usagef("%s is not a WARC or ARC file (it starts %q): give WARC/ARC files, or folders of them (gold standards and decisions go to --gold and --decisions)", path, shown)
}

// isRecordFile reports whether a file is named like a WARC or ARC file.
func isRecordFile(path string) bool {
	n := strings.ToLower(path)
	for _, ext := range []string{".warc", ".warc.gz", ".arc", ".arc.gz", ".warc.zst", ".arc.zst", ".warc.bz2", ".warc.xz"} {
		if strings.HasSuffix(n, ext) {
			return true
		}
	}
	return false
}

// run1 is prune's action.
func (o *pruneOptions) run(ctx context.Context, e env) error {
	p, err := o.plan(ctx, e.args, e.stderr)
	if err != nil {
		return err
	}
	w := e.stderr
	plan := p.plan
	if n := plan.DecidedOn + plan.DecidedOff + plan.Unsure; n > 0 {
		fmt.Fprintf(w, "offtopic: %s: %d off-topic, %d on-topic, %d unsure", count(n, "curator decision"), plan.DecidedOff, plan.DecidedOn, plan.Unsure)
		if plan.Unsure > 0 {
			fmt.Fprintf(w, " (%s: --unsure %s)", map[prune.Unsure]string{prune.UnsureKeep: "kept", prune.UnsureVerdict: "left to the verdicts", prune.UnsureOff: "left out"}[p.unsure], o.unsure)
		}
		fmt.Fprintln(w)
	}
	if n := len(plan.Unmatched); n > 0 {
		fmt.Fprintf(w, "offtopic: %d curator decisions match no capture of %s (first: %s %s): a decisions file of another run or collection?\n",
			n, p.results, plan.Unmatched[0].Key, plan.Unmatched[0].TS)
	}
	if o.mode == "acl" {
		return o.acl(ctx, e, p)
	}
	return o.copy(ctx, e, p)
}

// copy writes the collection without its off-topic captures (--mode copy).
func (o *pruneOptions) copy(ctx context.Context, e env, p *prunePlan) error {
	w, plan := e.stderr, p.plan
	plan.KeepDamaged = o.keepDamaged
	sum, err := prune.Copy(ctx, plan, p.files, p.dir)
	if err != nil {
		return err
	}
	var in, kept, ex int
	for _, fc := range sum.Files {
		fmt.Fprintf(w, "offtopic: %s: %d records = %d kept + %d excluded\n", filepath.Base(fc.File), fc.Records, fc.Kept, fc.Excluded)
		in, kept, ex = in+fc.Records, kept+fc.Kept, ex+fc.Excluded
	}
	for _, d := range sum.Damaged {
		fmt.Fprintf(w, "offtopic: damaged: %s: offset %d: %s\n", printable(d.File), d.Offset, printable(d.Reason))
	}
	for _, k := range plan.KeptOff {
		fmt.Fprintf(w, "offtopic: kept off-topic %s: %s\n", printable(k.URIM), printable(k.Because))
	}
	for _, a := range plan.AlsoOff {
		fmt.Fprintf(w, "offtopic: also excluded %s: %s\n", printable(a.URIM), printable(a.Reason))
	}
	fmt.Fprintf(w, "offtopic: %d records in = %d kept + %d excluded\n", in, kept, ex)
	fmt.Fprintln(w, "offtopic:", leftOutSummary(plan))
	if n := len(plan.KeptOff); n > 0 {
		fmt.Fprintf(w, "offtopic: %s kept: revisits replay them\n", count(n, "off-topic capture"))
	}
	if n := len(sum.Damaged); n > 0 {
		left := 0 // the others are copied with the records they follow or share a gzip member with
		for _, d := range sum.Damaged {
			if slices.ContainsFunc(sum.Excluded, func(e prune.ExcludedRecord) bool { return e.File == d.File && e.Offset == d.Offset }) {
				left++
			}
		}
		switch {
		case plan.KeepDamaged:
			fmt.Fprintf(w, "offtopic: %s of the inputs kept (--keep-damaged)\n", count(n, "damaged stretch"))
		case left == n:
			fmt.Fprintf(w, "offtopic: %s of the inputs left out\n", count(n, "damaged stretch"))
		default:
			fmt.Fprintf(w, "offtopic: %s of the inputs: %d left out, %d kept with the records they go with\n", count(n, "damaged stretch"), left, n-left)
		}
	}
	absent := plan.Absent()
	reportAbsent(w, absent)
	fmt.Fprintf(w, "offtopic: wrote %s (%s)\n", p.dir, count(sum.Captures, "capture"))
	if o.strict {
		return strictPrune(len(sum.Damaged), len(absent), len(plan.Unmatched))
	}
	return nil
}

// acl writes pywb access rules and an index without the off-topic
// captures (--mode acl).
func (o *pruneOptions) acl(ctx context.Context, e env, p *prunePlan) error {
	w, plan := e.stderr, p.plan
	warn := &warnings{w: w}
	sum, kept, err := prune.WriteACLFiles(ctx, plan, p.files, p.dir, warn.add)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "offtopic: %d rules exclude %d of %d off-topic captures; kept.cdxj lists %d captures\n", sum.Rules, sum.Covered, plan.OffTopic, kept)
	if n := len(sum.Uncovered); n > 0 {
		fmt.Fprintf(w, "offtopic: %d off-topic captures lie between on-topic ones, which no rule can hide alone; kept.cdxj leaves them out\n", n)
	}
	warn.summary()
	absent := plan.Absent()
	reportAbsent(w, absent)
	if !o.strict {
		return nil
	}
	if warn.n > 0 {
		return fmt.Errorf("%d records were skipped (--strict)", warn.n)
	}
	return strictPrune(0, len(absent), len(plan.Unmatched))
}

// leftOutSummary says how many captures a copy left out and why, parts
// that add up to the whole.
func leftOutSummary(plan *prune.Plan) string {
	n := plan.LeftOut()
	parts := []string{fmt.Sprintf("%d off-topic by verdict", n[prune.ByVerdict]), fmt.Sprintf("%d by curator decision", n[prune.ByCurator])}
	if r := n[prune.ByRevisit]; r > 0 {
		parts = append(parts, fmt.Sprintf("%d replaying what a curator left out", r))
	}
	return fmt.Sprintf("%s left out: %s", count(n[prune.ByVerdict]+n[prune.ByCurator]+n[prune.ByRevisit], "capture"), strings.Join(parts, ", "))
}

// count is n and noun, plural unless n is 1 ("1 capture", "2 captures",
// "3 damaged stretches").
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	if strings.HasSuffix(noun, "ch") || strings.HasSuffix(noun, "s") {
		return fmt.Sprintf("%d %ses", n, noun)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// reportAbsent says which off-topic captures of the results the given files
// do not hold (the first few).
func reportAbsent(w io.Writer, absent []prune.Exclusion) {
	if len(absent) == 0 {
		return
	}
	fmt.Fprintf(w, "offtopic: %d off-topic captures of the results are in none of the given files (moved, or files not given), e.g.:\n", len(absent))
	for _, a := range absent[:min(3, len(absent))] {
		fmt.Fprintf(w, "offtopic:   %s\n", printable(a.URIM))
	}
}

// strictPrune is --strict's verdict on what a prune could not do as the
// results and decisions asked.
func strictPrune(damaged, absent, unmatched int) error {
	var what []string
	if damaged > 0 {
		what = append(what, fmt.Sprintf("%d damaged stretches in the inputs", damaged))
	}
	if absent > 0 {
		what = append(what, fmt.Sprintf("%d off-topic captures in none of the given files", absent))
	}
	if unmatched > 0 {
		what = append(what, fmt.Sprintf("%d curator decisions that match no capture", unmatched))
	}
	if len(what) == 0 {
		return nil
	}
	return errors.New(strings.Join(what, ", ") + " (--strict)")
}
