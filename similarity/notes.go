package similarity

import (
	"errors"
	"net/http"

	"github.com/offtopic/offtopic/extract"
	"github.com/offtopic/offtopic/timemap"
)

// PayloadNotes extracts payloads for Prepare while the index reads them
// (timemap.IndexOptions.Note and WantsNote), so that detection over local
// files inflates every record once: Prepare then takes a capture's document
// from its Note and reads no payload. Revisits, captures read through other
// sources and notes that do not decode take the payload reader as before.
type PayloadNotes struct {
	opts Options
	ext  extract.Options
}

// NewPayloadNotes returns notes made as a run with these options and the
// Config's Extract options ext extracts (ext.Stems may be shared with it).
func NewPayloadNotes(opts Options, ext extract.Options) *PayloadNotes {
	if ext.Stems == nil {
		ext.Stems = extract.NewStemCache(0)
	}
	return &PayloadNotes{opts: opts.WithDefaults(), ext: ext}
}

// Wants reports whether Prepare reads c's payload: HTTP 200 and HTML (to
// extract it), or a redirect (for its Location).
func (n *PayloadNotes) Wants(c *timemap.Capture) bool { return NeedsPayload(*c) }

// Note extracts a payload as Prepare does and returns the document in its
// binary form; of a redirect, it keeps the Location.
func (n *PayloadNotes) Note(c *timemap.Capture, h http.Header, body []byte) []byte {
	if isRedirect(c.Status) {
		return []byte(h.Get("Location"))
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

// errNoNote: the index made no note of the capture.
var errNoNote = errors.New("no note")

// noteDoc decodes a capture's Note.
func noteDoc(note string) (*extract.Document, error) {
	if note == "" {
		return nil, errNoNote
	}
	doc := new(extract.Document)
	if err := doc.UnmarshalBinary([]byte(note)); err != nil {
		return nil, err
	}
	return doc, nil
}
