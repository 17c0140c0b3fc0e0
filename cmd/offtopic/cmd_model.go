package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"slices"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/offtopic/offtopic/internal/atomicfile"
	"github.com/offtopic/offtopic/similarity"
	"github.com/offtopic/offtopic/timemap"
)

// modelOptions are model's flags.
type modelOptions struct {
	output  string
	merge   bool
	scoring scoringOptions
	src     sourceOptions
	runOpts runOptions
}

func modelCommand() *cli.Command {
	o := &modelOptions{}
	return &cli.Command{
		Name:      "model",
		Usage:     "build a collection's model file once, for runs split over shards or reducers",
		ArgsUsage: "FILE.warc[.gz]|FILE.arc[.gz]... | --merge [STATS...]",
		Description: `Detection compares each capture with its page's t0, and also with the subject
of its page in the whole collection (the topic measure and the t0 check) using a
collection model: document frequencies, the collection's topic and a sample of
first captures. A run split into parts must score every part against the model
of the whole collection to give the single run's verdicts. 'model' builds that
file from the same inputs detect takes; 'reduce --stats' writes the partial
statistics of one reducer's TimeMaps, and 'model --merge' merges them (the
statistics merge exactly, in any order).

Examples:
   offtopic model -o model.json.gz coll/*.warc.gz
   offtopic detect --model model.json.gz --shard 0/4 --jsonl part-0.jsonl \
       coll/*.warc.gz
   ls coll/*.warc.gz | offtopic map | LC_ALL=C sort | offtopic reduce --stats |
       offtopic model --merge -o model.json.gz`,
		Flags: slices.Concat([]cli.Flag{
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Value: "model.json.gz", Destination: &o.output,
				Usage: "write the model to `FILE` (-: stdout, uncompressed)"},
			&cli.BoolFlag{Name: "merge", Destination: &o.merge,
				Usage: "merge partial statistics (files or stdin), not captures"},
		}, o.scoring.flags(), o.src.flags(), o.runOpts.flags("exit 1 when any record or payload had to be skipped")),
		Action: action(o.run),
	}
}

// run1 is model's action.
func (o *modelOptions) run(ctx context.Context, e env) error {
	if o.merge {
		mf, err := mergeModels(ctx, e)
		if err != nil {
			return err
		}
		return o.write(ctx, e, mf)
	}
	start := time.Now()
	in, err := openInput(ctx, e, &o.scoring, &o.src, o.runOpts.quiet, "offtopic model -o model.json.gz collection/*.warc.gz", nil)
	if err != nil {
		return err
	}
	defer in.src.close()
	st, src, prog, warn := in.st, in.src, in.prog, in.warn
	if ids := timemap.Collections(e.args); len(ids) > 1 {
		fmt.Fprintf(e.stderr, "offtopic: warning: files of %d Archive-It collections modelled as one (detect judges each against its own model): for detect's verdicts, build one model per collection\n", len(ids))
	}
	cfg := detectConfig(st, src.read, warn, prog, src.total)
	stats, sts, err := similarity.BuildModel(ctx, st.shard.Select(src.src), cfg)
	prog.end()
	warn.summary()
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stderr, "offtopic: model of %d TimeMaps, %d captures in %.1f s; %d records skipped, %d payloads failed\n",
		sts.TimeMaps, sts.Captures, time.Since(start).Seconds(), src.skipped, sts.Failed)
	mf := &similarity.ModelFile{MinT0Words: st.opts.MinT0Words, Canonicalize: st.canon.String(), Stats: stats}
	if err := o.write(ctx, e, mf); err != nil {
		return err
	}
	if err := src.unread(); err != nil {
		return err
	}
	if o.runOpts.strict && warn.n > 0 {
		return fmt.Errorf("%d records or payloads were skipped (--strict)", warn.n)
	}
	return nil
}

// mergeModels reads and merges the statistics named by the arguments, or stdin.
func mergeModels(ctx context.Context, e env) (*similarity.ModelFile, error) {
	names := e.args
	if len(names) == 0 {
		return similarity.ReadModelFiles(e.stdin, "stdin")
	}
	var out *similarity.ModelFile
	for _, n := range names {
		f, err := os.Open(n)
		if err != nil {
			return nil, err
		}
		m, err := similarity.ReadModelFiles(f, n)
		f.Close()
		if err != nil {
			return nil, err
		}
		if out == nil {
			out = m
			continue
		}
		if m.MinT0Words != out.MinT0Words || m.Canonicalize != out.Canonicalize {
			return nil, fmt.Errorf("%s: built with other settings than %s", n, names[0])
		}
		out.Stats.Merge(m.Stats)
	}
	return out, nil
}

// write writes mf to --output.
func (o *modelOptions) write(ctx context.Context, e env, mf *similarity.ModelFile) error {
	path := o.output
	if path == "-" {
		w := bufio.NewWriter(e.stdout)
		if err := similarity.WriteModelFile(w, mf, false); err != nil {
			return fmt.Errorf("write: %w", err)
		}
		if err := w.Flush(); err != nil {
			return fmt.Errorf("write: %w", err)
		}
		return nil
	}
	f, err := atomicfile.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	w := bufio.NewWriterSize(f, 1<<20)
	if err := similarity.WriteModelFile(w, mf, true); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := f.Commit(); err != nil {
		return err
	}
	fmt.Fprintf(e.stderr, "offtopic: wrote %s (%d TimeMaps with text, %d payloads, %d terms)\n", path, mf.Stats.Firsts, mf.Stats.Docs, len(mf.Stats.DF))
	return nil
}

// loadModel reads --model, checking that it was built with the run's settings.
func loadModel(path string, st *setup) (*similarity.ModelStats, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("--model: %w", err)
	}
	defer f.Close()
	mf, err := similarity.ReadModelFiles(f, path)
	if err != nil {
		return nil, fmt.Errorf("--model: %w", err)
	}
	if mf.MinT0Words != st.opts.MinT0Words || mf.Canonicalize != st.canon.String() {
		return nil, fmt.Errorf("--model: %s was built with --min-t0-words %d --canonicalize %s; this run uses %d and %s",
			path, mf.MinT0Words, mf.Canonicalize, st.opts.MinT0Words, st.canon)
	}
	return mf.Stats, nil
}

// writeStats writes the partial model statistics of src's TimeMaps as one
// line (reduce --stats).
func writeStats(ctx context.Context, e env, src timemap.Source, st *setup, warn *warnings) error {
	pl := timemap.NewPayloads()
	defer pl.Close()
	cfg := similarity.Config{Options: st.opts, Workers: st.workers, TempDir: st.tempDir,
		ReadPayload: pl.Read, OnError: warn.add, OnWarning: warn.note}
	stats, _, err := similarity.BuildModel(ctx, src, cfg)
	warn.summary()
	if err != nil {
		return err
	}
	w := bufio.NewWriter(e.stdout)
	mf := &similarity.ModelFile{MinT0Words: st.opts.MinT0Words, Canonicalize: st.canon.String(), Stats: stats}
	if err := similarity.WriteModelFile(w, mf, false); err != nil {
		return fmt.Errorf("write: %w", err)
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("write: %w", err)
	}
	return nil
}
