// Package dragonflyplus owns the Dragonfly+ (Megafly): groups that are
// two-level fat-trees of leaf and spine routers, joined by the spines'
// global links: its wiring, names, link latencies, sharding units, its
// configuration table ([network.dragonflyplus], Config) and its min,
// Valiant and UGAL-L routings. It may import topology, routing, link,
// clock and internal/keys (DESIGN.md section 10).
package dragonflyplus
