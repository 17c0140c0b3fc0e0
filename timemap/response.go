package timemap

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
)

// Response is one HTTP response re-read from an archive file by its location.
type Response struct {
	// Status is the HTTP status code (0 when the record has no HTTP head).
	Status int
	// Proto is the protocol token of the status line ("HTTP/1.1").
	Proto string
	// Header holds the HTTP header fields (empty when there is no HTTP head).
	Header http.Header
	// Body is the raw HTTP body (neither de-chunked nor decoded), capped.
	Body []byte
	// Record is the record the response was read from (its Body consumed).
	Record *Record
}

// ReadResponse opens loc.File, seeks to loc.Offset and reads the one record
// stored there, returning its HTTP head and raw body (capped at maxBody
// bytes; 0 means DefaultMaxBodyBytes, negative means no cap). It does not
// scan the file, except that a record with a non-zero loc.MemberOffset is
// reached by decompressing its gzip member (or the run of members records
// go on into) up to there, and that a gzipped ARC record's member is read
// whole.
func ReadResponse(loc Location, maxBody int64) (*Response, error) {
	return readResponse(loc, ReadOptions{MaxBodyBytes: maxBody})
}

func readResponse(loc Location, opts ReadOptions) (*Response, error) {
	f, err := os.Open(loc.File)
	if err != nil {
		return nil, fmt.Errorf("timemap: open %s: %w", loc.File, err)
	}
	defer f.Close()
	format, comp, err := sniff(f, loc.File)
	if err != nil {
		return nil, fmt.Errorf("timemap: %s: offset %d: %w", loc.File, loc.Offset, err)
	}
	if _, err := f.Seek(loc.Offset, io.SeekStart); err != nil {
		return nil, fmt.Errorf("timemap: %s: offset %d: %w", loc.File, loc.Offset, err)
	}
	var rec *Record
	if format == FormatWARC {
		var src *warcSource
		if src, err = newWARCSource(loc.File, f, loc.Offset, comp, loc.MemberOffset, opts); err != nil {
			return nil, fmt.Errorf("timemap: %s: offset %d: %w", loc.File, loc.Offset, err)
		}
		defer src.closeCur()
		if src.zd != nil {
			defer src.zd.Close()
		}
		rec, err = src.next()
	} else {
		if comp == gzipped {
			// The member (or the run of members a record goes on into) is
			// read and parsed as scanning did, so that the same record
			// is found at the same place.
			rec, err = readARCChunkAt(loc, f, opts)
			return finishResponse(loc, rec, err)
		}
		br := bufio.NewReader(f)
		if loc.MemberOffset > 0 {
			if _, err := io.CopyN(io.Discard, br, loc.MemberOffset); err != nil {
				return nil, fmt.Errorf("timemap: %s: offset %d: member offset %d: %w", loc.File, loc.Offset, loc.MemberOffset, err)
			}
		}
		rec, err = readARCAt(br, loc, opts)
	}
	return finishResponse(loc, rec, err)
}

// readARCChunkAt reads the ARC record at loc in a gzipped file, f positioned
// at loc.Offset: the chunk there is loaded as arcSource loads it, and the
// record is the one starting at loc.MemberOffset (the first, without one).
func readARCChunkAt(loc Location, f *os.File, opts ReadOptions) (*Record, error) {
	s := newARCSource(loc.File, f, true, opts)
	if err := s.load(); err != nil {
		return nil, err
	}
	want := int(loc.MemberOffset)
	if want == 0 {
		want = skipSpace(s.chunk, 0)
	}
	for _, it := range s.items {
		if it.start != want {
			continue
		}
		if it.err != nil && !(it.end > it.start && errors.Is(it.err, errTruncated)) {
			return nil, it.err
		}
		return s.record(it, loc), nil // a record cut short: what is there, as scanning kept it
	}
	return nil, fmt.Errorf("%w: no ARC record at member offset %d", errTruncated, loc.MemberOffset)
}

// finishResponse turns the record read at loc into a Response.
func finishResponse(loc Location, rec *Record, err error) (*Response, error) {
	if err != nil {
		var re *RecordError
		if errors.As(err, &re) {
			return nil, err
		}
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, fmt.Errorf("timemap: %s: offset %d: %w", loc.File, loc.Offset, err)
	}
	body, err := io.ReadAll(rec.Body)
	if err != nil {
		return nil, fmt.Errorf("timemap: %s: offset %d: reading body: %w", loc.File, loc.Offset, err)
	}
	resp := &Response{Body: body, Header: make(http.Header), Record: rec}
	if rec.HTTP != nil {
		resp.Status, resp.Proto, resp.Header = rec.HTTP.Status, rec.HTTP.Proto, rec.HTTP.Header
	}
	return resp, nil
}

// ReadPayload reads the HTTP response holding a capture's payload from its
// local WARC or ARC file by offset (capped at DefaultMaxBodyBytes): the
// payload reader of local sources, in the shape detection takes.
func ReadPayload(_ context.Context, c Capture) (http.Header, []byte, error) {
	r, err := ReadResponse(c.Payload, 0)
	if err != nil {
		return nil, nil, err
	}
	return r.Header, r.Body, nil
}
