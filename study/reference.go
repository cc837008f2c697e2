package study

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/icnsim/icnsim/report"
)

// Reference is one published number that a study reproduces: a
// [[reference]] table naming its source, the metric, the published value
// and the point it belongs to (a value for axis keys, selecting exactly one
// point):
//
//	[[reference]]
//	source = "Izu & Vallejo, Table I"
//	metric = "node_injected_min_flits_per_cycle"
//	value = 0.39
//	at = { "traffic.pattern" = "uniform", "policy.injection" = "none" }
//	note = "phits = flits here"
//
// The study's outputs draw each reference beside our value on the figures
// of its metric, and list published value, ours and the relative
// difference in reference.csv and summary.txt.
//
// A published throughput of a load sweep (a routing's saturation
// throughput) is no one point's value: with reduce naming a [[reduce]] of
// kind saturation, at selects a line of that reduction (a value for every
// axis but the offered load) and ours is the metric at that line's
// saturation load:
//
//	[[reference]]
//	source = "Liu, Fig. 5(b)"
//	reduce = "saturation-throughput"
//	metric = "accepted_wire_capacity_share"
//	value = 0.20
//	at = { "router.routing" = "har-dor", "traffic.long_volume_percent" = 0 }
type Reference struct {
	Source string `toml:"source"`
	Metric string `toml:"metric"`
	// Value is the published value (required: RawValue is nil when the
	// table has no value key).
	Value    float64        `toml:"-"`
	RawValue *float64       `toml:"value"`
	At       map[string]any `toml:"at"`
	Note     string         `toml:"note"`
	// Reduce names a [[reduce]] of kind saturation when the value is a
	// line's saturation throughput rather than a point's value.
	Reduce string `toml:"reduce"`
	// Point is the index of the point At selects (set by ParseFile); with
	// Reduce, the line's point at the lowest load.
	Point int `toml:"-"`
	// Line are the indices of the line's points (with Reduce), and LoadKey
	// its offered-load axis.
	Line    []int  `toml:"-"`
	LoadKey string `toml:"-"`
}

// checkReferences checks every [[reference]] table against the expanded
// points and sets each one's Point.
func (f *File) checkReferences() []error {
	var errs []error
	axes := f.AxisKeys()
	metrics := report.MetricNames()
	for i := range f.References {
		r := &f.References[i]
		line := blockLine(f.Source, "reference", i, "metric")
		add := func(key string, v any, allowed string) {
			errs = append(errs, &FieldError{File: f.Path, Line: line, Key: fmt.Sprintf("reference[%d].%s", i, key), Value: v, Allowed: allowed})
		}
		if strings.TrimSpace(r.Source) == "" {
			add("source", r.Source, "the paper and its table, figure or section the number comes from (required)")
		}
		if !slices.Contains(metrics, r.Metric) {
			add("metric", r.Metric, "allowed: "+strings.Join(metrics, ", ")+didYouMean(r.Metric, metrics))
		}
		switch {
		case r.RawValue == nil:
			add("value", "(missing)", "a finite number: the published value in the metric's unit (required)")
		case math.IsNaN(*r.RawValue) || math.IsInf(*r.RawValue, 0):
			add("value", *r.RawValue, "a finite number: the published value in the metric's unit")
		default:
			r.Value = *r.RawValue
		}
		keys := make([]string, 0, len(r.At))
		for k := range r.At {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		var ok bool
		if keys, ok = f.checkAtKeys(r, keys, axes, add); !ok {
			continue
		}
		selectAxes := axes // the axes that must select exactly one point (or line)
		if r.Reduce != "" {
			red := slices.IndexFunc(f.Reduce, func(x Reduction) bool { return x.Name == r.Reduce })
			if red < 0 || f.Reduce[red].Kind != "saturation" {
				var names []string
				for _, x := range f.Reduce {
					if x.Kind == "saturation" {
						names = append(names, x.Name)
					}
				}
				add("reduce", r.Reduce, "the name of a [[reduce]] of kind saturation in this study: "+orNone(names))
				continue
			}
			loads := LoadAxes(axes)
			r.LoadKey = loads[0] // the saturation reduction has exactly one
			if _, ok := r.At[r.LoadKey]; ok {
				add("at."+r.LoadKey, r.At[r.LoadKey], "a saturation throughput belongs to a line of the sweep, not one load: leave the offered load out of at")
				continue
			}
			selectAxes = without(axes, loads)
		}
		var match []int
		for j := range f.Points {
			ok := true
			for _, k := range keys {
				v, _ := f.Points[j].Value(k)
				ok = ok && v == FormatParam(r.At[k])
			}
			if ok {
				match = append(match, j)
			}
		}
		missing := without(selectAxes, keys)
		switch {
		case len(match) == 0:
			add("at", formatAt(r.At, keys), "the values of the axes at one point of the sweep; none has these")
		case r.Reduce != "" && len(missing) > 0:
			add("at", formatAt(r.At, keys), fmt.Sprintf("values that select one line of the load sweep: give a value for %s too", strings.Join(missing, ", ")))
		case r.Reduce != "":
			r.Line, r.Point = match, match[0]
		case len(match) > 1:
			add("at", formatAt(r.At, keys), fmt.Sprintf("values that select one point; these select %d: give a value for %s too", len(match), strings.Join(missing, ", ")))
		default:
			r.Point = match[0]
		}
	}
	return errs
}

// checkAtKeys checks the keys of a reference's at: swept axes, or keys
// that are not swept whose value is the study's own (they select nothing,
// and are dropped). It returns the swept keys, and false after an error.
func (f *File) checkAtKeys(r *Reference, keys, axes []string, add addFunc) (swept []string, ok bool) {
	ok = true
	for _, k := range keys {
		if slices.Contains(axes, k) {
			swept = append(swept, k)
			continue
		}
		base, known := keyValue(&f.Config, k)
		switch {
		case !known || k == "seed" || k == "name":
			add("at."+k, r.At[k], "allowed: a swept axis key ("+orNone(axes)+"), or a configuration key at the study's own value"+didYouMean(k, axes))
			ok = false
		case FormatParam(base) != FormatParam(r.At[k]):
			add("at."+k, r.At[k], fmt.Sprintf("%s is not swept: every point of this study has %s = %s; give that value, sweep the key, or leave it out of at", k, k, formatValue(base)))
			ok = false
		}
	}
	return swept, ok
}

func orNone(names []string) string {
	if len(names) == 0 {
		return "(none here)"
	}
	return strings.Join(names, ", ")
}

func formatAt(at map[string]any, keys []string) string {
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%q = %s", k, FormatParam(at[k])))
	}
	return "{ " + strings.Join(parts, ", ") + " }"
}

func without(all, drop []string) []string {
	return slices.DeleteFunc(slices.Clone(all), func(k string) bool { return slices.Contains(drop, k) })
}

// PaperOf is the paper of a reference's source, its text before the first
// comma ("Izu & Vallejo 2002, Fig. 3" -> "Izu & Vallejo 2002").
func PaperOf(source string) string {
	paper, _, _ := strings.Cut(source, ",")
	return strings.TrimSpace(paper)
}
