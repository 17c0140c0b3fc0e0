package main

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"

	"github.com/urfave/cli/v2"
)

// profileOptions bound the memory of a run and write Go profiles of it,
// for finding where time and memory go.
type profileOptions struct {
	cpu, mem, limit string
}

func (o *profileOptions) flags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "cpuprofile", Destination: &o.cpu, Category: catRun,
			Usage: "write a CPU profile of the run to `FILE` (go tool pprof FILE)"},
		&cli.StringFlag{Name: "memprofile", Destination: &o.mem, Category: catRun,
			Usage: "write a heap profile at the end of the run to `FILE`"},
		&cli.StringFlag{Name: "memory-limit", Destination: &o.limit, Category: catRun, DefaultText: "168MiB",
			Usage: "collect garbage when the memory held reaches `SIZE` (300MiB, 2GiB); more if the run needs it"},
	}
}

// start starts what the flags ask for (an error is a usage error); the
// returned function stops the CPU profile and writes the heap profile,
// saying on stderr what went wrong, and restores the memory settings.
func (o *profileOptions) start(stderr io.Writer) (func(), error) {
	stopLimit, err := startMemoryLimit(o.limit, stderr)
	if err != nil {
		return nil, err
	}
	var cpu *os.File
	if o.cpu != "" {
		f, err := os.Create(o.cpu)
		if err != nil {
			stopLimit()
			return nil, usagef("--cpuprofile: %w", err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			f.Close()
			stopLimit()
			return nil, usagef("--cpuprofile: %w", err)
		}
		cpu = f
	}
	return func() {
		defer stopLimit()
		if cpu != nil {
			pprof.StopCPUProfile()
			cpu.Close()
		}
		if o.mem == "" {
			return
		}
		f, err := os.Create(o.mem)
		if err != nil {
			fmt.Fprintln(stderr, "offtopic: --memprofile:", err)
			return
		}
		defer f.Close()
		runtime.GC()
		if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
			fmt.Fprintln(stderr, "offtopic: --memprofile:", err)
		}
	}, nil
}
