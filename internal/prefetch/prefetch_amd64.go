package prefetch

import "unsafe"

//go:noescape
func lines(p unsafe.Pointer, n int)

//go:noescape
func strided(p unsafe.Pointer, n, strideBytes int)
