// Package timemap owns captures and TimeMaps on this machine: reading captures
// from local WARC and ARC files and CDX and CDXJ indexes, SURT-style
// canonicalisation of URI-Rs, grouping captures into TimeMaps in key order,
// parsing and writing TimeMap documents (RFC 7089 link-format, JSON) and CDXJ
// indexes, and the forms of URI-Ms (URIM builds them, ParseURIM and SplitURIM
// take them apart). Fetching anything from an archive over HTTP is package
// remote's job.
//
// Reading archive files:
//
//   - OpenRecords returns a RecordReader over one WARC (0.17, 1.0, 1.1) or ARC
//     file, plain or gzipped, whose Next returns Records in the style of
//     archive/tar; a *RecordError reports a skipped record and Next goes on.
//     WARC records are parsed by gowarc v2.0.1 behind a thin layer that makes
//     up for what gowarc loses: the layer drives the gzip members itself (so
//     a file gzipped as one member yields all its records, see
//     Location.MemberOffset, and a record a writer split across members of a
//     fixed size is read on into the next member, which is then located as
//     part of the first), recovers header values gowarc blanks (wget's
//     "<http://...>" target URIs) from the raw header, reads headers whose
//     lines end in CR CR LF, parses HTTP heads leniently (HTTPHead) and
//     keeps bodies raw (no de-chunking, no Content-Encoding decoding: that is
//     the extract package's job). ARC files have a small reader of their own.
//   - ReadResponse re-reads one record by its Location without scanning.
//
// Indexing: BuildIndex scans files in parallel into capture entries sorted
// by (Key, Time, input order), spilling sorted runs to disk beyond
// IndexOptions.MaxInMemory and merging them when iterated. Index.TimeMaps
// yields one TimeMap per canonical URI-R (Canonicalize) in key order, with
// revisits resolved to the record holding their payload; Index.Captures
// yields every capture, e.g. for WriteCDXJ.
//
// Writing and reading TimeMaps: WriteCDXJ and ReadCDXJ (pywb's CDXJ),
// WriteLinkFormat and ParseLinkFormat (RFC 7089 application/link-format),
// WriteTimeMapJSON and ParseTimeMapJSON (MemGator's JSON shape). URIM is the
// one place URI-Ms are built.
//
// It imports no other package of this module.
package timemap

import "time"

// Location says where one capture's record lives, so that its payload can be
// re-read without rescanning the file.
type Location struct {
	// File is the path of the WARC or ARC file.
	File string `json:"file"`
	// Offset is the byte offset of the record in File (of its gzip member for
	// gzipped files written one member per record).
	Offset int64 `json:"offset"`
	// Length is the length of the record as stored in File (compressed length
	// for gzipped files). Zero when unknown, and zero when the record shares
	// its gzip member with other records (see MemberOffset).
	Length int64 `json:"length"`
	// MemberOffset is non-zero only for a record that is not the first in its
	// gzip member (a file gzipped as a whole, or several records per member):
	// it is the offset of the record in the decompressed member that starts
	// at Offset. Reading such a record means decompressing the member up to
	// there: it cannot be random-accessed cheaply.
	MemberOffset int64 `json:"member_offset,omitempty"`
}

// IsZero reports whether l points nowhere.
func (l Location) IsZero() bool { return l.File == "" }

// Capture is one memento of a URI-R: the small index entry that a scan of the
// input yields per response, resource or revisit record.
type Capture struct {
	// Key is the canonical form of URIR (SURT-style unless canonicalisation is off).
	Key string `json:"key"`
	// URIR is the original URI as recorded.
	URIR string `json:"uri_r"`
	// Time is the capture time (WARC-Date, or the ARC date).
	Time time.Time `json:"datetime"`
	// Status is the HTTP status code, 0 where there is none (resource records, dns:).
	Status int `json:"status"`
	// MIME is the media type of the payload without parameters, lower case.
	MIME string `json:"mime"`
	// Digest is the payload digest as recorded (e.g. "sha1:ABC..."), or computed.
	Digest string `json:"digest,omitempty"`
	// Length is the length of the stored record (as in CDX "length").
	Length int64 `json:"length"`
	// Loc is where the record of this capture is.
	Loc Location `json:"loc"`
	// Revisit is true for a revisit record; Payload then points at the record
	// holding the payload it refers to (zero when it could not be resolved).
	Revisit bool `json:"revisit,omitempty"`
	// Payload is the location of the record that holds this capture's payload:
	// equal to Loc except for revisits.
	Payload Location `json:"payload"`
	// URIM is the capture's URI-M where an archive named it (remote
	// TimeMaps, CDX servers); "" for captures read from local files, whose
	// URI-M is built from an archive prefix (see URIM).
	URIM string `json:"uri_m,omitempty"`
	// Error says why the capture could not be fetched from a remote archive
	// ("" when it was, and for local captures).
	Error string `json:"error,omitempty"`
	// Note is what IndexOptions.Note made of the capture's payload while the
	// index read it ("" otherwise): opaque bytes to this package.
	Note string `json:"-"`
}

// Timestamp14 returns the capture time as a 14-digit UTC timestamp (YYYYMMDDhhmmss).
func (c Capture) Timestamp14() string { return c.Time.UTC().Format("20060102150405") }

// TimeMap is every capture of one canonical URI-R, ordered by capture time.
type TimeMap struct {
	// Key is the canonical key shared by all captures.
	Key string `json:"key"`
	// URIR is the URI-R that names the TimeMap: the spelling of its first capture.
	URIR string `json:"uri_r"`
	// URIT is the URI of the TimeMap document the captures were read from
	// where an archive served one (remote sources); "" for TimeMaps built
	// here, whose URI-T is made from an archive prefix (LinkOptions).
	URIT string `json:"uri_t,omitempty"`
	// Captures are ordered by time (ties keep input order).
	Captures []Capture `json:"captures"`
}
