package similarity

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
)

// ModelFile is a collection model's statistics as a file: written once by a
// model step, read by every shard, reducer or worker that scores a part of
// the collection. Statistics files of parts (ModelStats lines) merge into one.
type ModelFile struct {
	// Format names the file's format and version.
	Format string `json:"format"`
	// MinT0Words and Canonicalize are the settings the statistics were
	// gathered with; a run scoring against the model must use the same.
	MinT0Words   int         `json:"min_t0_words"`
	Canonicalize string      `json:"canonicalize"`
	Stats        *ModelStats `json:"stats"`
}

// ModelFormat is the Format of the model files this version writes.
const ModelFormat = "offtopic-model/1"

// WriteModelFile writes m as one line of JSON, gzipped when gz is set.
func WriteModelFile(w io.Writer, m *ModelFile, gz bool) error {
	m.Format = ModelFormat
	if gz {
		zw := gzip.NewWriter(w)
		if err := json.NewEncoder(zw).Encode(m); err != nil {
			return err
		}
		return zw.Close()
	}
	return json.NewEncoder(w).Encode(m)
}

// ReadModelFiles reads every model file (or line of partial statistics) in r,
// gzipped or not, and merges them: name is used in errors.
func ReadModelFiles(r io.Reader, name string) (*ModelFile, error) {
	br := bufio.NewReaderSize(r, 1<<20)
	if head, _ := br.Peek(2); bytes.Equal(head, []byte{0x1f, 0x8b}) {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("read model %s: %w", name, err)
		}
		defer zr.Close()
		br = bufio.NewReaderSize(zr, 1<<20)
	}
	dec := json.NewDecoder(br)
	var out *ModelFile
	for n := 1; ; n++ {
		var m ModelFile
		err := dec.Decode(&m)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("read model %s (part %d): %w", name, n, err)
		}
		if m.Format != ModelFormat || m.Stats == nil {
			return nil, fmt.Errorf("read model %s (part %d): not an offtopic model (format %q, want %q)", name, n, m.Format, ModelFormat)
		}
		if m.Stats.DF == nil {
			m.Stats.DF = map[string]int{}
		}
		if m.Stats.Centroid == nil {
			m.Stats.Centroid = map[string]int64{}
		}
		if out == nil {
			out = &m
			continue
		}
		if m.MinT0Words != out.MinT0Words || m.Canonicalize != out.Canonicalize {
			return nil, fmt.Errorf("read model %s (part %d): built with min-t0-words %d, canonicalize %s; earlier parts with %d, %s",
				name, n, m.MinT0Words, m.Canonicalize, out.MinT0Words, out.Canonicalize)
		}
		out.Stats.Merge(m.Stats)
	}
	if out == nil {
		return nil, fmt.Errorf("read model %s: empty", name)
	}
	return out, nil
}
