package similarity

import (
	"context"
	"errors"
	"fmt"

	"github.com/offtopic/offtopic/extract"
)

// What extraction could not do is never a verdict (issue 37): a payload in
// a content coding that cannot be undone is not scored, with the reason; one
// that decoded only in part is judged on that part, its reason saying so,
// or not scored when the part holds too few words to judge.

// ErrPartialPayload is wrapped by what Config.OnError hears of a capture
// judged on the part of its payload that decoded (not of one that could not
// be read at all).
var ErrPartialPayload = errors.New("judged on the part of its payload that decoded")

// partialDoc checks a document that decoded only in part: it returns the
// reason the capture is not scored when the part holds fewer content words
// than judging needs (minWords, the t0 minimum), "" when it is judged.
func partialDoc(doc *extract.Document, minWords int) string {
	if doc == nil || doc.Partial == "" || doc.ContentWords >= minWords {
		return ""
	}
	return fmt.Sprintf("extract: %s: %d words decoded, too few to judge", doc.Partial, doc.ContentWords)
}

// scoreNoting is Score, each capture judged on part of its payload said so
// in its result (Partial, and in its reason).
func scoreNoting(ctx context.Context, in Input, model func() *Model, voc *vocab, opts Options) (*TimeMapResult, error) {
	partial := map[int]string{}
	for i, d := range in.Docs {
		if d != nil && d.Partial != "" {
			partial[i] = d.Partial
		}
	}
	res, err := scoreAwaiting(ctx, in, model, voc, opts)
	if err != nil || len(partial) == 0 {
		return res, err
	}
	for i, why := range partial {
		if c := &res.Captures[i]; c.Verdict != VerdictNotScored {
			c.Partial = why
			c.Reason += "; judged on the part of its payload that decoded (" + why + ")"
		}
	}
	return res, nil
}
