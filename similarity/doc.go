// Package similarity owns the off-topic measures of AlNoamany, Weigle & Nelson
// (cosine TF-IDF, Jaccard, TF-intersection, SEKernel, word-count and byte-count
// change), thresholds and the rule that combines them, the choice of the
// first on-topic capture URI-R@t0, verdicts with reasons, the detection
// pipeline over TimeMaps, and evaluation against a gold standard.
//
// It sits above the timemap and extract packages and below crawl and report.
// Results (one TimeMapResult per TimeMap) are the only hand-off to reports.
package similarity
