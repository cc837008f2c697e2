// Package fattree owns the k-ary n-trees (fat-trees of n levels of
// radix-2k switches, k^n nodes): their wiring, switch and port names, digit
// arithmetic and sharding units. It may import topology, routing and link
// (DESIGN.md section 10).
package fattree
