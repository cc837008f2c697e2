package policies

import (
	"unsafe"

	"github.com/icnsim/icnsim/link"
)

// CheckEntropy reports the errors InstallEntropy would on topology t,
// without building anything on a network.
func CheckEntropy(t link.Topology, p GateParams, cfg CircuitConfig, measure bool) error {
	if err := p.Validate(); err != nil {
		return err
	}
	if !p.Throttles() && !measure {
		return nil
	}
	_, _, _, err := layCircuit(t, cfg, make([]int, t.Routers()))
	return err
}

// EntropyBytes estimates the memory InstallEntropy takes on topology t:
// per router its circuit part (registers, lane lists, name), per circuit
// link a control lane and its name, per node a readout lane, its name and,
// when the model throttles, a gate. The circuit's links come from its
// shape, as BuildCircuit lays them; names are counted at 32 bytes (48 for
// a readout lane's).
func EntropyBytes(t link.Topology, p GateParams, cfg CircuitConfig, measure bool) int64 {
	if !p.Throttles() && !measure {
		return 0
	}
	nr, nn := int64(t.Routers()), int64(t.Nodes())
	edges, _, _, _ := layCircuit(t, cfg, make([]int, t.Routers()))
	ne := int64(len(edges))
	perRouter := int64(unsafe.Sizeof(Circuit{})) + 8 + 5*int64(unsafe.Sizeof(regDef{})) + 32
	// Each circuit link is a control lane (with the data wire it watches)
	// and an entry in both ends' lane lists; each node's readout lane is
	// allocated with its name and listed by its router.
	perEdge := int64(unsafe.Sizeof(link.Control[Counts]{})) + int64(unsafe.Sizeof(link.Wire{})) + 32 +
		8 + int64(unsafe.Sizeof(Counts{})) + int64(unsafe.Sizeof(outLane{}))
	perNode := 8 + int64(unsafe.Sizeof(link.Lane[Counts]{})) + 48 + 8
	if p.Throttles() {
		perNode += int64(unsafe.Sizeof(EntropyGate{})) + 16
		if p.Model == GuardRandom {
			perNode += 32 // its random stream
		}
	}
	return nr*perRouter + ne*perEdge + nn*perNode
}
