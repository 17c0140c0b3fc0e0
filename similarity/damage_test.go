package similarity

import (
	"strings"
	"testing"

	"github.com/offtopic/offtopic/extract"
)

// TestPartialDoc: a document that decoded only in part is judged when the
// part holds as many content words as a t0 needs, else not scored with why.
func TestPartialDoc(t *testing.T) {
	for _, tt := range []struct {
		doc  *extract.Document
		want string
	}{
		{nil, ""},
		{&extract.Document{ContentWords: 3}, ""},
		{&extract.Document{Partial: "its gzip stream is cut", ContentWords: 20}, ""},
		{&extract.Document{Partial: "its gzip stream is cut", ContentWords: 19}, "its gzip stream is cut: 19 words decoded, too few to judge"},
	} {
		if got := partialDoc(tt.doc, 20); !strings.Contains(got, tt.want) || (got == "") != (tt.want == "") {
			t.Errorf("%+v: %q, want %q", tt.doc, got, tt.want)
		}
	}
}
