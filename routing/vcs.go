package routing

import "math/bits"

// VCClass is the VC class of the VC a packet holds, with classes VC
// classes: VC v belongs to class v mod classes (ClassMask).
func VCClass(v uint8, classes int) int { return int(v) % classes }

// AllVCs is the set of VCs 0..vcs-1.
func AllVCs(vcs int) uint64 {
	if vcs >= 64 {
		return ^uint64(0)
	}
	return 1<<vcs - 1
}

// ClassMask is the set of VCs of VC class c: the VCs v < vcs with
// v mod classes == c. With fewer VCs than classes, class c maps to VC
// c mod vcs, which the channel dependency check then rejects if it can
// deadlock.
func ClassMask(vcs, classes, c int) uint64 {
	if vcs < classes {
		return 1 << (c % vcs)
	}
	var m uint64
	for v := c; v < vcs; v += classes {
		m |= 1 << v
	}
	return m
}

// Bit is the set of port (or VC) p alone.
func Bit(p int) uint64 { return 1 << p }

// TrailingZeros is the lowest port (or VC) of set m (64 when empty).
func TrailingZeros(m uint64) int { return bits.TrailingZeros64(m) }
