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

// progress shows how long work is getting on, on stderr: on a terminal a
// line redrawn in place and fitted to its width, with an ETA where the total
// is known; otherwise (piped) a line every few seconds, and only when
// something changed.
type progress struct {
	mu    sync.Mutex
	w     io.Writer
	tty   bool
	width int // columns of the terminal (80 when unknown or piped)
	quiet bool
	stage string
	total int
	start time.Time
	last  time.Time
	every time.Duration
	now   func() time.Time
	// lastDraw is the line on screen (tty), lastShown what the last line
	// said (piped), to print nothing new when nothing changed.
	lastDraw, lastShown string
	// held is the latest update not shown (too soon after the last one):
	// end shows it, so that each stage's line ends on its last figures.
	held     bool
	heldDone int
	heldNote string
}

// defaultWidth is the width of progress lines when the terminal's is unknown.
const defaultWidth = 80

func newProgress(w io.Writer, quiet bool) *progress {
	p := &progress{w: w, quiet: quiet, width: defaultWidth, every: 5 * time.Second, now: time.Now}
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		p.tty, p.every = true, 100*time.Millisecond
		if cols, _, err := term.GetSize(int(f.Fd())); err == nil && cols > 20 {
			p.width = cols
		}
	}
	return p
}

// begin starts a stage of known (or, with 0, unknown) size.
func (p *progress) begin(stage string, total int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.stage, p.total, p.start, p.last, p.held = stage, total, p.now(), time.Time{}, false
}

// update reports done units (and a short note) of the current stage.
func (p *progress) update(done int, note string) {
	if p.quiet {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.now()
	if !p.last.IsZero() && now.Sub(p.last) < p.every && done != p.total {
		p.held, p.heldDone, p.heldNote = true, done, note
		return
	}
	p.draw(done, note, now)
}

// draw shows an update (p.mu held).
func (p *progress) draw(done int, note string, now time.Time) {
	p.last, p.held = now, false
	line := p.line(done, note, now.Sub(p.start))
	if !p.tty {
		if said := fmt.Sprint(p.stage, done, note); said != p.lastShown {
			p.lastShown = said
			io.WriteString(p.w, line+"\n")
		}
		return
	}
	p.lastDraw = "\r" + line + "\x1b[K"
	io.WriteString(p.w, p.lastDraw)
}

// line is the progress line of done units after elapsed, at most
// p.width-1 columns (the last column would wrap on some terminals): the
// bar goes first when room is short, then the rest from the end. A piped
// line has no bar.
func (p *progress) line(done int, note string, elapsed time.Duration) string {
	head := fmt.Sprintf("%-8s ", p.stage)
	count := fmt.Sprintf("%d", done)
	if p.total > 0 {
		count = fmt.Sprintf("%d/%d captures (%.0f%%)", done, p.total, 100*float64(done)/float64(p.total))
	}
	rate := float64(done) / max(elapsed.Seconds(), 1e-3)
	tail := fmt.Sprintf(" %.0f/s", rate)
	if p.total > 0 && done > 0 && done < p.total && elapsed >= time.Second {
		tail += " ETA " + formatETA(time.Duration(float64(p.total-done)/rate*float64(time.Second)))
	}
	room := p.width - 1
	s := head + count + " " + note + tail
	if p.total > 0 && p.tty {
		if barWidth := min(30, room-len(s)-3); barWidth >= 10 {
			fill := min(barWidth, done*barWidth/p.total)
			s = head + "[" + strings.Repeat("=", fill) + strings.Repeat(" ", barWidth-fill) + "] " + count + " " + note + tail
		}
	}
	if len(s) > room {
		s = strings.TrimRight(s[:room], " ")
	}
	return s
}

// formatETA is a remaining time to the second: 45s, 3m05s, 1h02m.
func formatETA(d time.Duration) string {
	d = d.Round(time.Second)
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
	}
	return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
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
	if p.held {
		p.draw(p.heldDone, p.heldNote, p.now())
	}
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
