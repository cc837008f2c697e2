package figure

import (
	"encoding/csv"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestTeXMatchesCSV: a chart's pgfplots file draws, line by line, the
// points its CSV lists (the same coordinates, as text), escapes what LaTeX
// would read as commands, carries the intervals as error bars and the
// published values as marks; where pdflatex is installed, it compiles.
func TestTeXMatchesCSV(t *testing.T) {
	dir := t.TempDir()
	nan := 0.0
	nan /= nan
	c := &Chart{Title: "latency vs load_flits_per_node_cycle", XLabel: "Offered load (flits/node/cycle)", YLabel: "Latency (cycles)", Points: true, YLog: true,
		Lines: []Line{
			{Name: "routing = dor & 50% long_", XY: [][2]float64{{0.1, 20}, {0.2, 25.5}, {0.3, 90}}, Lo: []float64{18, 24, nan}, Hi: []float64{22, 27, nan}},
			{Name: "hybrid-har", XY: [][2]float64{{0.1, 19}, {0.2, 22}, {0.3, 40}}},
		},
		Refs: []Ref{{Source: "Paper, Fig. 5", X: 0.2, Y: 30}}}
	base := filepath.Join(dir, "fig")
	if err := c.Save(base, Output{Formats: []string{"svg"}}); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(base + ".csv")
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(f).ReadAll()
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{}
	for _, r := range rows[1:] {
		if r[1] == "point" || r[1] == "above cut" || r[1] == "published" {
			want[texEscape(r[0])] = append(want[texEscape(r[0])], "("+r[2]+","+r[3]+")")
		}
	}
	tex, err := os.ReadFile(base + TeXSuffix)
	if err != nil {
		t.Fatal(err)
	}
	plot := regexp.MustCompile(`(?s)\\addplot\+\[([^\]]*)\] coordinates \{\n(.*?)\};\n\\addlegendentry\{(.*?)\}`)
	got := map[string][]string{}
	for _, m := range plot.FindAllStringSubmatch(string(tex), -1) {
		for _, line := range strings.Split(strings.TrimSpace(m[2]), "\n") {
			got[m[3]] = append(got[m[3]], strings.Fields(strings.TrimSpace(line))[0])
		}
		if m[3] == `routing = dor \& 50\% long\_` && !strings.Contains(m[1], "y explicit") {
			t.Errorf("the line with intervals has no error bars: %s", m[1])
		}
		if strings.HasPrefix(m[3], "Published") && !strings.Contains(m[1], "only marks") {
			t.Errorf("published values drawn as a line: %s", m[1])
		}
	}
	if len(got) != 3 || len(want) != 3 {
		t.Fatalf("tex lines %v, csv lines %v", got, want)
	}
	for name, pts := range want {
		if !slices.Equal(got[name], pts) {
			t.Errorf("%s: tex %v, csv %v", name, got[name], pts)
		}
	}
	if !strings.Contains(string(tex), "ymode=log") || !strings.Contains(string(tex), `+= (0,2) -= (0,2)`) {
		t.Errorf("log axis or error bar missing:\n%s", tex)
	}
	pdflatex, err := exec.LookPath("pdflatex")
	if err != nil {
		t.Log("no pdflatex here: the file is not compiled")
		return
	}
	cmd := exec.Command(pdflatex, "-interaction=nonstopmode", "-halt-on-error", "fig"+TeXSuffix)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("pdflatex: %v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "fig.pgfplots.pdf")); err != nil {
		t.Errorf("pdflatex wrote no fig.pgfplots.pdf: %v", err)
	}
}
