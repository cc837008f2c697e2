package report

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"
)

// WriteText prints a readable table of results, then one digest line per run.
func WriteText(w io.Writer, rs []*Result) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "scenario\tpattern\tprocess\tcycles\toffered\taccepted\tlat mean\tp50\tp99\tmax\tnet lat\thops\tduration\tjain\t")
	fmt.Fprintln(tw, "\t\t\t\tflits/node/cyc\tflits/node/cyc\tcycles\tcycles\tcycles\tcycles\tcycles\t\tcycles\t\t")
	for _, r := range rs {
		dur := "-"
		if r.Process == "collective" {
			dur = strconv.FormatInt(r.CollectiveDurationCycles, 10)
			if !r.Completed {
				dur = "incomplete"
			}
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%.4f\t%.4f\t%.1f\t%d\t%d\t%d\t%.1f\t%.2f\t%s\t%.4f\t\n",
			r.Scenario, r.Pattern, r.Process, r.CyclesSimulated, r.OfferedFlitsPerNodeCycle, r.AcceptedFlitsPerNodeCycle,
			r.Latency.Mean, r.Latency.P50, r.Latency.P99, r.Latency.Max, r.NetworkLatency.Mean, r.MeanHops, dur, r.PerNodeAccepted.Jain)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, r := range rs {
		if r.Process != "collective" && r.MeasuredUndelivered > 0 {
			fmt.Fprintf(w, "note: %s: %d measured packets were still undelivered after the drain phase (the network is saturated; latency is a lower bound)\n", r.Scenario, r.MeasuredUndelivered)
		}
	}
	for _, r := range rs {
		fmt.Fprintf(w, "%s digest: %s\n", r.Scenario, r.Digest())
	}
	return nil
}

// CSVHeader is the header of WriteCSV's table; units are in the names.
var CSVHeader = []string{"scenario", "topology", "routing", "pattern", "process", "seed", "nodes", "cycles_simulated",
	"offered_flits_per_node_cycle", "injected_flits_per_node_cycle", "accepted_flits_per_node_cycle",
	"node_accepted_min_flits_per_cycle", "node_accepted_max_flits_per_cycle", "node_accepted_jain",
	"node_injected_min_flits_per_cycle", "node_injected_max_flits_per_cycle", "node_injected_jain",
	"latency_mean_cycles", "latency_p50_cycles", "latency_p99_cycles", "latency_max_cycles",
	"network_latency_mean_cycles", "network_latency_p99_cycles", "mean_hops", "packets_measured",
	"measured_packets_undelivered", "collective_duration_cycles", "completed", "digest"}

// WriteCSV writes one row per result.
func WriteCSV(w io.Writer, rs []*Result) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(CSVHeader); err != nil {
		return err
	}
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	u := func(x uint64) string { return strconv.FormatUint(x, 10) }
	for _, r := range rs {
		row := []string{r.Scenario, r.Topology, r.Routing, r.Pattern, r.Process, u(r.Seed), strconv.Itoa(r.Nodes),
			strconv.FormatInt(r.CyclesSimulated, 10), f(r.OfferedFlitsPerNodeCycle), f(r.InjectedFlitsPerNodeCycle),
			f(r.AcceptedFlitsPerNodeCycle), f(r.PerNodeAccepted.Min), f(r.PerNodeAccepted.Max), f(r.PerNodeAccepted.Jain),
			f(r.PerNodeInjected.Min), f(r.PerNodeInjected.Max), f(r.PerNodeInjected.Jain),
			f(r.Latency.Mean), u(r.Latency.P50), u(r.Latency.P99), u(r.Latency.Max),
			f(r.NetworkLatency.Mean), u(r.NetworkLatency.P99), f(r.MeanHops), u(r.Latency.Count),
			u(r.MeasuredUndelivered), strconv.FormatInt(r.CollectiveDurationCycles, 10), strconv.FormatBool(r.Completed), r.Digest()}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// WriteSeriesCSV writes a run's time series, one row per sample.
func WriteSeriesCSV(w io.Writer, r *Result) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"cycle", "in_flight_packets", "source_queued_packets", "valid_buffer_ratio", "mobility_ratio", "accepted_flits_per_node_cycle"})
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	for _, s := range r.Series {
		cw.Write([]string{strconv.FormatInt(s.Cycle, 10), strconv.FormatUint(s.InFlightPackets, 10),
			strconv.FormatUint(s.SourceQueuedPackets, 10), f(s.ValidBufferRatio), f(s.MobilityRatio), f(s.AcceptedFlitsPerNodeCycle)})
	}
	cw.Flush()
	return cw.Error()
}

// Record is a result with its digest, as written to JSON.
type Record struct {
	Digest string  `json:"digest"`
	Result *Result `json:"result"`
}

// WriteJSON writes results with their digests as an indented JSON array.
func WriteJSON(w io.Writer, rs []*Result) error {
	recs := make([]Record, len(rs))
	for i, r := range rs {
		recs[i] = Record{Digest: r.Digest(), Result: r}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(recs)
}
