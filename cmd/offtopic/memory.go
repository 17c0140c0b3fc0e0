package main

import (
	"fmt"
	"io"
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
const defaultMemoryLimit = 168 << 20

// liveHeadroom is how far the limit is kept above the live heap when the
// live heap outgrows two thirds of the limit: half of it again, as GOGC=50
// would, so that the peak stays near the live heap (a larger headroom
// collects less often: on a collection of framesets whose live heap is
// some 360 MB, 1.0 took 17 CPU-s and 813 MB, 0.5 21 CPU-s and 547 MB).
const liveHeadroom = 0.5

// memoryWatch is how often the limit is checked against the live heap.
const memoryWatch = 100 * time.Millisecond

// ceilingShare is the share of the memory the system gives a process
// (memoryCeiling) past which a run stops, as having run out of memory,
// before the system refuses memory to it (which Go reports as a fatal
// error, exit status 2, the status of a bad command line) or kills it.
const ceilingShare = 0.9

// startMemoryLimit runs the garbage collector against a soft memory limit
// (limit, a GOMEMLIMIT-style size such as "300MiB"; "" for
// defaultMemoryLimit) instead of a fixed heap growth: it collects when the
// memory the program holds reaches the limit, so that a run whose live
// heap is small collects rarely however much it allocates, and a page
// whose buffers are large does not double the peak. When the live heap
// grows past two thirds of the limit, the limit follows it (liveHeadroom
// above), so that a run that must hold more slows down a little rather
// than collecting without end. A run that comes to hold ceilingShare of the memory the
// system gives it stops, saying so on stderr, with exit status 1. When
// limit is "" and GOGC or GOMEMLIMIT is set, the runtime is left as they
// set it (and so is the ceiling). The returned function restores the
// settings before.
func startMemoryLimit(limit string, stderr io.Writer) (func(), error) {
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
		sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/memory/classes/total:bytes"}}
		set := floor
		ceiling := int64(float64(memoryCeiling()) * ceilingShare)
		for {
			select {
			case <-done:
				return
			case <-t.C:
			}
			metrics.Read(sample)
			if sample[0].Value.Kind() != metrics.KindUint64 || sample[1].Value.Kind() != metrics.KindUint64 {
				continue
			}
			if err := overCeiling(int64(sample[1].Value.Uint64()), ceiling); err != nil {
				fmt.Fprintln(stderr, "offtopic:", err)
				os.Exit(exitFailed)
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

// overCeiling says that the run is out of memory when the memory it holds
// (held) is past ceiling (ceilingShare of what the system gives it, 0:
// unknown).
func overCeiling(held, ceiling int64) error {
	if ceiling <= 0 || held <= ceiling {
		return nil
	}
	return fmt.Errorf("out of memory: the run holds %d MiB, over %.0f%% of the %d MiB the system gives it",
		held>>20, 100*ceilingShare, int64(float64(ceiling)/ceilingShare)>>20)
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
