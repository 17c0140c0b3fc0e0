package timemap

import (
	"cmp"
	"slices"
	"strings"
)

// The one TimeMap builder. Every source (the WARC/ARC Index, the CDX/CDXJ
// index, the map-line source of reduce, and Beam through Build) groups its
// captures by key and hands each group here, so that the same captures make
// the same TimeMap whatever they were read from.
//
// Order within a TimeMap: by capture time, ties by the record's location
// (file name, then offset), then by input order. Location rather than input
// order alone, because the sources see captures in different orders (map
// lines are sorted as text, WARCs by file and record).
//
// Revisit resolution: a revisit takes the payload of, in this order,
//  1. the earliest earlier non-revisit capture of the TimeMap with the same
//     payload digest;
//  2. the non-revisit capture of the TimeMap named by its
//     WARC-Refers-To-Target-URI and WARC-Refers-To-Date (WARC input only);
//  3. the collection's capture with that digest, where the source knows its
//     whole collection (the Index and the CDX index do; map lines were
//     resolved against their own file by map already).
// It inherits the original's status where it has none (0) and the
// original's media type where it has none ("" or "warc/revisit"): a revisit
// without an HTTP head (or a CDX line with "-") takes both, a revisit that
// recorded its own head (a 304, say) keeps what it recorded. An unresolved
// revisit keeps a zero Payload.

// builder makes TimeMaps from groups of entries with one key.
type builder struct {
	// canon canonicalises WARC-Refers-To-Target-URI to compare it with the key.
	canon CanonMode
	// collection finds a payload digest's original anywhere in the
	// collection (nil: the source knows no more than the TimeMap).
	collection func(digest string) (original, bool)
	// unresolved hears of each revisit left without a payload (may be nil).
	unresolved func(e *entry)
}

// Build makes a TimeMap of captures that share one key, ordered and with
// revisits resolved within them as every source does (see the comment at
// the top of build.go). The captures are copied; Build does not change them.
func Build(captures []Capture) *TimeMap {
	if len(captures) == 0 {
		return nil
	}
	group := make([]entry, len(captures))
	for i, c := range captures {
		group[i] = entry{C: c, Seq: uint64(i)}
	}
	return builder{}.build(group)
}

// cmpInTimeMap orders entries of one TimeMap: time, location, input order.
func cmpInTimeMap(a, b *entry) int {
	return cmp.Or(a.C.Time.Compare(b.C.Time), strings.Compare(a.C.Loc.File, b.C.Loc.File),
		cmp.Compare(a.C.Loc.Offset, b.C.Loc.Offset), cmp.Compare(a.Seq, b.Seq))
}

// build makes the TimeMap of one key's entries (sorting group in place).
func (b builder) build(group []entry) *TimeMap {
	slices.SortFunc(group, func(x, y entry) int { return cmpInTimeMap(&x, &y) })
	tm := &TimeMap{Key: group[0].C.Key, URIR: group[0].C.URIR, Captures: make([]Capture, len(group))}
	byDigest := make(map[string]int)
	for i := range group {
		e := &group[i]
		c := e.C
		d := normDigest(c.Digest)
		if !c.Revisit {
			if _, ok := byDigest[d]; !ok && d != "" {
				byDigest[d] = i
			}
			tm.Captures[i] = c
			continue
		}
		var o original
		found := false
		if j, ok := byDigest[d]; ok {
			o, found = originalOf(tm.Captures[j]), true
		} else if e.RefURI != "" && !e.RefDate.IsZero() && Canonicalize(e.RefURI, b.canon) == c.Key {
			for j := range i {
				if oc := tm.Captures[j]; !oc.Revisit && oc.Time.Equal(e.RefDate) {
					o, found = originalOf(oc), true
					break
				}
			}
		}
		if !found && d != "" && b.collection != nil {
			o, found = b.collection(d)
		}
		if found {
			c.Payload = o.loc
			if c.Status == 0 {
				c.Status = o.status
			}
			if c.MIME == "" || c.MIME == "warc/revisit" {
				c.MIME = o.mime
			}
		} else if b.unresolved != nil {
			b.unresolved(e)
		}
		tm.Captures[i] = c
	}
	return tm
}

func originalOf(c Capture) original {
	return original{loc: c.Payload, status: c.Status, mime: c.MIME}
}
