// Package repro owns the paper forms (plot.paper_form): each draws a
// study's results as the figure or table of the paper it reproduces looks,
// with the paper's stated values beside ours. One file per paper: izu.go
// (Izu & Vallejo, SAT: Figs. 3-5), recn.go (García et al., RECN: Figs.
// 1-3), har.go (Liu, Hybrid-HAR: Figs. 6 and 9), entropy.go (Yokota et
// al., entropy throttling: Table 2). The forms' names and the axes each
// needs are checked by the study layer (study.PaperForms), so that
// validate refuses a study its form cannot draw; a form reads the study's
// typed parameters (study.ParseGate), never its strings' shapes.
//
// It may import study, report, figure and the policies whose parameters
// its forms read; the runner calls it.
package repro

import (
	"context"
	"fmt"
	"maps"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/icnsim/icnsim/figure"
	"github.com/icnsim/icnsim/report"
	"github.com/icnsim/icnsim/study"
)

// Point is one point of a study as the forms read it: its replicates'
// count, the means and standard deviations of every report metric over
// them, and their results.
type Point struct {
	Point   *study.Point
	N       int
	Mean    map[string]float64
	Std     map[string]float64
	Results []*report.Result
}

// Run is one run of a study: its point, its replicate and its result.
type Run struct {
	Point, Replicate int
	Result           *report.Result
}

// Ref is one [[reference]] of a study beside our value: the mean over the
// point's N replicates (Ours), the lowest and highest replicate (Lo, Hi),
// and (ours - published) / |published| (Rel; NaN when published is 0 or
// ours missing).
type Ref struct {
	Ref    *study.Reference
	Point  *study.Point
	Ours   float64
	Rel    float64
	N      int
	Lo, Hi float64
}

// Inputs are what a paper form draws from: the study, its points (means
// over their replicates), its runs, its [[reference]] values beside ours,
// the directory of its outputs, and how to read another finished study
// (a form that draws a sibling study's values beside its own).
type Inputs struct {
	File   *study.File
	Points []*Point
	Runs   []*Run
	Refs   []Ref
	Dir    string
	Load   func(ctx context.Context, dir string) (*study.File, []*Point, error)
}

// form is one value of plot.paper_form: how it draws and its caption,
// given the value's argument after a colon ("" for none).
type form struct {
	draw    func(ctx context.Context, in *Inputs, name, arg string) (saver, error)
	caption func(name, arg string) string
}

// saver is a drawn figure.
type saver interface {
	Save(base string, out figure.Output) error
}

// forms are the paper forms by name, one paper file's registry each.
func forms() map[string]form {
	all := map[string]form{}
	for _, m := range []map[string]form{izuForms(), recnForms(), harForms(), entropyForms()} {
		maps.Copy(all, m)
	}
	return all
}

// Draw draws the study's plot.paper_form into plotsDir, beside the
// generic figures: plotsDir/paper-FORM.* (see study.PaperForms; nothing
// when the study names none). The study's check has made sure that it has
// the axes the form needs; per-run figures read replicate 0.
func Draw(ctx context.Context, in *Inputs, plotsDir string, out figure.Output) error {
	name, arg := study.SplitPaperForm(in.File.Plot.PaperForm)
	if name == "" {
		return nil
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	fm, ok := forms()[name]
	if !ok {
		return fmt.Errorf("plot.paper_form = %q: no such form", in.File.Plot.PaperForm)
	}
	g, err := fm.draw(ctx, in, name, arg)
	if err != nil {
		return err
	}
	return g.Save(filepath.Join(plotsDir, FileName(name)), out)
}

// FileName is the file name (without extension) of a form's figure: the
// report lists the paper- figures first.
func FileName(name string) string { return "paper-" + name }

// Caption is the caption of the paper-form figure file name (without
// extension) that the study's plot.paper_form writes, a full sentence in
// words; false for any other name.
func Caption(f *study.File, name string) (string, bool) {
	form, arg := study.SplitPaperForm(f.Plot.PaperForm)
	fm, ok := forms()[form]
	if form == "" || !ok || strings.TrimSuffix(name, filepath.Ext(name)) != FileName(form) {
		return "", false
	}
	return fm.caption(form, arg), true
}

// title is a form's title, as the study's other figures are titled.
func title(f *study.File, what, group string) string {
	return figure.Title(f.Name, what, group, f.FixedWords())
}

// valueAt is key's value at p: its axis value, or the study's fixed one.
func valueAt(f *study.File, p *study.Point, key string) string {
	if v, ok := p.Value(key); ok {
		return v
	}
	if vs := f.KeyValues(key); len(vs) > 0 {
		return vs[0]
	}
	return ""
}

// atof reads a formatted number (NaN if it is none).
func atof(s string) float64 {
	x, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return math.NaN()
	}
	return x
}

// panelLetter is "(a)", "(b)", ... for panel i.
func panelLetter(i int) string {
	if i < 0 || i >= 26 {
		return fmt.Sprintf("(%d)", i+1)
	}
	return "(" + string(rune('a'+i)) + ")"
}

// restLabel is a point's values on keys, in words: "static, sat_k=4".
func restLabel(f *study.File, p *study.Point, keys []string) string {
	var parts []string
	for _, k := range keys {
		parts = append(parts, valueWords(k, valueAt(f, p, k)))
	}
	return strings.Join(parts, ", ")
}

// valueWords is an axis value as the papers name it (routing, injection
// policy, queue organisation, message mix), else "key=value".
func valueWords(key, v string) string {
	switch key {
	case "router.routing":
		if l := study.Routings()[v].Label; l != "" {
			return l
		}
	case "policy.injection":
		return izuPolicy(v)
	case "router.ioq.queues":
		if w, ok := map[string]string{"1q": "1Q", "voq-sw": "VOQsw", "voq-net": "VOQnet", "recn": "RECN"}[v]; ok {
			return w
		}
	case "traffic.long_volume_percent":
		return "P = " + v + "%"
	case "traffic.pattern":
		return v
	case "router.ioq.recn.xoff_scope":
		return "Xoff scope " + v
	}
	return study.ShortKey(key) + "=" + v
}

// sources are the papers of the published values of metrics, joined.
func sources(refs []Ref, metrics ...string) string {
	var out []string
	for _, r := range refs {
		if slices.Contains(metrics, r.Ref.Metric) && !slices.Contains(out, study.PaperOf(r.Ref.Source)) {
			out = append(out, study.PaperOf(r.Ref.Source))
		}
	}
	return strings.Join(out, "; ")
}

// nanGrid is rows x cols of NaN.
func nanGrid(rows, cols int) [][]float64 {
	g := make([][]float64, rows)
	for i := range g {
		g[i] = make([]float64, cols)
		for j := range g[i] {
			g[i][j] = math.NaN()
		}
	}
	return g
}

// panelName is a panel's title: its letter (the n-th panel), what it shows,
// and the values c of the axes rest it is drawn for, in words.
func panelName(n int, word string, rest, c []string) string {
	name := panelLetter(n) + " " + word
	for i, k := range rest {
		name += ", " + valueWords(k, c[i])
	}
	return name
}

// valueRows are the combinations of the values of rest in the study, and
// the index among them of a point's.
func valueRows(f *study.File, rest []string) ([][]string, func(*study.Point) int) {
	rows := f.ValueCombos(rest...)
	return rows, func(p *study.Point) int {
		return slices.IndexFunc(rows, func(c []string) bool {
			for i, k := range rest {
				if valueAt(f, p, k) != c[i] {
					return false
				}
			}
			return true
		})
	}
}

// paperFigureNumber is the number of the paper's figure a form draws
// ("1" for recn-fig1, "6" for har-fig6).
func paperFigureNumber(form string) string {
	_, n, _ := strings.Cut(form, "-fig")
	return n
}
