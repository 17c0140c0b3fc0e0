package report

import (
	"cmp"
	"fmt"
	"html/template"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/offtopic/offtopic/similarity"
)

// htmlPage is what every page template gets.
type htmlPage struct {
	CSP, Title, Subtitle, Footer string
	CSS                          template.CSS
	JS                           template.JS
	// DefaultArchive is set when URI-Ms point at DefaultArchiveURL.
	DefaultArchive bool
	// Command is the command that wrote the results (Run.Command).
	Command    string
	ArchiveURL string
}

func (h *HTMLWriter) pageData() htmlPage {
	title := "Off-topic captures"
	if ev, _, ok := h.run.Audit(); ok {
		title = "Audit against the event " + cutText(ev, 120)
	}
	return newHTMLPage(h.run, title, h.csp, h.css, h.js)
}

func newHTMLPage(run *Run, title, csp string, css template.CSS, js template.JS) htmlPage {
	p := htmlPage{CSP: csp, Title: title, CSS: css, JS: js, DefaultArchive: run.DefaultArchive(), Command: run.Command(), ArchiveURL: DefaultArchiveURL}
	var sub []string
	tool := "offtopic"
	if run != nil {
		if run.Tool != "" {
			tool = run.Tool
		}
		if run.Version != "" {
			tool += " " + run.Version
		}
		if !run.Started.IsZero() {
			sub = append(sub, "run started "+run.Started.UTC().Format("2006-01-02 15:04 UTC"))
		}
		if n := len(run.Inputs); n > 0 {
			sub = append(sub, plural(n, "input file", "input files"))
		}
		if run.ArchiveURL != "" {
			sub = append(sub, "archive "+run.ArchiveURL)
		}
	}
	p.Subtitle = strings.Join(append([]string{tool}, sub...), " · ")
	p.Footer = "Written by " + tool + ". A self-contained page: it loads nothing and runs no script but its own."
	return p
}

// htmlTop is the data of the page's overview, worklist and histograms.
type htmlTop struct {
	htmlPage
	S          htmlStats
	Rule       []similarity.Threshold
	Plain      bool
	KeyMeasure string
	Kinds      []countOf
	Reasons    []countOf
	// OffKinds breaks off-topic captures down by kind, largest first.
	OffKinds []kindCount
	Hists    []histChart
	RunLines []string
	// Audit is set for an audit of an extracted collection against an
	// event (see Run.Audit).
	Audit *htmlAudit
	// FileName is the collection's part of the saved decisions file's name.
	FileName string
	// News is what is new since the previous run of the collection's
	// state, and its decisions; nil without a state.
	News *htmlNews
}

// htmlAudit is what the overview says of an audit's rule.
type htmlAudit struct{ Event, From, To string }

// kindCount is how many off-topic captures are of one kind.
type kindCount struct {
	Kind, Label string
	N           int
}

// countOf is one line of a breakdown.
type countOf struct {
	Name string
	N    int
}

func (h *HTMLWriter) topData() htmlTop {
	t := htmlTop{htmlPage: h.pageData(), S: h.stats, Rule: h.rule, Plain: h.plain, KeyMeasure: h.keyMeasure(),
		Kinds: sortedCounts(h.kinds), Reasons: sortedCounts(h.reasons), FileName: h.run.CollectionName()}
	for _, m := range similarity.MeasureNames() {
		if hg := h.hists[m]; hg != nil {
			t.Hists = append(t.Hists, hg.chart(m, h.threshold(m), h.rule.Has(m)))
		}
	}
	for i, k := range similarity.Kinds() {
		if n := h.stats.OffKinds[i]; n > 0 {
			t.OffKinds = append(t.OffKinds, kindCount{string(k), k.Label(), n})
		}
	}
	largestFirst(t.OffKinds, func(k kindCount) int { return k.N })
	t.RunLines = runLines(h.run)
	if rv := h.run.Review; rv != nil && (!rv.Since.IsZero() || h.news.Decided > 0) {
		n := h.news
		if !rv.Since.IsZero() {
			n.Since = rv.Since.UTC().Format("2006-01-02 15:04 UTC")
		}
		t.News = &n
	}
	if ev, win, ok := h.run.Audit(); ok {
		from, to, _ := strings.Cut(win, "/")
		t.Audit = &htmlAudit{Event: ev, From: from, To: to}
	}
	return t
}

// sortedCounts lists a breakdown, largest first, equal counts by name.
func sortedCounts(m map[string]int) []countOf {
	out := make([]countOf, 0, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		out = append(out, countOf{k, m[k]})
	}
	largestFirst(out, func(c countOf) int { return c.N })
	return out
}

// largestFirst sorts a breakdown by its counts, largest first, keeping the
// order of equal counts.
func largestFirst[T any](s []T, count func(T) int) {
	slices.SortStableFunc(s, func(a, b T) int { return cmp.Compare(count(b), count(a)) })
}

// runLines describes the run's inputs and options for the overview.
func runLines(run *Run) []string {
	if run == nil {
		return nil
	}
	var out []string
	if n := len(run.Inputs); n > 0 {
		in := run.Inputs
		if n > 3 {
			in = in[:3]
		}
		s := "inputs: " + strings.Join(in, ", ")
		if n > 3 {
			s += fmt.Sprintf(" and %d more", n-3)
		}
		out = append(out, s)
	}
	keys := make([]string, 0, len(run.Options))
	for k := range run.Options {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		out = append(out, k+": "+run.Options[k])
	}
	return out
}
