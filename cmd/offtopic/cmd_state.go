package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/offtopic/offtopic/extract"
	"github.com/offtopic/offtopic/report"
	"github.com/offtopic/offtopic/similarity"
	"github.com/offtopic/offtopic/state"
	"github.com/offtopic/offtopic/timemap"
)

// runWithState is detect with --state: the files the state has read are
// recalled, not read, and only what changed is judged again.
func (o *detectOptions) runWithState(ctx context.Context, e env, start time.Time) error {
	if err := o.stateUsage(e.args); err != nil {
		return err
	}
	files, err := collectionFiles(e.args)
	if err != nil {
		return err
	}
	st, err := o.scoring.setup(absPaths(files), e.stderr)
	if err != nil {
		return err
	}
	defer useCores(st.workers)()
	settings, err := stateSettings(st, !o.oneCollection)
	if err != nil {
		return err
	}
	// The output directories are taken before the input is read, as
	// without a state.
	reserved, err := o.out.reserve()
	if err != nil {
		return err
	}
	defer reserved.Abort()
	db, err := state.Open(o.state)
	if err != nil {
		return err
	}
	defer db.Close()
	prog, warn := newProgress(e.stderr, o.runOpts.quiet), &warnings{w: e.stderr}
	prog.begin("index", 0)
	notes := similarity.NewPayloadNotes(st.opts, extract.Options{})
	run, err := db.Begin(ctx, files, state.Options{Settings: settings, EachCollection: !o.oneCollection, Started: st.run.Started,
		Index: timemap.IndexOptions{Canon: st.canon, TempDir: st.tempDir, OnError: warn.add, Workers: st.workers,
			Note: notes.Note, WantsNote: notes.Wants, Progress: func(filesDone, captures int) {
				prog.update(captures, fmt.Sprintf("captures, %d/%d files", filesDone, len(files)))
			}}})
	prog.end()
	if err != nil {
		warn.summary()
		return err
	}
	defer run.Abort()
	if run.Reread() {
		fmt.Fprintf(e.stderr, "offtopic: %s was made with other settings or another build of offtopic: every file is read again\n", db.Path())
	}
	st.run.Review = run.Review()
	out, err := o.out.openReserved(reserved, st.run, e.stdout)
	if err != nil {
		return err
	}
	defer out.Abort()
	if done, err := nothingNew(e.stderr, db, run, out); done || err != nil {
		return err
	}
	pl := timemap.NewPayloads()
	defer pl.Close()
	cfg := detectConfig(st, pl.Read, warn, prog, 0)
	cfg.EachCollection = !o.oneCollection
	stats, err := run.Judge(ctx, cfg, out.Write)
	prog.end()
	warn.summary()
	if err != nil {
		return err
	}
	if stats.Captures == 0 {
		// As without a state: the outputs of an earlier run stay.
		return errors.New("no captures to score")
	}
	if err := out.Commit(); err != nil {
		return err
	}
	if err := run.Commit(out.Paths()); err != nil {
		return err
	}
	sr := scoreRun{warn: warn, strict: o.runOpts.strict, eachCollection: !o.oneCollection, start: start}
	printNews(e.stderr, db, run)
	contradictions(ctx, e.stderr, db)
	return sr.summary(e.stderr, out, stats, 0)
}

// stateUsage refuses what a state cannot follow: it holds a collection of
// local files judged whole.
func (o *detectOptions) stateUsage(args []string) error {
	switch {
	case len(args) == 0:
		return usagef("--state follows a collection of local WARC/ARC files: give the files or their folder")
	case len(o.src.set()) > 0:
		return usagef("--state follows a collection of local WARC/ARC files, not --%s", o.src.set()[0])
	case o.scoring.shard != "" || o.scoring.model != "":
		return usagef("--state judges the whole collection on this machine: not with --shard or --model (split runs work from files)")
	}
	return nil
}

// stateSettings names what makes a result besides the files: the settings
// the results record, how collections are judged, and this build of
// offtopic (a new build may judge or extract otherwise).
func stateSettings(st *setup, eachCollection bool) (string, error) {
	run := *st.run
	run.Started, run.Inputs, run.Review = time.Time{}, nil, nil
	b, err := json.Marshal(struct {
		Run            report.Run
		EachCollection bool
		Build          string
	}{run, eachCollection, buildDigest()})
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), nil
}

// buildDigest is a digest of this program's executable ("" when it cannot
// be read): a state's documents and results hold for the build that made
// them.
func buildDigest() string {
	path, err := os.Executable()
	if err != nil {
		return ""
	}
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return ""
	}
	return hex.EncodeToString(h.Sum(nil))
}

// nothingNew ends a run that found nothing new, when the outputs are those
// the previous run wrote and no decision came since: they are left as they
// are. It reports whether it ended the run.
func nothingNew(w io.Writer, db *state.State, run *state.Run, out *report.Outputs) (bool, error) {
	if !run.Unchanged() {
		return false, nil
	}
	intact, err := run.OutputsIntact(out.Paths())
	if err != nil || !intact {
		return false, err
	}
	if decided, err := run.DecisionsSince(); err != nil || decided {
		return false, err
	}
	out.Abort()
	prev, _ := run.Previous()
	if err := run.Commit(nil); err != nil {
		return true, err
	}
	fmt.Fprintf(w, "offtopic: nothing new since %s: %d files, %d TimeMaps, %d captures as then (%s)\n",
		prev.Started.Local().Format("2006-01-02 15:04"), prev.Files, prev.TimeMaps, prev.Captures, db.Path())
	fmt.Fprintln(w, "offtopic: the outputs are left as they are")
	return true, nil
}

// printNews says what the run found new since the previous one.
func printNews(w io.Writer, db *state.State, run *state.Run) {
	info := run.Info()
	prev, ok := run.Previous()
	if !ok {
		fmt.Fprintf(w, "offtopic: state %s: first run, %d files\n", db.Path(), info.NewFiles)
		return
	}
	fmt.Fprintf(w, "offtopic: new since %s: %d files, %d captures (%d off-topic), %d TimeMaps\n",
		prev.Started.Local().Format("2006-01-02 15:04"), info.NewFiles, info.NewCaptures, info.NewOff, info.NewTimeMaps)
	fmt.Fprintf(w, "offtopic: %d TimeMaps judged again, %d verdicts of earlier captures changed:\n", info.Rejudged, info.Changed)
	fmt.Fprintf(w, "offtopic: %d on pages with new captures, %d by their collection's model or where they redirect (%s)\n",
		info.Changed-info.ChangedByModel, info.ChangedByModel, db.Path())
}

// contradictions lists the curator's decisions that the latest verdicts
// disagree with (the first ones; the reports show all).
func contradictions(ctx context.Context, w io.Writer, db *state.State) {
	cs, err := db.Contradictions(ctx)
	if err != nil {
		fmt.Fprintln(w, "offtopic:", err)
		return
	}
	if len(cs) == 0 {
		return
	}
	fmt.Fprintf(w, "offtopic: %d curator decisions disagree with the verdicts (kept as decided):\n", len(cs))
	for i, c := range cs {
		if i == 5 {
			fmt.Fprintf(w, "offtopic:   ... and %d more (offtopic decisions list --state %s)\n", len(cs)-i, db.Path())
			break
		}
		since := ""
		if c.Since {
			since = ", the verdict changed since"
		}
		fmt.Fprintf(w, "offtopic:   %s %s decided %s (%s), verdict %s%s\n", c.Key.TS, c.Key.Key, c.Decision.Decision,
			c.Decision.When.Local().Format("2006-01-02"), c.Verdict, since)
	}
}
