// Package slimfly owns the Slim Fly of Besta and Hoefler (SC 2014): the
// McKay-Miller-Siran graphs of diameter 2 built over a finite field of q
// elements, q a prime power: its field arithmetic, wiring, names, sharding
// units, its configuration table ([network.slimfly], Config) and its min,
// Valiant and UGAL-L routings with VC classes by hops taken. It may import
// topology, routing, link, clock and internal/keys (DESIGN.md section 10).
package slimfly
