// Package remote owns the remote archives: everything that reaches a web
// archive over HTTP and turns its answers into timemap Captures and
// TimeMaps.
//
//   - Client is the polite HTTP client every remote request goes through,
//     a stack of http.RoundTripper layers each usable alone: CacheTransport
//     (a content-addressed disk Cache, so an interrupted run resumes), Retry
//     (backoff with full jitter, Retry-After), RateLimit (per-host
//     concurrency and token bucket) and ReadWhole (timeout per attempt, body
//     read whole under a cap). Before any of them it refuses URLs with user
//     information and hosts on loopback, private, link-local and other
//     non-public addresses (its dial checks the addresses a name resolves
//     to), except the archives the user named (ClientOptions.ArchiveHosts,
//     per host and port) or with ClientOptions.AllowPrivate (guard.go).
//   - Memento (RFC 7089): FetchTimeMap reads link-format, JSON and CDXJ
//     TimeMaps with their pages and index TimeMaps; TimeGate and Resolve ask
//     a TimeGate or an aggregator for the memento nearest a datetime;
//     FetchMemento reads one memento raw, and ResolveMementos completes a
//     Source's captures with what their mementos say.
//   - CDXServer lists captures from a CDX server, one file per dialect
//     (wayback.go: the Internet Archive and OpenWayback; pywb.go; outback.go:
//     OutbackCDX) behind one interface.
//   - ArchiveIt lists an Archive-It collection's seeds and their TimeMaps.
//
// It imports timemap and nothing above it.
package remote
