// Package routing owns the routing contract: a routing function (Func)
// proposes candidate output ports and VCs for a head flit, a Spec
// registers it with what it needs (its topologies, VCs, loopback ports, an
// escape level), and small optional capabilities say the rest (it routes by
// message class, allocates some VCs atomically, carries state in the
// packet's header, has an escape sub-function, chooses with a router's
// queues). It also owns the queue view a router kind supplies to adaptive
// and non-minimal choices (Queues) and the machinery Valiant, UGAL and PAR
// share on any topology (draws, modes, UGAL's rule), and splits a function
// into virtual networks, one per message class (Networks). It may import
// topology, link and clock only (DESIGN.md section 10).
package routing
