package crawl

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/offtopic/offtopic/timemap"
)

// Archive is what the crawler crawls: an archive that resolves a URL to its
// captures and reads one capture's HTTP response.
type Archive interface {
	// Resolve returns every capture of uri (canonicalised as the archive
	// does), ordered by time; none (and no error) when it was never archived.
	Resolve(ctx context.Context, uri string) ([]timemap.Capture, error)
	// Read returns the HTTP header and raw body of one capture.
	Read(ctx context.Context, c timemap.Capture) (http.Header, []byte, error)
}

// LocalArchive is an Archive over local WARC files and their CDXJ (or CDX)
// index, held in memory grouped by canonical key: lookups never scan WARCs.
// Memory grows with the number of captures (a few hundred bytes each).
type LocalArchive struct {
	byKey map[string][]timemap.Capture
	keys  []string
}

// OpenLocal opens the archive in dir (or the WARC files given as dir when it
// is a file): its index is indexPath when given, else dir/index.cdxj when
// present, else built from the WARC/ARC files by one scan.
func OpenLocal(ctx context.Context, dir, indexPath string, onError func(error)) (*LocalArchive, error) {
	st, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("archive: %w", err)
	}
	warcDir := dir
	if !st.IsDir() {
		warcDir = filepath.Dir(dir)
	}
	if indexPath == "" && st.IsDir() {
		for _, name := range []string{"index.cdxj", "index.cdx"} {
			if p := filepath.Join(dir, name); fileExists(p) {
				indexPath = p
				break
			}
		}
	}
	a := &LocalArchive{byKey: map[string][]timemap.Capture{}}
	add := func(tm *timemap.TimeMap) {
		a.byKey[tm.Key] = append(a.byKey[tm.Key], tm.Captures...)
	}
	if indexPath != "" {
		idx, err := timemap.OpenIndex([]string{indexPath}, timemap.CDXOptions{WARCDir: warcDir, OnError: onError})
		if err != nil {
			return nil, fmt.Errorf("archive index %s: %w", indexPath, err)
		}
		defer idx.Close()
		for tm, err := range idx.TimeMaps(ctx) {
			if err != nil {
				return nil, fmt.Errorf("archive index %s: %w", indexPath, err)
			}
			add(tm)
		}
	} else {
		var files []string
		if st.IsDir() {
			for _, pat := range []string{"*.warc.gz", "*.warc", "*.arc.gz", "*.arc"} {
				m, _ := filepath.Glob(filepath.Join(dir, pat))
				files = append(files, m...)
			}
		} else {
			files = []string{dir}
		}
		if len(files) == 0 {
			return nil, fmt.Errorf("archive %s: no index and no WARC/ARC files", dir)
		}
		sort.Strings(files)
		idx, err := timemap.BuildIndex(ctx, files, timemap.IndexOptions{OnError: onError})
		if err != nil {
			return nil, fmt.Errorf("archive %s: index: %w", dir, err)
		}
		defer idx.Close()
		for tm, err := range idx.TimeMaps(ctx) {
			if err != nil {
				return nil, fmt.Errorf("archive %s: index: %w", dir, err)
			}
			add(tm)
		}
	}
	if len(a.byKey) == 0 {
		return nil, fmt.Errorf("archive %s: no captures", dir)
	}
	for k, cs := range a.byKey {
		sort.SliceStable(cs, func(i, j int) bool { return cs[i].Time.Before(cs[j].Time) })
		a.keys = append(a.keys, k)
	}
	sort.Strings(a.keys)
	return a, nil
}

// NewLocalArchive is an Archive over captures already in memory (tests,
// other sources).
func NewLocalArchive(captures []timemap.Capture) *LocalArchive {
	a := &LocalArchive{byKey: map[string][]timemap.Capture{}}
	for _, c := range captures {
		k := timemap.Canonicalize(c.URIR, timemap.CanonSURT)
		c.Key = k
		if c.Payload.IsZero() {
			c.Payload = c.Loc
		}
		a.byKey[k] = append(a.byKey[k], c)
	}
	for k, cs := range a.byKey {
		sort.SliceStable(cs, func(i, j int) bool { return cs[i].Time.Before(cs[j].Time) })
		a.keys = append(a.keys, k)
	}
	sort.Strings(a.keys)
	return a
}

// Resolve implements Archive.
func (a *LocalArchive) Resolve(_ context.Context, uri string) ([]timemap.Capture, error) {
	return a.byKey[timemap.Canonicalize(uri, timemap.CanonSURT)], nil
}

// Read implements Archive: the payload is read by its location.
func (a *LocalArchive) Read(ctx context.Context, c timemap.Capture) (http.Header, []byte, error) {
	if c.Payload.IsZero() {
		return nil, nil, fmt.Errorf("read %s at %s: revisit without payload", c.URIR, c.Timestamp14())
	}
	return timemap.ReadPayload(ctx, c)
}

// Captures yields every HTML capture with status 200, one per distinct
// payload digest, in key order: the background corpus of the archive.
func (a *LocalArchive) Captures() []timemap.Capture {
	var out []timemap.Capture
	seen := map[string]bool{}
	for _, k := range a.keys {
		for _, c := range a.byKey[k] {
			if c.Revisit || c.Status/100 != 2 || !isHTML(c.MIME) {
				continue
			}
			d := c.Digest
			if d == "" {
				d = c.Payload.File + fmt.Sprint(c.Payload.Offset)
			}
			if seen[d] {
				continue
			}
			seen[d] = true
			out = append(out, c)
		}
	}
	return out
}

// Sample returns up to n URLs of the archive drawn at random (deterministic
// for a seed) among those with a successful HTML capture: a background of
// what the archive holds, for learning what is not about an event.
func (a *LocalArchive) Sample(n int, seed int64) []string {
	rng := rand.New(rand.NewPCG(uint64(seed), 0x6267))
	var out []string
	for _, i := range rng.Perm(len(a.keys)) {
		if len(out) == n {
			break
		}
		for _, c := range a.byKey[a.keys[i]] {
			if !c.Revisit && c.Status/100 == 2 && isHTML(c.MIME) {
				out = append(out, c.URIR)
				break
			}
		}
	}
	return out
}

// Len is the number of distinct canonical URLs in the archive.
func (a *LocalArchive) Len() int { return len(a.keys) }

func isHTML(mime string) bool {
	return mime == "" || strings.Contains(mime, "html") || mime == "text/plain" || mime == "unk"
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}
