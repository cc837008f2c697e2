package report

import (
	"math"
	"slices"
	"strconv"
	"strings"
)

// Metric is one number measured by a run, named with its unit, as it appears
// in CSV columns, plots and study reductions.
type Metric struct {
	Name  string
	Value func(*Result) float64
	// Has, when not nil, says whether a result has the metric at all (a
	// mechanism's metrics exist only in runs that use it); tables carry
	// such a column only when one of their results has it.
	Has func(*Result) bool
}

// MetricByName returns the registered metric of that name.
func MetricByName(name string) (Metric, bool) {
	for _, m := range Metrics() {
		if m.Name == name {
			return m, true
		}
	}
	return Metric{}, false
}

// Metrics lists the metrics of a Result in CSV column order. It returns a
// fresh slice: callers may not change the package's registry.
func Metrics() []Metric {
	u := func(f func(*Result) uint64) func(*Result) float64 {
		return func(r *Result) float64 { return float64(f(r)) }
	}
	return append([]Metric{
		{"cycles_simulated", func(r *Result) float64 { return float64(r.CyclesSimulated) }, nil},
		{"offered_flits_per_node_cycle", func(r *Result) float64 { return r.OfferedFlitsPerNodeCycle }, nil},
		{"injected_flits_per_node_cycle", func(r *Result) float64 { return r.InjectedFlitsPerNodeCycle }, nil},
		{"accepted_flits_per_node_cycle", func(r *Result) float64 { return r.AcceptedFlitsPerNodeCycle }, nil},
		{"node_accepted_min_flits_per_cycle", func(r *Result) float64 { return r.PerNodeAccepted.Min }, nil},
		{"node_accepted_max_flits_per_cycle", func(r *Result) float64 { return r.PerNodeAccepted.Max }, nil},
		{"node_accepted_jain", func(r *Result) float64 { return r.PerNodeAccepted.Jain }, nil},
		{"node_injected_min_flits_per_cycle", func(r *Result) float64 { return r.PerNodeInjected.Min }, nil},
		{"node_injected_max_flits_per_cycle", func(r *Result) float64 { return r.PerNodeInjected.Max }, nil},
		{"node_injected_jain", func(r *Result) float64 { return r.PerNodeInjected.Jain }, nil},
		// The fat-tree fairness paper's "the minimum value is now 57% of its
		// average value": the lowest node's injected throughput over the mean.
		{"node_injected_min_share_of_mean", func(r *Result) float64 { return Ratio(r.PerNodeInjected.Min, r.PerNodeInjected.Mean) }, nil},
		{"latency_mean_cycles", func(r *Result) float64 { return r.Latency.Mean }, nil},
		{"latency_p50_cycles", u(func(r *Result) uint64 { return r.Latency.P50 }), nil},
		{"latency_p99_cycles", u(func(r *Result) uint64 { return r.Latency.P99 }), nil},
		{"latency_max_cycles", u(func(r *Result) uint64 { return r.Latency.Max }), nil},
		{"network_latency_mean_cycles", func(r *Result) float64 { return r.NetworkLatency.Mean }, nil},
		{"network_latency_p99_cycles", u(func(r *Result) uint64 { return r.NetworkLatency.P99 }), nil},
		{"mean_hops", func(r *Result) float64 { return r.MeanHops }, nil},
		{"packets_measured", u(func(r *Result) uint64 { return r.Latency.Count }), nil},
		{"measured_packets_undelivered", u(func(r *Result) uint64 { return r.MeasuredUndelivered }), nil},
		// An unfinished collective has no duration: NaN keeps it out of
		// speed-ups, geometric means and bests.
		{"collective_duration_cycles", func(r *Result) float64 {
			if r.Process == "collective" && !r.Completed {
				return math.NaN()
			}
			return float64(r.CollectiveDurationCycles)
		}, nil},
		// An unfinished job has no completion time either.
		{"job_completion_cycles", jobMetric(func(j *JobResult) float64 { return float64(j.CompletionCycles) }, true), hasJob},
		{"job_zero_load_cycles", jobMetric(func(j *JobResult) float64 { return zeroIsNaN(float64(j.ZeroLoadCycles)) }, false), hasJob},
		// How far contention stretched the job: 1 where no messages met.
		{"job_completion_over_zero_load", jobMetric(func(j *JobResult) float64 {
			return Ratio(float64(j.CompletionCycles), zeroIsNaN(float64(j.ZeroLoadCycles)))
		}, true), hasJob},
		{"job_slowdown", jobMetric(func(j *JobResult) float64 { return round(j.Slowdown()) }, true), hasJob},
		{"mix_slowdown_max", func(r *Result) float64 {
			if r.Job == nil || !r.Completed || r.Job.AloneCycles == 0 {
				return math.NaN()
			}
			m := r.Job.Slowdown()
			for i := range r.Jobs {
				m = max(m, r.Jobs[i].Slowdown())
			}
			return round(m)
		}, hasJob},
		{"job_iteration_mean_cycles", jobMetric(func(j *JobResult) float64 { return j.IterationMeanCycles() }, true), hasJob},
		{"message_latency_mean_cycles", jobMetric(func(j *JobResult) float64 { return j.MessageLatencyMeanCycles }, false), hasJob},
		{"message_latency_max_cycles", jobMetric(func(j *JobResult) float64 { return float64(j.MessageLatencyMaxCycles) }, false), hasJob},
		{"throttled_node_cycle_share", func(r *Result) float64 { return r.ThrottledNodeCycleShare }, nil},
		{"circuit_lag_cycles", func(r *Result) float64 { return r.CircuitLagCycles }, nil},
		{"critical_load_flits_per_node_cycle", func(r *Result) float64 { return r.CriticalLoadFlitsPerNodeCycle }, nil},
		{"sat_idle_interval_cycles", satMetric(func(s *SATResult) float64 { return float64(s.IdleIntervalCycles) }), hasSAT},
		{"sat_interval_mean_cycles", satMetric(func(s *SATResult) float64 { return s.IntervalMeanCycles }), hasSAT},
		{"sat_interval_min_cycles", satMetric(func(s *SATResult) float64 { return float64(s.IntervalMinCycles) }), hasSAT},
		{"sat_interval_max_cycles", satMetric(func(s *SATResult) float64 { return float64(s.IntervalMaxCycles) }), hasSAT},
		{"sat_waiting_node_cycle_share", satMetric(func(s *SATResult) float64 { return s.WaitingNodeCycleShare }), hasSAT},
		{"sat_starved_node_cycle_share", satMetric(func(s *SATResult) float64 { return s.StarvedNodeCycleShare }), hasSAT},
		{"offered_wire_capacity_share", wireMetric(func(r *Result) float64 { return r.OfferedFlitsPerNodeCycle }), hasWire},
		{"accepted_wire_capacity_share", wireMetric(func(r *Result) float64 { return r.AcceptedFlitsPerNodeCycle }), hasWire},
		{"offered_bisection_share", bisectionMetric(func(r *Result) float64 { return r.OfferedFlitsPerNodeCycle }), hasBisection},
		{"relative_throughput", bisectionMetric(func(r *Result) float64 { return r.AcceptedFlitsPerNodeCycle }), hasBisection},
		{"latency_mean_ns", nsMetric(func(r *Result) float64 { return r.Latency.Mean }), hasSwitch},
		{"network_latency_mean_ns", nsMetric(func(r *Result) float64 { return r.NetworkLatency.Mean }), hasSwitch},
		{"accepted_bytes_per_node_ns", func(r *Result) float64 {
			if r.Switch == nil {
				return math.NaN()
			}
			return round(r.AcceptedFlitsPerNodeCycle * float64(r.Switch.FlitBytes) / r.Switch.CycleNs)
		}, hasSwitch},
		{"saqs_max_per_port_ingress", saqMetric(func(s *SAQResult) float64 { return float64(s.MaxPerPortIngress) }), hasSAQs},
		{"saqs_max_per_port_egress", saqMetric(func(s *SAQResult) float64 { return float64(s.MaxPerPortEgress) }), hasSAQs},
		{"saq_allocations", saqMetric(func(s *SAQResult) float64 { return float64(s.Allocations) }), hasSAQs},
		{"saq_refusals", saqMetric(func(s *SAQResult) float64 { return float64(s.Refusals) }), hasSAQs},
		{"saqs_max_per_port_ingress_run", saqMetric(func(s *SAQResult) float64 { return float64(s.MaxPerPortIngressRun) }), hasSAQs},
		{"saqs_max_per_port_egress_run", saqMetric(func(s *SAQResult) float64 { return float64(s.MaxPerPortEgressRun) }), hasSAQs},
		{"saq_peak_ingress_flits", saqMetric(func(s *SAQResult) float64 { return float64(s.PeakFlitsIngress) }), hasSAQs},
		{"saq_peak_egress_flits", saqMetric(func(s *SAQResult) float64 { return float64(s.PeakFlitsEgress) }), hasSAQs},
		{"saq_xoff_flits", saqMetric(func(s *SAQResult) float64 { return float64(s.XoffFlits) }), hasSAQs},
		classMetric("short_latency_mean_cycles", 0, func(s Stats) float64 { return s.Mean }),
		classMetric("short_latency_p50_cycles", 0, func(s Stats) float64 { return float64(s.P50) }),
		classMetric("short_latency_p99_cycles", 0, func(s Stats) float64 { return float64(s.P99) }),
		classMetric("short_latency_max_cycles", 0, func(s Stats) float64 { return float64(s.Max) }),
		classMetric("short_packets_measured", 0, func(s Stats) float64 { return float64(s.Count) }),
		classMetric("long_latency_mean_cycles", 1, func(s Stats) float64 { return s.Mean }),
		classMetric("long_latency_p50_cycles", 1, func(s Stats) float64 { return float64(s.P50) }),
		classMetric("long_latency_p99_cycles", 1, func(s Stats) float64 { return float64(s.P99) }),
		classMetric("long_latency_max_cycles", 1, func(s Stats) float64 { return float64(s.Max) }),
		classMetric("long_packets_measured", 1, func(s Stats) float64 { return float64(s.Count) }),
		{"requests_offered_per_node_cycle", rrMetric(func(r *Result) float64 { return r.RequestReply.OfferedRequestsPerNodeCycle }), hasRR},
		{"transactions_per_node_cycle", rrMetric(func(r *Result) float64 { return r.RequestReply.TransactionsPerNodeCycle }), hasRR},
		{"request_latency_mean_cycles", rrMetric(func(r *Result) float64 { return r.ClassLatency[0].Mean }), hasRR},
		{"round_trip_mean_cycles", rrMetric(func(r *Result) float64 { return r.ClassLatency[1].Mean }), hasRR},
		{"round_trip_p50_cycles", rrMetric(func(r *Result) float64 { return float64(r.ClassLatency[1].P50) }), hasRR},
		{"round_trip_p99_cycles", rrMetric(func(r *Result) float64 { return float64(r.ClassLatency[1].P99) }), hasRR},
		{"round_trip_max_cycles", rrMetric(func(r *Result) float64 { return float64(r.ClassLatency[1].Max) }), hasRR},
	}, trafficClassMetrics()...)
}

// trafficClassMetrics are the figures of each traffic class of a mix
// (traffic.class_volume_percent): class<k>_accepted_flits_per_node_cycle,
// its share of the accepted throughput, and its packets' latency, present
// in runs with class k.
func trafficClassMetrics() []Metric {
	var ms []Metric
	for k := range MaxClasses {
		has := func(r *Result) bool { return len(r.ClassAcceptedFlitsPerNodeCycle) > k }
		stat := func(get func(Stats) float64) func(*Result) float64 {
			return func(r *Result) float64 {
				if !has(r) || len(r.ClassLatency) <= k || r.ClassLatency[k].Count == 0 {
					return math.NaN()
				}
				return get(r.ClassLatency[k])
			}
		}
		name := "class" + strconv.Itoa(k) + "_"
		ms = append(ms,
			Metric{name + "accepted_flits_per_node_cycle", func(r *Result) float64 {
				if !has(r) {
					return math.NaN()
				}
				return r.ClassAcceptedFlitsPerNodeCycle[k]
			}, has},
			Metric{name + "latency_mean_cycles", stat(func(s Stats) float64 { return s.Mean }), has},
			Metric{name + "latency_p99_cycles", stat(func(s Stats) float64 { return float64(s.P99) }), has},
			Metric{name + "latency_max_cycles", stat(func(s Stats) float64 { return float64(s.Max) }), has},
		)
	}
	return ms
}

func hasRR(r *Result) bool { return r.RequestReply != nil }

// rrMetric reads a request-reply figure, NaN in other runs and where no
// transaction was measured.
func rrMetric(get func(*Result) float64) func(*Result) float64 {
	return func(r *Result) float64 {
		if r.RequestReply == nil || len(r.ClassLatency) < 2 || r.ClassLatency[1].Count == 0 {
			return math.NaN()
		}
		return get(r)
	}
}

func hasWire(r *Result) bool { return r.WireCapacity != nil }

// wireMetric is a throughput in flits/node/cycle as a share of the wire
// capacity, NaN in a run without it.
func wireMetric(get func(*Result) float64) func(*Result) float64 {
	return func(r *Result) float64 {
		if r.WireCapacity == nil || r.WireCapacity.FlitsPerNodeCycle == 0 {
			return math.NaN()
		}
		return round(get(r) / r.WireCapacity.FlitsPerNodeCycle)
	}
}

func hasBisection(r *Result) bool { return r.Bisection != nil }

func hasSwitch(r *Result) bool { return r.Switch != nil }

func hasSAQs(r *Result) bool { return r.SAQs != nil }

// saqMetric is a count of RECN's SAQs, NaN in a run without RECN.
func saqMetric(get func(*SAQResult) float64) func(*Result) float64 {
	return func(r *Result) float64 {
		if r.SAQs == nil {
			return math.NaN()
		}
		return get(r.SAQs)
	}
}

// nsMetric is a time in cycles converted to nanoseconds on the
// input/output-buffered switch, NaN in a run without it.
func nsMetric(get func(*Result) float64) func(*Result) float64 {
	return func(r *Result) float64 {
		if r.Switch == nil {
			return math.NaN()
		}
		return round(get(r) * r.Switch.CycleNs)
	}
}

// bisectionMetric is a throughput in flits/node/cycle as a share of twice
// the bisection bandwidth (the RECN paper's relative throughput), NaN in a
// run without it.
func bisectionMetric(get func(*Result) float64) func(*Result) float64 {
	return func(r *Result) float64 {
		if r.Bisection == nil || r.Bisection.FlitsPerNodeCycle == 0 {
			return math.NaN()
		}
		return round(get(r) / r.Bisection.FlitsPerNodeCycle)
	}
}

// classMetric is a latency statistic of message class k (0 short, 1 long),
// present in runs with two classes (not request-reply's nor a mix of
// traffic classes, which have metrics of their own); NaN when the class sent no measured
// packet (a count is then 0).
func classMetric(name string, k int, get func(Stats) float64) Metric {
	return Metric{Name: name, Has: func(r *Result) bool {
		return len(r.ClassLatency) > k && r.RequestReply == nil && r.ClassAcceptedFlitsPerNodeCycle == nil
	}, Value: func(r *Result) float64 {
		if len(r.ClassLatency) <= k || r.RequestReply != nil || r.ClassAcceptedFlitsPerNodeCycle != nil {
			return math.NaN()
		}
		s := r.ClassLatency[k]
		if s.Count == 0 && !strings.HasSuffix(name, "_measured") {
			return math.NaN()
		}
		return get(s)
	}}
}

func hasSAT(r *Result) bool { return r.SAT != nil }

func hasJob(r *Result) bool { return r.Job != nil }

// zeroIsNaN is v, or NaN for 0 (a figure not computed).
func zeroIsNaN(v float64) float64 {
	if v == 0 {
		return math.NaN()
	}
	return v
}

// jobMetric reads a job's figure, NaN in a run without a job, and, where
// whole is set, in one whose job did not finish.
func jobMetric(get func(*JobResult) float64, whole bool) func(*Result) float64 {
	return func(r *Result) float64 {
		if r.Job == nil || whole && !r.Completed {
			return math.NaN()
		}
		return get(r.Job)
	}
}

// satMetric reads a SAT measurement, NaN for a run without SAT (in a table
// mixing runs with and without it, so that no zero passes for a value).
func satMetric(get func(*SATResult) float64) func(*Result) float64 {
	return func(r *Result) float64 {
		if r.SAT == nil {
			return math.NaN()
		}
		return get(r.SAT)
	}
}

// MetricsFor lists the metrics that rs carry: every metric without Has,
// and those with Has that hold for one of rs.
func MetricsFor(rs []*Result) []Metric {
	var out []Metric
	for _, m := range Metrics() {
		if m.Has == nil || slices.ContainsFunc(rs, m.Has) {
			out = append(out, m)
		}
	}
	return out
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
func IdentityHeader() []string {
	return []string{"scenario", "topology", "routing", "pattern", "process", "seed", "nodes"}
}

// Identity is a run's identity columns.
func Identity(r *Result) []string {
	return []string{r.Scenario, r.Topology, r.Routing, r.Pattern, r.Process, strconv.FormatUint(r.Seed, 10), strconv.Itoa(r.Nodes)}
}

// MetricRow is a run's columns of metrics ms (MetricsFor of its table),
// then completed and digest.
func MetricRow(r *Result, ms []Metric) []string {
	var row []string
	for _, m := range ms {
		row = append(row, FormatFloat(m.Value(r)))
	}
	return append(row, strconv.FormatBool(r.Completed), r.Unfinished(), r.Digest())
}

// MetricHeader names MetricRow's columns for metrics ms.
func MetricHeader(ms []Metric) []string {
	var names []string
	for _, m := range ms {
		names = append(names, m.Name)
	}
	return append(names, "completed", "unfinished", "digest")
}
