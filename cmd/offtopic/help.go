package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"
)

// helpWidth is the width --help fits in: a terminal's 80 columns.
const helpWidth = 80

// categoryOrder is the order of flag groups in --help and docs/cli.md: the
// command's own flags, where captures come from, how they are judged, where
// results go, how the run reports; the remote archives' settings last.
func categoryOrder() []string {
	return []string{"", catSources, catScoring, catOutputs, catRun, catArchive, catClient, catCDX}
}

// flagGroup is one group of a command's visible flags.
type flagGroup struct {
	name  string // "" for the command's own, ungrouped flags
	flags []cli.Flag
}

// flagGroups are the visible flags by group, in categoryOrder (a group it
// does not name comes after, in the order of its first flag), each group's
// flags in name order.
func flagGroups(flags []cli.Flag) []flagGroup {
	var groups []flagGroup
	for _, f := range flags {
		if vf, ok := f.(cli.VisibleFlag); ok && !vf.IsVisible() {
			continue
		}
		cat := ""
		if cf, ok := f.(cli.CategorizableFlag); ok {
			cat = cf.GetCategory()
		}
		i := slices.IndexFunc(groups, func(g flagGroup) bool { return g.name == cat })
		if i < 0 {
			groups = append(groups, flagGroup{name: cat})
			i = len(groups) - 1
		}
		groups[i].flags = append(groups[i].flags, f)
	}
	order := categoryOrder()
	rank := func(name string) int {
		if i := slices.Index(order, name); i >= 0 {
			return i
		}
		return len(order)
	}
	slices.SortStableFunc(groups, func(a, b flagGroup) int { return rank(a.name) - rank(b.name) })
	for _, g := range groups {
		slices.SortStableFunc(g.flags, func(a, b cli.Flag) int { return strings.Compare(a.Names()[0], b.Names()[0]) })
	}
	return groups
}

// flagHelp is a flag as help shows it: its names with their placeholder
// ("--out-dir DIR, -d DIR") and its usage with its default.
func flagHelp(f cli.Flag) (names, usage string) {
	df, ok := f.(cli.DocGenerationFlag)
	if !ok {
		return strings.Join(f.Names(), ", "), ""
	}
	placeholder, usage := unquoteUsage(df.GetUsage())
	if placeholder == "" && df.TakesValue() {
		placeholder = "VALUE"
	}
	var ns []string
	for _, n := range f.Names() {
		s := dashes(n)
		if df.TakesValue() {
			s += " " + placeholder
		}
		ns = append(ns, s)
	}
	if def := strings.Trim(df.GetDefaultText(), `"`); df.TakesValue() && def != "" {
		usage += " (default: " + def + ")"
	}
	return strings.Join(ns, ", "), usage
}

// commandHelp is a command's --help, every line within helpWidth: name and
// usage, arguments, subcommands, description, then its flags by group in
// categoryOrder.
// full is the command line that runs it ("offtopic crawl audit").
func commandHelp(full string, cmd *cli.Command) string {
	var b strings.Builder
	fmt.Fprintf(&b, "NAME:\n   %s\n\n", wrap(full+" - "+cmd.Usage, helpWidth-3, "\n     "))
	fmt.Fprintf(&b, "USAGE:\n   %s\n", wrap(strings.TrimSpace(full+" [options] "+cmd.ArgsUsage), helpWidth-3, "\n     "))
	if len(cmd.Subcommands) > 0 {
		b.WriteString("\nCOMMANDS:\n")
		for _, sub := range cmd.Subcommands {
			if !sub.Hidden {
				fmt.Fprintf(&b, "   %s\n", wrap(sub.Name+" - "+sub.Usage, helpWidth-3, "\n     "))
			}
		}
		fmt.Fprintf(&b, "   (%s COMMAND --help: a command's help)\n", full)
	}
	if cmd.Description != "" {
		// As written, not indented: descriptions are laid out in 80 columns.
		fmt.Fprintf(&b, "\nDESCRIPTION:\n%s\n", strings.TrimRight(cmd.Description, "\n "))
	}
	b.WriteString("\nOPTIONS:\n")
	for _, g := range flagGroups(cmd.Flags) {
		if g.name != "" {
			fmt.Fprintf(&b, "\n   %s:\n", g.name)
		}
		col := 0
		for _, f := range g.flags {
			if n, _ := flagHelp(f); len(n) <= 26 {
				col = max(col, len(n))
			}
		}
		for _, f := range g.flags {
			writeFlagHelp(&b, f, col)
		}
	}
	b.WriteString("\n   --help, -h  show this help\n")
	return b.String()
}

// appHelp is the app's --help, every line within helpWidth: what it does,
// its exit statuses and its commands.
func appHelp(app *cli.App) string {
	var b strings.Builder
	fmt.Fprintf(&b, "NAME:\n   %s\n\n", wrap(app.Name+" - "+app.Usage, helpWidth-3, "\n     "))
	fmt.Fprintf(&b, "USAGE:\n   %s COMMAND [options] [arguments...]\n\nVERSION:\n   %s\n", app.Name, app.Version)
	fmt.Fprintf(&b, "\nDESCRIPTION:\n%s\n\nCOMMANDS:\n", strings.TrimRight(app.Description, "\n "))
	for _, c := range app.Commands {
		if !c.Hidden {
			fmt.Fprintf(&b, "   %-9s %s\n", c.Name, wrap(c.Usage, helpWidth-13, "\n"+strings.Repeat(" ", 13)))
		}
	}
	fmt.Fprintf(&b, "   %-9s %s\n", "help", "show the commands, or one command's help")
	fmt.Fprintf(&b, "\n%s COMMAND --help shows a command's options.\n\nOPTIONS:\n   --help, -h     show this help\n   --version, -v  print the version\n", app.Name)
	return b.String()
}

// writeFlagHelp writes one flag: its names in a column col wide and its
// usage beside them, wrapped within helpWidth; names longer than the
// column have their usage on the lines below.
func writeFlagHelp(b *strings.Builder, f cli.Flag, col int) {
	names, usage := flagHelp(f)
	indent := 3 + col + 2
	if len(names) > col {
		fmt.Fprintf(b, "   %s\n", names)
		indent = 9
		fmt.Fprintf(b, "%s%s\n", strings.Repeat(" ", indent), wrapHelp(usage, helpWidth-indent, "\n"+strings.Repeat(" ", indent)))
		return
	}
	fmt.Fprintf(b, "   %-*s  %s\n", col, names, wrapHelp(usage, helpWidth-indent, "\n"+strings.Repeat(" ", indent)))
}

// wrapHelp is wrap for help: a word longer than the width (a default such
// as a list of measures) is broken after a comma.
func wrapHelp(s string, width int, sep string) string {
	var words []string
	for _, w := range strings.Fields(s) {
		for len(w) > width {
			i := strings.LastIndex(w[:width], ",")
			if i < 0 {
				break
			}
			words = append(words, w[:i+1])
			w = w[i+1:]
		}
		words = append(words, w)
	}
	return wrap(strings.Join(words, " "), width, sep)
}

// helpTemplate is text as a text/template that prints it as it is.
func helpTemplate(text string) string {
	return strings.ReplaceAll(text, "{{", "{{`{{`}}")
}
