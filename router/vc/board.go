package vc

import (
	"github.com/icnsim/icnsim/clock"
	"github.com/icnsim/icnsim/fabric"
	"github.com/icnsim/icnsim/routing"
)

// boardPlane publishes its router's global queues on the board at the end
// of every cycle, and steps the router's other control plane, if any.
type boardPlane struct {
	r     *Router
	b     *routing.GroupBoard
	port0 int    // first global port
	vcs   uint64 // the VCs whose occupancy is published
	next  fabric.ControlPlane
}

func (p *boardPlane) Step(now clock.Cycle, obs fabric.Observation) {
	row := p.b.Row(int(p.r.id), now)
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
