package study

import (
	"fmt"
	"github.com/icnsim/icnsim/router/vc"
	"strconv"
	"strings"
)

// Measure is how a run is measured.
type Measure struct {
	// WarmupCycles is the warm-up; -1 takes the method's default
	// (Warmup).
	WarmupCycles  int64   `toml:"warmup_cycles"`
	MeasureCycles int64   `toml:"measure_cycles"`
	Method        string  `toml:"method"`
	BatchCycles   int64   `toml:"batch_cycles"`
	MinBatches    int     `toml:"min_batches"`
	MaxBatches    int     `toml:"max_batches"`
	Tolerance     float64 `toml:"tolerance"`
	DrainCycles   int64   `toml:"drain_cycles"`
	MaxCycles     int64   `toml:"max_cycles"`
	SampleCycles  int64   `toml:"sample_cycles"`
	// WatchdogCycles stops the run when flits are in flight and none has
	// moved for this many cycles (0: off).
	WatchdogCycles int64 `toml:"watchdog_cycles"`
	// StallCycles ends a collective run, as not completed, when no flit has
	// been injected or delivered for this many cycles while packets remain
	// (every node throttled for good, e.g. hyst with R_OFF = 100 and
	// R_n = 0 on an empty network); 0: off.
	StallCycles int64 `toml:"stall_cycles"`
	// SmoothSamples is the moving-average length, in samples, of the ramp
	// process's critical-load detection.
	SmoothSamples int `toml:"smooth_samples"`
	// BatchPackets is the size of a batch of the packet-batches method, in
	// delivered packets (0: 10 N^2, the fat-tree fairness paper's), and
	// PacketBatches the number of batches.
	BatchPackets  int64 `toml:"batch_packets"`
	PacketBatches int   `toml:"packet_batches"`
	// LinkStats counts, over the window (a collective: the whole run), the
	// flits of every router output channel and of each of its VCs and the
	// cycles its ready flits waited for a credit, with the routing's
	// channel-load bound where it can be traced (links.go); the result's
	// Links.
	LinkStats bool `toml:"link_stats"`
	// FlowStats counts every source-destination pair's measured packets
	// (networks of at most MaxFlowStatsNodes nodes), Flows only the pairs
	// it lists, "SRC:DST" separated by commas ("0:63, 5:9"); the result's
	// Flows.
	FlowStats bool   `toml:"flow_stats"`
	Flows     string `toml:"flows"`
	// WarmupDetect checks the warm-up after the run: "mser-5" finds where
	// the transient of the packets in the system ends (MSER-5 over the
	// time series; warmup.go) and the result states it; "none" (the
	// default; "" alike) does not.
	WarmupDetect string `toml:"warmup_detect"`
}

// MaxFlowStatsNodes bounds measure.flow_stats: its counts take nodes^2 x
// 32 bytes (32 MiB at 1,024 nodes).
const MaxFlowStatsNodes = 1024

// FlowPairs are measure.flows's pairs, in order.
func (m *Measure) FlowPairs() ([][2]int, error) {
	var out [][2]int
	for _, f := range strings.FieldsFunc(m.Flows, func(r rune) bool { return r == ',' || r == ' ' || r == ';' }) {
		s, d, ok := strings.Cut(f, ":")
		src, err1 := strconv.Atoi(s)
		dst, err2 := strconv.Atoi(d)
		if !ok || err1 != nil || err2 != nil {
			return nil, fmt.Errorf("%q is not a pair SRC:DST of node numbers", f)
		}
		out = append(out, [2]int{src, dst})
	}
	return out, nil
}

// Method defaults of the warm-up.
const (
	defaultWarmupCycles            = 10_000
	defaultPacketBatchWarmupCycles = 50_000 // the fat-tree fairness paper's
)

// Warmup is the warm-up in cycles: warmup_cycles, or with -1 the method's
// default: 50,000 for packet-batches (the fat-tree fairness paper's),
// 10,000 otherwise.
func (m *Measure) Warmup() int64 {
	switch {
	case m.WarmupCycles >= 0:
		return m.WarmupCycles
	case m.Method == "packet-batches":
		return defaultPacketBatchWarmupCycles
	}
	return defaultWarmupCycles
}

// ExpectedCycles is about how many cycles a run of c simulates, for
// progress reports: the warm-up and the window (window method), the
// warm-up and min_batches batches (batches), the warm-up and the batches
// at the offered load (packet-batches); a drain adds to each. 0 where it
// cannot be told before the run (a collective).
func (c Config) ExpectedCycles() int64 {
	m, t := &c.Measure, &c.Traffic
	switch {
	case t.Process == "collective" || t.Process == "job":
		return 0
	case m.Method == "batches":
		return m.Warmup() + int64(m.MinBatches)*m.BatchCycles
	case m.Method == "packet-batches":
		load := t.Load
		if t.Process == "saturation" || load <= 0 {
			load = 1
		}
		nodes := c.Nodes()
		if nodes <= 0 || t.PacketFlits <= 0 {
			return m.Warmup()
		}
		perBatch := float64(m.PacketsPerBatch(nodes)) * float64(t.PacketFlits) / (float64(nodes) * load)
		return m.Warmup() + int64(perBatch)*int64(m.PacketBatches)
	}
	return m.Warmup() + m.MeasureCycles
}

// PacketsPerBatch is the packet-batches method's batch size for a network
// of the given number of nodes.
func (m *Measure) PacketsPerBatch(nodes int) int64 {
	if m.BatchPackets > 0 {
		return m.BatchPackets
	}
	return 10 * int64(nodes) * int64(nodes)
}

// validateMeasure checks the [measure] table: the method and its windows,
// batches and limits, and a watchdog with margin over the longest
// legitimate wait.
func (c *Config) validateMeasure(add addFunc) {
	r, t := &c.Router, &c.Traffic
	m := &c.Measure
	if m.WarmupCycles < -1 {
		add("measure.warmup_cycles", m.WarmupCycles, "allowed: >= 0, or -1 for the method's default (10000; 50000 for packet-batches)")
	}
	if m.MeasureCycles < 1 {
		add("measure.measure_cycles", m.MeasureCycles, "allowed: >= 1")
	}
	if pairs, err := m.FlowPairs(); err != nil {
		add("measure.flows", m.Flows, "allowed: pairs SRC:DST of node numbers, separated by commas (\"0:63, 5:9\"): "+err.Error())
	} else if nodes := c.Nodes(); nodes > 0 {
		for _, p := range pairs {
			if p[0] < 0 || p[0] >= nodes || p[1] < 0 || p[1] >= nodes {
				add("measure.flows", m.Flows, fmt.Sprintf("pair %d:%d: nodes are 0..%d", p[0], p[1], nodes-1))
				break
			}
		}
		switch {
		case m.FlowStats && len(pairs) > 0:
			add("measure.flow_stats", m.FlowStats, "every pair, or the pairs of measure.flows: not both")
		case m.FlowStats && nodes > MaxFlowStatsNodes:
			add("measure.flow_stats", m.FlowStats, fmt.Sprintf("counts every pair of at most %d nodes (this network has %d: %d pairs); list the pairs to count in measure.flows", MaxFlowStatsNodes, nodes, nodes*nodes))
		}
	}
	switch {
	case m.WarmupDetect != "" && m.WarmupDetect != "none" && m.WarmupDetect != "mser-5":
		add("measure.warmup_detect", m.WarmupDetect, "allowed: none, mser-5 (the truncation point of MSER over batch means of 5 samples)")
	case m.WarmupDetect == "mser-5" && m.SampleCycles <= 0:
		add("measure.warmup_detect", m.WarmupDetect, "reads the time series: needs measure.sample_cycles > 0")
	case m.WarmupDetect == "mser-5" && t.Process == "collective":
		add("measure.warmup_detect", m.WarmupDetect, "a collective has no warm-up (its packets are queued at cycle 0)")
	}
	if m.LinkStats && r.Kind == "ioq" {
		add("measure.link_stats", m.LinkStats, `counted by the VC router only (router.kind = "vc"); the ioq switch reports its queues instead`)
	}
	if m.Method != "window" && m.Method != "batches" && m.Method != "packet-batches" {
		add("measure.method", m.Method, "allowed: window, batches, packet-batches"+didYouMean(m.Method, []string{"window", "batches", "packet-batches"}))
	} else if m.Method == "packet-batches" && t.Process == "collective" {
		add("measure.method", m.Method, "packet-batches measures a steady process (saturation, bernoulli, poisson), not a collective")
	}
	if m.BatchPackets < 0 {
		add("measure.batch_packets", m.BatchPackets, "allowed: 0 (10 x nodes^2) or >= 1 delivered packets per batch")
	}
	if m.Method == "packet-batches" && (m.PacketBatches < 1 || m.PacketBatches > 10000) {
		add("measure.packet_batches", m.PacketBatches, "allowed: 1..10000 batches")
	}
	if m.BatchCycles < 1 {
		add("measure.batch_cycles", m.BatchCycles, "allowed: >= 1")
	}
	if m.MinBatches < 2 || m.MaxBatches < m.MinBatches {
		add("measure.min_batches", m.MinBatches, "allowed: 2 <= min_batches <= max_batches")
	}
	if !(m.Tolerance > 0 && m.Tolerance < 1) {
		add("measure.tolerance", m.Tolerance, "allowed: > 0 and < 1 (relative half-width of the batch means' 95% interval)")
	}
	if m.DrainCycles < 0 {
		add("measure.drain_cycles", m.DrainCycles, "allowed: >= 0")
	}
	if m.MaxCycles < 1 {
		add("measure.max_cycles", m.MaxCycles, "allowed: >= 1")
	} else if t.Process != "collective" && t.Process != "job" && m.Method == "window" && m.WarmupCycles >= -1 && m.MeasureCycles >= 1 &&
		m.WarmupCycles <= MaxRunCycles && m.MeasureCycles <= MaxRunCycles && m.MaxCycles < m.Warmup()+m.MeasureCycles {
		add("measure.max_cycles", m.MaxCycles, fmt.Sprintf("allowed: >= warmup_cycles + measure_cycles = %d (the run must reach the end of its measurement window)", m.Warmup()+m.MeasureCycles))
	} else if need := float64(m.Warmup()) + float64(m.MinBatches)*float64(m.BatchCycles); t.Process != "collective" && t.Process != "job" && m.Method == "batches" &&
		m.WarmupCycles >= -1 && m.BatchCycles >= 1 && m.MinBatches >= 2 && float64(m.MaxCycles) < need {
		add("measure.max_cycles", m.MaxCycles, fmt.Sprintf("allowed: >= warmup_cycles + min_batches x batch_cycles = %.0f (the run must reach the end of its fewest batches)", need))
	}
	// A queue legitimately waits a routing delay, link and credit latencies
	// and a packet's serialisation; the watchdog needs a wide margin above.
	// Only from valid inputs: their own errors are reported already.
	// The VC router's pipeline stages (router.vc.*_cycles) add to the
	// routing delay; counted only when they are in range.
	inputsOK := c.packetSizesValid() && c.latenciesValid()
	stages := 0
	if t := &r.VC; (r.Kind == "vc" || r.Kind == "") && t.VCAllocationCycles >= 0 && t.VCAllocationCycles <= vc.MaxStageCycles &&
		t.SwitchAllocationCycles >= 1 && t.SwitchAllocationCycles <= vc.MaxStageCycles && t.CrossbarCycles >= 0 && t.CrossbarCycles <= vc.MaxStageCycles {
		stages = t.VCAllocationCycles + t.SwitchAllocationCycles - 1 + t.CrossbarCycles
	}
	if floor := 10 * int64(r.RoutingDelayCycles+stages+r.LinkLatencyCycles+r.CreditLatencyCycles+c.maxPacketFlits()); inputsOK && m.WatchdogCycles != 0 && m.WatchdogCycles < floor {
		add("measure.watchdog_cycles", m.WatchdogCycles, fmt.Sprintf("allowed: 0 (off) or >= %d (10 x (routing delay and pipeline stages + link and credit latencies + packet length))", floor))
	}
	if m.SampleCycles < 0 {
		add("measure.sample_cycles", m.SampleCycles, "allowed: 0 (no time series) or >= 1")
	}
	if m.SmoothSamples < 1 {
		add("measure.smooth_samples", m.SmoothSamples, "allowed: >= 1 samples")
	}
	if t.Process == "ramp" && m.SampleCycles < 1 {
		add("measure.sample_cycles", m.SampleCycles, "the ramp process finds the critical load from the time series: allowed >= 1")
	}
	if m.StallCycles < 0 {
		add("measure.stall_cycles", m.StallCycles, "allowed: 0 (off) or >= 1")
	}
}

// MaxRunCycles bounds every count of cycles a configuration gives: no run
// reaches it (2^60 cycles are millennia of simulation), and sums of a few
// such counts stay below overflow.
const MaxRunCycles = 1 << 60

// validateCycleBounds checks every count of cycles against MaxRunCycles.
func (c *Config) validateCycleBounds(add addFunc) {
	m, t := &c.Measure, &c.Traffic
	for _, k := range []struct {
		key string
		v   int64
	}{{"measure.warmup_cycles", m.WarmupCycles}, {"measure.measure_cycles", m.MeasureCycles}, {"measure.batch_cycles", m.BatchCycles},
		{"measure.drain_cycles", m.DrainCycles}, {"measure.max_cycles", m.MaxCycles}, {"measure.sample_cycles", m.SampleCycles},
		{"measure.watchdog_cycles", m.WatchdogCycles}, {"measure.stall_cycles", m.StallCycles}, {"measure.batch_packets", m.BatchPackets},
		{"traffic.ramp_cycles", t.RampCycles}, {"traffic.phase_cycle", t.PhaseCycle}, {"router.ioq.recn.idle_cycles", c.Router.IOQ.RECN.IdleCycles}} {
		if k.v > MaxRunCycles {
			add(k.key, k.v, "allowed: at most 2^60 = 1152921504606846976 (a count of cycles or packets no run reaches; sums of larger ones overflow)")
		}
	}
	if m.MaxBatches > 1_000_000 {
		add("measure.max_batches", m.MaxBatches, "allowed: min_batches..1000000 batches")
	}
	if m.SmoothSamples > 1_000_000 {
		add("measure.smooth_samples", m.SmoothSamples, "allowed: 1..1000000 samples")
	}
}
