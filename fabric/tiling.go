package fabric

import (
	"fmt"

	"github.com/icnsim/icnsim/actor"
	"github.com/icnsim/icnsim/topology"
)

// Temporal blocking (actor.Schedule) on a network.
//
// The lane graph of a network is its topology: every data and credit lane
// joins the two ends of a link, or a router and one of its own NIs, and
// every control lane (entropy circuits, SAT lanes, RECN notifications,
// Hybrid-HAR's loopback ports) runs beside a data lane of a link or
// between a router and its NI. laneGraph builds it from the topology, and
// actor.NewSchedule checks every plan against it. A mechanism that adds a
// lane between routers that are not neighbours must add it to laneGraph,
// or blocked runs would differ from serial ones (sameDigestEverywhere in
// study's tests and TestShippedStudiesDraw in runner's compare them).
//
// A topology family that has a plan implements Tiler (topology/grid:
// skewed space-time tiles; topology/fattree: split tiling). On a torus or
// mesh the plan is skewed space-time tiling.
// Along one dimension of K routers cut into tiles of about side routers
// at b_0 = 0 < b_1 < ... < b_n = K, tile i ticks at relative cycle s the
// routers [b_i - s, b_{i+1} - s): each step leans one router towards the
// tiles already run, so a router's neighbours' previous step is in the
// same tile or an earlier one. On a torus the first tile is a pyramid
// [s, b_1 - s) and the routers left over around the wrap-around,
// [K - s, K + s) mod K, are a last tile (a valley); on a mesh the first
// tile is [0, b_1 - s) and the last [b_{n-1} - s, K). A 2D tile is the
// product of an x-tile and a y-tile. Run in row order (y outer), a tile
// finds most of what it needs in cache: the routers it shares with the
// tile to its west were just ticked, only the strip it shares with the
// row of tiles below comes from memory. With W workers the columns are
// cut into W bands, each with a pyramid at its start and a valley at its
// end; worker w runs band w and then its valley, so the workers wait for
// one another only before the valleys (anti-diagonal order over the
// tiles, with workers claiming tiles in turn, measured 6.43 M against
// 6.27 M for the bands on the 256x256 torus with 2 workers, but waits at
// every diagonal and would not keep a worker to one region of memory on
// more cores).
//
// Measured on the 2-vCPU development machine (1 MiB L2 per core, 32 MiB
// L3 shared), 256x256 torus at 0.02 flits/node/cycle, router-cycles/s:
// without blocking 1.68 M serial, 3.04 M with 2 workers (the 32x32 torus
// at the same load per channel: 4.64 M and 9.84 M). In blocks, serial,
// steps x side: 8 x 32 2.85 M, 16 x 48 3.09 M, 8 x 16 3.20 M, 16 x 32
// 3.55 M, 24 x 48 3.53 M, 20 x 40 3.86 M, 28 x 56 3.79 M, 32 x 64 1.65 M
// (a 64 x 64 tile, 20 MB, no longer stays in the cache); 2 workers in
// bands: 20 x 40 6.27 M, 16 x 40 6.19 M, 16 x 32 5.90 M, 20 x 48 5.30 M,
// 24 x 48 4.68 M (two tiles at once must fit). In cachegrind with an 8
// MiB last level (the share of the L3 the speed cliff points to), a
// router-cycle of the 128x128 torus misses the last level 30 times
// without blocking and the 32x32's 0.01 times; see the closing figures in
// the README's Large networks section.

// Tiler is implemented by topology families with a temporal-blocking plan.
// Tiles is the plan of blocks of at most steps cycles over a network whose
// router r's actors are first[r] .. first[r+1]-1 (the router, then the
// nodes attached to it: First), with tiles of about side routers where
// the family has tiles, cut for parts workers. Dragonflies and HyperX have
// none: their routers reach across the network in two or a few hops, and
// UGAL-G's group board (routing.GroupBoard) holds a single cycle, which
// routers run cycles apart would break.
type Tiler interface {
	Tiles(first []int, steps, side, parts int) (actor.Plan, error)
}

// LinkLeads is a fabric whose links may let their two ends run cycles
// apart (actor.Graph.Lead): the function LinkLeads returns, as the
// network is now (its policies installed), gives how many cycles either
// end of router r's link at port p may tick ahead of the other, at least
// 1. A link of latency L whose wires' rings have S slots allows
// min(L, S-L); a network with control lanes, whose latencies the fabric
// does not know, allows 1 on every link.
type LinkLeads interface {
	LinkLeads() func(r, p int) int
}

// Tileable reports whether Tiling can cut topology t (t is a Tiler).
func Tileable(t topology.Topology) bool {
	_, ok := t.(Tiler)
	return ok
}

// Tiling returns the temporal-blocking schedule of fabric f, whose
// actors are laid out as every router kind lays them out (each router
// followed by the nodes attached to it, in increasing order): its
// topology's plan (Tiler) with blocks of at most steps cycles, tiles of
// about side routers, for parts workers, checked against the lane graph.
// It refuses a fabric laid out otherwise and a topology with no plan.
func Tiling(f Fabric, steps, side, parts int) (*actor.Schedule, error) {
	t := f.Topology()
	if acts, _ := f.Actors(); len(acts) != t.Routers()+t.Nodes() {
		return nil, fmt.Errorf("tiling: %d actors for %d routers and %d nodes", len(acts), t.Routers(), t.Nodes())
	}
	tl, ok := t.(Tiler)
	if !ok {
		return nil, fmt.Errorf("tiling: a %s has no temporal-blocking plan", t)
	}
	plan, err := tl.Tiles(First(t), steps, side, parts)
	if err != nil {
		return nil, err
	}
	return scheduleOf(t, plan, leadsOf(f))
}

// Schedule checks plan, over the actors of topology t laid out as Tiling
// says, against their lane graph (every link of lead 1), and assigns its
// pieces to workers where it is cut for several.
func Schedule(t topology.Topology, plan actor.Plan) (*actor.Schedule, error) {
	return scheduleOf(t, plan, nil)
}

// scheduleOf is Schedule over the links' leads (nil: 1 for every link).
func scheduleOf(t topology.Topology, plan actor.Plan, lead func(r, p int) int) (*actor.Schedule, error) {
	ref := actorRefs(t)
	sc, err := actor.NewSchedule(len(ref), plan.Steps, plan.Pieces, laneGraph(t, ref, lead))
	if err != nil || plan.Worker == nil {
		return sc, err
	}
	return sc, sc.Assign(plan.Workers, plan.Worker)
}

// leadsOf is the lead function of f's links (LinkLeads), nil where f has none.
func leadsOf(f Fabric) func(r, p int) int {
	if l, ok := f.(LinkLeads); ok {
		return l.LinkLeads()
	}
	return nil
}

// LeadTileable reports whether LeadTiling can cut fabric f: whether some
// link of it lets its ends run at least two cycles apart.
func LeadTileable(f Fabric) bool {
	_, err := leadPlan(f, 2, 1)
	return err == nil
}

// LeadTiling returns the temporal-blocking schedule of fabric f that its
// long links allow, with no tiles: blocks of B cycles, B the largest up to
// steps for which the links of lead below B leave the routers in more
// than one connected piece (each router with its nodes); each piece runs
// its B cycles on its own, all of them in one cache, and needs nothing of
// any other piece within the block (every link between two pieces has a
// lead of at least B). On a dragonfly whose global links are longer than
// its local ones the pieces are its groups: with 10-cycle global links and
// 1-cycle local ones, 33 groups of 8 routers and 32 nodes run 6 cycles
// each in turn (a 10-cycle link's rings have 16 slots: a lead of 6); with
// 10-cycle local links too, each router with its nodes. The pieces are
// cut into parts runs of about equal actors for parts workers. It refuses
// a fabric none of whose links allows two cycles.
func LeadTiling(f Fabric, steps, parts int) (*actor.Schedule, error) {
	plan, err := leadPlan(f, steps, parts)
	if err != nil {
		return nil, err
	}
	return scheduleOf(f.Topology(), plan, leadsOf(f))
}

// leadPlan is LeadTiling's plan.
func leadPlan(f Fabric, steps, parts int) (actor.Plan, error) {
	t := f.Topology()
	lead := leadsOf(f)
	if lead == nil {
		return actor.Plan{}, fmt.Errorf("tiling: the links of this %s network cannot run cycles apart", t)
	}
	nr := t.Routers()
	most := 1
	for r := range nr {
		for p := range t.Ports(r) {
			if peer := t.Peer(r, p); peer.Router >= 0 && peer.Router != r {
				most = max(most, lead(r, p))
			}
		}
	}
	parent := make([]int32, nr)
	find := func(x int32) int32 {
		for parent[x] != x {
			parent[x] = parent[parent[x]]
			x = parent[x]
		}
		return x
	}
	for B := min(steps, most); B >= 2; B-- {
		// The pieces of blocks of B cycles: routers joined by links of a
		// lead below B tick in step, so they are in one piece.
		for r := range parent {
			parent[r] = int32(r)
		}
		pieces := nr
		for r := range nr {
			for p := range t.Ports(r) {
				if peer := t.Peer(r, p); peer.Router >= 0 && lead(r, p) < B {
					if a, b := find(int32(r)), find(int32(peer.Router)); a != b {
						parent[max(a, b)] = min(a, b)
						pieces--
					}
				}
			}
		}
		if pieces < 2 {
			continue
		}
		return leadPieces(t, find, B, parts), nil
	}
	return actor.Plan{}, fmt.Errorf("tiling: no link of this %s is long enough for its two ends to run two cycles apart", t)
}

// leadPieces lays out the plan of pieces of routers with the same root
// (find), each ticking its routers and their nodes at every one of steps
// steps, in the order of their first routers, cut into parts runs.
func leadPieces(t topology.Topology, find func(int32) int32, steps, parts int) actor.Plan {
	first := First(t)
	index := make(map[int32]int)
	var ranges []actor.PieceStep
	for r := range t.Routers() {
		root := find(int32(r))
		i, ok := index[root]
		if !ok {
			i = len(ranges)
			index[root] = i
			ranges = append(ranges, nil)
		}
		span := [2]int{first[r], first[r+1]}
		if m := len(ranges[i]); m > 0 && ranges[i][m-1][1] == span[0] {
			ranges[i][m-1][1] = span[1]
		} else {
			ranges[i] = append(ranges[i], span)
		}
	}
	plan := actor.Plan{Steps: steps, Pieces: make([][]actor.PieceStep, len(ranges))}
	for i, rs := range ranges {
		plan.Pieces[i] = make([]actor.PieceStep, steps)
		for s := range steps {
			plan.Pieces[i][s] = rs
		}
	}
	if parts > 1 {
		// Runs of pieces of about equal actors, in order.
		total := first[t.Routers()]
		plan.Workers, plan.Worker = parts, make([]int, len(ranges))
		done := 0
		for i, rs := range ranges {
			plan.Worker[i] = min(parts-1, done*parts/total)
			for _, r := range rs {
				done += r[1] - r[0]
			}
		}
	}
	return plan
}

// First is, for each router r of t, the index of its actor first[r] (its
// nodes' actors follow it, to first[r+1]); first[t.Routers()] is the
// number of actors.
func First(t topology.Topology) []int { return firstActors(t, actorRefs(t)) }

// actorRefs lays out the actors of topology t as the networks do: each
// router (ref >= 0) followed by the nodes attached to it (node i as
// -i-1), in increasing order.
func actorRefs(t topology.Topology) []int32 {
	attached := make([][]int32, t.Routers())
	for i := 0; i < t.Nodes(); i++ {
		r, _ := t.NodePort(i)
		attached[r] = append(attached[r], int32(-i-1))
	}
	ref := make([]int32, 0, t.Routers()+t.Nodes())
	for r := range attached {
		ref = append(append(ref, int32(r)), attached[r]...)
	}
	return ref
}

// firstActors inverts ref: first[r] is the index of router r's actor, and,
// since each router's nodes follow it, first[r+1] ends them (first[nr] is
// the number of actors).
func firstActors(t topology.Topology, ref []int32) []int {
	first := make([]int, t.Routers()+1)
	for i, x := range ref {
		if x >= 0 {
			first[x] = i
		}
	}
	first[t.Routers()] = len(ref)
	return first
}

// laneGraph is the lane graph of a topology whose actors are each router
// followed by its nodes: ref[i] >= 0 is router ref[i], ref[i] < 0 node
// -ref[i]-1. With lead, a link between routers has the lead it gives
// (actor.Graph.Lead); a node's link has 1.
func laneGraph(t topology.Topology, ref []int32, lead func(r, p int) int) actor.Graph {
	first := firstActors(t, ref)
	nAt := make([]int32, t.Nodes())
	for i, x := range ref {
		if x < 0 {
			nAt[-x-1] = int32(i)
		}
	}
	g := actor.Graph{Off: make([]int32, 1, len(ref)+1)}
	add := func(u int32, l int) {
		g.Adj = append(g.Adj, u)
		if lead != nil {
			g.Lead = append(g.Lead, int32(l))
		}
	}
	for _, x := range ref {
		if x < 0 {
			r, _ := t.NodePort(int(-x - 1))
			add(int32(first[r]), 1)
		} else {
			r := int(x)
			for p := 0; p < t.Ports(r); p++ {
				peer := t.Peer(r, p)
				switch {
				case peer.Node >= 0:
					add(nAt[peer.Node], 1)
				case peer.Router >= 0 && peer.Router != r:
					l := 1
					if lead != nil {
						l = lead(r, p)
					}
					add(int32(first[peer.Router]), l)
				}
			}
		}
		g.Off = append(g.Off, int32(len(g.Adj)))
	}
	return g
}
