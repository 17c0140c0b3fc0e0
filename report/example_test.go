package report_test

import (
	"bytes"
	"fmt"
	"log"
	"strings"
	"time"

	"github.com/offtopic/offtopic/report"
	"github.com/offtopic/offtopic/similarity"
)

// Write detection results as a results file (a run line, then a JSON line
// per TimeMap) and read them back, as evaluate, report and prune do.
func ExampleReadResults() {
	at := time.Date(2011, 6, 20, 14, 0, 0, 0, time.UTC)
	results := []*similarity.TimeMapResult{{Key: "org,example)/", URIR: "http://example.org/",
		Captures: []similarity.CaptureResult{
			{URIR: "http://example.org/", Datetime: at.AddDate(-3, 0, 0), Status: 200, Verdict: similarity.VerdictOn, Reason: "t0"},
			{URIR: "http://example.org/", Datetime: at, Status: 200, Verdict: similarity.VerdictOff, Kind: similarity.KindParked,
				Reason: "parked or for sale"},
		}}}
	var buf bytes.Buffer
	w, err := report.NewResultsWriter(&buf, &report.Run{Tool: "offtopic", Started: at, Measures: similarity.DefaultMeasures})
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range results {
		if err := w.Write(r); err != nil {
			log.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		log.Fatal(err)
	}
	var run report.Run
	for r, err := range report.ReadResults(&buf, "results.jsonl", &run) {
		if err != nil {
			log.Fatal(err)
		}
		for _, c := range r.Captures {
			fmt.Println(strings.TrimSpace(c.Datetime.Format("2006-01-02") + " " + c.Verdict + " " + string(c.Kind)))
		}
	}
	fmt.Println("rule:", run.Measures)
	// Output:
	// 2008-06-20 on-topic
	// 2011-06-20 off-topic parked
	// rule: cosine=0.10,wordcount=-0.85
}
