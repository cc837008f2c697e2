package deadlock

import (
	"testing"

	"github.com/icnsim/icnsim/link"
	"github.com/icnsim/icnsim/routing"
	"github.com/icnsim/icnsim/topology"
	"github.com/icnsim/icnsim/topology/dragonfly"
	"github.com/icnsim/icnsim/topology/fattree"
	"github.com/icnsim/icnsim/topology/graph"
	"github.com/icnsim/icnsim/topology/grid"
	"github.com/icnsim/icnsim/topology/hyperx"
)

// testRoutings are the routing functions of every family, by name (what
// study's catalog composes).
func testRoutings() map[string]routing.Spec {
	return routing.ByName(grid.Routings(), routing.NonMinimalSpecs(dragonfly.NonMinimalFamily(), hyperx.NonMinimalFamily()), fattree.Routings(), graph.Routings())
}

func routingNamed(name string) routing.Spec { return testRoutings()[name] }

// minVCs is the smallest deadlock-free VC count of routing name on t.
func minVCs(name string, t topology.Topology) int { return routingNamed(name).MinVCsFor(t) }

// withPorts is t with the ports routing name needs and ch channels per
// node (grid.WithPorts).
func withPorts(t topology.Topology, name string, ch int) (topology.Topology, error) {
	return grid.WithPorts(t, routingNamed(name).Loops, ch)
}

// harTopo is a k x k torus (wrap) or mesh with the ports of a Hybrid-HAR
// routing and a channel per message class.
func harTopo(t testing.TB, k int, wrap bool, name string) *grid.Grid2D {
	t.Helper()
	var g *grid.Grid2D
	if wrap {
		g, _ = grid.NewTorus(k)
	} else {
		g, _ = grid.NewMesh(k, 1)
	}
	w, err := withPorts(g, name, 2)
	if err != nil {
		t.Fatal(err)
	}
	return w.(*grid.Grid2D)
}

// nonAtomic is hybrid-har with C2 allocated as any VC.
type nonAtomic struct{ *grid.HAR }

func (*nonAtomic) AtomicVCs() uint64 { return 0 }

// noShortEscape is hybrid-har whose short messages use C2 only below.
type noShortEscape struct{ *grid.HAR }

func (n *noShortEscape) Route(r, in int, f *link.Flit, c *routing.Candidates) {
	n.HAR.Route(r, in, f, c)
	if f.Class == 0 && routing.Bit(int(f.VC))&n.Layout().Lower != 0 && c.N == 2 {
		c.N = 1
	}
}
