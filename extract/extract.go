// Package extract owns turning an archived HTTP payload into text: de-chunking,
// content decoding, charset detection, main-text extraction, title, language,
// tokens, stems, word and byte counts (and, later, publication dates and links).
//
// It imports no other package of this module.
package extract

// Document is what extraction yields for one payload.
type Document struct {
	// Title is the page title, whitespace-collapsed.
	Title string `json:"title,omitempty"`
	// Text is the main text, words separated by single spaces (block elements
	// never glue words together).
	Text string `json:"text,omitempty"`
	// Extractor names what produced Text: "readability", "body" (visible body
	// text fallback), "plain" (text/plain payload) or "none".
	Extractor string `json:"extractor"`
	// Lang is the ISO 639-1 code of the detected language, "" when unknown.
	Lang string `json:"lang,omitempty"`
	// Terms are the lower-cased tokens of Text with stop words removed and
	// stemmed where Lang has a Snowball stemmer, in text order.
	Terms []string `json:"terms,omitempty"`
	// WordCount is the number of words in Text (before stop-word removal).
	WordCount int `json:"word_count"`
	// ByteCount is the size of the decoded payload in bytes (after de-chunking
	// and content decoding, before charset conversion).
	ByteCount int `json:"byte_count"`
}
