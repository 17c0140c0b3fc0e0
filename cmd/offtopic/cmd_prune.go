package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/offtopic/offtopic/prune"
	"github.com/offtopic/offtopic/report"
	"github.com/offtopic/offtopic/similarity"
)

func pruneCommand() *cli.Command {
	return &cli.Command{
		Name:      "prune",
		Usage:     "write a copy of the collection without its off-topic captures, or pywb rules that hide them",
		ArgsUsage: "[FILE.warc.gz...]",
		Description: `Reads a results file written by 'detect' (and optionally a reviewed spreadsheet
whose "curator decision" column wins over the automatic verdicts) and acts on
the collection's files (by default the inputs the results name):

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
   offtopic prune --results out --out-dir clean
   offtopic prune --results out --decisions reviewed.xlsx --out-dir clean
   offtopic prune --results out --decisions decisions.csv --unsure verdict --out-dir clean
   offtopic prune --results out --mode acl --out-dir acl`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "results", Value: "offtopic-out", Usage: "results file (or the directory holding results.jsonl) written by detect"},
			&cli.StringFlag{Name: "decisions", Usage: "curator decisions that override the verdicts: decisions.csv saved from the HTML report, or a reviewed XLSX (`FILE`)"},
			&cli.StringFlag{Name: "unsure", Value: "keep", Usage: "what a capture marked unsure becomes: `keep` it, leave it to its verdict, or off (left out)"},
			&cli.StringFlag{Name: "mode", Value: "copy", Usage: "`MODE`: copy (the collection without off-topic captures) or acl (pywb access rules)"},
			&cli.StringFlag{Name: "out-dir", Aliases: []string{"d"}, Required: true, Usage: "write into `DIR` (must not exist or be empty for copy)"},
			&cli.BoolFlag{Name: "keep-damaged", Usage: "copy damaged stretches of the inputs (cut or corrupt records, junk) as they are instead of leaving them out"},
			&cli.BoolFlag{Name: "strict", Usage: "exit non-zero when any input is damaged, an off-topic capture is in none of the given files, or a curator decision matches no capture"},
		},
		Action: runPrune,
	}
}

func runPrune(c *cli.Context) error {
	path := resultsPath(c.String("results"))
	var run report.Run
	f, err := os.Open(path)
	if err != nil {
		return cli.Exit("prune: "+err.Error(), 2)
	}
	defer f.Close()
	var decisions map[similarity.GoldKey]string
	if d := c.String("decisions"); d != "" {
		if decisions, err = report.ReadDecisions(d); err != nil {
			return cli.Exit("prune: "+err.Error(), 2)
		}
	}
	unsure, err := prune.ParseUnsure(c.String("unsure"))
	if err != nil {
		return cli.Exit("prune: --"+err.Error(), 2)
	}
	plan, err := prune.NewPlan(report.ReadResults(f, path, &run), decisions, unsure)
	if err != nil {
		return cli.Exit("prune: "+err.Error(), 1)
	}
	if plan.Unsure > 0 {
		what := map[prune.Unsure]string{prune.UnsureKeep: "kept", prune.UnsureVerdict: "left to their verdicts", prune.UnsureOff: "left out"}[unsure]
		fmt.Fprintf(c.App.ErrWriter, "offtopic: %d captures marked unsure: %s (--unsure)\n", plan.Unsure, what)
	}
	if n := len(plan.Unmatched); n > 0 {
		fmt.Fprintf(c.App.ErrWriter, "offtopic: %d curator decisions match no capture of %s (first: %s %s): a decisions file of another run or collection?\n",
			n, path, plan.Unmatched[0].Key, plan.Unmatched[0].TS)
	}
	files := c.Args().Slice()
	if len(files) == 0 {
		files = run.Inputs
	}
	if len(files) == 0 {
		return cli.Exit("prune: the results name no input files; give them as arguments", 2)
	}
	w := c.App.ErrWriter
	dir := c.String("out-dir")
	switch c.String("mode") {
	case "copy":
		plan.KeepDamaged = c.Bool("keep-damaged")
		sum, err := prune.Copy(c.Context, plan, files, dir)
		if err != nil {
			return cli.Exit("prune: "+err.Error(), 1)
		}
		var in, kept, ex int
		for _, fc := range sum.Files {
			fmt.Fprintf(w, "offtopic: %s: %d records = %d kept + %d excluded\n", filepath.Base(fc.File), fc.Records, fc.Kept, fc.Excluded)
			in, kept, ex = in+fc.Records, kept+fc.Kept, ex+fc.Excluded
		}
		for _, d := range sum.Damaged {
			fmt.Fprintf(w, "offtopic: damaged: %s: offset %d: %s\n", d.File, d.Offset, d.Reason)
		}
		for _, k := range plan.KeptOff {
			fmt.Fprintf(w, "offtopic: kept off-topic %s: %s\n", k.URIM, k.Because)
		}
		for _, a := range plan.AlsoOff {
			fmt.Fprintf(w, "offtopic: also excluded %s: %s\n", a.URIM, a.Reason)
		}
		damaged := fmt.Sprintf("%d damaged stretches left out", len(sum.Damaged))
		if plan.KeepDamaged {
			damaged = fmt.Sprintf("%d damaged stretches kept", len(sum.Damaged))
		}
		absent := plan.Absent()
		fmt.Fprintf(w, "offtopic: %d records in = %d kept + %d excluded (%d captures left out: %d off-topic, %d by curator decision, %d off-topic kept for revisits, %d revisits of curator-excluded payloads, %d not in the given files; %s); %d captures in %s\n",
			in, kept, ex, plan.Excluded()-len(absent), plan.OffTopic, plan.Decided, len(plan.KeptOff), len(plan.AlsoOff), len(absent), damaged, sum.Captures, filepath.Join(dir, "index.cdxj"))
		reportAbsent(w, absent)
		if c.Bool("strict") {
			if err := strictPrune(len(sum.Damaged), len(absent), len(plan.Unmatched)); err != nil {
				return err
			}
		}
	case "acl":
		warn := &warnings{w: w}
		sum, kept, err := prune.WriteACLFiles(c.Context, plan, files, dir, warn.add)
		if err != nil {
			return cli.Exit("prune: "+err.Error(), 1)
		}
		fmt.Fprintf(w, "offtopic: %d rules exclude %d of %d off-topic captures; kept.cdxj lists %d captures\n", sum.Rules, sum.Covered, plan.OffTopic, kept)
		if n := len(sum.Uncovered); n > 0 {
			fmt.Fprintf(w, "offtopic: %d off-topic captures lie between on-topic ones, which no rule can hide alone; kept.cdxj leaves them out\n", n)
		}
		warn.summary()
		absent := plan.Absent()
		reportAbsent(w, absent)
		if c.Bool("strict") {
			if warn.n > 0 {
				return cli.Exit(fmt.Sprintf("prune: %d records were skipped (--strict)", warn.n), 1)
			}
			if err := strictPrune(0, len(absent), len(plan.Unmatched)); err != nil {
				return err
			}
		}
	default:
		return cli.Exit("prune: --mode must be copy or acl", 2)
	}
	return nil
}

// reportAbsent says which off-topic captures of the results the given files
// do not hold (the first few).
func reportAbsent(w io.Writer, absent []prune.Exclusion) {
	if len(absent) == 0 {
		return
	}
	fmt.Fprintf(w, "offtopic: %d off-topic captures of the results are in none of the given files (moved, or files not given), e.g.:\n", len(absent))
	for _, a := range absent[:min(3, len(absent))] {
		fmt.Fprintf(w, "offtopic:   %s\n", a.URIM)
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
	return cli.Exit("prune: "+strings.Join(what, ", ")+" (--strict)", 1)
}

// resultsPath accepts a results file or the directory holding results.jsonl.
func resultsPath(path string) string {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return filepath.Join(path, "results.jsonl")
	}
	return path
}
