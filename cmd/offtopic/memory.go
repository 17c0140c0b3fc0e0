package main

import (
	"fmt"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"time"
)

// defaultMemoryLimit is the soft limit --memory-limit sets when not given:
// what a run over any collection should hold (its index, digests and
// extracted text spill to disk; its caches are bounded by bytes), with room
// for the pages being read.
const defaultMemoryLimit = 176 << 20

// liveHeadroom is how far the limit is kept above the live heap when the
// live heap outgrows the limit: half of it, as GOGC=50 would.
const liveHeadroom = 0.5

// memoryWatch is how often the limit is checked against the live heap.
const memoryWatch = 100 * time.Millisecond

// startMemoryLimit runs the garbage collector against a soft memory limit
// (limit, a GOMEMLIMIT-style size such as "300MiB"; "" for
// defaultMemoryLimit) instead of a fixed heap growth: it collects when the
// memory the program holds reaches the limit, so that a run whose live
// heap is small collects rarely however much it allocates, and a page
// whose buffers are large does not double the peak. When the live heap
// grows past the limit, the limit follows it (liveHeadroom above), so that
// a run that must hold more slows down a little rather than collecting
// without end. When limit is "" and GOGC or GOMEMLIMIT is set, the
// runtime is left as they set it. The returned function restores the
// settings before.
func startMemoryLimit(limit string) (func(), error) {
	floor := int64(defaultMemoryLimit)
	if limit != "" {
		n, err := parseSize(limit)
		if err != nil {
			return nil, usagef("--memory-limit: %w", err)
		}
		floor = n
	} else if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return func() {}, nil
	}
	oldPercent := debug.SetGCPercent(-1)
	oldLimit := debug.SetMemoryLimit(floor)
	done, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		t := time.NewTicker(memoryWatch)
		defer t.Stop()
		sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		set := floor
		for {
			select {
			case <-done:
				return
			case <-t.C:
			}
			metrics.Read(sample)
			if sample[0].Value.Kind() != metrics.KindUint64 {
				continue
			}
			live := int64(sample[0].Value.Uint64())
			if want := max(floor, live+int64(float64(live)*liveHeadroom)); want != set {
				debug.SetMemoryLimit(want)
				set = want
			}
		}
	}()
	return func() {
		close(done)
		<-stopped
		debug.SetMemoryLimit(oldLimit)
		debug.SetGCPercent(oldPercent)
	}, nil
}

// parseSize reads a size as GOMEMLIMIT writes it: a number of bytes with
// an optional unit B, KiB, MiB, GiB or TiB.
func parseSize(s string) (int64, error) {
	s = strings.TrimSpace(s)
	units := []struct {
		suffix string
		shift  uint
	}{{"TiB", 40}, {"GiB", 30}, {"MiB", 20}, {"KiB", 10}, {"B", 0}}
	shift := uint(0)
	for _, u := range units {
		if strings.HasSuffix(s, u.suffix) {
			s, shift = strings.TrimSuffix(s, u.suffix), u.shift
			break
		}
	}
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil || n <= 0 || n > 1<<(62-shift) {
		return 0, fmt.Errorf("%q is not a size (like 300MiB or 2GiB)", s)
	}
	return n << shift, nil
}
