package study

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"maps"
	"math"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/icnsim/icnsim/report"
	"github.com/icnsim/icnsim/topology/graph"
)

// A study file is a base configuration (the keys of Config, at top level)
// plus optional [study], [[axis]], [plot] and [[reduce]] tables. A file with
// no [[axis]] is a study of one point, so every configuration file is a study.
//
//	[study]
//	replicates = 3            # runs per point, seeds derived as below
//	seeds = "common"          # or "per-point"
//
//	[[axis]]
//	key = "traffic.pattern"
//	values = ["uniform", "transpose"]
//
//	[[axis]]
//	key = "traffic.load_flits_per_node_cycle"
//	range = { from = 0.05, to = 0.5, step = 0.05 }
//
// Axes form a cartesian product, the first axis outermost; axes with the same
// `zip` name advance together instead (they must have equal lengths).
type File struct {
	Config
	Study  StudySpec   `toml:"study"`
	Axes   []Axis      `toml:"axis"`
	Plot   PlotSpec    `toml:"plot"`
	Reduce []Reduction `toml:"reduce"`
	// References are published numbers the study reproduces.
	References []Reference `toml:"reference"`

	// Path and Source are the file's name and bytes (for errors and for
	// copying the study next to its results).
	Path   string `toml:"-"`
	Source []byte `toml:"-"`
	// Points are the expanded sweep, in order.
	Points []Point `toml:"-"`
	// Warnings are what the file says that does nothing: keys without
	// effect under the rest of the configuration (noEffectWarnings), each
	// "FILE:LINE: warning: ...". validate and run print them.
	Warnings []string `toml:"-"`
	// graphs read the topology files the points name, once each.
	graphs *graphLoader
}

// StudySpec says how points are replicated.
type StudySpec struct {
	// Replicates is the number of runs of each point (1..1000).
	Replicates int `toml:"replicates"`
	// Seeds is "common" (replicate r has the same seed at every point:
	// common random numbers, the usual choice for comparing policies or
	// loads; replicate 0 uses the file's seed) or "per-point" (the seed is a
	// hash of the file's seed, the point's axis values and the replicate).
	Seeds string `toml:"seeds"`
}

// Axis is one swept key with its values (a list, or a range of numbers).
type Axis struct {
	Key    string `toml:"key"`
	Values []any  `toml:"values"`
	Range  *Range `toml:"range"`
	Zip    string `toml:"zip"`
	line   int
}

// Range is the numbers from, from+step, ... up to to (inclusive, within 1e-9).
type Range struct {
	From float64 `toml:"from"`
	To   float64 `toml:"to"`
	Step float64 `toml:"step"`
}

// PlotSpec chooses the figures of a study.
type PlotSpec struct {
	// X is the axis on the x of the curves (default: the swept load).
	X string `toml:"x"`
	// Lines is the axis with one line per value (default: the first other axis).
	Lines string `toml:"lines"`
	// Metrics of the curves against X (default: accepted throughput and mean latency).
	Metrics []string `toml:"metrics"`
	// HeatmapX, HeatmapY and HeatmapMetric draw a metric over two axes.
	HeatmapX      string `toml:"heatmap_x"`
	HeatmapY      string `toml:"heatmap_y"`
	HeatmapMetric string `toml:"heatmap_metric"`
	// MaxLines bounds the per-point figures (time series, per-node
	// throughput, latency CDF): one line per point, drawn only when the
	// study has at most this many points.
	MaxLines int `toml:"max_lines"`
	// Formats of the image files: svg, png, pdf. Every figure also writes a
	// CSV of the points it draws.
	Formats []string `toml:"formats"`
	// Labels are display names in figures (PhraseOf): a configuration
	// key's words ("router.routing" = "Routing"), a phrase for a key's
	// values with {} for the value ("traffic.long_volume_percent" =
	// "P = {}%"), or a value's name ("dor" = "DOR").
	Labels map[string]string `toml:"labels"`
	// WidthIn and HeightIn are a figure's print size in inches, FontPt its
	// axis labels' size in points, DPI the PNG files' resolution.
	WidthIn  float64 `toml:"width_in"`
	HeightIn float64 `toml:"height_in"`
	FontPt   float64 `toml:"font_pt"`
	DPI      int     `toml:"dpi"`
	// Title draws each figure's title; off, a paper's caption carries it.
	Title bool `toml:"title"`
	// YMax cuts the y-axis of latency figures (metrics with "latency" in
	// their name) at this value; 0: at LatencyCut times the zero-load
	// latency. Points above the cut are drawn as arrows at the top edge.
	YMax float64 `toml:"y_max"`
	// LatencyCut is the default cut of latency figures, as a multiple of
	// the zero-load latency (the latency at the lowest load, of the line
	// where it is highest); 0 draws every point.
	LatencyCut float64 `toml:"latency_cut"`
	// YLog draws latency figures on a logarithmic y-axis (what
	// latency_axis = "log", the default, does).
	YLog bool `toml:"y_log"`
	// LatencyAxis is the y-axis of latency figures: "log" (the default: the
	// whole range on a log scale), "cut" (linear, cut at y_max or at
	// latency_cut times the zero-load latency rounded up to 1, 2 or 5 x
	// 10^n, each point above it marked on the edge with its value) or
	// "linear" (the whole range).
	LatencyAxis string `toml:"latency_axis"`
	// CDF is the form of latency distributions: "log-x" (the default: the
	// share at or below a latency over a log latency axis, so that the
	// tail shows), "ccdf" (the share above it, log-log) or "linear".
	CDF string `toml:"cdf"`
	// NodeFigures is the form of the per-node figures: "topology" (a heatmap
	// over the grid on meshes and tori, bars grouped by leaf switch on
	// fat-trees), "line" (one line over node ids) or "both".
	NodeFigures string `toml:"node_figures"`
	// NodeScale is the colour scale of a per-node heatmap's panels: "auto"
	// (or "": one for all panels unless a panel's values span less than a
	// third of all the panels' range, then one each), "shared" or "panel".
	NodeScale string `toml:"node_scale"`
	// PaperForm also draws the reproduced figure in its paper's own form
	// (plots/paper-FORM.*, listed first in the report), with the published
	// values on it; "" draws none. Each form needs the paper's axes
	// (PaperForms, checkPaperForm):
	//   - izu-fig3: Izu & Vallejo's Fig. 3, the minimum, average and
	//     maximum node injection rate per traffic pattern as range bars;
	//   - izu-fig4: their Fig. 4, the average and minimum node rate against
	//     k = l, one line per pattern; "izu-fig4:STUDY" adds the no-SAT
	//     rates of the study directory ../STUDY as broad pale lines;
	//   - izu-fig5: their Fig. 5, each node's injection rate by node id,
	//     one panel per pattern, one line per policy;
	//   - recn-fig1, recn-fig2: García et al.'s Figs. 1 and 2, relative
	//     throughput in percent against offered load, configurations x
	//     traffic cases, one line per queue organisation;
	//   - recn-fig3: their Fig. 3, the most SAQs in use in one port against
	//     offered load, ingress and egress, with the SAQ limit;
	//   - har-fig6, har-fig9: Liu's Figs. 6 and 9, the short-message
	//     latency distribution on a log axis with the quoted maxima;
	//   - entropy-table2: Yokota et al.'s Table 2, the collective duration
	//     per pattern and guard time, ours beside the published, as bars.
	PaperForm string `toml:"paper_form"`
}

// DefaultLatencyCut is plot.latency_cut's default: latency figures stop at
// four times the zero-load latency, where the field's curves leave the
// page.
const DefaultLatencyCut = 4

// Reduction is a summary computed over the points' replicate means.
type Reduction struct {
	// Name names the output table (reduce-NAME.csv); default kind-metric.
	Name string `toml:"name"`
	// Kind is speedup, geomean, best or saturation (per line of the
	// load sweep, the saturation load by the summary's rule and Metric
	// there; the line is every axis but the offered load).
	Kind string `toml:"kind"`
	// Metric is a result metric, or "speedup" (the output of an earlier
	// speedup reduction).
	Metric string `toml:"metric"`
	// Goal is "min" when smaller values of Metric are better (durations,
	// latencies: the default for metrics named *_cycles) or "max".
	Goal string `toml:"goal"`
	// Baseline (speedup) maps axis keys to the value of the baseline point:
	// each point is compared with the point that has these values and its own
	// values on every other axis.
	Baseline map[string]any `toml:"baseline"`
	// Over (geomean, best) lists axes to take the geometric mean over first.
	Over []string `toml:"over"`
	// By (best) lists axes that group the points; the best point per group.
	By []string `toml:"by"`
}

// Param is one axis value of a point.
type Param struct {
	Key   string
	Value any
}

// Point is one combination of axis values and the configuration it gives.
type Point struct {
	Index  int
	Params []Param
	Config Config
	// labels are the study's [plot.labels] (Phrase).
	labels map[string]string
}

// Phrase is how figures name the point's value on axis key (PhraseOf
// with the study's [plot.labels]).
func (p *Point) Phrase(key string) string {
	v, _ := p.Value(key)
	return PhraseOf(p.labels, key, v)
}

// Label is the point's axis values, "key=value" joined by spaces.
func (p *Point) Label() string {
	var parts []string
	for _, pr := range p.Params {
		parts = append(parts, ShortKey(pr.Key)+"="+FormatParam(pr.Value))
	}
	return strings.Join(parts, " ")
}

// Value is the point's value on axis key, formatted.
func (p *Point) Value(key string) (string, bool) {
	for _, pr := range p.Params {
		if pr.Key == key {
			return FormatParam(pr.Value), true
		}
	}
	return "", false
}

// ShortKey is the leaf of a key path ("traffic.pattern" -> "pattern").
func ShortKey(key string) string {
	if i := strings.LastIndex(key, "."); i >= 0 {
		return key[i+1:]
	}
	return key
}

// FormatParam prints an axis value as it appears in CSV and labels.
func FormatParam(v any) string {
	switch x := v.(type) {
	case float64:
		return report.FormatFloat(x)
	case string:
		return x
	case []any: // a list-valued key (network.fattree.oversubscription)
		s := make([]string, len(x))
		for i, e := range x {
			s[i] = FormatParam(e)
		}
		return "[" + strings.Join(s, ", ") + "]"
	}
	return fmt.Sprint(v)
}

// RunSpec is one simulation of a study: a point and a replicate.
type RunSpec struct {
	Point     *Point
	Replicate int
	Config    Config // the point's configuration with this run's seed
}

// ID names the run's files: p000012-r003.
func (r *RunSpec) ID() string { return fmt.Sprintf("p%06d-r%03d", r.Point.Index, r.Replicate) }

// Runs lists every run of the study, point-major.
func (f *File) Runs() []RunSpec {
	var runs []RunSpec
	for i := range f.Points {
		p := &f.Points[i]
		for r := range f.Study.Replicates {
			cfg := p.Config
			cfg.Seed = f.seedOf(p, r)
			runs = append(runs, RunSpec{Point: p, Replicate: r, Config: cfg})
		}
	}
	return runs
}

// splitmix64 is the SplitMix64 finaliser: a bijective mix of 64 bits.
func splitmix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

func (f *File) seedOf(p *Point, r int) uint64 {
	base := f.Seed
	if f.Study.Seeds == "per-point" {
		h := fnv.New64a()
		fmt.Fprintf(h, "%d", base)
		for _, pr := range p.Params {
			fmt.Fprintf(h, "\x00%s=%s", pr.Key, FormatParam(pr.Value))
		}
		return splitmix64(h.Sum64() + uint64(r))
	}
	if r == 0 {
		return base
	}
	return splitmix64(base ^ uint64(r)*0xd1b54a32d192ed03)
}

// Limits on the size of a study.
const (
	MaxPoints     = 1_000_000
	MaxReplicates = 1000
	MaxRuns       = 1_000_000 // points x replicates
)

// LoadFile reads a study file strictly (see ParseFile); ctx stops it,
// while it reads the topology files the study names too.
func LoadFile(ctx context.Context, path string) (*File, error) {
	src, err := readFile(path)
	if err != nil {
		return nil, err
	}
	return ParseFileContext(ctx, path, src)
}

// ParseFile decodes a study, checks every key and value and expands the
// sweep. All problems are reported at once, each naming the file, the line
// where known, the key path, the bad value and what is allowed.
func ParseFile(name string, src []byte) (*File, error) {
	return ParseFileContext(context.Background(), name, src)
}

// ParseFileContext is ParseFile stopped by ctx: it reads each topology
// file the study names once (graphLoader), and a cancelled ctx stops the
// reading and returns its error.
func ParseFileContext(ctx context.Context, name string, src []byte) (*File, error) {
	f := &File{Config: Default(), Study: StudySpec{Replicates: 1, Seeds: "common"},
		Plot: PlotSpec{MaxLines: 12, Formats: []string{"svg", "png", "pdf"}, WidthIn: 6, HeightIn: 4, FontPt: 10, DPI: 300, Title: true, LatencyCut: DefaultLatencyCut, LatencyAxis: "log", CDF: "log-x", NodeFigures: "topology"}, Path: name, Source: src}
	md, errs, err := decodeAll(name, src, f)
	if err != nil {
		return nil, err
	}
	f.graphs = &graphLoader{ctx: ctx, graphs: map[string]*graph.Loaded{}}
	if err := f.graphs.attach(&f.Config.Network); err != nil {
		return nil, err
	}
	if !md.IsDefined("router", "routing") {
		// Left out, the routing is the topology family's where it names
		// one (a graph from a file: up*/down*), else the default's.
		if t, _ := f.Config.Network.table(); t != nil {
			if d, ok := t.(interface{ DefaultRouting() string }); ok {
				f.Config.Router.Routing = d.DefaultRouting()
			}
		}
	}
	if !md.IsDefined("name") {
		f.Name = ImpliedName(f.Config, f.Axes)
	}
	typeErrs := len(errs) > 0
	add := func(line int, key string, v any, allowed string) {
		errs = append(errs, &FieldError{File: name, Line: line, Key: key, Value: v, Allowed: allowed})
	}
	for _, k := range unknownKeys(md) {
		if len(k) >= 2 && (k[0] == "reduce" && k[1] == "baseline" || k[0] == "reference" && k[1] == "at") {
			continue // a map of axis keys, checked below
		}
		allowed := movedKey(k, &f.Config)
		if allowed == "" {
			allowed = unknownKey(k, "study or configuration key")
		}
		add(lineOf(src, k), k.String(), valueAt(src, lineOf(src, k)), allowed)
	}
	for i := range f.Axes {
		f.Axes[i].line = blockLine(src, "axis", i, "key")
	}
	zeros := leftOutKeys()
	for _, key := range slices.Sorted(maps.Keys(zeros)) {
		if v, _ := keyValue(&f.Config, key); v == 0 && md.IsDefined(strings.Split(key, ".")...) {
			add(lineOf(src, strings.Split(key, ".")), key, 0, zeros[key])
		}
	}

	// The study, plot and reduce tables.
	if f.Study.Replicates < 1 || f.Study.Replicates > MaxReplicates {
		add(lineOf(src, []string{"study", "replicates"}), "study.replicates", f.Study.Replicates, fmt.Sprintf("allowed: 1..%d runs per point", MaxReplicates))
	}
	if f.Study.Seeds != "common" && f.Study.Seeds != "per-point" {
		add(lineOf(src, []string{"study", "seeds"}), "study.seeds", f.Study.Seeds, `allowed: "common" (the same seeds at every point) or "per-point"`)
	}
	axisErrs := f.checkAxes(typeErrs)
	errs = append(errs, axisErrs...)
	errs = append(errs, f.checkPlotAndReduce()...)

	if len(axisErrs) == 0 {
		errs = append(errs, f.expand()...)
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if runs := len(f.Points) * f.Study.Replicates; runs > MaxRuns {
			add(lineOf(src, []string{"study", "replicates"}), "study.replicates", f.Study.Replicates,
				fmt.Sprintf("%d points x %d replicates = %d runs; at most %d runs per study: split it", len(f.Points), f.Study.Replicates, runs, MaxRuns))
		}
		for _, s := range selectors() {
			selected := []string{s.selected(&f.Config)}
			for _, p := range f.Points {
				selected = append(selected, s.selected(&p.Config))
			}
			unselectedTables(md, s, selected, func(key []string, allowed string) {
				add(lineOf(src, key), strings.Join(key, "."), "(table)", allowed)
			})
			for _, a := range f.Axes {
				if allowed := unselectedAxis(a.Key, s, selected); allowed != "" {
					add(a.line, a.Key, "(axis key)", allowed)
				}
			}
		}
		if len(errs) == 0 {
			errs = append(errs, f.checkOverriddenBase()...)
			errs = append(errs, f.checkAfterExpand()...)
			errs = append(errs, f.checkReferences()...)
		}
	} else {
		// The axes are broken; still report what is wrong with the base.
		for _, e := range f.Config.Validate() {
			errs = append(errs, f.locate(e, nil))
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	f.Warnings = f.noEffectWarnings(func(key string) bool {
		return md.IsDefined(strings.Split(key, ".")...) || slices.ContainsFunc(f.Axes, func(a Axis) bool { return a.Key == key })
	})
	if f.Study.Replicates == 2 {
		f.Warnings = append(f.Warnings, fmt.Sprintf("%s:%d: warning: study.replicates = 2: the 95%% intervals of the figures rest on two runs (Student's t = 12.7, about six times the normal's 1.96); 3 replicates give t = 4.3, 5 give 2.8",
			name, lineOf(src, []string{"study", "replicates"})))
	}
	return f, nil
}

// leftOutKeys are the keys whose value 0 stands for "left out" (a
// dragonfly's or HyperX's sizes take their balanced values: the families'
// LeftOut), with what is allowed: written as 0 in a file or an axis they
// are a mistake (no router has 0 nodes), not a request for the default,
// and are refused.
func leftOutKeys() map[string]string {
	out := map[string]string{}
	for _, name := range topologies() {
		t, path := (&Network{Topology: name}).table()
		if l, ok := t.(leftOuter); ok {
			for k, allowed := range l.LeftOut() {
				out[path+"."+k] = allowed
			}
		}
	}
	return out
}

// sweepableKeys are the configuration's key paths that an axis may sweep.
func sweepableKeys() []string {
	keys := configKeys()
	keys = slices.DeleteFunc(keys, func(k string) bool { return k == "seed" || k == "name" })
	slices.Sort(keys)
	return keys
}

// checkAxes checks the axes' keys, values and zip groups.
// After type errors (typeErrs), an axis whose values were dropped for a
// wrong type is not reported again as empty.
func (f *File) checkAxes(typeErrs bool) []error {
	var errs []error
	keys := sweepableKeys()
	seen := map[string]int{}
	for i := range f.Axes {
		a := &f.Axes[i]
		add := func(key string, v any, allowed string) {
			errs = append(errs, &FieldError{File: f.Path, Line: a.line, Key: key, Value: v, Allowed: allowed})
		}
		f.checkAxis(i, keys, seen, typeErrs, add)
	}
	return append(errs, f.checkZipGroups()...)
}

// checkAxis checks axis i: a sweepable key, once, and its values or range
// (expanded into its values). seen maps the keys of the axes before it to
// their index.
func (f *File) checkAxis(i int, keys []string, seen map[string]int, typeErrs bool, add addFunc) {
	a := &f.Axes[i]
	where := fmt.Sprintf("axis[%d]", i)
	switch {
	case a.Key == "seed":
		add(where+".key", a.Key, "the seed is not swept: set study.replicates (seeds derive from the file's seed)")
		return
	case !slices.Contains(keys, a.Key):
		msg := "not a configuration key an axis can sweep"
		if near := nearest(a.Key, keys, 4); len(near) > 0 {
			msg += "; nearest: " + strings.Join(near, ", ")
		}
		add(where+".key", a.Key, msg+" (icnsim config --default lists every key)")
		return
	}
	if j, dup := seen[a.Key]; dup {
		add(where+".key", a.Key, fmt.Sprintf("already swept by axis[%d]; one axis per key", j))
		return
	}
	seen[a.Key] = i
	if a.Range != nil && len(a.Values) > 0 {
		add(where, a.Key, "give values or range, not both")
		return
	}
	if a.Range != nil {
		vals, err := a.Range.expand(fieldKind(a.Key))
		if err != nil {
			add(where+".range", fmt.Sprintf("{from = %v, to = %v, step = %v}", a.Range.From, a.Range.To, a.Range.Step), err.Error())
			return
		}
		a.Values = vals
	}
	if len(a.Values) == 0 && !typeErrs {
		add(where+".values", "[]", "an axis needs at least one value (values = [...] or range = {from, to, step})")
	}
	first := map[string]int{}
	zeroMeans, leftOut := leftOutKeys()[a.Key]
	for j, v := range a.Values {
		if x, ok := v.(float64); ok && (math.IsNaN(x) || math.IsInf(x, 0)) {
			add(where+".values", v, "allowed: finite numbers")
			continue
		}
		if x, ok := v.(int64); ok && x == 0 && leftOut {
			add(where+".values", v, a.Key+": "+zeroMeans)
			continue
		}
		// A zipped axis may repeat a value; its group's tuples may not
		// (checked by checkZipGroups).
		if k, dup := first[FormatParam(v)]; dup && a.Zip == "" {
			add(where+".values", v, fmt.Sprintf("value %d repeats value %d; each value once", j, k))
			continue
		}
		first[FormatParam(v)] = j
	}
}

// checkZipGroups checks the zip groups: axes of equal lengths, and each
// combination of their values once.
func (f *File) checkZipGroups() []error {
	var errs []error
	// Zip groups: equal lengths.
	groups := map[string][]int{}
	for i, a := range f.Axes {
		if a.Zip != "" {
			groups[a.Zip] = append(groups[a.Zip], i)
		}
	}
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for k := range groups {
			if !yield(k) {
				return
			}
		}
	}) {
		idx := groups[name]
		first := f.Axes[idx[0]]
		equal := true
		for _, j := range idx {
			if len(f.Axes[j].Values) == 0 {
				equal = false // an axis without values, reported above
			}
		}
		for _, j := range idx[1:] {
			if a := f.Axes[j]; len(a.Values) != len(first.Values) && len(a.Values) > 0 && len(first.Values) > 0 {
				equal = false
				errs = append(errs, &FieldError{File: f.Path, Line: a.line, Key: fmt.Sprintf("axis[%d].zip", j), Value: name,
					Allowed: fmt.Sprintf("zipped axes need equal lengths: %s has %d values, %s has %d", first.Key, len(first.Values), a.Key, len(a.Values))})
			}
		}
		if !equal {
			continue
		}
		seen := map[string]int{}
		for v := range first.Values {
			var tuple []string
			for _, j := range idx {
				tuple = append(tuple, FormatParam(f.Axes[j].Values[v]))
			}
			key := strings.Join(tuple, " ")
			if k, dup := seen[key]; dup {
				errs = append(errs, &FieldError{File: f.Path, Line: first.line, Key: fmt.Sprintf("axis[%d].values", idx[0]), Value: key,
					Allowed: fmt.Sprintf("zip group %q: value %d repeats value %d in every zipped axis; each combination once", name, v, k)})
				break
			}
			seen[key] = v
		}
	}
	return errs
}

// expand computes the points, applying each axis value and validating every
// point; a problem common to many points is reported once.
func (f *File) expand() []error {
	// Groups of axes in order of first appearance; an axis without zip is a group of its own.
	var groups [][]int
	byName := map[string]int{}
	for i, a := range f.Axes {
		if a.Zip != "" {
			if g, ok := byName[a.Zip]; ok {
				groups[g] = append(groups[g], i)
				continue
			}
			byName[a.Zip] = len(groups)
		}
		groups = append(groups, []int{i})
	}
	total := 1
	for _, g := range groups {
		total *= len(f.Axes[g[0]].Values)
		if total > MaxPoints {
			return []error{&FieldError{File: f.Path, Line: f.Axes[g[0]].line, Key: "axis", Value: fmt.Sprintf("more than %d points", MaxPoints),
				Allowed: fmt.Sprintf("at most %d points per study; split it into several studies", MaxPoints)}}
		}
	}
	var errs []error
	seen := map[string]bool{}
	idx := make([]int, len(groups)) // odometer over the groups, last fastest
	for p := range total {
		pt := Point{Index: p, Config: f.Config, labels: f.Plot.Labels}
		for g, axes := range groups {
			for _, ai := range axes {
				pt.Params = append(pt.Params, Param{Key: f.Axes[ai].Key, Value: f.Axes[ai].Values[idx[g]]})
			}
		}
		slices.SortStableFunc(pt.Params, func(a, b Param) int { return f.axisIndex(a.Key) - f.axisIndex(b.Key) })
		ok := true
		for _, pr := range pt.Params {
			if err := setKey(&pt.Config, pr.Key, pr.Value); err != nil {
				ai := f.axisIndex(pr.Key)
				e := &FieldError{File: f.Path, Line: f.Axes[ai].line, Key: fmt.Sprintf("axis[%d].values", ai), Value: pr.Value,
					Allowed: fmt.Sprintf("%s: %v", pr.Key, err)}
				if !seen[e.Error()] {
					seen[e.Error()] = true
					errs = append(errs, e)
				}
				ok = false
			}
		}
		if ok && f.graphs.attach(&pt.Config.Network) != nil {
			break // cancelled: ParseFile returns ctx's error
		}
		if ok {
			for _, e := range pt.Config.Validate() {
				// One report per problem, however many points share it.
				key := e.Error()
				if fe, isField := e.(*FieldError); isField && f.axisIndex(fe.Key) < 0 {
					key = fe.Key + "\x00" + fe.Allowed
				}
				if !seen[key] {
					seen[key] = true
					errs = append(errs, f.locate(e, &pt))
				}
			}
		}
		f.Points = append(f.Points, pt)
		for g := len(groups) - 1; g >= 0; g-- {
			idx[g]++
			if idx[g] < len(f.Axes[groups[g][0]].Values) {
				break
			}
			idx[g] = 0
		}
		if len(errs) >= 50 {
			errs = append(errs, errors.New("(more problems not shown)"))
			break
		}
	}
	return errs
}

// checkOverriddenBase checks the values the file sets for keys an axis
// sweeps: never run, but a typo there (pattern = "unifrom") is still a
// mistake. Each is validated in the first point's configuration, and only
// the problems with that key are reported.
func (f *File) checkOverriddenBase() []error {
	var errs []error
	for ai, a := range f.Axes {
		line := lineOf(f.Source, strings.Split(a.Key, "."))
		base, ok := keyValue(&f.Config, a.Key)
		if line == 0 || !ok || len(f.Points) == 0 {
			continue
		}
		// Invalid in the first point and on its own (in the default
		// configuration): a value wrong only beside another swept key's
		// base value (vcs = 3 beside a zipped routing) is not a mistake.
		cfg, alone := f.Points[0].Config, Default()
		if setKey(&cfg, a.Key, base) != nil || setKey(&alone, a.Key, base) != nil || !hasKeyError(alone.Validate(), a.Key) {
			continue
		}
		for _, e := range cfg.Validate() {
			if fe, isField := e.(*FieldError); isField && fe.Key == a.Key {
				errs = append(errs, &FieldError{File: f.Path, Line: line, Key: a.Key, Value: base,
					Allowed: fmt.Sprintf("axis[%d] sweeps this key, so this value is never run, but it is not valid: %s; fix it or remove the line", ai, fe.Allowed)})
			}
		}
	}
	return errs
}

// hasKeyError reports whether errs has an error of key.
func hasKeyError(errs []error, key string) bool {
	return slices.ContainsFunc(errs, func(e error) bool {
		fe, ok := e.(*FieldError)
		return ok && fe.Key == key
	})
}

// locate gives a validation error of a point the file and line of the axis
// that set the bad value, or of the base key (naming the point).
func (f *File) locate(e error, pt *Point) error {
	fe, ok := e.(*FieldError)
	if !ok {
		return fmt.Errorf("%s: %w", f.Path, e)
	}
	out := *fe
	out.File = f.Path
	if ai := f.axisIndex(fe.Key); ai >= 0 && pt != nil {
		out.Line = f.Axes[ai].line
		out.Key = fmt.Sprintf("axis[%d] %s", ai, fe.Key)
		return &out
	}
	out.Line = lineOf(f.Source, strings.Split(fe.Key, "."))
	if pt != nil && len(pt.Params) > 0 {
		out.Allowed += " (at the point " + pt.Label() + ")"
	}
	return &out
}

func (f *File) axisIndex(key string) int {
	return slices.IndexFunc(f.Axes, func(a Axis) bool { return a.Key == key })
}

// AxisKeys lists the swept keys in file order.
func (f *File) AxisKeys() []string {
	var keys []string
	for _, a := range f.Axes {
		keys = append(keys, a.Key)
	}
	return keys
}

func (r *Range) expand(kind reflect.Kind) ([]any, error) {
	switch {
	case math.IsNaN(r.From) || math.IsNaN(r.To) || math.IsNaN(r.Step) || math.IsInf(r.From, 0) || math.IsInf(r.To, 0):
		return nil, errors.New("from, to and step must be finite numbers")
	case r.Step <= 0:
		return nil, errors.New("allowed: step > 0")
	case r.To < r.From:
		return nil, errors.New("allowed: from <= to")
	}
	n := math.Floor((r.To-r.From)/r.Step+1e-9) + 1
	if n > MaxPoints {
		return nil, fmt.Errorf("a range of at most %d values", MaxPoints)
	}
	integer := kind >= reflect.Int && kind <= reflect.Uint64
	if integer && (math.Abs(r.From) > 1<<53 || math.Abs(r.To) > 1<<53) {
		return nil, errors.New("the key takes integers; from and to must be within ±2^53")
	}
	var vals []any
	for i := range int(n) {
		v := math.Round((r.From+float64(i)*r.Step)*1e9) / 1e9
		if integer {
			if v != math.Trunc(v) {
				return nil, fmt.Errorf("the key takes integers; %v is not one", v)
			}
			vals = append(vals, int64(v))
			continue
		}
		vals = append(vals, v)
	}
	return vals, nil
}

// fieldKind is the Go kind of configuration key path key.
func fieldKind(key string) reflect.Kind {
	d := Default()
	v, ok := keyValue(&d, key)
	if !ok {
		return reflect.Invalid
	}
	if s, ok := v.(interface{ SweepKind() reflect.Kind }); ok {
		return s.SweepKind() // a value of its own type that reads numbers (a grid's k)
	}
	return reflect.TypeOf(v).Kind()
}

// keyValue is the value of key path key in cfg, and whether cfg has it.
func keyValue(cfg *Config, key string) (any, bool) {
	v := reflect.ValueOf(cfg).Elem()
	for _, part := range strings.Split(key, ".") {
		var ok bool
		if v, ok = fieldByKey(v, part); !ok {
			return nil, false
		}
	}
	return v.Interface(), true
}

// fieldByKey is the field of struct v whose TOML key is key, looking
// into embedded structs (the families' tables under [network]).
func fieldByKey(v reflect.Value, key string) (reflect.Value, bool) {
	if v.Kind() != reflect.Struct {
		return reflect.Value{}, false
	}
	for i := range v.NumField() {
		f := v.Type().Field(i)
		if f.Anonymous && f.Type.Kind() == reflect.Struct {
			if fv, ok := fieldByKey(v.Field(i), key); ok {
				return fv, true
			}
		} else if tomlName(f) == key && f.IsExported() {
			return v.Field(i), true
		}
	}
	return reflect.Value{}, false
}

// setKey sets key path key of cfg to v, with TOML's type rules.
func setKey(cfg *Config, key string, v any) error {
	parts := strings.Split(key, ".")
	var doc any = map[string]any{parts[len(parts)-1]: v}
	for i := len(parts) - 2; i >= 0; i-- {
		doc = map[string]any{parts[i]: doc}
	}
	var buf bytes.Buffer
	if err := toml.NewEncoder(&buf).Encode(doc); err != nil {
		return fmt.Errorf("cannot encode %v", v)
	}
	if _, err := toml.Decode(buf.String(), cfg); err != nil {
		msg := err.Error()
		if m := valueTypeRE.FindStringSubmatch(msg); m != nil {
			return fmt.Errorf("wrong type: %s where %s is needed", tomlWord(m[1]), typeWord(m[2]))
		}
		if i := strings.Index(msg, "incompatible types: "); i >= 0 {
			msg = msg[i+len("incompatible types: "):]
		}
		return errors.New("wrong type: " + msg)
	}
	return nil
}

// valueTypeRE reads the TOML decoder's type mismatch of one value.
var valueTypeRE = regexp.MustCompile(`TOML value has type ([^;]+); destination has type (\w+)`)

// studyTables are the tables a study file adds to a configuration.
func studyTables() map[string]reflect.Type {
	return map[string]reflect.Type{
		"study":        reflect.TypeOf(StudySpec{}),
		"axis":         reflect.TypeOf(Axis{}),
		"axis.range":   reflect.TypeOf(Range{}),
		"plot":         reflect.TypeOf(PlotSpec{}),
		"reduce":       reflect.TypeOf(Reduction{}),
		"reference":    reflect.TypeOf(Reference{}),
		"(study file)": reflect.TypeOf(File{}),
	}
}

// tagsOf lists a struct type's TOML keys.
func tagsOf(t reflect.Type) []string {
	var keys []string
	for i := range t.NumField() {
		tag := strings.Split(t.Field(i).Tag.Get("toml"), ",")[0]
		if tag != "" && tag != "-" {
			keys = append(keys, tag)
		}
	}
	slices.Sort(keys)
	return keys
}

// checkPlotAndReduce checks the [plot] and [[reduce]] tables.
func (f *File) checkPlotAndReduce() []error {
	var errs []error
	axes := f.AxisKeys()
	axisList := strings.Join(axes, ", ")
	if axisList == "" {
		axisList = "(this study has no axes)"
	}
	add := func(key string, v any, allowed string) {
		errs = append(errs, &FieldError{File: f.Path, Line: lineOf(f.Source, strings.Split(key, ".")), Key: key, Value: v, Allowed: allowed})
	}
	f.checkPlot(axes, axisList, add)
	haveSpeedup := false
	names := map[string]bool{}
	for i := range f.Reduce {
		line := blockLine(f.Source, "reduce", i, "kind")
		radd := func(key string, v any, allowed string) {
			errs = append(errs, &FieldError{File: f.Path, Line: line, Key: fmt.Sprintf("reduce[%d].%s", i, key), Value: v, Allowed: allowed})
		}
		f.checkReduction(i, axes, axisList, names, &haveSpeedup, radd)
	}
	return errs
}

// checkPlot checks the [plot] table against the study's axes.
func (f *File) checkPlot(axes []string, axisList string, add addFunc) {
	for _, k := range slices.Sorted(maps.Keys(f.Plot.Labels)) {
		v := f.Plot.Labels[k]
		switch {
		case strings.TrimSpace(v) == "":
			add("plot.labels."+k, v, "allowed: the words figures show for "+strconv.Quote(k)+" (not empty)")
		case strings.Contains(v, "{}") && !slices.Contains(configKeys(), k):
			add("plot.labels."+k, v, "a phrase with {} names the values of a configuration key (\"traffic.long_volume_percent\" = \"P = {}%\"); "+strconv.Quote(k)+" is none")
		}
	}
	metrics := report.MetricNames()
	for _, k := range []struct{ key, v string }{{"plot.x", f.Plot.X}, {"plot.lines", f.Plot.Lines}, {"plot.heatmap_x", f.Plot.HeatmapX}, {"plot.heatmap_y", f.Plot.HeatmapY}} {
		if k.v != "" && !slices.Contains(axes, k.v) {
			add(k.key, k.v, "allowed: a swept axis key: "+axisList)
		}
	}
	if f.Plot.X != "" && f.Plot.X == f.Plot.Lines {
		add("plot.lines", f.Plot.Lines, "allowed: an axis other than plot.x")
	}
	if ai := f.axisIndex(f.Plot.X); ai >= 0 {
		for _, v := range f.Axes[ai].Values {
			if _, err := strconv.ParseFloat(FormatParam(v), 64); err != nil {
				add("plot.x", f.Plot.X, fmt.Sprintf("the x of the curves must be a numeric axis; %s has the value %q", f.Plot.X, FormatParam(v)))
				break
			}
		}
	}
	if (f.Plot.HeatmapX == "") != (f.Plot.HeatmapY == "") {
		add("plot.heatmap_y", f.Plot.HeatmapY, "a heatmap needs both plot.heatmap_x and plot.heatmap_y")
	} else if f.Plot.HeatmapX != "" && f.Plot.HeatmapX == f.Plot.HeatmapY {
		add("plot.heatmap_y", f.Plot.HeatmapY, "allowed: an axis other than plot.heatmap_x")
	}
	hasSpeedup := slices.ContainsFunc(f.Reduce, func(r Reduction) bool { return r.Kind == "speedup" })
	if m := f.Plot.HeatmapMetric; m != "" && !slices.Contains(metrics, m) && !(m == "speedup" && hasSpeedup) {
		add("plot.heatmap_metric", m, "allowed: speedup (with a speedup reduction), "+strings.Join(metrics, ", "))
	}
	for _, m := range f.Plot.Metrics {
		if !slices.Contains(metrics, m) {
			add("plot.metrics", m, "allowed: "+strings.Join(metrics, ", ")+didYouMean(m, metrics))
		}
	}
	if math.IsNaN(f.Plot.YMax) || f.Plot.YMax < 0 || math.IsInf(f.Plot.YMax, 0) {
		add("plot.y_max", f.Plot.YMax, "allowed: a positive number (the top of latency figures, in the metric's unit), or 0 for the default cut")
	}
	if math.IsNaN(f.Plot.LatencyCut) || f.Plot.LatencyCut != 0 && f.Plot.LatencyCut < 1 || math.IsInf(f.Plot.LatencyCut, 0) {
		add("plot.latency_cut", f.Plot.LatencyCut, "allowed: a multiple of the zero-load latency >= 1, or 0 to draw every point")
	}
	switch f.Plot.LatencyAxis {
	case "log", "linear":
		if f.Plot.YMax > 0 {
			add("plot.y_max", f.Plot.YMax, fmt.Sprintf("y_max cuts the latency axis, which needs latency_axis = \"cut\" (it is %q)", f.Plot.LatencyAxis))
		}
		if f.Plot.YLog && f.Plot.LatencyAxis == "linear" {
			add("plot.y_log", f.Plot.YLog, `y_log = true asks for a log latency axis, but latency_axis = "linear": set one of them`)
		}
	case "cut":
		if f.Plot.YLog {
			add("plot.y_log", f.Plot.YLog, `y_log = true asks for a log latency axis, but latency_axis = "cut" (a linear axis): set one of them`)
		}
	default:
		add("plot.latency_axis", f.Plot.LatencyAxis, `allowed: "log" (the whole range on a log axis), "cut" (linear, cut at y_max or latency_cut x the zero-load latency) or "linear"`)
	}
	switch f.Plot.CDF {
	case "log-x", "ccdf", "linear":
	default:
		add("plot.cdf", f.Plot.CDF, `allowed: "log-x" (share at or below, log latency axis), "ccdf" (share above, log-log) or "linear"`)
	}
	switch f.Plot.NodeFigures {
	case "topology", "line", "both":
	default:
		add("plot.node_figures", f.Plot.NodeFigures, `allowed: "topology" (heatmap over the grid, bars by leaf switch), "line" (over node ids) or "both"`)
	}
	switch f.Plot.NodeScale {
	case "", "auto", "shared", "panel":
	default:
		add("plot.node_scale", f.Plot.NodeScale, `allowed: "auto" (one colour scale for all panels unless a panel spans less than a third of their range), "shared" or "panel" (one per panel)`)
	}
	if f.Plot.MaxLines < 0 || f.Plot.MaxLines > 1000 {
		add("plot.max_lines", f.Plot.MaxLines, "allowed: 0..1000 (0: no per-point figures)")
	}
	for _, fm := range f.Plot.Formats {
		if fm != "png" && fm != "svg" && fm != "pdf" {
			add("plot.formats", fm, `allowed: "svg", "png", "pdf"`)
		}
	}
	for _, k := range []struct {
		key       string
		v, lo, hi float64
		unit      string
	}{{"plot.width_in", f.Plot.WidthIn, 1, 40, "inches"}, {"plot.height_in", f.Plot.HeightIn, 1, 40, "inches"}, {"plot.font_pt", f.Plot.FontPt, 4, 36, "points"}} {
		if !(k.v >= k.lo && k.v <= k.hi) {
			add(k.key, k.v, fmt.Sprintf("allowed: %g..%g %s", k.lo, k.hi, k.unit))
		}
	}
	if f.Plot.DPI < 50 || f.Plot.DPI > 1200 {
		add("plot.dpi", f.Plot.DPI, "allowed: 50..1200 dots per inch (the PNG files' resolution)")
	}
	f.checkPaperForm(add)
}

// checkReduction checks [[reduce]] i: its kind, metric, goal and unique
// name (setting the defaults of goal and name), and the axes it groups by
// and averages over. haveSpeedup tells whether a speedup reduction came
// before (a later one may reduce its "speedup" metric).
func (f *File) checkReduction(i int, axes []string, axisList string, names map[string]bool, haveSpeedup *bool, radd addFunc) {
	metrics := report.MetricNames()
	r := &f.Reduce[i]
	switch r.Kind {
	case "speedup", "geomean", "best", "saturation":
	default:
		radd("kind", r.Kind, "allowed: speedup, geomean, best, saturation")
		return
	}
	if r.Metric == "speedup" && !*haveSpeedup {
		radd("metric", r.Metric, "needs an earlier [[reduce]] of kind speedup")
	} else if r.Metric != "speedup" && !slices.Contains(metrics, r.Metric) {
		radd("metric", r.Metric, "allowed: speedup (after a speedup reduction), "+strings.Join(metrics, ", "))
	}
	if r.Goal == "" {
		r.Goal = "max"
		if strings.HasSuffix(r.Metric, "_cycles") {
			r.Goal = "min"
		}
	} else if r.Goal != "min" && r.Goal != "max" {
		radd("goal", r.Goal, `allowed: "min" (smaller is better) or "max"`)
	}
	if r.Name == "" {
		r.Name = r.Kind + "-" + r.Metric
	}
	if names[r.Name] {
		radd("name", r.Name, "each reduction needs its own name")
	}
	names[r.Name] = true
	checkAxisList := func(key string, list []string) {
		for _, k := range list {
			if !slices.Contains(axes, k) {
				radd(key, k, "allowed: a swept axis key: "+axisList)
			}
		}
	}
	checkAxisList("over", r.Over)
	checkAxisList("by", r.By)
	for _, k := range r.By {
		if slices.Contains(r.Over, k) {
			radd("by", k, "an axis cannot be both grouped by (by) and averaged over (over)")
		}
	}
	switch r.Kind {
	case "speedup":
		if len(r.Baseline) == 0 {
			radd("baseline", "{}", `a speedup needs a baseline: { "axis.key" = value, ... }`)
		}
		for _, k := range slices.Sorted(mapKeys(r.Baseline)) {
			ai := f.axisIndex(k)
			if ai < 0 {
				radd("baseline", k, "allowed: a swept axis key: "+axisList)
				continue
			}
			v := FormatParam(r.Baseline[k])
			if !slices.ContainsFunc(f.Axes[ai].Values, func(x any) bool { return FormatParam(x) == v }) {
				radd("baseline", fmt.Sprintf("%s = %v", k, v), "the baseline must be one of the axis's values")
			}
		}
		*haveSpeedup = true
	case "geomean":
		if len(r.Over) == 0 {
			radd("over", "[]", "a geomean needs the axes to average over")
		}
	case "saturation":
		if len(r.Over) > 0 || len(r.By) > 0 {
			radd("by", append(r.Over, r.By...), "a saturation reduction has one row per combination of the axes other than the offered load; leave by and over out")
		}
		if loads := LoadAxes(axes); len(loads) != 1 {
			radd("kind", r.Kind, fmt.Sprintf("a saturation reduction needs exactly one swept offered-load axis (%s); this study sweeps %d", strings.Join(loadKeys(), ", "), len(loads)))
		}
	}
}

// IsLoadKey reports whether key gives the offered load (in one of its
// units).
func IsLoadKey(key string) bool { return slices.Contains(loadKeys(), key) }

// loadKeys are the keys that give the offered load, in its units.
func loadKeys() []string {
	return []string{"traffic.load_flits_per_node_cycle", "traffic.load_of_wire_capacity", "traffic.load_of_bisection"}
}

// LoadAxes are the offered-load keys among axes, in axis order.
func LoadAxes(axes []string) []string {
	var out []string
	for _, a := range axes {
		if slices.Contains(loadKeys(), a) {
			out = append(out, a)
		}
	}
	return out
}

func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// checkAfterExpand checks what needs the points: every speed-up baseline
// point exists (with zipped axes it may not).
func (f *File) checkAfterExpand() []error {
	var errs []error
	labels := map[string]bool{}
	for i := range f.Points {
		labels[f.Points[i].Label()] = true
	}
	for i, r := range f.Reduce {
		if r.Kind != "speedup" {
			continue
		}
		for j := range f.Points {
			base := Point{Params: slices.Clone(f.Points[j].Params)}
			for k := range base.Params {
				if v, ok := r.Baseline[base.Params[k].Key]; ok {
					base.Params[k].Value = v
				}
			}
			if !labels[base.Label()] {
				errs = append(errs, &FieldError{File: f.Path, Line: blockLine(f.Source, "reduce", i, "baseline"), Key: fmt.Sprintf("reduce[%d].baseline", i),
					Value: baselineString(r.Baseline), Allowed: fmt.Sprintf("the point %s has no baseline point (%s): with zipped axes, choose a baseline every point can reach", f.Points[j].Label(), base.Label())})
				break
			}
		}
	}
	return errs
}

func baselineString(m map[string]any) string {
	var parts []string
	for _, k := range slices.Sorted(mapKeys(m)) {
		parts = append(parts, k+" = "+FormatParam(m[k]))
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// blockLine finds the line of key leaf in the i-th [[table]] block (or the
// block's header line), 0 when unknown.
func blockLine(src []byte, table string, i int, leaf string) int {
	n, header := -1, 0
	for ln, line := range strings.Split(string(src), "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "[") {
			if strings.Trim(strings.SplitN(t, "#", 2)[0], "[] \t") == table && strings.HasPrefix(t, "[[") {
				n++
				if n == i {
					header = ln + 1
				}
				continue
			}
			if n == i && header > 0 {
				return header
			}
			continue
		}
		if n == i && header > 0 {
			if eq := strings.Index(t, "="); eq > 0 && strings.TrimSpace(t[:eq]) == leaf {
				return ln + 1
			}
		}
	}
	return header
}

// Describe prints the study's size and expanded axes (for icnsim validate).
func (f *File) Describe() string {
	var b strings.Builder
	runs := len(f.Points) * f.Study.Replicates
	fmt.Fprintf(&b, "%s: ok: study %q, %d points x %d replicates = %d runs (seeds: %s)\n", f.Path, f.Name, len(f.Points), f.Study.Replicates, runs, f.Study.Seeds)
	for i, a := range f.Axes {
		var vals []string
		for _, v := range a.Values {
			vals = append(vals, FormatParam(v))
		}
		zip := ""
		if a.Zip != "" {
			zip = " (zip " + strconv.Quote(a.Zip) + ")"
		}
		fmt.Fprintf(&b, "  axis[%d] %s%s: %d values: %s\n", i, a.Key, zip, len(a.Values), strings.Join(vals, ", "))
	}
	return b.String()
}

// CheckBuild reports, before anything runs, the errors found only when a
// run is built: for every distinct network, router and packet size of the
// study the router's checks and its channel-dependency check, and for
// every distinct network, traffic and policy the traffic sources' and the
// policy's checks. It builds nothing: a network too large for the machine
// can be checked.
func (f *File) CheckBuild(ctx context.Context) error {
	type netShape struct {
		n Network
		r Router
		p int
	}
	type trafficShape struct {
		n Network
		t Traffic
		p Policy
	}
	seenNet, seenTraffic := map[netShape]bool{}, map[trafficShape]bool{}
	var errs []error
	for i := range f.Points {
		pt := &f.Points[i]
		c := pt.Config
		if s := (netShape{c.Network, c.Router, c.Traffic.PacketFlits}); !seenNet[s] {
			seenNet[s] = true
			if err := checkNetwork(ctx, c); err != nil {
				if ctx.Err() != nil {
					return err
				}
				errs = append(errs, f.locate(err, pt))
			}
		}
		if s := (trafficShape{c.Network, c.Traffic, c.Policy}); !seenTraffic[s] {
			seenTraffic[s] = true
			if err := checkTraffic(ctx, c); err != nil {
				if ctx.Err() != nil {
					return err
				}
				errs = append(errs, f.locate(err, pt))
			}
		}
	}
	return errors.Join(errs...)
}

// Estimates returns the estimate of every distinct network, router, packet
// size and policy of the study, with the first point that has it.
func (f *File) Estimates() ([]Estimate, []*Point) {
	// Every input of EstimateRun but the offered load, which changes no
	// memory: the points of a load sweep share one estimate.
	type shape struct {
		n Network
		r Router
		t Traffic
		q Policy
		m string
	}
	seen := map[shape]bool{}
	var es []Estimate
	var pts []*Point
	for i := range f.Points {
		pt := &f.Points[i]
		c := pt.Config
		t := c.Traffic
		t.Load, t.LoadOfBisection, t.LoadOfWireCapacity = 0, 0, 0
		if s := (shape{c.Network, c.Router, t, c.Policy, c.Measure.Method}); !seen[s] {
			seen[s] = true
			if e, err := EstimateRun(c); err == nil {
				es, pts = append(es, e), append(pts, pt)
			}
		}
	}
	return es, pts
}

// CheckMemory refuses the study, before anything that takes time or memory
// in proportion to its networks (the deadlock check, the build), when
// jobs runs of one of its networks at once would need more than limit:
// the estimates come from the configuration alone (EstimateRun), the
// check's own graph included.
func (f *File) CheckMemory(jobs int, limit MemoryLimit) error {
	_, pts := f.Estimates()
	for _, pt := range pts {
		if err := CheckMemory(pt.Config, jobs, limit); err != nil {
			if len(pt.Params) > 0 {
				return fmt.Errorf("%s: at the point %s: %w", f.Path, pt.Label(), err)
			}
			return fmt.Errorf("%s: %w", f.Path, err)
		}
	}
	return nil
}
