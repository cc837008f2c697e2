package study

import (
	"fmt"
	"math/bits"
	"math/rand/v2"

	"github.com/icnsim/icnsim/clock"
	"github.com/icnsim/icnsim/link"
	"github.com/icnsim/icnsim/report"
	"github.com/icnsim/icnsim/routing"
	"github.com/icnsim/icnsim/topology"
	"github.com/icnsim/icnsim/traffic"
)

// Link statistics (measure.link_stats): the flits of every router output
// channel and of each of its VCs and the cycles its ready flits waited for
// a credit, over the window (a collective's whole run), beside the load
// the routing's channel-load bound puts on the channel at the offered
// load.

// linkCounting is what a router kind offers for link statistics
// (router/vc's Network).
type linkCounting interface {
	CountLinkStats()
	LinkCounts(r int) (portFlits, vcFlits, stallCycles []uint64)
}

// linkObserver takes the counters at the window's ends.
type linkObserver struct {
	net      linkCounting
	topo     topology.Topology
	cfg      *Config
	from, to clock.Cycle
	at       [][3][]uint64 // by router: port flits, VC flits, stall cycles at the window's start
	closedAt [][3][]uint64
}

// newLinkObserver starts the counting on b's network; nil where its
// router kind does not count (validateMeasure refuses link_stats there).
func newLinkObserver(b *Built) *linkObserver {
	lc, ok := b.Fabric.(linkCounting)
	if !ok {
		return nil
	}
	lc.CountLinkStats()
	return &linkObserver{net: lc, topo: b.Fabric.Topology(), cfg: &b.Cfg, to: clock.Never}
}

// snapshot copies every router's counters.
func (o *linkObserver) snapshot() [][3][]uint64 {
	out := make([][3][]uint64, o.topo.Routers())
	for r := range out {
		pf, vf, st := o.net.LinkCounts(r)
		out[r] = [3][]uint64{append([]uint64(nil), pf...), append([]uint64(nil), vf...), append([]uint64(nil), st...)}
	}
	return out
}

func (o *linkObserver) begin(from clock.Cycle)         { o.from = from }
func (o *linkObserver) check(clock.Cycle) error        { return nil }
func (o *linkObserver) sample(*report.Sample, float64) {}
func (o *linkObserver) opened()                        { o.at = o.snapshot() }
func (o *linkObserver) closed(from, to clock.Cycle) {
	o.from, o.to, o.closedAt = from, to, o.snapshot()
}

// result fills res.Links: over the window, or for a run without one (a
// collective) from cycle 0 to its end.
func (o *linkObserver) result(_ *run, end clock.Cycle, res *report.Result) {
	start, stop := o.at, o.closedAt
	from, to := o.from, o.to
	if stop == nil { // no window closed: the whole run
		start, stop, from, to = nil, o.snapshot(), 0, end
	}
	cycles := int64(to) - int64(from)
	ls := &report.LinkStats{Cycles: cycles}
	bound, note := linkLoadBound(o.cfg, o.topo, res.OfferedFlitsPerNodeCycle)
	ls.Bound, ls.BoundNote = bound != nil, note
	for r := range stop {
		cur := stop[r]
		var base [3][]uint64
		if start != nil {
			base = start[r]
		}
		delta := func(k, i int) uint64 {
			if base[k] == nil {
				return cur[k][i]
			}
			return cur[k][i] - base[k][i]
		}
		P := len(cur[0])
		V := 0
		if P > 0 {
			V = len(cur[1]) / P
		}
		ls.VCs = V
		for p := range P {
			peer := o.topo.Peer(r, p)
			if !peer.Connected() || peer.Router == r && peer.Node < 0 { // an open edge, a loopback
				continue
			}
			l := report.Link{Router: r, Port: p, Name: o.topo.PortName(r, p), Class: topology.PortClass(o.topo, r, p), Flits: delta(0, p)}
			if peer.Node >= 0 {
				l.To = fmt.Sprintf("node %d", peer.Node)
			} else {
				l.To = o.topo.RouterName(peer.Router)
			}
			for v := range V {
				l.VCFlits = append(l.VCFlits, delta(1, p*V+v))
			}
			if cycles > 0 {
				l.FlitsPerCycle = float64(l.Flits) / float64(cycles)
				l.StallShare = float64(delta(2, p)) / float64(cycles)
			}
			if bound != nil {
				l.BoundFlitsPerCycle = bound.at(r, p)
			}
			ls.Links = append(ls.Links, l)
		}
	}
	res.Links = ls
}

// channelLoads are flits per cycle on every router output channel, that
// of port p of router r at base[r] + p (a route adds to one at every hop).
type channelLoads struct {
	base []int
	load []float64
}

func newChannelLoads(topo topology.Topology) *channelLoads {
	base := make([]int, topo.Routers()+1)
	for r := range topo.Routers() {
		base[r+1] = base[r] + topo.Ports(r)
	}
	return &channelLoads{base: base, load: make([]float64, base[len(base)-1])}
}

// at is the load on the channel out of port p of router r.
func (c *channelLoads) at(r, p int) float64 { return c.load[c.base[r]+p] }

// maxBoundRoutes bounds the routes a channel-load bound traces, per run
// (a million routes take about a second): uniform traffic traces every
// pair's, so networks of up to about 1,400 nodes; a permutation one per
// node; a pattern that spreads its destinations, as many as it spreads.
const maxBoundRoutes = 2 << 20

// linkLoadBound is the load, in flits per cycle, that the offered load
// (flits/node/cycle) puts on each router output channel (router, port)
// when every packet follows its routing function's route: the channel-load
// bound's prediction below saturation. It traces each source-destination
// pair's route through the routing function, so it is given for routings
// that offer one port at every hop (deterministic: dor, its dateline and
// class variants, fattree-static, min on a dragonfly, ...) and patterns
// whose destinations are known (uniform, the permutations, and those that
// spread them by a rule: traffic.PatternSpec.Spread); otherwise
// nil and why not.
func linkLoadBound(c *Config, topo topology.Topology, offered float64) (*channelLoads, string) {
	spec, ok := traffic.Patterns()[c.Traffic.Pattern]
	switch {
	case c.Traffic.Process == "request-reply":
		return nil, "no channel-load bound: request-reply's replies go back along other routes, and its closed loop offers what its outstanding requests allow"
	case c.Traffic.PhaseCycle > 0:
		return nil, "no channel-load bound: the pattern changes during the run (phase_cycle)"
	case !ok || c.Traffic.Pattern != "uniform" && !spec.Permutes && spec.Spread == nil:
		return nil, fmt.Sprintf("no channel-load bound: traced for uniform, group-shift, dimension-shift and permutation patterns, not %q", c.Traffic.Pattern)
	case c.Traffic.Pattern == "uniform" && topo.Nodes()*topo.Nodes() > maxBoundRoutes:
		return nil, fmt.Sprintf("no channel-load bound: uniform traffic traces every pair's route, at most %d (this network has %d nodes: %d pairs)", maxBoundRoutes, topo.Nodes(), topo.Nodes()*topo.Nodes())
	case offered <= 0:
		return nil, "no channel-load bound: no offered load"
	}
	rf, err := routing.New(c.routingSpec(), topo, c.Router.VC.VCs)
	if err != nil {
		return nil, "no channel-load bound: " + err.Error()
	}
	self, err := traffic.ParseSelfMode(c.Traffic.Self)
	if err != nil {
		return nil, "no channel-load bound: " + err.Error()
	}
	nodes := topo.Nodes()
	cl := newChannelLoads(topo)
	base, flat := cl.base, cl.load
	add := func(src, dst int, rate float64) error {
		// A packet to its own node crosses its router to the ejection
		// channel under self = "loopback"; "skip" never sends it (a
		// permutation's fixed point is silent) and "redraw" is refused
		// above for permutations and never draws it under uniform.
		if rate == 0 || src == dst && self != traffic.SelfLoopback {
			return nil
		}
		return traceRoute(topo, rf, src, dst, func(r, p int) { flat[base[r]+p] += rate })
	}
	if c.Traffic.Pattern == "uniform" {
		// Each node spreads its load over every node (loopback: itself
		// too, a packet that never enters the network) or every other.
		share := offered / float64(nodes)
		if self != traffic.SelfLoopback {
			share = offered / float64(nodes-1)
		}
		for s := range nodes {
			for d := range nodes {
				if err := add(s, d, share); err != nil {
					return nil, "no channel-load bound: " + err.Error()
				}
			}
		}
		return cl, ""
	}
	geo, params := traffic.GeometryOf(topo), c.TrafficConfig().PatternParams
	params.Seed = c.Seed // random-pair draws its permutation from the run's seed (Build)
	if spec.Spread != nil {
		routes := 0
		for s := range nodes {
			spec.Spread(geo, params, s, func(int, float64) { routes++ })
		}
		if routes > maxBoundRoutes {
			return nil, fmt.Sprintf("no channel-load bound: %q spreads over %d routes, more than the %d traced", c.Traffic.Pattern, routes, maxBoundRoutes)
		}
		var err error
		for s := range nodes {
			spec.Spread(geo, params, s, func(d int, share float64) {
				if err == nil {
					err = add(s, d, offered*share)
				}
			})
		}
		if err != nil {
			return nil, "no channel-load bound: " + err.Error()
		}
		return cl, ""
	}
	pat := spec.New(geo, params)
	rng := rand.New(rand.NewPCG(1, 2)) // a permutation draws nothing
	for s := range nodes {
		d := pat.Dest(s, rng)
		if d == s && self == traffic.SelfRedraw {
			return nil, "no channel-load bound: self = \"redraw\" sends a permutation's fixed points at random"
		}
		if err := add(s, d, offered); err != nil {
			return nil, "no channel-load bound: " + err.Error()
		}
	}
	return cl, ""
}

// traceRoute calls use for every router output channel (router, port) a
// packet from src to dst takes, the ejection channel included, following
// rf's single candidate port at every hop; an error where rf offers more
// than one (an adaptive or randomised routing). The packet takes the
// lowest of the VCs offered: the deterministic routings offer the VCs of
// one class at a hop, whose next hops agree.
func traceRoute(topo topology.Topology, rf routing.Func, src, dst int, use func(r, p int)) error {
	f := link.Flit{Src: int32(src), Dst: int32(dst), Size: 1}
	if inj, ok := rf.(routing.Injector); ok {
		f.Route = inj.InjectRoute(src, dst)
	}
	vcs := rf.InjectVCs(src, dst)
	if vcs == 0 {
		return fmt.Errorf("routing %T offers no injection VC from node %d to %d", rf, src, dst)
	}
	f.VC = uint8(bits.TrailingZeros64(vcs))
	upd, _ := rf.(routing.RouteUpdater)
	r, in := topo.NodePort(src)
	for hop := 0; hop <= 4*topo.Routers()+8; hop++ {
		var c routing.Candidates
		rf.Route(r, in, &f, &c)
		if c.N == 0 || bits.OnesCount64(c.Ports()) != 1 {
			return fmt.Errorf("the routing offers %d ports at router %s: traced for deterministic routings only", bits.OnesCount64(c.Ports()), topo.RouterName(r))
		}
		p := bits.TrailingZeros64(c.G[0].Ports)
		f.VC = uint8(bits.TrailingZeros64(c.G[0].VCs))
		if upd != nil {
			upd.Update(r, p, &f)
		}
		use(r, p)
		peer := topo.Peer(r, p)
		if peer.Node >= 0 {
			if peer.Node != dst {
				return fmt.Errorf("the route from node %d to %d ends at node %d", src, dst, peer.Node)
			}
			return nil
		}
		if peer.Router < 0 {
			return fmt.Errorf("the route from node %d to %d leaves by an open port of %s", src, dst, topo.RouterName(r))
		}
		if f.Hops < 255 {
			f.Hops++
		}
		r, in = peer.Router, peer.Port
	}
	return fmt.Errorf("the route from node %d to %d does not end", src, dst)
}

// flowObserver gives a run its per-flow statistics: the destinations'
// collectors count measured packets by source (report.Collector.CountFlows,
// set up before the run), and the result lists every pair that received
// any (flow_stats) or every listed pair (flows), over the window.
type flowObserver struct {
	b     *Built
	pairs [][2]int // nil: every pair
}

// newFlowObserver starts the counting on b's collectors.
func newFlowObserver(b *Built) *flowObserver {
	o := &flowObserver{b: b}
	nodes := len(b.Collectors)
	if b.Cfg.Measure.FlowStats {
		for _, c := range b.Collectors {
			c.CountFlows(nodes, nil)
		}
		return o
	}
	o.pairs, _ = b.Cfg.Measure.FlowPairs() // validated
	srcs := make([][]int, nodes)
	for _, p := range o.pairs {
		srcs[p[1]] = append(srcs[p[1]], p[0])
	}
	for d, s := range srcs {
		if s != nil {
			b.Collectors[d].CountFlows(nodes, s)
		}
	}
	return o
}

func (o *flowObserver) begin(clock.Cycle)               {}
func (o *flowObserver) check(clock.Cycle) error         { return nil }
func (o *flowObserver) sample(*report.Sample, float64)  {}
func (o *flowObserver) opened()                         {}
func (o *flowObserver) closed(clock.Cycle, clock.Cycle) {}
func (o *flowObserver) result(_ *run, _ clock.Cycle, res *report.Result) {
	cycles := float64(res.MeasureToCycle - res.MeasureFromCycle)
	flow := func(s, d int) (report.Flow, bool) {
		fc, ok := o.b.Collectors[d].FlowFrom(s)
		if !ok {
			return report.Flow{}, false
		}
		return report.Flow{Src: s, Dst: d, Packets: fc.Packets, Flits: fc.Flits, FlitsPerCycle: report.Ratio(float64(fc.Flits), cycles),
			LatencyMeanCycles: report.Ratio(float64(fc.LatencySum), float64(fc.Packets)), LatencyMaxCycles: fc.LatencyMax}, true
	}
	if o.pairs != nil {
		for _, p := range o.pairs {
			if f, ok := flow(p[0], p[1]); ok {
				res.Flows = append(res.Flows, f)
			}
		}
		return
	}
	for s := range o.b.Collectors {
		for d := range o.b.Collectors {
			if f, ok := flow(s, d); ok && f.Packets > 0 {
				res.Flows = append(res.Flows, f)
			}
		}
	}
}
