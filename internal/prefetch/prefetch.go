// Package prefetch asks the processor to bring memory into its caches
// ahead of use. It changes no value anywhere: only when the memory arrives.
//
// It imports the standard library only.
package prefetch

import "unsafe"

// Lines asks for n consecutive cache lines (64 bytes) starting with the one
// holding p. It returns at once; the lines arrive in the background.
func Lines(p unsafe.Pointer, n int) { lines(p, n) }

// Strided asks for n cache lines, the ones holding p, p+strideBytes,
// p+2*strideBytes, and so on (one field of each of n records laid out
// strideBytes apart). It returns at once.
func Strided(p unsafe.Pointer, n, strideBytes int) { strided(p, n, strideBytes) }
