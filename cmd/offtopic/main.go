// Command offtopic finds off-topic captures in web-archive collections and
// measures how well it did against a gold standard. See README.md.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"

	"github.com/urfave/cli/v2"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "0.1.0-dev"

func main() {
	collectLessOften()
	// A hangup (the terminal closed) ends a run as SIGINT and SIGTERM do:
	// its temporary files are removed and its outputs left as they were.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	os.Exit(run(ctx, os.Args, os.Stdin, os.Stdout, os.Stderr))
}

// gcPercent is the heap growth that triggers a collection when GOGC is not
// set (Go's default is 100). A run's live heap is small (tens of MB: the index
// and the digest map spill to disk, extraction is bounded per worker) and
// parsing pages allocates fast, so collecting half as often saves about a
// tenth of the CPU on the dev corpus (4.6-4.9 against 5.0-5.8 CPU-s, side by
// side) for 20 MB more peak RSS (75 against 55 MB).
const gcPercent = 200

// collectLessOften sets gcPercent unless the user chose with GOGC. detect
// and crawl run against a soft memory limit instead (see
// startMemoryLimit).
func collectLessOften() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
}

// run is main without the process: it returns the exit status.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var notFound error
	err := newApp(stdin, stdout, stderr, &notFound).RunContext(ctx, args)
	if err == nil {
		err = notFound
	}
	status := exitStatus(ctx, err)
	switch {
	case status == exitInterrupted:
		fmt.Fprintln(stderr, "offtopic: interrupted")
	case err != nil:
		fmt.Fprintln(stderr, "offtopic:", printable(err.Error()))
	}
	return status
}

// newApp is the command line: every command, reading stdin and writing
// stdout and stderr; an unknown command is reported in *notFound.
func newApp(stdin io.Reader, stdout, stderr io.Writer, notFound *error) *cli.App {
	app := &cli.App{
		Name:    "offtopic",
		Usage:   "find off-topic captures in web-archive collections",
		Version: version,
		Description: `offtopic reads a collection's captures (WARC and ARC files), groups them into
TimeMaps (every capture of one original page), compares every capture with the
first on-topic capture of its page (AlNoamany, Weigle & Nelson) and says which
captures went off-topic (parked domains, hacked pages, error pages...) and why.

Examples:
   offtopic detect --out-dir out collection/*.warc.gz
   offtopic evaluate --gold gold.tsv out
   offtopic timemap --out-dir timemaps collection/*.warc.gz

` + exitStatusHelp(),
		Reader:    stdin,
		Writer:    stdout,
		ErrWriter: stderr,
		Commands: []*cli.Command{detectCommand(), evaluateCommand(), reportCommand(), timemapCommand(), pruneCommand(), decisionsCommand(),
			mapCommand(), reduceCommand(), mergeCommand(), modelCommand(), crawlCommand(), docsCommand()},
		// run reports errors and chooses the exit status itself.
		ExitErrHandler: func(*cli.Context, error) {},
	}
	app.CommandNotFound = func(c *cli.Context, name string) {
		msg := fmt.Sprintf("no command %q", name)
		var names []string
		for _, cmd := range app.VisibleCommands() {
			names = append(names, cmd.Names()...)
		}
		if s := closest(names, name); s != "" {
			msg += fmt.Sprintf(" (did you mean %s?)", s)
		}
		// The error of the run (urfave/cli returns none here).
		*notFound = &usageError{err: errors.New(msg), help: app.Name}
	}
	app.OnUsageError = onUsageError(app.Flags, app.Name)
	prepare(app.Name, app.Commands)
	app.CustomAppHelpTemplate = helpTemplate(appHelp(app))
	return app
}

// prepare makes every command's flag errors usage errors of one line,
// keeps "(default: false)" out of the help of switches and gives each
// command its --help (commandHelp).
func prepare(parent string, cmds []*cli.Command) {
	for _, cmd := range cmds {
		help := parent + " " + cmd.Name
		cmd.OnUsageError = onUsageError(cmd.Flags, help)
		for _, f := range cmd.Flags {
			if bf, ok := f.(*cli.BoolFlag); ok {
				bf.DisableDefaultText = true
			}
		}
		prepare(help, cmd.Subcommands)
		cmd.CustomHelpTemplate = helpTemplate(commandHelp(help, cmd))
	}
}
