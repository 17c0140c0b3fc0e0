// Package prune owns acting on detection results: writing a cleaned copy of
// a collection without its off-topic captures (new WARC/ARC files, their CDXJ
// index and a list of what was excluded and why), or pywb access-control
// rules that hide them without copying anything. Curators' decisions from a
// reviewed spreadsheet override the automatic verdicts.
//
// It sits above similarity and timemap, beside report (cmd reads curators'
// decisions with report and hands them to prune).
package prune

import (
	"cmp"
	"fmt"
	"iter"
	"maps"
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

// Kept is an off-topic capture whose record a cleaned copy keeps, and why.
type Kept struct {
	Exclusion
	// Because says why the record stays.
	Because string
}

// need is a kept revisit that replays the payload of another record.
type need struct {
	loc     locKey
	ex      Exclusion // the revisit, as it would be listed if left out
	decided bool      // a curator decided the revisit on-topic
}

// Cause is why a cleaned copy leaves a capture out.
type Cause int

// The causes of leaving a capture out.
const (
	// ByVerdict: detection judged it off-topic and no curator decided it.
	ByVerdict Cause = iota
	// ByCurator: a curator decided it off-topic.
	ByCurator
	// ByRevisit: a revisit that replays the payload of a capture a curator
	// decided off-topic.
	ByRevisit
)

// Plan is what to exclude, built by one pass over the results.
type Plan struct {
	excluded map[locKey]Exclusion
	cause    map[locKey]Cause
	// found holds the excluded records a copy or an index met in its inputs.
	found map[locKey]bool
	// Unmatched lists curators' decisions that match no capture of the
	// results (a decisions file of another run or collection), in key order.
	Unmatched []similarity.GoldKey
	// KeepDamaged keeps records the reader could not parse in a cleaned copy
	// (by default they are left out and listed).
	KeepDamaged bool
	acl         []aclRun
	// DecidedOn and DecidedOff count captures a curator decided on-topic
	// and off-topic (Unsure those marked unsure).
	DecidedOn, DecidedOff int
	// Unsure counts captures a curator marked unsure (see Unsure).
	Unsure int
	// OffTopic counts captures off-topic by verdict or curator decision.
	OffTopic int
	// KeptOff lists off-topic captures whose record a cleaned copy keeps
	// because a kept revisit replays its payload (an automatic verdict
	// yields to the revisit; a curator's decision yields only to a curator's
	// on-topic decision on the revisit).
	KeptOff []Kept
	// AlsoOff lists revisits with an automatic on-topic verdict that a
	// cleaned copy leaves out because they replay the payload of a capture a
	// curator decided off-topic: the curator's decision wins.
	AlsoOff []Exclusion
}

// Excluded is the number of captures a cleaned copy leaves out.
func (p *Plan) Excluded() int { return p.OffTopic - len(p.KeptOff) + len(p.AlsoOff) }

// Unsure says what a curator's "unsure" mark does to a capture.
type Unsure int

// What an unsure mark does.
const (
	// UnsureKeep keeps the capture, whatever its verdict: a curator who is
	// not sure does not want it gone.
	UnsureKeep Unsure = iota
	// UnsureVerdict leaves the capture to its verdict.
	UnsureVerdict
	// UnsureOff leaves the capture out.
	UnsureOff
)

// ParseUnsure parses a --unsure value: keep, verdict or off.
func ParseUnsure(s string) (Unsure, error) {
	switch s {
	case "keep", "":
		return UnsureKeep, nil
	case "verdict":
		return UnsureVerdict, nil
	case "off", "off-topic", "drop":
		return UnsureOff, nil
	}
	return UnsureKeep, fmt.Errorf("unsure %q: want keep, verdict or off", s)
}

// DecisionUnsure is the decision of a capture a curator marked unsure.
const DecisionUnsure = "unsure"

// NewPlan reads results (and curators' decisions, which win over verdicts:
// "on-topic", "off-topic" or "unsure" by capture key; unsure says what
// "unsure" does) into a plan.
func NewPlan(results iter.Seq2[*similarity.TimeMapResult, error], decisions map[similarity.GoldKey]string, unsure Unsure) (*Plan, error) {
	p := &Plan{excluded: map[locKey]Exclusion{}, cause: map[locKey]Cause{}, found: map[locKey]bool{}}
	matched := map[similarity.GoldKey]bool{}
	needed := map[locKey][]need{} // payload record -> kept revisits replaying it
	for r, err := range results {
		if err != nil {
			return nil, err
		}
		run := aclRun{key: r.Key, urir: r.URIR}
		for i := range r.Captures {
			c := &r.Captures[i]
			off := c.Verdict == similarity.VerdictOff
			reason := c.Reason
			decided := false
			if d, ok := decisions[similarity.KeyOf(c)]; ok {
				matched[similarity.KeyOf(c)] = true
				switch d {
				case similarity.VerdictOn:
					p.DecidedOn++
				case similarity.VerdictOff:
					p.DecidedOff++
				}
				if d == DecisionUnsure {
					p.Unsure++
					switch unsure {
					case UnsureKeep:
						d = similarity.VerdictOn
					case UnsureOff:
						d = similarity.VerdictOff
					}
				}
				if d != DecisionUnsure {
					off = d == similarity.VerdictOff
					reason = "curator decision: " + d
					decided = true
				}
			}
			ex := Exclusion{URIR: c.URIR, URIM: c.URIM, Datetime: c.Datetime, Reason: reason}
			run.caps = append(run.caps, aclCapture{ts: c.Datetime.UTC().Format("20060102150405"), off: off, ex: ex})
			if off {
				p.OffTopic++
				p.excluded[keyOf(c.Loc)] = ex
				p.cause[keyOf(c.Loc)] = ByVerdict
				if decided {
					p.cause[keyOf(c.Loc)] = ByCurator
				}
			} else if c.Revisit && !c.Payload.IsZero() {
				k := keyOf(c.Payload)
				needed[k] = append(needed[k], need{loc: keyOf(c.Loc), ex: ex, decided: decided})
			}
		}
		if slices.ContainsFunc(run.caps, func(c aclCapture) bool { return c.off }) {
			p.acl = append(p.acl, run)
		}
	}
	p.resolveNeeded(needed)
	for k := range decisions {
		if !matched[k] {
			p.Unmatched = append(p.Unmatched, k)
		}
	}
	slices.SortFunc(p.Unmatched, func(a, b similarity.GoldKey) int { return cmp.Or(cmp.Compare(a.Key, b.Key), cmp.Compare(a.TS, b.TS)) })
	return p, nil
}

// Absent lists the off-topic captures to leave out whose records the copy
// or index made with the plan met in none of its inputs (the results name
// files that were not given, or moved), in file and offset order.
func (p *Plan) Absent() []Exclusion {
	var keys []locKey
	for k := range p.excluded {
		if !p.found[k] {
			keys = append(keys, k)
		}
	}
	slices.SortFunc(keys, func(a, b locKey) int {
		return cmp.Or(cmp.Compare(a.file, b.file), cmp.Compare(a.offset, b.offset), cmp.Compare(a.member, b.member))
	})
	out := make([]Exclusion, len(keys))
	for i, k := range keys {
		out[i] = p.excluded[k]
	}
	return out
}

// LeftOut counts the captures a copy or an index made with the plan left
// out, by cause: the captures to exclude that it met in its inputs (Absent
// lists the others). Their sum is what it left out.
func (p *Plan) LeftOut() map[Cause]int {
	n := map[Cause]int{}
	for k := range p.excluded {
		if p.found[k] {
			n[p.cause[k]]++
		}
	}
	return n
}

// resolveNeeded settles off-topic records that kept revisits replay: the
// record stays when its verdict was automatic, or when a curator decided
// one of the revisits on-topic; otherwise the curator's off-topic decision
// wins and the revisits with automatic verdicts go too.
func (p *Plan) resolveNeeded(needed map[locKey][]need) {
	keys := slices.SortedFunc(maps.Keys(needed), func(a, b locKey) int {
		return cmp.Or(cmp.Compare(a.file, b.file), cmp.Compare(a.offset, b.offset), cmp.Compare(a.member, b.member))
	})
	for _, k := range keys {
		ex, off := p.excluded[k]
		if !off {
			continue
		}
		revs := needed[k]
		var because *need
		if p.cause[k] != ByCurator {
			because = &revs[0]
		} else {
			for i := range revs {
				if revs[i].decided {
					because = &revs[i]
					break
				}
			}
		}
		if because != nil {
			who := "on-topic verdict"
			if because.decided {
				who = "curator's on-topic decision"
			}
			delete(p.excluded, k)
			delete(p.cause, k)
			p.KeptOff = append(p.KeptOff, Kept{Exclusion: ex,
				Because: fmt.Sprintf("the revisit %s (%s) replays its payload", uriM(because.ex), who)})
			continue
		}
		for _, r := range revs {
			if _, already := p.excluded[r.loc]; already {
				continue
			}
			rex := r.ex
			rex.Reason = fmt.Sprintf("replays the payload of %s, which a curator decided off-topic", uriM(ex))
			p.excluded[r.loc] = rex
			p.cause[r.loc] = ByRevisit
			p.AlsoOff = append(p.AlsoOff, rex)
		}
	}
}

// uriM names a capture by its URI-M, else by URI-R and time.
func uriM(ex Exclusion) string {
	if ex.URIM != "" {
		return ex.URIM
	}
	return ex.URIR + " at " + ex.Datetime.UTC().Format(time.RFC3339)
}

// excludes says whether the record at l is an off-topic capture to drop.
func (p *Plan) excludes(l timemap.Location) (Exclusion, bool) {
	k := keyOf(l)
	ex, ok := p.excluded[k]
	if ok && p.found != nil {
		p.found[k] = true
	}
	return ex, ok
}
