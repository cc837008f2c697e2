package recn_test

import (
	"fmt"

	"github.com/icnsim/icnsim/router/ioq/recn"
)

// saq is one port's SAQs as an example keeps them: flits per line.
type saq []int32

func (q saq) Flits(i int) int32 { return q[i] }
func (q saq) Empty(i int) bool  { return q[i] == 0 }

// An egress port is notified that output 2 of switch 5 is congested: it
// allocates a SAQ, packets whose route passes that point go there, and
// once it has emptied as a leaf it is freed and tells the port downstream.
func Example() {
	cfg := recn.Defaults(16384)
	q := make(saq, cfg.SAQs)
	var p recn.Port
	p.Init(&cfg, recn.Egress, 4, 0, make([]recn.Line, cfg.SAQs), q)
	point := recn.Point{Switch: 5, Port: 2}
	i := p.Receive(0, recn.Msg{Target: point, Kind: recn.Notify, Hops: 1}, recn.Link)
	g := recn.Mesh{K: 4, C: 1}
	fmt.Println("line", i, "for a packet to node 9:", p.Match(g, 5, 9), "to node 6:", p.Match(g, 5, 6))
	q[i] = 8
	p.Arrived(10, i, 0)
	q[i] = 0
	p.Departed(i)
	for _, m := range p.Out {
		fmt.Println(m.Kind, m.Target, "in use:", p.InUse())
	}
	// Output:
	// line 0 for a packet to node 9: 0 to node 6: -1
	// dealloc {5 2} in use: 0
}
