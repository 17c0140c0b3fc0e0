package prune_test

import (
	"fmt"
	"time"

	"github.com/offtopic/offtopic/prune"
	"github.com/offtopic/offtopic/similarity"
	"github.com/offtopic/offtopic/timemap"
)

// Plan what a cleaned copy leaves out: the off-topic captures, unless a
// curator's decision says otherwise. prune.Copy then writes the copy.
func ExampleNewPlan() {
	at := time.Date(2011, 6, 20, 14, 0, 0, 0, time.UTC)
	capture := func(i int, verdict string) similarity.CaptureResult {
		return similarity.CaptureResult{URIR: "http://example.org/", Datetime: at.AddDate(i, 0, 0), Verdict: verdict,
			Loc: timemap.Location{File: "coll.warc.gz", Offset: int64(1000 * i)}}
	}
	r := &similarity.TimeMapResult{Key: "org,example)/", URIR: "http://example.org/", Captures: []similarity.CaptureResult{
		capture(0, similarity.VerdictOn), capture(1, similarity.VerdictOff), capture(2, similarity.VerdictOff)}}
	// The curator saw that the second capture was fine after all.
	decisions := map[similarity.GoldKey]string{similarity.KeyOf(&r.Captures[1]): similarity.VerdictOn}
	plan, err := prune.NewPlan(func(yield func(*similarity.TimeMapResult, error) bool) { yield(r, nil) }, decisions, prune.UnsureKeep)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d captures to leave out; %d decided on-topic by the curator\n", plan.Excluded(), plan.DecidedOn)
	// Output:
	// 1 captures to leave out; 1 decided on-topic by the curator
}
