// Package grid owns the two-dimensional grids: k x k tori and meshes, with
// concentration and a channel per message class on meshes, loopback ports
// (Hybrid-HAR's connection channels), their wiring, port names and sharding
// units. It may import topology, routing and link (DESIGN.md section 10).
package grid
