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
	// throughput.png
	// throughput.svg
	// series,kind,x,y
	// uniform,point,0.1,0.1
	// uniform,point,0.2,0.2
	// uniform,point,0.3,0.25
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

// UnitTicks label a wide range without decimals and a narrow one with as
// many as its step needs.
func ExampleUnitTicks() {
	for _, r := range [][2]float64{{0, 13800}, {0, 0.3}, {0.02, 0.025}} {
		var labels []string
		for _, t := range (figure.UnitTicks{}).Ticks(r[0], r[1]) {
			if t.Label != "" {
				labels = append(labels, t.Label)
			}
		}
		fmt.Println(labels)
	}
	// Output:
	// [0 4000 8000 12000]
	// [0.00 0.15 0.30]
	// [0.0200 0.0225 0.0250]
}
