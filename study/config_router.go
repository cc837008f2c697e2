package study

import (
	"fmt"
	"slices"
	"strings"

	"github.com/icnsim/icnsim/link"
	"github.com/icnsim/icnsim/router/alloc"
	"github.com/icnsim/icnsim/router/vc"
	"github.com/icnsim/icnsim/routing"
)

// Router is the router microarchitecture and links.
type Router struct {
	// Kind is the microarchitecture: vc (the input-queued VC router) or
	// ioq (the RECN paper's input/output-buffered switch, package ioq);
	// it selects its table, [router.vc] or [router.ioq] (kinds).
	Kind                string `toml:"kind"`
	Routing             string `toml:"routing"`
	RoutingDelayCycles  int    `toml:"routing_delay_cycles"`
	LinkLatencyCycles   int    `toml:"link_latency_cycles"`
	CreditLatencyCycles int    `toml:"credit_latency_cycles"`
	AllowDeadlock       bool   `toml:"allow_deadlock"`
	// UGALThresholdFlits is UGAL's threshold T (routings ugal-l, ugal-g,
	// par): minimal when q_min*H_min <= q_val*H_val + T.
	UGALThresholdFlits int `toml:"ugal_threshold_flits"`
	// HAR configures router.routing = "hybrid-har" and "har-dor".
	HAR HAR `toml:"har"`
	// The router kinds' own tables, one per router.kind (the catalog's).
	kinds
}

// validateRouter checks the [router] table's microarchitecture: the router
// kind, and what applies to the other kind only; the VC router's routing
// and buffers (validateVC) or the ioq switch's keys (validateIOQ); the
// latencies. [router.har] and [router.ioq.recn] have validators of their own.
func (c *Config) validateRouter(add addFunc) {
	r := &c.Router
	switch r.Kind {
	case "vc", "": // the zero value of a Config built in Go is the VC router
		c.validateVC(add)
	case "ioq":
		c.validateIOQ(add)
	default:
		add("router.kind", r.Kind, "allowed: vc (input-queued virtual-channel router, [router.vc]), ioq (the RECN paper's input/output-buffered switch, [router.ioq])"+didYouMean(r.Kind, routerKindNames()))
	}
	if r.RoutingDelayCycles < 0 || r.RoutingDelayCycles > 1000 {
		add("router.routing_delay_cycles", r.RoutingDelayCycles, "allowed: 0..1000")
	}
	if r.LinkLatencyCycles < 1 || r.LinkLatencyCycles > 1000 {
		add("router.link_latency_cycles", r.LinkLatencyCycles, "allowed: 1..1000")
	}
	if r.CreditLatencyCycles < 1 || r.CreditLatencyCycles > 1000 {
		add("router.credit_latency_cycles", r.CreditLatencyCycles, "allowed: 1..1000")
	}
}

// latenciesValid reports whether the routing delay and the link and
// credit latencies are in range, so that checks derived from them may run.
func (c *Config) latenciesValid() bool {
	r := &c.Router
	return r.RoutingDelayCycles >= 0 && r.RoutingDelayCycles <= 1000 && r.LinkLatencyCycles >= 1 && r.LinkLatencyCycles <= 1000 &&
		r.CreditLatencyCycles >= 1 && r.CreditLatencyCycles <= 1000
}

// validateVC checks the VC router's routing and buffer keys.
func (c *Config) validateVC(add addFunc) {
	r, n := &c.Router, &c.Network
	spec, known := Routings()[r.Routing]
	if !known {
		// The routings of this topology (the others would be refused in
		// turn), with a near name from all of them.
		if here := routingsFor(n.Topology); len(here) > 0 {
			add("router.routing", r.Routing, fmt.Sprintf("allowed on a %s: %s", n.Topology, strings.Join(here, ", "))+didYouMean(r.Routing, routingNames()))
		} else {
			add("router.routing", r.Routing, "allowed: "+strings.Join(routingNames(), ", ")+didYouMean(r.Routing, routingNames()))
		}
	} else if !slices.Contains(spec.Topologies, n.Topology) {
		add("router.routing", r.Routing, fmt.Sprintf("defined on %s only; for a %s use %s",
			strings.Join(spec.Topologies, ", "), n.Topology, strings.Join(routingsFor(n.Topology), ", ")))
	}
	t := &r.VC
	t.Check(func(key string, v any, allowed string) { add("router.vc."+key, v, allowed) })
	if tab, _ := n.table(); tab != nil && known && slices.Contains(spec.Topologies, n.Topology) && c.networkValid() && spec.CheckTopology != nil {
		// The family's own network, before any ports a routing adds.
		if topo, err := tab.Build(); err == nil {
			if err := spec.CheckTopology(topo); err != nil {
				add("router.routing", r.Routing, err.Error())
				return
			}
		}
	}
	if t.VCs >= 1 && t.VCs <= vc.MaxVCs && known && slices.Contains(spec.Topologies, n.Topology) && c.networkValid() {
		if topo, err := c.Topology(); err == nil && spec.CheckVCs != nil {
			if err := spec.CheckVCs(topo, t.VCs); err != nil {
				add("router.vc.vcs", t.VCs, err.Error())
			}
		}
	}
	c.validateClassOptions(add, spec, known)
	if r.UGALThresholdFlits != 0 {
		reads := routingsReading("ugal_threshold_flits")
		par, ok := spec.Param("ugal_threshold_flits")
		switch {
		case !ok:
			add("router.ugal_threshold_flits", r.UGALThresholdFlits, fmt.Sprintf("applies to routings %s only (routing is %q)", joinWords(reads, "", "and"), r.Routing))
		case par.Check(r.UGALThresholdFlits) != nil:
			add("router.ugal_threshold_flits", r.UGALThresholdFlits, fmt.Sprintf("allowed: %d..%d flits", par.MinInt, par.MaxInt))
		}
	}
	if sel, err := vc.ParseSelection(t.Selection); err == nil && known && sel == vc.SelectLeastOccupied && spec.EscapeLevel {
		add("router.vc.selection", t.Selection, fmt.Sprintf("least-occupied waits for the least occupied VC offered, and routing %q offers an escape level after its adaptive one that a head must be free to take: use free-most-credits, or a routing without an escape level (%s)", r.Routing, strings.Join(routingsWithoutEscape(), ", ")))
	}
	if sw, err := vc.ParseSwitching(t.Switching); err == nil && sw == vc.VirtualCutThrough && t.BufferFlits >= 1 && c.packetSizesValid() && t.BufferFlits < c.maxPacketFlits() {
		add("router.vc.buffer_flits", t.BufferFlits, fmt.Sprintf("virtual cut-through needs a whole packet per buffer: at least %d flits, the largest packet (or switching = \"wormhole\")", c.maxPacketFlits()))
	}
}

// validateClassOptions checks [router.vc]'s traffic-class keys against
// the traffic: they need classes, one count or weight per class, and each
// class's VCs at least the routing's minimum.
func (c *Config) validateClassOptions(add addFunc, spec routing.Spec, known bool) {
	r, t, classes := &c.Router, &c.Router.VC, c.Traffic.ClassVolumePercent.Len()
	share, err := alloc.ParseShare(t.ClassShare)
	if classes == 0 {
		if err == nil && share != alloc.ShareNone {
			add("router.vc.class_share", t.ClassShare, "divides the router between traffic classes; the traffic has one: set traffic.class_volume_percent, or class_share = \"none\"")
		}
		if t.ClassVCs.Len() > 0 {
			add("router.vc.class_vcs", t.ClassVCs, "partitions the VCs between traffic classes; the traffic has one: set traffic.class_volume_percent, or leave class_vcs empty")
		}
		return
	}
	if classes < 2 || classes > link.MaxClasses {
		return // the class list's own error
	}
	if known && spec.MessageClasses > 0 {
		add("traffic.class_volume_percent", c.Traffic.ClassVolumePercent, fmt.Sprintf("routing %q routes by message class itself (%d classes: short and long messages), which traffic classes would be read as: use traffic classes with another routing, or long_packet_flits for its classes", r.Routing, spec.MessageClasses))
		return
	}
	if err == nil && share != alloc.ShareNone {
		// A node under a share keeps a source queue per class, and the
		// sources read the length of class 0's alone.
		switch {
		case c.Traffic.Process == "saturation":
			add("router.vc.class_share", t.ClassShare, "keeps a source queue per traffic class, and the saturation process keeps only one backlogged: use class_share = \"none\" (one queue), or a bernoulli process at load 1")
		case c.Traffic.SourceQueuePackets > 0:
			add("router.vc.class_share", t.ClassShare, fmt.Sprintf("keeps a source queue per traffic class, and traffic.source_queue_packets = %d would bound class 0's alone: use class_share = \"none\", or source_queue_packets = 0", c.Traffic.SourceQueuePackets))
		}
	}
	if n := t.ClassVCs.Len(); n > 0 && n != classes {
		add("router.vc.class_vcs", t.ClassVCs, fmt.Sprintf("%d counts for %d traffic classes (traffic.class_volume_percent); allowed: one per class", n, classes))
	}
	if n := t.ClassWeights.Len(); err == nil && share == alloc.ShareWeighted && n != classes {
		add("router.vc.class_weights", t.ClassWeights, fmt.Sprintf("%d weights for %d traffic classes (traffic.class_volume_percent); the weighted share needs one per class", n, classes))
	}
	if t.ClassVCs.Len() != classes || !known || !slices.Contains(spec.Topologies, c.Network.Topology) || !c.networkValid() {
		return
	}
	topo, terr := c.Topology()
	if terr != nil {
		return
	}
	for k, v := range t.ClassVCs.Values() {
		if v < 1 {
			return // the table's own error
		}
		if m := spec.MinVCsFor(topo); v < m {
			add("router.vc.class_vcs", t.ClassVCs, fmt.Sprintf("traffic class %d's %d VCs: routing %q needs at least %d VCs per class (each class's block is routed and checked for deadlock apart)", k, v, spec.Name, m))
			return
		}
		if spec.CheckVCs == nil {
			continue
		}
		if err := spec.CheckVCs(topo, v); err != nil {
			add("router.vc.class_vcs", t.ClassVCs, fmt.Sprintf("traffic class %d's %d VCs: %v", k, v, err))
			return
		}
	}
}

// routingsWithoutEscape lists the routing functions whose candidates form
// one level, sorted.
// routingsReading lists the routings that read parameter key, in the
// registry's order.
func routingsReading(key string) []string {
	var names []string
	for _, s := range RoutingList() {
		if _, ok := s.Param(key); ok {
			names = append(names, s.Name)
		}
	}
	return names
}

// joinWords joins words for a sentence, each between quote marks q, the
// last two by conj: "a, b and c".
func joinWords(words []string, q, conj string) string {
	var b strings.Builder
	for i, w := range words {
		switch {
		case i == 0:
		case i == len(words)-1:
			b.WriteString(" " + conj + " ")
		default:
			b.WriteString(", ")
		}
		b.WriteString(q + w + q)
	}
	return b.String()
}

// routingParams are the values the configuration gives to its routing's
// parameters (routing.Spec.Params), by key.
func (c *Config) routingParams() routing.Params {
	p := routing.Params{}
	for key, v := range map[string]any{"ugal_threshold_flits": c.Router.UGALThresholdFlits, "har.free": c.Router.HAR.Free} {
		if !isDefaultParam(key, v) {
			p[key] = v
		}
	}
	return p
}

// isDefaultParam reports whether v is routing parameter key's default: 0,
// "", or the first of its choices.
func isDefaultParam(key string, v any) bool {
	if v == 0 || v == "" {
		return true
	}
	for _, s := range RoutingList() {
		if par, ok := s.Param(key); ok && par.Choices != nil {
			return v == par.Choices[0]
		}
	}
	return false
}

func routingsWithoutEscape() []string {
	var names []string
	specs := Routings()
	for _, n := range routingNames() {
		if !specs[n].EscapeLevel {
			names = append(names, n)
		}
	}
	return names
}

func routingNames() []string {
	var names []string
	for n := range Routings() {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

func routingsFor(topo string) []string {
	var names []string
	for n, s := range Routings() {
		if slices.Contains(s.Topologies, topo) {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	return names
}

// RouterConfig is the VC router's (router/vc) view of the configuration.
func (c *Config) RouterConfig() vc.Config {
	sw, _ := vc.ParseSwitching(c.Router.VC.Switching)
	sel, _ := vc.ParseSelection(c.Router.VC.Selection)
	ties, _ := vc.ParseSelectionTies(c.Router.VC.SelectionTies)
	t := &c.Router.VC
	arb, _ := alloc.ParseArbitration(t.Arbitration)
	sa, _ := alloc.ParseAllocator(t.SwitchAllocator)
	share, _ := alloc.ParseShare(t.ClassShare)
	return vc.Config{Routing: c.routingSpec(), VCs: c.Router.VC.VCs, BufferFlits: c.Router.VC.BufferFlits, Switching: sw,
		RoutingDelayCycles: c.Router.RoutingDelayCycles, LinkLatencyCycles: c.Router.LinkLatencyCycles,
		CreditLatencyCycles: c.Router.CreditLatencyCycles, MaxPacketFlits: c.maxPacketFlits(), MinPacketFlits: c.minPacketFlits(),
		AllowDeadlock: c.Router.AllowDeadlock, Selection: sel, RoutingParams: c.routingParams(),
		InternalSpeedup: c.Router.VC.InternalSpeedup, VirtualNetworks: c.virtualNetworks(),
		SelectionTies: ties, SelectionSeed: c.Seed ^ 0x5e1e_c7_7135,
		Arbitration: arb, SwitchAllocator: sa, ISLIPIterations: t.ISLIPIterations,
		VCAllocationCycles: t.VCAllocationCycles, SwitchAllocationCycles: t.SwitchAllocationCycles, CrossbarCycles: t.CrossbarCycles,
		Classes: c.Traffic.ClassVolumePercent.Len(), ClassVCs: t.ClassVCs.Values(), ClassShare: share, ClassWeights: t.ClassWeights.Values()}
}
