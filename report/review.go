package report

import (
	"time"

	"github.com/offtopic/offtopic/similarity"
)

// Review is what a collection's state adds to a run's reports: the
// curator's decisions, shown beside the verdicts and not asked again, and
// what is new since the previous run (captures first seen, verdicts that
// changed, TimeMaps first seen). The state fills it while the run emits
// results: a capture's entries are in place before its TimeMap is written.
type Review struct {
	// Since is when the previous run started; zero on a state's first run
	// (then nothing is new: everything is).
	Since time.Time
	// Decisions are the curator's, by capture.
	Decisions map[similarity.GoldKey]Decision
	// New holds the captures first seen in this run.
	New map[similarity.GoldKey]bool
	// Changed holds, for each capture whose verdict changed in this run, the
	// verdict it had.
	Changed map[similarity.GoldKey]string
	// NewTimeMaps holds the keys of the TimeMaps first seen in this run.
	NewTimeMaps map[string]bool
	// Judged holds the keys of the TimeMaps judged in this run: only their
	// captures can be new or have changed.
	Judged map[string]bool
}

// Decision is one curator decision as a state keeps it.
type Decision struct {
	// Decision is DecisionOn, DecisionOff or DecisionUnsure.
	Decision string
	// Who imported it, When it was made (the decisions file's time), From
	// which file.
	Who  string
	When time.Time
	From string
}

// NewReview returns an empty review of a run after the one at since.
func NewReview(since time.Time) *Review {
	return &Review{Since: since, Decisions: map[similarity.GoldKey]Decision{}, New: map[similarity.GoldKey]bool{},
		Changed: map[similarity.GoldKey]string{}, NewTimeMaps: map[string]bool{}, Judged: map[string]bool{}}
}

// news says whether c, of the TimeMap tm, is new since the previous run
// (first seen, or its verdict changed) and the verdict it had ("" when
// first seen).
func (rv *Review) news(tm string, c *similarity.CaptureResult) (isNew bool, was string) {
	if rv == nil || rv.Since.IsZero() || !rv.Judged[tm] {
		return false, ""
	}
	k := similarity.KeyOf(c)
	if was, ok := rv.Changed[k]; ok {
		return true, was
	}
	return rv.New[k], ""
}

// decision is the curator's decision on c, "" when there is none.
func (rv *Review) decision(c *similarity.CaptureResult) (Decision, bool) {
	if rv == nil || len(rv.Decisions) == 0 {
		return Decision{}, false
	}
	d, ok := rv.Decisions[similarity.KeyOf(c)]
	return d, ok
}

// DecisionsMap is the decisions as prune and evaluate take them.
func (rv *Review) DecisionsMap() map[similarity.GoldKey]string {
	out := make(map[similarity.GoldKey]string, len(rv.Decisions))
	for k, d := range rv.Decisions {
		out[k] = d.Decision
	}
	return out
}

// htmlNews is what the HTML report's overview says is new since the
// previous run, and of the state's decisions.
type htmlNews struct {
	Since                         string
	Captures, Off, Changed, Pages int
	Decided, Against              int
}

// review notes what of r is new and which of its captures the curator
// decided (row id is r's row).
func (h *HTMLWriter) review(id int, r *similarity.TimeMapResult) {
	rv := h.run.Review
	if rv == nil {
		return
	}
	news := false
	if rv.NewTimeMaps[r.Key] && !rv.Since.IsZero() {
		h.news.Pages++
		news = true
	}
	for i := range r.Captures {
		c := &r.Captures[i]
		if isNew, was := rv.news(r.Key, c); isNew {
			news = true
			if was != "" {
				h.news.Changed++
			} else {
				h.news.Captures++
				if c.Verdict == similarity.VerdictOff {
					h.news.Off++
				}
			}
		}
		if d, ok := rv.decision(c); ok {
			k := similarity.KeyOf(c)
			h.decided = append(h.decided, [5]any{k.Key + " " + k.TS, d.Decision, c.URIM, c.URIR, id})
			h.news.Decided++
			if against(d.Decision, c.Verdict) {
				h.news.Against++
			}
		}
	}
	if news {
		h.newRows = append(h.newRows, id)
	}
}

// against reports whether a decision disagrees with a verdict (on-topic
// against off-topic or the other way; unsure and not scored never do).
func against(decision, verdict string) bool {
	return (decision == DecisionOn || decision == DecisionOff) && (verdict == similarity.VerdictOn || verdict == similarity.VerdictOff) && decision != verdict
}
