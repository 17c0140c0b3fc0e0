package state

import (
	"context"
	"fmt"
	"time"

	"github.com/offtopic/offtopic/report"
	"github.com/offtopic/offtopic/similarity"
)

// Review is what the state adds to reports made again from the results of
// the run that started at started (the results file's run): the curator's
// decisions as they are now and, as that run's own reports showed it, what
// was new in it. news is false when the state holds no run that started
// then, or has judged again since (it no longer knows what that run
// found): the review then holds the decisions alone.
func (s *State) Review(ctx context.Context, started time.Time) (rv *report.Review, news bool, err error) {
	decisions, err := s.db.decisions(ctx)
	if err != nil {
		return nil, false, fmt.Errorf("state %s: %w", s.path, err)
	}
	rv, news, err = s.review(ctx, started)
	if err != nil {
		return nil, false, fmt.Errorf("state %s: %w", s.path, err)
	}
	rv.Decisions = decisions
	return rv, news, nil
}

func (s *State) review(ctx context.Context, started time.Time) (*report.Review, bool, error) {
	id, ok, err := s.db.runStarted(ctx, started)
	if err != nil || !ok {
		return report.NewReview(time.Time{}), false, err
	}
	if later, err := s.db.judgedAfter(ctx, id); err != nil || later {
		return report.NewReview(time.Time{}), false, err
	}
	since, err := s.db.startedOf(ctx, id-1)
	if err != nil {
		return nil, false, err
	}
	rv := report.NewReview(since)
	// As Run.record filled the run's review.
	err = s.db.changedIn(ctx, id, func(k similarity.GoldKey, first int64, was string) {
		if first == id {
			rv.New[k] = true
		} else {
			rv.Changed[k] = was
		}
	})
	if err != nil {
		return nil, false, err
	}
	err = s.db.judgedIn(ctx, id, func(key string, result []byte) error {
		rv.Judged[key] = true
		res, err := decodeResult(result)
		if err != nil {
			return fmt.Errorf("TimeMap %s: %w", key, err)
		}
		newTM := len(res.Captures) > 0
		for i := range res.Captures {
			newTM = newTM && rv.New[similarity.KeyOf(&res.Captures[i])]
		}
		if newTM {
			rv.NewTimeMaps[key] = true
		}
		return nil
	})
	return rv, true, err
}
