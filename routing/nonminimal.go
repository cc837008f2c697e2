package routing

import (
	"math/bits"

	"github.com/icnsim/icnsim/link"
)

// Draw is packet f's pseudo-random Draw number salt: a 64-bit mix
// (splitmix64's finaliser) of its source, sequence number and salt.
func Draw(f *link.Flit, salt uint64) uint64 {
	x := uint64(uint32(f.Src))<<32 | uint64(f.Seq)
	x ^= salt * 0x9e3779b97f4a7c15
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

// Pick is a draw reduced to 0..n-1 without a division (Lemire's
// multiply-shift).
func Pick(x uint64, n int) int {
	hi, _ := bits.Mul64(x, uint64(n))
	return int(hi)
}

// Route states of the non-minimal functions (Flit.Route).
const (
	// RouteNonMin: the packet goes by its intermediate (Valiant's path).
	RouteNonMin uint8 = 1
	// RouteSecond: its intermediate is the second draw (PAR's re-decision
	// in the source group).
	RouteSecond uint8 = 2
)

// Salts of the draws.
const (
	SaltFirst  = 1 // the intermediate drawn at the source
	SaltSecond = 2 // PAR's second draw
)

// UGALThresholdFlits is the default threshold T of UGAL's rule (minimal
// when q_min*H_min <= q_nonmin*H_nonmin + T).
const UGALThresholdFlits = 0

// NonMinMode is which non-minimal function a dragonfly or HyperX routing is.
type NonMinMode uint8

const (
	ModeMin   NonMinMode = iota // minimal
	ModeVAL                     // Valiant, always
	ModeUGALL                   // UGAL with local queues
	ModeUGALG                   // UGAL with the group's global queues (dragonfly)
	ModePAR                     // progressive adaptive: UGAL-L at the source, again at the next router of the source group
	// ModeUGALLBookSim is UGAL-L as BookSim2's dragonflynew has it
	// (ugal_dragonflynew): an intermediate node, used credits over every
	// VC, q_min <= 2*q_nonmin + 30, VCs by phase (dragonfly).
	ModeUGALLBookSim
)

func nonMinNames() [6]string {
	return [6]string{"min", "val", "ugal-l", "ugal-g", "par", "ugal-l-booksim"}
}

// BookSimUGALThresholdFlits is BookSim2's UGAL threshold, hard-coded in
// ugal_dragonflynew (src/networks/dragonfly.cpp: adaptive_threshold = 30).
const BookSimUGALThresholdFlits = 30

// BookSimUGALMinimal is BookSim2's UGAL rule: minimal when q_min <=
// 2*q_nonmin + 30, q the used credits of each path's first output port
// over every VC (ties minimal).
func BookSimUGALMinimal(qMin, qNon int) bool { return qMin <= 2*qNon+BookSimUGALThresholdFlits }

func (m NonMinMode) String() string { return nonMinNames()[m] }

// UGALMinimal is UGAL's rule: take the minimal path when qMin*hMin <=
// qNon*hNon + threshold.
func UGALMinimal(qMin, hMin, qNon, hNon, threshold int) bool {
	return qMin*hMin <= qNon*hNon+threshold
}
