// Package crawl extracts an event collection from a web archive by focused
// re-crawl (Gossen et al.; Klein et al.): starting from seed URLs it resolves
// each URL in the archive, picks one snapshot, scores the document's topical
// relevance (TopicR, cosine against a reference vector), temporal relevance
// (TempR, half-life decay around the event span) and their mix
// TTR = alpha*TopicR + (1-alpha)*TempR, and follows the outlinks of the most
// relevant documents first.
//
// The archive is a seam (Archive: resolve a URL to its captures, read one);
// LocalArchive implements it over WARC files and their CDXJ index, loaded into
// memory grouped by canonical key (fine for archives of some hundred thousand
// captures), RemoteArchive over a CDX server and Wayback-style raw mementos.
//
// The output folder holds the collection as a WARC (selected records copied
// byte for byte), its CDXJ index, TimeMaps, a JSONL crawl log, the missing
// URLs, the accumulated relevance curve (CSV) and the crawl state that
// --resume continues from.
package crawl
