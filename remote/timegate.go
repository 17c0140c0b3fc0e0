package remote

import (
	"context"
	"fmt"
	"iter"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/offtopic/offtopic/timemap"
)

// TimeGateAnswer is what a TimeGate said of one URI-R at one datetime.
type TimeGateAnswer struct {
	// URIM and Datetime are the memento chosen (Datetime from
	// Memento-Datetime, else the URI-M's timestamp, else zero).
	URIM     string
	Datetime time.Time
	// Original is the URI-R (Link rel="original"), "" when not given.
	Original string
	// TimeMap is the URI of the URI-R's TimeMap (Link rel="timemap",
	// link-format preferred), "" when not given.
	TimeMap string
	// Links are the answer's Link header links, URIs resolved.
	Links []timemap.Link
}

// TimeGate asks the TimeGate uriG for the memento nearest to at
// (Accept-Datetime) and returns its URI-M and Memento-Datetime (see
// AskTimeGate).
func TimeGate(ctx context.Context, doer Doer, uriG string, at time.Time) (uriM string, mementoDatetime time.Time, err error) {
	a, err := AskTimeGate(ctx, doer, uriG, at)
	if err != nil {
		return "", time.Time{}, err
	}
	return a.URIM, a.Datetime, nil
}

// TimeGateURI returns the URI-G of urir at a TimeGate or Memento aggregator
// whose URI-Gs are base + URI-R: "http://web.archive.org/web/",
// MemGator's "http://localhost:1208/timegate/" (a missing final slash is
// added).
func TimeGateURI(base, urir string) string {
	if !strings.HasSuffix(base, "/") {
		base += "/"
	}
	return base + urir
}

// Resolve asks the TimeGate or aggregator at base (see TimeGateURI) for the
// memento of urir nearest to at and returns its URI-M and datetime: how a
// URI-R at a datetime becomes a URI-M across archives.
func Resolve(ctx context.Context, doer Doer, base, urir string, at time.Time) (uriM string, datetime time.Time, err error) {
	return TimeGate(ctx, doer, TimeGateURI(base, urir), at)
}

// AskTimeGate asks the TimeGate uriG for the memento nearest to at
// (Accept-Datetime). The styles of RFC 7089 and of real Waybacks are
// understood: a 302 whose Location is the URI-M; a 200 that is the memento
// itself, named by Content-Location (or by the final URL where doer follows
// redirects itself); a 200 that is no memento but a page that frames it
// (pywb's default), named by the Link header's rel="memento" (the one
// nearest to at, where there are several). The Link header gives the
// URI-R and the TimeMap. Redirects are not followed when doer is a Client.
// A TimeGate that does not know the URI-R (404, 410) is an error wrapping
// ErrNotArchived.
func AskTimeGate(ctx context.Context, doer Doer, uriG string, at time.Time) (*TimeGateAnswer, error) {
	hdr := http.Header{"Accept-Datetime": {timemap.HTTPDate(at)}}
	resp, _, err := fetch(ctx, doer, uriG, hdr, -1, 0)
	if err != nil {
		return nil, fmt.Errorf("remote: TimeGate %s: %w", uriG, err)
	}
	base := resp.Request.URL
	a := &TimeGateAnswer{}
	if links, err := timemap.ParseLinks(strings.Join(resp.Header.Values("Link"), ",")); err == nil {
		for i := range links {
			links[i].URI = resolveRef(base, links[i].URI)
		}
		a.Links = links
	}
	var linked time.Time // the datetime of the Link header's memento
	switch {
	case resp.StatusCode/100 == 3 && resp.Header.Get("Location") != "":
		a.URIM = resolveRef(base, resp.Header.Get("Location"))
	case resp.StatusCode/100 == 2:
		if cl := resp.Header.Get("Content-Location"); cl != "" {
			a.URIM = resolveRef(base, cl)
		} else if resp.Header.Get("Memento-Datetime") != "" {
			a.URIM = base.String()
		} else if a.URIM, linked = nearestMementoLink(a.Links, at); a.URIM == "" {
			return nil, fmt.Errorf("remote: TimeGate %s: HTTP %d names no memento (no Location, Content-Location, Memento-Datetime or Link rel=\"memento\")", uriG, resp.StatusCode)
		}
	case resp.StatusCode == http.StatusNotFound || resp.StatusCode == http.StatusGone:
		return nil, fmt.Errorf("remote: TimeGate %s: HTTP %d: %w", uriG, resp.StatusCode, ErrNotArchived)
	default:
		return nil, fmt.Errorf("remote: TimeGate %s: HTTP %s", uriG, resp.Status)
	}
	if t, err := http.ParseTime(resp.Header.Get("Memento-Datetime")); err == nil {
		a.Datetime = t.UTC()
	} else if !linked.IsZero() {
		a.Datetime = linked
	} else if _, ts, ok := timemap.ParseURIM(a.URIM); ok {
		a.Datetime, _ = timemap.ParseTimestamp(ts)
	}
	typed := false
	for _, l := range a.Links {
		switch {
		case l.HasRel("original") && a.Original == "":
			a.Original = l.URI
		case l.HasRel("timemap") && (a.TimeMap == "" || !typed && strings.Contains(l.Params["type"], "link-format")):
			a.TimeMap = l.URI
			typed = strings.Contains(l.Params["type"], "link-format")
		}
	}
	return a, nil
}

// nearestMementoLink returns the URI and datetime of the rel="memento"
// link nearest to at (the first of those without a datetime when none has
// one); "" when there is none.
func nearestMementoLink(links []timemap.Link, at time.Time) (string, time.Time) {
	uri, when, best := "", time.Time{}, time.Duration(-1)
	for _, l := range links {
		if !l.HasRel("memento") {
			continue
		}
		t, err := timemap.ParseMementoDatetime(l.Params["datetime"])
		if err != nil {
			if uri == "" {
				uri = l.URI
			}
			continue
		}
		d := t.Sub(at).Abs()
		if best < 0 || d < best {
			uri, when, best = l.URI, t.UTC(), d
		}
	}
	return uri, when
}

// TimeGateSource is a Source of the TimeMaps of URI-Rs found through a
// TimeGate or a Memento aggregator: for each URI-R it asks the TimeGate
// (TimeGateURI(base, URI-R)) and fetches the TimeMap its Link header names
// (FetchTimeMap); where the TimeGate names no TimeMap, the TimeMap holds the
// one memento the TimeGate chose. A URI-R that cannot be resolved is
// yielded as an error naming it and the next follows.
type TimeGateSource struct {
	doer  Doer
	base  string
	urirs []string
	at    time.Time
	opts  TimeMapOptions
}

// NewTimeGateSource returns the source of the URI-Rs' TimeMaps through the
// TimeGate or aggregator at base, asking for the mementos nearest at (the
// zero time: now).
func NewTimeGateSource(doer Doer, base string, urirs []string, at time.Time, opts TimeMapOptions) *TimeGateSource {
	return &TimeGateSource{doer: doer, base: base, urirs: slices.Clone(urirs), at: at, opts: opts}
}

// TimeMaps yields the URI-Rs' TimeMaps in the order of the URI-Rs.
func (s *TimeGateSource) TimeMaps(ctx context.Context) iter.Seq2[*timemap.TimeMap, error] {
	return func(yield func(*timemap.TimeMap, error) bool) {
		at := s.at
		if at.IsZero() {
			at = time.Now()
		}
		for _, urir := range s.urirs {
			if err := ctx.Err(); err != nil {
				yield(nil, err)
				return
			}
			tm, err := s.timeMap(ctx, urir, at)
			if err != nil {
				err = fmt.Errorf("remote: %s through TimeGate %s: %w", urir, s.base, err)
			}
			if !yield(tm, err) {
				return
			}
		}
	}
}

func (s *TimeGateSource) timeMap(ctx context.Context, urir string, at time.Time) (*timemap.TimeMap, error) {
	a, err := AskTimeGate(ctx, s.doer, TimeGateURI(s.base, urir), at)
	if err != nil {
		return nil, err
	}
	if a.TimeMap != "" {
		return FetchTimeMap(ctx, s.doer, a.TimeMap, s.opts)
	}
	if a.Datetime.IsZero() {
		return nil, fmt.Errorf("the TimeGate names no TimeMap and memento %s has no datetime", a.URIM)
	}
	orig := a.Original
	if orig == "" {
		orig = urir
	}
	key := timemap.Canonicalize(orig, s.opts.Canon)
	return &timemap.TimeMap{Key: key, URIR: orig, Captures: []timemap.Capture{{Key: key, URIR: orig, Time: a.Datetime, URIM: a.URIM}}}, nil
}
