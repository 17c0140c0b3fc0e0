package timemap

import (
	"bytes"
	"context"
	"path/filepath"
	"reflect"
	"sync"
	"testing"

	"github.com/offtopic/offtopic/internal/testcorpus"
)

// TestPayloadsEqualReadResponse: the quick path gives what the general reader
// gives, for every capture of the dev corpus and the sample, read
// concurrently with fewer open files than there are WARCs.
func TestPayloadsEqualReadResponse(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "sample", "*.warc.gz"))
	switch {
	case testing.Short():
		t.Log("-short: the sample only, not corpus/dev")
	case testcorpus.Dir() != "":
		dev, _ := filepath.Glob(filepath.Join(testcorpus.Path(t, "corpus/dev"), "*.warc.gz"))
		files = append(files, dev...)
	default:
		t.Log("dev corpus absent: the sample only")
	}
	ctx := context.Background()
	idx, err := BuildIndex(ctx, files, IndexOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer idx.Close()
	var caps []Capture
	for c := range idx.Captures() {
		if c.Status == 200 && !c.Payload.IsZero() {
			caps = append(caps, c)
		}
	}
	p := NewPayloads()
	p.maxOpen = 3
	defer p.Close()
	var wg sync.WaitGroup
	var mu sync.Mutex
	bad := 0
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(caps); i += 4 {
				c := caps[i]
				h, body, err := p.Read(ctx, c)
				r, err2 := ReadResponse(c.Payload, 0)
				if err != nil || err2 != nil || !bytes.Equal(body, r.Body) || !reflect.DeepEqual(h, r.Header) {
					mu.Lock()
					if bad < 5 {
						t.Errorf("%s %s: quick read differs (err %v / %v, %d / %d bytes)", c.URIR, c.Timestamp14(), err, err2, len(body), len(r.Body))
					}
					bad++
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	if len(caps) < 10 {
		t.Fatalf("only %d captures read", len(caps))
	}
	t.Logf("%d payloads compared", len(caps))
}
