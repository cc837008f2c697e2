package study

import (
	"fmt"
	"strings"

	"github.com/icnsim/icnsim/router/ioq"
	"github.com/icnsim/icnsim/router/ioq/recn"
)

// validateIOQ checks the keys of router.kind = "ioq": the queue
// organisation, the memory in whole flits large enough for a packet per
// queue, the link rate, dimension-order routing on a mesh (on a torus
// only to study deadlock), and none of what only the VC router has.
func (c *Config) validateIOQ(add addFunc) {
	r, n, t := &c.Router, &c.Network, &c.Router.IOQ
	table, path := n.table()
	shape, onGrid := table.(gridShaped)
	k, conc, wraps := 0, 1, false
	if onGrid {
		k, conc, wraps, onGrid = shape.GridShape()
	}
	sizesOK := t.Check(func(key string, v any, allowed string) { add("router.ioq."+key, v, allowed) })
	if sizesOK && onGrid && c.packetSizesValid() && c.latenciesValid() && c.Nodes() > 0 {
		ports := 4 + max(conc, 1)
		if setting, err := c.IOQConfig().Validate(ports, c.Nodes()); err != nil && !strings.HasPrefix(setting, "recn.") {
			switch setting {
			case "org":
				add("router.ioq.queues", t.Queues, err.Error()+fmt.Sprintf(": use voq-sw, 1q or recn, or a smaller network (%s.k)", path))
			case "packet":
				add("traffic.packet_flits", c.maxPacketFlits(), err.Error()+" on the ioq switch")
			default:
				add("router.ioq.port_memory_bytes", t.PortMemoryBytes, err.Error())
			}
		}
	}
	switch {
	case !onGrid:
		add("network.topology", n.Topology, `router.kind = "ioq" is built on k x k meshes (and, to study deadlock, tori)`)
	case wraps && t.Queues == "recn":
		add("router.ioq.queues", t.Queues, `RECN matches congested points on the routes of dimension-order routing on a mesh: use network.topology = "mesh"`)
	case wraps && !r.AllowDeadlock:
		add("router.kind", r.Kind, `the ioq switch has no virtual channels: dimension-order routing on a torus can deadlock; use a mesh, or router.allow_deadlock = true to study deadlock`)
	}
	if r.Routing != "dor" {
		add("router.routing", r.Routing, `router.kind = "ioq" routes in dimension order (X then Y, the RECN paper's): allowed: dor`)
	}
	if nc := c.nodeChannels(); nc > 1 {
		add(path+".node_channels", nc, `router.kind = "ioq" attaches each endnode by one channel: allowed: 1`)
	}
	c.validateRECN(add, sizesOK, k, conc, wraps, path)
	if p := c.Policy; p.Injection != "none" && p.Injection != "noth" {
		add("policy.injection", p.Injection, `injection policies run on router.kind = "vc" only: allowed here: none`)
	} else if p.MeasureCircuit {
		add("policy.measure_circuit", p.MeasureCircuit, `the entropy measurement circuit runs on router.kind = "vc" only: allowed here: false`)
	}
}

// validateRECN checks [router.ioq.recn]: under router.ioq.queues = "recn" its
// values (thresholds that are whole flits of the port memory, in order),
// elsewhere that it is left alone.
func (c *Config) validateRECN(add addFunc, sizesOK bool, k, conc int, wraps bool, path string) {
	r, d := &c.Router.IOQ.RECN, Default().Router.IOQ.RECN
	if c.Router.IOQ.Queues != "recn" {
		if *r != d && *r != (recn.Table{}) {
			key, v := changedKey("router.ioq.recn", *r, d)
			add(key, v, `applies to router.ioq.queues = "recn" only`)
		}
		return
	}
	if !wraps && k > ioq.MaxRECNMeshK {
		add(path+".k", k, fmt.Sprintf(`allowed with router.ioq.queues = "recn": <= %d (a CAM line counts its route in switches in one byte)`, ioq.MaxRECNMeshK))
	}
	fracOK := r.Check(func(string, any, string) {}) // its errors are the ioq table's (ioq.Table.Check)
	if !c.validateSAQs(add, conc, path) || !sizesOK || !fracOK || c.Nodes() < 1 {
		return // (no nodes: the network's sizes are refused)
	}
	cfg := c.IOQConfig()
	if setting, err := cfg.Validate(4+max(conc, 1), c.Nodes()); err != nil && strings.HasPrefix(setting, "recn.") {
		key := map[string]string{"recn.saqs": "router.ioq.recn.saqs", "recn.detect": "router.ioq.recn.detect_fraction", "recn.xoff": "router.ioq.recn.xoff_fraction",
			"recn.xon": "router.ioq.recn.xon_fraction", "recn.idle": "router.ioq.recn.idle_cycles", "recn.scope": "router.ioq.recn.xoff_scope"}[setting]
		msg := err.Error()
		if strings.HasSuffix(key, "_fraction") {
			msg += fmt.Sprintf(" (a threshold is its fraction times the port memory, %d flits, rounded down to whole flits)", cfg.PortMemoryFlits)
		}
		add(key, map[string]any{"router.ioq.recn.saqs": r.SAQs, "router.ioq.recn.detect_fraction": r.DetectFraction, "router.ioq.recn.xoff_fraction": r.XoffFraction,
			"router.ioq.recn.xon_fraction": r.XonFraction, "router.ioq.recn.idle_cycles": r.IdleCycles, "router.ioq.recn.xoff_scope": r.XoffScope}[key], msg)
	}
}

// validateSAQs checks router.ioq.recn.saqs against the room a port memory has:
// at most 64 queues, of which 4 + the concentration are detection
// queues (one per output port), the rest SAQs.
func (c *Config) validateSAQs(add addFunc, conc int, path string) bool {
	conc = max(conc, 1)
	detect := 4 + conc
	most := recn.MaxQueues - detect
	switch saqs := c.Router.IOQ.RECN.SAQs; {
	case most < 1:
		add(path+".concentration", conc, fmt.Sprintf(`with router.ioq.queues = "recn" allowed: 1..%d nodes per router (a port memory holds at most %d queues: one detection queue per output port, 4 + concentration, and at least one SAQ)`, recn.MaxQueues-5, recn.MaxQueues))
	case saqs < 1 || saqs > most:
		add("router.ioq.recn.saqs", saqs, fmt.Sprintf("allowed: 1..%d SAQs per port memory (at most %d queues, of which %d are detection queues: 4 + %s.concentration = %d)", most, recn.MaxQueues, detect, path, conc))
	default:
		return true
	}
	return false
}

// IOQConfig is package ioq's view of the configuration.
func (c *Config) IOQConfig() ioq.Config {
	r, t := c.Router, c.Router.IOQ
	org, _ := ioq.ParseOrg(t.Queues)
	return ioq.Config{Org: org, PortMemoryFlits: t.PortMemoryFlits(), RoutingDelayCycles: r.RoutingDelayCycles,
		LinkLatencyCycles: r.LinkLatencyCycles, CreditLatencyCycles: r.CreditLatencyCycles, MaxPacketFlits: c.maxPacketFlits(), MinPacketFlits: c.minPacketFlits(),
		AllowDeadlock: r.AllowDeadlock, RECN: t.RECN.InFlits(t.PortMemoryFlits()), DedicatedControl: t.RECN.ControlLanes == "dedicated"}
}

// CycleNs is the length of a cycle in nanoseconds on the ioq switch: the
// time its links take to carry one flit.
func (c *Config) CycleNs() float64 { return c.Router.IOQ.CycleNs() }
