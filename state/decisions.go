package state

import (
	"context"
	"fmt"
	"time"

	"github.com/offtopic/offtopic/report"
	"github.com/offtopic/offtopic/similarity"
)

// Imported sums up one decisions file taken into the state.
type Imported struct {
	// New counts captures decided for the first time, Changed those the
	// file decides otherwise than before (the file's decision is kept),
	// Same those decided as before.
	New, Changed, Same int
}

// ImportDecisions takes a curator's decisions into the state: who imported
// them, when they were made (the file's modification time) and from which
// file. A capture decided before is decided as the later file says; a
// verdict never changes a decision.
func (s *State) ImportDecisions(ctx context.Context, from string, decisions map[similarity.GoldKey]string, who string, when time.Time) (Imported, error) {
	var sum Imported
	w, err := s.db.begin(ctx)
	if err != nil {
		return sum, fmt.Errorf("state %s: %w", s.path, err)
	}
	defer w.rollback()
	old, err := w.decisions()
	if err != nil {
		return sum, fmt.Errorf("state %s: %w", s.path, err)
	}
	now := time.Now()
	for k, d := range decisions {
		o, ok := old[k]
		switch {
		case !ok:
			sum.New++
		case o.Decision != d:
			sum.Changed++
		default:
			sum.Same++
		}
		if err := w.putDecision(k, report.Decision{Decision: d, Who: who, When: when, From: absPath(from)}, now); err != nil {
			return sum, fmt.Errorf("state %s: %w", s.path, err)
		}
	}
	if err := w.commit(); err != nil {
		return sum, fmt.Errorf("state %s: %w", s.path, err)
	}
	return sum, nil
}

// Decisions are the curator's decisions the state holds, by capture.
func (s *State) Decisions(ctx context.Context) (map[similarity.GoldKey]report.Decision, error) {
	d, err := s.db.decisions(ctx)
	if err != nil {
		return nil, fmt.Errorf("state %s: %w", s.path, err)
	}
	return d, nil
}

// Contradiction is a decision the latest verdict disagrees with.
type Contradiction struct {
	Key      similarity.GoldKey
	Decision report.Decision
	Verdict  string
	// Since is true when the verdict changed after the decision was taken
	// into the state (the detection changed its mind, not the curator).
	Since bool
}

// Contradictions lists the on-topic or off-topic decisions that the
// latest verdicts disagree with, in key order: listed, never overwritten.
func (s *State) Contradictions(ctx context.Context) ([]Contradiction, error) {
	c, err := s.db.contradictions(ctx)
	if err != nil {
		return nil, fmt.Errorf("state %s: %w", s.path, err)
	}
	return c, nil
}
