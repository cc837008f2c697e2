package routing

import "github.com/icnsim/icnsim/clock"

// GroupBoard is how UGAL-G on a dragonfly sees the global queues of its
// group: every router publishes, at the end of each cycle, the occupancy
// of each of its global ports, and any router of its group reads what was
// published in the previous cycle. It is a lane of latency one with one
// writer per entry and several readers: a writer writes the slot of its
// cycle's parity and readers read the other one, written a cycle earlier,
// so no value written in a cycle is read in that cycle and the order in
// which actors run cannot matter (DESIGN.md section 1). It holds one cycle
// only: temporal blocking, which runs some routers cycles ahead of others,
// is not offered on dragonflies (fabric.Tileable), and must not be while a board
// exists.
type GroupBoard struct {
	h    int
	slot [2][]int32 // slot[c&1][r*h+m]: router r's global port m at the end of cycle c
}

// NewGroupBoard returns the board of a dragonfly of the given routers with
// h global ports each, nothing published.
func NewGroupBoard(routers, h int) *GroupBoard {
	return &GroupBoard{h: h, slot: [2][]int32{make([]int32, routers*h), make([]int32, routers*h)}}
}

// Read is what router r published for its global port m at the end of
// cycle now-1 (zero before the first cycle).
func (b *GroupBoard) Read(r, m int, now clock.Cycle) int {
	return int(b.slot[(now-1)&1][r*b.h+m])
}

// Row is router r's row of the board, to publish in at the end of cycle
// now: its own writer's only, and read by the group's routers in the
// next cycle.
func (b *GroupBoard) Row(r int, now clock.Cycle) []int32 {
	return b.slot[now&1][r*b.h : (r+1)*b.h]
}

// BoardUser is implemented by routing functions that read a group board
// (UGAL-G): UseBoard makes the network's board, or returns nil when the
// function reads none, with the first port whose queues go on it and the
// VCs counted.
type BoardUser interface {
	UseBoard() (b *GroupBoard, port0 int, vcs uint64)
}
