package timemap_test

import (
	"context"
	"fmt"
	"log"
	"path/filepath"

	"github.com/offtopic/offtopic/timemap"
)

// Index a collection's WARC files and walk its TimeMaps: every capture of
// one original page (by canonical URI-R), in time order.
func ExampleBuildIndex() {
	files, _ := filepath.Glob("../testdata/sample/*.warc.gz")
	idx, err := timemap.BuildIndex(context.Background(), files, timemap.IndexOptions{Canon: timemap.CanonSURT})
	if err != nil {
		log.Fatal(err)
	}
	defer idx.Close()
	st := idx.Stats()
	fmt.Printf("%d files, %d captures\n", st.Files, st.Captures)
	for tm, err := range idx.TimeMaps(context.Background()) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(tm.Key, len(tm.Captures))
	}
	// Output:
	// 3 files, 14 captures
	// org,coastallights-society)/ 3
	// org,coastallights-society)/history.html 1
	// org,coastallights-society)/keepers.html 3
	// org,coastallights-society)/lens.html 3
	// org,coastallights-society)/style.css 1
	// org,coastallights-society)/visit.html 3
}
