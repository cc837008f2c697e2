package study

import (
	"bufio"
	"fmt"
	"os"
	"reflect"
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
	// Also are further jobs on the same network, a mix: each on nodes the
	// jobs before it leave free, keys it leaves out taken from this one's.
	Also []Workload `toml:"also"`
	// BackgroundLoad > 0 makes every node outside the jobs send
	// traffic.pattern at this load (Bernoulli, flits/node/cycle).
	BackgroundLoad float64 `toml:"background_load"`
}

// defaultWorkload is what a [workload] table leaves out gets.
func defaultWorkload() Workload {
	return Workload{Motif: "allreduce-ring", MessageFlits: 1024, FlitBytes: 16, Iterations: 1, Placement: "contiguous", TraceTiming: "dependencies"}
}

// ranks is the primary job's size on this configuration's network.
func (c *Config) ranks() int { return c.ranksOf(&c.Workload) }

// ranksOf is job w's size on this configuration's network (0: every node).
func (c *Config) ranksOf(w *Workload) int {
	if w.Ranks == 0 {
		return c.Nodes()
	}
	return w.Ranks
}

// messageFlits is the message size in flits.
func (w *Workload) messageFlits() int64 {
	if w.MessageBytes > 0 && w.FlitBytes > 0 {
		return (w.MessageBytes + w.FlitBytes - 1) / w.FlitBytes
	}
	return w.MessageFlits
}

// workloadParams is the primary job's motif parameters.
func (c *Config) workloadParams() workload.Params { return c.paramsOf(&c.Workload) }

// paramsOf is job w's motif parameters.
func (c *Config) paramsOf(w *Workload) workload.Params {
	return workload.Params{Ranks: c.ranksOf(w), MessageFlits: w.messageFlits(), Iterations: w.Iterations,
		ComputeCycles: w.ComputeCycles, Root: w.Root, Grid: w.Grid, Periodic: w.Periodic, Seed: c.Seed}
}

// jobs is every job of the configuration: the primary job ([workload])
// first, then each [[workload.also]] with what it leaves out (a zero, an
// empty string or list, false) taken from the primary's, so that an axis
// over a workload key sweeps every job that does not set its own.
func (c *Config) jobs() []Workload {
	out := []Workload{c.Workload}
	out[0].Also = nil
	for _, a := range c.Workload.Also {
		j := a
		pv, jv := reflect.ValueOf(c.Workload), reflect.ValueOf(&j).Elem()
		for i := range jv.NumField() {
			if f := jv.Field(i); f.IsZero() && jv.Type().Field(i).Name != "Also" && jv.Type().Field(i).Name != "BackgroundLoad" {
				f.Set(pv.Field(i))
			}
		}
		j.Also, j.BackgroundLoad = nil, 0
		out = append(out, j)
	}
	return out
}

// validateWorkload checks the [workload] table and every [[workload.also]]
// where traffic.process is "job" (elsewhere its keys are warnings:
// noeffect.go).
func (c *Config) validateWorkload(add addFunc) {
	if c.Traffic.Process != "job" {
		return
	}
	jobs := c.jobs()
	total := 0
	for i := range jobs {
		key := "workload."
		if i > 0 {
			key = fmt.Sprintf("workload.also[%d].", i-1)
		}
		c.validateJob(add, key, &jobs[i], len(jobs) > 1)
		if jobs[i].TraceFile == "" {
			total += c.ranksOf(&jobs[i])
		}
	}
	if nodes := c.Nodes(); len(jobs) > 1 && total > nodes && nodes > 0 {
		add(fmt.Sprintf("workload.also[%d].ranks", len(jobs)-2), jobs[len(jobs)-1].Ranks, fmt.Sprintf("the jobs' ranks add up to %d, more than the network's %d nodes (one rank per node)", total, nodes))
	}
	for i, a := range c.Workload.Also {
		if len(a.Also) > 0 || a.BackgroundLoad != 0 {
			add(fmt.Sprintf("workload.also[%d]", i), "a further job's also or background_load", "allowed only in [workload]: further jobs have none of their own")
		}
	}
	if b := c.Workload.BackgroundLoad; !(b >= 0 && b <= 1) {
		add("workload.background_load", b, "allowed: 0 (none) or up to 1 flit/node/cycle, sent by the nodes outside every job")
	}
	if c.Traffic.LongPacketFlits > 0 {
		add("traffic.long_packet_flits", c.Traffic.LongPacketFlits, `a job's messages travel in packets of traffic.packet_flits: use 0 under process = "job"`)
	}
}

// validateJob checks job w, whose keys begin with key ("workload." or
// "workload.also[i]."); in a mix a job takes fewer than every node.
func (c *Config) validateJob(add addFunc, key string, w *Workload, mix bool) {
	if w.TraceTiming != workload.TimingDependencies && w.TraceTiming != workload.TimingRecorded && w.TraceTiming != workload.TimingBoth {
		add(key+"trace_timing", w.TraceTiming, `allowed: dependencies (closed loop: each event after the messages it waited for), recorded (open loop: at its recorded cycle) or both (whichever is later: a netrace file's rule)`)
	}
	if w.TraceFile != "" {
		return // the trace is the job: its own errors come with building it (checkTraffic)
	}
	motif, ok := workload.Motifs()[w.Motif]
	if !ok {
		add(key+"motif", w.Motif, "allowed: "+strings.Join(workload.MotifNames(), ", ")+didYouMean(w.Motif, workload.MotifNames()))
	}
	nodes := c.Nodes()
	ranks := c.ranksOf(w)
	switch {
	case w.Ranks < 0 || nodes > 0 && w.Ranks > nodes:
		add(key+"ranks", w.Ranks, fmt.Sprintf("allowed: 0 (every node) or 1..%d (the network's nodes, one rank per node)", nodes))
	case mix && w.Ranks == 0:
		add(key+"ranks", w.Ranks, "0 is every node, which leaves none to the other jobs of the mix: give each job its size")
	}
	if w.MessageBytes < 0 {
		add(key+"message_bytes", w.MessageBytes, "allowed: 0 (message_flits gives the size) or >= 1 bytes")
	} else if w.MessageBytes > 0 && w.MessageFlits != defaultWorkload().MessageFlits && key == "workload." {
		add(key+"message_bytes", w.MessageBytes, "give the message size either here or in message_flits, not both")
	}
	if w.FlitBytes < 1 {
		add(key+"flit_bytes", w.FlitBytes, "allowed: >= 1 bytes per flit")
	}
	if w.MessageFlits < 1 && w.MessageBytes == 0 {
		add(key+"message_flits", w.MessageFlits, "allowed: >= 1 flits")
	}
	if w.Iterations < 1 {
		add(key+"iterations", w.Iterations, "allowed: >= 1")
	}
	if w.ComputeCycles < 0 || w.ComputeCycles > MaxRunCycles {
		add(key+"compute_cycles", w.ComputeCycles, fmt.Sprintf("allowed: 0..%d cycles", int64(MaxRunCycles)))
	}
	if !slices.Contains(workload.PlacementNames(), w.Placement) {
		add(key+"placement", w.Placement, "allowed: "+strings.Join(workload.PlacementNames(), ", ")+didYouMean(w.Placement, workload.PlacementNames()))
	}
	if w.Placement == "contiguous" && ranks >= 1 && ranks <= nodes && (w.FirstNode < 0 || w.FirstNode+ranks > nodes) {
		add(key+"first_node", w.FirstNode, fmt.Sprintf("allowed: 0..%d (%d ranks from it on %d nodes)", nodes-ranks, ranks, nodes))
	}
	if w.Placement == "list" {
		if len(w.Nodes) != ranks {
			add(key+"nodes", w.Nodes, fmt.Sprintf("lists %d nodes for %d ranks (%sranks; 0 is every node): one node per rank", len(w.Nodes), ranks, key))
		}
		seen := map[int]int{}
		for i, v := range w.Nodes {
			if v < 0 || v >= nodes {
				add(fmt.Sprintf("%snodes[%d]", key, i), v, fmt.Sprintf("allowed: 0..%d (the network's nodes)", nodes-1))
			} else if r, dup := seen[v]; dup {
				add(fmt.Sprintf("%snodes[%d]", key, i), v, fmt.Sprintf("node %d already holds rank %d: one rank per node", v, r))
			}
			seen[v] = i
		}
	} else if len(w.Nodes) > 0 {
		add(key+"nodes", w.Nodes, `applies to placement = "list" only`)
	}
	if ok && ranks >= 1 && ranks <= nodes {
		p := c.paramsOf(w)
		if why := motif.Check(p); why != "" {
			k, v := key+"ranks", any(w.Ranks)
			switch {
			case strings.HasPrefix(why, "root"):
				k, v = key+"root", w.Root
			case strings.HasPrefix(why, "grid"):
				k, v = key+"grid", w.Grid
			}
			add(k, v, why)
		}
	}
}

// buildJobs places every job of the configuration on topo, each on nodes
// the ones before it left free, and names each (its motif, or its trace's).
func (c *Config) buildJobs(topo topology.Topology) ([]*workload.Job, []string, error) {
	var jobs []*workload.Job
	var names []string
	taken := make([]bool, topo.Nodes())
	for i, w := range c.jobs() {
		key := "workload"
		if i > 0 {
			key = fmt.Sprintf("workload.also[%d]", i-1)
		}
		job, name, err := c.buildJob(topo, &w, taken)
		if err != nil {
			if len(c.Workload.Also) > 0 {
				err = fmt.Errorf("%s: %w", key, err)
			}
			return nil, nil, err
		}
		for _, n := range job.Nodes() {
			if taken[n] {
				return nil, nil, fmt.Errorf("%s: its rank on node %d shares it with another job's (one rank per node)", key, n)
			}
			taken[n] = true
		}
		jobs, names = append(jobs, job), append(names, name)
	}
	return jobs, names, nil
}

// buildJob places job w on topo's nodes that taken leaves free, and names
// it (the motif, or the trace's).
func (c *Config) buildJob(topo topology.Topology, w *Workload, taken []bool) (*workload.Job, string, error) {
	if w.TraceFile != "" {
		job, name, err := c.traceJob(topo, w)
		if err != nil {
			return nil, "", fmt.Errorf("workload.trace_file = %q: %w", w.TraceFile, err)
		}
		return job, name, nil
	}
	prog, err := workload.Build(w.Motif, c.paramsOf(w))
	if err != nil {
		return nil, "", fmt.Errorf("workload: %w", err)
	}
	nodes, err := workload.PlaceFree(topo, c.ranksOf(w), workload.Placement{Kind: w.Placement, First: w.FirstNode, Seed: c.Seed, Nodes: w.Nodes}, taken)
	if err != nil {
		return nil, "", fmt.Errorf("workload.placement = %q: %w", w.Placement, err)
	}
	job, err := workload.NewJob(prog, w.Iterations, nodes, topo, c.Traffic.PacketFlits)
	return job, w.Motif, err
}

// traceJob is the job of w's trace file on topo.
func (c *Config) traceJob(topo topology.Topology, w *Workload) (*workload.Job, string, error) {
	f, err := os.Open(w.TraceFile)
	if err != nil {
		return nil, "", err
	}
	defer f.Close()
	// A netrace file (bzip2 or gzip, or its magic) or an icnsim trace.
	br := bufio.NewReader(f)
	var tr *workload.Trace
	if head, _ := br.Peek(4); workload.IsNetrace(head) {
		tr, _, err = workload.ReadNetrace(w.TraceFile, br, int(min(w.FlitBytes, 1<<20)))
	} else {
		tr, err = workload.ReadTrace(w.TraceFile, br)
	}
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
	prog, err := tr.Program(w.TraceTiming)
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
	p("# a trace instead of a motif (its format is in the README), or a netrace file (.tra.bz2: its packets")
	p("# in flit_bytes flits): its ranks placed as it says, replayed")
	p("trace_file = \"\"            # the trace's path; \"\": the motif above")
	p("trace_timing = %q   # dependencies (closed loop: each event after the messages it waited for, and its delay)", w.TraceTiming)
	p("                             # or recorded (open loop: each event at its recorded cycle), or both (whichever is later:")
	p("                             # netrace's own rule)")
	p("background_load = %v        # > 0: the nodes outside every job send traffic.pattern at this load (Bernoulli, flits/node/cycle)", w.BackgroundLoad)
	p("also = []                  # further jobs on the same network, a mix: [[workload.also]] tables of the keys above (but")
	p("                             # also and background_load), each on the nodes the jobs before it leave free; a key one leaves")
	p("                             # out (or sets to 0, false or empty) is this job's; each job's slowdown against itself alone")
	p("                             # on the same nodes is measured by a companion run; e.g. a table [[workload.also]] with the")
	p("                             # lines motif = \"halo-2d\" and ranks = 64")
}
