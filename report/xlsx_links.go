package report

import (
	"archive/zip"
	"bufio"
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/klauspost/compress/flate"
	"github.com/xuri/excelize/v2"
)

// save writes the workbook to x.w. excelize adds hyperlinks one by one with a
// linear search (quadratic for a large sheet), so the URI-M links of the
// Captures sheet are spliced in as excelize writes the package: linkZip
// stands in for its zip writer, streams every part to w, and adds the
// <hyperlinks> element and its relationships to the Captures sheet on the
// way, after the sheet's rows, which it writes itself (captureSheetRows).
// (excelize's WriteTo would also build the whole file in memory first.)
//
// The parts are compressed at the fastest level of klauspost/compress's
// deflate: the Captures sheet of 52,000 captures is 80 MB of XML, which
// the standard library's default level took 1.0 s to compress to 8.1 MB,
// this level 0.27 s to 9.9 MB.
func (x *XLSXWriter) save() error {
	parts := map[string]*sheetPart{}
	for id, name := range x.f.GetSheetMap() {
		// excelize names the parts of new sheets by their sheet id.
		part := "xl/worksheets/sheet" + strconv.Itoa(id) + ".xml"
		switch name {
		case SheetCaptures:
			parts[part] = &sheetPart{rows: x.captureSheetRows}
		case SheetTimeMaps:
			parts[part] = &sheetPart{links: x.tmLinks}
		}
	}
	zw := zip.NewWriter(x.w)
	zw.RegisterCompressor(zip.Deflate, func(w io.Writer) (io.WriteCloser, error) { return flate.NewWriter(w, flate.BestSpeed) })
	lz := &linkZip{zw: zw, parts: parts}
	x.f.SetZipWriter(func(io.Writer) excelize.ZipWriter { return lz })
	if _, err := x.f.WriteToBuffer(); err != nil {
		return err
	}
	return lz.err
}

// sheetPart is a sheet that linkZip adds to: its hyperlinks, and the rows
// it writes at the end of the sheet's data (nil: none), which return
// their hyperlinks.
type sheetPart struct {
	links []xlsxLink
	rows  func(io.Writer) ([]xlsxLink, error)
}

// linkZip is the zip writer excelize writes the workbook through. It passes
// every part on to zw, splicing rows and hyperlinks into the sheet parts
// that have some (before and after their </sheetData>: cell text is
// XML-escaped, so that tag cannot occur in a cell) and the relationships of
// those that leave the workbook into each sheet's relationships part.
type linkZip struct {
	zw    *zip.Writer
	parts map[string]*sheetPart // by sheet part

	sheet    string                   // the open sheet part
	cur      io.Writer                // its writer
	held     []byte                   // the last bytes of the sheet, which may begin </sheetData>
	tail     *bytes.Buffer            // the sheet after </sheetData>
	relsPart map[string]*bytes.Buffer // the sheets' relationships that excelize wrote, by sheet part
	seen     map[string]bool
	err      error
}

// relsOf is the relationships part of a sheet part.
func relsOf(sheet string) string {
	return path.Join(path.Dir(sheet), "_rels", path.Base(sheet)+".rels")
}

var sheetDataEnd = []byte("</sheetData>")

// Create implements excelize.ZipWriter.
func (z *linkZip) Create(name string) (io.Writer, error) {
	if err := z.finishSheet(); err != nil {
		return nil, err
	}
	if z.seen == nil {
		z.seen, z.relsPart = map[string]bool{}, map[string]*bytes.Buffer{}
	}
	if _, ok := z.parts[name]; ok {
		w, err := z.zw.Create(name)
		if err != nil {
			return nil, err
		}
		z.sheet, z.cur, z.held, z.tail = name, w, nil, nil
		z.seen[name] = true
		return sheetWriter{z}, nil
	}
	for sheet := range z.parts {
		if name == relsOf(sheet) {
			b := new(bytes.Buffer)
			z.relsPart[sheet] = b
			return b, nil
		}
	}
	return z.zw.Create(name)
}

// sheetWriter receives the sheet part.
type sheetWriter struct{ z *linkZip }

func (s sheetWriter) Write(p []byte) (int, error) {
	z := s.z
	if z.tail != nil {
		return z.tail.Write(p)
	}
	z.held = append(z.held, p...)
	if i := bytes.Index(z.held, sheetDataEnd); i >= 0 {
		if _, err := z.cur.Write(z.held[:i]); err != nil {
			return 0, err
		}
		if part := z.parts[z.sheet]; part.rows != nil {
			links, err := part.rows(z.cur)
			if err != nil {
				return 0, fmt.Errorf("%s: %w", z.sheet, err)
			}
			part.links = append(part.links, links...)
		}
		if _, err := z.cur.Write(sheetDataEnd); err != nil {
			return 0, err
		}
		z.tail = bytes.NewBuffer(slices.Clone(z.held[i+len(sheetDataEnd):]))
		z.held = nil
		return len(p), nil
	}
	// Keep what could be the start of </sheetData>.
	if keep := len(sheetDataEnd) - 1; len(z.held) > keep {
		if _, err := z.cur.Write(z.held[:len(z.held)-keep]); err != nil {
			return 0, err
		}
		z.held = append(z.held[:0], z.held[len(z.held)-keep:]...)
	}
	return len(p), nil
}

// finishSheet writes what followed </sheetData> with the hyperlinks added.
func (z *linkZip) finishSheet() error {
	if z.cur == nil {
		return nil
	}
	w := z.cur
	z.cur = nil
	if z.tail == nil {
		return fmt.Errorf("%s: no </sheetData>", z.sheet)
	}
	var links bytes.Buffer
	for i, l := range z.parts[z.sheet].links {
		if l.location != "" {
			links.WriteString(`<hyperlink ref="` + l.cell + `" location="`)
			xml.EscapeText(&links, []byte(l.location))
			links.WriteString(`"/>`)
			continue
		}
		fmt.Fprintf(&links, `<hyperlink ref="%s" r:id="%s"/>`, l.cell, linkID(i))
	}
	tail := z.tail.String()
	if i := strings.Index(tail, "</hyperlinks>"); i >= 0 {
		tail = tail[:i] + links.String() + tail[i:]
	} else if links.Len() > 0 {
		// CT_Worksheet: hyperlinks come before all of these.
		at := len(tail)
		for _, el := range []string{"<printOptions", "<pageMargins", "<pageSetup", "<headerFooter", "<rowBreaks", "<colBreaks",
			"<customProperties", "<cellWatches", "<ignoredErrors", "<smartTags", "<drawing", "<legacyDrawing", "<legacyDrawingHF",
			"<drawingHF", "<picture", "<oleObjects", "<controls", "<webPublishItems", "<tableParts", "<extLst", "</worksheet>"} {
			if i := strings.Index(tail, el); i >= 0 && i < at {
				at = i
			}
		}
		tail = tail[:at] + "<hyperlinks>" + links.String() + "</hyperlinks>" + tail[at:]
	}
	_, err := io.WriteString(w, tail)
	return err
}

// AddFS implements excelize.ZipWriter.
func (z *linkZip) AddFS(fsys fs.FS) error { return z.zw.AddFS(fsys) }

// Close writes the sheets' relationships and ends the zip; it does not close
// the underlying writer.
func (z *linkZip) Close() error {
	if z.err != nil {
		return z.err
	}
	z.err = z.close()
	return z.err
}

func (z *linkZip) close() error {
	if err := z.finishSheet(); err != nil {
		return err
	}
	sheets := slices.Sorted(maps.Keys(z.parts))
	for _, sheet := range sheets {
		links := z.parts[sheet].links
		if !z.seen[sheet] {
			return fmt.Errorf("no part %s for a sheet with hyperlinks", sheet)
		}
		rels := z.relsPart[sheet]
		if !slices.ContainsFunc(links, func(l xlsxLink) bool { return l.location == "" }) && rels == nil {
			continue
		}
		head := xml.Header + `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">`
		tail := `</Relationships>`
		if rels != nil {
			s := rels.String()
			i := strings.LastIndex(s, tail)
			if i < 0 {
				return fmt.Errorf("%s: no %s", relsOf(sheet), tail)
			}
			head, tail = s[:i], s[i:]
		}
		out, err := z.zw.Create(relsOf(sheet))
		if err != nil {
			return err
		}
		bw := bufio.NewWriter(out)
		bw.WriteString(head)
		for i, l := range links {
			if l.location != "" {
				continue // a place in the workbook: no relationship
			}
			bw.WriteString(`<Relationship Id="`)
			bw.WriteString(linkID(i))
			bw.WriteString(`" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink" Target="`)
			xml.EscapeText(bw, []byte(l.url))
			bw.WriteString(`" TargetMode="External"/>`)
		}
		bw.WriteString(tail)
		if err := bw.Flush(); err != nil {
			return err
		}
	}
	return z.zw.Close()
}

// linkID is the relationship id of the hyperlink of links[i]; the prefix
// keeps it apart from excelize's rIdN.
func linkID(i int) string { return "rIdOTLink" + strconv.Itoa(i+1) }
