//go:build !amd64

package prefetch

import "unsafe"

func strided(unsafe.Pointer, int, int) {}

func ringSlots(unsafe.Pointer, int, unsafe.Pointer, int, int, int64) {}
