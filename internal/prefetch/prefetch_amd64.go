package prefetch

import "unsafe"

//go:noescape
func strided(p unsafe.Pointer, n, strideBytes int)

//go:noescape
func ringSlots(base unsafe.Pointer, slotBytes int, table unsafe.Pointer, recordBytes, n int, at int64)
