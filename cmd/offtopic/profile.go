package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"

	"github.com/urfave/cli/v2"
)

// profileFlags write Go profiles of a run, for finding where time and memory go.
func profileFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "cpuprofile", Usage: "write a CPU profile of the run to `FILE` (go tool pprof FILE)"},
		&cli.StringFlag{Name: "memprofile", Usage: "write a heap profile (allocations and what is live) at the end of the run to `FILE`"},
	}
}

// startProfiles starts what the profile flags ask for; the returned function
// stops the CPU profile and writes the heap profile.
func startProfiles(c *cli.Context) (func(), error) {
	var cpu *os.File
	if p := c.String("cpuprofile"); p != "" {
		f, err := os.Create(p)
		if err != nil {
			return nil, fmt.Errorf("--cpuprofile: %w", err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			f.Close()
			return nil, fmt.Errorf("--cpuprofile: %w", err)
		}
		cpu = f
	}
	return func() {
		if cpu != nil {
			pprof.StopCPUProfile()
			cpu.Close()
		}
		if p := c.String("memprofile"); p != "" {
			f, err := os.Create(p)
			if err != nil {
				fmt.Fprintln(c.App.ErrWriter, "offtopic: --memprofile:", err)
				return
			}
			defer f.Close()
			runtime.GC()
			if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
				fmt.Fprintln(c.App.ErrWriter, "offtopic: --memprofile:", err)
			}
		}
	}, nil
}
