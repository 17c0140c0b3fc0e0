package state

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	_ "modernc.org/sqlite" // the database/sql driver "sqlite", pure Go

	"github.com/offtopic/offtopic/report"
	"github.com/offtopic/offtopic/similarity"
	"github.com/offtopic/offtopic/timemap"
)

// format names the state's schema; a state of another format is refused.
const format = "offtopic-state/2"

// schema is the state's tables. Every table is readable with the sqlite3
// shell: document.doc is the only opaque column (extract's binary
// document, or a redirect's Location), apart from entry so that a run that
// needs the documents of a few TimeMaps reads only theirs.
const schema = `
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS run (
	id INTEGER PRIMARY KEY, started TEXT NOT NULL,
	files INTEGER, new_files INTEGER, captures INTEGER, new_captures INTEGER,
	timemaps INTEGER, new_timemaps INTEGER, rejudged INTEGER, changed INTEGER, new_off INTEGER);
CREATE TABLE IF NOT EXISTS file (
	id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, size INTEGER NOT NULL, mtime TEXT NOT NULL,
	head TEXT NOT NULL, run INTEGER NOT NULL, captures INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS entry (
	file INTEGER NOT NULL, record INTEGER NOT NULL,
	key TEXT NOT NULL, uri_r TEXT NOT NULL, time TEXT NOT NULL, status INTEGER NOT NULL, mime TEXT NOT NULL,
	digest TEXT NOT NULL, length INTEGER NOT NULL, offset INTEGER NOT NULL, loc_length INTEGER NOT NULL,
	member_offset INTEGER NOT NULL, revisit INTEGER NOT NULL, payload INTEGER NOT NULL,
	ref_uri TEXT NOT NULL, ref_date TEXT NOT NULL, doc INTEGER);
CREATE INDEX IF NOT EXISTS entry_file ON entry (file);
CREATE TABLE IF NOT EXISTS document (id INTEGER PRIMARY KEY, doc BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS timemap (
	key TEXT PRIMARY KEY, collection TEXT NOT NULL, fingerprint BLOB NOT NULL, refs TEXT NOT NULL,
	run INTEGER NOT NULL, result BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS capture (
	key TEXT NOT NULL, ts TEXT NOT NULL, verdict TEXT NOT NULL, kind TEXT NOT NULL, reason TEXT NOT NULL,
	first_run INTEGER NOT NULL, changed_run INTEGER NOT NULL, was TEXT NOT NULL,
	PRIMARY KEY (key, ts));
CREATE TABLE IF NOT EXISTS decision (
	key TEXT NOT NULL, ts TEXT NOT NULL, decision TEXT NOT NULL, who TEXT NOT NULL,
	decided TEXT NOT NULL, source TEXT NOT NULL, imported TEXT NOT NULL,
	PRIMARY KEY (key, ts));
CREATE TABLE IF NOT EXISTS output (path TEXT PRIMARY KEY, size INTEGER NOT NULL, mtime INTEGER NOT NULL);
`

// store is the state's database.
type store struct{ db *sql.DB }

// openStore opens (or creates) the database at path: write-ahead log,
// synced at each commit, so that a run killed at any point leaves the
// state as it was before the run or as after it.
func openStore(path string) (*store, error) {
	q := url.Values{}
	for _, p := range []string{"journal_mode(WAL)", "synchronous(FULL)", "busy_timeout(5000)", "foreign_keys(OFF)"} {
		q.Add("_pragma", p)
	}
	q.Set("_txlock", "immediate")
	db, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, err
	}
	// One connection: the run's transaction reads what it has not changed
	// and writes what it has, on it.
	db.SetMaxOpenConns(1)
	s := &store{db: db}
	if err := s.init(); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

func (s *store) init() error {
	if _, err := s.db.Exec(schema); err != nil {
		return err
	}
	var f string
	err := s.db.QueryRow(`SELECT value FROM meta WHERE name = 'format'`).Scan(&f)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		_, err = s.db.Exec(`INSERT INTO meta VALUES ('format', ?)`, format)
		return err
	case err != nil:
		return err
	case f != format:
		return fmt.Errorf("a state of format %q, this offtopic reads %q", f, format)
	}
	return nil
}

func (s *store) close() error { return s.db.Close() }

func (s *store) lastRun(ctx context.Context) (RunInfo, bool, error) {
	return scanRun(s.db.QueryRowContext(ctx, `SELECT `+runColumns+` FROM run ORDER BY id DESC LIMIT 1`))
}

const runColumns = `id, started, files, new_files, captures, new_captures, timemaps, new_timemaps, rejudged, changed, new_off`

func scanRun(row *sql.Row) (RunInfo, bool, error) {
	var r RunInfo
	var started string
	err := row.Scan(&r.ID, &started, &r.Files, &r.NewFiles, &r.Captures, &r.NewCaptures, &r.TimeMaps, &r.NewTimeMaps, &r.Rejudged, &r.Changed, &r.NewOff)
	if errors.Is(err, sql.ErrNoRows) {
		return r, false, nil
	}
	if err != nil {
		return r, false, err
	}
	r.Started, err = time.Parse(stamp, started)
	return r, true, err
}

// stamp is how the state writes the times it compares (runs, imports):
// fixed width, UTC, so that text order is time order.
const stamp = "2006-01-02T15:04:05.000000000Z"

// tx is a write transaction: a run's, from its start to its commit. Its
// statements are prepared once, at its start, and run for every file read
// and every TimeMap judged.
type tx struct {
	tx      *sql.Tx
	putOne  *sql.Stmt // entry insert
	putDoc  *sql.Stmt // document insert
	entries *sql.Stmt // entries of one file
	putTM   *sql.Stmt // a judged TimeMap's upsert
	// verdicts of a TimeMap's captures, of one capture, a verdict's upsert
	verdictsOf, verdictOf, putV *sql.Stmt
}

// The statements of tx.
const (
	putEntrySQL    = `INSERT INTO entry VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`
	putDocumentSQL = `INSERT INTO document (doc) VALUES (?)`
	entriesSQL     = `SELECT record, key, uri_r, time, status, mime, digest, length, offset, loc_length,
		member_offset, revisit, payload, ref_uri, ref_date,
		CASE WHEN doc IS NOT NULL AND (? OR key IN (SELECT key FROM temp.noted)) THEN (SELECT doc FROM document WHERE id = entry.doc) END
		FROM entry WHERE file = ?`
	putTimeMapSQL = `INSERT INTO timemap VALUES (?,?,?,?,?,?) ON CONFLICT (key) DO UPDATE SET
		collection = excluded.collection, fingerprint = excluded.fingerprint, refs = excluded.refs,
		run = excluded.run, result = excluded.result`
	verdictsSQL   = `SELECT ts, verdict, kind, reason, first_run, changed_run, was FROM capture WHERE key = ?`
	verdictSQL    = `SELECT verdict, kind, reason, first_run, changed_run, was FROM capture WHERE key = ? AND ts = ?`
	putVerdictSQL = `INSERT INTO capture VALUES (?,?,?,?,?,?,?,?) ON CONFLICT (key, ts) DO UPDATE SET
		verdict = excluded.verdict, kind = excluded.kind, reason = excluded.reason, first_run = excluded.first_run,
		changed_run = excluded.changed_run, was = excluded.was`
)

func (s *store) begin(ctx context.Context) (*tx, error) {
	// The keys whose documents a run recalls when not all are (temp: of
	// this connection, never in the file).
	if _, err := s.db.ExecContext(ctx, `CREATE TEMP TABLE IF NOT EXISTS noted (key TEXT PRIMARY KEY); DELETE FROM temp.noted`); err != nil {
		return nil, err
	}
	t, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	w := &tx{tx: t}
	for _, p := range []struct {
		stmt **sql.Stmt
		sql  string
	}{{&w.putOne, putEntrySQL}, {&w.putDoc, putDocumentSQL}, {&w.entries, entriesSQL},
		{&w.putTM, putTimeMapSQL}, {&w.verdictsOf, verdictsSQL}, {&w.verdictOf, verdictSQL}, {&w.putV, putVerdictSQL}} {
		if *p.stmt, err = t.Prepare(p.sql); err != nil {
			t.Rollback()
			return nil, err
		}
	}
	return w, nil
}

func (w *tx) rollback() { w.tx.Rollback() }

func (w *tx) commit() error { return w.tx.Commit() }

func (w *tx) meta(name string) (string, error) {
	var v string
	err := w.tx.QueryRow(`SELECT value FROM meta WHERE name = ?`, name).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return v, err
}

func (w *tx) setMeta(name, value string) error {
	_, err := w.tx.Exec(`INSERT INTO meta VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value`, name, value)
	return err
}

// forget drops what the state holds of files and TimeMaps (not verdicts,
// decisions or runs): after a change of settings, everything is read again.
func (w *tx) forget() error {
	_, err := w.tx.Exec(`DELETE FROM document; DELETE FROM entry; DELETE FROM file; DELETE FROM timemap; DELETE FROM output`)
	return err
}

// fileRow is a file as the state knows it.
type fileRow struct {
	id       int64
	path     string
	size     int64
	mtime    string
	head     string
	captures int
}

func (w *tx) files() (map[string]fileRow, error) {
	rows, err := w.tx.Query(`SELECT id, path, size, mtime, head, captures FROM file`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]fileRow{}
	for rows.Next() {
		var f fileRow
		if err := rows.Scan(&f.id, &f.path, &f.size, &f.mtime, &f.head, &f.captures); err != nil {
			return nil, err
		}
		out[f.path] = f
	}
	return out, rows.Err()
}

// newFileID reserves a file id above every one used.
func (w *tx) newFileID() (int64, error) {
	var id sql.NullInt64
	err := w.tx.QueryRow(`SELECT max(m) FROM (SELECT max(id) AS m FROM file UNION ALL SELECT max(file) FROM entry)`).Scan(&id)
	return id.Int64 + 1, err
}

func (w *tx) putFile(f fileRow, run int64) error {
	_, err := w.tx.Exec(`INSERT INTO file VALUES (?,?,?,?,?,?,?)`, f.id, f.path, f.size, f.mtime, f.head, run, f.captures)
	return err
}

// dropFiles removes files and their entries.
func (w *tx) dropFiles(ids []int64) error {
	for _, id := range ids {
		if _, err := w.tx.Exec(`DELETE FROM document WHERE id IN (SELECT doc FROM entry WHERE file = ?)`, id); err != nil {
			return err
		}
		if _, err := w.tx.Exec(`DELETE FROM entry WHERE file = ?`, id); err != nil {
			return err
		}
		if _, err := w.tx.Exec(`DELETE FROM file WHERE id = ?`, id); err != nil {
			return err
		}
	}
	return nil
}

func (w *tx) putEntry(file int64, e *timemap.Entry) error {
	c := &e.Capture
	var refDate string
	if !e.RefDate.IsZero() {
		refDate = e.RefDate.Format(time.RFC3339Nano)
	}
	var doc any // NULL: none
	if c.Note != "" {
		res, err := w.putDoc.Exec([]byte(c.Note))
		if err != nil {
			return err
		}
		if doc, err = res.LastInsertId(); err != nil {
			return err
		}
	}
	_, err := w.putOne.Exec(file, int64(e.Record), c.Key, c.URIR, c.Time.Format(time.RFC3339Nano), c.Status, c.MIME, c.Digest,
		c.Length, c.Loc.Offset, c.Loc.Length, c.Loc.MemberOffset, c.Revisit, !c.Payload.IsZero(), e.RefURI, refDate, doc)
	return err
}

// noteKeys says whose documents fileEntries(file, true) recalls.
func (w *tx) noteKeys(keys []string) error {
	put, err := w.tx.Prepare(`INSERT OR IGNORE INTO temp.noted VALUES (?)`)
	if err != nil {
		return err
	}
	defer put.Close()
	for _, k := range keys {
		if _, err := put.Exec(k); err != nil {
			return err
		}
	}
	return nil
}

// fileEntries reads the entries of a file (their Loc.File is set by the
// index to the path it is read under): with notedOnly, the documents of
// the keys noteKeys named only.
func (w *tx) fileEntries(file int64, notedOnly bool) ([]timemap.Entry, error) {
	rows, err := w.entries.Query(!notedOnly, file)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []timemap.Entry
	for rows.Next() {
		var e timemap.Entry
		c := &e.Capture
		var rec int64
		var at, refDate string
		var payload bool
		var doc []byte
		if err := rows.Scan(&rec, &c.Key, &c.URIR, &at, &c.Status, &c.MIME, &c.Digest, &c.Length, &c.Loc.Offset, &c.Loc.Length,
			&c.Loc.MemberOffset, &c.Revisit, &payload, &e.RefURI, &refDate, &doc); err != nil {
			return nil, err
		}
		e.Record = uint64(rec)
		if c.Time, err = time.Parse(time.RFC3339Nano, at); err != nil {
			return nil, err
		}
		if refDate != "" {
			if e.RefDate, err = time.Parse(time.RFC3339Nano, refDate); err != nil {
				return nil, err
			}
		}
		if payload {
			c.Payload = c.Loc
			c.Payload.File = "-" // set with Loc.File by the index
		}
		c.Note = string(doc)
		out = append(out, e)
	}
	return out, rows.Err()
}

// storedTimeMap is what the state keeps of a TimeMap besides its result.
type storedTimeMap struct {
	collection string
	fp         []byte
	refs       []string
}

func (w *tx) timeMaps() (map[string]*storedTimeMap, error) {
	rows, err := w.tx.Query(`SELECT key, collection, fingerprint, refs FROM timemap`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]*storedTimeMap{}
	for rows.Next() {
		var key, refs string
		st := &storedTimeMap{}
		if err := rows.Scan(&key, &st.collection, &st.fp, &refs); err != nil {
			return nil, err
		}
		if refs != "" {
			st.refs = strings.Split(refs, "\n")
		}
		out[key] = st
	}
	return out, rows.Err()
}

// results yields the stored results in key order.
func (w *tx) results(ctx context.Context) (*sql.Rows, error) {
	return w.tx.QueryContext(ctx, `SELECT key, result FROM timemap ORDER BY key`)
}

func (w *tx) putTimeMap(key string, st *storedTimeMap, run int64, result []byte) error {
	_, err := w.putTM.Exec(key, st.collection, st.fp, strings.Join(st.refs, "\n"), run, result)
	return err
}

func (w *tx) dropTimeMap(key string) error {
	if _, err := w.tx.Exec(`DELETE FROM timemap WHERE key = ?`, key); err != nil {
		return err
	}
	_, err := w.tx.Exec(`DELETE FROM capture WHERE key = ?`, key)
	return err
}

func (s *store) lastRunTx(w *tx) (RunInfo, bool, error) {
	return scanRun(w.tx.QueryRow(`SELECT ` + runColumns + ` FROM run ORDER BY id DESC LIMIT 1`))
}

func (w *tx) putRun(r RunInfo) error {
	_, err := w.tx.Exec(`INSERT INTO run VALUES (?,?,?,?,?,?,?,?,?,?,?)`, r.ID, r.Started.UTC().Format(stamp),
		r.Files, r.NewFiles, r.Captures, r.NewCaptures, r.TimeMaps, r.NewTimeMaps, r.Rejudged, r.Changed, r.NewOff)
	return err
}

// verdicts are the verdicts of the captures whose key is key.
func (w *tx) verdicts(key string) (map[similarity.GoldKey]verdictRow, error) {
	rows, err := w.verdictsOf.Query(key)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[similarity.GoldKey]verdictRow{}
	for rows.Next() {
		var ts string
		var v verdictRow
		if err := rows.Scan(&ts, &v.verdict, &v.kind, &v.reason, &v.firstRun, &v.changedRun, &v.was); err != nil {
			return nil, err
		}
		out[similarity.GoldKey{Key: key, TS: ts}] = v
	}
	return out, rows.Err()
}

func (w *tx) verdict(k similarity.GoldKey) (verdictRow, bool, error) {
	var v verdictRow
	err := w.verdictOf.QueryRow(k.Key, k.TS).
		Scan(&v.verdict, &v.kind, &v.reason, &v.firstRun, &v.changedRun, &v.was)
	if errors.Is(err, sql.ErrNoRows) {
		return v, false, nil
	}
	return v, err == nil, err
}

func (w *tx) putVerdict(k similarity.GoldKey, v verdictRow) error {
	_, err := w.putV.Exec(k.Key, k.TS, v.verdict, v.kind, v.reason, v.firstRun, v.changedRun, v.was)
	return err
}

// outputRow is an output file as a run left it.
type outputRow struct {
	size, mtime int64
}

func (w *tx) outputs() (map[string]outputRow, error) {
	rows, err := w.tx.Query(`SELECT path, size, mtime FROM output`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]outputRow{}
	for rows.Next() {
		var p string
		var o outputRow
		if err := rows.Scan(&p, &o.size, &o.mtime); err != nil {
			return nil, err
		}
		out[p] = o
	}
	return out, rows.Err()
}

func (w *tx) putOutputs(paths []string) error {
	if _, err := w.tx.Exec(`DELETE FROM output`); err != nil {
		return err
	}
	for _, p := range paths {
		o, err := statOutput(p)
		if err != nil {
			return err
		}
		if _, err := w.tx.Exec(`INSERT INTO output VALUES (?,?,?)`, absPath(p), o.size, o.mtime); err != nil {
			return err
		}
	}
	return nil
}

// decisions are the curator's decisions, by capture.
func (w *tx) decisions() (map[similarity.GoldKey]report.Decision, error) {
	return decisionsOf(w.tx.Query(`SELECT key, ts, decision, who, decided, source FROM decision`))
}

func decisionsOf(rows *sql.Rows, err error) (map[similarity.GoldKey]report.Decision, error) {
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[similarity.GoldKey]report.Decision{}
	for rows.Next() {
		var k similarity.GoldKey
		var d report.Decision
		var when string
		if err := rows.Scan(&k.Key, &k.TS, &d.Decision, &d.Who, &when, &d.From); err != nil {
			return nil, err
		}
		d.When, _ = time.Parse(stamp, when)
		out[k] = d
	}
	return out, rows.Err()
}

func (w *tx) decisionsSince(t time.Time) (bool, error) {
	var n int
	err := w.tx.QueryRow(`SELECT count(*) FROM decision WHERE imported >= ?`, t.UTC().Format(stamp)).Scan(&n)
	return n > 0, err
}

func (w *tx) putDecision(k similarity.GoldKey, d report.Decision, imported time.Time) error {
	_, err := w.tx.Exec(`INSERT INTO decision VALUES (?,?,?,?,?,?,?) ON CONFLICT (key, ts) DO UPDATE SET
		decision = excluded.decision, who = excluded.who, decided = excluded.decided, source = excluded.source,
		imported = excluded.imported`, k.Key, k.TS, d.Decision, d.Who, d.When.UTC().Format(stamp), d.From, imported.UTC().Format(stamp))
	return err
}

func (s *store) decisions(ctx context.Context) (map[similarity.GoldKey]report.Decision, error) {
	return decisionsOf(s.db.QueryContext(ctx, `SELECT key, ts, decision, who, decided, source FROM decision`))
}

func (s *store) contradictions(ctx context.Context) ([]Contradiction, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT d.key, d.ts, d.decision, d.who, d.decided, d.source, c.verdict,
		coalesce((SELECT started FROM run WHERE id = c.changed_run), '') > d.imported
		FROM decision d JOIN capture c ON c.key = d.key AND c.ts = d.ts
		WHERE d.decision IN (?, ?) AND c.verdict IN (?, ?) AND d.decision <> c.verdict ORDER BY d.key, d.ts`,
		report.DecisionOn, report.DecisionOff, similarity.VerdictOn, similarity.VerdictOff)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Contradiction
	for rows.Next() {
		var c Contradiction
		var when string
		if err := rows.Scan(&c.Key.Key, &c.Key.TS, &c.Decision.Decision, &c.Decision.Who, &when, &c.Decision.From, &c.Verdict, &c.Since); err != nil {
			return nil, err
		}
		c.Decision.When, _ = time.Parse(stamp, when)
		out = append(out, c)
	}
	return out, rows.Err()
}

// runStarted is the run that started at t, ok false when none did.
func (s *store) runStarted(ctx context.Context, t time.Time) (id int64, ok bool, err error) {
	err = s.db.QueryRowContext(ctx, `SELECT id FROM run WHERE started = ?`, t.UTC().Format(stamp)).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, false, nil
	}
	return id, err == nil, err
}

// startedOf is when the run id started, zero when there is no such run.
func (s *store) startedOf(ctx context.Context, id int64) (time.Time, error) {
	var started string
	err := s.db.QueryRowContext(ctx, `SELECT started FROM run WHERE id = ?`, id).Scan(&started)
	if errors.Is(err, sql.ErrNoRows) {
		return time.Time{}, nil
	}
	if err != nil {
		return time.Time{}, err
	}
	return time.Parse(stamp, started)
}

// judgedAfter reports whether a run after id judged TimeMaps again.
func (s *store) judgedAfter(ctx context.Context, id int64) (bool, error) {
	var n int
	err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM run WHERE id > ? AND rejudged > 0`, id).Scan(&n)
	return n > 0, err
}

// changedIn yields the captures whose verdict the run id set (first seen
// or changed): first is the run that first saw it, was the verdict it had.
func (s *store) changedIn(ctx context.Context, id int64, yield func(k similarity.GoldKey, first int64, was string)) error {
	rows, err := s.db.QueryContext(ctx, `SELECT key, ts, first_run, was FROM capture WHERE changed_run = ?`, id)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var k similarity.GoldKey
		var first int64
		var was string
		if err := rows.Scan(&k.Key, &k.TS, &first, &was); err != nil {
			return err
		}
		yield(k, first, was)
	}
	return rows.Err()
}

// judgedIn yields the TimeMaps the run id judged, with their results.
func (s *store) judgedIn(ctx context.Context, id int64, yield func(key string, result []byte) error) error {
	rows, err := s.db.QueryContext(ctx, `SELECT key, result FROM timemap WHERE run = ?`, id)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var key string
		var result []byte
		if err := rows.Scan(&key, &result); err != nil {
			return err
		}
		if err := yield(key, result); err != nil {
			return err
		}
	}
	return rows.Err()
}
