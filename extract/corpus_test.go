package extract

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/textproto"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/offtopic/offtopic/internal/testcorpus"
)

// corpusResponse is one HTTP response record of a dev-corpus WARC.
type corpusResponse struct {
	uri    string
	date   string
	digest string
	status string
	header http.Header
	body   []byte
}

// loadCorpus reads every response record of the dev corpus WARCs, skipping
// the test when the corpus is absent or under -short.
func loadCorpus(tb testing.TB) []corpusResponse { return loadCollection(tb, "dev") }

// loadCollection reads every response record of the WARCs of the shared
// collection name (a directory of corpus/), skipping the test when the
// collection is absent or under -short.
func loadCollection(tb testing.TB, name string) []corpusResponse {
	tb.Helper()
	files, _ := filepath.Glob(filepath.Join(testcorpus.Corpus(tb, name), "*.warc.gz"))
	if len(files) == 0 {
		tb.Skipf("corpus/%s has no WARCs (set OFFTOPIC_SHARED)", name)
	}
	var out []corpusResponse
	for _, f := range files {
		recs, err := readWARCResponses(f)
		if err != nil {
			tb.Fatalf("%s: %v", f, err)
		}
		out = append(out, recs...)
	}
	return out
}

// readWARCResponses is a tiny WARC reader: gzip members concatenated, each
// record a header block, Content-Length bytes of content and CRLFCRLF.
func readWARCResponses(path string) ([]corpusResponse, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, err
	}
	br := bufio.NewReaderSize(zr, 1<<16)
	var out []corpusResponse
	for {
		tp := textproto.NewReader(br)
		line, err := tp.ReadLine()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		if line == "" {
			continue
		}
		if !strings.HasPrefix(line, "WARC/") {
			return out, io.ErrUnexpectedEOF
		}
		wh, err := tp.ReadMIMEHeader()
		if err != nil {
			return out, err
		}
		n, err := strconv.Atoi(wh.Get("Content-Length"))
		if err != nil {
			return out, err
		}
		block := make([]byte, n)
		if _, err := io.ReadFull(br, block); err != nil {
			return out, err
		}
		if wh.Get("Warc-Type") != "response" {
			continue
		}
		hr := textproto.NewReader(bufio.NewReader(bytes.NewReader(block)))
		status, err := hr.ReadLine()
		if err != nil {
			continue
		}
		hh, err := hr.ReadMIMEHeader()
		if err != nil {
			continue
		}
		i := bytes.Index(block, []byte("\r\n\r\n"))
		if i < 0 {
			continue
		}
		out = append(out, corpusResponse{
			uri:    wh.Get("Warc-Target-Uri"),
			date:   wh.Get("Warc-Date"),
			digest: wh.Get("Warc-Payload-Digest"),
			status: status,
			header: http.Header(hh),
			body:   block[i+4:],
		})
	}
}

// corpusHTML returns the HTML 200 responses of the dev corpus.
func corpusHTML(tb testing.TB) []corpusResponse { return htmlOf(loadCorpus(tb)) }

// htmlOf is the responses of recs that are HTML pages served with 200.
func htmlOf(recs []corpusResponse) []corpusResponse {
	var out []corpusResponse
	for _, r := range recs {
		if strings.Contains(r.status, " 200") && strings.Contains(r.header.Get("Content-Type"), "html") {
			out = append(out, r)
		}
	}
	return out
}

func TestDevCorpus(t *testing.T) {
	recs := loadCorpus(t)
	byExtractor := map[string]int{}
	seen := map[string]bool{}
	htmlCount := 0
	for _, r := range recs {
		if seen[r.digest] {
			continue
		}
		seen[r.digest] = true
		doc, err := Extract(r.header, r.body, Options{Readability: true})
		if err != nil {
			t.Errorf("%s: %v", r.uri, err)
			continue
		}
		byExtractor[doc.Extractor]++
		if doc.MediaType != "text/html" {
			continue
		}
		htmlCount++
		if doc.Extractor != ExtractorReadability && doc.Extractor != ExtractorBody {
			t.Errorf("%s: HTML extracted by %q", r.uri, doc.Extractor)
		}
		if strings.Contains(doc.Text, "function(") || strings.Contains(doc.Text, "@context") || strings.Contains(doc.Text, "{margin") {
			t.Errorf("%s: script or style in text: %.200s", r.uri, doc.Text)
		}
		if os.Getenv("OFFTOPIC_DUMP") != "" {
			t.Logf("%s %s %s %s %d %q | %.300s", r.date, r.uri, doc.Extractor, doc.Lang, doc.WordCount, doc.Title, doc.Text)
		}
	}
	t.Logf("%d distinct payloads, %d HTML; by extractor: %v", len(seen), htmlCount, byExtractor)
	if htmlCount == 0 {
		t.Fatal("no HTML responses in the dev corpus")
	}
	if byExtractor[ExtractorReadability] == 0 || byExtractor[ExtractorBody] == 0 {
		t.Errorf("expected both extractors to serve some pages: %v", byExtractor)
	}
}
