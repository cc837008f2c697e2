package vc

import (
	"math"
	"strings"
	"testing"

	"github.com/icnsim/icnsim/actor"
	"github.com/icnsim/icnsim/clock"
	"github.com/icnsim/icnsim/fabric"
	"github.com/icnsim/icnsim/link"
	"github.com/icnsim/icnsim/router/alloc"
	"github.com/icnsim/icnsim/topology/fattree"
)

// backlog keeps a node's source queue stocked with size-flit packets to
// dst, their classes taken in turn from classes: an always-backlogged
// sender.
type backlog struct {
	dst, size int
	classes   []uint8
	sent      int
}

// Each class is offered two flits a cycle, twice what a link carries.
func (b *backlog) Generate(now clock.Cycle, q *fabric.SourceQueue) clock.Cycle {
	for range 2 * len(b.classes) {
		q.Push(now, b.dst, b.size, b.classes[b.sent%len(b.classes)])
		b.sent++
	}
	return now + clock.Cycle(b.size)
}

// classFlitsSink counts the flits of each class delivered from cycle from on.
type classFlitsSink struct {
	from  clock.Cycle
	flits [link.MaxClasses]int
}

func (s *classFlitsSink) Delivered(now clock.Cycle, f *link.Flit) {
	if now >= s.from {
		s.flits[f.Class] += int(f.Size)
	}
}

// share is class 0's share of the flits counted.
func (s *classFlitsSink) share() float64 {
	total := 0
	for _, n := range s.flits {
		total += n
	}
	return float64(s.flits[0]) / float64(total)
}

// TestClassShareScripted: on one switch (a 4-ary 1-tree, node i on port
// i), always-backlogged senders meet at node 3's ejection port, which
// carries one flit a cycle. At the switch: node 0 sends class 0, nodes 1
// and 2 class 1, each class on a VC of its own; round robin over the
// output port (and the one output VC of class 1 taken by nodes 1 and 2
// in turn) gives class 0 about half, the priority share all of it, the
// weighted share its weight's part, to within a packet. At the network
// interface: node 0 alone sends both classes, generated in turn; it sends
// them in that order without a share, and by the share with one.
func TestClassShareScripted(t *testing.T) {
	topo, err := fattree.NewFatTree(4, 1)
	if err != nil {
		t.Fatal(err)
	}
	const from, until = 1000, 5000
	for _, c := range []struct {
		name    string
		share   alloc.Share
		weights []int
		atNI    bool
		want    float64 // class 0's share of node 3's flits
	}{
		// Round robin between the inputs with a flit to send: node 0 and
		// whichever of nodes 1 and 2 holds class 1's output VC (asserted
		// within 5%: a VC changing hands costs a bubble).
		{"switch/none", alloc.ShareNone, nil, false, 0.5},
		{"switch/priority", alloc.SharePriority, nil, false, 1},
		{"switch/weighted-3:1", alloc.ShareWeighted, []int{3, 1}, false, 0.75},
		{"switch/weighted-1:3", alloc.ShareWeighted, []int{1, 3}, false, 0.25},
		{"switch/weighted-1:1", alloc.ShareWeighted, []int{1, 1}, false, 0.5},
		{"ni/none", alloc.ShareNone, nil, true, 0.5},
		{"ni/priority", alloc.SharePriority, nil, true, 1},
		{"ni/weighted-3:1", alloc.ShareWeighted, []int{3, 1}, true, 0.75},
		{"ni/weighted-1:4", alloc.ShareWeighted, []int{1, 4}, true, 0.2},
	} {
		t.Run(c.name, func(t *testing.T) {
			srcs := []fabric.Source{&backlog{dst: 3, size: 4, classes: []uint8{0}},
				&backlog{dst: 3, size: 4, classes: []uint8{1}}, &backlog{dst: 3, size: 4, classes: []uint8{1}}, &oneShot{dst: -1}}
			if c.atNI {
				srcs = []fabric.Source{&backlog{dst: 3, size: 4, classes: []uint8{0, 1}}, &oneShot{dst: -1}, &oneShot{dst: -1}, &oneShot{dst: -1}}
			}
			sink := &classFlitsSink{from: from}
			cfg := Config{Routing: routingNamed("fattree-static"), VCs: 2, BufferFlits: 16, RoutingDelayCycles: 1,
				LinkLatencyCycles: 1, CreditLatencyCycles: 1, MaxPacketFlits: 4,
				Classes: 2, ClassVCs: []int{1, 1}, ClassShare: c.share, ClassWeights: c.weights}
			n := build(t, topo, cfg, srcs, []fabric.Sink{nil, nil, nil, sink})
			runChecked(t, n, actor.Serial, until)
			total := sink.flits[0] + sink.flits[1]
			if total < (until-from)*9/10 {
				t.Fatalf("node 3 took %d flits in %d cycles: its port was not kept busy", total, until-from)
			}
			// Within a packet of the exact share, as a share of the flits.
			tol := 8.0 / float64(total)
			if c.share == alloc.ShareNone && !c.atNI {
				tol = 0.05
			}
			got := sink.share()
			t.Logf("class 0 took %.4f of %d flits (want %.4f)", got, total, c.want)
			if math.Abs(got-c.want) > tol {
				t.Fatalf("class 0 took %.4f of %d flits (class 1 %d), want %.4f", got, total, sink.flits[1], c.want)
			}
		})
	}
}

// vcSink records the VCs each class's flits arrive on.
type vcSink struct{ vcs [link.MaxClasses]uint64 }

func (s *vcSink) Delivered(_ clock.Cycle, f *link.Flit) { s.vcs[f.Class] |= 1 << f.VC }

// TestClassVCsPartition: with class_vcs each class's packets travel on its
// block of VCs alone, end to end, on a fat-tree whose routing is built for
// each block's VCs (3 VCs and 1), and the classes' blocks are checked for
// deadlock apart.
func TestClassVCsPartition(t *testing.T) {
	topo, err := fattree.NewFatTree(2, 3)
	if err != nil {
		t.Fatal(err)
	}
	N := topo.Nodes()
	srcs := make([]fabric.Source, N)
	sinks := make([]fabric.Sink, N)
	vs := make([]*vcSink, N)
	for i := range srcs {
		srcs[i] = &backlog{dst: (i + 3) % N, size: 2, classes: []uint8{0, 1, 1}}
		vs[i] = &vcSink{}
		sinks[i] = vs[i]
	}
	cfg := Config{Routing: routingNamed("fattree-adaptive"), VCs: 4, BufferFlits: 8, RoutingDelayCycles: 1,
		LinkLatencyCycles: 1, CreditLatencyCycles: 1, MaxPacketFlits: 2, Classes: 2, ClassVCs: []int{3, 1}}
	n := build(t, topo, cfg, srcs, sinks)
	runChecked(t, n, actor.Serial, 3000)
	var seen [2]uint64
	for _, s := range vs {
		seen[0] |= s.vcs[0]
		seen[1] |= s.vcs[1]
	}
	if seen[0] == 0 || seen[0]&^0b0111 != 0 || seen[1] != 0b1000 {
		t.Fatalf("class 0 arrived on VCs %b (want within 0111), class 1 on %b (want 1000)", seen[0], seen[1])
	}
	for _, c := range []struct {
		cfg  func(*Config)
		want string
	}{
		{func(c *Config) { c.ClassVCs = []int{3, 2} }, "sums to 5 VCs, not vcs = 4"},
		{func(c *Config) { c.ClassVCs = []int{4, 0} }, "every class needs at least 1 VC"},
		{func(c *Config) { c.ClassVCs = []int{2, 1, 1} }, "gives 3 classes VCs; the traffic has 2"},
		{func(c *Config) { c.ClassShare = alloc.ShareWeighted; c.ClassWeights = []int{1} }, "one weight per traffic class (2)"},
		{func(c *Config) { c.ClassShare = alloc.SharePriority; c.SwitchAllocator = alloc.ISLIP }, "matches by its own rule"},
		{func(c *Config) { c.ClassShare = alloc.SharePriority; c.Classes = 1; c.ClassVCs = nil }, "the traffic has 1"},
	} {
		bad := cfg
		c.cfg(&bad)
		if _, err := Check(t.Context(), topo, bad); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want one saying %q", bad, err, c.want)
		}
	}
}
