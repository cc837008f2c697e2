package study

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/icnsim/icnsim/topology"
	"github.com/icnsim/icnsim/workload"
)

// Workload is the job traffic.process = "job" runs: a motif's program on
// ranks placed on nodes (package workload).
type Workload struct {
	Motif string `toml:"motif"`
	// Ranks is the job's size; 0: every node.
	Ranks int `toml:"ranks"`
	// MessageFlits is the message size of each step (ring allreduce: the
	// whole vector); MessageBytes, when > 0, gives it in bytes of
	// FlitBytes per flit instead.
	MessageFlits  int64  `toml:"message_flits"`
	MessageBytes  int64  `toml:"message_bytes"`
	FlitBytes     int64  `toml:"flit_bytes"`
	Iterations    int    `toml:"iterations"`
	ComputeCycles int64  `toml:"compute_cycles"`
	Root          int    `toml:"root"`
	Grid          []int  `toml:"grid"`
	Periodic      bool   `toml:"periodic"`
	Placement     string `toml:"placement"`
	FirstNode     int    `toml:"first_node"`
	Nodes         []int  `toml:"nodes"`
	// TraceFile, when set, is the job instead of the motif: a trace
	// (workload.ReadTrace), its ranks placed as it says, replayed as
	// TraceTiming says.
	TraceFile   string `toml:"trace_file"`
	TraceTiming string `toml:"trace_timing"`
}

// defaultWorkload is what a [workload] table leaves out gets.
func defaultWorkload() Workload {
	return Workload{Motif: "allreduce-ring", MessageFlits: 1024, FlitBytes: 16, Iterations: 1, Placement: "contiguous", TraceTiming: "dependencies"}
}

// ranks is the job's size on this configuration's network.
func (c *Config) ranks() int {
	if c.Workload.Ranks == 0 {
		return c.Nodes()
	}
	return c.Workload.Ranks
}

// messageFlits is the message size in flits.
func (w *Workload) messageFlits() int64 {
	if w.MessageBytes > 0 && w.FlitBytes > 0 {
		return (w.MessageBytes + w.FlitBytes - 1) / w.FlitBytes
	}
	return w.MessageFlits
}

// params is the motif's parameters.
func (c *Config) workloadParams() workload.Params {
	w := &c.Workload
	return workload.Params{Ranks: c.ranks(), MessageFlits: w.messageFlits(), Iterations: w.Iterations,
		ComputeCycles: w.ComputeCycles, Root: w.Root, Grid: w.Grid, Periodic: w.Periodic, Seed: c.Seed}
}

// validateWorkload checks the [workload] table where traffic.process is
// "job" (elsewhere its keys are warnings: noeffect.go).
func (c *Config) validateWorkload(add addFunc) {
	if c.Traffic.Process != "job" {
		return
	}
	w := &c.Workload
	if w.TraceTiming != "dependencies" && w.TraceTiming != "recorded" {
		add("workload.trace_timing", w.TraceTiming, `allowed: dependencies (closed loop: each event after the messages it waited for) or recorded (open loop: at its recorded cycle)`)
	}
	if w.TraceFile != "" {
		return // the trace is the job: its own errors come with building it (checkTraffic)
	}
	motif, ok := workload.Motifs()[w.Motif]
	if !ok {
		add("workload.motif", w.Motif, "allowed: "+strings.Join(workload.MotifNames(), ", ")+didYouMean(w.Motif, workload.MotifNames()))
	}
	nodes := c.Nodes()
	ranks := c.ranks()
	if w.Ranks < 0 || nodes > 0 && w.Ranks > nodes {
		add("workload.ranks", w.Ranks, fmt.Sprintf("allowed: 0 (every node) or 1..%d (the network's nodes, one rank per node)", nodes))
	}
	if w.MessageBytes < 0 {
		add("workload.message_bytes", w.MessageBytes, "allowed: 0 (message_flits gives the size) or >= 1 bytes")
	} else if w.MessageBytes > 0 && w.MessageFlits != defaultWorkload().MessageFlits {
		add("workload.message_bytes", w.MessageBytes, "give the message size either here or in message_flits, not both")
	}
	if w.FlitBytes < 1 {
		add("workload.flit_bytes", w.FlitBytes, "allowed: >= 1 bytes per flit")
	}
	if w.MessageFlits < 1 && w.MessageBytes == 0 {
		add("workload.message_flits", w.MessageFlits, "allowed: >= 1 flits")
	}
	if w.Iterations < 1 {
		add("workload.iterations", w.Iterations, "allowed: >= 1")
	}
	if w.ComputeCycles < 0 {
		add("workload.compute_cycles", w.ComputeCycles, "allowed: >= 0 cycles")
	}
	if !slices.Contains(workload.PlacementNames(), w.Placement) {
		add("workload.placement", w.Placement, "allowed: "+strings.Join(workload.PlacementNames(), ", ")+didYouMean(w.Placement, workload.PlacementNames()))
	}
	if w.Placement == "contiguous" && ranks >= 1 && ranks <= nodes && (w.FirstNode < 0 || w.FirstNode+ranks > nodes) {
		add("workload.first_node", w.FirstNode, fmt.Sprintf("allowed: 0..%d (%d ranks from it on %d nodes)", nodes-ranks, ranks, nodes))
	}
	if w.Placement == "list" {
		if len(w.Nodes) != ranks {
			add("workload.nodes", w.Nodes, fmt.Sprintf("lists %d nodes for %d ranks (workload.ranks; 0 is every node): one node per rank", len(w.Nodes), ranks))
		}
		seen := map[int]int{}
		for i, v := range w.Nodes {
			if v < 0 || v >= nodes {
				add(fmt.Sprintf("workload.nodes[%d]", i), v, fmt.Sprintf("allowed: 0..%d (the network's nodes)", nodes-1))
			} else if r, dup := seen[v]; dup {
				add(fmt.Sprintf("workload.nodes[%d]", i), v, fmt.Sprintf("node %d already holds rank %d: one rank per node", v, r))
			}
			seen[v] = i
		}
	} else if len(w.Nodes) > 0 {
		add("workload.nodes", w.Nodes, `applies to placement = "list" only`)
	}
	if ok && ranks >= 1 && ranks <= nodes {
		p := c.workloadParams()
		if why := motif.Check(p); why != "" {
			key, v := "workload.ranks", any(w.Ranks)
			switch {
			case strings.HasPrefix(why, "root"):
				key, v = "workload.root", w.Root
			case strings.HasPrefix(why, "grid"):
				key, v = "workload.grid", w.Grid
			}
			add(key, v, why)
		}
	}
	if c.Traffic.LongPacketFlits > 0 {
		add("traffic.long_packet_flits", c.Traffic.LongPacketFlits, `a job's messages travel in packets of traffic.packet_flits: use 0 under process = "job"`)
	}
}

// buildJob places the configured job on topo, and names it (the motif, or
// the trace's).
func (c *Config) buildJob(topo topology.Topology) (*workload.Job, string, error) {
	w := &c.Workload
	if w.TraceFile != "" {
		job, name, err := c.traceJob(topo)
		if err != nil {
			return nil, "", fmt.Errorf("workload.trace_file = %q: %w", w.TraceFile, err)
		}
		return job, name, nil
	}
	prog, err := workload.Build(w.Motif, c.workloadParams())
	if err != nil {
		return nil, "", fmt.Errorf("workload: %w", err)
	}
	nodes, err := workload.Place(topo, c.ranks(), workload.Placement{Kind: w.Placement, First: w.FirstNode, Seed: c.Seed, Nodes: w.Nodes})
	if err != nil {
		return nil, "", fmt.Errorf("workload.placement = %q: %w", w.Placement, err)
	}
	job, err := workload.NewJob(prog, w.Iterations, nodes, topo, c.Traffic.PacketFlits)
	return job, w.Motif, err
}

// traceJob is the job of workload.trace_file on topo.
func (c *Config) traceJob(topo topology.Topology) (*workload.Job, string, error) {
	w := &c.Workload
	f, err := os.Open(w.TraceFile)
	if err != nil {
		return nil, "", err
	}
	defer f.Close()
	tr, err := workload.ReadTrace(w.TraceFile, f)
	if err != nil {
		return nil, "", err
	}
	seen := map[int]int{}
	for r, n := range tr.Nodes {
		if n >= topo.Nodes() {
			return nil, "", fmt.Errorf("rank %d on node %d: the %s has nodes 0..%d", r, n, topo, topo.Nodes()-1)
		}
		if s, dup := seen[n]; dup {
			return nil, "", fmt.Errorf("ranks %d and %d both on node %d: one rank per node", s, r, n)
		}
		seen[n] = r
	}
	prog, err := tr.Program(w.TraceTiming == "dependencies")
	if err != nil {
		return nil, "", fmt.Errorf("%s: %w", w.TraceFile, err)
	}
	job, err := workload.NewJob(prog, 1, tr.Nodes, topo, c.Traffic.PacketFlits)
	name := tr.Motif
	if name == "" {
		name = "trace"
	}
	return job, name, err
}

// writeWorkloadTOML prints the [workload] table of DefaultTOML.
func writeWorkloadTOML(p tomlPrinter, d Config) {
	w := d.Workload
	p("[workload]")
	p("# the job traffic.process = \"job\" runs: ranks placed on nodes, each running a motif's steps in its")
	p("# node's interface (compute, send, receive, wait); the run ends when every rank has finished. A message")
	p("# travels as packets of traffic.packet_flits; a receive completes when all its packets have arrived.")
	p("# motif:")
	for _, n := range workload.MotifNames() {
		p("#   %-29s %s", n, workload.Motifs()[n].Doc)
	}
	p("motif = %q", w.Motif)
	p("ranks = %d                  # 0: every node (one rank per node)", w.Ranks)
	p("message_flits = %d       # each step's message size (ring allreduce: the whole vector)", w.MessageFlits)
	p("message_bytes = %d          # > 0: the message size in bytes instead, at flit_bytes per flit", w.MessageBytes)
	p("flit_bytes = %d            # bytes per flit (message_bytes only)", w.FlitBytes)
	p("iterations = %d             # times the motif runs, one after the other", w.Iterations)
	p("compute_cycles = %d         # a compute step of this many cycles at the start of every iteration", w.ComputeCycles)
	p("root = %d                   # the root rank (broadcast, binomial allreduce, incast)", w.Root)
	p("grid = []                  # halo: the rank grid's sides, first varying fastest; empty: the most nearly square or cubic")
	p("periodic = %v           # halo: the rank grid wraps around", w.Periodic)
	p("# placement of the ranks:")
	for _, n := range workload.PlacementNames() {
		p("#   %-11s %s", n, workload.PlacementDocs()[n])
	}
	p("placement = %q", w.Placement)
	p("first_node = %d             # contiguous: the first rank's node", w.FirstNode)
	p("nodes = []                 # list: each rank's node")
	p("# a trace instead of a motif (its format is in the README): its ranks placed as it says, replayed")
	p("trace_file = \"\"            # the trace's path; \"\": the motif above")
	p("trace_timing = %q   # dependencies (closed loop: each event after the messages it waited for, and its delay)", w.TraceTiming)
	p("                             # or recorded (open loop: each event at its recorded cycle)")
}
