package similarity

import "github.com/offtopic/offtopic/extract"

// docRedirect is the target of a document's client-side redirect, "" when
// it has none (or there is no document).
func docRedirect(d *extract.Document) string {
	if d == nil {
		return ""
	}
	return d.Redirect
}

// docFrames are the URLs of a document's frames.
func docFrames(d *extract.Document) []string {
	if d == nil {
		return nil
	}
	return d.Frames
}
