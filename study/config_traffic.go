package study

import (
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strings"

	"github.com/icnsim/icnsim/internal/keys"
	"github.com/icnsim/icnsim/link"
	"github.com/icnsim/icnsim/report"
	"github.com/icnsim/icnsim/traffic"
)

// Traffic is what the nodes send.
type Traffic struct {
	Pattern         string  `toml:"pattern"`
	Process         string  `toml:"process"`
	Load            float64 `toml:"load_flits_per_node_cycle"`
	PacketsPerNode  int     `toml:"packets_per_node"`
	PacketFlits     int     `toml:"packet_flits"`
	HotspotFraction float64 `toml:"hotspot_fraction"`
	// HotspotSourceFraction is the share of sources of the hotspot-sources
	// pattern that send every packet to the hot-spot node.
	HotspotSourceFraction float64 `toml:"hotspot_source_fraction"`
	HotspotNode           int     `toml:"hotspot_node"`
	HotRegionFraction     float64 `toml:"hot_region_fraction"`
	PhaseCycle            int64   `toml:"phase_cycle"`
	PhasePattern          string  `toml:"phase_pattern"`
	// RampCycles is the ramp process's length: the offered load rises
	// linearly from 0 at cycle 0 to load_flits_per_node_cycle here.
	RampCycles int64 `toml:"ramp_cycles"`
	// OnCycles and OffCycles are the on-off process's mean ON and OFF
	// period lengths.
	OnCycles  float64 `toml:"on_cycles"`
	OffCycles float64 `toml:"off_cycles"`
	// LongPacketFlits and LongVolumePercent make sizes bimodal: that share
	// of the traffic volume (flits, not packets) in long packets (class
	// 1), the rest in packet_flits-flit short ones (class 0).
	LongPacketFlits   int     `toml:"long_packet_flits"`
	LongVolumePercent float64 `toml:"long_volume_percent"`
	// ClassVolumePercent, with two to link.MaxClasses entries, makes the
	// traffic a mix of traffic classes (message classes 0, 1, ...): each
	// entry the percent of the traffic volume (flits) in that class, the
	// entries summing to 100. ClassPacketFlits is each class's packet size
	// (empty: packet_flits for every class). Each class is measured apart
	// and may have VCs and a share of the routers of its own
	// ([router.vc] class_vcs, class_share).
	ClassVolumePercent keys.List[float64] `toml:"class_volume_percent"`
	ClassPacketFlits   keys.List[int]     `toml:"class_packet_flits"`
	// LoadOfWireCapacity, when > 0, gives the offered load as a share of
	// the network's wire capacity (every router-to-router channel sending
	// a flit every cycle), as the Hybrid-HAR paper does, instead of
	// load_flits_per_node_cycle (WireCapacity).
	LoadOfWireCapacity float64 `toml:"load_of_wire_capacity"`
	// LoadOfBisection, when > 0, gives the offered load as a share of twice
	// the bisection bandwidth (Bisection), the RECN paper's unit, instead
	// of load_flits_per_node_cycle; the result then reports the relative
	// throughput in the same unit.
	LoadOfBisection float64 `toml:"load_of_bisection"`
	// Self is what a node does with a packet to itself: loopback (through
	// its own router, the default), skip (never: a permutation's fixed
	// points send nothing and are left out of per-node statistics; random
	// patterns draw again) or redraw (a uniformly random other node).
	Self string `toml:"self"`
	// SourceQueuePackets > 0 bounds each node's source queue (bernoulli,
	// poisson, ramp): arrivals wait outside a full queue and the process
	// pauses, as FSIN's NIC injection buffer; latency then counts from a
	// packet's entry into the queue. 0: unbounded.
	SourceQueuePackets int `toml:"source_queue_packets"`
	// The request-reply process (traffic.process = "request-reply",
	// traffic.RequestReply): request and reply sizes, the cycles a server
	// takes to answer, the requests a node may have unanswered and those a
	// server holds at once, and the virtual networks the two classes
	// travel on (2: apart; 1: sharing every VC, which can deadlock).
	RequestFlits       int   `toml:"request_flits"`
	ReplyFlits         int   `toml:"reply_flits"`
	ServiceCycles      int64 `toml:"service_cycles"`
	MaxOutstanding     int   `toml:"max_outstanding"`
	ServerQueuePackets int   `toml:"server_queue_packets"`
	VirtualNetworks    int   `toml:"virtual_networks"`
}

// validateTraffic checks the [traffic] table: patterns, process, packet
// sizes, hot spots, self-traffic and the source queue; the load's units
// have validateLoadUnits.
func (c *Config) validateTraffic(add addFunc) {
	n, t := &c.Network, &c.Traffic
	if t.Process != "job" || c.Workload.BackgroundLoad > 0 { // a job's ranks name their peers; its background has a pattern
		c.checkPattern(add, "traffic.pattern", t.Pattern)
	}
	if !slices.Contains(traffic.ProcessNames(), t.Process) {
		add("traffic.process", t.Process, "allowed: "+strings.Join(traffic.ProcessNames(), ", ")+didYouMean(t.Process, traffic.ProcessNames()))
	}
	if t.RampCycles < 1 {
		add("traffic.ramp_cycles", t.RampCycles, "allowed: >= 1 cycles")
	}
	if traffic.OfferedLoad(t.Process) && !(t.Load > 0 && t.Load <= 1) {
		add("traffic.load_flits_per_node_cycle", t.Load, "allowed: > 0 and <= 1 flits/node/cycle")
	}
	if !(t.OnCycles >= 1 && t.OnCycles <= MaxRunCycles) {
		add("traffic.on_cycles", t.OnCycles, fmt.Sprintf("allowed: 1..%d cycles (the mean ON period)", MaxRunCycles))
	}
	if !(t.OffCycles >= 1 && t.OffCycles <= MaxRunCycles) {
		add("traffic.off_cycles", t.OffCycles, fmt.Sprintf("allowed: 1..%d cycles (the mean OFF period)", MaxRunCycles))
	} else if peak := t.Load * (t.OnCycles + t.OffCycles) / t.OnCycles; t.Process == "on-off" && t.OnCycles >= 1 && t.Load > 0 && t.Load <= 1 && peak > 1 &&
		t.LoadOfWireCapacity == 0 && t.LoadOfBisection == 0 {
		add("traffic.load_flits_per_node_cycle", t.Load, fmt.Sprintf("the on-off peak load, load x (on_cycles + off_cycles) / on_cycles = %.4g, is above 1 flit/node/cycle: at most %.4g with these periods", peak, t.OnCycles/(t.OnCycles+t.OffCycles)))
	}
	if t.PacketsPerNode < 1 {
		add("traffic.packets_per_node", t.PacketsPerNode, "allowed: >= 1")
	}
	if t.PacketFlits < 1 || t.PacketFlits > 65535 {
		add("traffic.packet_flits", t.PacketFlits, "allowed: 1..65535")
	}
	if t.LongPacketFlits < 0 || t.LongPacketFlits > 65535 {
		add("traffic.long_packet_flits", t.LongPacketFlits, "allowed: 0 (one packet size) or 1..65535 flits")
	}
	if !(t.LongVolumePercent >= 0 && t.LongVolumePercent <= 100) {
		add("traffic.long_volume_percent", t.LongVolumePercent, "allowed: 0..100 (percent of the traffic volume, in flits, sent in long packets)")
	} else if t.LongVolumePercent > 0 && t.LongPacketFlits == 0 {
		add("traffic.long_volume_percent", t.LongVolumePercent, "needs traffic.long_packet_flits >= 1 (the long packets' size)")
	}
	c.validateClasses(add)
	if !(t.HotspotFraction >= 0 && t.HotspotFraction <= 1) {
		add("traffic.hotspot_fraction", t.HotspotFraction, "allowed: 0..1")
	}
	if !(t.HotspotSourceFraction >= 0 && t.HotspotSourceFraction <= 1) {
		add("traffic.hotspot_source_fraction", t.HotspotSourceFraction, "allowed: 0..1 (a share of the sources)")
	}
	if _, err := traffic.ParseSelfMode(t.Self); err != nil {
		var docs []string
		for _, m := range traffic.SelfModeNames() {
			docs = append(docs, m+" ("+traffic.SelfModeDoc(m)+")")
		}
		add("traffic.self", t.Self, "allowed: "+strings.Join(docs, "; ")+didYouMean(t.Self, traffic.SelfModeNames()))
	}
	if t.SourceQueuePackets < 0 || t.SourceQueuePackets > traffic.MaxQueuePackets {
		add("traffic.source_queue_packets", t.SourceQueuePackets, fmt.Sprintf("allowed: 0 (unbounded) or 1..%d packets", traffic.MaxQueuePackets))
	} else if t.SourceQueuePackets > 0 && (!traffic.OfferedLoad(t.Process) || t.Process == "request-reply") {
		add("traffic.source_queue_packets", t.SourceQueuePackets, fmt.Sprintf("applies to the bernoulli, poisson, ramp and on-off processes (arrivals wait while the queue is full); the %s process never queues more than it needs: use 0", t.Process))
	} else if t.SourceQueuePackets > 0 && c.nodeChannels() == 2 {
		add("traffic.source_queue_packets", t.SourceQueuePackets, fmt.Sprintf("bounds the one source queue of a node; with network.%s.node_channels = 2 (a queue per message class) use 0", n.Topology))
	}
	if !(t.HotRegionFraction >= 0 && t.HotRegionFraction <= 1) {
		add("traffic.hot_region_fraction", t.HotRegionFraction, "allowed: 0..1")
	}
	if nodes := c.Nodes(); t.HotspotNode < -1 || nodes > 0 && t.HotspotNode >= nodes {
		add("traffic.hotspot_node", t.HotspotNode, fmt.Sprintf("allowed: -1 (the centre) or 0..%d", nodes-1))
	}
	c.validateRequestReply(add)
	if t.PhaseCycle < 0 {
		add("traffic.phase_cycle", t.PhaseCycle, "allowed: 0 (no phase change) or a cycle > 0")
	} else if t.PhaseCycle > 0 && t.Process != "job" {
		c.checkPattern(add, "traffic.phase_pattern", t.PhasePattern)
	}
}

// checkPattern checks a pattern name at key: known, and defined on the
// configured network.
func (c *Config) checkPattern(add addFunc, key, name string) {
	n := &c.Network
	spec, ok := traffic.Patterns()[name]
	if !ok {
		add(key, name, "allowed: "+strings.Join(traffic.PatternNames(), ", ")+didYouMean(name, traffic.PatternNames()))
		return
	}
	nodes := c.Nodes()
	if spec.Bits && nodes&(nodes-1) != 0 {
		add(key, name, fmt.Sprintf("a bit pattern needs a power-of-two node count; this network has %d nodes", nodes))
	}
	grid := n.Topology == "torus" || n.Topology == "mesh" // of any number of dimensions
	if spec.Grid && !grid {
		add(key, name, "defined on torus and mesh coordinates only")
	}
	if name == "transpose" && grid && !isGrid(n) && c.networkValid() {
		if t, _ := n.table(); t != nil {
			if topo, err := t.Build(); err == nil {
				if g, ok := topo.(traffic.Gridded); ok {
					if err := traffic.TransposeSides(g.Sides()); err != nil {
						add(key, name, err.Error())
					}
				}
			}
		}
	}
	if spec.Topologies != nil && !slices.Contains(spec.Topologies, n.Topology) {
		add(key, name, fmt.Sprintf("defined on a %s only (network.topology is %q)", joinWords(spec.Topologies, "", "or"), n.Topology))
	}
	if name == "transpose" && !grid && (nodes&(nodes-1) != 0 || (bits.Len(uint(nodes))-1)%2 != 0) {
		add(key, name, fmt.Sprintf("transpose swaps the halves of the address: needs 2^(2m) nodes; this network has %d", nodes))
	}
}

// validateLoadUnits checks the load given in the units of the papers:
// load_of_wire_capacity and load_of_bisection, one unit at a time.
func (c *Config) validateLoadUnits(add addFunc) {
	n, t := &c.Network, &c.Traffic
	pats := traffic.Patterns()
	if !(t.LoadOfWireCapacity >= 0 && t.LoadOfWireCapacity <= 1) {
		add("traffic.load_of_wire_capacity", t.LoadOfWireCapacity, "allowed: 0 (off: load_flits_per_node_cycle applies) or > 0 and <= 1 (share of the wire capacity)")
	} else if t.LoadOfWireCapacity > 0 {
		switch spec, ok := pats[t.Pattern]; {
		case !traffic.SteadyLoad(t.Process):
			add("traffic.load_of_wire_capacity", t.LoadOfWireCapacity, "applies to the bernoulli, poisson and on-off processes only")
		case t.Load != Default().Traffic.Load:
			add("traffic.load_of_wire_capacity", t.LoadOfWireCapacity, "give the offered load either here or in load_flits_per_node_cycle, not both")
		case ok && t.Pattern != "uniform" && !spec.Permutes:
			add("traffic.load_of_wire_capacity", t.LoadOfWireCapacity, fmt.Sprintf("needs the mean route length of the pattern: defined for uniform and permutation patterns, not %q", t.Pattern))
		case n.NodesPerLeaf() > 0: // a tree
			add("traffic.load_of_wire_capacity", t.LoadOfWireCapacity, "defined on meshes and tori")
		case c.Nodes() > 1<<14:
			add("traffic.load_of_wire_capacity", t.LoadOfWireCapacity, fmt.Sprintf("the mean route length is computed over all node pairs: at most 16384 nodes (this network has %d)", c.Nodes()))
		}
	}
	if t.LoadOfBisection != 0 {
		key, v := "traffic.load_of_bisection", t.LoadOfBisection
		switch {
		case !(v > 0):
			add(key, v, "allowed: 0 (off: load_flits_per_node_cycle applies) or > 0 (share of twice the bisection bandwidth)")
		case !traffic.SteadyLoad(t.Process):
			add(key, v, "applies to the bernoulli, poisson and on-off processes only")
		case t.Load != Default().Traffic.Load || t.LoadOfWireCapacity > 0:
			add(key, v, "give the offered load in one key only: load_of_bisection, load_of_wire_capacity or load_flits_per_node_cycle")
		case !isGrid(n):
			add(key, v, "defined on meshes and tori")
		default:
			if bis, err := c.Bisection(); err == nil && v*bis.FlitsPerNodeCycle > 1 {
				add(key, v, fmt.Sprintf("allowed: at most %.4g here (a node injects at most 1 flit per cycle; 1 is %.4g flits/node/cycle on this network)", 1/bis.FlitsPerNodeCycle, bis.FlitsPerNodeCycle))
			}
		}
	}
}

// validateClasses checks a mix of traffic classes: its shares, its
// sizes, and the traffic it may not be combined with.
func (c *Config) validateClasses(add addFunc) {
	t := &c.Traffic
	n := t.ClassVolumePercent.Len()
	if n == 0 {
		if t.ClassPacketFlits.Len() > 0 {
			add("traffic.class_packet_flits", t.ClassPacketFlits, "sizes the packets of traffic classes: set traffic.class_volume_percent too (one percent of the volume per class), or leave class_packet_flits empty")
		}
		return
	}
	const key = "traffic.class_volume_percent"
	sum := 0.0
	pcts, sizes := t.ClassVolumePercent.Values(), t.ClassPacketFlits.Values()
	for _, p := range pcts {
		sum += p
	}
	switch {
	case n < 2 || n > link.MaxClasses:
		add(key, t.ClassVolumePercent, fmt.Sprintf("%d classes; allowed: 2..%d classes (one percent of the volume each), or none", n, link.MaxClasses))
	case slices.ContainsFunc(pcts, func(p float64) bool { return !(p > 0 && p <= 100) }):
		add(key, t.ClassVolumePercent, "allowed: percents > 0 and <= 100, one per class")
	case math.Abs(sum-100) > 1e-9:
		add(key, t.ClassVolumePercent, fmt.Sprintf("the percents sum to %g; allowed: percents of the traffic volume summing to 100", sum))
	}
	if m := len(sizes); m > 0 && m != n && n >= 2 && n <= link.MaxClasses {
		add("traffic.class_packet_flits", t.ClassPacketFlits, fmt.Sprintf("%d sizes for %d classes (traffic.class_volume_percent); allowed: one size per class, or none (packet_flits for every class)", m, n))
	}
	if slices.ContainsFunc(sizes, func(s int) bool { return s < 1 || s > 65535 }) {
		add("traffic.class_packet_flits", t.ClassPacketFlits, "allowed: sizes 1..65535 flits, one per class")
	}
	switch {
	case t.LongPacketFlits > 0:
		add(key, t.ClassVolumePercent, "long packets are a mix of two classes of their own: use traffic classes (class_packet_flits for the sizes) or long_packet_flits, not both")
	case t.Process == "request-reply" || t.Process == "job":
		add(key, t.ClassVolumePercent, fmt.Sprintf("applies to the open-loop processes (bernoulli, poisson, ramp, on-off, saturation, collective); process %q has message classes of its own", t.Process))
	case c.nodeChannels() == 2:
		add(key, t.ClassVolumePercent, fmt.Sprintf("network.%s.node_channels = 2 gives message classes 0 and 1 a channel each; traffic classes share a node's one channel: use node_channels = 1", c.Network.Topology))
	}
}

// classPacketFlits is traffic class k's packet size.
func (c *Config) classPacketFlits(k int) int {
	if k < c.Traffic.ClassPacketFlits.Len() {
		return c.Traffic.ClassPacketFlits.At(k)
	}
	return c.Traffic.PacketFlits
}

// trafficClasses is the traffic package's mix of traffic classes; nil
// for one class.
func (c *Config) trafficClasses() []traffic.Class {
	var cs []traffic.Class
	for k, p := range c.Traffic.ClassVolumePercent.Values() {
		cs = append(cs, traffic.Class{VolumeShare: p / 100, PacketFlits: c.classPacketFlits(k)})
	}
	return cs
}

// longShare is the share of the traffic volume in long packets.
func (c *Config) longShare() float64 {
	if c.Traffic.LongPacketFlits <= 0 {
		return 0
	}
	return c.Traffic.LongVolumePercent / 100
}

// packetSizesValid reports whether the packet sizes are in range, so that
// checks derived from them (buffers, watchdog) may run: an invalid size has
// its own error.
func (c *Config) packetSizesValid() bool {
	t := &c.Traffic
	return t.PacketFlits >= 1 && t.PacketFlits <= 65535 && t.LongPacketFlits >= 0 && t.LongPacketFlits <= 65535 &&
		!slices.ContainsFunc(t.ClassPacketFlits.Values(), func(s int) bool { return s < 1 || s > 65535 })
}

// classSizes is the packet sizes of the traffic classes, nil for one class.
func (c *Config) classSizes() []int {
	var s []int
	for k := range c.Traffic.ClassVolumePercent.Len() {
		s = append(s, c.classPacketFlits(k))
	}
	return s
}

// maxPacketFlits is the largest packet the traffic sends.
func (c *Config) maxPacketFlits() int {
	if c.Traffic.Process == "request-reply" {
		return max(c.Traffic.RequestFlits, c.Traffic.ReplyFlits)
	}
	if c.longShare() > 0 {
		return max(c.Traffic.PacketFlits, c.Traffic.LongPacketFlits)
	}
	if s := c.classSizes(); s != nil {
		return slices.Max(s)
	}
	return c.Traffic.PacketFlits
}

// minPacketFlits is the smallest packet the traffic sends.
func (c *Config) minPacketFlits() int {
	if c.Traffic.Process == "job" {
		return 1 // a message's last packet holds what is left of it
	}
	if c.Traffic.Process == "request-reply" {
		return min(c.Traffic.RequestFlits, c.Traffic.ReplyFlits)
	}
	if s := c.classSizes(); s != nil {
		return slices.Min(s)
	}
	switch s := c.longShare(); {
	case s >= 1:
		return c.Traffic.LongPacketFlits
	case s > 0:
		return min(c.Traffic.PacketFlits, c.Traffic.LongPacketFlits)
	}
	return c.Traffic.PacketFlits
}

// TrafficConfig is the traffic package's view of the configuration. With
// traffic.load_of_wire_capacity it computes the wire capacity (all node
// pairs' route lengths under uniform traffic); a run does so once (Build).
func (c *Config) TrafficConfig() traffic.Config {
	u, _ := c.loadUnits() // Validate has refused the configurations it fails on
	return c.trafficConfig(u)
}

// loadUnits are the units the load is given in, when not in
// flits/node/cycle: nil fields for those not used.
type loadUnits struct {
	wire      *report.WireCapacity
	bisection *report.Bisection
}

func (c *Config) loadUnits() (loadUnits, error) {
	var u loadUnits
	var err error
	if c.Traffic.LoadOfWireCapacity > 0 {
		if u.wire, err = c.WireCapacity(); err != nil {
			return u, err
		}
	}
	if c.Traffic.LoadOfBisection > 0 {
		if u.bisection, err = c.Bisection(); err != nil {
			return u, err
		}
	}
	return u, nil
}

// trafficConfig is TrafficConfig given the units of the load.
func (c *Config) trafficConfig(u loadUnits) traffic.Config {
	t := c.Traffic
	load := t.Load
	if t.LoadOfWireCapacity > 0 && u.wire != nil {
		load = t.LoadOfWireCapacity * u.wire.FlitsPerNodeCycle
	}
	if t.LoadOfBisection > 0 && u.bisection != nil {
		load = t.LoadOfBisection * u.bisection.FlitsPerNodeCycle
	}
	var long int
	if c.longShare() > 0 {
		long = t.LongPacketFlits
	}
	self, _ := traffic.ParseSelfMode(t.Self)
	return traffic.Config{Pattern: t.Pattern, Process: t.Process, LoadFlits: load, PacketsPerNode: t.PacketsPerNode,
		PacketFlits: t.PacketFlits, LongFlits: long, LongVolumeShare: c.longShare(), Classes: c.trafficClasses(),
		PhaseCycle: t.PhaseCycle, PhasePattern: t.PhasePattern, RampCycles: t.RampCycles, OnCycles: t.OnCycles, OffCycles: t.OffCycles, Self: self, QueuePackets: t.SourceQueuePackets,
		PatternParams: traffic.PatternParams{HotspotFraction: t.HotspotFraction, HotspotSourceFraction: t.HotspotSourceFraction, HotspotNode: t.HotspotNode, HotRegionFraction: t.HotRegionFraction},
		RequestReply: traffic.RequestReply{RequestFlits: t.RequestFlits, ReplyFlits: t.ReplyFlits, ServiceCycles: t.ServiceCycles,
			MaxOutstanding: t.MaxOutstanding, ServerQueuePackets: t.ServerQueuePackets}}
}
