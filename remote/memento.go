package remote

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"net/http"
	"net/textproto"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/offtopic/offtopic/timemap"
)

// ErrNotArchived is wrapped by the errors of TimeMaps, TimeGates and
// mementos that the archive says it does not hold (404 or 410 without a
// Memento-Datetime).
var ErrNotArchived = errors.New("not archived")

// SubstituteError is the error of a memento the archive answered with
// another capture than the one asked for (a later or earlier capture of the
// page, or of another page): what a Wayback does when it cannot replay a
// capture (its WARC is missing, it redirects to itself). The capture asked
// for is reported, never scored as the other one.
type SubstituteError struct {
	// URIM and Time are the capture asked for; Served and ServedTime the
	// memento the archive answered with.
	URIM, Served     string
	Time, ServedTime time.Time
}

// Error says which capture was served for which.
func (e *SubstituteError) Error() string {
	return fmt.Sprintf("remote: memento %s: the archive served another capture, %s of %s, for this one of %s (it cannot replay it: a missing WARC, a redirect to itself)",
		e.URIM, e.Served, e.ServedTime.UTC().Format(time.DateTime), e.Time.UTC().Format(time.DateTime))
}

// MementoOptions say how mementos are fetched.
type MementoOptions struct {
	// NotRaw keeps URI-Ms as they are, for archives that do not support the
	// "id_" modifier (see RawURIM).
	NotRaw bool
	// ArchivePrefix builds the URI-M of a capture that names none (see URIM).
	ArchivePrefix string
	// MaxBody caps the memento's body (default DefaultMaxBody).
	MaxBody int64
	// MaxRedirects bounds the archive's own redirects followed (default 10).
	MaxRedirects int
	// Workers is the number of mementos ResolveMementos fetches at once
	// (default 4; the Client's per-host limits still apply).
	Workers int
	// Wants, when set, tells ResolveMementos which captures whose status
	// and media type the source already gave (a CDX server lists them)
	// need their memento fetched; the others are left as listed (nil:
	// every memento is fetched).
	Wants func(timemap.Capture) bool
}

// Memento is one memento as fetched from an archive.
type Memento struct {
	// URIM is the URI-M that answered: its Content-Location where the
	// archive names the memento served there (pywb), else the URL that
	// answered after the archive's redirects, in the raw form asked for.
	URIM string
	// Status is the archived HTTP status: X-Archive-Orig-Status where the
	// archive reports it, else the status of the answer.
	Status int
	// Header holds the original resource's headers: X-Archive-Orig-* mapped
	// back to their names, else the archive's Content-Type and, of an
	// archived redirect, its Location (the URI-R of a URI-M). Transfer-Encoding
	// is dropped (the body is de-chunked), Content-Encoding describes Body
	// as served and Content-Length is its length.
	Header http.Header
	// Body is the body as served (raw where the archive honoured "id_").
	Body []byte
	// MementoDatetime is the capture time actually served (Memento-Datetime,
	// else the URI-M's timestamp, else the capture's time).
	MementoDatetime time.Time
	// Original is the URI-R (Link rel="original", else recovered from the
	// URI-M, else the capture's).
	Original string
}

// FetchMemento fetches the memento of c: its URI-M (c.URIM, else built with
// opts.ArchivePrefix) in raw form (RawURIM, unless opts.NotRaw). A redirect
// without Memento-Datetime is the archive's (to another form of the URI-M,
// or to a nearby capture) and is followed, and the capture time served is
// reported; a redirect with Memento-Datetime is an archived redirect and
// is the memento. Whether what was served is c is for Memento.Check to say. An answer without Memento-Datetime that is 404/410 is an
// error wrapping ErrNotArchived, and any other non-2xx one is an error; with
// Memento-Datetime any status is the archived one. Errors name the URI-M.
// Use a Client as doer: an *http.Client follows every redirect itself.
func FetchMemento(ctx context.Context, doer Doer, c timemap.Capture, opts MementoOptions) (*Memento, error) {
	if opts.MaxRedirects <= 0 {
		opts.MaxRedirects = DefaultMaxRedirects
	}
	uriM := c.URIM
	if uriM == "" {
		if opts.ArchivePrefix == "" {
			return nil, fmt.Errorf("remote: memento of %s at %s: no URI-M and no archive prefix", c.URIR, c.Timestamp14())
		}
		uriM = timemap.URIM(opts.ArchivePrefix, c)
	}
	cur := uriM
	if !opts.NotRaw {
		cur = timemap.RawURIM(cur)
	}
	var (
		resp *http.Response
		body []byte
		err  error
	)
	for hops := 0; ; hops++ {
		resp, body, err = fetch(ctx, doer, cur, nil, -1, opts.MaxBody)
		if err != nil {
			return nil, fmt.Errorf("remote: memento %s: %w", uriM, err)
		}
		loc := resp.Header.Get("Location")
		if resp.StatusCode/100 != 3 || loc == "" || resp.Header.Get("Memento-Datetime") != "" {
			break
		}
		if hops >= opts.MaxRedirects {
			return nil, fmt.Errorf("remote: memento %s: more than %d redirects", uriM, opts.MaxRedirects)
		}
		cur = resolveRef(resp.Request.URL, loc)
		if !opts.NotRaw {
			cur = timemap.RawURIM(cur)
		}
	}
	final := resp.Request.URL.String()
	mdt := resp.Header.Get("Memento-Datetime")
	served := final
	if cl := resp.Header.Get("Content-Location"); cl != "" && mdt != "" {
		served = resolveRef(resp.Request.URL, cl)
	}
	if mdt == "" {
		switch {
		case resp.StatusCode == http.StatusNotFound || resp.StatusCode == http.StatusGone:
			return nil, fmt.Errorf("remote: memento %s: HTTP %d: %w", final, resp.StatusCode, ErrNotArchived)
		case resp.StatusCode/100 != 2:
			return nil, fmt.Errorf("remote: memento %s: HTTP %s", final, resp.Status)
		}
	}
	m := &Memento{URIM: served, Body: body}
	m.Header, m.Status = archivedHeader(resp, len(body), mdt != "")
	urir, ts, parsed := timemap.ParseURIM(served)
	if t, err := http.ParseTime(mdt); mdt != "" && err == nil {
		m.MementoDatetime = t.UTC()
	} else if parsed {
		m.MementoDatetime, _ = timemap.ParseTimestamp(ts)
	} else {
		m.MementoDatetime = c.Time
	}
	if links, err := timemap.ParseLinks(strings.Join(resp.Header.Values("Link"), ",")); err == nil {
		for _, l := range links {
			if l.HasRel("original") {
				m.Original = l.URI
				break
			}
		}
	}
	if m.Original == "" {
		m.Original = urir
	}
	if m.Original == "" {
		m.Original = c.URIR
	}
	return m, nil
}

// archivedHeader returns the archived page's own header and status as a
// Wayback answers them: its X-Archive-Orig- headers (a Status among them),
// the answer's Content-Type where the page's is missing, an archived
// redirect's Location (memento: the answer is a memento), the content
// coding still on the body, and the body's length (bodyLen).
func archivedHeader(resp *http.Response, bodyLen int, memento bool) (http.Header, int) {
	h, status := http.Header{}, resp.StatusCode
	for k, vs := range resp.Header {
		if len(k) > len("X-Archive-Orig-") && strings.EqualFold(k[:len("X-Archive-Orig-")], "X-Archive-Orig-") {
			name := textproto.CanonicalMIMEHeaderKey(k[len("X-Archive-Orig-"):])
			h[name] = append(h[name], vs...)
		}
	}
	if st := h.Get("Status"); st != "" {
		if f := strings.Fields(st); len(f) > 0 {
			if n, err := strconv.Atoi(f[0]); err == nil && n >= 100 && n <= 999 {
				status = n
			}
		}
		h.Del("Status")
	}
	if h.Get("Content-Type") == "" {
		if ct := resp.Header.Get("Content-Type"); ct != "" {
			h.Set("Content-Type", ct)
		}
	}
	if loc := resp.Header.Get("Location"); loc != "" && memento && h.Get("Location") == "" {
		// An archived redirect whose Location the archive gives as its
		// own header (pywb's id_): the original's, or a URI-M of it.
		loc = resolveRef(resp.Request.URL, loc)
		if urir, _, ok := timemap.ParseURIM(loc); ok {
			loc = urir
		}
		h.Set("Location", loc)
	}
	h.Del("Transfer-Encoding")
	h.Del("Content-Encoding")
	if ce := resp.Header.Get("Content-Encoding"); ce != "" && !resp.Uncompressed {
		h.Set("Content-Encoding", ce)
	}
	h.Set("Content-Length", strconv.Itoa(bodyLen))
	return h, status
}

// Check returns a *SubstituteError when m is not the memento of c: its
// Memento-Datetime is not c's time (to the second), or it is a capture of
// another URI-R (by SURT). A capture whose time is unknown (zero) takes
// whatever was served.
func (m *Memento) Check(c timemap.Capture) error {
	if c.Time.IsZero() {
		return nil
	}
	same := m.MementoDatetime.IsZero() || m.MementoDatetime.Truncate(time.Second).Equal(c.Time.Truncate(time.Second))
	if same && m.Original != "" && c.URIR != "" {
		same = timemap.Canonicalize(m.Original, timemap.CanonSURT) == timemap.Canonicalize(c.URIR, timemap.CanonSURT)
	}
	if same {
		return nil
	}
	asked := c.URIM
	if asked == "" {
		asked = c.URIR
	}
	return &SubstituteError{URIM: asked, Served: m.URIM, Time: c.Time, ServedTime: m.MementoDatetime}
}

// Capture returns c completed with what fetching its memento told: Status,
// MIME (the media type without parameters, lower case), Time where c has
// none (the Memento-Datetime served) and Digest, the SHA-1 of the body as
// served, whatever an index said: one body's text is reused for another
// capture only when the bytes are the same (a CDX server gives every
// archived redirect the empty body's digest, whatever the archive serves
// for it). Check first that m is c's memento.
func (m *Memento) Capture(c timemap.Capture) timemap.Capture {
	c.Status = m.Status
	c.MIME = timemap.MediaType(m.Header.Get("Content-Type"))
	if c.Time.IsZero() {
		c.Time = m.MementoDatetime
	}
	c.Digest = timemap.PayloadDigest(m.Body)
	return c
}

// MementoReader returns a payload reader for remote captures, of the shape
// of the detection pipeline's (similarity.PayloadReader): it fetches the
// capture's memento (FetchMemento) and returns its original headers and raw
// body. The signature cannot carry the archived status, type and time back:
// callers fill c.Status, c.MIME and c.Time first, with Memento.Capture or
// ResolveMementos (with a caching Client, the second fetch is a cache hit).
func MementoReader(doer Doer, opts MementoOptions) func(ctx context.Context, c timemap.Capture) (http.Header, []byte, error) {
	return func(ctx context.Context, c timemap.Capture) (http.Header, []byte, error) {
		m, err := FetchMemento(ctx, doer, c, opts)
		if err == nil {
			err = m.Check(c)
		}
		if err != nil {
			return nil, nil, err
		}
		return m.Header, m.Body, nil
	}
}

// ResolveMementos returns a Source that yields src's TimeMaps with each
// capture completed by fetching its memento (Memento.Capture), in time
// order again. A capture whose memento cannot be fetched, or for which the
// archive served another capture (a *SubstituteError), stays in its
// TimeMap with Status 0 and the reason in Capture.Error (it will be
// reported as not scored, with that reason) and onError,
// when set, hears of it with the reason (called from the iterating
// goroutine, in capture order); the run goes on. Mementos of one TimeMap
// are fetched by opts.Workers goroutines, those opts.Wants leaves out not at
// all. When ctx ends,
// the iteration yields ctx's error and stops.
func ResolveMementos(src timemap.Source, doer Doer, opts MementoOptions, onError func(timemap.Capture, error)) timemap.Source {
	return &resolving{src: src, doer: doer, opts: opts, onError: onError}
}

type resolving struct {
	src     timemap.Source
	doer    Doer
	opts    MementoOptions
	onError func(timemap.Capture, error)
}

// TimeMaps yields the source's TimeMaps with their captures resolved.
func (s *resolving) TimeMaps(ctx context.Context) iter.Seq2[*timemap.TimeMap, error] {
	workers := s.opts.Workers
	if workers <= 0 {
		workers = 4
	}
	return func(yield func(*timemap.TimeMap, error) bool) {
		for tm, err := range s.src.TimeMaps(ctx) {
			if err != nil {
				if !yield(nil, err) {
					return
				}
				continue
			}
			errs := make([]error, len(tm.Captures))
			work := make(chan int)
			var wg sync.WaitGroup
			for range max(1, min(workers, len(tm.Captures))) {
				wg.Go(func() {
					for i := range work {
						m, err := FetchMemento(ctx, s.doer, tm.Captures[i], s.opts)
						if err == nil {
							err = m.Check(tm.Captures[i])
						}
						if err != nil {
							errs[i] = err
							continue
						}
						tm.Captures[i] = m.Capture(tm.Captures[i])
					}
				})
			}
		feed:
			for i, c := range tm.Captures {
				if s.opts.Wants != nil && c.Status != 0 && c.MIME != "" && !s.opts.Wants(c) {
					continue
				}
				select {
				case work <- i:
				case <-ctx.Done():
					break feed
				}
			}
			close(work)
			wg.Wait()
			if ctxErr := ctx.Err(); ctxErr != nil {
				yield(nil, fmt.Errorf("remote: resolving mementos of %s: %w", tm.URIR, ctxErr))
				return
			}
			for i, err := range errs {
				if err == nil {
					continue
				}
				tm.Captures[i].Error = err.Error()
				if s.onError != nil {
					s.onError(tm.Captures[i], err)
				}
			}
			slices.SortStableFunc(tm.Captures, func(a, b timemap.Capture) int { return a.Time.Compare(b.Time) })
			if !yield(tm, nil) {
				return
			}
		}
	}
}
