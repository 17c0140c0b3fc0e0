package timemap

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadAllFixtures reads every fixture file and checks the record counts
// by WARC-Type against FACTS.md.
func TestReadAllFixtures(t *testing.T) {
	type counts struct{ total, warcinfo, request, response, revisit, resource, metadata int }
	facts := map[string]counts{
		"warc/aut-example.docs.warc.gz":                  {21, 3, 9, 9, 0, 0, 0},
		"warc/aut-example.txt.warc.gz":                   {6, 2, 2, 2, 0, 0, 0},
		"warc/aut-example.warc.gz":                       {822, 1, 261, 299, 0, 0, 261},
		"warc/aut-issue-493.warc":                        {32, 2, 15, 10, 5, 0, 0},
		"warc/aut-issue-514.warc":                        {8, 1, 2, 2, 0, 2, 1},
		"warc/pywb-dupes.warc.gz":                        {25, 1, 12, 3, 9, 0, 0},
		"warc/pywb-example-bad.warc.gz.bad":              {6, 1, 2, 2, 1, 0, 0},
		"warc/pywb-example-extra.warc":                   {6, 0, 2, 2, 2, 0, 0},
		"warc/pywb-example-url-agnostic-orig.warc.gz":    {2, 1, 0, 1, 0, 0, 0},
		"warc/pywb-example-url-agnostic-revisit.warc.gz": {2, 1, 0, 0, 1, 0, 0},
		"warc/pywb-example-wget-1-14.warc.gz":            {6, 1, 1, 1, 0, 3, 0},
		"warc/pywb-example-wpull.warc.gz":                {4, 1, 1, 1, 0, 1, 0},
		"warc/pywb-example.warc":                         {6, 1, 2, 2, 1, 0, 0},
		"warc/pywb-example.warc.gz":                      {6, 1, 2, 2, 1, 0, 0},
		"warc/pywb-example2.warc.gz":                     {3, 1, 1, 1, 0, 0, 0},
		"warc/pywb-httpbin-resource.warc.gz":             {1, 0, 0, 0, 0, 1, 0},
		"warc/pywb-iana.warc.gz":                         {343, 1, 171, 48, 123, 0, 0},
		"warc/pywb-missing-status-text.warc":             {1, 0, 0, 1, 0, 0, 0},
		"warc/pywb-post-test.warc.gz":                    {6, 0, 3, 3, 0, 0, 0},
		// ARC: the version block counts as warcinfo, URL records as response.
		"arc/pywb-example.arc":      {2, 1, 0, 1, 0, 0, 0},
		"arc/pywb-example.arc.gz":   {2, 1, 0, 1, 0, 0, 0},
		"arc/aut-example.arc.gz":    {300, 1, 0, 299, 0, 0, 0},
		"arc/pywb-bad.arc":          {1, 0, 0, 1, 0, 0, 0},
		"arc/aut-badexample.arc.gz": {4, 1, 0, 3, 0, 0, 0}, // its last record cut short, kept
	}
	dir := filepath.Join(sharedDir(t), "fixtures")
	for _, sub := range []string{"warc", "arc"} {
		ents, err := os.ReadDir(filepath.Join(dir, sub))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ents {
			rel := sub + "/" + e.Name()
			t.Run(rel, func(t *testing.T) {
				want, ok := facts[rel]
				if !ok {
					t.Fatalf("no facts for %s", rel)
				}
				recs, rerrs := readAll(t, filepath.Join(dir, rel))
				var got counts
				for _, r := range recs {
					got.total++
					switch r.Type {
					case "warcinfo":
						got.warcinfo++
					case "request":
						got.request++
					case "response":
						got.response++
					case "revisit":
						got.revisit++
					case "resource":
						got.resource++
					case "metadata":
						got.metadata++
					}
				}
				if got != want {
					t.Errorf("counts = %+v, want %+v", got, want)
				}
				// pywb-example.warc's second request record declares a
				// Content-Length 7 bytes short: the 7 bytes left before the
				// next record are reported (the record itself is read).
				wantErrs := 0
				if rel == "warc/pywb-example.warc" {
					wantErrs = 1
				}
				if sub == "warc" && len(rerrs) != wantErrs {
					t.Errorf("record errors %v, want %d", rerrs, wantErrs)
				}
				for _, e := range rerrs {
					if rel == "warc/pywb-example.warc" && (e.Offset != 4764 || !strings.Contains(e.Error(), "7 bytes of garbage")) {
						t.Errorf("record error %v, want 7 bytes of garbage at offset 4764", e)
					}
				}
			})
		}
	}
}
