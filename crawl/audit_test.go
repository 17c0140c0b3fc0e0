package crawl

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/offtopic/offtopic/timemap"
)

func TestBalanceCut(t *testing.T) {
	cases := []struct {
		name     string
		pos, neg []float64
		lo, hi   float64 // the cut must fall in (lo, hi)
	}{
		{"apart", []float64{0.2, 0.25, 0.3}, []float64{0.01, 0.02, 0.05}, 0.05, 0.2},
		// 1 of 5 examples below 0.1, 1 of 5 background pages above it.
		{"overlap", []float64{0.06, 0.12, 0.15, 0.2, 0.25}, []float64{0.01, 0.02, 0.04, 0.05, 0.11}, 0.06, 0.11},
		{"no background: keep every example", []float64{0.1, 0.2}, nil, -1e-12, 0.1},
		{"no examples", nil, []float64{0.1, 0.2}, -1e-12, 1e-12},
	}
	for _, c := range cases {
		if got := balanceCut(c.pos, c.neg); got <= c.lo || got >= c.hi {
			t.Errorf("%s: balanceCut = %v, want in (%v, %v)", c.name, got, c.lo, c.hi)
		}
	}
}

// TestLearnThresholdBalanced: on outlinks that mix related stories with
// random ones, the balance point lies below Youden's cut, keeps more of the
// related stories, and lets through no more background than it flags of
// the examples.
func TestLearnThresholdBalanced(t *testing.T) {
	ex := []float64{0.01, 0.03, 0.05, 0.08, 0.09, 0.1, 0.12, 0.15, 0.18, 0.2, 0.22, 0.25, 0.3, 0.9, 1}
	var bg []float64
	for i := range 200 {
		bg = append(bg, 0.01+0.12*float64(i%40)/40) // 0.01 to 0.127
	}
	youden, heldY, _ := learnThresholdContrast(ex, bg, 1)
	th, held, fp := LearnThresholdBalanced(ex, bg, 1)
	if !(th < youden && held > heldY) {
		t.Errorf("balanced %v (held out %v), Youden %v (held out %v): want the balance point below, keeping more examples", th, held, youden, heldY)
	}
	if th < 0.05 || th > 0.12 || fp > 1-held+0.1 {
		t.Errorf("balanced %v: held-out examples passing %v, background passing %v: want the two errors near balance", th, held, fp)
	}
	if th2, _, _ := LearnThresholdBalanced(ex, bg, 1); th2 != th {
		t.Errorf("not deterministic for a seed: %v then %v", th, th2)
	}
	if th, held, fp := LearnThresholdBalanced(nil, bg, 1); th != 0 || held != 0 || fp != 0 {
		t.Errorf("no examples: %v %v %v, want zeros", th, held, fp)
	}
}

// fakeSampler is a BackgroundSampler that hands out given captures.
type fakeSampler struct{ caps []timemap.Capture }

func (f fakeSampler) SampleCaptures(_ context.Context, n int, _ int64) ([]timemap.Capture, error) {
	return f.caps[:min(n, len(f.caps))], nil
}

// TestAuditHosts: the sites a CDX sample is drawn from are those of the
// collection, the seeds and the reference documents, each once.
func TestAuditHosts(t *testing.T) {
	ctx := context.Background()
	coll, err := OpenLocal(ctx, "../testdata/sample", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	spec := &Spec{Seeds: []string{"http://Seed.example/a", "http://seed.example/b"}, ReferenceDocuments: []string{"https://ref.example/x"}}
	got := auditHosts(coll, spec)
	want := map[string]bool{"coastallights-society.org": true, "www.coastallights-society.org": true, "seed.example": true, "ref.example": true}
	if len(got) != len(want) {
		t.Fatalf("auditHosts = %v, want %v", got, want)
	}
	for _, h := range got {
		if !want[h] {
			t.Errorf("auditHosts gave %s", h)
		}
	}
}

// TestAuditBackgroundSampler: a given sampler draws the background, read
// through the archive (a capture that cannot be read is left out); one that draws nothing leaves the collection as its
// own background.
func TestAuditBackgroundSampler(t *testing.T) {
	ctx := context.Background()
	a, err := OpenLocal(ctx, "../testdata/sample", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	spec := &Spec{Name: "lights", ReferenceDocuments: []string{"http://www.coastallights-society.org/lens.html"},
		Keywords: []string{"lighthouse keeper", "lens"}, EventStart: "2008-01-01", EventEnd: "2009-12-31",
		Seeds: []string{"http://www.coastallights-society.org/"}}
	var caps []timemap.Capture
	for _, u := range a.Sample(5, 1) {
		c, _ := a.Resolve(ctx, u)
		caps = append(caps, c[0])
	}
	lost := caps[0]
	lost.URIR = "http://not.archived.example/"
	lost.Loc.File = filepath.Join(t.TempDir(), "gone.warc.gz")
	lost.Payload = lost.Loc
	rep, err := AuditCollection(ctx, a, AuditOptions{Spec: spec, Archive: a, Background: fakeSampler{append(slices.Clone(caps), lost)}, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Background != len(caps) || rep.BackgroundFrom != "archive" || rep.Examples == 0 {
		t.Errorf("background %d pages from the %s, %d examples: want the %d readable pages of the sampler's", rep.Background, rep.BackgroundFrom, rep.Examples, len(caps))
	}
	rep, err = AuditCollection(ctx, a, AuditOptions{Spec: spec, Archive: a, Background: fakeSampler{}, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if rep.BackgroundFrom != "collection" || rep.Background != len(rep.Documents) {
		t.Errorf("background %d pages from the %s: want the collection's %d", rep.Background, rep.BackgroundFrom, len(rep.Documents))
	}
}
