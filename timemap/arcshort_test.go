package timemap

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestARCLastRecordCutShort: an ARC whose last record is 12 bytes short of
// its declared length (warcio's example-space-in-url.arc) keeps that
// record with the bytes there are, as warcio does, and reports the cut;
// its payload reads back (issue 38, 11).
func TestARCLastRecordCutShort(t *testing.T) {
	body := "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<html><head><title>Example Domain</title></head><body><p>This domain is established to be used for illustrative examples.</p></body></html>\n"
	filedesc := "1 0 LiveWeb Capture\nURL IP-address Archive-date Content-type Archive-length\n"
	arc := fmt.Sprintf("filedesc://live-web-example.arc.gz 127.0.0.1 20140216050221 text/plain %d\n%s\n", len(filedesc), filedesc) +
		fmt.Sprintf("http://example.com/index.cfm?Title=Examples From The Live Web 93.184.216.119 20140216050221 text/html %d\n%s", len(body)+12, body)
	path := filepath.Join(t.TempDir(), "example-space-in-url.arc")
	if err := os.WriteFile(path, []byte(arc), 0o644); err != nil {
		t.Fatal(err)
	}
	var reported []error
	idx, err := BuildIndex(context.Background(), []string{path}, IndexOptions{TempDir: t.TempDir(), OnError: func(err error) { reported = append(reported, err) }})
	if err != nil {
		t.Fatal(err)
	}
	defer idx.Close()
	var caps []Capture
	for c := range idx.Captures() {
		caps = append(caps, c)
	}
	if len(caps) != 1 || len(reported) != 1 || !strings.Contains(reported[0].Error(), "kept with the bytes there are") {
		t.Fatalf("%d captures, reported %v: want the cut record kept and the cut reported", len(caps), reported)
	}
	r, err := ReadResponse(caps[0].Payload, 0)
	if err != nil || r.Status != 200 || !strings.Contains(string(r.Body), "illustrative examples") {
		t.Errorf("payload: %v %+v", err, r)
	}
}
