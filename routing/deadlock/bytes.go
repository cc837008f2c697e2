package deadlock

import (
	"github.com/icnsim/icnsim/routing"
	"github.com/icnsim/icnsim/topology"
)

// Bytes is the memory Check takes at its largest for spec's function on t
// with vcs VCs, computed without building anything: Duato's extended
// check by abstract states for a function that gives its escape VCs
// (routing.Spec.Escapes), else the channel dependency graph (port bases,
// peers, a row of successor bits per channel, a colour per channel).
func Bytes(t topology.Topology, spec routing.Spec, vcs int) int64 {
	if spec.Escapes != nil {
		E, classes := spec.Escapes(t, vcs)
		return duatoCheckBytes(t, vcs, E, classes)
	}
	nr, V := int64(t.Routers()), int64(vcs)
	var nports, maxPV int64
	for r := 0; r < t.Routers(); r++ {
		P := int64(t.Ports(r))
		nports += P
		maxPV = max(maxPV, P*V)
	}
	W := (maxPV + 63) / 64
	return 8*(nr+1) + 8*nports + nports*V*W*8 + nports*V
}
