package report

import (
	"strings"
)

// metricLabels are the words figures and reports show for each metric:
// what it is, then its unit in parentheses (none for a ratio).
func metricLabels() map[string]string {
	return map[string]string{
		"cycles_simulated":                     "Cycles simulated",
		"offered_flits_per_node_cycle":         "Offered load (flits/node/cycle)",
		"injected_flits_per_node_cycle":        "Injected throughput (flits/node/cycle)",
		"accepted_flits_per_node_cycle":        "Accepted throughput (flits/node/cycle)",
		"node_accepted_min_flits_per_cycle":    "Lowest node's accepted throughput (flits/cycle)",
		"node_accepted_max_flits_per_cycle":    "Highest node's accepted throughput (flits/cycle)",
		"node_accepted_jain":                   "Jain fairness of accepted throughput",
		"node_injected_min_flits_per_cycle":    "Lowest node's injected throughput (flits/cycle)",
		"node_injected_max_flits_per_cycle":    "Highest node's injected throughput (flits/cycle)",
		"node_injected_jain":                   "Jain fairness of injected throughput",
		"node_injected_min_share_of_mean":      "Lowest node's injected throughput (share of the mean)",
		"latency_mean_cycles":                  "Mean packet latency (cycles)",
		"latency_p50_cycles":                   "Median packet latency (cycles)",
		"latency_p99_cycles":                   "99th-percentile packet latency (cycles)",
		"latency_max_cycles":                   "Maximum packet latency (cycles)",
		"network_latency_mean_cycles":          "Mean network latency (cycles)",
		"network_latency_p99_cycles":           "99th-percentile network latency (cycles)",
		"mean_hops":                            "Mean hops (switches)",
		"packets_measured":                     "Packets measured",
		"measured_packets_undelivered":         "Measured packets undelivered",
		"collective_duration_cycles":           "Collective duration (cycles)",
		"job_completion_cycles":                "Job completion time (cycles)",
		"job_iteration_mean_cycles":            "Mean time per iteration (cycles)",
		"job_slowdown":                         "Slowdown of the job in the mix",
		"mix_slowdown_max":                     "Largest slowdown of a job in the mix",
		"job_zero_load_cycles":                 "Completion time on an idle network (cycles)",
		"job_completion_over_zero_load":        "Completion time over its zero-load bound",
		"message_latency_mean_cycles":          "Mean message latency (cycles)",
		"message_latency_max_cycles":           "Maximum message latency (cycles)",
		"requests_offered_per_node_cycle":      "Offered requests (per node per cycle)",
		"transactions_per_node_cycle":          "Transactions (per node per cycle)",
		"request_latency_mean_cycles":          "Mean request latency (cycles)",
		"round_trip_mean_cycles":               "Mean round trip (cycles)",
		"round_trip_p50_cycles":                "Median round trip (cycles)",
		"round_trip_p99_cycles":                "99th-percentile round trip (cycles)",
		"round_trip_max_cycles":                "Maximum round trip (cycles)",
		"throttled_node_cycle_share":           "Share of node-cycles throttled",
		"circuit_lag_cycles":                   "Entropy circuit lag (cycles)",
		"critical_load_flits_per_node_cycle":   "Critical load (flits/node/cycle)",
		"sat_idle_interval_cycles":             "SAT idle token interval (cycles)",
		"sat_interval_mean_cycles":             "Mean SAT token interval (cycles)",
		"sat_interval_min_cycles":              "Shortest SAT token interval (cycles)",
		"sat_interval_max_cycles":              "Longest SAT token interval (cycles)",
		"sat_waiting_node_cycle_share":         "Share of node-cycles waiting for the SAT token",
		"sat_starved_node_cycle_share":         "Share of node-cycles starved (SAT)",
		"offered_wire_capacity_share":          "Offered load (share of wire capacity)",
		"accepted_wire_capacity_share":         "Accepted throughput (share of wire capacity)",
		"offered_bisection_share":              "Offered load (share of 2 x bisection bandwidth)",
		"relative_throughput":                  "Relative throughput (share of 2 x bisection bandwidth)",
		"latency_mean_ns":                      "Mean packet latency (ns)",
		"network_latency_mean_ns":              "Mean network latency (ns)",
		"accepted_bytes_per_node_ns":           "Accepted throughput (bytes/node/ns)",
		"saqs_max_per_port_ingress":            "Most SAQs in use in one ingress port",
		"saqs_max_per_port_egress":             "Most SAQs in use in one egress port",
		"saq_allocations":                      "SAQ allocations",
		"saq_refusals":                         "SAQ refusals",
		"saqs_max_per_port_ingress_run":        "Most SAQs in use in one ingress port, whole run",
		"saqs_max_per_port_egress_run":         "Most SAQs in use in one egress port, whole run",
		"saq_peak_ingress_flits":               "Most flits in one ingress SAQ, whole run (flits)",
		"saq_peak_egress_flits":                "Most flits in one egress SAQ, whole run (flits)",
		"saq_xoff_flits":                       "SAQ Xoff threshold (flits)",
		"saqs_in_use_ingress":                  "SAQs in use at ingress ports",
		"saqs_in_use_egress":                   "SAQs in use at egress ports",
		"saq_flits":                            "Flits in SAQs (flits)",
		"saq_fullest_flits":                    "Flits in the fullest SAQ (flits)",
		"injection_memory_packets":             "Packets in adapters' injection memories",
		"short_latency_mean_cycles":            "Mean short-message latency (cycles)",
		"short_latency_p50_cycles":             "Median short-message latency (cycles)",
		"short_latency_p99_cycles":             "99th-percentile short-message latency (cycles)",
		"short_latency_max_cycles":             "Maximum short-message latency (cycles)",
		"short_packets_measured":               "Short messages measured",
		"class0_accepted_flits_per_node_cycle": "Class 0 accepted throughput (flits/node/cycle)",
		"class1_accepted_flits_per_node_cycle": "Class 1 accepted throughput (flits/node/cycle)",
		"class2_accepted_flits_per_node_cycle": "Class 2 accepted throughput (flits/node/cycle)",
		"class3_accepted_flits_per_node_cycle": "Class 3 accepted throughput (flits/node/cycle)",
		"class0_latency_mean_cycles":           "Mean class 0 packet latency (cycles)",
		"class1_latency_mean_cycles":           "Mean class 1 packet latency (cycles)",
		"class2_latency_mean_cycles":           "Mean class 2 packet latency (cycles)",
		"class3_latency_mean_cycles":           "Mean class 3 packet latency (cycles)",
		"class0_latency_p99_cycles":            "Class 0 99th-percentile latency (cycles)",
		"class1_latency_p99_cycles":            "Class 1 99th-percentile latency (cycles)",
		"class2_latency_p99_cycles":            "Class 2 99th-percentile latency (cycles)",
		"class3_latency_p99_cycles":            "Class 3 99th-percentile latency (cycles)",
		"class0_latency_max_cycles":            "Largest class 0 packet latency (cycles)",
		"class1_latency_max_cycles":            "Largest class 1 packet latency (cycles)",
		"class2_latency_max_cycles":            "Largest class 2 packet latency (cycles)",
		"class3_latency_max_cycles":            "Largest class 3 packet latency (cycles)",
		"long_latency_mean_cycles":             "Mean long-message latency (cycles)",
		"long_latency_p50_cycles":              "Median long-message latency (cycles)",
		"long_latency_p99_cycles":              "99th-percentile long-message latency (cycles)",
		"long_latency_max_cycles":              "Maximum long-message latency (cycles)",
		"long_packets_measured":                "Long messages measured",
	}
}

// unitSuffixes maps a name's unit suffix to the unit a label shows, longest
// first.
func unitSuffixes() []struct{ suffix, unit string } {
	return []struct{ suffix, unit string }{
		{"_flits_per_node_cycle", "flits/node/cycle"},
		{"_flits_per_cycle", "flits/cycle"},
		{"_bytes_per_node_ns", "bytes/node/ns"},
		{"_cycles", "cycles"},
		{"_flits", "flits"},
		{"_bytes", "bytes"},
		{"_ns", "ns"},
	}
}

// Label returns the words for a metric or a key's last part in a figure:
// the registry's label for a metric, else the name in words with its unit
// suffix in parentheses ("queue_depth_flits" -> "Queue depth (flits)").
func Label(name string) string {
	if l, ok := metricLabels()[name]; ok {
		return l
	}
	return Words(name)
}

// Words writes a snake_case name in words with its unit suffix, if any,
// in parentheses.
func Words(name string) string {
	unit := ""
	for _, s := range unitSuffixes() {
		if base, ok := strings.CutSuffix(name, s.suffix); ok && base != "" {
			name, unit = base, s.unit
			break
		}
	}
	w := strings.ReplaceAll(name, "_", " ")
	if w != "" {
		w = strings.ToUpper(w[:1]) + w[1:]
	}
	if unit != "" {
		w += " (" + unit + ")"
	}
	return w
}
