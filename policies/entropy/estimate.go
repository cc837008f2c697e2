package entropy

import (
	"context"
	"unsafe"

	"github.com/icnsim/icnsim/link"
	"github.com/icnsim/icnsim/topology"
)

// Check reports the errors Install would on topology t,
// without building anything on a network; ctx stops it.
func Check(ctx context.Context, t topology.Topology, p GateParams, cfg CircuitConfig, measure bool) error {
	if err := p.Validate(); err != nil {
		return err
	}
	if !p.Throttles() && !measure {
		return nil
	}
	_, _, _, err := layCircuit(ctx, t, cfg, make([]int, t.Routers()), cfg.uniformHop)
	return err
}

// BuildSeconds estimates the time Install takes to lay the
// tree circuit on t beside its memory: the search for its root, a
// breadth-first search from every router that could be it (every router
// of a topology without eccentricity representatives, such as a file's:
// it grows as the routers squared), about 25 ns per router and port
// searched (measured on a 4,096-router tree: 1.3 s).
func BuildSeconds(t topology.Topology, p GateParams, cfg CircuitConfig, measure bool) float64 {
	if !p.Throttles() && !measure || cfg.Shape != ShapeTree {
		return 0
	}
	n := t.Routers()
	if reps, ok := t.(eccentricityRepresentatives); ok {
		n = reps.EccentricityRepresentatives()
	}
	steps := t.Routers()
	for r := 0; r < t.Routers(); r++ {
		steps += t.Ports(r)
	}
	return 25e-9 * float64(n) * float64(steps)
}

// Bytes estimates the memory Install takes on topology t:
// per router its circuit part (registers, lane lists, name), per circuit
// link a control lane and its name, per node a readout lane, its name and,
// when the model throttles, a gate. The circuit's links come from its
// shape, as BuildCircuit lays them; names are counted at 32 bytes (48 for
// a readout lane's).
func Bytes(t topology.Topology, p GateParams, cfg CircuitConfig, measure bool) int64 {
	if !p.Throttles() && !measure {
		return 0
	}
	nr, nn := int64(t.Routers()), int64(t.Nodes())
	// A tree's circuit links are its R-1 links, up and down; the grid's
	// are laid (linear in the routers), the tree's root is not sought.
	ne := 2 * (nr - 1)
	if cfg.Shape != ShapeTree {
		edges, _, _, _ := layCircuit(context.Background(), t, cfg, make([]int, t.Routers()), cfg.uniformHop)
		ne = int64(len(edges))
	}
	perRouter := int64(unsafe.Sizeof(Circuit{})) + 8 + 5*int64(unsafe.Sizeof(regDef{})) + 32
	// Each circuit link is a control lane (with the data wire it watches)
	// and an entry in both ends' lane lists; each node's readout lane is
	// allocated with its name and listed by its router.
	perEdge := int64(unsafe.Sizeof(link.Control[Counts]{})) + int64(unsafe.Sizeof(link.Wire{})) + 32 +
		8 + int64(unsafe.Sizeof(Counts{})) + int64(unsafe.Sizeof(outLane{}))
	perNode := 8 + int64(unsafe.Sizeof(link.Lane[Counts]{})) + 48 + 8
	if p.Throttles() {
		perNode += int64(unsafe.Sizeof(Gate{})) + 16
		if p.Model == GuardRandom {
			perNode += 32 // its random stream
		}
	}
	return nr*perRouter + ne*perEdge + nn*perNode
}
