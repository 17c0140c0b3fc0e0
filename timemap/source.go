package timemap

import (
	"context"
	"iter"
	"net/http"
)

// Source yields TimeMaps in key order: an Index over WARC/ARC files, a
// CDX/CDXJ index, remote TimeMaps or a CDX server.
type Source interface {
	TimeMaps(ctx context.Context) iter.Seq2[*TimeMap, error]
}

// Doer sends HTTP requests. Remote sources take one so that every request
// goes through the same polite client (rate limits, retries, cache); an
// *http.Client is one too.
type Doer interface {
	Do(req *http.Request) (*http.Response, error)
}
