package crawl

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/rand"
	"crypto/sha1"
	"encoding/base32"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/offtopic/offtopic/remote"
	"github.com/offtopic/offtopic/timemap"
)

// RemoteArchive is an Archive reached over the network: captures are listed
// by a CDX server (Internet Archive, pywb, OutbackCDX) and read as raw
// mementos, all through one polite, caching client.
type RemoteArchive struct {
	server *remote.CDXServer
	read   func(ctx context.Context, c timemap.Capture) (http.Header, []byte, error)
}

// NewRemoteArchive crawls the archive whose CDX server is server; mementos
// are fetched through doer (use a *remote.Client with a cache, so that the
// output step re-reads them from disk).
func NewRemoteArchive(server *remote.CDXServer, doer remote.Doer, opts remote.MementoOptions) *RemoteArchive {
	return &RemoteArchive{server: server, read: remote.MementoReader(doer, opts)}
}

// Resolve implements Archive: one exact-URL query to the CDX server. Lines
// the server garbles are skipped; any other failure is an error.
func (a *RemoteArchive) Resolve(ctx context.Context, uri string) ([]timemap.Capture, error) {
	var out []timemap.Capture
	for c, err := range a.server.Captures(ctx, remote.Query{URL: uri}) {
		if err != nil {
			var le *remote.CDXLineError
			if errors.As(err, &le) {
				continue
			}
			return nil, err
		}
		out = append(out, c)
	}
	slices.SortStableFunc(out, func(x, y timemap.Capture) int { return x.Time.Compare(y.Time) })
	return out, nil
}

// Read implements Archive: the raw memento, with its original headers.
func (a *RemoteArchive) Read(ctx context.Context, c timemap.Capture) (http.Header, []byte, error) {
	return a.read(ctx, c)
}

// writeMementoRecord writes a fetched memento as one gzipped WARC response
// record: its URI-R and capture time as target and date, its URI-M as
// WARC-Source-URI (provenance), the original status and headers, the body
// as archived. It returns the number of bytes written.
func writeMementoRecord(w io.Writer, c timemap.Capture, h http.Header, body []byte) (int64, error) {
	var block bytes.Buffer
	status := c.Status
	if status == 0 {
		status = http.StatusOK
	}
	fmt.Fprintf(&block, "HTTP/1.1 %d %s\r\n", status, http.StatusText(status))
	for _, k := range slices.Sorted(maps.Keys(h)) {
		if k == "Content-Length" || k == "Transfer-Encoding" {
			continue
		}
		for _, v := range h[k] {
			fmt.Fprintf(&block, "%s: %s\r\n", k, strings.NewReplacer("\r", " ", "\n", " ").Replace(v))
		}
	}
	fmt.Fprintf(&block, "Content-Length: %d\r\n\r\n", len(body))
	block.Write(body)
	sum := sha1.Sum(body)
	var id [16]byte
	rand.Read(id[:])
	var rec bytes.Buffer
	fmt.Fprintf(&rec, "WARC/1.1\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:%x-%x-%x-%x-%x>\r\n", id[0:4], id[4:6], id[6:8], id[8:10], id[10:16])
	fmt.Fprintf(&rec, "WARC-Date: %s\r\nWARC-Target-URI: %s\r\n", c.Time.UTC().Format(time.RFC3339), c.URIR)
	if c.URIM != "" {
		fmt.Fprintf(&rec, "WARC-Source-URI: %s\r\n", c.URIM)
	}
	fmt.Fprintf(&rec, "WARC-Payload-Digest: sha1:%s\r\nContent-Type: application/http; msgtype=response\r\nContent-Length: %d\r\n\r\n",
		base32.StdEncoding.EncodeToString(sum[:]), block.Len())
	rec.Write(block.Bytes())
	rec.WriteString("\r\n\r\n")
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(rec.Bytes())
	if err := zw.Close(); err != nil {
		return 0, err
	}
	n, err := w.Write(gz.Bytes())
	return int64(n), err
}

// TimeGateArchive is an Archive reached through a Memento TimeGate or an
// aggregator of many archives (such as MemGator): each URL is resolved to
// the one memento the gate picks for the event's time, and that memento is
// read, raw, from whichever archive holds it. A page that states no date is
// dated by its first memento: the one the TimeGate's Link header names
// (rel="first memento"), else the first of the TimeMap it names.
type TimeGateArchive struct {
	gate string
	at   time.Time
	doer remote.Doer
	read func(ctx context.Context, c timemap.Capture) (http.Header, []byte, error)
}

// NewTimeGateArchive resolves URLs through the TimeGate whose URI is gate
// followed by the URI-R (e.g. "http://localhost:1208/timegate/"), asking
// for the memento closest to at; mementos are fetched through doer.
func NewTimeGateArchive(gate string, at time.Time, doer remote.Doer, opts remote.MementoOptions) *TimeGateArchive {
	return &TimeGateArchive{gate: gate, at: at, doer: doer, read: remote.MementoReader(doer, opts)}
}

// Resolve implements Archive: the memento the TimeGate picks, none when it
// answers that the URL is not archived.
func (a *TimeGateArchive) Resolve(ctx context.Context, uri string) ([]timemap.Capture, error) {
	ans, err := remote.AskTimeGate(ctx, a.doer, a.gate+uri, a.at)
	if errors.Is(err, remote.ErrNotArchived) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	key := timemap.Canonicalize(uri, timemap.CanonSURT)
	caps := []timemap.Capture{{Key: key, URIR: uri, URIM: ans.URIM, Time: ans.Datetime}}
	if first, ok := a.first(ctx, ans); ok && first.Time.Before(ans.Datetime) {
		first.Key, first.URIR = key, uri
		caps = append(caps, first)
	}
	return caps, nil
}

// first is the URI-R's first memento: named by the TimeGate's answer
// (rel="first memento" with its datetime), else the earliest of the TimeMap
// the answer names. A TimeMap that cannot be read leaves the page dated by
// the memento the TimeGate chose.
func (a *TimeGateArchive) first(ctx context.Context, ans *remote.TimeGateAnswer) (timemap.Capture, bool) {
	for _, l := range ans.Links {
		if l.HasRel("first") && l.HasRel("memento") {
			if t, err := timemap.ParseMementoDatetime(l.Params["datetime"]); err == nil {
				return timemap.Capture{URIM: l.URI, Time: t}, true
			}
		}
	}
	if ans.TimeMap == "" {
		return timemap.Capture{}, false
	}
	tm, err := remote.FetchTimeMap(ctx, a.doer, ans.TimeMap, remote.TimeMapOptions{})
	if err != nil || len(tm.Captures) == 0 {
		return timemap.Capture{}, false
	}
	return tm.Captures[0], true
}

// Read implements Archive: the raw memento, with its original headers.
func (a *TimeGateArchive) Read(ctx context.Context, c timemap.Capture) (http.Header, []byte, error) {
	return a.read(ctx, c)
}

// Midpoint is the middle of the event span, the time a TimeGate is asked for.
func (e Event) Midpoint() time.Time { return e.Start.Add(e.End.Sub(e.Start) / 2) }
