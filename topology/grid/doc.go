// Package grid owns the two-dimensional grids: k x k tori and meshes, their
// configuration tables ([network.torus] TorusConfig, [network.mesh]
// MeshConfig: keys, ranges, sizes, names, documentation), with
// concentration and a channel per message class on meshes, loopback ports
// (Hybrid-HAR's connection channels), their wiring, port names and sharding
// units (the topology.Plane capability); and their routings with their
// channel-dependency state lists: dor, dor-dateline, min-adaptive, duato,
// dor-2class, and Hybrid-HAR's hybrid-har and har-dor with its free rule
// (Routings); and the skewed space-time tiling plan of temporal blocking
// (Tiles, fabric.Tiler). It may import topology, routing, link and actor
// (DESIGN.md section 10); its tests also routing/deadlock and fabric.
package grid
