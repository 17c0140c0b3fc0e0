package similarity

import "fmt"

// Drift. A front page whose stories are replaced one at a time changes
// little from one capture to the next, so continuity (Options.Continuity)
// keeps every capture on-topic, also when its stories end up about another
// subject. A curator replaying the captures in turn sees where the page ends
// up: none of t0's stories is left, and the stories are far from the page's
// subject and from what the collection is about (an Archive-It collection
// has one subject; detect judges each collection against its own model). A
// rotating page whose stories stay within the collection's subject is as
// close to it as the collection's pages usually are, and real rotating
// pages that dip away from their subject come back to it: so only the
// page's last stretch, of at least driftRun captures each like this, has
// drifted.
const (
	// driftContent: content cosine to t0 under which none of t0's stories
	// is left.
	driftContent = 0.10
	// driftTopic: topic score (similarity to t0's part of the collection,
	// relative to t0's own) under which the stories are far from the page's
	// subject.
	driftTopic = 0.35
	// driftAway: similarity to the collection's topic, relative to a
	// typical first capture's (Model.TypicalTopicSim), under which the
	// stories are not about the collection's subject.
	driftAway = 0.35
	// driftRun is the least number of captures at the end of the TimeMap
	// that must all have drifted.
	driftRun = 2
)

// driftedFrom reports whether capture i, with scores, has left t0's subject
// the way a drifted page does, and says so in numbers. A capture without
// content has no stories to judge: it is judged as a page without content.
func (s *scoring) driftedFrom(i int, scores map[string]float64) (string, bool) {
	content, ok1 := scores[MeasureContent]
	topic, ok2 := scores[MeasureTopic]
	p := s.prep[i]
	if !ok1 || !ok2 || p == nil || p.cnorm == 0 || p.doc.ContentWords < blankWords || s.model == nil || s.model.TypicalTopicSim <= 0 ||
		content >= driftContent || topic >= driftTopic {
		return "", false
	}
	away, _ := s.likeness(i)
	if away >= driftAway {
		return "", false
	}
	return fmt.Sprintf("content %.3f < %s; topic %.3f < %s; likeness to the collection's subject over a typical page's %.3f < %s",
		content, fmtFloat(driftContent), topic, fmtFloat(driftTopic), away, fmtFloat(driftAway)), true
}

// markDrift turns the page's last stretch of drifted captures, when it has
// at least driftRun, off-topic, of kind drifted. Captures off-topic already
// (a parking page after the drift) neither count nor end the stretch.
func (s *scoring) markDrift(res *TimeMapResult) {
	type drifted struct {
		i   int
		why string
	}
	var run []drifted
	for i := len(s.prep) - 1; i > s.t0; i-- {
		if s.prep[i] == nil || res.Captures[i].Verdict != VerdictOn || s.prep[i].doc.ContentWords < blankWords || res.Captures[i].rule == "splash" {
			continue // not scored, off-topic already (a parking page after the drift), or no stories of its own
		}
		why, ok := s.driftedFrom(i, res.Captures[i].Scores)
		if !ok {
			break
		}
		run = append(run, drifted{i, why})
	}
	if len(run) < driftRun {
		return
	}
	for _, d := range run {
		cr := &res.Captures[d.i]
		cr.Verdict, cr.Kind, cr.rule = VerdictOff, KindDrifted, "drifted"
		cr.Reason = fmt.Sprintf("%s: none of t0's stories is left, and the page's last %d captures are about "+
			"neither t0's subject nor the collection's (%s)", KindDrifted.Label(), len(run), d.why)
	}
}
