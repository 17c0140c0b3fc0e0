// Package similarity owns the off-topic measures of AlNoamany, Weigle & Nelson
// (cosine TF-IDF, Jaccard, TF-intersection, SEKernel, word-count and byte-count
// change; content, the cosine of the page without its site chrome),
// thresholds and the rule that combines them, the curator's reading of that
// rule (a page that switched language, whose content is gone, that is a
// message page or a remnant inside spam is off-topic; a trimmed page, one
// that keeps t0's title or whose stories changed step by step is not),
// replay within the collection (a redirect judged by the capture it leads
// to, a frameset by its framed pages: the join of replay.go), the choice of
// the first on-topic capture URI-R@t0, verdicts with reasons and the kind of
// each off-topic one (kind.go), the detection pipeline over TimeMaps, and
// evaluation against a gold standard, kinds included.
//
// It sits above the timemap and extract packages and below crawl and report.
// Results (one TimeMapResult per TimeMap) are the only hand-off to reports.
package similarity
