package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/offtopic/offtopic/crawl"
	"github.com/offtopic/offtopic/extract"
	"github.com/offtopic/offtopic/internal/atomicfile"
	"github.com/offtopic/offtopic/report"
	"github.com/offtopic/offtopic/timemap"
)

// crawlOptions are crawl's flags.
type crawlOptions struct {
	spec, outDir, strategy, evaluate, budgets string
	resume, thresholds, archiveIDF, localIDF  bool
	quiet                                     bool
	seed                                      int64
	target, maxDepth                          int
	maxRuntime                                time.Duration
	// The limits override the spec's only when given.
	targetSet, maxDepthSet, maxRuntimeSet bool
	archive                               archiveOptions
	prof                                  profileOptions
}

func crawlCommand() *cli.Command {
	o := &crawlOptions{}
	return &cli.Command{
		Name:      "crawl",
		Usage:     "extract an event collection from a web archive by focused re-crawl",
		ArgsUsage: " ",
		Description: `Crawls a local web archive (WARC files and their CDXJ index) from the seeds of a
collection specification, following the links of the documents most relevant
to the event first, and writes into --out-dir:
   <name>.warc.gz     the collected records, copied byte for byte
   index.cdxj         their CDXJ index;  timemaps.link  their TimeMaps
   crawl.jsonl        the crawl log, a document a line in the order collected
   missing.tsv        linked URLs the archive lacks
   relevance.csv      accumulated relevance by documents crawled
   harvest.html       accumulated relevance (and relevant pages with --evaluate)
                      against documents crawled, one line per strategy
   crawl-state.json   frontier and seen set, for --resume

Strategies: ctg (default: topical relevance gating temporal relevance, links
estimated from the linking page, anchor text and date), and those of Gossen et
al. over TTR = alpha*TopicR + (1-alpha)*TempR: ct-f (the spec's alpha), c-f
(alpha 1), t-f (alpha 0), unfocused (breadth-first). IDF comes from the
reference documents and the documents the crawl reads, so the cost follows
the crawl; --archive-idf first reads every capture of a local archive.

With --evaluate a relevance list (URL and relevant columns), prints how many
relevant pages the crawl collected at each budget; with several --strategy
values each strategy crawls into --out-dir/<strategy>.

Next, audit what was collected (it scores every document against the event:
detect would compare each page only with itself), review the report, and
prune the off-topic documents.

Examples:
   offtopic crawl --spec election/spec.json --archive archive --out-dir coll
   offtopic crawl --spec spec.json --archive archive --out-dir cmp \
       --strategy ctg,ct-f,c-f,t-f,unfocused --evaluate relevant.tsv
   offtopic crawl audit --spec election/spec.json --archive archive coll
   offtopic prune --results coll-audit`,
		Flags:       o.flags(),
		Action:      action(o.run),
		Subcommands: []*cli.Command{crawlAuditCommand()},
	}
}

func (o *crawlOptions) flags() []cli.Flag {
	return slices.Concat([]cli.Flag{
		&cli.StringFlag{Name: "spec", Destination: &o.spec, Usage: "collection specification `FILE` (JSON; required)"},
		&cli.StringFlag{Name: "out-dir", Aliases: []string{"o"}, Value: "offtopic-crawl", Destination: &o.outDir, Usage: "write the collection into `DIR`"},
		&cli.StringFlag{Name: "out", Value: "offtopic-crawl", Destination: &o.outDir, Hidden: true, Usage: "the old name of --out-dir",
			Action: func(c *cli.Context, _ string) error {
				fmt.Fprintln(c.App.ErrWriter, "offtopic: crawl: --out is now --out-dir")
				return nil
			}},
		&cli.StringFlag{Name: "strategy", Value: "ctg", Destination: &o.strategy, Usage: "`ctg`, ct-f, c-f, t-f or unfocused; several to compare"},
		&cli.BoolFlag{Name: "resume", Destination: &o.resume, Usage: "continue the interrupted crawl in --out-dir"},
		&cli.BoolFlag{Name: "thresholds", Destination: &o.thresholds, Usage: "Klein mode: follow only documents above a learnt threshold"},
		&cli.Int64Flag{Name: "random-seed", Value: 1, Destination: &o.seed, Usage: "`N`, the random seed of --thresholds' splits"},
		renamedInt64("seed", "random-seed", &o.seed, 1, "--seeds names a file of URLs"),
		&cli.IntFlag{Name: "target", Destination: &o.target, DefaultText: fmt.Sprintf("the spec's, else %d", crawl.DefaultTargetSize),
			Usage: "collect `N` documents", Action: func(*cli.Context, int) error { o.targetSet = true; return nil }},
		&cli.IntFlag{Name: "max-depth", Destination: &o.maxDepth, DefaultText: "the spec's, else no limit",
			Usage: "largest link depth, `N`", Action: func(*cli.Context, int) error { o.maxDepthSet = true; return nil }},
		&cli.DurationFlag{Name: "max-runtime", Destination: &o.maxRuntime, DefaultText: "the spec's, else no limit",
			Usage: "stop after `DURATION`", Action: func(*cli.Context, time.Duration) error { o.maxRuntimeSet = true; return nil }},
		&cli.StringFlag{Name: "evaluate", Destination: &o.evaluate, Usage: "relevance list `TSV`: report relevant pages collected at each budget"},
		&cli.StringFlag{Name: "budgets", Value: "50,100,200", Destination: &o.budgets, Usage: "`N,N,...`: budgets of --evaluate"},
		&cli.BoolFlag{Name: "archive-idf", Destination: &o.archiveIDF, Usage: "build IDF from every capture of the local archive first"},
		&cli.BoolFlag{Name: "local-idf", Destination: &o.localIDF, Hidden: true, Usage: "IDF from the reference and crawled documents (now the default)"},
		&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Destination: &o.quiet, Usage: "no progress on stderr"},
	}, o.archive.flags(), o.prof.flags())
}

// crawlPlan is what crawl's flags ask for, checked before anything is read.
type crawlPlan struct {
	spec       *crawl.Spec
	strategies []crawl.Strategy
	budgets    []int
	relevant   map[string]bool
}

// plan reads the spec (with the limits the flags override) and the
// relevance list and checks the flags; errors are usage errors.
func (o *crawlOptions) plan() (*crawlPlan, error) {
	if o.spec == "" || o.archive.count() != 1 {
		return nil, usagef("--spec and one archive (--archive DIR, --cdx-server URL or --timegate URL) are required")
	}
	p := &crawlPlan{}
	var err error
	if p.spec, err = crawl.LoadSpec(o.spec); err != nil {
		return nil, asUsage(err)
	}
	if o.targetSet {
		p.spec.TargetSize = o.target
	}
	if o.maxDepthSet {
		p.spec.MaxDepth = o.maxDepth
	}
	if o.maxRuntimeSet {
		p.spec.MaxRuntime = o.maxRuntime.String()
	}
	for _, s := range strings.Split(o.strategy, ",") {
		st, err := crawl.ParseStrategy(s)
		if err != nil {
			return nil, usagef("--strategy: %w", err)
		}
		p.strategies = append(p.strategies, st)
	}
	if p.budgets, err = parseBudgets(o.budgets); err != nil {
		return nil, usagef("--budgets: %w", err)
	}
	if o.evaluate != "" {
		if p.relevant, err = crawl.ReadRelevant(o.evaluate); err != nil {
			return nil, asUsage(err)
		}
	}
	return p, nil
}

// run1 is crawl's action.
func (o *crawlOptions) run(ctx context.Context, e env) error {
	stderr := e.stderr
	p, err := o.plan()
	if err != nil {
		return err
	}
	stopProfiles, err := o.prof.start(stderr)
	if err != nil {
		return err
	}
	defer stopProfiles()
	t0 := time.Now()
	archive, df, err := o.archive.open(ctx, p.spec, o.archiveIDF)
	if err != nil {
		return err
	}
	if local, ok := archive.(*crawl.LocalArchive); ok && !o.quiet {
		n := 0
		if df != nil {
			n = df.Docs()
		}
		fmt.Fprintf(stderr, "crawl: archive %d URLs, IDF from %d documents (%.1fs)\n", local.Len(), n, time.Since(t0).Seconds())
	}
	var rows []relevantRow
	harvest := &report.Harvest{Title: p.spec.Name, Budgets: p.budgets, ArchiveRelevant: archiveRelevant(archive, p.relevant)}
	for _, s := range p.strategies {
		out := o.outDir
		if len(p.strategies) > 1 {
			out = filepath.Join(out, string(s))
		}
		res, err := o.crawlOne(ctx, e, crawl.Options{Spec: p.spec, Archive: archive, DF: df, Strategy: s, Out: out, Resume: o.resume,
			Thresholds: o.thresholds, Seed: o.seed})
		if err != nil {
			return err
		}
		if p.relevant != nil {
			rows = append(rows, relevantRow{s, crawl.RelevantAt(res.Log, p.relevant, p.budgets)})
		}
		harvest.Lines = append(harvest.Lines, harvestLine(string(s), res.Log, p.relevant))
	}
	if err := writeHarvest(filepath.Join(o.outDir, "harvest.html"), harvest); err != nil {
		return err
	}
	if p.relevant != nil {
		printRelevant(e.stdout, p.budgets, rows)
	}
	return nil
}

// crawlOne runs one strategy's crawl, with progress and a summary on
// stderr unless --quiet.
func (o *crawlOptions) crawlOne(ctx context.Context, e env, opts crawl.Options) (*crawl.Result, error) {
	stderr := e.stderr
	s := opts.Strategy
	var last time.Time
	t1 := time.Now()
	opts.Progress = func(st crawl.Stats) {
		if o.quiet || time.Since(last) < 2*time.Second {
			return
		}
		last = time.Now()
		printCrawlStats(stderr, s, st)
	}
	res, err := crawl.Crawl(ctx, opts)
	if err != nil {
		if res != nil && errors.Is(err, ctx.Err()) {
			fmt.Fprintf(stderr, "crawl: interrupted after %d documents; continue with --resume\n", len(res.Log))
		}
		return nil, err
	}
	if !o.quiet {
		printCrawlStats(stderr, s, res.Stats)
		el := time.Since(t1)
		fmt.Fprintf(stderr, "crawl: %s stopped (%s): %d documents, %d missing in %.1fs (%.0f docs/s), peak memory %d MiB -> %s\n",
			s, res.Stopped, len(res.Log), len(res.Missing), el.Seconds(), float64(len(res.Log)+len(res.Missing)+res.Stats.Rejected)/el.Seconds(), peakRSS()>>20, opts.Out)
		if res.Threshold != nil {
			fmt.Fprintf(stderr, "crawl: threshold %.3f\n", *res.Threshold)
		}
	}
	return res, nil
}

// harvestLine is one crawl's curves: relevance accumulated over its log
// and, with a relevance list, the relevant pages collected.
func harvestLine(name string, log []crawl.Entry, relevant map[string]bool) report.HarvestLine {
	l := report.HarvestLine{Name: name}
	sum, n := 0.0, 0
	for _, e := range log {
		sum += e.TTR
		l.Relevance = append(l.Relevance, sum)
		if relevant != nil {
			if relevant[timemap.Canonicalize(e.URL, timemap.CanonSURT)] {
				n++
			}
			l.Relevant = append(l.Relevant, n)
		}
	}
	return l
}

func writeHarvest(path string, h *report.Harvest) error {
	f, err := atomicfile.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := report.WriteHarvestHTML(f, h); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return f.Commit()
}

func printCrawlStats(w io.Writer, s crawl.Strategy, st crawl.Stats) {
	fmt.Fprintf(w, "crawl: %s %d documents, frontier %d, missing %d, rejected %d, mean TTR %.3f, %.0f docs/s\n",
		s, st.Crawled, st.Frontier, st.Missing, st.Rejected, st.MeanTTR, st.Rate)
}

func parseBudgets(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		var n int
		if _, err := fmt.Sscanf(strings.TrimSpace(f), "%d", &n); err != nil || n <= 0 {
			return nil, fmt.Errorf("%q is not a positive number", f)
		}
		out = append(out, n)
	}
	return out, nil
}

// archiveOptions name the archive a crawl reads (crawl, crawl audit): a
// local folder of WARCs, a CDX server or a TimeGate.
type archiveOptions struct {
	dir, index, timegate string
	cdx                  cdxOptions
	client               clientOptions
}

func (o *archiveOptions) flags() []cli.Flag {
	return slices.Concat([]cli.Flag{
		&cli.StringFlag{Name: "archive", Destination: &o.dir, Category: catArchive,
			Usage: "archive `DIR` of WARC files (with index.cdxj, else indexed once)"},
		&cli.StringFlag{Name: "index", Destination: &o.index, Category: catArchive, DefaultText: "DIR/index.cdxj",
			Usage: "CDXJ/CDX index `FILE` of the archive"},
		&cli.StringFlag{Name: "timegate", Destination: &o.timegate, Category: catArchive,
			Usage: "read through the Memento TimeGate or aggregator at `URL` (+ URI-R)"},
	}, o.cdx.serverFlags(), o.client.flags())
}

// count is how many archives the flags name (--archive, --cdx-server,
// --timegate).
func (o *archiveOptions) count() int {
	n := 0
	for _, v := range []string{o.dir, o.cdx.server, o.timegate} {
		if v != "" {
			n++
		}
	}
	return n
}

// open opens the archive the flags name, with the whole archive's document
// frequencies when archiveIDF asks for them.
func (o *archiveOptions) open(ctx context.Context, spec *crawl.Spec, archiveIDF bool) (crawl.Archive, *crawl.DocFreq, error) {
	if o.timegate != "" || o.cdx.server != "" {
		if err := o.client.check(); err != nil {
			return nil, nil, err
		}
		client, err := o.client.newClient(o.cdx.hosts(o.timegate))
		if err != nil {
			return nil, nil, err
		}
		if o.timegate != "" {
			return crawl.NewTimeGateArchive(o.timegate, spec.Event().Midpoint(), client, o.client.mementoOptions()), nil, nil
		}
		srv, err := o.cdx.open(client, timemap.CanonSURT)
		if err != nil {
			return nil, nil, err
		}
		return crawl.NewRemoteArchive(srv, client, o.client.mementoOptions()), nil, nil
	}
	local, err := crawl.OpenLocal(ctx, o.dir, o.index, nil)
	if err != nil {
		return nil, nil, err
	}
	var df *crawl.DocFreq
	if archiveIDF {
		if df, err = crawl.BuildDF(ctx, local, extract.Options{}, 0); err != nil {
			return nil, nil, err
		}
	}
	return local, df, nil
}

// relevantRow is one strategy's relevant pages at each budget.
type relevantRow struct {
	s      crawl.Strategy
	counts []int
}

// printRelevant prints the table of relevant pages per strategy and budget.
func printRelevant(w io.Writer, budgets []int, rows []relevantRow) {
	fmt.Fprintf(w, "%-10s", "strategy")
	for _, b := range budgets {
		fmt.Fprintf(w, "\t@%d", b)
	}
	fmt.Fprintln(w)
	for _, r := range rows {
		fmt.Fprintf(w, "%-10s", r.s)
		for _, n := range r.counts {
			fmt.Fprintf(w, "\t%d", n)
		}
		fmt.Fprintln(w)
	}
}
