package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/offtopic/offtopic/crawl"
	"github.com/offtopic/offtopic/report"
	"github.com/offtopic/offtopic/similarity"
	"github.com/offtopic/offtopic/timemap"
)

func crawlAuditCommand() *cli.Command {
	return &cli.Command{
		Name:      "audit",
		Usage:     "score every document of an extracted collection against the event and flag the off-topic ones",
		ArgsUsage: "COLLECTION",
		Description: `Scores every HTML document of a collection (a crawl's --out folder, or a folder
or file of WARCs) against the event of --spec, as the crawl scores what it
reads (topical relevance to the reference documents and keywords), and flags
those below a topical threshold or published outside the event's window (the
span widened by the lead and cool-down times). The threshold is learnt as in
Klein et al. by random splits of the reference documents' outlinks, here as
the cut that best separates them from a random sample of the archive (or
--threshold). It writes the results file and every report as detect
--report-dir does (open offtopic.html to review), so that evaluate, review and
prune work on the collection. One TimeMap per document; its score "topic" is
its topical relevance (1 = as topical as the reference documents).

The archive the collection was extracted from (--archive DIR, or a remote one
as crawl takes it: --cdx-server URL or --timegate URL) resolves the reference
documents and dates undated pages by their first capture; a local archive also
gives the background sample. Without an archive the collection must hold the
reference documents. Without a local archive the collection is its own
background, which suits only a collection mostly about other things (an
unfocused or broad crawl); set --threshold for a focused one.

Examples:
   offtopic crawl audit --spec spec.json --archive archive coll
   offtopic crawl audit --spec spec.json --archive archive --evaluate relevant.tsv coll
   offtopic crawl audit --spec spec.json --timegate http://localhost:1208/timegate/ --threshold 0.1 coll
   offtopic prune --results coll-audit/results.jsonl coll/*.warc.gz`,
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "spec", Usage: "collection specification `FILE` (JSON)"},
			&cli.StringFlag{Name: "archive", Usage: "source archive `DIR` (WARC files with index.cdxj)"},
			&cli.StringFlag{Name: "index", Usage: "CDXJ/CDX index `FILE` of the archive (default DIR/index.cdxj)"},
			&cli.StringFlag{Name: "timegate", Usage: "source archive behind a Memento TimeGate or aggregator `URL` (as crawl)"},
			&cli.StringFlag{Name: "out-dir", Aliases: []string{"o"}, Usage: "write the results file and every report (offtopic.html, offtopic.xlsx, offtopic.json, offtopic.csv) into `DIR` (default COLLECTION-audit)"},
			&cli.Float64Flag{Name: "threshold", Usage: "flag documents whose topic is below `T` instead of the learnt threshold"},
			&cli.Int64Flag{Name: "seed", Value: 1, Usage: "random seed of the background sample and the threshold's splits"},
			&cli.StringFlag{Name: "evaluate", Usage: "relevance list `TSV`: print precision and recall of the on-topic verdicts"},
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "no summary on stderr"},
		}, append(cdxServerFlags(), clientFlags()...)...),
		Action: runCrawlAudit,
	}
}

func runCrawlAudit(c *cli.Context) error {
	if c.String("spec") == "" || c.NArg() != 1 {
		return cli.Exit("crawl audit: --spec and one COLLECTION are required", 2)
	}
	spec, err := crawl.LoadSpec(c.String("spec"))
	if err != nil {
		return cli.Exit("crawl audit: "+err.Error(), 2)
	}
	var relevant map[string]bool
	if p := c.String("evaluate"); p != "" {
		if relevant, err = crawl.ReadRelevant(p); err != nil {
			return cli.Exit("crawl audit: "+err.Error(), 2)
		}
	}
	in := c.Args().First()
	coll, err := crawl.OpenLocal(c.Context, in, "", nil)
	if err != nil {
		return cli.Exit("crawl audit: "+err.Error(), 1)
	}
	opts := crawl.AuditOptions{Spec: spec, Seed: c.Int64("seed")}
	sources := crawlSources(c)
	if sources > 1 {
		return cli.Exit("crawl audit: give one archive (--archive DIR, --cdx-server URL or --timegate URL)", 2)
	}
	if sources == 1 {
		src, _, code, err := openCrawlArchive(c, spec)
		if err != nil {
			return cli.Exit("crawl audit: "+err.Error(), code)
		}
		opts.Archive = src
	}
	if c.IsSet("threshold") {
		t := c.Float64("threshold")
		opts.Threshold = &t
	}
	rep, err := crawl.AuditCollection(c.Context, coll, opts)
	if err != nil {
		return cli.Exit("crawl audit: "+err.Error(), 1)
	}
	dir := c.String("out-dir")
	if dir == "" {
		dir = strings.TrimSuffix(filepath.Clean(in), filepath.Ext(in)) + "-audit"
	}
	from, to := rep.Event.Window()
	run := &report.Run{Tool: "offtopic", Version: version, Started: time.Now().UTC(), Inputs: []string{in}, Measures: fmt.Sprintf("%s=%.4f", similarity.MeasureTopic, rep.Threshold),
		Options: map[string]string{"audit": spec.Name, "threshold": fmt.Sprintf("%.4f", rep.Threshold), "examples": fmt.Sprint(rep.Examples),
			"background": fmt.Sprint(rep.Background), "background_from": rep.BackgroundFrom,
			"window": from.Format("2006-01-02") + "/" + to.Format("2006-01-02")}}
	out := &report.Outputs{}
	for _, f := range report.ReportFormats {
		if err := out.Add(f, filepath.Join(dir, report.FileName(f)), run, c.App.Writer); err != nil {
			out.Abort()
			return cli.Exit("crawl audit: "+err.Error(), 1)
		}
	}
	off := 0
	for _, d := range rep.Documents {
		if err := out.Write(auditResult(d, rep)); err != nil {
			out.Abort()
			return cli.Exit("crawl audit: "+err.Error(), 1)
		}
		if !d.OnTopic {
			off++
		}
	}
	if err := out.Commit(); err != nil {
		return cli.Exit("crawl audit: "+err.Error(), 1)
	}
	if !c.Bool("quiet") {
		learnt := "given"
		if rep.Examples > 0 {
			learnt = fmt.Sprintf("learnt from %d examples against %d background pages of the %s; held out: %.0f%% of examples and %.0f%% of background pass",
				rep.Examples, rep.Background, rep.BackgroundFrom, 100*rep.HeldOut, 100*rep.FalsePass)
		}
		fmt.Fprintf(c.App.ErrWriter, "crawl audit: %d documents, %d flagged off-topic (topic threshold %.3f %s) -> %s (results.jsonl, offtopic.html, offtopic.xlsx, offtopic.json, offtopic.csv)\n",
			len(rep.Documents), off, rep.Threshold, learnt, dir)
	}
	if relevant != nil {
		s := rep.Evaluate(relevant)
		fmt.Fprintf(c.App.Writer, "documents\t%d\nrelevant\t%d\nkept\t%d\nflagged\t%d\nprecision\t%.3f\nrecall\t%.3f\n",
			s.Documents, s.Relevant, s.Kept, s.Documents-s.Kept, s.Precision(), s.Recall())
	}
	return nil
}

// auditResult is one audited document as a TimeMap of one capture, the unit
// of a results file.
func auditResult(d crawl.Audited, rep *crawl.AuditReport) *similarity.TimeMapResult {
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
		Key: timemap.Canonicalize(cp.URIR, timemap.CanonSURT), URIR: cp.URIR, URIT: cp.URIR, T0Reason: "audit against the event's reference documents",
		Captures: []similarity.CaptureResult{{
			URIR: cp.URIR, URIM: cp.URIM, Datetime: cp.Time, Status: cp.Status, MIME: cp.MIME, Digest: cp.Digest, Loc: cp.Loc, Payload: cp.Payload,
			Extractor: d.Extractor, Lang: d.Lang, Title: d.Title, WordCount: d.WordCount, ByteCount: d.ByteCount,
			Scores:  map[string]float64{similarity.MeasureTopic: d.Topic, "topic_r": d.TopicR, "temp_r": d.TempR, "relevance": d.Relevance},
			Verdict: verdict, Reason: d.Reason(rep.Threshold, rep.Event), Excerpt: strings.Join(words, " "),
		}},
	}
}
