package similarity

import (
	"errors"
	"hash/maphash"
	"net/http"
	"sync"

	"github.com/offtopic/offtopic/extract"
	"github.com/offtopic/offtopic/timemap"
)

// PayloadNotes extracts payloads for Prepare while the index reads them
// (timemap.IndexOptions.Note and WantsNote), so that detection over local
// files inflates every record once: Prepare then takes a capture's document
// from its Note and reads no payload. Each payload digest is extracted once:
// a capture whose digest was noted already (an unchanged page captured
// again without a revisit record, one page served at several URLs) gets a
// note saying so, and Prepare takes its document from the extraction cache
// or from the capture of its TimeMap that holds it. Revisits, captures read
// through other sources, notes that do not decode and duplicates whose
// document is not at hand take the payload reader as before.
type PayloadNotes struct {
	opts Options
	ext  extract.Options
	mu   sync.Mutex
	seen map[uint64]struct{} // hashes of the digests noted, at most maxNotedDigests
	seed maphash.Seed
}

// maxNotedDigests bounds the digests PayloadNotes remembers (16 bytes
// each): past it, later payloads are extracted whatever their digest.
const maxNotedDigests = 1 << 20

// duplicateNote is the note of a capture whose payload digest was noted
// with another capture.
const duplicateNote = "\x00"

// NewPayloadNotes returns notes made as a run with these options and the
// Config's Extract options ext extracts (ext.Stems and ext.Readers may
// be shared with it).
func NewPayloadNotes(opts Options, ext extract.Options) *PayloadNotes {
	if ext.Stems == nil {
		ext.Stems = extract.NewStemCache(0)
	}
	if ext.Readers == nil {
		ext.Readers = extract.NewReaderPool()
	}
	return &PayloadNotes{opts: opts.WithDefaults(), ext: ext, seen: map[uint64]struct{}{}, seed: maphash.MakeSeed()}
}

// Wants reports whether Prepare reads c's payload: HTTP 200 and HTML (to
// extract it), or a redirect (for its Location).
func (n *PayloadNotes) Wants(c *timemap.Capture) bool { return NeedsPayload(*c) }

// Note extracts a payload as Prepare does and returns the document in its
// binary form (duplicateNote when its digest was noted already); of a
// redirect, it keeps the Location.
func (n *PayloadNotes) Note(c *timemap.Capture, h http.Header, body []byte) []byte {
	if isRedirect(c.Status) {
		return []byte(h.Get("Location"))
	}
	if n.noted(c.Digest) {
		return []byte(duplicateNote)
	}
	doc, _ := extractPayload(h, body, n.ext)
	if doc == nil {
		return nil
	}
	trimDoc(doc, n.opts)
	b, err := doc.AppendBinary(nil)
	if err != nil {
		return nil
	}
	return b
}

// noted reports whether digest was noted before, and remembers it.
func (n *PayloadNotes) noted(digest string) bool {
	if digest == "" {
		return false
	}
	h := maphash.String(n.seed, digest)
	n.mu.Lock()
	defer n.mu.Unlock()
	if _, ok := n.seen[h]; ok {
		return true
	}
	if len(n.seen) < maxNotedDigests {
		n.seen[h] = struct{}{}
	}
	return false
}

// errNoNote: the index made no note of the capture.
var errNoNote = errors.New("no note")

// errDuplicate: the capture's payload was noted with another capture.
var errDuplicate = errors.New("payload noted with another capture")

// noteDoc decodes a capture's Note.
func noteDoc(note string) (*extract.Document, error) {
	switch note {
	case "":
		return nil, errNoNote
	case duplicateNote:
		return nil, errDuplicate
	}
	doc := new(extract.Document)
	if err := doc.UnmarshalBinary([]byte(note)); err != nil {
		return nil, err
	}
	return doc, nil
}

// notedLater returns the document of capture i of tm, a duplicate, from a
// later capture of tm with the same digest that holds it (an earlier one
// would have put it in the cache).
func notedLater(tm *timemap.TimeMap, i int) (*extract.Document, error) {
	d := tm.Captures[i].Digest
	for _, c := range tm.Captures[i+1:] {
		if c.Digest == d && c.Note != duplicateNote && c.Note != "" && measured(c) {
			return noteDoc(c.Note)
		}
	}
	return nil, errDuplicate
}
