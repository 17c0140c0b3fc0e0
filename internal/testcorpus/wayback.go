package testcorpus

import (
	"bufio"
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// RecordedWayback serves, with httptest, the answers a real Wayback gave:
// the files scripts/record-wayback wrote (status line, headers, body as
// served), {{ARCHIVE}} in them replaced by the server's URL. A request that
// was not recorded gets 404 and is counted in Unrecorded.
type RecordedWayback struct {
	*httptest.Server
	answers map[string]string // "path\tAccept-Datetime" -> file
	dir     string
	mu      sync.Mutex
	served  map[string]int
	missed  []string
}

// Pywb serves the answers of pywb 2.10 recorded in this package's
// testdata/pywb (collections "dev", the shared dev corpus, and "miss", three
// of its files with one of them gone from the archive).
func Pywb(tb testing.TB) *RecordedWayback {
	tb.Helper()
	_, file, _, _ := runtime.Caller(0)
	return Wayback(tb, filepath.Join(filepath.Dir(file), "testdata", "pywb"))
}

// Wayback serves the answers recorded in dir (see RecordedWayback); the
// server closes with tb.
func Wayback(tb testing.TB, dir string) *RecordedWayback {
	tb.Helper()
	w := &RecordedWayback{served: map[string]int{}}
	w.Load(tb, dir)
	w.Server = httptest.NewServer(http.HandlerFunc(w.serve))
	tb.Cleanup(w.Close)
	return w
}

// PywbStates serves the recordings of pywb in this package's
// testdata/pywb-<name>/<state>, starting with state 0: the same archive at
// several times (pywb-grow: collection "grow" not yet made, then with one
// file of the dev corpus, then with two). Load moves it on to another.
func PywbStates(tb testing.TB, name string) *RecordedWayback {
	tb.Helper()
	return Wayback(tb, PywbState(name, 0))
}

// PywbState is the directory of state n of PywbStates' recording name.
func PywbState(name string, n int) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "testdata", "pywb-"+name, strconv.Itoa(n))
}

// Load makes the server answer with the recording in dir from now on (the
// same archive at another time).
func (w *RecordedWayback) Load(tb testing.TB, dir string) {
	tb.Helper()
	idx, err := os.ReadFile(filepath.Join(dir, "index.tsv"))
	if err != nil {
		tb.Fatal(err)
	}
	answers := map[string]string{}
	for line := range strings.Lines(string(idx)) {
		f := strings.Split(strings.TrimRight(line, "\r\n"), "\t")
		if len(f) != 4 || f[0] != http.MethodGet {
			tb.Fatalf("%s/index.tsv: bad line %q", dir, line)
		}
		answers[f[1]+"\t"+f[2]] = f[3]
	}
	w.mu.Lock()
	w.answers, w.dir = answers, dir
	w.mu.Unlock()
}

// Served returns how many times the request path was answered.
func (w *RecordedWayback) Served(path string) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.served[path]
}

// Unrecorded returns the paths asked for that were not recorded.
func (w *RecordedWayback) Unrecorded() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.missed...)
}

func (w *RecordedWayback) serve(rw http.ResponseWriter, r *http.Request) {
	p := r.URL.RequestURI()
	w.mu.Lock()
	name, ok := w.answers[p+"\t"+r.Header.Get("Accept-Datetime")]
	if !ok {
		name, ok = w.answers[p+"\t"]
	}
	dir := w.dir
	if ok {
		w.served[p]++
	} else {
		w.missed = append(w.missed, p)
	}
	w.mu.Unlock()
	if !ok {
		http.Error(rw, "not recorded: "+p, http.StatusNotFound)
		return
	}
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		http.Error(rw, err.Error(), http.StatusInternalServerError)
		return
	}
	b = bytes.ReplaceAll(b, []byte("{{ARCHIVE}}"), []byte(w.URL))
	resp, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(b)), r)
	if err != nil {
		http.Error(rw, name+": "+err.Error(), http.StatusInternalServerError)
		return
	}
	body, _ := io.ReadAll(resp.Body)
	for k, vs := range resp.Header {
		rw.Header()[k] = vs
	}
	rw.Header().Set("Content-Length", strconv.Itoa(len(body)))
	rw.WriteHeader(resp.StatusCode)
	rw.Write(body)
}
