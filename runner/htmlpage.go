package runner

import (
	"bytes"
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/icnsim/icnsim/htmlreport"
	"github.com/icnsim/icnsim/internal/atomicfile"
	"github.com/icnsim/icnsim/internal/version"
	"github.com/icnsim/icnsim/study"
)

// ReportFile is the study's HTML report, in its directory.
const ReportFile = "index.html"

// figureRank orders the report's figures: curves against the x axis
// first, then the comparisons with published values, heatmaps, per-node
// figures, time series and the rest; by name within a rank.
func figureRank(name string) int {
	for i, p := range []string{"-vs-", "reference-", "heatmap-", "node-", "series-"} {
		if strings.Contains(name, p) && (i == 0 || strings.HasPrefix(name, p)) {
			return i
		}
	}
	return 5
}

// WriteReport writes DIR/index.html from the study's records and the
// files already in DIR (summary.txt, plots/): it runs and draws nothing.
func WriteReport(dir string, f *study.File, recs []*Record) error {
	summary, err := os.ReadFile(filepath.Join(dir, "summary.txt"))
	if err != nil {
		return fmt.Errorf("report: %w (write the study's outputs first: icnsim plot %s)", err, dir)
	}
	p := &htmlreport.Page{Title: f.Name, Words: f.FixedWords(), Version: version.String(), Study: string(f.Source), Summary: string(summary)}
	pts := pointMeans(f, recs)
	for _, r := range refRows(f, pts) {
		p.References = append(p.References, htmlreport.Reference{Source: r.ref.Source, Metric: r.ref.Metric, At: atLabel(f, r.ref),
			Published: fmtG(r.ref.Value), Ours: fmtG(r.ours), Difference: pct(r.rel), Note: r.ref.Note})
	}
	names := map[string]bool{}
	for _, ext := range f.Plot.Formats {
		files, _ := filepath.Glob(filepath.Join(dir, "plots", "*."+ext))
		for _, file := range files {
			names[strings.TrimSuffix(filepath.Base(file), "."+ext)] = true
		}
	}
	var sorted []string
	for n := range names {
		sorted = append(sorted, n)
	}
	slices.SortFunc(sorted, func(a, b string) int { return cmp.Or(cmp.Compare(figureRank(a), figureRank(b)), cmp.Compare(a, b)) })
	for _, n := range sorted {
		fig := htmlreport.Figure{Name: n}
		if b, err := os.ReadFile(filepath.Join(dir, "plots", n+".svg")); err == nil && len(b) > 0 && slices.Contains(f.Plot.Formats, "svg") {
			fig.SVG = b
		} else if b, err := os.ReadFile(filepath.Join(dir, "plots", n+".png")); err == nil && len(b) > 0 {
			fig.PNG = b
		} else {
			return fmt.Errorf("report: figure %s: no readable SVG or PNG in %s", n, filepath.Join(dir, "plots"))
		}
		p.Figures = append(p.Figures, fig)
	}
	for _, rec := range recs {
		label := f.Points[rec.Point].Label()
		if f.Study.Replicates > 1 {
			label += fmt.Sprintf(" (replicate %d)", rec.Replicate)
		}
		p.Runs = append(p.Runs, htmlreport.Run{ID: rec.Run, Point: label, Seed: fmt.Sprint(rec.Seed), Digest: rec.Digest})
	}
	var buf bytes.Buffer
	if err := htmlreport.Write(&buf, p); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	return atomicfile.Write(filepath.Join(dir, ReportFile), buf.Bytes())
}
