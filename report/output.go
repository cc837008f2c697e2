package report

import (
	"encoding/csv"
	"fmt"
	"io"
	"slices"
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
func CSVHeader() []string { return append(slices.Clone(IdentityHeader), MetricHeader()...) }

// WriteCSV writes one row per result.
func WriteCSV(w io.Writer, rs []*Result) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(CSVHeader()); err != nil {
		return err
	}
	for _, r := range rs {
		if err := cw.Write(append(Identity(r), MetricRow(r)...)); err != nil {
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
	f := FormatFloat
	for _, s := range r.Series {
		cw.Write([]string{strconv.FormatInt(s.Cycle, 10), strconv.FormatUint(s.InFlightPackets, 10),
			strconv.FormatUint(s.SourceQueuedPackets, 10), f(s.ValidBufferRatio), f(s.MobilityRatio), f(s.AcceptedFlitsPerNodeCycle)})
	}
	cw.Flush()
	return cw.Error()
}
