package similarity

import "github.com/offtopic/offtopic/extract"

// docRedirect is the target of a document's client-side redirect, "" when
// it has none.
func docRedirect(d *extract.Document) string { return "" }

// docFrames are the URLs of a document's frames.
func docFrames(d *extract.Document) []string { return nil }
