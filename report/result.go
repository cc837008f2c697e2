package report

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
)

// Stats summarises a latency histogram, in cycles.
type Stats struct {
	Count uint64  `json:"count"`
	Mean  float64 `json:"mean_cycles"`
	P50   uint64  `json:"p50_cycles"`
	P99   uint64  `json:"p99_cycles"`
	Max   uint64  `json:"max_cycles"`
}

// Summarise computes Stats of h.
func Summarise(h *Histogram) Stats {
	return Stats{Count: h.Count(), Mean: round(h.Mean()), P50: h.Quantile(0.5), P99: h.Quantile(0.99), Max: h.Max()}
}

// Spread summarises per-node values: min, max, mean and Jain's fairness index
// (sum x)^2 / (n * sum x^2), 1 when all are equal.
type Spread struct {
	Min  float64 `json:"min"`
	Max  float64 `json:"max"`
	Mean float64 `json:"mean"`
	Jain float64 `json:"jain"`
}

// SpreadOf computes the Spread of xs (in order, so it is reproducible).
func SpreadOf(xs []float64) Spread {
	if len(xs) == 0 {
		return Spread{}
	}
	s := Spread{Min: math.Inf(1), Max: math.Inf(-1)}
	var sum, sq float64
	for _, x := range xs {
		s.Min, s.Max = min(s.Min, x), max(s.Max, x)
		sum += x
		sq += x * x
	}
	s.Mean = sum / float64(len(xs))
	s.Jain = 1
	if sq > 0 {
		s.Jain = sum * sum / (float64(len(xs)) * sq)
	}
	s.Min, s.Max, s.Mean, s.Jain = round(s.Min), round(s.Max), round(s.Mean), round(s.Jain)
	return s
}

// Sample is one point of a run's time series, over the T cycles before Cycle.
type Sample struct {
	Cycle                     int64   `json:"cycle"`
	InFlightPackets           uint64  `json:"in_flight_packets"`
	SourceQueuedPackets       uint64  `json:"source_queued_packets"`
	ValidBufferRatio          float64 `json:"valid_buffer_ratio"` // mean N_v / N_r
	MobilityRatio             float64 `json:"mobility_ratio"`     // sum N_a / sum N_v
	AcceptedFlitsPerNodeCycle float64 `json:"accepted_flits_per_node_cycle"`
	// Entropy is the entropy circuit's view, when the circuit runs.
	Entropy *EntropySample `json:"entropy,omitempty"`
	// SAT is the SAT protocol's view, when SAT runs.
	SAT *SATSample `json:"sat,omitempty"`
	// SAQs counts RECN's set-aside queues in use, when RECN runs.
	SAQs *SAQSample `json:"saqs,omitempty"`
	// InjectionMemoryPackets is the input/output-buffered switch's packets
	// that have left their admission queue for the adapter's injection
	// memory and not yet started on the link: neither source-queued nor in
	// flight. (Not in Digest: see there.)
	InjectionMemoryPackets uint64 `json:"injection_memory_packets,omitempty"`
}

// SATSample is SAT over the T cycles before a sample.
type SATSample struct {
	// IntervalMeanCycles is the mean of the intervals that closed in the
	// period (0 when none did).
	IntervalMeanCycles float64 `json:"interval_mean_cycles"`
	// WaitingNodeShare is the share of node-cycles held at the quota k
	// with a packet ready; StarvedNodeShare the share spent holding the
	// signal starved.
	WaitingNodeShare float64 `json:"waiting_node_share"`
	StarvedNodeShare float64 `json:"starved_node_share"`
}

// SATResult is what the SAT protocol did in a run's measurement window.
type SATResult struct {
	// IdleIntervalCycles is the analytical interval of the idle network.
	IdleIntervalCycles int `json:"idle_interval_cycles"`
	// Intervals measured (receptions closing an interval in the window),
	// and their mean, min and max length.
	Intervals          uint64  `json:"intervals"`
	IntervalMeanCycles float64 `json:"interval_mean_cycles"`
	IntervalMinCycles  uint64  `json:"interval_min_cycles"`
	IntervalMaxCycles  uint64  `json:"interval_max_cycles"`
	// WaitingNodeCycleShare is the share of the window's node-cycles in
	// which a node had a packet ready to start and had reached its quota k
	// (waiting for the signal); StarvedNodeCycleShare the share in which a
	// node held the signal starved.
	WaitingNodeCycleShare float64 `json:"waiting_node_cycle_share"`
	StarvedNodeCycleShare float64 `json:"starved_node_cycle_share"`
}

// BatchResult is one batch of the packet-batches method.
type BatchResult struct {
	FromCycle        int64  `json:"from_cycle"`
	ToCycle          int64  `json:"to_cycle"`
	PacketsDelivered uint64 `json:"packets_delivered"`
	// NodeInjected is the spread of the nodes' injected throughput in the
	// batch (its mean is the average node throughput).
	NodeInjected              Spread  `json:"node_injected_flits_per_cycle"`
	AcceptedFlitsPerNodeCycle float64 `json:"accepted_flits_per_node_cycle"`
	// NetworkLatencyMeanCycles is the mean delay from injection of the
	// measured packets delivered in the batch.
	NetworkLatencyMeanCycles float64 `json:"network_latency_mean_cycles"`
}

// EntropySample is the state of entropy throttling at a sample cycle, in
// the terms of the extended paper's Fig. 9: %thr, %ba and %mr.
type EntropySample struct {
	// ThrottledNodeShare is the share of nodes in throttled mode (%thr / 100).
	ThrottledNodeShare float64 `json:"throttled_node_share"`
	// ValidPerRouter is the true N_v / N_r of the cycle (%ba / 100), counted
	// as the circuit counts.
	ValidPerRouter float64 `json:"valid_buffers_per_router"`
	// TrueMobilityRatio is the true N_a / N_v of the cycle (1 when N_v = 0).
	TrueMobilityRatio float64 `json:"true_mobility_ratio"`
	// CircuitMobilityRatio is the mean over routers of the R_a each reads
	// from the circuit (%mr / 100).
	CircuitMobilityRatio float64 `json:"circuit_mobility_ratio"`
}

// WireCapacity is the network's wire capacity (study.Config.WireCapacity):
// its channels, the pattern's mean minimal route length, and a load of 1
// in flits/node/cycle.
type WireCapacity struct {
	Channels          int     `json:"channels"`
	MeanRouteHops     float64 `json:"mean_route_hops"`
	FlitsPerNodeCycle float64 `json:"flits_per_node_cycle"`
}

// Bisection is the RECN paper's unit of throughput (study.Config.Bisection):
// twice the bisection bandwidth, the most that uniform traffic can carry
// across a k x k mesh or torus, from the channels crossing its bisection.
type Bisection struct {
	Channels          int     `json:"channels"`             // unidirectional channels across the cut
	FlitsPerNodeCycle float64 `json:"flits_per_node_cycle"` // 2 x Channels / nodes
}

// Result is what one run measured. It holds nothing that depends on how the
// run was executed (executor, workers, wall time), so its digest is a pure
// function of the configuration and seed.
type Result struct {
	Scenario                  string  `json:"scenario"`
	Topology                  string  `json:"topology"`
	Routing                   string  `json:"routing"`
	Pattern                   string  `json:"pattern"`
	Process                   string  `json:"process"`
	Seed                      uint64  `json:"seed"`
	Nodes                     int     `json:"nodes"`
	Routers                   int     `json:"routers"`
	CyclesSimulated           int64   `json:"cycles_simulated"`
	MeasureFromCycle          int64   `json:"measure_from_cycle"`
	MeasureToCycle            int64   `json:"measure_to_cycle"`
	OfferedFlitsPerNodeCycle  float64 `json:"offered_flits_per_node_cycle"`
	InjectedFlitsPerNodeCycle float64 `json:"injected_flits_per_node_cycle"`
	AcceptedFlitsPerNodeCycle float64 `json:"accepted_flits_per_node_cycle"`
	PerNodeAccepted           Spread  `json:"per_node_accepted_flits_per_cycle"`
	PerNodeInjected           Spread  `json:"per_node_injected_flits_per_cycle"`
	PacketsGenerated          uint64  `json:"packets_generated"`
	PacketsDelivered          uint64  `json:"packets_delivered"`
	MeasuredUndelivered       uint64  `json:"measured_packets_undelivered"`
	Latency                   Stats   `json:"packet_latency"`
	NetworkLatency            Stats   `json:"network_latency"`
	// ClassLatency is the packet latency per message class (0 short,
	// 1 long; request and reply; or the traffic classes of a mix) in runs
	// whose traffic has two classes or more, and ClassLatencyCDF its
	// distribution (as LatencyCDF; empty for a class without packets).
	ClassLatency    []Stats        `json:"class_packet_latency,omitempty"`
	ClassLatencyCDF [][][2]float64 `json:"class_packet_latency_cdf,omitempty"`
	// ClassAcceptedFlitsPerNodeCycle is each traffic class's share of
	// AcceptedFlitsPerNodeCycle, in runs with a mix of traffic classes
	// (traffic.class_volume_percent): the classes' sum is the whole.
	ClassAcceptedFlitsPerNodeCycle []float64 `json:"class_accepted_flits_per_node_cycle,omitempty"`
	MeanHops                       float64   `json:"mean_hops"`
	CollectiveDurationCycles       int64     `json:"collective_duration_cycles,omitempty"`
	// Job is a job's figures (traffic.process = "job"), and Jobs those of
	// the further jobs of a mix.
	Job  *JobResult  `json:"job,omitempty"`
	Jobs []JobResult `json:"jobs,omitempty"`
	// RequestReply is the request-reply process's figures (traffic.process
	// = "request-reply"); its requests are message class 0 and its
	// replies class 1, whose latency is the transactions' round trip.
	RequestReply *RequestReplyResult `json:"request_reply,omitempty"`
	// Injection is the entropy-throttling model as the papers write it, e.g.
	// "hyst(70,90,30)", when the circuit runs.
	Injection string `json:"injection,omitempty"`
	// ThrottledNodeCycleShare is the share of node-cycles in throttled mode.
	ThrottledNodeCycleShare float64 `json:"throttled_node_cycle_share,omitempty"`
	// CircuitLagCycles is how far the circuit's reading trails the true
	// mobility ratio (see study.circuitLag); -1 when not measurable.
	CircuitLagCycles float64 `json:"circuit_lag_cycles,omitempty"`
	// CriticalLoadFlitsPerNodeCycle is the ramp-load method's critical load
	// (see study.criticalLoad); -1 when the throughput never degraded.
	CriticalLoadFlitsPerNodeCycle float64 `json:"critical_load_flits_per_node_cycle,omitempty"`
	Completed                     bool    `json:"completed"`
	// BatchesUnstable: measure.method = "batches" stopped at max_batches
	// with the batch means not yet stable within the tolerance (derived
	// from the batches; not in the digest).
	BatchesUnstable bool `json:"batches_unstable,omitempty"`
	// Links are the per-link statistics of measure.link_stats (nil
	// without).
	Links *LinkStats `json:"links,omitempty"`
	// Flows are the per-flow statistics of measure.flow_stats or
	// measure.flows (nil without).
	Flows []Flow `json:"flows,omitempty"`
	// WarmupDetectedCycles is where measure.warmup_detect = "mser-5" finds
	// the transient over (0: not checked); the run's window began at
	// MeasureFromCycle.
	WarmupDetectedCycles int64    `json:"warmup_detected_cycles,omitempty"`
	Series               []Sample `json:"series,omitempty"`
	// NodeAccepted is each node's accepted throughput (flits/cycle), by node id.
	NodeAccepted []float64 `json:"node_accepted_flits_per_cycle,omitempty"`
	// SilentNodes are the nodes that never send (traffic.self = "skip": the
	// fixed points of a permutation), left out of the per-node statistics
	// and of the per-node averages; their entries in the per-node arrays
	// are zeros.
	SilentNodes []int `json:"silent_nodes,omitempty"`
	// NodeViews are further per-node values for figures (not in Digest).
	NodeViews *NodeViews `json:"node_views,omitempty"`
	// LatencyCDF is the packet-latency distribution: (latency in cycles,
	// share of packets at or below it), one point per histogram bucket.
	LatencyCDF [][2]float64 `json:"packet_latency_cdf,omitempty"`
	// SAT is the SAT protocol's measurements, when it runs.
	SAT *SATResult `json:"sat,omitempty"`
	// Batches are the packet-batches method's batches.
	Batches []BatchResult `json:"batches,omitempty"`
	// NodeInjected is each node's injected throughput (flits/cycle) in the
	// window, by node id (packet-batches method).
	NodeInjected []float64 `json:"node_injected_flits_per_cycle,omitempty"`
	// InjectionMatrix[s][d] is the number of packets node s started towards
	// node d in the measurement window (packet-batches method).
	InjectionMatrix [][]uint32 `json:"injection_matrix_packets,omitempty"`
	// WireCapacity is the unit of traffic.load_of_wire_capacity, in runs
	// that use it.
	WireCapacity *WireCapacity `json:"wire_capacity,omitempty"`
	// Bisection is the unit of traffic.load_of_bisection and of the
	// relative throughput, in runs that use it and in every run of the
	// input/output-buffered switch.
	Bisection *Bisection `json:"bisection,omitempty"`
	// Switch describes the input/output-buffered switch (router.kind =
	// "ioq"); nil for the VC router.
	Switch *SwitchInfo `json:"switch,omitempty"`
	// SAQs counts RECN's set-aside queues in the measurement window
	// (router.ioq.queues = "recn").
	SAQs *SAQResult `json:"saqs,omitempty"`
	// Policies are the figures of the policies that report their own
	// (policies.Reporter), keyed by policy name, then by figure; absent
	// when none does (so the digests of earlier results hold).
	Policies map[string]map[string]float64 `json:"policies,omitempty"`
}

// SAQResult is RECN's use of set-aside queues in the measurement window:
// the most SAQs in use at once at any one ingress port and at any one
// egress port (adapters' injection sides count as egress ports), the
// SAQs allocated, and the notifications or detections refused because
// every SAQ of a port was in use; and over the whole run (from cycle 0 to
// the end, warm-up and drain included): the most SAQs in use at once in
// one port, and the most flits any one SAQ held at once, at ingress and
// at egress, beside the Xoff threshold.
type SAQResult struct {
	MaxPerPortIngress int    `json:"max_per_port_ingress"`
	MaxPerPortEgress  int    `json:"max_per_port_egress"`
	Allocations       uint64 `json:"allocations"`
	Refusals          uint64 `json:"refusals"`
	// The whole run's figures (not in Digest: see there).
	MaxPerPortIngressRun int `json:"max_per_port_ingress_run,omitempty"`
	MaxPerPortEgressRun  int `json:"max_per_port_egress_run,omitempty"`
	PeakFlitsIngress     int `json:"peak_flits_ingress,omitempty"`
	PeakFlitsEgress      int `json:"peak_flits_egress,omitempty"`
	XoffFlits            int `json:"xoff_flits,omitempty"`
}

// SAQSample is RECN's SAQs in the whole network at a sample: how many are
// in use at ingress and at egress ports, the flits they hold, and the
// flits in the fullest.
type SAQSample struct {
	InUseIngress int `json:"in_use_ingress"`
	InUseEgress  int `json:"in_use_egress"`
	// Flits and FullestFlits are not in Digest (see there).
	Flits        int64 `json:"flits,omitempty"`
	FullestFlits int   `json:"fullest_flits,omitempty"`
}

// SwitchInfo is what a run of the input/output-buffered switch reports of
// it: its queue organisation, its port memory, and how cycles relate to
// time.
type SwitchInfo struct {
	Queues          string  `json:"queues"`
	PortMemoryFlits int     `json:"port_memory_flits"`
	FlitBytes       int     `json:"flit_bytes"`
	CycleNs         float64 `json:"cycle_ns"` // the time a link takes to carry one flit
}

// NodeViews are per-node values that the figures draw (heatmaps over the
// grid, bars by leaf switch) beside NodeAccepted.
type NodeViews struct {
	// InjectedFlitsPerCycle is each node's injected throughput in the
	// measurement window (in a collective, over its duration).
	InjectedFlitsPerCycle []float64 `json:"injected_flits_per_cycle"`
	// LatencyMeanCycles is the mean latency (from generation) of the
	// measured packets delivered to each node; 0 where none arrived.
	LatencyMeanCycles []float64 `json:"latency_mean_cycles"`
}

// Digest is the SHA-256 of the result's canonical JSON encoding, without
// the study's name (Scenario: two studies of the same runs under other
// names have the same digests), and what came after the digests that
// studies and benchmarks compare against: NodeViews, BatchesUnstable, the series' InjectionMemoryPackets (it would change the
// digest of every input/output-buffered switch's run with a time series),
// RECN's whole-run SAQ peaks and Xoff threshold (SAQResult's *Run, Peak*
// and XoffFlits) and the series' SAQ flit counts. Leaving them out keeps
// every digest of earlier versions valid; the equivalence tests compare
// them across executors separately.
func (r *Result) Digest() string {
	c := *r
	c.NodeViews, c.BatchesUnstable = nil, false
	c.Scenario = "" // the study's name: renaming a study changes none of its results
	if c.Job != nil {
		// A job's zero-load bound is worked out from its program, not
		// simulated: a trace's replay runs as its recording did, to the
		// same digest, from a program of another form.
		j := *c.Job
		j.ZeroLoadCycles = 0
		c.Job = &j
		c.Jobs = slices.Clone(c.Jobs)
		for i := range c.Jobs {
			c.Jobs[i].ZeroLoadCycles = 0
		}
	}
	if c.SAQs != nil {
		q := *c.SAQs
		q.MaxPerPortIngressRun, q.MaxPerPortEgressRun, q.PeakFlitsIngress, q.PeakFlitsEgress, q.XoffFlits = 0, 0, 0, 0, 0
		c.SAQs = &q
	}
	if slices.ContainsFunc(c.Series, func(s Sample) bool {
		return s.InjectionMemoryPackets != 0 || s.SAQs != nil && (s.SAQs.Flits != 0 || s.SAQs.FullestFlits != 0)
	}) {
		c.Series = slices.Clone(c.Series)
		for j := range c.Series {
			c.Series[j].InjectionMemoryPackets = 0
			if q := c.Series[j].SAQs; q != nil {
				q2 := *q
				q2.Flits, q2.FullestFlits = 0, 0
				c.Series[j].SAQs = &q2
			}
		}
	}
	b, err := json.Marshal(&c)
	if err != nil {
		panic(err) // a Result always encodes
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// round keeps 9 significant decimals so that results print and compare cleanly.
func round(x float64) float64 {
	if x == 0 || math.IsInf(x, 0) || math.IsNaN(x) {
		return x
	}
	return math.Round(x*1e9) / 1e9
}

// Ratio is a/b rounded, 0 when b is 0.
func Ratio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return round(a / b)
}

// Unfinished says why a run's numbers are not those of a finished run, or
// "" for a finished one: a collective stopped before its last delivery,
// measured packets still undelivered after the drain (the latency then
// covers only those delivered), or batch means that were not stable when
// max_batches stopped them.
func (r *Result) Unfinished() string {
	var why []string
	switch {
	case r.Process == "collective" && !r.Completed:
		why = append(why, fmt.Sprintf("collective stopped with %d of %d packets delivered", r.PacketsDelivered, r.PacketsGenerated))
	case r.MeasuredUndelivered > 0:
		why = append(why, fmt.Sprintf("%d measured packets undelivered after the drain (latency covers the delivered only)", r.MeasuredUndelivered))
	case !r.Completed:
		why = append(why, "stopped before every measured packet was delivered")
	}
	if r.BatchesUnstable {
		why = append(why, "batch means not stable at max_batches")
	}
	if r.RequestReply != nil && r.RequestReply.TransactionsPerNodeCycle == 0 {
		why = append(why, "no request issued in the measurement window was answered (lengthen measure_cycles beyond the round trip)")
	}
	return strings.Join(why, "; ")
}

// RequestReplyResult is what a request-reply run offered and completed.
type RequestReplyResult struct {
	RequestFlits   int `json:"request_flits"`
	ReplyFlits     int `json:"reply_flits"`
	MaxOutstanding int `json:"max_outstanding"`
	// OfferedRequestsPerNodeCycle is the requests a node offers per
	// cycle (the load over request_flits + reply_flits).
	OfferedRequestsPerNodeCycle float64 `json:"offered_requests_per_node_cycle"`
	// TransactionsPerNodeCycle is the requests issued in the window and
	// answered by the end of the drain, per sending node per cycle of the
	// window.
	TransactionsPerNodeCycle float64 `json:"transactions_per_node_cycle"`
}

// JobResult is what a job's ranks recorded (package workload).
type JobResult struct {
	Motif         string `json:"motif"`
	Ranks         int    `json:"ranks"`
	RanksFinished int    `json:"ranks_finished"`
	// CompletionCycles is the cycle the last rank's program ended (every
	// rank starts at cycle 0).
	CompletionCycles int64 `json:"completion_cycles"`
	// ZeroLoadCycles is the job's completion time on an idle network by
	// its critical path over zero-load latencies (workload.Program's
	// ZeroLoadCycles): equal to CompletionCycles where no two messages
	// meet, below it where they do; 0 where not computed (a job of more
	// than workload.MaxZeroLoadMessages messages, or the ioq switch).
	ZeroLoadCycles int64 `json:"zero_load_cycles,omitempty"`
	// AloneCycles is, in a mix, the job's completion time alone on the
	// same network and nodes (a companion run); 0 outside a mix.
	AloneCycles int64 `json:"alone_cycles,omitempty"`
	// IterationCycles is each iteration's time: the cycle its last rank
	// ended it, less the cycle the last rank ended the one before.
	IterationCycles []int64 `json:"iteration_cycles"`
	// Messages received, and their latency from the send's posting to the
	// arrival of their last packet.
	Messages                 int64   `json:"messages"`
	MessageLatencyMeanCycles float64 `json:"message_latency_mean_cycles"`
	MessageLatencyMaxCycles  int64   `json:"message_latency_max_cycles"`
}

// Slowdown is the job's completion time in its mix over its time alone;
// NaN outside a mix.
func (j *JobResult) Slowdown() float64 {
	if j.AloneCycles <= 0 {
		return math.NaN()
	}
	return float64(j.CompletionCycles) / float64(j.AloneCycles)
}

// IterationMeanCycles is the mean of IterationCycles.
func (j *JobResult) IterationMeanCycles() float64 {
	if len(j.IterationCycles) == 0 {
		return math.NaN()
	}
	var s float64
	for _, c := range j.IterationCycles {
		s += float64(c)
	}
	return s / float64(len(j.IterationCycles))
}
