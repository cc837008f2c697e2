package entropy

import (
	"context"
	"fmt"
	"math/bits"

	"github.com/icnsim/icnsim/clock"
	"github.com/icnsim/icnsim/fabric"
	"github.com/icnsim/icnsim/link"
	"github.com/icnsim/icnsim/policies"
	"github.com/icnsim/icnsim/topology"
)

// Counts is a pair of buffer counts: valid (N_v, buffers holding at least
// one flit) and active (N_a, buffers whose front flit moved on this cycle).
// It is the value every register of the entropy circuit holds and every
// circuit lane carries.
type Counts struct {
	Valid, Active int32
}

func (c Counts) add(d Counts) Counts { return Counts{c.Valid + d.Valid, c.Active + d.Active} }

// CircuitShape says how the reduce-and-broadcast is laid over the routers.
type CircuitShape uint8

const (
	// ShapeGrid is the entropy papers' circuit on a 2D torus or mesh (Fig. 1
	// of the extended paper, Fig. 3 of the original): rows reduce to the
	// centre column and broadcast the row sum back out along the row; then
	// every column reduces the row sums to its centre row and broadcasts the
	// total back out along the column. Only mesh links are used, never a
	// torus wrap-around link, so the circuit has no ring.
	ShapeGrid CircuitShape = iota
	// ShapeTree reduces over a breadth-first spanning tree of the routers,
	// rooted at a router of least eccentricity, to the root, and broadcasts
	// the total back down the same tree. It runs on any topology (fat-trees).
	ShapeTree
)

func (s CircuitShape) String() string {
	if s == ShapeTree {
		return "tree"
	}
	return "grid"
}

// CircuitConfig configures the entropy measurement circuit.
type CircuitConfig struct {
	Shape CircuitShape
	// Mode is how circuit lanes share the links: link.Dedicated (a value
	// crosses every cycle) or link.Steal (only in cycles in which the link
	// carried no flit in the same direction).
	Mode link.Mode
	// LatencyCycles is the latency of one register hop between neighbouring
	// routers (>= 1) over a link of the network's link latency; a hop over
	// a longer link (a dragonfly's global links) takes the link's extra
	// cycles more.
	LatencyCycles int
	// CountInjection counts the buffers of the injection ports (from the
	// NIs) in N_v and N_a; by default only the buffers of router-to-router
	// input ports count, as in the original paper (4 ports x 3 VCs = 12
	// buffers per router of a 2D torus).
	CountInjection bool
}

// uniformHop is the latency of a register hop on links all alike (where
// only the circuit's shape and size matter).
func (cfg CircuitConfig) uniformHop(int, int) int { return cfg.LatencyCycles }

// regDef defines one register: the sum of the router's own observation (if
// obs), of registers of the same router computed earlier in the cycle
// (bits of own) and of the latest values received on input lanes (bits of in).
type regDef struct {
	obs bool
	own uint8
	in  uint32
}

type outLane struct {
	lane *link.Control[Counts]
	reg  uint8
	last Counts // the value the receiver holds (last sent; zero at start)
}

// Circuit is one router's part of the entropy measurement circuit: its
// registers, the latest value received on each of its input lanes, and its
// output lanes. It implements fabric.ControlPlane; every cycle (Step) it
// takes the router's observation as its profile register, recomputes its
// other registers in order from its own registers and the latest values its
// neighbours sent, sends each output register to its neighbour, and sends
// its readout register (the network-wide total as far as it has arrived) to
// the router's network interfaces.
type Circuit struct {
	name     string
	defs     []regDef
	regs     [5]Counts
	in       []*link.Control[Counts]
	latest   []Counts
	out      []outLane
	readout  int
	nis      []*link.Lane[Counts]
	niLast   Counts // the readout the NIs hold
	pending  bool   // some output differs from what its receiver holds
	countInj bool
	delay    int // analytical cycles for a step change to reach the readout
	// Sent and Withheld count the register values this router put on its
	// lanes and those a steal-mode lane held back because the link carried
	// a flit in that cycle.
	Sent, Withheld uint64
}

// Step advances the circuit by one cycle (fabric.ControlPlane).
//
// Receivers latch the latest value a lane delivered, so a register value
// equal to the one its receiver already holds is not sent again: that
// changes nothing the receiver sees, in either lane mode, and lets a quiet
// circuit cost almost nothing. Likewise the registers are recomputed only
// when the profile or a received value changed.
func (c *Circuit) Step(now clock.Cycle, obs fabric.Observation) {
	changed := false
	for i, l := range c.in {
		if v := l.Recv(now); v != nil && *v != c.latest[i] {
			c.latest[i] = *v
			changed = true
		}
	}
	profile := Counts{Valid: int32(obs.Valid), Active: int32(obs.Active)}
	if !c.countInj {
		profile.Valid -= int32(obs.ValidInj)
		profile.Active -= int32(obs.ActiveInj)
	}
	if profile != c.regs[0] {
		changed = true
	}
	if !changed && !c.pending {
		return
	}
	if changed {
		for r, d := range c.defs {
			var s Counts
			if d.obs {
				s = profile
			}
			for m := d.own; m != 0; m &= m - 1 {
				s = s.add(c.regs[trailing(uint32(m))])
			}
			for m := d.in; m != 0; m &= m - 1 {
				s = s.add(c.latest[trailing(m)])
			}
			c.regs[r] = s
		}
	}
	c.pending = false
	for i := range c.out {
		o := &c.out[i]
		v := c.regs[o.reg]
		if v == o.last {
			continue
		}
		if o.lane.TrySend(now, v) {
			o.last = v
			c.Sent++
		} else {
			c.Withheld++
			c.pending = true
		}
	}
	if v := c.regs[c.readout]; v != c.niLast {
		c.niLast = v
		for _, l := range c.nis {
			l.Send(now, v)
		}
	}
}

func trailing(m uint32) int { return bits.TrailingZeros32(m) }

// Readout is the network-wide (N_v, N_a) as this router read it at the end of
// its last cycle. Read it only while the router is paused.
func (c *Circuit) Readout() Counts { return c.regs[c.readout] }

// Profile is the router's own (N_v, N_a) of its last cycle.
func (c *Circuit) Profile() Counts { return c.regs[0] }

// DelayCycles is the analytical number of cycles, with dedicated lanes,
// from a step change of every router's observation to the cycle from which
// this router's readout holds the new total (the reduction and broadcast
// distances times the lane latency).
func (c *Circuit) DelayCycles() int { return c.delay }

// Name names the circuit after its router.
func (c *Circuit) Name() string { return c.name }

// Circuits is a built entropy circuit: one Circuit per router, and one lane
// from each router to each of its network interfaces carrying the readout.
type Circuits struct {
	Routers []*Circuit
	// ToNode[i] is the lane on which node i's router sends the readout.
	ToNode []*link.Lane[Counts]
	lanes  []link.Control[Counts]
	wires  []link.Wire // wires[i]: the data wire lanes[i] runs beside
}

// WorstDelayCycles is the largest DelayCycles over all routers: the
// circuit's analytical worst case.
func (cs *Circuits) WorstDelayCycles() int {
	w := 0
	for _, c := range cs.Routers {
		w = max(w, c.delay)
	}
	return w
}

// BuildCircuit lays an entropy circuit over a built network and installs
// each router's part as its control plane. The grid shape needs a 2D torus
// or mesh.
func BuildCircuit(ctx context.Context, net policies.Host, cfg CircuitConfig) (*Circuits, error) {
	t := net.Topology()
	nr := t.Routers()
	delay := make([]int, nr)
	hop := func(r, p int) int {
		if w, ok := net.OutWire(r, p); ok {
			return cfg.LatencyCycles + w.ExtraCycles()
		}
		return cfg.LatencyCycles
	}
	edges, defs, readout, err := layCircuit(ctx, t, cfg, delay, hop)
	if err != nil {
		return nil, err
	}
	cs := &Circuits{Routers: make([]*Circuit, nr), lanes: make([]link.Control[Counts], len(edges)), wires: make([]link.Wire, len(edges))}
	circ := make([]Circuit, nr)
	for r := range circ {
		circ[r] = Circuit{name: t.RouterName(r) + " circuit", defs: defs[r], readout: readout, countInj: cfg.CountInjection,
			delay: delay[r]}
		cs.Routers[r] = &circ[r]
	}
	for i, e := range edges {
		l := &cs.lanes[i]
		wire, ok := net.OutWire(e.from, e.port)
		if !ok {
			return nil, fmt.Errorf("circuit edge %s port %d has no link", t.RouterName(e.from), e.port)
		}
		cs.wires[i] = wire
		var data interface{ SentAt(clock.Cycle) bool }
		if cfg.Mode == link.Steal {
			data = wire
		}
		l.InitControl(t.PortName(e.from, e.port)+" (entropy)", hop(e.from, e.port), cfg.Mode, data)
		from, to := &circ[e.from], &circ[e.to]
		from.out = append(from.out, outLane{lane: l, reg: e.reg})
		if e.slot != len(to.in) {
			return nil, fmt.Errorf("internal: circuit input slot %d of %s out of order", e.slot, to.name)
		}
		to.in = append(to.in, l)
		to.latest = append(to.latest, Counts{})
	}
	cs.ToNode = make([]*link.Lane[Counts], t.Nodes())
	for i := range cs.ToNode {
		r, _ := t.NodePort(i)
		l := link.NewLane[Counts](fmt.Sprintf("%s -> %s (entropy readout)", t.RouterName(r), t.NodeName(i)), 1)
		cs.ToNode[i] = l
		circ[r].nis = append(circ[r].nis, l)
	}
	for r, c := range cs.Routers {
		policies.AddControlPlane(net, r, c)
	}
	return cs, nil
}

// layCircuit lays the circuit of cfg's shape over t: its directed
// router-to-router links, each router's register definitions and the
// readout register; delay[r] receives router r's analytical delay in
// cycles, hop(r, p) being the latency of a register hop out of port p of
// router r.
func layCircuit(ctx context.Context, t topology.Topology, cfg CircuitConfig, delay []int, hop func(r, p int) int) ([]circuitEdge, [][]regDef, int, error) {
	if cfg.LatencyCycles < 1 {
		return nil, nil, 0, fmt.Errorf("circuit latency %d cycles < 1", cfg.LatencyCycles)
	}
	switch cfg.Shape {
	case ShapeGrid:
		g, ok := t.(topology.Plane)
		if !ok {
			return nil, nil, 0, fmt.Errorf("the grid entropy circuit needs a 2D torus or mesh, not a %s (use the tree circuit)", t)
		}
		edges, defs, readout := gridCircuit(g, delay)
		for r := range delay { // a grid's links are alike
			delay[r] *= cfg.LatencyCycles
		}
		return edges, defs, readout, nil
	case ShapeTree:
		return treeCircuit(ctx, t, delay, hop)
	}
	return nil, nil, 0, fmt.Errorf("unknown circuit shape %d", cfg.Shape)
}

// circuitEdge is a directed circuit link: router from sends register reg
// through its port to router to, where it is input slot.
type circuitEdge struct {
	from, port, to, slot int
	reg                  uint8
}

// Grid registers.
const (
	gProfile = iota
	gRowReduce
	gRowBroadcast
	gColReduce
	gColBroadcast
)

// gridCircuit builds the five-register circuit of a k x k grid. delay[r]
// receives the per-router analytical delay in hops.
func gridCircuit(g topology.Plane, delay []int) ([]circuitEdge, [][]regDef, int) {
	k := g.Side()
	c := k / 2 // centre column and centre row
	far := max(c, k-1-c)
	nr := g.Routers()
	defs := make([][]regDef, nr)
	slots := make([]int, nr)
	var edges []circuitEdge
	// link adds an edge from router a to its neighbour b through port p,
	// carrying register reg of a; it returns the input bit at b.
	link1 := func(a, p, b int, reg uint8) uint32 {
		s := slots[b]
		slots[b]++
		edges = append(edges, circuitEdge{from: a, port: p, to: b, slot: s, reg: reg})
		return 1 << s
	}
	for r := range defs {
		defs[r] = make([]regDef, 5)
		defs[r][gProfile] = regDef{obs: true}
	}
	// Edges are added per receiving router in a fixed order, so that slot
	// numbers follow the order of the edges list per receiver.
	for r := 0; r < nr; r++ {
		x, y := g.XY(r)
		d := defs[r]
		d[gRowReduce].own = 1 << gProfile
		d[gColReduce].own = 1 << gRowBroadcast
		// Row reduction: inputs from the neighbours farther from the centre column.
		if x > 0 && x-1 < c {
			d[gRowReduce].in |= link1(g.Router(x-1, y), topology.PlaneXPlus, r, gRowReduce)
		}
		if x+1 < k && x+1 > c {
			d[gRowReduce].in |= link1(g.Router(x+1, y), topology.PlaneXMinus, r, gRowReduce)
		}
		// Row broadcast: from the neighbour nearer the centre column.
		switch {
		case x == c:
			d[gRowBroadcast].own = 1 << gRowReduce
		case x < c:
			d[gRowBroadcast].in = link1(g.Router(x+1, y), topology.PlaneXMinus, r, gRowBroadcast)
		default:
			d[gRowBroadcast].in = link1(g.Router(x-1, y), topology.PlaneXPlus, r, gRowBroadcast)
		}
		// Column reduction of the row sums, in every column.
		if y > 0 && y-1 < c {
			d[gColReduce].in |= link1(g.Router(x, y-1), topology.PlaneYPlus, r, gColReduce)
		}
		if y+1 < k && y+1 > c {
			d[gColReduce].in |= link1(g.Router(x, y+1), topology.PlaneYMinus, r, gColReduce)
		}
		switch {
		case y == c:
			d[gColBroadcast].own = 1 << gColReduce
		case y < c:
			d[gColBroadcast].in = link1(g.Router(x, y+1), topology.PlaneYMinus, r, gColBroadcast)
		default:
			d[gColBroadcast].in = link1(g.Router(x, y-1), topology.PlaneYPlus, r, gColBroadcast)
		}
		delay[r] = far + abs(x-c) + far + abs(y-c)
	}
	return edges, defs, gColBroadcast
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// eccentricityRepresentatives is implemented by topologies whose routers
// 0..n-1 include, for every router, one of the same eccentricity at an
// index no higher (hyperx.HyperX: every router alike; a palmtree dragonfly:
// group 0, by the rotation of the groups).
type eccentricityRepresentatives interface{ EccentricityRepresentatives() int }

// leastEccentric is the router of least eccentricity in hops, the lowest
// on a tie: a breadth-first search from every router (or every
// representative), checking ctx between searches. Its cost grows as the
// routers squared on a topology without representatives (a file's).
func leastEccentric(ctx context.Context, t topology.Topology) (int, error) {
	nr := t.Routers()
	n := nr
	if reps, ok := t.(eccentricityRepresentatives); ok {
		n = reps.EccentricityRepresentatives()
	}
	depth := make([]int, nr)
	root, best := -1, nr+1
	for r := 0; r < n; r++ {
		if err := ctx.Err(); err != nil {
			return -1, err
		}
		ecc, reached := hopEccentricity(t, r, depth)
		if reached != nr {
			return -1, fmt.Errorf("the routers of the %s are not connected", t)
		}
		if ecc < best {
			root, best = r, ecc
		}
	}
	return root, nil
}

// Tree registers.
const (
	tProfile = iota
	tReduce
	tBroadcast
)

// treeCircuit builds a reduce-and-broadcast over a spanning tree of the
// router graph: rooted at the router of least eccentricity in hops (lowest
// index on a tie: leastEccentric), along the quickest paths from it
// (topology.ShortestPathTree: the breadth-first tree in port order where links are
// alike; on a dragonfly it enters each group by as few global links as it
// can). A router's delay is the longest reduction path to the root plus
// its own broadcast path, in cycles (hop).
func treeCircuit(ctx context.Context, t topology.Topology, delay []int, hop func(r, p int) int) ([]circuitEdge, [][]regDef, int, error) {
	nr := t.Routers()
	root, err := leastEccentric(ctx, t)
	if err != nil {
		return nil, nil, 0, err
	}
	parent, parentPort, down, order := topology.ShortestPathTree(t, root, hop)
	// Cycles from r up to the root (order has every parent before its
	// children); down[r] is the way back.
	up := make([]int, nr)
	worstUp := 0
	for _, r := range order[1:] {
		p := parent[r]
		up[r] = up[p] + hop(r, t.Peer(p, parentPort[r]).Port)
		worstUp = max(worstUp, up[r])
	}
	defs := make([][]regDef, nr)
	slots := make([]int, nr)
	var edges []circuitEdge
	for r := range defs {
		defs[r] = []regDef{{obs: true}, {own: 1 << tProfile}, {}}
		delay[r] = worstUp + down[r]
	}
	defs[root][tBroadcast].own = 1 << tReduce
	// Per receiver, in a fixed order: children's reductions (BFS order),
	// then the parent's broadcast.
	for _, r := range order[1:] {
		p := parent[r]
		upPort := t.Peer(p, parentPort[r]).Port // the port of r that leads to p
		s := slots[p]
		slots[p]++
		edges = append(edges, circuitEdge{from: r, port: upPort, to: p, slot: s, reg: tReduce})
		defs[p][tReduce].in |= 1 << s
	}
	for _, r := range order[1:] {
		p := parent[r]
		s := slots[r]
		slots[r]++
		edges = append(edges, circuitEdge{from: p, port: parentPort[r], to: r, slot: s, reg: tBroadcast})
		defs[r][tBroadcast].in = 1 << s
	}
	for r := range slots {
		if slots[r] > 32 {
			return nil, nil, 0, fmt.Errorf("%s has %d circuit inputs (at most 32)", t.RouterName(r), slots[r])
		}
	}
	return edges, defs, tBroadcast, nil
}

// hopEccentricity is the most router hops from root to any router, by a
// breadth-first search in scratch (one entry per router), and the number
// of routers reached.
func hopEccentricity(t topology.Topology, root int, scratch []int) (ecc, reached int) {
	for i := range scratch {
		scratch[i] = -1
	}
	scratch[root] = 0
	queue := []int{root}
	for q := 0; q < len(queue); q++ {
		a := queue[q]
		for p := 0; p < t.Ports(a); p++ {
			peer := t.Peer(a, p)
			if peer.Router < 0 || scratch[peer.Router] >= 0 {
				continue
			}
			scratch[peer.Router] = scratch[a] + 1
			queue = append(queue, peer.Router)
		}
	}
	return scratch[queue[len(queue)-1]], len(queue)
}
