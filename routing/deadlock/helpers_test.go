package deadlock

import (
	"github.com/icnsim/icnsim/internal/routingtest"
	"github.com/icnsim/icnsim/link"
	"github.com/icnsim/icnsim/routing"
	"github.com/icnsim/icnsim/topology"
	"github.com/icnsim/icnsim/topology/grid"
)

// testRoutings are every family's routings by name.
func testRoutings() map[string]routing.Spec { return routingtest.All() }

func routingNamed(name string) routing.Spec { return routingtest.Named(name) }

// minVCs is the smallest deadlock-free VC count of routing name on t.
func minVCs(name string, t topology.Topology) int { return routingNamed(name).MinVCsFor(t) }

// withPorts is t with the ports routing name needs and ch channels per
// node (grid.WithPorts).
func withPorts(t topology.Topology, name string, ch int) (topology.Topology, error) {
	return grid.WithPorts(t, routingNamed(name).Loops, ch)
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
