package graph

import (
	"github.com/icnsim/icnsim/link"
	"github.com/icnsim/icnsim/routing"
	"github.com/icnsim/icnsim/topology"
)

// Shortest-path routing on a topology read from a file (Graph).
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
// The check proves "shortest" with the search per destination (its cost
// grows as nodes squared: such topologies are meant to be small to
// mid-sized). "shortest-hops" with at least D VCs it proves by its
// classes: every dependency goes from a hop's class up to the next, none
// stays within one (a route of at most D hops never wraps from class D-1
// to 0), so there are none to list (routing.ClassLister), whatever the graph's
// size; with fewer VCs, by the search.
// The shortest paths are the graph's route tables (Graph.
// PrepareRoutes, which Check runs under its context first): 12 bytes per
// router and router with nodes.
type shortestRouting struct {
	g       *Graph
	routes  *Routes
	all     uint64
	classes int // 0: all VCs on every hop (shortest); D (shortest-hops)
	class   []uint64
}

func newShortestRouting(g *Graph, vcs int, byHop bool) *shortestRouting {
	routes := g.Routes() // at once where Check prepared them
	s := &shortestRouting{g: g, routes: routes, all: routing.AllVCs(vcs)}
	if byHop {
		s.classes = max(routes.Diameter, 1)
		s.class = make([]uint64, s.classes)
		for c := range s.class {
			s.class[c] = routing.ClassMask(vcs, s.classes, c)
		}
	}
	return s
}

func (s *shortestRouting) Route(r, in int, f *link.Flit, c *routing.Candidates) {
	dr, dp := s.g.NodePort(int(f.Dst))
	if dr == r {
		c.Add(routing.Bit(dp), s.all)
		return
	}
	vcs := s.all
	if s.classes > 0 {
		next := 0
		if s.g.Peer(r, in).Router >= 0 {
			next = (routing.VCClass(f.VC, s.classes) + 1) % s.classes
		}
		vcs = s.class[next]
	}
	c.Add(s.routes.NextPorts(r, dr), vcs)
}

func (s *shortestRouting) InjectVCs(int, int) uint64 { return s.all }

func (s *shortestRouting) Hops(src, dst int) int {
	sr, _ := s.g.NodePort(src)
	dr, _ := s.g.NodePort(dst)
	return s.routes.Hops(sr, dr)
}

// shortestBuildSeconds is the build time of shortest or (byHops)
// shortest-hops on a graph with R routers, D of them with nodes, P ports
// and N nodes: the route tables (D searches filling R x D entries, about
// 22 ns an entry) and, for shortest, or shortest-hops with fewer VCs than
// the diameter may need (its bound: Graph.DiameterBound), the
// deadlock check's search from every destination, about 0.044 us per
// port, node and VC (TestBuildSecondsEstimate: binary trees of 128 to 384
// routers for the search, 2,048 to 6,144 for the tables; on 2026-12-04
// 0.032 us put the search at 0.72 of the median ratio on an idle machine
// and 0.50 under the whole suite, where its memory-bound search slows
// more than the other builds when the cores' caches are shared).
func shortestBuildSeconds(byHops bool) func(t topology.Topology, vcs int) float64 {
	return func(t topology.Topology, vcs int) float64 {
		g := t.(*Graph)
		s := 22e-9 * float64(g.Routers()) * float64(g.Destinations())
		if !byHops || vcs < g.DiameterBound() {
			s += 0.044e-6 * float64(vcs) * float64(routing.Ports(g)) * float64(g.Nodes())
		}
		return s
	}
}

// Routings are the routing functions of topologies from files, in the
// order documentation lists them (the catalog's registry).
func Routings() []routing.Spec {
	return []routing.Spec{
		{Name: "shortest", MinVCs: 1, Topologies: []string{"file"}, BuildSeconds: shortestBuildSeconds(false),
			Doc: "a topology from a file: every port on a shortest path, every VC (refused by the deadlock check where its dependencies have a cycle, as on most graphs with cycles)",
			New: func(t topology.Topology, vcs int) routing.Func {
				return newShortestRouting(t.(*Graph), vcs, false)
			}},
		{Name: "shortest-hops", MinVCs: 1, Topologies: []string{"file"}, BuildSeconds: shortestBuildSeconds(true),
			MinVCsOn: func(t topology.Topology) int { return max(t.Diameter(), 1) },
			Doc:      "a topology from a file: every port on a shortest path, VC class = hops taken (the k-th hop in class k): deadlock free with as many VCs as the diameter",
			New: func(t topology.Topology, vcs int) routing.Func {
				return shortestHops{newShortestRouting(t.(*Graph), vcs, true)}
			}},
		{Name: "up-down", MinVCs: 1, Topologies: []string{"file"}, BuildSeconds: upDownBuildSeconds, TableBytes: upDownBytes,
			Doc: "a topology from a file: up*/down* (Autonet): the lowest port on a shortest legal route, up links then down links from a root (the file's \"root R\", or the graph's centre); deadlock free with one VC on any connected graph",
			New: func(t topology.Topology, vcs int) routing.Func {
				g := t.(*Graph)
				return &upDownRouting{g: g, ud: g.UpDown(), all: routing.AllVCs(vcs)}
			}},
		{Name: "up-down-adaptive", MinVCs: 1, Topologies: []string{"file"}, BuildSeconds: upDownBuildSeconds, TableBytes: upDownBytes,
			Doc: "a topology from a file: up*/down* with every port on a shortest legal route offered (the router takes a free one): adaptive within the up*/down* restriction, deadlock free with one VC",
			New: func(t topology.Topology, vcs int) routing.Func {
				g := t.(*Graph)
				return &upDownRouting{g: g, ud: g.UpDown(), all: routing.AllVCs(vcs), adaptive: true}
			}},
	}
}

// upDownBuildSeconds is the build time of up-down on a graph: the
// centre's search from every router and the tables' two searches per
// router with nodes, like shortest's tables (about 22 ns an entry each),
// and the deadlock check's search from every destination. That search
// visits each port and VC in two routing states (before and after the
// first down link), where shortest's visits it in one, and asks the
// routing's Update at every step: about twice shortest's time per port,
// node and VC (TestBuildSecondsEstimate: with shortest's 0.044 us the
// ratio lay at 0.55 of the median on an idle machine and 0.32 under the
// whole suite on 2026-12-07).
func upDownBuildSeconds(t topology.Topology, vcs int) float64 {
	g := t.(*Graph)
	R := float64(g.Routers())
	return 22e-9*R*(R+2*float64(g.Destinations())) + 2*0.044e-6*float64(vcs)*float64(routing.Ports(g))*float64(g.Nodes())
}

// shortestHops is shortest-hops: shortest paths with a VC class per hop.
type shortestHops struct{ *shortestRouting }

// ListStatesWithin lists nothing: no decision of shortest-hops adds a
// dependency within a VC class, or from one down to a lower one
// (routing.ClassLister; TestShortestHopsDependenciesGoUp holds this to the
// reference search on random graphs).
func (shortestHops) ListStatesWithin(func(r, in int, vcMask uint64, route uint8, dst int) bool) {}

// VCClasses: Route reads a packet's VC only through its hop class, or not
// at all under "shortest" (routing.VCClassed).
func (s *shortestRouting) VCClasses() int { return max(s.classes, 1) }
