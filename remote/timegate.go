package remote

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/offtopic/offtopic/timemap"
)

// TimeGate asks the TimeGate uriG for the memento nearest to at
// (Accept-Datetime) and returns its URI-M and Memento-Datetime. Both styles
// of RFC 7089 are understood: a 302 whose Location is the URI-M, and a 200
// that is the memento itself, named by Content-Location (or by the final URL
// where doer follows redirects itself). Where the answer has no
// Memento-Datetime, the datetime is read from the URI-M's timestamp (zero
// when it has none). Redirects are not followed when doer is a Client.
func TimeGate(ctx context.Context, doer Doer, uriG string, at time.Time) (uriM string, mementoDatetime time.Time, err error) {
	hdr := http.Header{"Accept-Datetime": {timemap.HTTPDate(at)}}
	resp, _, err := fetch(ctx, doer, uriG, hdr, -1, 0)
	if err != nil {
		return "", time.Time{}, fmt.Errorf("remote: TimeGate %s: %w", uriG, err)
	}
	base := resp.Request.URL
	switch {
	case resp.StatusCode/100 == 3 && resp.Header.Get("Location") != "":
		uriM = resolveRef(base, resp.Header.Get("Location"))
	case resp.StatusCode/100 == 2:
		if cl := resp.Header.Get("Content-Location"); cl != "" {
			uriM = resolveRef(base, cl)
		} else if resp.Header.Get("Memento-Datetime") != "" {
			uriM = base.String()
		} else {
			return "", time.Time{}, fmt.Errorf("remote: TimeGate %s: HTTP %d names no memento (no Location, Content-Location or Memento-Datetime)", uriG, resp.StatusCode)
		}
	case resp.StatusCode == http.StatusNotFound || resp.StatusCode == http.StatusGone:
		return "", time.Time{}, fmt.Errorf("remote: TimeGate %s: HTTP %d: %w", uriG, resp.StatusCode, ErrNotArchived)
	default:
		return "", time.Time{}, fmt.Errorf("remote: TimeGate %s: HTTP %s", uriG, resp.Status)
	}
	if md := resp.Header.Get("Memento-Datetime"); md != "" {
		if t, err := http.ParseTime(md); err == nil {
			return uriM, t.UTC(), nil
		}
	}
	if _, ts, ok := timemap.ParseURIM(uriM); ok {
		t, _ := timemap.ParseTimestamp(ts)
		return uriM, t, nil
	}
	return uriM, time.Time{}, nil
}
