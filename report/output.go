package report

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"text/tabwriter"
)

// WriteText prints a readable table of results, then one digest line per run.
func WriteText(w io.Writer, rs []*Result) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "scenario\tpattern\tprocess\tcycles\toffered\taccepted\tlat mean\tp50\tp99\tmax\tnet lat\thops\tduration\tjain\tfinished\t")
	fmt.Fprintln(tw, "\t\t\t\tflits/node/cyc\tflits/node/cyc\tcycles\tcycles\tcycles\tcycles\tcycles\t\tcycles\t\t\t")
	for _, r := range rs {
		dur := "-"
		switch {
		case r.Process == "collective":
			dur = strconv.FormatInt(r.CollectiveDurationCycles, 10)
		case r.Job != nil:
			dur = strconv.FormatInt(r.Job.CompletionCycles, 10)
		}
		if (r.Process == "collective" || r.Job != nil) && !r.Completed {
			dur = "incomplete"
		}
		finished := "yes"
		if r.Unfinished() != "" {
			finished = "NO"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%.4f\t%.4f\t%s\t%d\t%d\t%d\t%s\t%.2f\t%s\t%s\t%s\t\n",
			r.Scenario, r.Pattern, r.Process, r.CyclesSimulated, r.OfferedFlitsPerNodeCycle, r.AcceptedFlitsPerNodeCycle,
			fixed(r.Latency.Mean, 1), r.Latency.P50, r.Latency.P99, r.Latency.Max, fixed(r.NetworkLatency.Mean, 1), r.MeanHops, dur, fixed(r.PerNodeAccepted.Jain, 4), finished)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, r := range rs {
		if why := r.Unfinished(); why != "" {
			fmt.Fprintf(w, "NOT FINISHED: %s: %s\n", r.Scenario, why)
		}
	}
	for _, r := range rs {
		if s := r.WarmupWords(); s != "" {
			fmt.Fprintf(w, "%s: %s\n", r.Scenario, s)
		}
	}
	for _, r := range rs {
		writeFairness(w, r)
	}
	for _, r := range rs {
		fmt.Fprintf(w, "%s digest: %s\n", r.Scenario, r.Digest())
	}
	return nil
}

// writeFairness prints a run's batches and SAT measurements, when it has
// them: node throughput as the fat-tree fairness paper reports it.
func writeFairness(w io.Writer, r *Result) {
	if len(r.Batches) > 0 {
		fmt.Fprintf(w, "%s: node throughput (injected, flits/node/cycle) per batch, and overall:\n", r.Scenario)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "batch\tcycles\tpackets\tavg\tmin\tmax\tjain\tnet lat\t")
		for i, b := range r.Batches {
			fmt.Fprintf(tw, "%d\t%d..%d\t%d\t%.4f\t%.4f\t%.4f\t%.4f\t%.1f\t\n", i+1, b.FromCycle, b.ToCycle, b.PacketsDelivered,
				b.NodeInjected.Mean, b.NodeInjected.Min, b.NodeInjected.Max, b.NodeInjected.Jain, b.NetworkLatencyMeanCycles)
		}
		fmt.Fprintf(tw, "all\t%d..%d\t\t%.4f\t%.4f\t%.4f\t%.4f\t%.1f\t\n", r.MeasureFromCycle, r.MeasureToCycle,
			r.PerNodeInjected.Mean, r.PerNodeInjected.Min, r.PerNodeInjected.Max, r.PerNodeInjected.Jain, r.NetworkLatency.Mean)
		tw.Flush()
	}
	if s := r.SAT; s != nil {
		fmt.Fprintf(w, "%s: %s: interval mean %.1f, min %d, max %d cycles over %d intervals (idle network: %d); node-cycles waiting for the signal %.2f%%, holding it starved %.2f%%\n",
			r.Scenario, r.Injection, s.IntervalMeanCycles, s.IntervalMinCycles, s.IntervalMaxCycles, s.Intervals, s.IdleIntervalCycles,
			100*s.WaitingNodeCycleShare, 100*s.StarvedNodeCycleShare)
	}
}

// CSVHeader is the header of WriteCSV's table of results carrying metrics
// ms (MetricsFor); units are in the names.
func CSVHeader(ms []Metric) []string {
	return append(slices.Clone(IdentityHeader()), MetricHeader(ms)...)
}

// WriteCSV writes one row per result.
func WriteCSV(w io.Writer, rs []*Result) error {
	cw := csv.NewWriter(w)
	ms := MetricsFor(rs)
	if err := cw.Write(CSVHeader(ms)); err != nil {
		return err
	}
	for _, r := range rs {
		if err := cw.Write(append(Identity(r), MetricRow(r, ms)...)); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// WriteSeriesCSV writes a run's time series, one row per sample. A run of
// the input/output-buffered switch (Result.Switch) has no valid_buffer_ratio
// or mobility_ratio (the switch does not count its buffers per cycle) and
// adds injection_memory_packets; one with RECN adds its SAQs in use, the
// flits they hold and those of the fullest; one with SAT its interval and
// shares of nodes.
func WriteSeriesCSV(w io.Writer, r *Result) error {
	cw := csv.NewWriter(w)
	ioq := r.Switch != nil
	head := []string{"cycle", "in_flight_packets", "source_queued_packets"}
	if ioq {
		head = append(head, "injection_memory_packets")
	} else {
		head = append(head, "valid_buffer_ratio", "mobility_ratio")
	}
	head = append(head, "accepted_flits_per_node_cycle")
	saqs := len(r.Series) > 0 && r.Series[0].SAQs != nil
	if saqs {
		head = append(head, "saqs_in_use_ingress", "saqs_in_use_egress", "saq_flits", "saq_fullest_flits")
	}
	sat := len(r.Series) > 0 && r.Series[0].SAT != nil
	if sat {
		head = append(head, "sat_interval_mean_cycles", "sat_waiting_node_share", "sat_starved_node_share")
	}
	cw.Write(head)
	f := FormatFloat
	u := func(x uint64) string { return strconv.FormatUint(x, 10) }
	for _, s := range r.Series {
		row := []string{strconv.FormatInt(s.Cycle, 10), u(s.InFlightPackets), u(s.SourceQueuedPackets)}
		if ioq {
			row = append(row, u(s.InjectionMemoryPackets))
		} else {
			row = append(row, f(s.ValidBufferRatio), f(s.MobilityRatio))
		}
		row = append(row, f(s.AcceptedFlitsPerNodeCycle))
		if saqs && s.SAQs != nil {
			row = append(row, strconv.Itoa(s.SAQs.InUseIngress), strconv.Itoa(s.SAQs.InUseEgress), strconv.FormatInt(s.SAQs.Flits, 10), strconv.Itoa(s.SAQs.FullestFlits))
		}
		if sat && s.SAT != nil {
			row = append(row, f(s.SAT.IntervalMeanCycles), f(s.SAT.WaitingNodeShare), f(s.SAT.StarvedNodeShare))
		}
		cw.Write(row)
	}
	cw.Flush()
	return cw.Error()
}

// WriteMatrixCSV writes a run's injection matrix: one row per source node,
// one column per destination, packets started in the measurement window.
func WriteMatrixCSV(w io.Writer, r *Result) error {
	cw := csv.NewWriter(w)
	head := []string{"source_node"}
	for d := range r.InjectionMatrix {
		head = append(head, "to_"+strconv.Itoa(d))
	}
	cw.Write(head)
	row := make([]string, 0, len(head))
	for s, counts := range r.InjectionMatrix {
		row = append(row[:0], strconv.Itoa(s))
		for _, c := range counts {
			row = append(row, strconv.FormatUint(uint64(c), 10))
		}
		cw.Write(row)
	}
	cw.Flush()
	return cw.Error()
}

// fixed is v with prec decimals, or "-" where it is not a number (a mean
// of no packets): a table cell never reads NaN.
func fixed(v float64, prec int) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "-"
	}
	return strconv.FormatFloat(v, 'f', prec, 64)
}

// WarmupWords states the warm-up measure.warmup_detect found ("" where
// none was sought), and whether the window began after it.
func (r *Result) WarmupWords() string {
	if r.WarmupDetectedCycles <= 0 {
		return ""
	}
	s := fmt.Sprintf("warm-up check (MSER-5 on the packets in the system): the transient ends at about cycle %d; the window began at cycle %d", r.WarmupDetectedCycles, r.MeasureFromCycle)
	if r.WarmupDetectedCycles > r.MeasureFromCycle {
		return s + ", inside the transient: lengthen measure.warmup_cycles"
	}
	return s + ", after it"
}
