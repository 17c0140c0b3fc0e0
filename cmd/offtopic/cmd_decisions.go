package main

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"os/user"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/offtopic/offtopic/report"
	"github.com/offtopic/offtopic/similarity"
	"github.com/offtopic/offtopic/state"
)

// decisionsOptions are the decisions commands' flags.
type decisionsOptions struct {
	state string
}

func decisionsCommand() *cli.Command {
	o := &decisionsOptions{}
	stateFlag := &cli.StringFlag{Name: "state", Destination: &o.state, DefaultText: filepath.Join(defaultResultsDir, state.DefaultName),
		Usage: "the collection's state `FILE` (detect --state)"}
	return &cli.Command{
		Name:  "decisions",
		Usage: "take curators' decisions into a collection's state, and list them",
		Description: `A collection's state (detect --state) remembers every curator decision: who
took it in, when it was made (the file's time) and from which file. Reports
show it beside the verdict and do not ask again; prune honours it without the
file; a later verdict that disagrees is listed, never written over it.
evaluate --gold and prune --decisions take a decisions file into the state
beside the results they read too.

Examples:
   offtopic decisions import --state review/offtopic-state.sqlite \
       ~/Downloads/decisions-collection-20261125-1430.csv
   offtopic decisions list --state review/offtopic-state.sqlite > decided.csv`,
		Subcommands: []*cli.Command{
			{
				Name:      "import",
				Usage:     "take decisions files (CSV from the HTML report, or a reviewed XLSX) into the state",
				ArgsUsage: "DECISIONS.csv|REVIEWED.xlsx...",
				Flags:     []cli.Flag{stateFlag},
				Action:    action(o.importAction),
			},
			{
				Name:   "list",
				Usage:  "write the state's decisions as CSV (with who, when, from which file, and the latest verdict)",
				Flags:  []cli.Flag{stateFlag},
				Action: action(o.listAction),
			},
		},
	}
}

// path is the state file the flags name.
func (o *decisionsOptions) path() string {
	if o.state != "" {
		return o.state
	}
	return filepath.Join(defaultResultsDir, state.DefaultName)
}

func (o *decisionsOptions) importAction(ctx context.Context, e env) error {
	if len(e.args) == 0 {
		return usagef("no decisions file: give the CSV the HTML report saves, or the reviewed XLSX")
	}
	if _, err := os.Stat(o.path()); err != nil {
		return usagef("no state at %s (detect --state makes it): %w", o.path(), err)
	}
	db, err := state.Open(o.path())
	if err != nil {
		return err
	}
	defer db.Close()
	for _, path := range e.args {
		d, err := report.ReadDecisions(path)
		if err != nil {
			return asUsage(err)
		}
		if err := importInto(ctx, e.stderr, db, path, d); err != nil {
			return err
		}
	}
	return nil
}

// importInto takes the decisions read from path into db and says how many.
func importInto(ctx context.Context, w io.Writer, db *state.State, path string, d map[similarity.GoldKey]string) error {
	when := time.Now()
	if st, err := os.Stat(path); err == nil {
		when = st.ModTime()
	}
	sum, err := db.ImportDecisions(ctx, path, d, curator(), when)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "offtopic: %d decisions from %s taken into %s: %d new, %d decided otherwise than before, %d as before\n",
		len(d), path, db.Path(), sum.New, sum.Changed, sum.Same)
	return nil
}

// curator is who takes decisions in: the user running offtopic.
func curator() string {
	if u, err := user.Current(); err == nil && u.Username != "" {
		return u.Username
	}
	if u := os.Getenv("USER"); u != "" {
		return u
	}
	return "unknown"
}

func (o *decisionsOptions) listAction(ctx context.Context, e env) error {
	if _, err := os.Stat(o.path()); err != nil {
		return usagef("no state at %s (detect --state makes it): %w", o.path(), err)
	}
	db, err := state.Open(o.path())
	if err != nil {
		return err
	}
	defer db.Close()
	ds, err := db.Decisions(ctx)
	if err != nil {
		return err
	}
	cs, err := db.Contradictions(ctx)
	if err != nil {
		return err
	}
	against := map[similarity.GoldKey]string{}
	for _, c := range cs {
		against[c.Key] = c.Verdict
	}
	keys := make([]similarity.GoldKey, 0, len(ds))
	for k := range ds {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b similarity.GoldKey) int { return strings.Compare(a.Key+" "+a.TS, b.Key+" "+b.TS) })
	cw := csv.NewWriter(e.stdout)
	cw.Write([]string{"key", "timestamp", report.DecisionColumn, "who", "when", "from", "verdict against it"})
	for _, k := range keys {
		d := ds[k]
		cw.Write([]string{report.SafeCell(k.Key), k.TS, d.Decision, report.SafeCell(d.Who), d.When.UTC().Format(time.RFC3339), report.SafeCell(d.From), against[k]})
	}
	cw.Flush()
	return cw.Error()
}

// besideResults takes a decisions file given to evaluate or prune into the
// state beside the results they read (if there is one), and returns the
// decisions to act on: all the state holds (the file's among them), or the
// file's alone where there is no state. With no file, the state's.
func besideResults(ctx context.Context, w io.Writer, dir, path string, d map[similarity.GoldKey]string) (map[similarity.GoldKey]string, error) {
	db, err := state.Beside(dir)
	if err != nil || db == nil {
		return d, err
	}
	defer db.Close()
	if path != "" {
		if err := importInto(ctx, w, db, path, d); err != nil {
			return nil, err
		}
	}
	all, err := db.Decisions(ctx)
	if err != nil {
		return nil, err
	}
	out := make(map[similarity.GoldKey]string, len(all))
	for k, dec := range all {
		out[k] = dec.Decision
	}
	if path == "" && len(out) > 0 {
		fmt.Fprintf(w, "offtopic: %d curator decisions from %s\n", len(out), db.Path())
	}
	return out, nil
}
