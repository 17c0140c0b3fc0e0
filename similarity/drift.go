package similarity

import "fmt"

// Drift. A front page whose stories are replaced one at a time changes
// little from one capture to the next, so continuity (Options.Continuity)
// keeps every capture on-topic, also when its stories end up about another
// subject. A curator replaying the captures in turn sees where the page ends
// up: none of t0's stories is left, the stories are far from the page's
// subject, and they belong with another part of the collection rather than
// with t0's. A rotating page whose stories stay within its subject fits t0's
// part of the collection about as well as any other part, and real rotating
// pages that dip away from their subject come back to it: so only the page's
// last stretch, of at least driftRun captures each like this, has drifted.
const (
	// driftContent: content cosine to t0 under which none of t0's stories
	// is left.
	driftContent = 0.10
	// driftTopic: topic score (similarity to t0's part of the collection,
	// relative to t0's own) under which the stories are far from the page's
	// subject.
	driftTopic = 0.35
	// driftFit: the capture's similarity to t0's part of the collection,
	// relative to its similarity to its own part, under which its stories
	// belong elsewhere in the collection.
	driftFit = 0.45
	// driftRun is the least number of captures at the end of the TimeMap
	// that must all have drifted.
	driftRun = 2
)

// fit is capture i's similarity to t0's part of the collection relative to
// its similarity to its own part (the sampled first captures most like it):
// about 1 when its stories are of t0's subject, small when another part of
// the collection holds their subject. ok is false without a topic.
func (s *scoring) fit(i int) (float64, bool) {
	p := s.prep[i]
	if s.localT0 <= 0 || p == nil || p.cnorm == 0 {
		return 0, false
	}
	mine := p.denseCosine(s.model.localTopic(p.cvec, p.cnorm, s.voc))
	if mine == 0 {
		return 0, false
	}
	return roundScore(s.nbhdCosine(p) / mine), true
}

// driftedFrom reports whether capture i, with scores, has left t0's subject
// the way a drifted page does, and says so in numbers.
func (s *scoring) driftedFrom(i int, scores map[string]float64) (string, bool) {
	content, ok1 := scores[MeasureContent]
	topic, ok2 := scores[MeasureTopic]
	if !ok1 || !ok2 || content >= driftContent || topic >= driftTopic {
		return "", false
	}
	f, ok := s.fit(i)
	if !ok || f >= driftFit {
		return "", false
	}
	return fmt.Sprintf("content %.3f < %s; topic %.3f < %s; likeness to t0's part of the collection over likeness to its own %.3f < %s",
		content, fmtFloat(driftContent), topic, fmtFloat(driftTopic), f, fmtFloat(driftFit)), true
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
		if s.prep[i] == nil || res.Captures[i].Verdict != VerdictOn {
			continue // not scored, or off-topic already (a parking page after the drift)
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
		cr.Verdict, cr.Kind = VerdictOff, KindDrifted
		cr.Reason = fmt.Sprintf("%s: none of t0's stories is left, and the page's last %d captures are about what "+
			"other pages of the collection hold, not t0's subject (%s)", KindDrifted.Label(), len(run), d.why)
	}
}
