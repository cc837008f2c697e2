package study

import (
	"fmt"
	"strings"

	"github.com/icnsim/icnsim/router/ioq"
	"github.com/icnsim/icnsim/router/ioq/recn"
)

// RECN is the [router.recn] table: RECN's set-aside queues and thresholds
// (package router/ioq/recn), as fractions of the port memory.
type RECN struct {
	// SAQs is the number of set-aside queues per port memory (the paper's 8).
	SAQs int `toml:"saqs"`
	// DetectFraction is the occupancy, as a share of the port memory, at
	// which a detection, standard or set-aside queue is congested; Xoff
	// and Xon the occupancies of a SAQ at which it stops and restarts its
	// upstream SAQs (the paper fixes 1% of the memory for its threshold).
	DetectFraction float64 `toml:"detect_fraction"`
	XoffFraction   float64 `toml:"xoff_fraction"`
	XonFraction    float64 `toml:"xon_fraction"`
	// IdleCycles frees an empty leaf SAQ that has received no packet for
	// this long (one that was allocated for a flow that stopped); 0 never
	// does (the paper frees a SAQ only when it empties).
	IdleCycles int64 `toml:"idle_cycles"`
	// ControlLanes is "shared" (control packets take link cycles between
	// data packets, as the paper's) or "dedicated" (lanes of their own).
	ControlLanes string `toml:"control_lanes"`
	// XoffScope is what a SAQ's Xoff stops: "children" (the upstream SAQs
	// for its point, the paper's text, which bounds no SAQ) or "feeders"
	// (every queue of every port feeding it, for the packets that would
	// enter it: no SAQ holds more than its Xoff threshold plus what is in
	// flight; see package router/ioq/recn).
	XoffScope string `toml:"xoff_scope"`
}

// validateIOQ checks the keys of router.kind = "ioq": the queue
// organisation, the memory in whole flits large enough for a packet per
// queue, the link rate, dimension-order routing on a mesh (on a torus
// only to study deadlock), and none of what only the VC router has.
func (c *Config) validateIOQ(add addFunc) {
	r, n, d := &c.Router, &c.Network, Default().Router
	table, path := n.table()
	shape, onGrid := table.(gridShaped)
	k, conc, wraps := 0, 1, false
	if onGrid {
		k, conc, wraps = shape.GridShape()
	}
	orgOK := true
	if _, err := ioq.ParseOrg(r.Queues); err != nil {
		add("router.queues", r.Queues, "allowed: "+strings.Join(ioq.Orgs(), ", ")+didYouMean(r.Queues, ioq.Orgs()))
		orgOK = false
	}
	flitOK := r.FlitBytes >= 1 && r.FlitBytes <= 4096
	if !flitOK {
		add("router.flit_bytes", r.FlitBytes, "allowed: 1..4096 bytes per flit")
	}
	if !(r.LinkGbps >= 1e-3 && r.LinkGbps <= 1e6) {
		add("router.link_gbps", r.LinkGbps, "allowed: 0.001..1e6 Gbit/s (a cycle, flit_bytes x 8 / link_gbps ns, converts the results to time)")
	}
	switch {
	case r.PortMemoryBytes < 1:
		add("router.port_memory_bytes", r.PortMemoryBytes, "allowed: >= 1 byte, a whole number of flits")
	case flitOK && r.PortMemoryBytes%r.FlitBytes != 0:
		add("router.port_memory_bytes", r.PortMemoryBytes, fmt.Sprintf("allowed: a whole number of flits of router.flit_bytes = %d bytes", r.FlitBytes))
	case flitOK && r.PortMemoryBytes/r.FlitBytes > 1<<24:
		add("router.port_memory_bytes", r.PortMemoryBytes, fmt.Sprintf("allowed: at most 2^24 flits (%d bytes)", (1<<24)*r.FlitBytes))
	case flitOK && orgOK && onGrid && c.packetSizesValid() && c.latenciesValid() && c.Nodes() > 0:
		ports := 4 + max(conc, 1)
		if setting, err := c.IOQConfig().Validate(ports, c.Nodes()); err != nil && !strings.HasPrefix(setting, "recn.") {
			switch setting {
			case "org":
				add("router.queues", r.Queues, err.Error()+fmt.Sprintf(": use voq-sw, 1q or recn, or a smaller network (%s.k)", path))
			case "packet":
				add("traffic.packet_flits", c.maxPacketFlits(), err.Error()+" on the ioq switch")
			default:
				add("router.port_memory_bytes", r.PortMemoryBytes, err.Error())
			}
		}
	}
	switch {
	case !onGrid:
		add("network.topology", n.Topology, `router.kind = "ioq" is built on meshes (and, to study deadlock, tori)`)
	case wraps && r.Queues == "recn":
		add("router.queues", r.Queues, `RECN matches congested points on the routes of dimension-order routing on a mesh: use network.topology = "mesh"`)
	case wraps && !r.AllowDeadlock:
		add("router.kind", r.Kind, `the ioq switch has no virtual channels: dimension-order routing on a torus can deadlock; use a mesh, or router.allow_deadlock = true to study deadlock`)
	}
	if r.Routing != "dor" {
		add("router.routing", r.Routing, `router.kind = "ioq" routes in dimension order (X then Y, the RECN paper's): allowed: dor`)
	}
	if nc := c.nodeChannels(); nc > 1 {
		add(path+".node_channels", nc, `router.kind = "ioq" attaches each endnode by one channel: allowed: 1`)
	}
	for _, k := range []struct {
		key      string
		v, deflt any
	}{{"router.vcs", r.VCs, d.VCs}, {"router.buffer_flits", r.BufferFlits, d.BufferFlits}, {"router.switching", r.Switching, d.Switching}} {
		if k.v != k.deflt {
			add(k.key, k.v, `applies to router.kind = "vc" only; the ioq switch is virtual cut-through with port memories (router.port_memory_bytes, router.queues)`)
		}
	}
	c.validateRECN(add, orgOK && flitOK, k, conc, wraps, path)
	if p := c.Policy; p.Injection != "none" && p.Injection != "noth" {
		add("policy.injection", p.Injection, `injection policies run on router.kind = "vc" only: allowed here: none`)
	} else if p.MeasureCircuit {
		add("policy.measure_circuit", p.MeasureCircuit, `the entropy measurement circuit runs on router.kind = "vc" only: allowed here: false`)
	}
}

// validateRECN checks [router.recn]: under router.queues = "recn" its
// values (thresholds that are whole flits of the port memory, in order),
// elsewhere that it is left alone.
func (c *Config) validateRECN(add addFunc, sizesOK bool, k, conc int, wraps bool, path string) {
	r, d := &c.Router.RECN, Default().Router.RECN
	if c.Router.Queues != "recn" {
		if *r != d && *r != (RECN{}) {
			key, v := changedKey("router.recn", *r, d)
			add(key, v, `applies to router.queues = "recn" only`)
		}
		return
	}
	if !wraps && k > ioq.MaxRECNMeshK {
		add(path+".k", k, fmt.Sprintf(`allowed with router.queues = "recn": <= %d (a CAM line counts its route in switches in one byte)`, ioq.MaxRECNMeshK))
	}
	if r.ControlLanes != "shared" && r.ControlLanes != "dedicated" {
		add("router.recn.control_lanes", r.ControlLanes, "allowed: shared (control packets take link cycles between data packets), dedicated")
	}
	if _, ok := recn.ParseScope(r.XoffScope); !ok {
		add("router.recn.xoff_scope", r.XoffScope, "allowed: children (Xoff stops the upstream SAQs for the point, the paper's text), feeders (every queue feeding the SAQ: bounds it)")
	}
	if r.IdleCycles < 0 {
		add("router.recn.idle_cycles", r.IdleCycles, "allowed: 0 (never free an idle SAQ, as the paper) or >= 1 cycles")
	}
	fracOK := true
	for _, f := range []struct {
		key string
		v   float64
	}{{"router.recn.detect_fraction", r.DetectFraction}, {"router.recn.xoff_fraction", r.XoffFraction}, {"router.recn.xon_fraction", r.XonFraction}} {
		if !(f.v >= 0 && f.v <= 1) {
			add(f.key, f.v, "allowed: a share of the port memory, 0..1")
			fracOK = false
		}
	}
	if !c.validateSAQs(add, conc, path) || !sizesOK || !fracOK || c.Router.PortMemoryBytes < 1 || r.IdleCycles < 0 || c.Nodes() < 1 {
		return // (no nodes: the network's sizes are refused)
	}
	cfg := c.IOQConfig()
	if setting, err := cfg.Validate(4+max(conc, 1), c.Nodes()); err != nil && strings.HasPrefix(setting, "recn.") {
		key := map[string]string{"recn.saqs": "router.recn.saqs", "recn.detect": "router.recn.detect_fraction", "recn.xoff": "router.recn.xoff_fraction",
			"recn.xon": "router.recn.xon_fraction", "recn.idle": "router.recn.idle_cycles", "recn.scope": "router.recn.xoff_scope"}[setting]
		msg := err.Error()
		if strings.HasSuffix(key, "_fraction") {
			msg += fmt.Sprintf(" (a threshold is its fraction times the port memory, %d flits, rounded down to whole flits)", cfg.PortMemoryFlits)
		}
		add(key, map[string]any{"router.recn.saqs": r.SAQs, "router.recn.detect_fraction": r.DetectFraction, "router.recn.xoff_fraction": r.XoffFraction,
			"router.recn.xon_fraction": r.XonFraction, "router.recn.idle_cycles": r.IdleCycles, "router.recn.xoff_scope": r.XoffScope}[key], msg)
	}
}

// validateSAQs checks router.recn.saqs against the room a port memory has:
// at most 64 queues, of which 4 + the concentration are detection
// queues (one per output port), the rest SAQs.
func (c *Config) validateSAQs(add addFunc, conc int, path string) bool {
	conc = max(conc, 1)
	detect := 4 + conc
	most := recn.MaxQueues - detect
	switch saqs := c.Router.RECN.SAQs; {
	case most < 1:
		add(path+".concentration", conc, fmt.Sprintf(`with router.queues = "recn" allowed: 1..%d nodes per router (a port memory holds at most %d queues: one detection queue per output port, 4 + concentration, and at least one SAQ)`, recn.MaxQueues-5, recn.MaxQueues))
	case saqs < 1 || saqs > most:
		add("router.recn.saqs", saqs, fmt.Sprintf("allowed: 1..%d SAQs per port memory (at most %d queues, of which %d are detection queues: 4 + %s.concentration = %d)", most, recn.MaxQueues, detect, path, conc))
	default:
		return true
	}
	return false
}

// IOQConfig is package ioq's view of the configuration.
func (c *Config) IOQConfig() ioq.Config {
	r := c.Router
	org, _ := ioq.ParseOrg(r.Queues)
	mem := r.PortMemoryBytes / max(r.FlitBytes, 1)
	flits := func(f float64) int32 { return int32(f * float64(mem)) }
	scope, _ := recn.ParseScope(r.RECN.XoffScope)
	return ioq.Config{Org: org, PortMemoryFlits: mem, RoutingDelayCycles: r.RoutingDelayCycles,
		LinkLatencyCycles: r.LinkLatencyCycles, CreditLatencyCycles: r.CreditLatencyCycles, MaxPacketFlits: c.maxPacketFlits(), MinPacketFlits: c.minPacketFlits(),
		AllowDeadlock: r.AllowDeadlock,
		RECN: recn.Config{SAQs: r.RECN.SAQs, DetectFlits: flits(r.RECN.DetectFraction), XoffFlits: flits(r.RECN.XoffFraction),
			XonFlits: flits(r.RECN.XonFraction), IdleCycles: r.RECN.IdleCycles, Scope: scope},
		DedicatedControl: r.RECN.ControlLanes == "dedicated"}
}

// CycleNs is the length of a cycle in nanoseconds on the ioq switch: the
// time its links take to carry one flit.
func (c *Config) CycleNs() float64 { return float64(c.Router.FlitBytes) * 8 / c.Router.LinkGbps }
