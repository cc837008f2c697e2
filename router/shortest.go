package router

import (
	"github.com/icnsim/icnsim/link"
)

// Shortest-path routing on a topology read from a file (link.Graph).
//
// "shortest" offers, at each router, every port on a shortest path to the
// destination's router (the router takes a free one with most credits),
// on every VC: on most graphs its channel dependencies have a cycle, and
// the deadlock check refuses it, naming one. "shortest-hops" is the same
// with VC classes by hop: a packet's k-th hop (k = 0, 1, ...) takes class
// k, so the classes rise along every path and no cycle is possible; it
// is deadlock free with as many classes as the graph's diameter (VC v is
// class v mod D; with fewer, a class serves several hops and the check
// decides).
// The check proves either, with the search per destination (its cost grows
// as nodes squared: file topologies are meant to be small to mid-sized).
type shortestRouting struct {
	g       *link.Graph
	R       int
	next    []uint64 // next[r*R+d]: the ports of r on shortest paths to router d
	dist    []int32  // dist[r*R+d]
	all     uint64
	classes int // 0: all VCs on every hop (shortest); D (shortest-hops)
	class   []uint64
}

func newShortestRouting(g *link.Graph, vcs int, byHop bool) *shortestRouting {
	R := g.Routers()
	s := &shortestRouting{g: g, R: R, next: make([]uint64, R*R), dist: make([]int32, R*R), all: allVCs(vcs)}
	d := g.Distances()
	for r := 0; r < R; r++ {
		for dst := 0; dst < R; dst++ {
			s.dist[r*R+dst] = int32(d[r][dst])
			if r == dst || d[r][dst] < 0 {
				continue
			}
			for p := 0; p < g.Ports(r); p++ {
				if q := g.Peer(r, p); q.Router >= 0 && d[q.Router][dst] == d[r][dst]-1 {
					s.next[r*R+dst] |= 1 << p
				}
			}
		}
	}
	if byHop {
		s.classes = max(g.Diameter(), 1)
		s.class = make([]uint64, s.classes)
		for c := range s.class {
			s.class[c] = classMask(vcs, s.classes, c)
		}
	}
	return s
}

func (s *shortestRouting) Route(r, in int, f *link.Flit, c *Candidates) {
	dr, dp := s.g.NodePort(int(f.Dst))
	if dr == r {
		c.Add(bit(dp), s.all)
		return
	}
	vcs := s.all
	if s.classes > 0 {
		next := 0
		if s.g.Peer(r, in).Router >= 0 {
			next = (vcClass(f.VC, s.classes) + 1) % s.classes
		}
		vcs = s.class[next]
	}
	c.Add(s.next[r*s.R+dr], vcs)
}

func (s *shortestRouting) InjectVCs(int, int) uint64 { return s.all }

func (s *shortestRouting) Hops(src, dst int) int {
	sr, _ := s.g.NodePort(src)
	dr, _ := s.g.NodePort(dst)
	return int(s.dist[sr*s.R+dr])
}

func shortestSpecs() []RoutingSpec {
	return []RoutingSpec{
		{Name: "shortest", MinVCs: 1, Topologies: []string{"file"},
			Doc: "a topology from a file: every port on a shortest path, every VC (refused by the deadlock check where its dependencies have a cycle, as on most graphs with cycles)",
			New: func(t link.Topology, vcs int) RoutingFunc { return newShortestRouting(t.(*link.Graph), vcs, false) }},
		{Name: "shortest-hops", MinVCs: 1, Topologies: []string{"file"},
			Doc: "a topology from a file: every port on a shortest path, VC class = hops taken (the k-th hop in class k): deadlock free with as many VCs as the diameter",
			New: func(t link.Topology, vcs int) RoutingFunc { return newShortestRouting(t.(*link.Graph), vcs, true) }},
	}
}
