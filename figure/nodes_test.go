package figure

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"
)

// panels makes n panels of a cols x rows grid, panel
// i's values spread over lo(i)..lo(i)+span(i), named by name(i).
func panels(n, cols, rows int, lo, span func(i int) float64, name func(i int) string) []Panel {
	var ps []Panel
	for i := range n {
		z := make([][]float64, rows)
		for y := range z {
			z[y] = make([]float64, cols)
			for x := range z[y] {
				z[y][x] = lo(i) + span(i)*float64(y*cols+x)/float64(cols*rows-1)
			}
		}
		ps = append(ps, Panel{Name: name(i), Z: z})
	}
	return ps
}

func loadName(i int) string {
	return fmt.Sprintf("pattern=transpose load_flits_per_node_cycle=0.%d", i+1)
}

// TestNodeMapScale: ScaleAuto keeps one scale while every panel spans a
// third of the shared range or more, and gives each panel its own (up to
// nine panels) when one spans less: a low-load panel on a high load's
// scale is one colour.
func TestNodeMapScale(t *testing.T) {
	same := func(int) float64 { return 1 }
	rising := func(i int) float64 { return math.Pow(10, float64(i)) } // 1, 10, 100, ...
	zero := func(int) float64 { return 0 }
	for _, c := range []struct {
		name    string
		n       int
		lo      func(int) float64
		span    func(int) float64
		mode    ScaleMode
		own     bool
		wantErr bool
	}{
		{"alike", 4, zero, same, "", false, false},
		{"offset by a third", 2, func(i int) float64 { return float64(i) * 0.5 }, same, ScaleAuto, false, false}, // each spans 1 of 1.5
		{"offset by more", 2, func(i int) float64 { return float64(i) * 2.5 }, same, ScaleAuto, true, false},     // each spans 1 of 3.5
		{"loads ten times apart", 4, zero, rising, "", true, false},
		{"loads apart, forced shared", 4, zero, rising, ScaleShared, false, false},
		{"alike, forced per panel", 4, zero, same, ScalePanel, true, false},
		{"one panel", 1, zero, rising, ScalePanel, false, false},
		{"ten panels apart: too many bars", 10, zero, rising, ScaleAuto, false, false},
		{"unknown mode", 2, zero, same, "log", false, true},
	} {
		m := &NodeMap{Panels: panels(c.n, 4, 4, c.lo, c.span, loadName), Scale: c.mode}
		own, err := m.perPanel()
		if own != c.own || (err != nil) != c.wantErr {
			t.Errorf("%s: own scales %v (error %v), want %v (error %v)", c.name, own, err, c.own, c.wantErr)
		}
	}
}

// TestNodeMapLayout: in every layout the cells are square, the panels'
// titles and the tiles' data areas stay inside the figure and clear of
// each other, the colour bar (with its ticks and label) ends inside the
// right edge, and the bar is as tall as a panel at least.
func TestNodeMapLayout(t *testing.T) {
	rising := func(i int) float64 { return float64(i*i + 1) }
	for _, c := range []struct {
		name             string
		n, cols, rows    int
		span             func(int) float64
		out              Output
		wantOwn, growing bool
	}{
		{"one panel", 1, 8, 8, rising, DefaultOutput(), false, false},
		{"two panels alike", 2, 4, 4, func(int) float64 { return 1 }, DefaultOutput(), false, false},
		{"four loads of a 16x16 torus", 4, 16, 16, rising, DefaultOutput(), true, true},
		{"six panels of a 4x4 mesh", 6, 4, 4, rising, DefaultOutput(), true, true},
		{"nine panels of a 16x16 torus", 9, 16, 16, rising, DefaultOutput(), true, true},
		{"sixteen panels", 16, 16, 16, rising, DefaultOutput(), false, true},
		{"three 5x3 panels", 3, 5, 3, rising, DefaultOutput(), true, true},
		{"a paper's column", 4, 8, 8, rising, Output{Width: 3.5 * vg.Inch, Height: 2.5 * vg.Inch, FontSize: 8}, true, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := c.out.withDefaults()
			m := &NodeMap{Title: "a title of two lines\nthe study's fixed words", Label: "Accepted throughput (flits/cycle)",
				Panels: panels(c.n, c.cols, c.rows, func(int) float64 { return 0 }, c.span, loadName)}
			fig, err := m.tiled(out)
			if err != nil {
				t.Fatal(err)
			}
			w, h := fig.size(out)
			l := fig.layout(out, w, h)
			if w != out.Width || h < out.Height || (h > out.Height) != c.growing {
				t.Errorf("figure %v x %v, want %v wide, %v high (grown: %v)", w, h, out.Width, out.Height, c.growing)
			}
			if own := fig.tiles[0].bar != nil; own != c.wantOwn {
				t.Errorf("own colour bars %v, want %v", own, c.wantOwn)
			}
			type box struct {
				what string
				r    vg.Rectangle
			}
			var boxes []box
			for i, d := range l.data {
				cw, ch := (d.Max.X-d.Min.X)/vg.Length(c.cols), (d.Max.Y-d.Min.Y)/vg.Length(c.rows)
				if cw <= 0 || math.Abs(float64(cw-ch)) > 1e-6*float64(cw) {
					t.Errorf("panel %d: cells %v x %v, want square", i, cw, ch)
				}
				boxes = append(boxes, box{fmt.Sprint("data ", i), d})
				sty := fig.tiles[i].p.Title.TextStyle
				tw, th := sty.Width(l.names[i]), sty.Height(l.names[i])
				mid := (d.Min.X + d.Max.X) / 2
				boxes = append(boxes, box{"title " + strings.ReplaceAll(l.names[i], "\n", "/"), vg.Rectangle{Min: vg.Point{X: mid - tw/2, Y: l.nameY[i]}, Max: vg.Point{X: mid + tw/2, Y: l.nameY[i] + th}}})
				if l.barHi-l.barLo < d.Max.Y-d.Min.Y-1e-9 {
					t.Errorf("colour bar %v high beside a panel %v high", l.barHi-l.barLo, d.Max.Y-d.Min.Y)
				}
			}
			for i, a := range boxes {
				if a.r.Min.X < 0 || a.r.Min.Y < 0 || a.r.Max.X > w || a.r.Max.Y > h-l.titleH {
					t.Errorf("%s at %v: outside the figure's %v x %v below its title", a.what, a.r, w, h-l.titleH)
				}
				for _, b := range boxes[i+1:] {
					if min(a.r.Max.X, b.r.Max.X) > max(a.r.Min.X, b.r.Min.X) && min(a.r.Max.Y, b.r.Max.Y) > max(a.r.Min.Y, b.r.Min.Y) {
						t.Errorf("%s at %v overlaps %s at %v", a.what, a.r, b.what, b.r)
					}
				}
			}
			// The side column: the shared bar with its ticks and label, or
			// the label of the panels' own bars.
			right := l.sideX + textStyle(out.FontSize).Height(l.sideTxt)
			if fig.side != nil {
				right += fig.side.barAndTicks() + labelGap
			}
			if l.sideTxt == "" || right > w {
				t.Errorf("side label %q ends at %v, past the figure's %v", l.sideTxt, right, w)
			}
			// A panel's own bar ends before the next column's data.
			for i, d := range l.data {
				if fig.tiles[i].bar == nil {
					continue
				}
				end := d.Max.X + fig.tiles[i].barWidth()
				for j, e := range l.data {
					if e.Min.X > d.Min.X && e.Min.X < end && e.Min.Y < d.Max.Y && e.Max.Y > d.Min.Y {
						t.Errorf("panel %d's colour bar runs to %v, into panel %d at %v", i, end, j, e.Min.X)
					}
				}
			}
		})
	}
}

// TestWrapText: titles wrap at spaces to the width; a word wider than
// the width breaks after '=' or '_' in its second half, else anywhere;
// no line is wider than the width, and no character is lost.
func TestWrapText(t *testing.T) {
	sty := textStyle(10)
	for _, c := range []struct {
		text  string
		width vg.Length
		want  string
	}{
		{"pattern=transpose load_flits_per_node_cycle=0.3", 500, "pattern=transpose load_flits_per_node_cycle=0.3"},
		{"pattern=transpose load_flits_per_node_cycle=0.3", 150, "pattern=transpose\nload_flits_per_node_cycle=0.3"},
		{"pattern=transpose load_flits_per_node_cycle=0.3", 80, "pattern=transpose\nload_flits_per_\nnode_cycle=0.3"},
		{"uniform, 0.05", sty.Width("uniform, 0"), "uniform,\n0.05"},
		{"a\nb c", 500, "a\nb c"},
		{"abcdefghij", sty.Width("abc"), "abc\ndef\nghi\nj"},
	} {
		got := wrapText(sty, c.text, c.width)
		if got != c.want {
			t.Errorf("wrapText(%q, %v) = %q, want %q", c.text, c.width, got, c.want)
		}
		for _, line := range strings.Split(got, "\n") {
			if sty.Width(line) > c.width {
				t.Errorf("wrapText(%q, %v): line %q is %v wide", c.text, c.width, line, sty.Width(line))
			}
		}
		if strings.Join(strings.Fields(got), "") != strings.Join(strings.Fields(c.text), "") {
			t.Errorf("wrapText(%q) lost characters: %q", c.text, got)
		}
	}
}

// TestGridTicks: labels at a step of 1, 2, 4, ... that keeps them apart
// (need on cells cell long) and at most about eight; without labels,
// every tick unlabelled.
func TestGridTicks(t *testing.T) {
	for _, c := range []struct {
		n          int
		cell, need vg.Length
		labels     bool
		want       string
	}{
		{4, 20, 10, true, "0 1 2 3"},
		{4, 6, 10, true, "0 2"},
		{16, 20, 10, true, "0 2 4 6 8 10 12 14"},
		{16, 3, 10, true, "0 4 8 12"},
		{3, 1, 100, true, "0"},
		{4, 20, 10, false, ""},
	} {
		ts := gridTicks(c.n, c.cell, c.need, c.labels)
		var labels []string
		for _, tk := range ts {
			if tk.Label != "" {
				labels = append(labels, tk.Label)
			}
		}
		if got := strings.Join(labels, " "); got != c.want || len(ts) != c.n {
			t.Errorf("gridTicks(%d, %v, %v, %v): %d ticks labelled %q, want %d labelled %q", c.n, c.cell, c.need, c.labels, len(ts), got, c.n, c.want)
		}
	}
}
