package crawl

import (
	"github.com/offtopic/offtopic/timemap"
)

// SelectSnapshot picks the capture of a URL to collect: among the successful
// (2xx) captures that have a payload, the earliest captured inside the event
// span, else the one captured closest to the span (the earlier on a tie).
// It returns false when no capture is usable.
func SelectSnapshot(captures []timemap.Capture, ev Event) (timemap.Capture, bool) {
	var best timemap.Capture
	found := false
	for _, c := range captures {
		if c.Status/100 != 2 && c.Status != 0 || c.Payload.IsZero() && c.Loc.IsZero() && c.URIM == "" {
			continue
		}
		if !found {
			best, found = c, true
			continue
		}
		db, dc := ev.distance(best.Time), ev.distance(c.Time)
		switch {
		case dc < db:
			best = c
		case dc == db && dc == 0 && c.Time.Before(best.Time):
			best = c
		case dc == db && c.Time.Before(best.Time):
			best = c
		}
	}
	return best, found
}
