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
	"syscall"

	"github.com/urfave/cli/v2"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "0.1.0-dev"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args, os.Stdin, os.Stdout, os.Stderr))
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
   offtopic timemap --out-dir timemaps collection/*.warc.gz`,
		Reader:    stdin,
		Writer:    stdout,
		ErrWriter: stderr,
		Commands: []*cli.Command{detectCommand(), evaluateCommand(), reportCommand(), timemapCommand(), pruneCommand(),
			mapCommand(), reduceCommand(), mergeCommand(), modelCommand(), crawlCommand()},
		ExitErrHandler: func(c *cli.Context, err error) {
			// run reports errors itself.
		},
	}
	err := app.RunContext(ctx, args)
	if err == nil {
		return 0
	}
	var ec cli.ExitCoder
	if errors.As(err, &ec) {
		if msg := err.Error(); msg != "" {
			fmt.Fprintln(stderr, "offtopic:", msg)
		}
		return ec.ExitCode()
	}
	fmt.Fprintln(stderr, "offtopic:", err)
	return 1
}
