package crawl

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/offtopic/offtopic/internal/testcorpus"
)

// FuzzParseSpec parses arbitrary collection specifications: a spec that
// validates has a time frame that is not inverted, non-negative lead,
// cooldown, grace and run time, and an alpha in [0, 1]. Under plain go test
// it runs its seeds only (the event specs of ../shared when present).
func FuzzParseSpec(f *testing.F) {
	if d := testcorpus.Dir(); d != "" {
		specs, _ := filepath.Glob(filepath.Join(d, "corpus", "event-dev*", "*", "spec.json"))
		for _, p := range specs {
			if b, err := os.ReadFile(p); err == nil {
				f.Add(b)
			}
		}
	}
	f.Add([]byte(`{"name":"x","keywords":["a"],"seeds":["http://a/"],"event_start":"2005-05-05","event_end":"2005-05-05","lead_days":1e300,"cooldown_days":3}`))
	f.Add([]byte(`{"name":"x","reference_documents":["r.html"],"event_start":"2005-05-05T10:00:00+02:00","event_end":"2005-05-06","alpha":0.3,"grace_days":2,"max_runtime":"30m"}`))
	f.Add([]byte(`{"name":"x","keywords":["a"],"seeds":["http://a/"],"event_start":"2005-05-05","event_end":"2005-05-04"}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := ParseSpec(b)
		if err != nil {
			return
		}
		ev := s.Event()
		if ev.End.Before(ev.Start) {
			t.Fatalf("event ends %v before it starts %v", ev.End, ev.Start)
		}
		if ev.Lead < 0 || ev.Cooldown < 0 || s.Grace() < 0 || s.Runtime() < 0 {
			t.Fatalf("negative lead %v, cooldown %v, grace %v or run time %v", ev.Lead, ev.Cooldown, s.Grace(), s.Runtime())
		}
		if a := s.AlphaOr(); !(a >= 0 && a <= 1) {
			t.Fatalf("alpha %v", a)
		}
	})
}
