// Package prefetch asks the processor to bring memory into its caches
// ahead of use. It changes no value anywhere: only when the memory arrives.
//
// It imports the standard library only.
package prefetch

import "unsafe"

// Lines asks for n consecutive cache lines (64 bytes) starting with the one
// holding p. It returns at once; the lines arrive in the background.
func Lines(p unsafe.Pointer, n int) { strided(p, n, 64) }

// Strided asks for n cache lines, the ones holding p, p+strideBytes,
// p+2*strideBytes, and so on (one field of each of n records laid out
// strideBytes apart). It returns at once.
func Strided(p unsafe.Pointer, n, strideBytes int) { strided(p, n, strideBytes) }

// RingSlots asks, for each of n records of a table (recordBytes apart,
// each starting with two int64: a ring's first slot and its mask, its
// slot count minus 1), for the slot of cycle at of that ring: slot
// start + at&mask of the slots of slotBytes (at most 64) from base, the
// lines holding its first and its last byte. It is one call for a router's
// input wires, whose rings differ in length.
func RingSlots(base unsafe.Pointer, slotBytes int, table unsafe.Pointer, recordBytes, n int, at int64) {
	ringSlots(base, slotBytes, table, recordBytes, n, at)
}
