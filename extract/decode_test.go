package extract

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"
)

func gz(b []byte) []byte {
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	w.Write(b)
	w.Close()
	return buf.Bytes()
}

func zl(b []byte) []byte {
	var buf bytes.Buffer
	w := zlib.NewWriter(&buf)
	w.Write(b)
	w.Close()
	return buf.Bytes()
}

func rawDeflate(b []byte) []byte {
	var buf bytes.Buffer
	w, _ := flate.NewWriter(&buf, flate.DefaultCompression)
	w.Write(b)
	w.Close()
	return buf.Bytes()
}

func br(b []byte) []byte {
	var buf bytes.Buffer
	w := brotli.NewWriter(&buf)
	w.Write(b)
	w.Close()
	return buf.Bytes()
}

func hdr(kv ...string) http.Header {
	h := http.Header{}
	for i := 0; i+1 < len(kv); i += 2 {
		h.Add(kv[i], kv[i+1])
	}
	return h
}

func TestDecode(t *testing.T) {
	plain := []byte("<html><body><p>Hello, archived world.</p></body></html>")
	gzPlain := gz(plain)
	chunkedGz := append([]byte("10\r\n"), gzPlain[:16]...)
	chunkedGz = append(chunkedGz, "\r\n"...)
	chunkedGz = append(chunkedGz, []byte(strings.ToLower(strings.TrimLeft(string(hexLen(len(gzPlain)-16)), "0")))...)
	chunkedGz = append(chunkedGz, "\r\n"...)
	chunkedGz = append(chunkedGz, gzPlain[16:]...)
	chunkedGz = append(chunkedGz, "\r\n0\r\n\r\n"...)
	truncGz := gzPlain[:len(gzPlain)-12]

	tests := []struct {
		name    string
		h       http.Header
		body    []byte
		want    string
		wantErr bool
	}{
		{"identity", nil, plain, string(plain), false},
		{"chunked", hdr("Transfer-Encoding", "chunked"),
			[]byte("7\r\n<html>H\r\n5;ext=1\r\nello!\r\n0\r\nX-Trailer: 1\r\n\r\n"), "<html>Hello!", false},
		{"chunked with LF only", hdr("Transfer-Encoding", "chunked"), []byte("3\nabc\n0\n\n"), "abc", false},
		{"fake chunked header on de-chunked body", hdr("Transfer-Encoding", "chunked"), plain, string(plain), false},
		{"fake chunked, hex-looking start", hdr("Transfer-Encoding", "chunked"), []byte("cafe\r\nnot chunked at all"), "cafe\r\nnot chunked at all", false},
		{"chunked truncated", hdr("Transfer-Encoding", "chunked"), []byte("5\r\nhello\r\n10\r\nworl"), "helloworl", true},
		{"gzip", hdr("Content-Encoding", "gzip"), gzPlain, string(plain), false},
		{"x-gzip", hdr("Content-Encoding", "x-gzip"), gzPlain, string(plain), false},
		{"gzip header on plain body", hdr("Content-Encoding", "gzip"), plain, string(plain), false},
		{"chunked then gzip", hdr("Transfer-Encoding", "chunked", "Content-Encoding", "gzip"), chunkedGz, string(plain), false},
		{"deflate zlib", hdr("Content-Encoding", "deflate"), zl(plain), string(plain), false},
		{"deflate raw", hdr("Content-Encoding", "deflate"), rawDeflate(plain), string(plain), false},
		{"br", hdr("Content-Encoding", "br"), br(plain), string(plain), false},
		{"gzip then br", hdr("Content-Encoding", "gzip, br"), br(gzPlain), string(plain), false},
		{"identity coding", hdr("Content-Encoding", "identity"), plain, string(plain), false},
		{"unknown coding on text: stored decoded", hdr("Content-Encoding", "compress"), plain, string(plain), false},
		{"gzip not declared (a revisit replayed with its own headers)", nil, gzPlain, string(plain), false},
		{"gzip not declared, identity", hdr("Content-Encoding", "identity"), gzPlain, string(plain), false},
		{"gzip not declared, chunked", hdr("Transfer-Encoding", "chunked"), chunkedGz, string(plain), false},
		{"gzip not declared, cut", nil, truncGz, string(plain), true},
		{"chunked gzip, neither declared", nil, chunkedGz, string(plain), false},
		{"chunked, not declared", nil, []byte("7\r\n<html>H\r\n5\r\nello!\r\n0\r\n\r\n"), "<html>Hello!", false},
		{"chunk-like start, not chunked", nil, []byte("7\r\n<html>Hello, not chunked</html>"), "7\r\n<html>Hello, not chunked</html>", false},
		{"one valid chunk, then text", nil, []byte("5\r\nhello\r\nworld"), "5\r\nhello\r\nworld", false},
		{"gzip signature without a gzip stream kept", nil, []byte("\x1f\x8b\x08 not gzip"), "\x1f\x8b\x08 not gzip", true},
		{"br on text: stored decoded", hdr("Content-Encoding", "br"), plain, string(plain), false},
		{"corrupt br kept raw", hdr("Content-Encoding", "br"), gzPlain[10:], string(gzPlain[10:]), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := tt.h
			if h == nil {
				h = http.Header{}
			}
			got, err := Decode(h, tt.body, 0)
			if string(got) != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
			if (err != nil) != tt.wantErr {
				t.Errorf("err = %v, wantErr %v", err, tt.wantErr)
			}
		})
	}

	// Issue 37 item 1: what could not be decoded is told apart, unreadable
	// or partial, for detection to say so rather than judge garbage.
	t.Run("error kinds", func(t *testing.T) {
		big := gz(bytes.Repeat([]byte("lorem ipsum dolor sit amet "), 2000))
		zstdFrame := append([]byte{0x28, 0xb5, 0x2f, 0xfd}, gzPlain[4:]...)
		for _, tt := range []struct {
			name              string
			h                 http.Header
			body              []byte
			unreadable, parts bool
		}{
			{"zstd, not known", hdr("Content-Encoding", "zstd"), zstdFrame, true, false},
			{"unknown coding on binary", hdr("Content-Encoding", "x-custom"), gzPlain[10:], true, false},
			{"gzip header broken", hdr("Content-Encoding", "gzip"), append([]byte{0x1f, 0x8b, 0x08, 0xff}, gzPlain[10:]...), true, false},
			{"gzip cut", hdr("Content-Encoding", "gzip"), big[:len(big)/2], false, true},
			{"chunks cut", hdr("Transfer-Encoding", "chunked"), []byte("5\r\nhello\r\n10\r\nworl"), false, true},
			{"whole", hdr("Content-Encoding", "gzip"), big, false, false},
		} {
			_, err := Decode(tt.h, tt.body, 0)
			if errors.Is(err, ErrUnreadable) != tt.unreadable || errors.Is(err, ErrPartial) != tt.parts {
				t.Errorf("%s: %v, want unreadable %v, partial %v", tt.name, err, tt.unreadable, tt.parts)
			}
		}
	})
	t.Run("truncated gzip keeps what decoded", func(t *testing.T) {
		big := bytes.Repeat([]byte("lorem ipsum dolor sit amet "), 2000)
		z := gz(big)
		got, err := Decode(hdr("Content-Encoding", "gzip"), z[:len(z)/2], 0)
		if err == nil {
			t.Error("no error for truncated gzip")
		}
		if len(got) == 0 || !bytes.HasPrefix(big, got) {
			t.Errorf("got %d bytes, not a prefix of the original", len(got))
		}
	})
	t.Run("truncated gzip tail", func(t *testing.T) {
		got, err := Decode(hdr("Content-Encoding", "gzip"), truncGz, 0)
		if err == nil || !bytes.HasPrefix(plain, got) {
			t.Errorf("got %q, %v", got, err)
		}
	})
	t.Run("decompression bomb capped", func(t *testing.T) {
		bomb := gz(make([]byte, 50<<20))
		got, err := Decode(hdr("Content-Encoding", "gzip"), bomb, 1<<20)
		if len(got) != 1<<20 {
			t.Errorf("got %d bytes, want %d", len(got), 1<<20)
		}
		if !errors.Is(err, ErrTooLarge) {
			t.Errorf("err = %v, want ErrTooLarge", err)
		}
	})
	t.Run("plain body capped", func(t *testing.T) {
		got, err := Decode(http.Header{}, make([]byte, 100), 10)
		if len(got) != 10 || !errors.Is(err, ErrTooLarge) {
			t.Errorf("got %d bytes, %v", len(got), err)
		}
	})
}

func hexLen(n int) string {
	const digits = "0123456789abcdef"
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n >>= 4 {
		b = append([]byte{digits[n&15]}, b...)
	}
	return string(b)
}
