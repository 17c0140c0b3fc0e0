package similarity_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/offtopic/offtopic/similarity"
)

// Judge every capture of a collection's WARC files with the default
// settings and count the verdicts of each page's captures.
func ExampleDetectFiles() {
	files, _ := filepath.Glob("../testdata/sample/*.warc.gz")
	results, err := similarity.DetectFiles(context.Background(), files,
		similarity.Config{Options: similarity.DefaultOptions(), ArchiveURL: "https://wayback.example.org/lights"})
	if err != nil {
		log.Fatal(err)
	}
	var on, off, notScored int
	for _, r := range results {
		o, f, n := r.Counts()
		on, off, notScored = on+o, off+f, notScored+n
	}
	fmt.Printf("%d TimeMaps: %d on-topic, %d off-topic, %d not scored\n", len(results), on, off, notScored)
	// Output:
	// 6 TimeMaps: 8 on-topic, 4 off-topic, 2 not scored
}

// Measure detection against a gold standard, as the study did.
func ExampleEvaluate() {
	files, _ := filepath.Glob("../testdata/sample/*.warc.gz")
	results, err := similarity.DetectFiles(context.Background(), files,
		similarity.Config{Options: similarity.DefaultOptions(), ArchiveURL: "http://localhost:8080/collection"})
	if err != nil {
		log.Fatal(err)
	}
	f, err := os.Open("../testdata/sample/gold.tsv")
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	gold, err := similarity.ReadGoldTSV(f, "gold.tsv", nil)
	if err != nil {
		log.Fatal(err)
	}
	ev := similarity.Evaluate(gold, results)
	fmt.Printf("F1 %.2f over %d labelled captures\n", ev.Confusion.F1(), len(gold))
	// Output:
	// F1 1.00 over 12 labelled captures
}
