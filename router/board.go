package router

import (
	"github.com/icnsim/icnsim/clock"
	"github.com/icnsim/icnsim/fabric"
)

// groupBoard is how UGAL-G on a dragonfly sees the global queues of its
// group: every router publishes, at the end of each cycle, the occupancy
// of each of its global ports, and any router of its group reads what was
// published in the previous cycle. It is a lane of latency one with one
// writer per entry and several readers: a writer writes the slot of its
// cycle's parity and readers read the other one, written a cycle earlier,
// so no value written in a cycle is read in that cycle and the order in
// which actors run cannot matter (DESIGN.md section 1). It holds one cycle
// only: temporal blocking, which runs some routers cycles ahead of others,
// is not offered on dragonflies (Tileable), and must not be while a board
// exists.
type groupBoard struct {
	h    int
	slot [2][]int32 // slot[c&1][r*h+m]: router r's global port m at the end of cycle c
}

func newGroupBoard(routers, h int) *groupBoard {
	return &groupBoard{h: h, slot: [2][]int32{make([]int32, routers*h), make([]int32, routers*h)}}
}

// read is what router r published for its global port m at the end of
// cycle now-1 (zero before the first cycle).
func (b *groupBoard) read(r, m int, now clock.Cycle) int {
	return int(b.slot[(now-1)&1][r*b.h+m])
}

// boardPlane publishes its router's global queues on the board at the end
// of every cycle, and steps the router's other control plane, if any.
type boardPlane struct {
	r     *Router
	b     *groupBoard
	port0 int    // first global port
	vcs   uint64 // the VCs whose occupancy is published
	next  fabric.ControlPlane
}

func (p *boardPlane) Step(now clock.Cycle, obs fabric.Observation) {
	row := p.b.slot[now&1][int(p.r.id)*p.b.h : (int(p.r.id)+1)*p.b.h]
	// QueueFlitsOn for each global port, with the input buffers scanned
	// once for all of them (and not at all when they are empty).
	var waiting [64]int32
	p.r.waitingPerPort(&waiting)
	for m := range row {
		row[m] = int32(p.r.creditsOutOn(p.port0+m, p.vcs)) + waiting[(p.port0+m)&63]
	}
	if p.next != nil {
		p.next.Step(now, obs)
	}
}

// boardUser is implemented by routing functions that read a group board
// (UGAL-G): useBoard makes the network's board, or returns nil when the
// function reads none, with the first port whose queues go on it and the
// VCs counted.
type boardUser interface {
	useBoard() (b *groupBoard, port0 int, vcs uint64)
}
