// Package fattree owns the k-ary n-trees (fat-trees of n levels of
// radix-2k switches, k^n nodes) and their tapered forms (fewer up ports
// per level, an oversubscription ratio each): their wiring, switch and
// port names, mixed-radix digit arithmetic and sharding units, their routings fattree-static and
// fattree-adaptive with their state lists (Routings), and the split tiling
// plan of temporal blocking (Tiles, fabric.Tiler). It may import topology,
// routing, link and actor (DESIGN.md section 10).
//
// It owns its configuration table ([network.fattree], Config): keys, ranges, size, name and
// documentation, which the study layer composes.
package fattree
