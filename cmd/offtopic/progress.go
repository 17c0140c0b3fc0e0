package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"golang.org/x/term"

	"github.com/offtopic/offtopic/timemap"
)

// progress shows how long work is getting on, on stderr: a redrawn bar on a
// terminal, a line every few seconds otherwise.
type progress struct {
	mu       sync.Mutex
	w        io.Writer
	tty      bool
	quiet    bool
	stage    string
	total    int
	start    time.Time
	last     time.Time
	every    time.Duration
	lastDraw string
}

func newProgress(w io.Writer, quiet bool) *progress {
	tty := false
	if f, ok := w.(*os.File); ok {
		tty = term.IsTerminal(int(f.Fd()))
	}
	return &progress{w: w, tty: tty, quiet: quiet, every: 5 * time.Second}
}

// begin starts a stage of known (or, with 0, unknown) size.
func (p *progress) begin(stage string, total int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.stage, p.total, p.start, p.last = stage, total, time.Now(), time.Time{}
}

// update reports done units (and a short note) of the current stage.
func (p *progress) update(done int, note string) {
	if p.quiet {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	now := time.Now()
	interval := p.every
	if p.tty {
		interval = 100 * time.Millisecond
	}
	if !p.last.IsZero() && now.Sub(p.last) < interval && done != p.total {
		return
	}
	p.last = now
	rate := float64(done) / max(now.Sub(p.start).Seconds(), 1e-3)
	var b strings.Builder
	if p.tty {
		b.WriteString("\r")
	}
	fmt.Fprintf(&b, "%-8s ", p.stage)
	if p.total > 0 {
		const width = 30
		fill := min(width, done*width/p.total)
		if p.tty {
			fmt.Fprintf(&b, "[%s%s] ", strings.Repeat("=", fill), strings.Repeat(" ", width-fill))
		}
		fmt.Fprintf(&b, "%d/%d captures (%.0f%%)", done, p.total, 100*float64(done)/float64(p.total))
	} else {
		fmt.Fprintf(&b, "%d", done)
		if p.tty {
			b.WriteString(" ")
		}
	}
	fmt.Fprintf(&b, " %s %.0f/s", note, rate)
	if p.tty {
		b.WriteString("\x1b[K")
	} else {
		b.WriteString("\n")
	}
	p.lastDraw = b.String()
	io.WriteString(p.w, p.lastDraw)
}

// finish forces a last update of the current stage, then ends its line.
func (p *progress) finish(done int, note string) {
	p.mu.Lock()
	p.last = time.Time{}
	p.mu.Unlock()
	p.update(done, note)
	p.end()
}

// end finishes the current stage's line.
func (p *progress) end() {
	if p.quiet {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.tty && p.lastDraw != "" {
		io.WriteString(p.w, "\n")
	}
	p.lastDraw = ""
}

// cutSummary is the summary line counting payloads longer than the body cap.
func cutSummary(n int) string {
	return fmt.Sprintf("offtopic: %d payloads longer than %d MiB were cut there (only their first %d MiB were read)",
		n, timemap.DefaultMaxBodyBytes>>20, timemap.DefaultMaxBodyBytes>>20)
}
