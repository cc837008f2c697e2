package routing

import "github.com/icnsim/icnsim/topology"

// DefaultSecondsPerPort is the build time per router port of a routing
// function that gives none (Spec.BuildSeconds): the largest of the grids'
// (duato's).
const DefaultSecondsPerPort = 1.65e-6

// SecondsPerPort is a Spec.BuildSeconds of a constant time per router
// port (the deadlock check's states and the build's work both grow with
// the ports).
func SecondsPerPort(seconds float64) func(t topology.Topology, vcs int) float64 {
	return func(t topology.Topology, _ int) float64 { return float64(Ports(t)) * seconds }
}

// SecondsPerPortPair is a Spec.BuildSeconds of a time per router port and
// port of the largest router: on a high-radix topology the check's
// dependencies out of a port are the router's other ports.
func SecondsPerPortPair(seconds float64) func(t topology.Topology, vcs int) float64 {
	return func(t topology.Topology, _ int) float64 {
		radix := 0
		for r := range t.Routers() {
			radix = max(radix, t.Ports(r))
		}
		return float64(Ports(t)) * float64(radix) * seconds
	}
}

// Ports is the number of router ports of t.
func Ports(t topology.Topology) int {
	n := 0
	for r := range t.Routers() {
		n += t.Ports(r)
	}
	return n
}
