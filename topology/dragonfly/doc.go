// Package dragonfly owns the dragonfly of Kim, Dally, Scott and Abts: groups
// of fully connected routers joined by global links laid out by an
// arrangement (palmtree or consecutive), its wiring, names, link latencies
// and the routers whose eccentricity stands for all. It may import
// topology, routing and link (DESIGN.md section 10).
//
// It owns its configuration table ([network.dragonfly], Config, with the sizes it derives from the keys left out): keys, ranges, size, name and
// documentation, which the study layer composes.
package dragonfly
