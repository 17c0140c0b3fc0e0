package timemap

import (
	"context"
	"iter"
)

// Source yields TimeMaps in key order: an Index over WARC/ARC files, a
// CDX/CDXJ index, or the remote sources of package remote.
type Source interface {
	TimeMaps(ctx context.Context) iter.Seq2[*TimeMap, error]
}
