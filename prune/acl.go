package prune

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"iter"
	"path/filepath"
	"sort"

	"github.com/offtopic/offtopic/internal/atomicfile"
	"github.com/offtopic/offtopic/timemap"
)

// ACLSummary is the outcome of WriteACL.
type ACLSummary struct {
	Rules int
	// Covered counts off-topic captures the rules exclude; Uncovered lists
	// those no date-bounded rule can reach without also hiding on-topic
	// captures (off-topic captures between on-topic ones).
	Covered   int
	Uncovered []Exclusion
}

type aclRule struct {
	Access string `json:"access"`
	URL    string `json:"url"`
	After  string `json:"after,omitempty"`
	Before string `json:"before,omitempty"`
}

// WriteACL writes pywb access-control rules (.aclj) that exclude the plan's
// off-topic captures: one exact-match rule per URI-R, excluding every capture
// when none is on-topic, captures after the last on-topic one ("after") when
// the page went off-topic and stayed so, or before the first on-topic one
// ("before") when it started off-topic. Date bounds need pywb's before/after
// rule fields; lines are sorted in reverse, as pywb's binary search expects.
func WriteACL(w io.Writer, plan *Plan) (*ACLSummary, error) {
	sum := &ACLSummary{}
	var lines []string
	for _, run := range plan.acl {
		firstOn, lastOn := -1, -1
		for i, c := range run.caps {
			if !c.off {
				if firstOn < 0 {
					firstOn = i
				}
				lastOn = i
			}
		}
		rule := aclRule{Access: "exclude", URL: run.urir}
		covered := func(i int) bool { return firstOn < 0 || i > lastOn }
		switch {
		case firstOn < 0:
		case lastOn < len(run.caps)-1:
			rule.After = run.caps[lastOn].ts
		default:
			rule.Before = run.caps[firstOn].ts
			covered = func(i int) bool { return i < firstOn }
		}
		n := 0
		for i, c := range run.caps {
			if !c.off {
				continue
			}
			if covered(i) {
				n++
			} else {
				sum.Uncovered = append(sum.Uncovered, c.ex)
			}
		}
		if n == 0 {
			continue
		}
		sum.Covered += n
		b, err := json.Marshal(rule)
		if err != nil {
			return nil, err
		}
		lines = append(lines, timemap.Canonicalize(run.urir, timemap.CanonSURT)+"### - "+string(b))
	}
	sort.Sort(sort.Reverse(sort.StringSlice(lines)))
	bw := bufio.NewWriter(w)
	for _, l := range lines {
		fmt.Fprintln(bw, l)
	}
	sum.Rules = len(lines)
	return sum, bw.Flush()
}

// WriteKeptIndex writes a CDXJ index of files without the plan's off-topic
// captures: served by pywb beside the original WARCs it hides exactly those
// captures, whatever pywb version. It returns the number of captures kept.
func WriteKeptIndex(ctx context.Context, w io.Writer, plan *Plan, files []string, onError func(error)) (int, error) {
	idx, err := timemap.BuildIndex(ctx, files, timemap.IndexOptions{OnError: onError})
	if err != nil {
		return 0, err
	}
	defer idx.Close()
	kept := 0
	var keep iter.Seq[timemap.Capture] = func(yield func(timemap.Capture) bool) {
		for c := range idx.Captures() {
			if _, ok := plan.excludes(c.Loc); ok {
				continue
			}
			kept++
			if !yield(c) {
				return
			}
		}
	}
	return kept, timemap.WriteCDXJ(w, keep)
}

// WriteACLFiles writes offtopic.aclj and kept.cdxj into dir atomically.
func WriteACLFiles(ctx context.Context, plan *Plan, files []string, dir string, onError func(error)) (*ACLSummary, int, error) {
	acl, err := atomicfile.Create(filepath.Join(dir, "offtopic.aclj"))
	if err != nil {
		return nil, 0, err
	}
	defer acl.Close()
	sum, err := WriteACL(acl, plan)
	if err != nil {
		return nil, 0, fmt.Errorf("write %s: %w", acl.Path(), err)
	}
	idx, err := atomicfile.Create(filepath.Join(dir, "kept.cdxj"))
	if err != nil {
		return nil, 0, err
	}
	defer idx.Close()
	bw := bufio.NewWriter(idx)
	kept, err := WriteKeptIndex(ctx, bw, plan, files, onError)
	if err == nil {
		err = bw.Flush()
	}
	if err != nil {
		return nil, 0, fmt.Errorf("write %s: %w", idx.Path(), err)
	}
	if err := acl.Commit(); err != nil {
		return nil, 0, err
	}
	return sum, kept, idx.Commit()
}
