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
	"strings"
	"syscall"

	"github.com/urfave/cli/v2"
)

// Exit status, the same for every command (documented in --help and the
// README's "Exit status" section).
const (
	// exitFailed: the run failed or went wrong: an input could not be read
	// or held nothing to work on, an output could not be written, or (with
	// --strict) a record, payload or stretch of input had to be skipped.
	exitFailed = 1
	// exitUsage: nothing was done because the command line is wrong: an
	// unknown command or flag, a missing or invalid argument or flag value,
	// an option file (results, gold, decisions, spec) that cannot be read.
	exitUsage = 2
	// exitInterrupted: stopped by SIGINT or SIGTERM (128 + SIGINT).
	exitInterrupted = 130
)

const exitStatusHelp = `Exit status (every command):
   0    success
   1    the run failed or went wrong: an input could not be read or held
        nothing to work on, an output could not be written, or (with --strict)
        something had to be skipped
   2    bad command line: unknown command or flag, missing or invalid argument
        or value, an option file that cannot be read; nothing was done
   130  interrupted (SIGINT or SIGTERM); outputs are left as they were`

// version is set at build time with -ldflags "-X main.version=...".
var version = "0.1.0-dev"

func main() {
	collectLessOften()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
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

// collectLessOften sets gcPercent unless the user chose with GOGC.
func collectLessOften() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
}

// run is main without the process: it returns the exit status.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
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

` + exitStatusHelp,
		Reader:    stdin,
		Writer:    stdout,
		ErrWriter: stderr,
		Commands: []*cli.Command{detectCommand(), evaluateCommand(), reportCommand(), timemapCommand(), pruneCommand(),
			mapCommand(), reduceCommand(), mergeCommand(), modelCommand(), crawlCommand()},
		ExitErrHandler: func(c *cli.Context, err error) {
			// run reports errors itself.
		},
	}
	unknown := ""
	app.CommandNotFound = func(c *cli.Context, name string) { unknown = name }
	usage := func(c *cli.Context, err error, _ bool) error { return cli.Exit(err.Error(), exitUsage) }
	app.OnUsageError = usage
	for _, cmd := range app.Commands {
		cmd.OnUsageError = usage
	}
	err := app.RunContext(ctx, args)
	if ctx.Err() != nil {
		fmt.Fprintln(stderr, "offtopic: interrupted")
		return exitInterrupted
	}
	if unknown != "" {
		fmt.Fprintf(stderr, "offtopic: no command %q (see offtopic --help)\n", unknown)
		return exitUsage
	}
	if err == nil {
		return 0
	}
	if strings.HasPrefix(err.Error(), "Required flag") {
		// urfave/cli's missing required flag error (its type is unexported).
		fmt.Fprintln(stderr, "offtopic:", err)
		return exitUsage
	}
	var ec cli.ExitCoder
	if errors.As(err, &ec) {
		if msg := err.Error(); msg != "" {
			fmt.Fprintln(stderr, "offtopic:", msg)
		}
		return ec.ExitCode()
	}
	fmt.Fprintln(stderr, "offtopic:", err)
	return exitFailed
}
