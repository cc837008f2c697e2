package entropy

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/icnsim/icnsim/actor"
	"github.com/icnsim/icnsim/clock"
	"github.com/icnsim/icnsim/fabric"
	"github.com/icnsim/icnsim/internal/policytest"
	"github.com/icnsim/icnsim/internal/routingtest"
	"github.com/icnsim/icnsim/link"
	"github.com/icnsim/icnsim/router/vc"
	"github.com/icnsim/icnsim/routing"
	"github.com/icnsim/icnsim/topology"
	"github.com/icnsim/icnsim/topology/dragonfly"
	"github.com/icnsim/icnsim/topology/dragonflyplus"
	"github.com/icnsim/icnsim/topology/fattree"
	"github.com/icnsim/icnsim/topology/grid"
	"github.com/icnsim/icnsim/topology/hyperx"
)

// stepper drives one router's circuit with synthetic observations: before
// cycle at it observes before[r], from at on after[r].
type stepper struct {
	c             *Circuit
	before, after fabric.Observation
	at            clock.Cycle
}

func (s *stepper) Name() string { return s.c.Name() }
func (s *stepper) Tick(now clock.Cycle) {
	if now < s.at {
		s.c.Step(now, s.before)
	} else {
		s.c.Step(now, s.after)
	}
}

// TestCircuitStepResponse: after every router's observation steps from one
// value to another at cycle t0, each router's readout holds exactly the new
// network-wide sums from t0 + its analytical delay on, and not a cycle
// earlier; the largest delay is the circuit's worst case (4 floor(k/2) hops
// on a k x k grid, twice the tree height on the spanning tree). Checked on
// tori and meshes of several sizes, on fat-trees, with lane latencies 1 and 2,
// under the serial and sharded executors.
func TestCircuitStepResponse(t *testing.T) {
	type tc struct {
		topo  topology.Topology
		shape CircuitShape
		worst func(lat int) int
	}
	var cases []tc
	for _, k := range []int{2, 3, 4, 5, 8, 9, 16, 32} {
		torus, _ := grid.NewTorus(k)
		mesh, _ := grid.NewMesh(k, 1)
		grid := func(lat int) int { return 4 * (k / 2) * lat }
		cases = append(cases, tc{torus, ShapeGrid, grid}, tc{mesh, ShapeGrid, grid}, tc{torus, ShapeTree, nil})
	}
	for _, n := range []int{2, 3} {
		ft, _ := fattree.NewFatTree(4, n)
		cases = append(cases, tc{ft, ShapeTree, nil})
	}
	conc, _ := grid.NewMesh(4, 3)
	cases = append(cases, tc{conc, ShapeGrid, func(lat int) int { return 8 * lat }})
	// Trees over links of unequal latency: the dragonfly's deepest
	// router is a local, a global and a local hop from the root, so the
	// worst case is twice that, the global hop 4 cycles longer.
	df, hx, fromFile := policytest.LongLinkTopologies(t)
	cases = append(cases, tc{df, ShapeTree, func(lat int) int { return 2 * (3*lat + 4) }}, tc{hx, ShapeTree, func(lat int) int { return 2 * 2 * lat }},
		tc{fromFile, ShapeTree, nil})
	for _, c := range cases {
		for _, lat := range []int{1, 2} {
			for _, exec := range []actor.Kind{actor.Serial, actor.Shards} {
				t.Run(fmt.Sprintf("%s/%s/lat%d/%s", c.topo, c.shape, lat, exec), func(t *testing.T) {
					checkStep(t, c.topo, c.shape, lat, exec, c.worst)
				})
			}
		}
	}
}

func checkStep(t *testing.T, topo topology.Topology, shape CircuitShape, lat int, exec actor.Kind, worst func(int) int) {
	net := policytest.IdleNetwork(t, topo)
	cs, err := BuildCircuit(context.Background(), net, CircuitConfig{Shape: shape, Mode: link.Dedicated, LatencyCycles: lat})
	if err != nil {
		t.Fatal(err)
	}
	w := cs.WorstDelayCycles()
	if worst != nil && w != worst(lat) {
		t.Fatalf("analytical worst case %d, want %d", w, worst(lat))
	}
	rng := rand.New(rand.NewPCG(uint64(topo.Routers()), uint64(lat)))
	t0 := clock.Cycle(2*w + 7)
	acts := make([]actor.Actor, len(cs.Routers))
	var want, old Counts
	for r, c := range cs.Routers {
		// The injection share is left out of the counts by default.
		b := fabric.Observation{Valid: 1 + rng.IntN(12), ValidInj: rng.IntN(3)}
		b.Active = rng.IntN(b.Valid + 1)
		b.Valid += b.ValidInj
		a := fabric.Observation{Valid: b.Valid + 1 + rng.IntN(5), ValidInj: b.ValidInj}
		a.Active = b.Active + 1 + rng.IntN(a.Valid-b.Valid)
		acts[r] = &stepper{c: c, before: b, after: a, at: t0}
		want = want.add(Counts{int32(a.Valid - a.ValidInj), int32(a.Active)})
		old = old.add(Counts{int32(b.Valid - b.ValidInj), int32(b.Active)})
	}
	firstExact := make([]clock.Cycle, len(cs.Routers))
	for r := range firstExact {
		firstExact[r] = -1
	}
	hook := func(next clock.Cycle) bool {
		now := next - 1
		for r, c := range cs.Routers {
			got := c.Readout()
			if now == t0-1 && got != old {
				t.Errorf("%s: settled readout %v before the step, want %v", c.Name(), got, old)
			}
			if now >= t0 {
				if got == want {
					if firstExact[r] < 0 {
						firstExact[r] = now
					}
				} else if firstExact[r] >= 0 {
					t.Errorf("%s: readout left the total at cycle %d", c.Name(), now)
				}
			}
		}
		return false
	}
	if _, err := actor.Run(context.Background(), exec, 3, actor.Spec{Actors: acts, To: t0 + clock.Cycle(2*w+5), Chunk: 1, Hook: hook}); err != nil {
		t.Fatal(err)
	}
	measuredWorst := 0
	for r, c := range cs.Routers {
		d := int(firstExact[r] - t0)
		if firstExact[r] < 0 || d != c.DelayCycles() {
			t.Errorf("%s: readout exact %d cycles after the step, analytical %d", c.Name(), d, c.DelayCycles())
		}
		measuredWorst = max(measuredWorst, d)
	}
	if measuredWorst != w {
		t.Errorf("measured worst delay %d, analytical %d", measuredWorst, w)
	}
}

// TestCircuitStealsOnlyIdleCycles: in steal mode, under heavy traffic, no
// circuit value crosses a link in a cycle in which that link carried a
// flit; the circuit was actually held back, and once the traffic drains
// every router reads exactly zero again.
func TestCircuitStealsOnlyIdleCycles(t *testing.T) {
	topo, _ := grid.NewTorus(8)
	srcs := make([]fabric.Source, topo.Nodes())
	for i := range srcs {
		srcs[i] = &bursty{dst: (i*37 + 11) % topo.Nodes(), left: 60}
	}
	net, err := vc.Build(context.Background(), topo, vc.Config{Routing: testRouting("dor-dateline"), VCs: 3, BufferFlits: 16, RoutingDelayCycles: 1,
		LinkLatencyCycles: 1, CreditLatencyCycles: 1, MaxPacketFlits: 8}, srcs, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := BuildCircuit(context.Background(), net, CircuitConfig{Shape: ShapeGrid, Mode: link.Steal, LatencyCycles: 1})
	if err != nil {
		t.Fatal(err)
	}
	acts, units := net.Actors()
	var both, ctrl, busy int
	count := make([]int32, 3)
	hook := func(next clock.Cycle) bool {
		for i := range cs.lanes {
			l := &cs.lanes[i]
			sent := false
			l.InTransit(next, func(*Counts) { sent = true })
			clear(count)
			cs.wires[i].CountInTransit(next, count, nil)
			flit := count[0]+count[1]+count[2] > 0
			if sent {
				ctrl++
			}
			if flit {
				busy++
			}
			if sent && flit {
				both++
			}
		}
		return false
	}
	if _, err := actor.Run(context.Background(), actor.Shards, 2, actor.Spec{Actors: acts, Units: units, To: 3000, Chunk: 1, Hook: hook}); err != nil {
		t.Fatal(err)
	}
	var withheld uint64
	for _, c := range cs.Routers {
		withheld += c.Withheld
		if got := c.Readout(); got != (Counts{}) {
			t.Errorf("%s reads %v on a drained network", c.Name(), got)
		}
	}
	if both != 0 {
		t.Fatalf("%d link-cycles carried a flit and a circuit value", both)
	}
	if withheld == 0 || busy == 0 || ctrl == 0 {
		t.Fatalf("steal mode untested: %d values withheld, %d busy link-cycles, %d circuit link-cycles", withheld, busy, ctrl)
	}
	t.Logf("%d busy link-cycles, %d circuit values sent, %d withheld", busy, ctrl, withheld)
}

// bursty queues left packets of 8 flits to dst at cycle 0.
type bursty struct{ dst, left int }

func (b *bursty) Generate(now clock.Cycle, q *fabric.SourceQueue) clock.Cycle {
	for ; b.left > 0; b.left-- {
		q.Push(now, b.dst, 8, 0)
	}
	return clock.Never
}

// TestEccentricityRepresentatives: where a topology names routers whose
// eccentricities stand for all (a HyperX, a palmtree dragonfly), every
// router's eccentricity is its representative's, and the tree circuit's
// root is the one the search over every router finds.
func TestEccentricityRepresentatives(t *testing.T) {
	var topos []topology.Topology
	for _, q := range [][4]int{{2, 2, 1, 1}, {3, 2, 2, 2}, {4, 3, 1, 1}, {5, 2, 1, 3}, {3, 4, 1, 1}} {
		hx, err := hyperx.NewHyperX(q[0], q[1], q[2], q[3])
		if err != nil {
			t.Fatal(err)
		}
		topos = append(topos, hx)
	}
	for _, q := range [][4]int{{1, 2, 1, 0}, {2, 4, 2, 0}, {1, 4, 2, 5}, {2, 3, 2, 4}, {1, 6, 3, 7}, {1, 4, 1, 3}} {
		for _, arr := range []dragonfly.Arrangement{dragonfly.Palmtree, dragonfly.Consecutive} {
			df, err := dragonfly.NewDragonfly(q[0], q[1], q[2], q[3], arr, 0)
			if err != nil {
				t.Fatal(err)
			}
			topos = append(topos, df)
		}
	}
	for _, q := range [][5]int{{1, 1, 1, 2, 3}, {2, 3, 2, 2, 5}, {1, 2, 2, 3, 4}} {
		d, err := dragonflyplus.New(q[0], q[1], q[2], q[3], q[4])
		if err != nil {
			t.Fatal(err)
		}
		topos = append(topos, d)
	}
	for _, topo := range topos {
		nr := topo.Routers()
		n := topo.(eccentricityRepresentatives).EccentricityRepresentatives()
		depth := make([]int, nr)
		ecc := make([]int, nr)
		root, best := -1, nr+1
		for r := range ecc {
			ecc[r], _ = hopEccentricity(topo, r, depth)
			if ecc[r] < best {
				root, best = r, ecc[r]
			}
		}
		for r := range ecc {
			if ecc[r] != ecc[r%n] {
				t.Errorf("%s: router %d has eccentricity %d, its representative %d has %d", topo, r, ecc[r], r%n, ecc[r%n])
			}
		}
		if got, err := leastEccentric(context.Background(), topo); err != nil || got != root {
			t.Errorf("%s: root %d (%v), the search over every router finds %d", topo, got, err, root)
		}
	}
}

// testRouting is the registry entry of routing name, whatever its family.
func testRouting(name string) routing.Spec { return routingtest.Named(name) }
