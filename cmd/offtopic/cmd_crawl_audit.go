package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/offtopic/offtopic/crawl"
	"github.com/offtopic/offtopic/report"
	"github.com/offtopic/offtopic/similarity"
	"github.com/offtopic/offtopic/timemap"
)

// auditOptions are crawl audit's flags.
type auditOptions struct {
	spec, outDir, evaluate string
	threshold              float64
	thresholdSet           bool
	seed                   int64
	quiet                  bool
	archive                archiveOptions
	// archiveURL makes the URI-Ms of local captures, as detect's.
	archiveURL string
}

func crawlAuditCommand() *cli.Command {
	o := &auditOptions{}
	return &cli.Command{
		Name:      "audit",
		Usage:     "score every document of an extracted collection against the event and flag the off-topic ones",
		ArgsUsage: "COLLECTION",
		Description: `Scores every HTML document of a collection (a crawl's --out-dir folder, or a
folder or file of WARCs) against the event of --spec, as the crawl scores what
it reads (topical relevance to the reference documents and keywords), and flags
those below a topical threshold or published outside the event's window (the
span widened by the lead and cool-down times). The threshold is learnt as in
Klein et al. by random splits of the reference documents' outlinks, here
against a random sample of the archive (the background): at the point where
the share of outlinks it flags equals the share of background it keeps, so
that it errs towards keeping what a curator would want (or --threshold). The
background's document frequencies weigh the terms, so that a page scores the
same in a focused collection as in a broad one. It writes the results file
and every report as detect --report-dir does (open offtopic.html to review),
so that evaluate, review and prune work on the collection. One TimeMap per
document; its score "topic" is its topical relevance (1 = as topical as the
reference documents).

The archive the collection was extracted from (--archive DIR, or a remote one
as crawl takes it: --cdx-server URL or --timegate URL) resolves the reference
documents, dates undated pages by their first capture and gives the background:
a local archive draws a random sample of its pages; a CDX server, which has
none, is sampled through its paging API (showNumPages, page=; the Internet
Archive's and pywb's ZipNum indexes), random pages of the captures of the
sites the collection comes from (else the first captures one query lists).
Without an archive, or through a TimeGate, the collection must hold the
reference documents and is its own background, which suits only a collection
mostly about other things (an unfocused or broad crawl); set --threshold for a
focused one.

Examples:
   offtopic crawl audit --spec spec.json --archive archive coll
   offtopic crawl audit --spec spec.json --archive archive \
       --evaluate relevant.tsv coll
   offtopic crawl audit --spec spec.json \
       --cdx-server https://web.archive.org/cdx/search/cdx \
       --memento-prefix https://web.archive.org/web coll
   offtopic crawl audit --spec spec.json \
       --timegate http://localhost:1208/timegate/ --threshold 0.1 coll
   offtopic prune --results coll-audit --out-dir coll-pruned`,
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "spec", Destination: &o.spec, Usage: "collection specification `FILE` (JSON; required)"},
			&cli.StringFlag{Name: "out-dir", Aliases: []string{"o"}, Destination: &o.outDir, DefaultText: "COLLECTION-audit",
				Usage: "write results and every report into `DIR`"},
			&cli.Float64Flag{Name: "threshold", Destination: &o.threshold, DefaultText: "learnt",
				Usage: "flag documents whose topic is below `T`", Action: func(*cli.Context, float64) error { o.thresholdSet = true; return nil }},
			&cli.Int64Flag{Name: "random-seed", Value: 1, Destination: &o.seed, Usage: "`N`, the random seed of the background sample and splits"},
			renamedInt64("seed", "random-seed", &o.seed, 1, "--seeds names a file of URLs"),
			archiveURLFlag(&o.archiveURL, ""),
			&cli.StringFlag{Name: "evaluate", Destination: &o.evaluate, Usage: "relevance list `TSV`: print precision and recall of the verdicts"},
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Destination: &o.quiet, Usage: "no summary on stderr"},
		}, o.archive.flags()...),
		Action: action(o.run),
	}
}

// run1 is crawl audit's action.
func (o *auditOptions) run(ctx context.Context, e env) error {
	if o.spec == "" || len(e.args) != 1 {
		return usagef("--spec and one COLLECTION are required")
	}
	if o.archive.count() > 1 {
		return usagef("give one archive (--archive DIR, --cdx-server URL or --timegate URL)")
	}
	spec, err := crawl.LoadSpec(o.spec)
	if err != nil {
		return asUsage(err)
	}
	var relevant map[string]bool
	if o.evaluate != "" {
		if relevant, err = crawl.ReadRelevant(o.evaluate); err != nil {
			return asUsage(err)
		}
	}
	in := e.first()
	coll, err := crawl.OpenLocal(ctx, in, "", nil)
	if err != nil {
		return err
	}
	opts := crawl.AuditOptions{Spec: spec, Seed: o.seed}
	if o.archive.count() == 1 {
		if opts.Archive, _, err = o.archive.open(ctx, spec, false); err != nil {
			return err
		}
	}
	if o.thresholdSet {
		opts.Threshold = &o.threshold
	}
	rep, err := crawl.AuditCollection(ctx, coll, opts)
	if err != nil {
		return err
	}
	dir := o.outDir
	if dir == "" {
		dir = strings.TrimSuffix(filepath.Clean(in), filepath.Ext(in)) + "-audit"
	}
	off, err := writeAudit(ctx, e, in, dir, o.archiveURL, spec, rep)
	if err != nil {
		return err
	}
	if !o.quiet {
		learnt := "given"
		if rep.Examples > 0 {
			learnt = fmt.Sprintf("learnt from %d examples against %d background pages of the %s; held out: %.0f%% of examples and %.0f%% of background pass",
				rep.Examples, rep.Background, rep.BackgroundFrom, 100*rep.HeldOut, 100*rep.FalsePass)
		}
		fmt.Fprintf(e.stderr, "crawl audit: %d documents, %d flagged off-topic (topic threshold %.3f %s) -> %s (results.jsonl, offtopic.html, offtopic.xlsx, offtopic.json, offtopic.csv)\n",
			len(rep.Documents), off, rep.Threshold, learnt, dir)
		fmt.Fprintf(e.stderr, "crawl audit: review %s, then: offtopic prune --results %s\n", filepath.Join(dir, "offtopic.html"), dir)
	}
	if relevant != nil {
		s := rep.Evaluate(relevant)
		fmt.Fprintf(e.stdout, "documents\t%d\nrelevant\t%d\nkept\t%d\nflagged\t%d\nprecision\t%.3f\nrecall\t%.3f\n",
			s.Documents, s.Relevant, s.Kept, s.Documents-s.Kept, s.Precision(), s.Recall())
	}
	return nil
}

// writeAudit writes the audit of collection in as a results file and every
// report into dir, URI-Ms of local captures under archiveURL; off is how
// many documents it flagged.
func writeAudit(ctx context.Context, e env, in, dir, archiveURL string, spec *crawl.Spec, rep *crawl.AuditReport) (off int, _ error) {
	from, to := rep.Event.Window()
	run := &report.Run{Tool: "offtopic", Version: version, Started: time.Now().UTC(), Inputs: absPaths([]string{in}), ArchiveURL: archiveURL, Measures: similarity.MeasureTopic + "=" + exact(rep.Threshold),
		Options: map[string]string{"audit": spec.Name, "threshold": exact(rep.Threshold), "examples": fmt.Sprint(rep.Examples),
			"background": fmt.Sprint(rep.Background), "background_from": rep.BackgroundFrom,
			"window": from.Format("2006-01-02") + "/" + to.Format("2006-01-02")}}
	var ds []destination
	for _, f := range report.ReportFormats {
		ds = append(ds, destination{f, filepath.Join(dir, report.FileName(f))})
	}
	out, err := openOutputs(ds, run, e.stdout)
	if err != nil {
		return 0, err
	}
	defer out.Abort()
	for _, d := range rep.Documents {
		if err := out.Write(auditResult(d, rep, archiveURL)); err != nil {
			return 0, err
		}
		if !d.OnTopic {
			off++
		}
	}
	return off, out.Commit()
}

// exact writes a threshold with every digit it has: a document whose
// topic is a hair below it stays below it in the reports.
func exact(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// auditResult is one audited document as a TimeMap of one capture, the unit
// of a results file; its URI-M and URI-T are in the archive at archiveURL
// (where the archive named no URI-M), never the live page.
func auditResult(d crawl.Audited, rep *crawl.AuditReport, archiveURL string) *similarity.TimeMapResult {
	cp := d.Capture
	if !cp.Revisit {
		cp.Payload = timemap.Location{}
	}
	verdict := similarity.VerdictOn
	if !d.OnTopic {
		verdict = similarity.VerdictOff
	}
	words := strings.Fields(d.Text)
	if len(words) > 30 {
		words = words[:30]
	}
	return &similarity.TimeMapResult{
		Key: timemap.Canonicalize(cp.URIR, timemap.CanonSURT), URIR: cp.URIR, T0Reason: "audit against the event's reference documents",
		URIT: timemap.LinkOptions{ArchivePrefix: archiveURL}.LinkTimeMapURI(&timemap.TimeMap{URIR: cp.URIR}),
		Captures: []similarity.CaptureResult{{
			URIR: cp.URIR, URIM: timemap.URIM(archiveURL, cp), Datetime: cp.Time, Status: cp.Status, MIME: cp.MIME, Digest: cp.Digest, Loc: cp.Loc, Payload: cp.Payload,
			Extractor: d.Extractor, Lang: d.Lang, Title: d.Title, WordCount: d.WordCount, ByteCount: d.ByteCount,
			Scores:  map[string]float64{similarity.MeasureTopic: d.Topic, "topic_r": d.TopicR, "temp_r": d.TempR, "relevance": d.Relevance},
			Verdict: verdict, Reason: d.Reason(rep.Threshold, rep.Event), Excerpt: strings.Join(words, " "),
			Published: &similarity.Published{Time: d.DocTime, From: d.DocTimeFrom, InWindow: d.InWindow},
		}},
	}
}
