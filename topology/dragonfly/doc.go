// Package dragonfly owns the dragonfly of Kim, Dally, Scott and Abts: groups
// of fully connected routers joined by global links laid out by an
// arrangement (palmtree or consecutive), its wiring, names, link latencies
// and the routers whose eccentricity stands for all. It may import
// topology, routing and link (DESIGN.md section 10).
package dragonfly
