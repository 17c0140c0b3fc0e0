package report

import "github.com/xuri/excelize/v2"

// fitToWidth sets a sheet up to print landscape, as wide as one page and as
// long as it takes, with its first row repeated on every page. The sheet
// property must be set before the sheet's stream writer starts (excelize
// writes it first), the page layout before the writer's Flush.
func fitToWidth(f *excelize.File, sheet string) error {
	fit, landscape, one, any := true, "landscape", 1, 0
	if err := f.SetSheetProps(sheet, &excelize.SheetPropsOptions{FitToPage: &fit}); err != nil {
		return err
	}
	if err := f.SetPageLayout(sheet, &excelize.PageLayoutOptions{Orientation: &landscape, FitToWidth: &one, FitToHeight: &any}); err != nil {
		return err
	}
	if sheet == SheetSummary || sheet == SheetTimeline {
		return nil // no header row
	}
	return f.SetDefinedName(&excelize.DefinedName{Name: "_xlnm.Print_Titles", RefersTo: "'" + sheet + "'!$1:$1", Scope: sheet})
}

// printArea limits what of a sheet prints ("$A$1:$M$40").
func printArea(f *excelize.File, sheet, ref string) error {
	return f.SetDefinedName(&excelize.DefinedName{Name: "_xlnm.Print_Area", RefersTo: "'" + sheet + "'!" + ref, Scope: sheet})
}
