package figure_test

import (
	"fmt"
	"image/png"
	"os"
	"path/filepath"

	"github.com/icnsim/icnsim/figure"
)

func ExampleChart_Save() {
	dir, _ := os.MkdirTemp("", "figure")
	defer os.RemoveAll(dir)
	c := &figure.Chart{Title: "accepted vs offered", XLabel: "offered (flits/node/cycle)", YLabel: "accepted (flits/node/cycle)", Points: true,
		Lines: []figure.Line{{Name: "uniform", XY: [][2]float64{{0.1, 0.1}, {0.2, 0.2}, {0.3, 0.25}}}}}
	base := filepath.Join(dir, "throughput")
	// Every image format at the default size, 6 x 4 inches, and the points
	// drawn as CSV.
	if err := c.Save(base, figure.DefaultOutput()); err != nil {
		fmt.Println(err)
		return
	}
	f, _ := os.Open(base + ".png")
	defer f.Close()
	img, _ := png.Decode(f)
	fmt.Println("PNG at 300 dpi:", img.Bounds().Dx(), "x", img.Bounds().Dy())
	files, _ := filepath.Glob(base + ".*")
	for _, file := range files {
		fmt.Println(filepath.Base(file))
	}
	points, _ := os.ReadFile(base + ".csv")
	fmt.Print(string(points))
	// Output:
	// PNG at 300 dpi: 1800 x 1200
	// throughput.csv
	// throughput.pdf
	// throughput.pgfplots.tex
	// throughput.png
	// throughput.svg
	// series,kind,x,y,y_low,y_high
	// uniform,point,0.1,0.1,,
	// uniform,point,0.2,0.2,,
	// uniform,point,0.3,0.25,,
}

func ExampleHeatmap_Save() {
	dir, _ := os.MkdirTemp("", "figure")
	defer os.RemoveAll(dir)
	h := &figure.Heatmap{Title: "speed-up", XLabel: "R_th (%)", YLabel: "pattern",
		XTicks: []string{"50", "70", "90"}, YTicks: []string{"trns", "shfl"},
		Z: [][]float64{{1.1, 1.3, 1.2}, {0.9, 1.0, 1.05}}}
	err := h.Save(filepath.Join(dir, "speedup"), figure.Output{Formats: []string{"png"}})
	fmt.Println(err)
	// Output: <nil>
}

// UnitTicks put 4 to 8 major ticks at round values (1, 2 or 5 times a power
// of ten), labelled with as many decimals as the step needs; on an integer
// quantity (SAQs in use) no tick falls between two whole numbers.
func ExampleUnitTicks() {
	for _, c := range []struct {
		lo, hi  float64
		integer bool
	}{{0, 13800, false}, {0, 0.3, false}, {0.02, 0.025, false}, {0, 5, true}, {0, 2.4, true}} {
		var labels []string
		for _, t := range (figure.UnitTicks{Integer: c.integer}).Ticks(c.lo, c.hi) {
			if t.Label != "" {
				labels = append(labels, t.Label)
			}
		}
		fmt.Println(labels)
	}
	// Output:
	// [0 2000 4000 6000 8000 10000 12000]
	// [0.0 0.1 0.2 0.3]
	// [0.020 0.021 0.022 0.023 0.024 0.025]
	// [0 1 2 3 4 5]
	// [0 1 2]
}
