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

	"github.com/xuri/excelize/v2"
)

// save writes the workbook to x.w. excelize adds hyperlinks one by one with a
// linear search (quadratic for a large sheet), so the URI-M links of the
// Captures sheet are spliced in as excelize writes the package: linkZip
// stands in for its zip writer, streams every part to w, and adds the
// <hyperlinks> element and its relationships to the Captures sheet on the
// way. (excelize's WriteTo would also build the whole file in memory first.)
func (x *XLSXWriter) save() error {
	links := map[string][]xlsxLink{}
	for id, name := range x.f.GetSheetMap() {
		// excelize names the parts of new sheets by their sheet id.
		part := "xl/worksheets/sheet" + strconv.Itoa(id) + ".xml"
		switch name {
		case SheetCaptures:
			links[part] = x.links
		case SheetTimeMaps:
			links[part] = x.tmLinks
		}
	}
	lz := &linkZip{zw: zip.NewWriter(x.w), links: links}
	x.f.SetZipWriter(func(io.Writer) excelize.ZipWriter { return lz })
	if _, err := x.f.WriteToBuffer(); err != nil {
		return err
	}
	return lz.err
}

// linkZip is the zip writer excelize writes the workbook through. It passes
// every part on to zw, splicing hyperlinks into the sheet parts that have
// some (after their </sheetData>: cell text is XML-escaped, so that tag cannot
// occur in a cell) and the relationships of those that leave the workbook
// into each sheet's relationships part.
type linkZip struct {
	zw    *zip.Writer
	links map[string][]xlsxLink // by sheet part

	sheet    string                   // the open sheet part
	cur      io.Writer                // its writer
	win      []byte                   // last bytes of the sheet, to find </sheetData>
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
	if _, ok := z.links[name]; ok {
		w, err := z.zw.Create(name)
		if err != nil {
			return nil, err
		}
		z.sheet, z.cur, z.win, z.tail = name, w, nil, nil
		z.seen[name] = true
		return sheetWriter{z}, nil
	}
	for sheet := range z.links {
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
	// Look for </sheetData> across the previous bytes and p.
	joined := append(z.win, p...)
	if i := bytes.Index(joined, sheetDataEnd); i >= 0 {
		cut := i + len(sheetDataEnd) - len(z.win) // end of the tag within p
		if _, err := z.cur.Write(p[:cut]); err != nil {
			return 0, err
		}
		z.tail = bytes.NewBuffer(slices.Clone(p[cut:]))
		return len(p), nil
	}
	if len(joined) > len(sheetDataEnd) {
		joined = joined[len(joined)-len(sheetDataEnd):]
	}
	z.win = append(z.win[:0], joined...)
	return z.cur.Write(p)
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
	for i, l := range z.links[z.sheet] {
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
	sheets := slices.Sorted(maps.Keys(z.links))
	for _, sheet := range sheets {
		links := z.links[sheet]
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
