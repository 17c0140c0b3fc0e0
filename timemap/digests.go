package timemap

import (
	"hash/fnv"
)

// digestKey is the 128-bit FNV-1a hash of a payload digest (normalised by
// normDigest, as every caller has it): a
// fixed-size map key, so that the digest map holds no strings (two digests
// colliding among 10^12 has a probability below 10^-14).
type digestKey [16]byte

func keyOf(digest string) digestKey {
	h := fnv.New128a()
	h.Write([]byte(digest))
	var k digestKey
	h.Sum(k[:0])
	return k
}

// packedOriginal is an original without pointers: file and media type are
// indexes into the map's tables.
type packedOriginal struct {
	offset, length, member int64
	rank                   int64
	file, mime             uint32
	status                 int32
}

// digestMap maps payload digests to the original record holding each
// payload, to resolve revisits across TimeMaps. It is the one part of an
// index that grows with the collection's distinct payloads, so it stores
// about 70 bytes per digest: a hashed key, offsets and small-integer
// references to interned file names and media types. It is not safe for
// concurrent use.
type digestMap struct {
	m       map[digestKey]packedOriginal
	files   []string
	fileIdx map[string]uint32
	mimes   []string
	mimeIdx map[string]uint32
}

func newDigestMap() *digestMap {
	return &digestMap{m: make(map[digestKey]packedOriginal), fileIdx: make(map[string]uint32), mimeIdx: make(map[string]uint32)}
}

func intern(tab *[]string, idx map[string]uint32, s string) uint32 {
	if i, ok := idx[s]; ok {
		return i
	}
	i := uint32(len(*tab))
	*tab = append(*tab, s)
	idx[s] = i
	return i
}

// add records o as the original of digest unless one of lower rank (earlier
// in the order the caller defines) is there already; on equal ranks the
// first added stays.
func (d *digestMap) add(digest string, o original, rank int64) {
	k := keyOf(digest)
	if old, ok := d.m[k]; ok && old.rank <= rank {
		return
	}
	d.m[k] = packedOriginal{
		offset: o.loc.Offset, length: o.loc.Length, member: o.loc.MemberOffset, rank: rank,
		file:   intern(&d.files, d.fileIdx, o.loc.File),
		mime:   intern(&d.mimes, d.mimeIdx, o.mime),
		status: int32(o.status),
	}
}

// get returns the original recorded for digest.
func (d *digestMap) get(digest string) (original, bool) {
	if d == nil {
		return original{}, false
	}
	p, ok := d.m[keyOf(digest)]
	if !ok {
		return original{}, false
	}
	return original{
		loc:    Location{File: d.files[p.file], Offset: p.offset, Length: p.length, MemberOffset: p.member},
		status: int(p.status),
		mime:   d.mimes[p.mime],
	}, true
}

// len returns the number of digests recorded.
func (d *digestMap) len() int { return len(d.m) }
