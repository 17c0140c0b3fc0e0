package main

import (
	"github.com/offtopic/offtopic/crawl"
	"github.com/offtopic/offtopic/timemap"
)

// archiveRelevant counts the relevant pages a local archive holds (as HTML
// captures a crawl could collect): the ceiling of the harvest page's
// relevant pages. It is 0, not known, for a remote archive or without a
// relevance list.
func archiveRelevant(archive crawl.Archive, relevant map[string]bool) int {
	local, ok := archive.(*crawl.LocalArchive)
	if !ok || len(relevant) == 0 {
		return 0
	}
	held := map[string]bool{}
	for _, c := range local.Captures() {
		if k := timemap.Canonicalize(c.URIR, timemap.CanonSURT); relevant[k] {
			held[k] = true
		}
	}
	return len(held)
}
