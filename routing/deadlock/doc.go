// Package deadlock owns the configuration-time deadlock proofs of routing
// functions over the routing contract: the channel dependency graph of a
// function's reachable states (from its own state list, routing.StateLister,
// or the reference search per destination) with the cycle search, and
// Duato's condition for functions with an escape sub-function (the
// extended graph with its indirect dependencies and the side conditions),
// by abstract states on a mesh or torus (topology.Plane) or by the
// reference search elsewhere; and the memory those checks take at their
// largest (Bytes), for the footprint estimate.
//
// Its tests: testdata/checks.txt scripts what Check reports for every
// family's routings, accepted and refused (the cycles it names included;
// -update rewrites it), and the state lists and the abstract states are
// compared, edge for edge, with the reference searches on many small
// networks.
//
// It may import routing, topology, link and clock; router kinds import it,
// topology families do not (their tests may).
package deadlock
