package timemap

import (
	"net/http"
	"sync"
)

// The note workers: what IndexOptions.Note makes of each capture's body,
// run on opts.Workers goroutines while the files are read, within a bound
// on the bodies waiting for them.

// noteBatch is how many noted entries a note worker hands on at once.
const noteBatch = 64

// noteJob is a capture entry waiting for its Note.
type noteJob struct {
	e    entry
	h    http.Header
	body []byte
	held int64 // bytes of the gate it holds
}

// maxNoteBodies bounds the bytes of the bodies read for notes and not yet
// noted (a body larger than it is read alone): what extraction holds per
// body is a few times the body, so that pages of megabytes read by many
// workers at once do not add up (issue 38: 16 pages of 10 MiB with 8
// workers took 2 GB).
const maxNoteBodies = 32 << 20

// gate bounds a sum of sizes held at once: acquire waits while others
// hold it and it would go past its bound.
type gate struct {
	mu   sync.Mutex
	cond *sync.Cond
	max  int64
	used int64
}

func newGate(max int64) *gate {
	g := &gate{max: max}
	g.cond = sync.NewCond(&g.mu)
	return g
}

func (g *gate) acquire(n int64) {
	g.mu.Lock()
	for g.used > 0 && g.used+n > g.max {
		g.cond.Wait()
	}
	g.used += n
	g.mu.Unlock()
}

func (g *gate) release(n int64) {
	g.mu.Lock()
	g.used -= n
	g.mu.Unlock()
	g.cond.Broadcast()
}

// startNotes starts opts.Workers note workers, when opts.Note is set: they
// note the entries sent on notes and flush them in batches of noteBatch.
// done closes notes and waits for the workers.
func (b *indexBuild) startNotes() (notes chan<- noteJob, done func()) {
	opts := b.idx.opts
	if opts.Note == nil {
		return nil, func() {}
	}
	ch := make(chan noteJob, opts.Workers)
	var wg sync.WaitGroup
	for range opts.Workers {
		wg.Go(func() {
			st := Stats{Records: map[string]int{}}
			batch := make([]entry, 0, noteBatch)
			for j := range ch {
				j.e.C.Note = string(opts.Note(&j.e.C, j.h, j.body))
				j.body = nil
				b.bodies.release(j.held)
				if batch = append(batch, j.e); len(batch) >= min(noteBatch, opts.MaxInMemory) {
					b.flush(batch, &st)
					batch = batch[:0]
				}
			}
			b.flush(batch, &st)
		})
	}
	return ch, func() {
		close(ch)
		wg.Wait()
	}
}
