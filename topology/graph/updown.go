package graph

import (
	"cmp"
	"context"
	"slices"

	"github.com/icnsim/icnsim/link"
	"github.com/icnsim/icnsim/routing"
	"github.com/icnsim/icnsim/topology"
)

// UpDown is the up*/down* orientation of a graph's links (Schroeder et
// al., Autonet): routers are ranked by their hop distance from a root,
// ties by router number, and every link leads "up" towards the lower rank
// and "down" the other way. A legal route takes zero or more up links and
// then zero or more down links, never up after down; no cycle of channels
// can then wait on itself, so routing by legal routes is deadlock free
// with one VC on any connected graph.
//
// The root is the file's "root R" line, or else the graph's centre: the
// router with nodes or links whose farthest router is nearest (ties: the
// lowest number), which keeps legal routes short. For every router with
// nodes, the tables hold each router's shortest legal distance to it (U)
// and its shortest distance down only (D), four bytes each (upDownBytes:
// 8 x routers x routers with nodes bytes in all, and a byte per port).
// They are computed once, uninterrupted, when the routing is made: the
// centre takes a search from every router, the tables two per router
// with nodes (the build estimate, upDownBuildSeconds, counts both).
type UpDown struct {
	g    *Graph
	Root int
	up   []bool  // per flat port: its link leads up
	u, d []int32 // u[k*R+r], d[k*R+r]: router r's distances to destination k
}

// unreachable is a distance with no legal route (none on a connected
// graph: any router goes up to the root and down from it).
const unreachable = 1 << 30

// UpDown is the graph's up*/down* tables, computed once.
func (g *Graph) UpDown() *UpDown {
	g.updownMu.Lock()
	defer g.updownMu.Unlock()
	if g.updown == nil {
		g.updown = newUpDown(g)
	}
	return g.updown
}

func newUpDown(g *Graph) *UpDown {
	R := len(g.dest)
	root := g.Root
	if root < 0 {
		root = g.centre()
	}
	level, _ := g.distancesTo(context.Background(), root, nil)
	below := func(a, b int) bool { // a ranks below b (farther from the root)
		return cmp.Or(cmp.Compare(level[a], level[b]), cmp.Compare(a, b)) > 0
	}
	ud := &UpDown{g: g, Root: root, up: make([]bool, len(g.to))}
	for r := range R {
		for i := g.first[r]; i < g.first[r+1]; i++ {
			if w := g.to[i]; w >= 0 {
				ud.up[i] = below(r, int(w))
			}
		}
	}
	order := make([]int, R) // the root first, each router after every router above it
	for r := range order {
		order[r] = r
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Or(cmp.Compare(level[a], level[b]), cmp.Compare(a, b)) })
	D := len(g.dests)
	ud.u, ud.d = make([]int32, D*R), make([]int32, D*R)
	queue := make([]int32, 0, R)
	for k, dk := range g.dests {
		u, d := ud.u[k*R:(k+1)*R], ud.d[k*R:(k+1)*R]
		for r := range d {
			d[r] = unreachable
		}
		// Down only: a breadth-first search from the destination along
		// links taken backwards, that is up from it.
		d[dk] = 0
		queue = append(queue[:0], dk)
		for len(queue) > 0 {
			x := queue[0]
			queue = queue[1:]
			for i := g.first[x]; i < g.first[x+1]; i++ {
				if w := g.to[i]; w >= 0 && ud.up[i] && d[w] == unreachable {
					d[w] = d[x] + 1
					queue = append(queue, w)
				}
			}
		}
		// Up then down: the better of going down now and going up first.
		for _, r := range order {
			best := d[r]
			for i := g.first[r]; i < g.first[r+1]; i++ {
				if w := g.to[i]; w >= 0 && ud.up[i] {
					best = min(best, u[w]+1)
				}
			}
			u[r] = best
		}
	}
	return ud
}

// upDownBytes is the memory of a graph's up*/down* tables.
func upDownBytes(t topology.Topology) int64 {
	g := t.(*Graph)
	return 8*int64(len(g.dest))*int64(len(g.dests)) + int64(len(g.to))
}

// centre is the router whose farthest router is nearest, the lowest
// numbered of those that tie.
func (g *Graph) centre() int {
	best, bestEcc := 0, int32(unreachable)
	buf := make([]int32, 2*len(g.dest))
	for r := range g.dest {
		dist, _ := g.distancesTo(context.Background(), r, buf)
		if ecc := slices.Max(dist); ecc < bestEcc {
			best, bestEcc = r, ecc
		}
	}
	return best
}

// Up reports whether port p of router r leads up (towards the root).
func (ud *UpDown) Up(r, p int) bool { return ud.up[int(ud.g.first[r])+p] }

// Hops is the length of the shortest legal route from router r to router
// dr, which has nodes, starting with up links allowed (down is false) or
// down links only.
func (ud *UpDown) Hops(r, dr int, down bool) int {
	i := int(ud.g.dest[dr])*len(ud.g.dest) + r
	if down {
		return int(ud.d[i])
	}
	return int(ud.u[i])
}

// upDownRouting is "up-down" and "up-down-adaptive": the ports on a
// shortest legal route, the lowest of them or every one. A packet's
// Flit.Route bit 0 says it has gone down (set by Update when it takes a
// down link).
type upDownRouting struct {
	g        *Graph
	ud       *UpDown
	all      uint64
	adaptive bool
}

const wentDown = 1

func (s *upDownRouting) Route(r, in int, f *link.Flit, c *routing.Candidates) {
	dr, dp := s.g.NodePort(int(f.Dst))
	if dr == r {
		c.Add(routing.Bit(dp), s.all)
		return
	}
	down := f.Route&wentDown != 0
	want := s.ud.Hops(r, dr, down) - 1
	var ports uint64
	for p := 0; p < s.g.Ports(r); p++ {
		w := s.g.Peer(r, p).Router
		if w < 0 {
			continue
		}
		if up := s.ud.Up(r, p); up && !down && s.ud.Hops(w, dr, false) == want || !up && s.ud.Hops(w, dr, true) == want {
			ports |= routing.Bit(p)
			if !s.adaptive {
				break
			}
		}
	}
	c.Add(ports, s.all)
}

// Update records a down link taken (routing.RouteUpdater).
func (s *upDownRouting) Update(r, out int, f *link.Flit) {
	if s.g.Peer(r, out).Router >= 0 && !s.ud.Up(r, out) {
		f.Route |= wentDown
	}
}

func (s *upDownRouting) InjectVCs(int, int) uint64 { return s.all }

// Hops is the shortest legal route's length (it can be longer than the
// graph's shortest path).
func (s *upDownRouting) Hops(src, dst int) int {
	sr, _ := s.g.NodePort(src)
	dr, _ := s.g.NodePort(dst)
	return s.ud.Hops(sr, dr, false)
}

// VCClasses: Route does not read the packet's VC (routing.VCClassed).
func (s *upDownRouting) VCClasses() int { return 1 }

// ExtraCycles is the latency beyond linkLatencyCycles per link of the
// route a lone packet from src to dst takes: up-down's one route, or the
// least of up-down-adaptive's shortest legal routes (the routes differ
// from the graph's shortest paths, so the topology's minimal latencies do
// not give it: routing.RouteLatencies).
func (s *upDownRouting) ExtraCycles(src, dst, linkLatencyCycles int) int {
	memo := map[[2]int]int{}
	var from func(r, in int, route uint8) int
	from = func(r, in int, route uint8) int {
		key := [2]int{r, int(route)}
		if v, ok := memo[key]; ok {
			return v
		}
		f := link.Flit{Dst: int32(dst), Route: route}
		var c routing.Candidates
		s.Route(r, in, &f, &c)
		best := -1
		for m := c.G[0].Ports; m != 0; m &= m - 1 {
			p := routing.TrailingZeros(m)
			peer := s.g.Peer(r, p)
			if peer.Router < 0 {
				best = 0 // the destination's router: ejected
				break
			}
			g := f
			s.Update(r, p, &g)
			extra := from(peer.Router, peer.Port, g.Route)
			if l := s.g.LatencyCycles(r, p); l != 0 {
				extra += l - linkLatencyCycles
			}
			if best < 0 || extra < best {
				best = extra
			}
		}
		memo[key] = best
		return best
	}
	r, in := s.g.NodePort(src)
	return from(r, in, 0)
}
