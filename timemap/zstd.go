package timemap

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/klauspost/compress/zstd"
)

// Zstandard WARCs (.warc.zst, as jwarc and the IIPC's WARC zstd
// specification write them): each record is a zstd frame of its own, like
// a gzip member; the file may start with a skippable frame (magic
// 0x184D2A5D) holding the dictionary the frames are compressed with, itself
// raw or zstd-compressed. Frames are read as members: a record's location
// is its frame's offset (and its offset in the frame when a frame holds
// more than one).

// compression is how an archive file is compressed.
type compression uint8

const (
	plain compression = iota
	gzipped
	zstdFramed
)

// zstdMagic and zstdDictMagic start a zstd frame and a zstd dictionary.
var (
	zstdMagic     = []byte{0x28, 0xb5, 0x2f, 0xfd}
	zstdDictMagic = []byte{0x37, 0xa4, 0x30, 0xec}
)

// isSkippableFrame reports whether b starts with a skippable frame's magic
// (0x184D2A50 to 0x184D2A5F, little-endian).
func isSkippableFrame(b []byte) bool {
	return len(b) >= 4 && b[0]&0xf0 == 0x50 && b[1] == 0x2a && b[2] == 0x4d && b[3] == 0x18
}

// maxZstdWindow bounds the window a frame may ask the decoder for: a frame
// declaring more is refused rather than allocated.
const maxZstdWindow = 64 << 20

// zstdFrameSize returns the length of the frame (a zstd frame or a
// skippable one) at off in r, from its header and block headers, without
// decoding it.
func zstdFrameSize(r io.ReaderAt, off int64) (int64, error) {
	var h [18]byte
	n, err := r.ReadAt(h[:], off)
	if n < 8 && err != nil {
		return 0, fmt.Errorf("zstd frame header: %w", noEOF(err))
	}
	if isSkippableFrame(h[:]) {
		return 8 + int64(binary.LittleEndian.Uint32(h[4:8])), nil
	}
	if !bytes.Equal(h[:4], zstdMagic) {
		return 0, errors.New("not a zstd frame")
	}
	fhd := h[4]
	single := fhd&0x20 != 0
	size := int64(5)
	if !single {
		size++ // window descriptor
	}
	size += []int64{0, 1, 2, 4}[fhd&3] // dictionary ID
	fcs := []int64{0, 2, 4, 8}[fhd>>6]
	if fcs == 0 && single {
		fcs = 1
	}
	size += fcs
	for {
		var b [3]byte
		if _, err := r.ReadAt(b[:], off+size); err != nil {
			return 0, fmt.Errorf("zstd block header at frame offset %d: %w", size, noEOF(err))
		}
		hdr := uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16
		last, typ, bsize := hdr&1 != 0, (hdr>>1)&3, int64(hdr>>3)
		size += 3
		switch typ {
		case 0, 2: // raw, compressed
			size += bsize
		case 1: // RLE
			size++
		default:
			return 0, fmt.Errorf("zstd block of reserved type at frame offset %d", size-3)
		}
		if last {
			break
		}
	}
	if fhd&4 != 0 {
		size += 4 // content checksum
	}
	return size, nil
}

// noEOF makes a read that met the end of the file a cut frame.
func noEOF(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

// ZstdDictionary returns the dictionary a .warc.zst holds in the skippable
// frame (magic 0x184D2A5D) that starts it, nil when it starts otherwise:
// what its frames are decoded with.
func ZstdDictionary(r io.ReaderAt) ([]byte, error) { return zstdDictionary(r) }

// zstdDictionary is ZstdDictionary.
func zstdDictionary(r io.ReaderAt) ([]byte, error) {
	var h [8]byte
	if _, err := r.ReadAt(h[:], 0); err != nil || !bytes.Equal(h[:4], []byte{0x5d, 0x2a, 0x4d, 0x18}) {
		return nil, nil
	}
	n := binary.LittleEndian.Uint32(h[4:])
	if n > 64<<20 {
		return nil, fmt.Errorf("zstd dictionary frame of %d bytes", n)
	}
	dict := make([]byte, n)
	if _, err := r.ReadAt(dict, 8); err != nil {
		return nil, fmt.Errorf("zstd dictionary frame: %w", noEOF(err))
	}
	if bytes.HasPrefix(dict, zstdMagic) {
		dec, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxWindow(maxZstdWindow))
		if err != nil {
			return nil, err
		}
		defer dec.Close()
		if dict, err = dec.DecodeAll(dict, nil); err != nil {
			return nil, fmt.Errorf("zstd dictionary: %w", err)
		}
	}
	if !bytes.HasPrefix(dict, zstdDictMagic) {
		return nil, errors.New("zstd dictionary frame holds no dictionary")
	}
	return dict, nil
}

// newZstdDecoder returns a stream decoder with the file's dictionary (nil:
// none), reading nothing yet (Reset it on a frame).
func newZstdDecoder(dict []byte) (*zstd.Decoder, error) {
	opts := []zstd.DOption{zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxWindow(maxZstdWindow), zstd.WithDecoderLowmem(true)}
	if dict != nil {
		opts = append(opts, zstd.WithDecoderDicts(dict))
	}
	return zstd.NewReader(nil, opts...)
}
