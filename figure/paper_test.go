package figure

import (
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// readCSV reads base.csv: its header and rows.
func readCSV(t *testing.T, base string) ([]string, [][]string) {
	t.Helper()
	b, err := os.ReadFile(base + ".csv")
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(strings.NewReader(string(b))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) == 0 {
		t.Fatalf("%s.csv is empty", base)
	}
	return rows[0], rows[1:]
}

// svgOnly writes only the SVG, at the default size.
func svgOnly() Output { return Output{Formats: []string{"svg"}} }

// TestPaperGrid: the grid writes its SVG, and its CSV holds every drawn
// point of ours (a NaN or, on a log axis, a point at x <= 0 left out),
// each reference line with its label and each published value, in a kind
// column that says which is which.
func TestPaperGrid(t *testing.T) {
	base := filepath.Join(t.TempDir(), "grid")
	g := &PaperGrid{Title: "t", XLabel: "x", YLabel: "y", Cols: 2, Series: []string{"A", "B"}, Points: true, XLog: true,
		Panels: []PaperPanel{
			{Name: "(a) one", Lines: []Line{{Name: "A", XY: [][2]float64{{1, 0.1}, {10, 0.5}, {100, math.NaN()}, {0, 0.7}}}},
				VLines: []RefLine{{Value: 50, Series: "A", Label: "50", Legend: "Published max", Kind: "published"}}},
			{Name: "(b) two", Lines: []Line{{Name: "B", XY: [][2]float64{{2, 0.2}, {20, 1}}}},
				HLines: []RefLine{{Value: 0.8, Label: "limit 0.8", Legend: "limit", Kind: "limit"}},
				Refs:   []Ref{{Source: "P", X: 20, Y: 0.9}}},
		}}
	if err := g.Save(base, svgOnly()); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(base + ".svg"); err != nil {
		t.Fatal(err)
	}
	head, rows := readCSV(t, base)
	if want := []string{"panel", "series", "kind", "x", "y", "label"}; !slices.Equal(head, want) {
		t.Errorf("header %v, want %v", head, want)
	}
	want := [][]string{
		{"(a) one", "A", "icnsim", "1", "0.1", ""},
		{"(a) one", "A", "icnsim", "10", "0.5", ""},
		{"(a) one", "A", "published", "50", "", "50"},
		{"(b) two", "B", "icnsim", "2", "0.2", ""},
		{"(b) two", "B", "icnsim", "20", "1", ""},
		{"(b) two", "", "limit", "", "0.8", "limit 0.8"},
		{"(b) two", "P", "published", "20", "0.9", ""},
	}
	if !slices.EqualFunc(rows, want, slices.Equal) {
		t.Errorf("rows\n%v\nwant\n%v", rows, want)
	}
}

// TestPaperFormsBadInput: input a figure cannot draw is an error naming
// the file, not a panic.
func TestPaperFormsBadInput(t *testing.T) {
	dir := t.TempDir()
	nan := math.NaN()
	for _, c := range []struct {
		name string
		save func(base string) error
		want string
	}{
		{"grid without panels", func(b string) error { return (&PaperGrid{}).Save(b, svgOnly()) }, "no panels"},
		{"grid line of no series", func(b string) error {
			return (&PaperGrid{Series: []string{"A"}, Panels: []PaperPanel{{Name: "p", Lines: []Line{{Name: "B", XY: [][2]float64{{1, 1}}}}}}}).Save(b, svgOnly())
		}, `line "B" is not one of the series`},
		{"grid of NaN", func(b string) error {
			return (&PaperGrid{Series: []string{"A"}, Panels: []PaperPanel{{Name: "p", Lines: []Line{{Name: "A", XY: [][2]float64{{1, nan}}}}}}}).Save(b, svgOnly())
		}, "nothing to draw"},
		{"range bars without groups", func(b string) error { return (&RangeBars{Series: []string{"s"}}).Save(b, svgOnly()) }, "need at least one of each"},
		{"range bars short row", func(b string) error {
			return (&RangeBars{Series: []string{"s"}, Groups: []string{"g", "h"}, Min: [][]float64{{1}}, Mean: [][]float64{{1, 1}}, Max: [][]float64{{1, 1}}}).Save(b, svgOnly())
		}, "Min row 0 has 1 values, want one per group (2)"},
		{"range bars of NaN", func(b string) error {
			return (&RangeBars{Series: []string{"s"}, Groups: []string{"g"}, Min: [][]float64{{nan}}, Mean: [][]float64{{nan}}, Max: [][]float64{{nan}}}).Save(b, svgOnly())
		}, "no bar has a value"},
		{"range bars reference off the bars", func(b string) error {
			return (&RangeBars{Series: []string{"s"}, Groups: []string{"g"}, Min: [][]float64{{1}}, Mean: [][]float64{{1}}, Max: [][]float64{{1}},
				Refs: []BarRef{{Group: 1, Value: 1}}}).Save(b, svgOnly())
		}, "out of 1 groups"},
		{"paired bars missing published", func(b string) error {
			return (&PairedBars{Series: []string{"s"}, Groups: []string{"g"}, Ours: [][]float64{{1}}}).Save(b, svgOnly())
		}, "Published has 0 rows"},
		{"paired bars half an interval", func(b string) error {
			return (&PairedBars{Series: []string{"s"}, Groups: []string{"g"}, Ours: [][]float64{{1}}, Published: [][]float64{{1}}, Lo: [][]float64{{1}}}).Save(b, svgOnly())
		}, "needs both Lo and Hi"},
	} {
		base := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "-"))
		err := c.save(base)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), base) {
			t.Errorf("%s: %v, want an error of %s with %q", c.name, err, base, c.want)
		}
	}
}

// TestRangeBars: the CSV holds each bar's minimum, average and maximum
// (a NaN left out) and each published value as "published STAT" with its
// source.
func TestRangeBars(t *testing.T) {
	base := filepath.Join(t.TempDir(), "bars")
	b := &RangeBars{Groups: []string{"uniform", "shuffle"}, Series: []string{"static", "adaptive"},
		Min:  [][]float64{{0.5, 0.2}, {0.55, math.NaN()}},
		Mean: [][]float64{{0.6, 0.4}, {0.6, 0.5}},
		Max:  [][]float64{{0.7, 0.9}, {0.65, 0.8}},
		Refs: []BarRef{{Group: 1, Series: 1, Stat: "minimum", Value: 0.57, Source: "Izu & Vallejo, Sect. IV-C"}}}
	if err := b.Save(base, svgOnly()); err != nil {
		t.Fatal(err)
	}
	_, rows := readCSV(t, base)
	want := [][]string{
		{"uniform", "static", "minimum", "0.5", "icnsim"}, {"uniform", "static", "average", "0.6", "icnsim"}, {"uniform", "static", "maximum", "0.7", "icnsim"},
		{"uniform", "adaptive", "minimum", "0.55", "icnsim"}, {"uniform", "adaptive", "average", "0.6", "icnsim"}, {"uniform", "adaptive", "maximum", "0.65", "icnsim"},
		{"shuffle", "static", "minimum", "0.2", "icnsim"}, {"shuffle", "static", "average", "0.4", "icnsim"}, {"shuffle", "static", "maximum", "0.9", "icnsim"},
		{"shuffle", "adaptive", "average", "0.5", "icnsim"}, {"shuffle", "adaptive", "maximum", "0.8", "icnsim"},
		{"shuffle", "adaptive", "published minimum", "0.57", "Izu & Vallejo, Sect. IV-C"},
	}
	if !slices.EqualFunc(rows, want, slices.Equal) {
		t.Errorf("rows\n%v\nwant\n%v", rows, want)
	}
}

// TestPairedBars: the CSV holds ours with the interval's bounds and the
// published values with their source.
func TestPairedBars(t *testing.T) {
	base := filepath.Join(t.TempDir(), "pairs")
	b := &PairedBars{Groups: []string{"trns"}, Series: []string{"t_G = 4", "t_G = 8"},
		Ours: [][]float64{{1300}, {1310}}, Lo: [][]float64{{1290}, {1305}}, Hi: [][]float64{{1310}, {1315}},
		Published: [][]float64{{1300.8}, {math.NaN()}}, IntervalName: "± 1 std. dev.", Source: "Yokota et al. 2016"}
	if err := b.Save(base, svgOnly()); err != nil {
		t.Fatal(err)
	}
	_, rows := readCSV(t, base)
	want := [][]string{
		{"trns", "t_G = 4", "icnsim", "1300", "1290", "1310", "icnsim"},
		{"trns", "t_G = 4", "published", "1300.8", "", "", "Yokota et al. 2016"},
		{"trns", "t_G = 8", "icnsim", "1310", "1305", "1315", "icnsim"},
	}
	if !slices.EqualFunc(rows, want, slices.Equal) {
		t.Errorf("rows\n%v\nwant\n%v", rows, want)
	}
}

// TestRoundTicks: major ticks at round steps within the range, labelled
// without spurious decimals; on an integer axis only whole numbers, a
// minor tick only where it is whole too; a given step is kept.
func TestRoundTicks(t *testing.T) {
	for _, c := range []struct {
		name   string
		ticks  roundTicks
		lo, hi float64
		want   []string // the labelled ticks
	}{
		{"unit share", roundTicks{}, 0, 1, []string{"0.0", "0.2", "0.4", "0.6", "0.8", "1.0"}},
		{"percent", roundTicks{}, 0, 100, []string{"0", "20", "40", "60", "80", "100"}},
		{"SAQs", roundTicks{integer: true}, 0, 8.4, []string{"0", "2", "4", "6", "8"}},
		{"few SAQs", roundTicks{integer: true}, 0, 2, []string{"0", "1", "2"}},
		{"nodes by 8", roundTicks{integer: true, step: 8}, 0, 63, []string{"0", "8", "16", "24", "32", "40", "48", "56"}},
		{"cycles", roundTicks{}, 0, 1130, []string{"0", "200", "400", "600", "800", "1000"}},
		{"small", roundTicks{}, 0.13, 0.61, []string{"0.2", "0.3", "0.4", "0.5", "0.6"}},
	} {
		var got []string
		for _, tk := range c.ticks.Ticks(c.lo, c.hi) {
			if tk.Value < c.lo-1e-9 || tk.Value > c.hi+1e-9 {
				t.Errorf("%s: tick %g outside [%g, %g]", c.name, tk.Value, c.lo, c.hi)
			}
			if c.ticks.integer && tk.Value != math.Round(tk.Value) {
				t.Errorf("%s: tick at %g on an integer axis", c.name, tk.Value)
			}
			if tk.Label != "" {
				got = append(got, tk.Label)
			}
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: labels %v, want %v", c.name, got, c.want)
		}
	}
}

// TestLogTicksInRange: over four decades the powers of ten labelled, the
// multiples between them unlabelled, all within the range.
func TestLogTicksInRange(t *testing.T) {
	var labels []string
	n := 0
	for _, tk := range (logTicks{}).Ticks(40, 12000) {
		if tk.Value < 40 || tk.Value > 12000 {
			t.Errorf("tick %g outside [40, 12000]", tk.Value)
		}
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
		n++
	}
	if want := []string{"100", "1000", "10000"}; !slices.Equal(labels, want) {
		t.Errorf("labels %v, want %v", labels, want)
	}
	if want := 6 + 9 + 9 + 1; n != want { // 40..90, 100..900, 1000..9000, 10000
		t.Errorf("%d ticks, want %d", n, want)
	}
	for _, c := range []struct {
		v    float64
		want string
	}{{3400, "3,400"}, {600, "600"}, {1234567, "1,234,567"}, {-9000, "-9,000"}, {0.5, "0.5"}} {
		if got := Thousands(c.v); got != c.want {
			t.Errorf("Thousands(%s) = %q, want %q", strconv.FormatFloat(c.v, 'g', -1, 64), got, c.want)
		}
	}
}
