package similarity

import (
	"time"

	"github.com/offtopic/offtopic/timemap"
)

// Verdicts a capture can get.
const (
	VerdictOn        = "on-topic"
	VerdictOff       = "off-topic"
	VerdictNotScored = "not scored"
)

// CaptureResult is everything known about one capture after detection: what
// the index said, what extraction found, each score and the verdict with its
// reason. Reports render it and never recompute it.
type CaptureResult struct {
	URIR     string           `json:"uri_r"`
	URIM     string           `json:"uri_m"`
	Datetime time.Time        `json:"datetime"`
	Status   int              `json:"status"`
	MIME     string           `json:"mime"`
	Digest   string           `json:"digest,omitempty"`
	Revisit  bool             `json:"revisit,omitempty"`
	Loc      timemap.Location `json:"loc"`
	// Payload is where a revisit's payload is stored (zero for other captures).
	Payload   timemap.Location `json:"payload,omitzero"`
	Extractor string           `json:"extractor,omitempty"`
	Lang      string           `json:"lang,omitempty"`
	Title     string           `json:"title,omitempty"`
	WordCount int              `json:"word_count"`
	ByteCount int              `json:"byte_count"`
	// Scores holds each computed measure's score against t0.
	Scores map[string]float64 `json:"scores,omitempty"`
	// Verdict is VerdictOn, VerdictOff or VerdictNotScored.
	Verdict string `json:"verdict"`
	// Kind is what sort of off-topic an off-topic capture is ("" for other
	// verdicts).
	Kind Kind `json:"kind,omitempty"`
	// Reason says why, in plain words first (for an off-topic capture, its
	// kind's label), the numbers after: the thresholds crossed, "t0", or why
	// it was not scored.
	Reason string `json:"reason"`
	// Replay says what the capture showed when replayed, where it led
	// elsewhere (a redirect, a client-side redirect, frames): what it was
	// judged by.
	Replay *Replay `json:"replay,omitempty"`
	// IsT0 marks the capture used as URI-R@t0.
	IsT0 bool `json:"t0,omitempty"`
	// Published is the document's publication date as an audit against an
	// event judged it (crawl audit); nil elsewhere.
	Published *Published `json:"published,omitempty"`
	// Excerpt is the first words of the extracted text.
	Excerpt string `json:"excerpt,omitempty"`
	// Partial, when not empty, says that the capture was judged on the
	// part of its payload that could be decoded, and why only that
	// (extract.Document.Partial); its Reason says so too.
	Partial string `json:"partial,omitempty"`
	// rule names the rule of the curator's reading that decided the
	// verdict (see rules): the drift rule passes over splash pages (no
	// stories of their own, whatever their footer holds), and tests read it.
	rule string
}

// TimeMapResult is the detection result of one TimeMap: the unit that results
// files hold one JSON line of.
type TimeMapResult struct {
	Key  string `json:"key"`
	URIR string `json:"uri_r"`
	// URIT is the URI of the TimeMap (as OTMT keys its output).
	URIT string `json:"uri_t"`
	// T0 is the URI-M of the capture used as URI-R@t0, "" when none qualified.
	T0 string `json:"t0,omitempty"`
	// T0Reason says why that capture was chosen.
	T0Reason string          `json:"t0_reason"`
	Captures []CaptureResult `json:"captures"`
}

// Lang is the language of the page: that of t0, else the first detected
// among its captures, "" when none.
func (r *TimeMapResult) Lang() string {
	first := ""
	for _, c := range r.Captures {
		if c.IsT0 {
			return c.Lang
		}
		if first == "" {
			first = c.Lang
		}
	}
	return first
}

// Counts tallies verdicts.
func (r *TimeMapResult) Counts() (on, off, notScored int) {
	for _, c := range r.Captures {
		switch c.Verdict {
		case VerdictOn:
			on++
		case VerdictOff:
			off++
		default:
			notScored++
		}
	}
	return
}
