// Package hyperx owns the HyperX (flattened butterfly) of Ahn et al.: L
// dimensions of S routers each, every router joined to every other of its
// dimension by T parallel links, P nodes per router: its wiring, coordinate
// tables, names and sharding units. It may import topology, routing and
// link (DESIGN.md section 10).
package hyperx
