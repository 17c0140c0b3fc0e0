//go:build !unix

package main

// peakRSS is unknown on this platform.
func peakRSS() int64 { return 0 }

// memoryCeiling is unknown on this platform.
func memoryCeiling() int64 { return 0 }
