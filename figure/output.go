package figure

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgpdf"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/icnsim/icnsim/internal/atomicfile"
)

// Output says how a figure is written: the image formats, the print size,
// the base font size and whether the title is drawn. Beside the images
// every figure writes base.csv, the points it draws (see each figure's
// Save), so that a reader can redraw it with another tool.
type Output struct {
	// Formats of the image files: svg, png, pdf (ImageFormats()).
	Formats []string
	// Width and Height of the figure; a figure with a legend below its plot
	// or with many panels grows taller.
	Width, Height vg.Length
	// FontSize is the axis labels' size; titles are 15% larger, tick labels
	// and legends 10% smaller.
	FontSize vg.Length
	// DPI of the PNG files.
	DPI int
	// NoTitle leaves the title out (a paper's caption carries it).
	NoTitle bool
}

// ImageFormats are the image formats a figure can be written in.
func ImageFormats() []string { return []string{"svg", "png", "pdf"} }

// Defaults of Output: a figure that fits a page's text width at the size
// of the paper's text, printable as it is.
const (
	DefaultWidth    = 6 * vg.Inch
	DefaultHeight   = 4 * vg.Inch
	DefaultFontSize = 10 // points
	DefaultDPI      = 300
)

// DefaultOutput writes every image format at the default size.
func DefaultOutput() Output {
	return Output{Formats: ImageFormats(), Width: DefaultWidth, Height: DefaultHeight, FontSize: vg.Points(DefaultFontSize), DPI: DefaultDPI}
}

// withDefaults fills the zero fields of o from DefaultOutput (not the
// formats: none is a figure with only its CSV).
func (o Output) withDefaults() Output {
	d := DefaultOutput()
	if o.Width <= 0 {
		o.Width = d.Width
	}
	if o.Height <= 0 {
		o.Height = d.Height
	}
	if o.FontSize <= 0 {
		o.FontSize = d.FontSize
	}
	if o.DPI <= 0 {
		o.DPI = d.DPI
	}
	return o
}

// Font sizes relative to Output.FontSize.
func (o Output) titleSize() vg.Length { return o.FontSize * 1.15 }
func (o Output) smallSize() vg.Length { return o.FontSize * 0.9 }

// style sets p's font sizes from o, and removes the title if o says so.
func (o Output) style(p *plot.Plot) {
	p.Title.TextStyle.Font.Size = o.titleSize()
	p.X.Label.TextStyle.Font.Size, p.Y.Label.TextStyle.Font.Size = o.FontSize, o.FontSize
	p.X.Tick.Label.Font.Size, p.Y.Tick.Label.Font.Size = o.smallSize(), o.smallSize()
	p.Legend.TextStyle.Font.Size = o.smallSize()
	if o.NoTitle {
		p.Title.Text = ""
	}
}

// yAxisRoom is about what a y-axis with its label and tick labels takes
// of a figure's width.
func yAxisRoom(o Output) vg.Length { return o.FontSize * 6 }

// rightMargin is left free at a figure's right edge.
const rightMargin = vg.Length(4)

// save renders p at o's size in each format.
func save(p *plot.Plot, base string, o Output) error {
	// A margin on the right: gonum sets the last x tick's label flush
	// with the edge, where a rasteriser clips its last pixels.
	return render(base, o, o.Width, o.Height, func(dc draw.Canvas) { p.Draw(draw.Crop(dc, 0, -rightMargin, 0, 0)) })
}

// render draws fn on a w x h canvas in each of o's formats and writes
// base.FORMAT atomically.
func render(base string, o Output, w, h vg.Length, fn func(draw.Canvas)) error {
	if err := os.MkdirAll(filepath.Dir(base), 0o755); err != nil {
		return err
	}
	for _, format := range o.Formats {
		var buf bytes.Buffer
		var err error
		switch format {
		case "svg":
			c := vgsvg.New(w, h)
			fn(draw.New(c))
			_, err = c.WriteTo(&buf)
		case "png":
			c := vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(o.DPI))}
			fn(draw.New(c))
			_, err = c.WriteTo(&buf)
		case "pdf":
			c := vgpdf.New(w, h)
			fn(draw.New(c))
			_, err = c.WriteTo(&buf)
			// The same figure is the same file: the PDF's dates (the time
			// it was written) become a fixed date of the same length, so
			// that no offset in the file moves.
			buf = *bytes.NewBuffer(pdfDate.ReplaceAll(buf.Bytes(), []byte("${1}(D:20000101000000)")))
		default:
			return fmt.Errorf("figure %s: format %q: allowed %v", base, format, ImageFormats())
		}
		if err != nil {
			return fmt.Errorf("figure %s.%s: %w", base, format, err)
		}
		if err := atomicfile.Write(base+"."+format, buf.Bytes()); err != nil {
			return err
		}
	}
	return nil
}

// pdfDate matches the creation and modification dates of the PDF writer.
var pdfDate = regexp.MustCompile(`(/(?:CreationDate|ModDate) )\(D:[0-9]{14}\)`)

// table is the CSV of a figure's points: a header and rows.
type table struct {
	header []string
	rows   [][]string
}

func (t *table) add(fields ...string) { t.rows = append(t.rows, fields) }

// num writes a value exactly (the shortest text that reads back the same
// float64); NaN and infinities as empty fields.
func num(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return ""
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// writeCSV writes t to base.csv atomically.
func (t *table) writeCSV(base string) error {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	w.Write(t.header)
	w.WriteAll(t.rows)
	if err := w.Error(); err != nil {
		return fmt.Errorf("figure %s.csv: %w", base, err)
	}
	if err := os.MkdirAll(filepath.Dir(base), 0o755); err != nil {
		return err
	}
	return atomicfile.Write(base+".csv", buf.Bytes())
}
