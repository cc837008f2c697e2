// Package hyperx owns the HyperX (flattened butterfly) of Ahn et al.: L
// dimensions of S routers each, every router joined to every other of its
// dimension by T parallel links, P nodes per router: its wiring, coordinate
// tables, names and sharding units. It may import topology, routing and
// link (DESIGN.md section 10).
//
// It owns its configuration table ([network.hyperx], Config): keys, ranges, size, name and
// documentation, which the study layer composes.
package hyperx
