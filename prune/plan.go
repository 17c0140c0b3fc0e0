// Package prune owns acting on detection results: writing a cleaned copy of
// a collection without its off-topic captures (new WARC/ARC files, their CDXJ
// index and a list of what was excluded and why), or pywb access-control
// rules that hide them without copying anything. Curators' decisions from a
// reviewed spreadsheet override the automatic verdicts.
//
// It sits above report (atomic files, decisions), similarity and timemap.
package prune

import (
	"iter"
	"path/filepath"
	"slices"
	"time"

	"github.com/offtopic/offtopic/similarity"
	"github.com/offtopic/offtopic/timemap"
)

// Exclusion is one capture to leave out, with why.
type Exclusion struct {
	URIR     string
	URIM     string
	Datetime time.Time
	Reason   string
}

// locKey identifies a record across runs by file base name and position, so
// that results written from one working directory match files named from
// another.
type locKey struct {
	file   string
	offset int64
	member int64
}

func keyOf(l timemap.Location) locKey {
	return locKey{filepath.Base(l.File), l.Offset, l.MemberOffset}
}

// aclRun is what the ACL mode needs of one TimeMap.
type aclRun struct {
	key, urir string
	caps      []aclCapture
}

type aclCapture struct {
	ts  string
	off bool
	ex  Exclusion
}

// Plan is what to exclude, built by one pass over the results.
type Plan struct {
	excluded map[locKey]Exclusion
	// needed are payload records of kept revisits: never dropped, even when
	// their own capture is off-topic.
	needed map[locKey]bool
	acl    []aclRun
	// Decided counts captures whose verdict came from a curator's decision.
	Decided int
	// OffTopic counts captures to exclude.
	OffTopic int
}

// NewPlan reads results (and curators' decisions, which win over verdicts:
// "on-topic" or "off-topic" by capture key) into a plan.
func NewPlan(results iter.Seq2[*similarity.TimeMapResult, error], decisions map[similarity.GoldKey]string) (*Plan, error) {
	p := &Plan{excluded: map[locKey]Exclusion{}, needed: map[locKey]bool{}}
	for r, err := range results {
		if err != nil {
			return nil, err
		}
		run := aclRun{key: r.Key, urir: r.URIR}
		for i := range r.Captures {
			c := &r.Captures[i]
			off := c.Verdict == similarity.VerdictOff
			reason := c.Reason
			if d, ok := decisions[similarity.KeyOf(c)]; ok {
				p.Decided++
				off = d == similarity.VerdictOff
				reason = "curator decision: " + d
			}
			ex := Exclusion{URIR: c.URIR, URIM: c.URIM, Datetime: c.Datetime, Reason: reason}
			run.caps = append(run.caps, aclCapture{ts: c.Datetime.UTC().Format("20060102150405"), off: off, ex: ex})
			if off {
				p.OffTopic++
				p.excluded[keyOf(c.Loc)] = ex
			} else if c.Revisit && !c.Payload.IsZero() {
				p.needed[keyOf(c.Payload)] = true
			}
		}
		if slices.ContainsFunc(run.caps, func(c aclCapture) bool { return c.off }) {
			p.acl = append(p.acl, run)
		}
	}
	return p, nil
}

// excludes says whether the record at l is an off-topic capture to drop.
func (p *Plan) excludes(l timemap.Location) (Exclusion, bool) {
	k := keyOf(l)
	ex, ok := p.excluded[k]
	if ok && p.needed[k] {
		return ex, false
	}
	return ex, ok
}
