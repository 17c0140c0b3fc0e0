package similarity

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/offtopic/offtopic/extract"
	"github.com/offtopic/offtopic/timemap"
)

// TestPrepareWarnsOfCutText: a capture whose decoded payload passes the cap
// is scored on what the cap keeps and a warning says "text cut at"; one that
// fits raises none, and neither counts as failed.
func TestPrepareWarnsOfCutText(t *testing.T) {
	tests := []struct {
		name  string
		words int
		max   int64
		want  string
	}{
		{"fits", 100, 4096, ""},
		{"cut", 5000, 4096, "text cut at 4096 bytes"},
		{"cut at MiB", 300000, 1 << 20, "text cut at 1 MiB"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			body := []byte("<html><body><p>" + strings.Repeat("word ", tc.words) + "</p></body></html>")
			tm := &timemap.TimeMap{Key: "org,example)/", URIR: "http://example.org/",
				Captures: []timemap.Capture{{Key: "org,example)/", URIR: "http://example.org/", Time: time.Date(2005, 1, 1, 0, 0, 0, 0, time.UTC), Status: 200, MIME: "text/html"}}}
			var warned []error
			cfg := Config{Options: DefaultOptions(), Extract: extract.Options{MaxBytes: tc.max},
				ReadPayload: func(context.Context, timemap.Capture) (http.Header, []byte, error) {
					return http.Header{"Content-Type": {"text/html"}}, body, nil
				},
				OnError:   func(err error) { t.Errorf("OnError: %v", err) },
				OnWarning: func(err error) { warned = append(warned, err) }}
			cfg, err := cfg.withDefaults()
			if err != nil {
				t.Fatal(err)
			}
			in, failed := Prepare(context.Background(), tm, &cfg, extract.NewCache(0))
			if failed != 0 || in.Docs[0] == nil {
				t.Fatalf("failed %d, doc %v", failed, in.Docs[0])
			}
			got := errors.Join(warned...)
			switch {
			case tc.want == "" && got != nil:
				t.Errorf("warned: %v", got)
			case tc.want != "" && (len(warned) != 1 || !strings.Contains(got.Error(), tc.want) || !strings.Contains(got.Error(), "http://example.org/ 20050101000000")):
				t.Errorf("warnings %v, want one saying %q of the capture", warned, tc.want)
			}
		})
	}
}
