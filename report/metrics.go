package report

import (
	"math"
	"strconv"
)

// Metric is one number measured by a run, named with its unit, as it appears
// in CSV columns, plots and study reductions.
type Metric struct {
	Name  string
	Value func(*Result) float64
}

// Metrics lists the metrics of a Result in CSV column order. It returns a
// fresh slice: callers may not change the package's registry.
func Metrics() []Metric {
	u := func(f func(*Result) uint64) func(*Result) float64 {
		return func(r *Result) float64 { return float64(f(r)) }
	}
	return []Metric{
		{"cycles_simulated", func(r *Result) float64 { return float64(r.CyclesSimulated) }},
		{"offered_flits_per_node_cycle", func(r *Result) float64 { return r.OfferedFlitsPerNodeCycle }},
		{"injected_flits_per_node_cycle", func(r *Result) float64 { return r.InjectedFlitsPerNodeCycle }},
		{"accepted_flits_per_node_cycle", func(r *Result) float64 { return r.AcceptedFlitsPerNodeCycle }},
		{"node_accepted_min_flits_per_cycle", func(r *Result) float64 { return r.PerNodeAccepted.Min }},
		{"node_accepted_max_flits_per_cycle", func(r *Result) float64 { return r.PerNodeAccepted.Max }},
		{"node_accepted_jain", func(r *Result) float64 { return r.PerNodeAccepted.Jain }},
		{"node_injected_min_flits_per_cycle", func(r *Result) float64 { return r.PerNodeInjected.Min }},
		{"node_injected_max_flits_per_cycle", func(r *Result) float64 { return r.PerNodeInjected.Max }},
		{"node_injected_jain", func(r *Result) float64 { return r.PerNodeInjected.Jain }},
		{"latency_mean_cycles", func(r *Result) float64 { return r.Latency.Mean }},
		{"latency_p50_cycles", u(func(r *Result) uint64 { return r.Latency.P50 })},
		{"latency_p99_cycles", u(func(r *Result) uint64 { return r.Latency.P99 })},
		{"latency_max_cycles", u(func(r *Result) uint64 { return r.Latency.Max })},
		{"network_latency_mean_cycles", func(r *Result) float64 { return r.NetworkLatency.Mean }},
		{"network_latency_p99_cycles", u(func(r *Result) uint64 { return r.NetworkLatency.P99 })},
		{"mean_hops", func(r *Result) float64 { return r.MeanHops }},
		{"packets_measured", u(func(r *Result) uint64 { return r.Latency.Count })},
		{"measured_packets_undelivered", u(func(r *Result) uint64 { return r.MeasuredUndelivered })},
		// An unfinished collective has no duration: NaN keeps it out of
		// speed-ups, geometric means and bests.
		{"collective_duration_cycles", func(r *Result) float64 {
			if r.Process == "collective" && !r.Completed {
				return math.NaN()
			}
			return float64(r.CollectiveDurationCycles)
		}},
		{"throttled_node_cycle_share", func(r *Result) float64 { return r.ThrottledNodeCycleShare }},
		{"circuit_lag_cycles", func(r *Result) float64 { return r.CircuitLagCycles }},
		{"critical_load_flits_per_node_cycle", func(r *Result) float64 { return r.CriticalLoadFlitsPerNodeCycle }},
	}
}

// MetricNames lists the metric names in CSV column order.
func MetricNames() []string {
	var names []string
	for _, m := range Metrics() {
		names = append(names, m.Name)
	}
	return names
}

// FormatFloat prints x in the shortest form that reads back exactly.
func FormatFloat(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// IdentityHeader names the columns that say what a run was.
var IdentityHeader = []string{"scenario", "topology", "routing", "pattern", "process", "seed", "nodes"}

// Identity is a run's identity columns.
func Identity(r *Result) []string {
	return []string{r.Scenario, r.Topology, r.Routing, r.Pattern, r.Process, strconv.FormatUint(r.Seed, 10), strconv.Itoa(r.Nodes)}
}

// MetricRow is a run's metric columns, in Metrics order, then completed and digest.
func MetricRow(r *Result) []string {
	var row []string
	for _, m := range Metrics() {
		row = append(row, FormatFloat(m.Value(r)))
	}
	return append(row, strconv.FormatBool(r.Completed), r.Digest())
}

// MetricHeader names MetricRow's columns.
func MetricHeader() []string { return append(MetricNames(), "completed", "digest") }
