package study

import (
	"fmt"
	"slices"
	"strings"

	"github.com/icnsim/icnsim/router/vc"
	"github.com/icnsim/icnsim/routing"
)

// Router is the router microarchitecture and links.
type Router struct {
	// Kind is the microarchitecture: vc (the input-queued VC router) or
	// ioq (the RECN paper's input/output-buffered switch, package ioq).
	Kind string `toml:"kind"`
	// Queues is the ioq switch's queue organisation: 1q, voq-sw, voq-net,
	// recn.
	Queues string `toml:"queues"`
	// PortMemoryBytes is the ioq switch's memory at every ingress and
	// egress port and at every adapter's injection side (128 KB, the
	// paper's), a whole number of flits.
	PortMemoryBytes int `toml:"port_memory_bytes"`
	// FlitBytes and LinkGbps relate cycles to time on the ioq switch: a
	// cycle is the time a link takes to carry one flit,
	// flit_bytes * 8 / link_gbps ns (8 ns for 8-byte flits on 8 Gbps links).
	FlitBytes           int     `toml:"flit_bytes"`
	LinkGbps            float64 `toml:"link_gbps"`
	Routing             string  `toml:"routing"`
	VCs                 int     `toml:"vcs"`
	BufferFlits         int     `toml:"buffer_flits"`
	Switching           string  `toml:"switching"`
	RoutingDelayCycles  int     `toml:"routing_delay_cycles"`
	LinkLatencyCycles   int     `toml:"link_latency_cycles"`
	CreditLatencyCycles int     `toml:"credit_latency_cycles"`
	AllowDeadlock       bool    `toml:"allow_deadlock"`
	// Selection is the VC router's selection function: free-most-credits
	// (a free VC with room, most credits) or least-occupied (FSIN's: the
	// least occupied VC offered, waited for; vc.Selection).
	Selection string `toml:"selection"`
	// SelectionTies is how least-occupied breaks a tie: rotation (the
	// default), random, or fsin (FSIN's draw; vc.SelectionTies).
	SelectionTies string `toml:"selection_ties"`
	// UGALThresholdFlits is UGAL's threshold T (routings ugal-l, ugal-g,
	// par): minimal when q_min*H_min <= q_val*H_val + T.
	UGALThresholdFlits int `toml:"ugal_threshold_flits"`
	// InternalSpeedup is the VC router's switch allocation rounds per
	// cycle: 1, the input-queued router; 2..4 add output queues
	// (BookSim2's internal_speedup; vc.Config.InternalSpeedup).
	InternalSpeedup int `toml:"internal_speedup"`
	// RECN configures router.queues = "recn".
	RECN RECN `toml:"recn"`
	// HAR configures router.routing = "hybrid-har" and "har-dor".
	HAR HAR `toml:"har"`
}

// validateRouter checks the [router] table's microarchitecture: the router
// kind, and what applies to the other kind only; the VC router's routing
// and buffers (validateVC) or the ioq switch's keys (validateIOQ); the
// latencies. [router.har] and [router.recn] have validators of their own.
func (c *Config) validateRouter(add addFunc) {
	r := &c.Router
	ioqKind := r.Kind == "ioq"
	switch r.Kind {
	case "vc", "": // the zero value of a Config built in Go is the VC router
		d := Default().Router
		if r.Queues != d.Queues && r.Queues != "" {
			add("router.queues", r.Queues, `applies to router.kind = "ioq" only (the VC router has one queue per VC)`)
		}
		if r.PortMemoryBytes != d.PortMemoryBytes && r.PortMemoryBytes != 0 {
			add("router.port_memory_bytes", r.PortMemoryBytes, `applies to router.kind = "ioq" only; the VC router's buffers are router.buffer_flits per VC`)
		}
		if r.FlitBytes != d.FlitBytes && r.FlitBytes != 0 {
			add("router.flit_bytes", r.FlitBytes, `flit_bytes and link_gbps apply to router.kind = "ioq" only (the VC router counts in flits and cycles)`)
		} else if r.LinkGbps != d.LinkGbps && r.LinkGbps != 0 {
			add("router.link_gbps", r.LinkGbps, `flit_bytes and link_gbps apply to router.kind = "ioq" only (the VC router counts in flits and cycles)`)
		}
		if r.RECN != d.RECN && r.RECN != (RECN{}) {
			key, v := changedKey("router.recn", r.RECN, d.RECN)
			add(key, v, `applies to router.kind = "ioq" with router.queues = "recn" only`)
		}
	case "ioq":
		c.validateIOQ(add)
		if r.Selection != "" && r.Selection != Default().Router.Selection {
			add("router.selection", r.Selection, `applies to router.kind = "vc" only (the ioq switch moves one packet per input and output; its queues are chosen by the organisation)`)
		}
		if r.SelectionTies != "" && r.SelectionTies != Default().Router.SelectionTies {
			add("router.selection_ties", r.SelectionTies, `applies to router.kind = "vc" only (with router.selection = "least-occupied")`)
		}
		if r.InternalSpeedup > 1 {
			add("router.internal_speedup", r.InternalSpeedup, `applies to router.kind = "vc" only (the ioq switch buffers at ingress and egress already)`)
		}
	default:
		add("router.kind", r.Kind, "allowed: vc (input-queued virtual-channel router), ioq (the RECN paper's input/output-buffered switch)"+didYouMean(r.Kind, []string{"vc", "ioq"}))
	}
	if !ioqKind { // validateIOQ checks the switch's routing and topology
		c.validateVC(add)
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
		add("router.routing", r.Routing, "allowed: "+strings.Join(routingNames(), ", ")+didYouMean(r.Routing, routingNames()))
	} else if !slices.Contains(spec.Topologies, n.Topology) {
		add("router.routing", r.Routing, fmt.Sprintf("defined on %s only; for a %s use %s",
			strings.Join(spec.Topologies, ", "), n.Topology, strings.Join(routingsFor(n.Topology), ", ")))
	}
	if r.VCs < 1 || r.VCs > 64 {
		add("router.vcs", r.VCs, "allowed: 1..64")
	} else if known && slices.Contains(spec.Topologies, n.Topology) && c.networkValid() {
		if t, err := c.Topology(); err == nil && spec.CheckVCs != nil {
			if err := spec.CheckVCs(t, r.VCs); err != nil {
				add("router.vcs", r.VCs, err.Error())
			}
		}
	}
	if r.BufferFlits < 1 || r.BufferFlits > 32768 {
		add("router.buffer_flits", r.BufferFlits, "allowed: 1..32768 flits per VC")
	}
	if r.InternalSpeedup < 1 || r.InternalSpeedup > vc.MaxInternalSpeedup {
		add("router.internal_speedup", r.InternalSpeedup, fmt.Sprintf("allowed: 1..%d switch allocation rounds per cycle (1: the input-queued router; more adds output queues)", vc.MaxInternalSpeedup))
	}
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
	if sel, err := vc.ParseSelection(r.Selection); err != nil {
		add("router.selection", r.Selection, "allowed: "+strings.Join(vc.SelectionNames(), ", ")+" (free-most-credits: a free VC with room, most credits; least-occupied: FSIN's, the least occupied VC offered, waited for)"+didYouMean(r.Selection, vc.SelectionNames()))
	} else if known && sel == vc.SelectLeastOccupied && spec.EscapeLevel {
		add("router.selection", r.Selection, fmt.Sprintf("least-occupied waits for the least occupied VC offered, and routing %q offers an escape level after its adaptive one that a head must be free to take: use free-most-credits, or a routing without an escape level (%s)", r.Routing, strings.Join(routingsWithoutEscape(), ", ")))
	}
	if ties, err := vc.ParseSelectionTies(r.SelectionTies); err != nil {
		add("router.selection_ties", r.SelectionTies, "allowed: "+strings.Join(vc.SelectionTiesNames(), ", ")+" (how least-occupied breaks a tie: a rotating pointer, a uniform draw, or FSIN's draw)"+didYouMean(r.SelectionTies, vc.SelectionTiesNames()))
	} else if sel, err := vc.ParseSelection(r.Selection); err == nil && ties != vc.TiesRotation && sel != vc.SelectLeastOccupied {
		add("router.selection_ties", r.SelectionTies, fmt.Sprintf("breaks ties of router.selection = \"least-occupied\" only (router.selection is %q, which ties by rotation): set router.selection = \"least-occupied\" or leave selection_ties at \"rotation\"", sel))
	}
	sw, err := vc.ParseSwitching(r.Switching)
	if err != nil {
		add("router.switching", r.Switching, "allowed: vct, wormhole"+didYouMean(r.Switching, []string{"vct", "wormhole"}))
	} else if sw == vc.VirtualCutThrough && r.BufferFlits >= 1 && c.packetSizesValid() && r.BufferFlits < c.maxPacketFlits() {
		add("router.buffer_flits", r.BufferFlits, fmt.Sprintf("virtual cut-through needs a whole packet per buffer: at least %d flits, the largest packet (or switching = \"wormhole\")", c.maxPacketFlits()))
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
	sw, _ := vc.ParseSwitching(c.Router.Switching)
	sel, _ := vc.ParseSelection(c.Router.Selection)
	ties, _ := vc.ParseSelectionTies(c.Router.SelectionTies)
	return vc.Config{Routing: c.routingSpec(), VCs: c.Router.VCs, BufferFlits: c.Router.BufferFlits, Switching: sw,
		RoutingDelayCycles: c.Router.RoutingDelayCycles, LinkLatencyCycles: c.Router.LinkLatencyCycles,
		CreditLatencyCycles: c.Router.CreditLatencyCycles, MaxPacketFlits: c.maxPacketFlits(), MinPacketFlits: c.minPacketFlits(),
		AllowDeadlock: c.Router.AllowDeadlock, Selection: sel, RoutingParams: c.routingParams(),
		InternalSpeedup: c.Router.InternalSpeedup,
		SelectionTies:   ties, SelectionSeed: c.Seed ^ 0x5e1e_c7_7135}
}
