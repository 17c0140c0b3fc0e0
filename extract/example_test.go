package extract_test

import (
	"fmt"
	"net/http"

	"github.com/offtopic/offtopic/extract"
)

// Extract a payload's text as detection compares it: decoded, its main
// text without the site's chrome, its language.
func ExampleExtract() {
	h := http.Header{"Content-Type": {"text/html; charset=utf-8"}}
	body := []byte(`<html><head><title>Keepers of the light</title></head><body>
<nav><a href="/">Home</a> <a href="/visit.html">Visit</a></nav>
<article><p>The lighthouse keepers lived beside the tower with their families,
trimming the wicks and winding the clockwork of the lens every night of the year.
Their logbooks record storms, wrecks and the ships they guided past the reef.</p></article>
</body></html>`)
	doc, err := extract.Extract(h, body, extract.Options{})
	if err != nil {
		fmt.Println("lenient:", err) // the document is usable all the same
	}
	fmt.Println(doc.Title)
	fmt.Println(doc.Lang, doc.WordCount > 30)
	// Output:
	// Keepers of the light
	// en true
}
