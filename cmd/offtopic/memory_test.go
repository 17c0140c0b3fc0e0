package main

import (
	"io"
	"runtime/debug"
	"strings"
	"testing"
)

func TestParseSize(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
	}{
		{"300MiB", 300 << 20}, {"2GiB", 2 << 30}, {"512KiB", 512 << 10}, {"1000000", 1000000}, {" 64 MiB ", 64 << 20},
		{"1TiB", 1 << 40}, {"4096B", 4096},
		{"", 0}, {"MiB", 0}, {"-5MiB", 0}, {"0", 0}, {"3MB", 0}, {"1.5GiB", 0}, {"9999999999TiB", 0},
	} {
		got, err := parseSize(c.in)
		if c.want == 0 && err == nil || c.want != 0 && (err != nil || got != c.want) {
			t.Errorf("parseSize(%q) = %d, %v; want %d", c.in, got, err, c.want)
		}
	}
}

// TestMemoryLimit: the run collects against the limit, not a heap growth,
// and the settings before are restored.
func TestMemoryLimit(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	before := debug.SetGCPercent(150)
	defer debug.SetGCPercent(before)
	beforeLimit := debug.SetMemoryLimit(-1)
	stop, err := startMemoryLimit("300MiB", io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if p := debug.SetGCPercent(-1); p != -1 {
		t.Errorf("GC percent %d during the run, want -1 (off)", p)
	}
	if l := debug.SetMemoryLimit(-1); l != 300<<20 {
		t.Errorf("memory limit %d during the run, want %d", l, 300<<20)
	}
	stop()
	if p := debug.SetGCPercent(-1); p != 150 {
		t.Errorf("GC percent %d after the run, want 150", p)
	}
	debug.SetGCPercent(150)
	if l := debug.SetMemoryLimit(-1); l != beforeLimit {
		t.Errorf("memory limit %d after the run, want %d", l, beforeLimit)
	}
	if _, err := startMemoryLimit("lots", io.Discard); err == nil {
		t.Error("--memory-limit lots accepted")
	}
	t.Setenv("GOGC", "100")
	stop, err = startMemoryLimit("", io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if p := debug.SetGCPercent(150); p != 150 {
		t.Errorf("GC percent %d with GOGC set, want it left alone (150)", p)
	}
	stop()
}

func TestOverCeiling(t *testing.T) {
	if overCeiling(900<<20, 0) != nil || overCeiling(900<<20, 1<<30) != nil {
		t.Error("out of memory under the ceiling, or without one")
	}
	err := overCeiling(3<<30, 2<<30)
	if err == nil || !strings.Contains(err.Error(), "out of memory: the run holds 3072 MiB") {
		t.Errorf("over the ceiling: %v", err)
	}
	if memoryCeiling() < 0 {
		t.Error("a negative ceiling")
	}
}
