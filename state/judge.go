package state

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"hash"
	"os"
	"slices"
	"time"

	"github.com/offtopic/offtopic/similarity"
	"github.com/offtopic/offtopic/timemap"
)

// findDirty reads every TimeMap of the index once, fingerprints it and
// marks the TimeMaps to judge again: those new or changed, every TimeMap
// of a collection one of whose TimeMaps changed (its model changed), and
// those whose replay leads into a TimeMap judged again or gone, until
// nothing more changes.
func (r *Run) findDirty(ctx context.Context) error {
	var err error
	if r.stored, err = r.w.timeMaps(); err != nil {
		return err
	}
	r.cur, r.direct = map[string]*currentTimeMap{}, map[string]bool{}
	h := sha256.New()
	for tm, err := range r.idx.TimeMaps(ctx) {
		if err != nil {
			return err
		}
		r.cur[tm.Key] = &currentTimeMap{collection: r.collectionOf(tm), fp: fingerprint(h, tm)}
	}
	changed := map[string]bool{} // judged again or gone
	dirtyColl := map[string]bool{}
	for key, st := range r.stored {
		if _, ok := r.cur[key]; !ok {
			r.removed = append(r.removed, key)
			changed[key], dirtyColl[st.collection] = true, true
		}
	}
	slices.Sort(r.removed)
	for key, c := range r.cur {
		if st, ok := r.stored[key]; !ok || string(st.fp) != string(c.fp) || st.collection != c.collection {
			c.dirty, changed[key], dirtyColl[c.collection] = true, true, true
			r.direct[key] = true
		}
	}
	r.spread(changed, dirtyColl)
	return nil
}

// dirtyFromNew marks the TimeMaps to judge again when files were only
// added: those the new files touch, every TimeMap of their collections (and
// of the collections of the new files) and those whose replay leads into
// one judged again; then it notes which TimeMaps need their documents: those
// and where their replay leads.
func (r *Run) dirtyFromNew() error {
	r.cur, r.direct = map[string]*currentTimeMap{}, r.touched
	for key, st := range r.stored {
		r.cur[key] = &currentTimeMap{collection: st.collection, fp: st.fp}
	}
	changed, dirtyColl := map[string]bool{}, map[string]bool{}
	for coll := range r.newColls {
		dirtyColl[coll] = true
	}
	for key := range r.touched {
		c := r.cur[key]
		if c == nil {
			c = &currentTimeMap{}
			r.cur[key] = c
		} else {
			dirtyColl[c.collection] = true
		}
		c.dirty, changed[key] = true, true
	}
	r.spread(changed, dirtyColl)
	var noted []string
	for key, c := range r.cur {
		if !c.dirty {
			continue
		}
		noted = append(noted, key)
		if st := r.stored[key]; st != nil {
			noted = append(noted, st.refs...)
		}
	}
	return r.w.noteKeys(noted)
}

// spread marks dirty every TimeMap of a collection in dirtyColl and every
// TimeMap whose replay leads into one changed, until nothing more changes.
func (r *Run) spread(changed, dirtyColl map[string]bool) {
	for more := true; more; {
		more = false
		for key, c := range r.cur {
			if c.dirty {
				continue
			}
			if !dirtyColl[c.collection] && !slices.ContainsFunc(r.stored[key].refs, func(t string) bool { return changed[t] }) {
				continue
			}
			c.dirty, changed[key], dirtyColl[c.collection], more = true, true, true, true
		}
	}
}

// collectionOf is the collection whose model judges tm (as
// similarity.Config.EachCollection has it).
func (r *Run) collectionOf(tm *timemap.TimeMap) string {
	if !r.opts.EachCollection || len(tm.Captures) == 0 {
		return ""
	}
	return timemap.ArchiveItCollection(tm.Captures[0].Loc.File)
}

// fingerprint is a digest of everything of tm that scoring reads but the
// notes: every field of every capture. A note is made of its record, which
// the file's identity covers, under the settings, which the state's
// settings cover.
func fingerprint(h hash.Hash, tm *timemap.TimeMap) []byte {
	h.Reset()
	var n [8]byte
	str := func(s string) {
		binary.LittleEndian.PutUint64(n[:], uint64(len(s)))
		h.Write(n[:])
		h.Write([]byte(s))
	}
	num := func(v int64) {
		binary.LittleEndian.PutUint64(n[:], uint64(v))
		h.Write(n[:])
	}
	loc := func(l timemap.Location) {
		str(l.File)
		num(l.Offset)
		num(l.Length)
		num(l.MemberOffset)
	}
	str(tm.Key)
	str(tm.URIR)
	str(tm.URIT)
	for i := range tm.Captures {
		c := &tm.Captures[i]
		str(c.Key)
		str(c.URIR)
		str(c.Time.Format(time.RFC3339Nano))
		num(int64(c.Status))
		str(c.MIME)
		str(c.Digest)
		num(c.Length)
		loc(c.Loc)
		loc(c.Payload)
		if c.Revisit {
			num(1)
		} else {
			num(0)
		}
		str(c.URIM)
		str(c.Error)
	}
	return h.Sum(nil)
}

// Judge runs detection: the TimeMaps to judge again go through
// similarity.Detect (their documents from the state or the files just
// read, the others' where replay leads into them), the results of the rest
// come from the state, and emit hears every TimeMap's result in key order,
// as from one run over all the files. With nothing new, every result comes
// from the state.
func (r *Run) Judge(ctx context.Context, cfg similarity.Config, emit func(*similarity.TimeMapResult) error) (similarity.Stats, error) {
	m := &merge{r: r, emit: emit}
	rows, err := r.w.results(ctx)
	if err != nil {
		return m.stats, err
	}
	m.rows = rows
	defer rows.Close()
	if r.unchanged {
		err = m.flush("")
		r.info.TimeMaps, r.info.Captures = m.stats.TimeMaps, m.stats.Captures
		return m.stats, err
	}
	dirty := 0
	for _, c := range r.cur {
		if c.dirty {
			dirty++
		}
	}
	if dirty > 0 {
		cfg.Others = r.idx
		cfg.Prepared = r.prepared
		src := timemap.FilterKeys(r.idx, func(k string) bool { c := r.cur[k]; return c != nil && c.dirty })
		st, err := similarity.Detect(ctx, src, cfg, m.judged)
		m.stats.Failed, m.stats.Partial = st.Failed, st.Partial
		if err != nil {
			return m.stats, err
		}
	}
	if err := m.flush(""); err != nil {
		return m.stats, err
	}
	r.info.Rejudged = dirty
	r.info.TimeMaps, r.info.Captures = m.stats.TimeMaps, m.stats.Captures
	if r.opts.EachCollection {
		colls := map[string]bool{}
		for _, c := range r.cur {
			colls[c.collection] = true
		}
		m.stats.Collections = len(colls)
	}
	return m.stats, nil
}

// prepared notes a judged TimeMap's collection, fingerprint and where its
// replay leads.
func (r *Run) prepared(in *similarity.Input) {
	fp := fingerprint(sha256.New(), in.TimeMap)
	var keys []string
	for _, ref := range in.Refs {
		if ref.Key != "" && ref.Key != in.TimeMap.Key {
			keys = append(keys, ref.Key)
		}
	}
	slices.Sort(keys)
	r.mu.Lock()
	r.refs[in.TimeMap.Key] = slices.Compact(keys)
	c := r.cur[in.TimeMap.Key]
	c.collection, c.fp = r.collectionOf(in.TimeMap), fp
	r.mu.Unlock()
}

// merge interleaves the stored results of the TimeMaps not judged again
// with those judged, in key order.
type merge struct {
	r    *Run
	emit func(*similarity.TimeMapResult) error
	rows interface {
		Next() bool
		Scan(...any) error
		Err() error
	}
	stats similarity.Stats
	// The stored row read and not emitted yet.
	pending bool
	key     string
	data    []byte
	done    bool
}

// flush emits the stored results of keys before upTo ("" for all) that are
// not judged again.
func (m *merge) flush(upTo string) error {
	for {
		if !m.pending {
			if m.done || !m.rows.Next() {
				m.done = true
				return m.rows.Err()
			}
			if err := m.rows.Scan(&m.key, &m.data); err != nil {
				return err
			}
			m.pending = true
		}
		if upTo != "" && m.key >= upTo {
			return nil
		}
		m.pending = false
		if !m.r.reused(m.key) {
			continue
		}
		res, err := decodeResult(m.data)
		if err != nil {
			return fmt.Errorf("stored result of %s: %w", m.key, err)
		}
		if err := m.out(res); err != nil {
			return err
		}
	}
}

// reused reports whether the stored result of key is this run's.
func (r *Run) reused(key string) bool {
	if r.unchanged {
		return true
	}
	c := r.cur[key]
	return c != nil && !c.dirty
}

// out counts and emits one result.
func (m *merge) out(res *similarity.TimeMapResult) error {
	on, off, ns := res.Counts()
	m.stats.TimeMaps++
	m.stats.Captures += len(res.Captures)
	m.stats.OnTopic += on
	m.stats.OffTopic += off
	m.stats.NotScored += ns
	return m.emit(res)
}

// judged records a TimeMap judged again and emits it after the stored ones
// before it.
func (m *merge) judged(res *similarity.TimeMapResult) error {
	if err := m.flush(res.Key); err != nil {
		return err
	}
	if err := m.r.record(res); err != nil {
		return err
	}
	return m.out(res)
}

// record stores a TimeMap judged again: its result, fingerprint and
// references, and its captures' verdicts, counting what is new and what
// changed into the run's figures and review.
func (r *Run) record(res *similarity.TimeMapResult) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	data := encodeResult(res)
	c := r.cur[res.Key]
	if err := r.w.putTimeMap(res.Key, &storedTimeMap{collection: c.collection, fp: c.fp, refs: r.refs[res.Key]}, r.id, data); err != nil {
		return err
	}
	r.review.Judged[res.Key] = true
	old, err := r.w.verdicts(res.Key)
	if err != nil {
		return err
	}
	// A TimeMap is new when none of its captures was known (State.Review
	// tells them so from the captures' runs).
	newTM := len(res.Captures) > 0
	for i := range res.Captures {
		cr := &res.Captures[i]
		k := similarity.KeyOf(cr)
		v := verdictRow{verdict: cr.Verdict, kind: string(cr.Kind), reason: cr.Reason, firstRun: r.id, changedRun: r.id}
		o, ok := old[k]
		if !ok && k.Key != res.Key {
			o, ok, err = r.w.verdict(k)
			if err != nil {
				return err
			}
		}
		newTM = newTM && !ok
		switch {
		case !ok:
			r.info.NewCaptures++
			r.review.New[k] = true
			if cr.Verdict == similarity.VerdictOff {
				r.info.NewOff++
			}
		case o.verdict != v.verdict:
			r.info.Changed++
			if !r.direct[res.Key] {
				r.info.ChangedByModel++
			}
			r.review.Changed[k] = o.verdict
			v.firstRun, v.was = o.firstRun, o.verdict
		case o.kind == v.kind && o.reason == v.reason:
			continue
		default:
			v.firstRun, v.changedRun, v.was = o.firstRun, o.changedRun, o.was
		}
		if err := r.w.putVerdict(k, v); err != nil {
			return err
		}
	}
	if newTM {
		r.info.NewTimeMaps++
		r.review.NewTimeMaps[res.Key] = true
	}
	return nil
}

// verdictRow is a capture's verdict as the state keeps it: since which run
// the capture is known, since which its verdict is what it is, and what
// it was before.
type verdictRow struct {
	verdict, kind, reason string
	firstRun, changedRun  int64
	was                   string
}

// Commit records the run: the files read whole and their entries, the
// TimeMaps gone, the outputs written (nil: those of the previous run stay,
// untouched) and the run's figures, in the transaction that holds the rest
// of the run. Call it once the outputs are in place.
func (r *Run) Commit(outputs []string) error {
	defer r.closeIndex()
	if r.w == nil {
		return fmt.Errorf("state %s: the run was aborted", r.s.path)
	}
	if err := r.commit(outputs); err != nil {
		r.Abort()
		return fmt.Errorf("state %s: %w", r.s.path, err)
	}
	r.w = nil
	return nil
}

func (r *Run) commit(outputs []string) error {
	if r.keepErr != nil {
		return r.keepErr
	}
	r.info.ID, r.info.Started, r.info.Files = r.id, r.started, len(r.files)
	var read []fileRow
	for i, f := range r.rows {
		if !r.fresh[i] {
			continue
		}
		if !r.whole[i] {
			// Read in part: read again next time.
			r.drop = append(r.drop, f.id)
			continue
		}
		f.captures = r.kept[i]
		read = append(read, f)
	}
	// Files replaced first: a file changed in place keeps its path.
	if err := r.w.dropFiles(r.drop); err != nil {
		return err
	}
	for _, f := range read {
		r.info.NewFiles++
		if err := r.w.putFile(f, r.id); err != nil {
			return err
		}
	}
	for _, key := range r.removed {
		if err := r.w.dropTimeMap(key); err != nil {
			return err
		}
	}
	if outputs != nil {
		if err := r.w.putOutputs(outputs); err != nil {
			return err
		}
	}
	if r.unchanged && r.info.TimeMaps == 0 {
		r.info.TimeMaps, r.info.Captures = r.prev.TimeMaps, r.prev.Captures
	}
	if err := r.w.putRun(r.info); err != nil {
		return err
	}
	if err := r.w.setMeta("settings", r.opts.Settings); err != nil {
		return err
	}
	return r.w.commit()
}

// statOutput is an output's size and modification time.
func statOutput(path string) (outputRow, error) {
	st, err := os.Stat(path)
	if err != nil {
		return outputRow{}, err
	}
	return outputRow{size: st.Size(), mtime: st.ModTime().UnixNano()}, nil
}
