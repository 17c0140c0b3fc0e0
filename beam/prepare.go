package offtopicbeam

import (
	"context"
	"fmt"
	"strings"

	"github.com/offtopic/offtopic/extract"
	"github.com/offtopic/offtopic/similarity"
	"github.com/offtopic/offtopic/timemap"
)

// This file holds a private copy of the library's per-TimeMap extraction
// (similarity.prepareInput and the defaults of similarity.Options), which
// similarity does not export yet. Once similarity exports it (a
// "Prepare(ctx, tm, cfg) *Input" beside Score, and the defaulted options), this
// file goes and the pipeline calls the library. The pipeline test compares the
// results with similarity.Detect byte for byte, so a drift shows there.

// withDefaults fills zero options as similarity.Options.withDefaults does.
func withDefaults(o similarity.Options) similarity.Options {
	if len(o.Rule) == 0 {
		o.Rule, _ = similarity.ParseRule(similarity.DefaultMeasures)
	}
	if o.MinT0Words == 0 {
		o.MinT0Words = 20
	}
	if o.ExcerptWords == 0 {
		o.ExcerptWords = 60
	}
	return o
}

// computes reports whether measure m is computed under o.
func computes(o similarity.Options, m string) bool {
	if o.Rule.Has(m) {
		return true
	}
	for _, x := range o.Measures {
		if x == m {
			return true
		}
	}
	return false
}

// prepare reads and extracts the payload of every capture of tm that the
// measures apply to (HTTP 200 and HTML), each distinct digest once, as
// similarity.Detect's first pass does. opts must have its defaults filled.
func prepare(ctx context.Context, tm *timemap.TimeMap, opts similarity.Options, archiveURL string, read similarity.PayloadReader, onError func(error)) *similarity.Input {
	n := len(tm.Captures)
	in := &similarity.Input{TimeMap: tm, URIT: timemap.LinkOptions{ArchivePrefix: archiveURL}.LinkTimeMapURI(tm),
		URIMs: make([]string, n), Docs: make([]*extract.Document, n), Errs: make([]string, n)}
	byDigest := map[string]*extract.Document{}
	for i, c := range tm.Captures {
		in.URIMs[i] = timemap.URIM(archiveURL, c)
		if c.Status != 200 || !similarity.IsHTML(c.MIME) {
			continue
		}
		if c.Revisit && c.Payload == (timemap.Location{}) {
			in.Errs[i] = "revisit of a payload that is not in the input"
			continue
		}
		if doc, ok := byDigest[c.Digest]; ok && c.Digest != "" {
			in.Docs[i] = doc
			continue
		}
		doc, err := readAndExtract(ctx, c, read)
		if err != nil {
			in.Errs[i] = err.Error()
			if onError != nil {
				onError(fmt.Errorf("%s %s (%s offset %d): %w", c.URIR, c.Timestamp14(), c.Payload.File, c.Payload.Offset, err))
			}
			continue
		}
		doc.Text = excerpt(doc.Text, opts.ExcerptWords)
		if c.Digest != "" {
			byDigest[c.Digest] = doc
		}
		in.Docs[i] = doc
	}
	return in
}

func readAndExtract(ctx context.Context, c timemap.Capture, read similarity.PayloadReader) (*extract.Document, error) {
	h, body, err := read(ctx, c)
	if err != nil {
		return nil, fmt.Errorf("read payload: %w", err)
	}
	doc, err := extract.Extract(h, body, extract.Options{})
	if err != nil && doc == nil {
		return nil, fmt.Errorf("extract: %w", err)
	}
	return doc, nil
}

func excerpt(text string, words int) string {
	f := strings.Fields(text)
	if len(f) > words {
		f = append(f[:words], "…")
	}
	return strings.Join(f, " ")
}
