// Package grid owns the grids: k x k tori and meshes (Grid2D), their
// configuration tables ([network.torus] TorusConfig, [network.mesh]
// MeshConfig: keys, ranges, sizes, names, documentation), with
// concentration and a channel per message class on meshes, loopback ports
// (Hybrid-HAR's connection channels), their wiring, port names and sharding
// units (the topology.Plane capability); and their routings with their
// channel-dependency state lists: dor, dor-dateline, min-adaptive, duato,
// dor-2class, and Hybrid-HAR's hybrid-har and har-dor with its free rule
// (Routings); and the skewed space-time tiling plan of temporal blocking
// (Tiles, fabric.Tiler); and the tori and meshes of any number of
// dimensions and radices (GridND: k = [4, 4, 4, 4, 2], or k = 16 with
// dimensions = 3), with dor, dor-dateline, dor-2class, duato and
// min-adaptive carried to n dimensions and their state lists (nd_routing.go, nd_states.go), and
// tiles over their first two dimensions. A 2-D grid of equal sides given as
// one number is a Grid2D; given as a list it is built through the n-D family
// and runs as the Grid2D does (the same digests). It may import topology,
// routing, link and actor (DESIGN.md section 10); its tests also
// routing/deadlock and fabric.
package grid
