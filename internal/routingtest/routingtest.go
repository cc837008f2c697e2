// Package routingtest owns what tests of routings and router kinds share:
// the registry of every family's routings (what study's catalog composes,
// which packages below study cannot import), a small instance of each
// family, and the mesh or torus with the ports of a Hybrid-HAR routing. It
// may import routing, topology and the topology families.
package routingtest

import (
	"context"
	"fmt"
	"math/bits"
	"strings"
	"testing"

	"github.com/icnsim/icnsim/link"

	"github.com/icnsim/icnsim/routing"
	"github.com/icnsim/icnsim/topology"
	"github.com/icnsim/icnsim/topology/dragonfly"
	"github.com/icnsim/icnsim/topology/dragonflyplus"
	"github.com/icnsim/icnsim/topology/fattree"
	"github.com/icnsim/icnsim/topology/graph"
	"github.com/icnsim/icnsim/topology/grid"
	"github.com/icnsim/icnsim/topology/hyperx"
	"github.com/icnsim/icnsim/topology/slimfly"
)

// All is every family's routings by name.
func All() map[string]routing.Spec {
	return routing.ByName(grid.Routings(), routing.NonMinimalSpecs(dragonfly.NonMinimalFamily(), dragonflyplus.NonMinimalFamily(), hyperx.NonMinimalFamily(), slimfly.NonMinimalFamily()), fattree.Routings(), graph.Routings())
}

// Named is routing name's registry entry (the zero Spec with that name
// for none).
func Named(name string) routing.Spec {
	if s, ok := All()[name]; ok {
		return s
	}
	return routing.Spec{Name: name}
}

// HARTopology is a k x k torus (wrap) or mesh with the loopback ports of
// Hybrid-HAR routing name and a channel per message class.
func HARTopology(t testing.TB, k int, wrap bool, name string) *grid.Grid2D {
	t.Helper()
	var g *grid.Grid2D
	if wrap {
		g, _ = grid.NewTorus(k)
	} else {
		g, _ = grid.NewMesh(k, 1)
	}
	w, err := grid.WithPorts(g, Named(name).Loops, 2)
	if err != nil {
		t.Fatal(err)
	}
	return w.(*grid.Grid2D)
}

// Topology is a small instance of topology family kind for tests, its size
// picked by size and extra (any values): a torus of 2+size%7 routers a
// side; a mesh of 2+size%7 with 1+extra%4 nodes per router; a fat-tree of
// arity 2+size%3 and 1+extra%4 levels; a dragonfly of 1+extra%2 nodes per
// router, 2+2*(size%2) routers per group and one global link each; a
// Dragonfly+ of 1+size%3 leaves, 1+extra%2 spines with 2+size%2 global
// links each, a node per leaf and two links between each pair of groups
// where S*h is even (g = S*h/2 + 1), one otherwise; a
// HyperX of 2+size%3 routers a line, 1+extra%2 dimensions and 2 nodes per
// router; a Slim Fly of q = 3, 4 or 5 with 1+extra%2 nodes per router;
// a 6-router graph from a file.
func Topology(kind string, size, extra int) (topology.Topology, error) {
	size, extra = max(size, -size), max(extra, -extra)
	switch kind {
	case "torus":
		return grid.NewTorus(2 + size%7)
	case "mesh":
		return grid.NewMesh(2+size%7, 1+extra%4)
	case "fattree":
		return fattree.NewFatTree(2+size%3, 1+extra%4)
	case "dragonfly":
		return dragonfly.NewDragonfly(1+extra%2, 2+2*(size%2), 1, 0, dragonfly.Palmtree, 0)
	case "dragonflyplus":
		l, s, h := 1+size%3, 1+extra%2, 2+size%2
		g := s*h + 1
		if (s*h)%2 == 0 {
			g = s*h/2 + 1
		}
		return dragonflyplus.New(1, l, s, h, g)
	case "hyperx":
		return hyperx.NewHyperX(2+size%3, 1+extra%2, 1, 2)
	case "slimfly":
		return slimfly.New(3+size%3, 1+extra%2)
	case "file":
		return graph.ReadGraph(context.Background(), "test.txt", strings.NewReader("routers 6\nnode 0\nnode 0\nnode 1\nnode 2\nnode 3\nnode 4\nnode 5\n"+
			"link 0 1\nlink 1 2 4\nlink 2 3\nlink 3 4\nlink 4 5\nlink 5 0\nlink 0 3 3\n"))
	}
	return nil, fmt.Errorf("routingtest: no small %q topology (add the family here)", kind)
}

// TracePath follows rf's decisions for a lone packet from node src to
// node dst (sequence number seq, which draws a non-minimal routing's
// intermediate) on topo at zero load, taking the first port and VC of the
// first candidate group at each router (a Chooser reads its queues from
// queues(r)), and returns its router-to-router hops and the sum of their
// links' latencies (linkLatencyCycles where the topology gives none).
func TracePath(t testing.TB, topo topology.Topology, rf routing.Func, queues func(r int) routing.Queues, linkLatencyCycles, src, dst int, seq uint32) (hops, linkCycles int) {
	t.Helper()
	ch, _ := rf.(routing.Chooser)
	r, in := topo.NodePort(src)
	f := link.Flit{Src: int32(src), Dst: int32(dst), Seq: seq}
	for range 64 {
		var c routing.Candidates
		if ch != nil {
			ch.Choose(r, in, &f, &c, queues(r), 0)
		} else {
			rf.Route(r, in, &f, &c)
		}
		p := bits.TrailingZeros64(c.G[0].Ports)
		peer := topo.Peer(r, p)
		if peer.Node >= 0 {
			if peer.Node != dst {
				t.Fatalf("%d->%d: ejected at %s", src, dst, topo.PortName(r, p))
			}
			return hops, linkCycles
		}
		hops++
		lat := linkLatencyCycles
		if pl, ok := topo.(topology.PortLatencies); ok && pl.LatencyCycles(r, p) > 0 {
			lat = pl.LatencyCycles(r, p)
		}
		linkCycles += lat
		f.VC = uint8(bits.TrailingZeros64(c.G[0].VCs))
		r, in = peer.Router, peer.Port
	}
	t.Fatalf("%d->%d: no sink after 64 hops", src, dst)
	return 0, 0
}
