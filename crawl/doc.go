// Package crawl extracts an event collection from a web archive by focused
// re-crawl (Gossen et al.; Klein et al.) and audits extracted collections:
// starting from seed URLs it resolves each URL in the archive, picks one
// snapshot, scores the document's topical relevance (TopicR, cosine against
// a reference vector), temporal relevance (TempR, half-life decay around the
// event span, from the date the page states, else its Last-Modified, else
// its first capture) and, under the strategy, their combination, and follows
// the outlinks that promise the most first. The default strategy (Gated,
// "ctg") scores topicality times time and estimates an unread page from the
// linking page, the anchor text and the date its URL or first capture gives;
// the strategies of Gossen et al. (TTR = alpha*TopicR + (1-alpha)*TempR) and
// Klein's thresholds keep their names.
//
// The archive is a seam (Archive: resolve a URL to its captures, read one);
// LocalArchive implements it over WARC files and their CDXJ index, loaded into
// memory grouped by canonical key (fine for archives of some hundred thousand
// captures), RemoteArchive over a CDX server and Wayback-style raw mementos,
// TimeGateArchive through a Memento TimeGate or aggregator across archives.
//
// The output folder holds the collection as a WARC (selected records copied
// byte for byte), its CDXJ index, TimeMaps, a JSONL crawl log, the missing
// URLs, the accumulated relevance curve (CSV) and the crawl state that
// --resume continues from. AuditCollection scores the documents of a
// collection against the event and flags those published outside the
// event's window or less topical than a threshold learnt from the reference
// documents' outlinks against a background sample of the archive.
package crawl
