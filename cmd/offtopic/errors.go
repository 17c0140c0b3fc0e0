package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v2"
)

// Exit status, the same for every command (documented in --help and the
// README's "Exit status" section). exitStatus is the one place errors
// become statuses.
const (
	exitOK = 0
	// exitFailed: the run failed or went wrong: an input could not be read
	// or held nothing to work on, an output could not be written, the run
	// came to hold 90% of the memory the system gives it (memory.go), or
	// (with --strict) a record, payload or stretch of input had to be
	// skipped.
	exitFailed = 1
	// exitUsage: nothing was done because the command line is wrong: an
	// unknown command or flag, a missing or invalid argument or flag value,
	// an option file (results, gold, decisions, spec) that cannot be read.
	exitUsage = 2
	// exitInterrupted: stopped by SIGINT, SIGTERM or SIGHUP (128 + SIGINT).
	exitInterrupted = 130
)

// exitStatuses are the exit statuses and what they mean, for --help and
// docs/cli.md.
func exitStatuses() []exitMeaning {
	return []exitMeaning{
		{exitOK, "success"},
		{exitFailed, "the run failed or went wrong: an input could not be read or held nothing to work on, an output could not be written, the run came to hold 90% of the memory the system gives it, or (with --strict) something had to be skipped"},
		{exitUsage, "bad command line: unknown command or flag, missing or invalid argument or value, an option file (results, gold, decisions, spec) that cannot be read; nothing was done"},
		{exitInterrupted, "interrupted (SIGINT, SIGTERM, SIGHUP); outputs are left as they were"},
	}
}

// exitMeaning is an exit status and what it means.
type exitMeaning struct {
	code    int
	meaning string
}

// exitStatusHelp is the exit statuses as --help shows them.
func exitStatusHelp() string {
	var b strings.Builder
	b.WriteString("Exit status (every command):")
	for _, s := range exitStatuses() {
		fmt.Fprintf(&b, "\n   %-4d %s", s.code, wrap(s.meaning, 72, "\n        "))
	}
	return b.String()
}

// wrap breaks s into lines of at most width bytes joined by sep.
func wrap(s string, width int, sep string) string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(s) {
		if line != "" && len(line)+1+len(w) > width {
			lines = append(lines, line)
			line = ""
		}
		line = strings.TrimPrefix(line+" "+w, " ")
	}
	return strings.Join(append(lines, line), sep)
}

// usageError marks an error of the command line: nothing was done (exit
// status 2). help names the command whose --help the message points to.
type usageError struct {
	err  error
	help string
}

func (e *usageError) Error() string {
	if e.help == "" {
		return e.err.Error()
	}
	return e.err.Error() + "; see " + e.help + " --help"
}

func (e *usageError) Unwrap() error { return e.err }

// usagef is a usage error with fmt.Errorf's formatting (and %w wrapping).
func usagef(format string, a ...any) error {
	return &usageError{err: fmt.Errorf(format, a...)}
}

// asUsage marks err as a usage error; nil stays nil.
func asUsage(err error) error {
	var ue *usageError
	if err == nil || errors.As(err, &ue) {
		return err
	}
	return &usageError{err: err}
}

// exitStatus is the exit status of a run that ended with err (nil: success)
// while ctx was its context.
func exitStatus(ctx context.Context, err error) int {
	var ue *usageError
	switch {
	case ctx.Err() != nil || errors.Is(err, context.Canceled):
		return exitInterrupted
	case err == nil:
		return exitOK
	case errors.As(err, &ue):
		return exitUsage
	}
	return exitFailed
}

// env is what an action runs with besides its options: its arguments and
// where it reads and writes. Actions take it, not urfave/cli's Context, so
// that they run, and are tested, without the command-line library: each
// command is its options' run(ctx, env).
type env struct {
	args           []string
	stdin          io.Reader
	stdout, stderr io.Writer
}

// first is the first argument, "" without any.
func (e env) first() string {
	if len(e.args) == 0 {
		return ""
	}
	return e.args[0]
}

// action makes a command's run its urfave/cli action: its errors name the
// command, and usage errors point to the command's --help.
func action(run func(ctx context.Context, e env) error) cli.ActionFunc {
	return func(c *cli.Context) error {
		err := run(c.Context, env{args: c.Args().Slice(), stdin: c.App.Reader, stdout: c.App.Writer, stderr: c.App.ErrWriter})
		if err == nil {
			return nil
		}
		name := commandPath(c)
		if !strings.HasPrefix(err.Error(), name+": ") {
			err = fmt.Errorf("%s: %w", name, err)
		}
		var ue *usageError
		if errors.As(err, &ue) && ue.help == "" {
			return &usageError{err: err, help: helpName(c)}
		}
		return err
	}
}

// helpName is the command line whose --help describes c's command.
func helpName(c *cli.Context) string {
	if p := commandPath(c); p != "" {
		return c.App.Name + " " + p
	}
	return c.App.Name
}

// commandPath is c's command with the commands above it ("crawl audit"),
// "" for the app itself.
func commandPath(c *cli.Context) string {
	var names []string
	for _, l := range c.Lineage() {
		if l.Command != nil && l.Command.Name != "" && l.Command.Name != c.App.Name && (len(names) == 0 || names[0] != l.Command.Name) {
			names = append([]string{l.Command.Name}, names...)
		}
	}
	return strings.Join(names, " ")
}

// editDistance is the optimal string alignment distance of a and b (bytes):
// Levenshtein's with a swap of two neighbours one edit ("glod" is one from
// "gold").
func editDistance(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}

// onUsageError makes urfave/cli's flag parsing errors usage errors of one
// line: the error, a flag it may have meant, and where help is; flags are
// the command's (for the suggestion), help its name.
func onUsageError(flags []cli.Flag, help string) cli.OnUsageErrorFunc {
	return func(_ *cli.Context, err error, _ bool) error {
		const undefined = "flag provided but not defined: "
		if given, ok := strings.CutPrefix(err.Error(), undefined); ok {
			if s := closest(flagNames(flags), strings.TrimLeft(given, "-")); s != "" {
				err = fmt.Errorf("%w (did you mean %s?)", err, dashes(s))
			}
		}
		return &usageError{err: err, help: help}
	}
}

// flagNames are the names and aliases of the visible flags.
func flagNames(flags []cli.Flag) []string {
	var names []string
	for _, f := range flags {
		if vf, ok := f.(cli.VisibleFlag); ok && !vf.IsVisible() {
			continue
		}
		names = append(names, f.Names()...)
	}
	return names
}

// dashes writes a flag name as it is typed: -o, --out-dir.
func dashes(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// closest is the name most like given: the first that given begins, else
// the nearest within a third of given's length in edits, else "".
func closest(names []string, given string) string {
	if given == "" {
		return ""
	}
	for _, n := range names {
		if len(n) > 1 && strings.HasPrefix(n, given) {
			return n
		}
	}
	best, bestD := "", max(1, len(given)/3)+1
	for _, n := range names {
		if d := editDistance(n, given); d < bestD {
			best, bestD = n, d
		}
	}
	return best
}
