package report

import (
	"encoding/csv"
	"io"
	"strconv"
)

// Per-flow statistics (measure.flow_stats, measure.flows): a destination
// node's collector counts its measured packets by source, for every source
// or for chosen ones.

// flowCounts are one destination's counts by source.
type flowCounts struct {
	index []int32 // by source: its slot, -1 for a source not counted; nil: every source, slot = source
	slots []FlowCount
}

// FlowCount is what one destination received from one source: measured
// packets, their flits, and their latency (from generation) summed and at
// its largest.
type FlowCount struct {
	Packets, Flits, LatencySum, LatencyMax uint64
}

// CountFlows makes c count its measured packets by source: from every one
// of nodes sources (srcs nil) or from srcs only. It allocates once, before
// the run.
func (c *Collector) CountFlows(nodes int, srcs []int) {
	fc := &flowCounts{}
	if srcs == nil {
		fc.slots = make([]FlowCount, nodes)
	} else {
		fc.index = make([]int32, nodes)
		for i := range fc.index {
			fc.index[i] = -1
		}
		for _, s := range srcs {
			if fc.index[s] < 0 {
				fc.index[s] = int32(len(fc.slots))
				fc.slots = append(fc.slots, FlowCount{})
			}
		}
	}
	c.flows = fc
}

// countFlow adds a measured packet from src of size flits and latency.
func (fc *flowCounts) countFlow(src int32, size, latency uint64) {
	i := src
	if fc.index != nil {
		if i = fc.index[src]; i < 0 {
			return
		}
	}
	s := &fc.slots[i]
	s.Packets++
	s.Flits += size
	s.LatencySum += latency
	s.LatencyMax = max(s.LatencyMax, latency)
}

// FlowFrom is what c counted from src, and whether it counts src.
func (c *Collector) FlowFrom(src int) (FlowCount, bool) {
	if c.flows == nil {
		return FlowCount{}, false
	}
	i := int32(src)
	if c.flows.index != nil {
		if i = c.flows.index[src]; i < 0 {
			return FlowCount{}, false
		}
	}
	return c.flows.slots[i], true
}

// Flow is one source-destination pair's measured packets over the window.
type Flow struct {
	Src     int    `json:"src"`
	Dst     int    `json:"dst"`
	Packets uint64 `json:"packets"`
	Flits   uint64 `json:"flits"`
	// FlitsPerCycle is the flits of the pair's measured packets over the
	// window's cycles: the pair's throughput.
	FlitsPerCycle     float64 `json:"flits_per_cycle"`
	LatencyMeanCycles float64 `json:"latency_mean_cycles"`
	LatencyMaxCycles  uint64  `json:"latency_max_cycles"`
}

// WriteFlowsCSV writes flows as CSV, a row per pair, units in the names.
func WriteFlowsCSV(w io.Writer, flows []Flow) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"src", "dst", "packets", "flits", "flits_per_cycle", "latency_mean_cycles", "latency_max_cycles"})
	for _, f := range flows {
		cw.Write([]string{strconv.Itoa(f.Src), strconv.Itoa(f.Dst), strconv.FormatUint(f.Packets, 10), strconv.FormatUint(f.Flits, 10),
			FormatFloat(f.FlitsPerCycle), FormatFloat(f.LatencyMeanCycles), strconv.FormatUint(f.LatencyMaxCycles, 10)})
	}
	cw.Flush()
	return cw.Error()
}
