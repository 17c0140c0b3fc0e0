package main

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// TestProgressLineFits (issue 24 item 7): on a terminal a progress line
// fits the width, with an ETA once the rate is known.
func TestProgressLineFits(t *testing.T) {
	for _, tc := range []struct {
		width, total, done int
		elapsed            time.Duration
		eta                string
	}{
		{80, 5510, 2755, 10 * time.Second, "ETA 10s"},
		{80, 5510, 12, 5 * time.Millisecond, ""},
		{40, 5510, 1000, 2 * time.Second, ""},
		{200, 100, 1, time.Minute, "ETA 1h39m"},
		{80, 0, 300, time.Second, ""},
		{80, 5510, 5510, time.Second, ""},
	} {
		p := &progress{tty: true, width: tc.width, stage: "extract", total: tc.total}
		line := p.line(tc.done, "614 TimeMaps", tc.elapsed)
		if len(line) > tc.width-1 {
			t.Errorf("%d columns: line of %d: %q", tc.width, len(line), line)
		}
		if hasETA := strings.Contains(line, "ETA"); tc.eta != "" && !strings.Contains(line, tc.eta) || tc.eta == "" && hasETA && tc.width > 60 {
			t.Errorf("%+v: %q, want ETA %q", tc, line, tc.eta)
		}
	}
}

// TestProgressPipedOnlyChanges: piped, progress says nothing new when
// nothing changed, however long the wait.
func TestProgressPipedOnlyChanges(t *testing.T) {
	var b bytes.Buffer
	now := time.Unix(0, 0)
	p := &progress{w: &b, width: 80, every: 5 * time.Second, now: func() time.Time { return now }}
	p.begin("index", 0)
	for i := range 10 {
		p.update(0, "captures, 0/75 files")
		now = now.Add(6 * time.Second)
		if i == 5 {
			p.update(40, "captures, 1/75 files")
			now = now.Add(6 * time.Second)
		}
	}
	if got := strings.Count(b.String(), "\n"); got != 3 {
		t.Errorf("%d lines, want 3 (0, 40, 0 again):\n%s", got, b.String())
	}
	if strings.Contains(b.String(), "\r") || strings.Contains(b.String(), "[") {
		t.Errorf("piped progress redraws or draws a bar:\n%s", b.String())
	}
}

// TestProgressEndShowsLast: a stage ends on its last figures, also when
// they came too soon after the line before to be shown then.
func TestProgressEndShowsLast(t *testing.T) {
	var b bytes.Buffer
	now := time.Unix(0, 0)
	p := &progress{w: &b, width: 80, every: 5 * time.Second, now: func() time.Time { return now }}
	p.begin("extract", 0)
	p.update(1, "1 TimeMaps")
	now = now.Add(time.Second)
	p.update(50, "9 TimeMaps")
	if strings.Contains(b.String(), "50") {
		t.Fatalf("shown too soon:\n%s", b.String())
	}
	p.end()
	p.end() // nothing more to show
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[1], "extract  50 9 TimeMaps") {
		t.Errorf("lines %q, want the first update and the last", lines)
	}
}
