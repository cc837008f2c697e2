package runner

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/icnsim/icnsim/figure"
	"github.com/icnsim/icnsim/htmlreport"
	"github.com/icnsim/icnsim/internal/atomicfile"
	"github.com/icnsim/icnsim/internal/version"
	"github.com/icnsim/icnsim/report"
	"github.com/icnsim/icnsim/study"
)

// ReportFile is the study's HTML report, in its directory.
const ReportFile = "index.html"

// ReportsFile is the index of several studies' reports where index.html
// would be a study's report or a page icnsim did not write.
const ReportsFile = "icnsim-reports.html"

// paperPrefix starts the names of the figures drawn in a paper's form:
// the report shows them first.
const paperPrefix = "paper-"

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

// figureNames are the names of the study's figures in plots/ (a file of
// one of plot.formats), in the report's order: the paper-form figures by
// name, then the others by figureRank.
func figureNames(dir string, f *study.File) []string {
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
	rank := func(n string) int {
		if strings.HasPrefix(n, paperPrefix) {
			return -1
		}
		return figureRank(n)
	}
	slices.SortFunc(sorted, func(a, b string) int { return cmp.Or(cmp.Compare(rank(a), rank(b)), cmp.Compare(a, b)) })
	return sorted
}

// figureFiles are the figure's files in plots/ that exist, for the links
// under its caption, addressed from the study directory.
func figureFiles(dir, name string) []htmlreport.File {
	var out []htmlreport.File
	for _, ext := range []string{"svg", "png", "pdf", "csv", strings.TrimPrefix(figure.TeXSuffix, ".")} {
		if st, err := os.Stat(filepath.Join(dir, "plots", name+"."+ext)); err == nil && st.Mode().IsRegular() {
			format := strings.ToUpper(ext)
			if strings.HasSuffix(ext, "tex") {
				format = "pgfplots"
			}
			out = append(out, htmlreport.File{Format: format, Href: path.Join("plots", name+"."+ext)})
		}
	}
	return out
}

// studyPurpose is what the study is for: its file's leading comment (the
// # lines before the first line that is not a comment), without the
// comment marks, in paragraphs split at empty comment lines. A line
// indented past the text around it (a list, a table) keeps a line of its
// own.
func studyPurpose(src []byte) []string {
	var paras []string
	var para strings.Builder
	indented := false
	flush := func() {
		if para.Len() > 0 {
			paras = append(paras, para.String())
			para.Reset()
		}
		indented = false
	}
	for _, line := range strings.Split(string(src), "\n") {
		t := strings.TrimSpace(line)
		if t == "" {
			flush()
			continue
		}
		if !strings.HasPrefix(t, "#") {
			break
		}
		body := strings.TrimLeft(t, "#")
		text := strings.TrimSpace(body)
		if text == "" {
			flush()
			continue
		}
		// "#   text": indented past the one space after the mark.
		deep := strings.HasPrefix(body, "  ")
		switch {
		case para.Len() == 0:
		case deep || indented:
			para.WriteByte('\n')
		default:
			para.WriteByte(' ')
		}
		para.WriteString(text)
		indented = deep
	}
	flush()
	return paras
}

// atWords is the reference's point in words, in axis order ("traffic
// pattern = uniform, offered load (flits/node/cycle) = 0.05").
func atWords(f *study.File, r *study.Reference) string {
	var parts []string
	for _, k := range f.AxisKeys() {
		if v, ok := r.At[k]; ok {
			parts = append(parts, keyWords(k)+" = "+study.FormatParam(v))
		}
	}
	return strings.Join(parts, ", ")
}

// WriteReport writes DIR/index.html from the study's records and the
// files already in DIR (summary.txt, plots/): it runs and draws nothing.
func WriteReport(dir string, f *study.File, recs []*Record) error {
	summary, err := os.ReadFile(filepath.Join(dir, "summary.txt"))
	if err != nil {
		return fmt.Errorf("report: %w (write the study's outputs first: icnsim plot %s)", err, dir)
	}
	p := &htmlreport.Page{Title: f.Name, Purpose: studyPurpose(f.Source), Words: f.FixedWords(), Lengths: f.RunWords(), Version: version.String(), Study: string(f.Source), Summary: string(summary)}
	pts := pointMeans(f, recs)
	p.Unfinished = unfinishedRuns(pts)
	for _, r := range refRows(f, pts) {
		p.References = append(p.References, htmlreport.Reference{Source: r.ref.Source, Metric: report.Label(r.ref.Metric), MetricName: r.ref.Metric, At: atWords(f, r.ref),
			Published: r.ref.Value, Ours: r.ours, Difference: r.rel, Note: r.ref.Note})
	}
	svg := slices.Contains(f.Plot.Formats, "svg")
	for _, n := range figureNames(dir, f) {
		fig := htmlreport.Figure{Name: n, Caption: figureCaption(f, n), Files: figureFiles(dir, n)}
		if b, err := os.ReadFile(filepath.Join(dir, "plots", n+".svg")); err == nil && len(b) > 0 && svg {
			fig.SVG = b
		} else if b, err := os.ReadFile(filepath.Join(dir, "plots", n+".png")); err == nil && len(b) > 0 {
			fig.PNG = b
		} else if len(fig.Files) == 0 {
			return fmt.Errorf("report: figure %s: no readable file in %s", n, filepath.Join(dir, "plots"))
		}
		if strings.HasPrefix(n, paperPrefix) {
			p.PaperFigures = append(p.PaperFigures, fig)
		} else {
			p.Figures = append(p.Figures, fig)
		}
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

// ReportIndexPath is where the index of several studies' reports goes:
// in the directory that holds their directories (the deepest one holding
// every parent directory), or in cwd when only the file system's root
// holds them all; as index.html there, unless that directory is a study
// directory or holds an index.html that is not such an index, else as
// icnsim-reports.html. The path is relative to cwd when it lies under cwd.
func ReportIndexPath(dirs []string, cwd string) (string, error) {
	if len(dirs) == 0 {
		return "", errors.New("the index of reports needs at least one study directory")
	}
	abs := func(p string) string {
		if filepath.IsAbs(p) {
			return filepath.Clean(p)
		}
		return filepath.Join(cwd, p)
	}
	common := filepath.Dir(abs(dirs[0]))
	for _, d := range dirs[1:] {
		common = commonDir(common, filepath.Dir(abs(d)))
	}
	if filepath.Dir(common) == common { // the root: no directory of their own
		common = abs(cwd)
	}
	name := ReportFile
	if _, err := os.Stat(filepath.Join(common, "study.toml")); err == nil {
		name = ReportsFile
	} else if b, err := os.ReadFile(filepath.Join(common, ReportFile)); err == nil && !htmlreport.IsIndex(b) {
		name = ReportsFile
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("the index of reports: %w", err)
	}
	out := filepath.Join(common, name)
	if rel, err := filepath.Rel(abs(cwd), out); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return rel, nil
	}
	return out, nil
}

// commonDir is the deepest directory holding both a and b (clean,
// absolute paths).
func commonDir(a, b string) string {
	for {
		rel, err := filepath.Rel(a, b)
		if err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return a
		}
		up := filepath.Dir(a)
		if up == a {
			return a
		}
		a = up
	}
}

// indexPurposeChars is the most characters of a study's purpose the index
// of reports shows.
const indexPurposeChars = 300

// WriteReportIndex writes the index page at file (ReportIndexPath's) that
// links each study directory's report with the study's name, what it is
// for (the first sentence of its file's leading comment) and its number
// of figures. It reads each directory's study file and plots/; ctx stops
// the reading.
func WriteReportIndex(ctx context.Context, file string, dirs []string) error {
	idx := &htmlreport.Index{Version: version.String()}
	for _, d := range dirs {
		f, err := LoadStudy(ctx, d)
		if err != nil {
			return err
		}
		from, err := filepath.Abs(filepath.Dir(file))
		if err != nil {
			return err
		}
		to, err := filepath.Abs(filepath.Join(d, ReportFile))
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(from, to)
		if err != nil {
			return fmt.Errorf("the index of reports: %s: %w", d, err)
		}
		e := htmlreport.IndexEntry{Name: f.Name, Dir: d, Href: (&url.URL{Path: filepath.ToSlash(rel)}).String(), Words: f.FixedWords(), Figures: len(figureNames(d, f))}
		if purpose := studyPurpose(f.Source); len(purpose) > 0 {
			e.Purpose = htmlreport.CutWords(htmlreport.FirstSentence(strings.ReplaceAll(purpose[0], "\n", " ")), indexPurposeChars)
		}
		idx.Studies = append(idx.Studies, e)
	}
	var buf bytes.Buffer
	if err := htmlreport.WriteIndex(&buf, idx); err != nil {
		return fmt.Errorf("the index of reports: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return err
	}
	return atomicfile.Write(file, buf.Bytes())
}
