package sat

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"unsafe"

	"github.com/icnsim/icnsim/actor"
	"github.com/icnsim/icnsim/clock"
	"github.com/icnsim/icnsim/internal/policytest"
	"github.com/icnsim/icnsim/topology"
	"github.com/icnsim/icnsim/topology/fattree"
	"github.com/icnsim/icnsim/topology/grid"
)

// hamiltonian is the paper's H(n) = 2k + k H(n-1), H(0) = 0.
func hamiltonian(k, n int) int {
	if n == 0 {
		return 0
	}
	return 2*k + k*hamiltonian(k, n-1)
}

// TestSATIdleInterval: in an idle network every node receives the signal
// exactly every I cycles, with I the package doc's formulas, derived
// independently of the layout: H(n) L + N d on a k-ary n-tree (232 for
// the 4-ary 3-tree), (K^2 + 2N) L + N d on the grids' ring, 2 D L + d on
// the trees with D = n or 2 floor(K/2) + 1; and the signal is conserved
// every cycle (Protocol.Check).
func TestSATIdleInterval(t *testing.T) {
	ft := func(k, n int) topology.Topology { f, _ := fattree.NewFatTree(k, n); return f }
	torus := func(k int) topology.Topology { g, _ := grid.NewTorus(k); return g }
	mesh := func(k, c int) topology.Topology { g, _ := grid.NewMesh(k, c); return g }
	grid := func(t topology.Topology) *grid.Grid2D { return t.(*grid.Grid2D) }
	ringFT := func(k, n, L, d int) int { return hamiltonian(k, n)*L + pow(k, n)*d }
	ringGrid := func(t topology.Topology, L, d int) int {
		g := grid(t)
		return (g.K*g.K+2*g.Nodes())*L + g.Nodes()*d
	}
	treeGrid := func(t topology.Topology, L, d int) int { return 2*(2*(grid(t).K/2)+1)*L + d }
	df, hx, _ := policytest.LongLinkTopologies(t)
	cases := []struct {
		topo topology.Topology
		tree bool
		L, d int
		want int
	}{
		{ft(4, 1), false, 1, 1, 8 + 4},
		{ft(4, 2), false, 1, 1, 40 + 16},
		{ft(4, 3), false, 1, 1, 232}, // the paper's 232 cycles
		{ft(4, 4), false, 1, 1, 936}, // the paper's 936
		{ft(4, 5), false, 1, 1, 3752},
		{ft(2, 3), false, 2, 3, ringFT(2, 3, 2, 3)},
		{ft(3, 2), false, 1, 0, ringFT(3, 2, 1, 0)},
		{ft(4, 2), true, 1, 1, 2*2 + 1},
		{ft(4, 3), true, 1, 1, 2*3 + 1},
		{ft(4, 4), true, 1, 1, 2*4 + 1}, // the paper's 9
		{ft(4, 5), true, 1, 1, 2*5 + 1}, // the paper's 11
		{ft(4, 3), true, 3, 2, 2*3*3 + 2},
		{torus(4), false, 1, 1, 4 * 16},
		{torus(5), false, 1, 1, 4 * 25},
		{torus(3), false, 2, 1, ringGrid(torus(3), 2, 1)},
		{mesh(4, 1), false, 1, 1, ringGrid(mesh(4, 1), 1, 1)},
		{mesh(4, 4), false, 1, 2, ringGrid(mesh(4, 4), 1, 2)},
		{mesh(6, 2), false, 3, 1, ringGrid(mesh(6, 2), 3, 1)},
		{torus(4), true, 1, 1, treeGrid(torus(4), 1, 1)},
		{torus(5), true, 2, 1, treeGrid(torus(5), 2, 1)},
		{mesh(5, 1), true, 1, 1, treeGrid(mesh(5, 1), 1, 1)},
		{mesh(4, 4), true, 1, 3, treeGrid(mesh(4, 4), 1, 3)},
		// The walk around a BFS spanning tree (every tree link down and
		// up: 2(R-1) router and 2N node hops) and that tree. The balanced
		// 72-node dragonfly's tree crosses g-1 = 8 global links, each 4
		// cycles longer; its deepest node is a local, a global, a local
		// and a node hop from the root. The 4x4 HyperX's, two hops and a
		// node hop.
		{df, false, 1, 1, (2*35+2*72)*1 + 2*8*4 + 72*1},
		{df, false, 2, 0, (2*35+2*72)*2 + 2*8*4},
		{df, true, 1, 1, 2*(4*1+4) + 1},
		{df, true, 2, 3, 2*(4*2+4) + 3},
		{hx, false, 1, 1, (2*15+2*32)*1 + 32*1},
		{hx, true, 1, 2, 2*3*1 + 2},
	}
	for _, c := range cases {
		p := Params{L: 2, K: 2, Tree: c.tree}
		name := fmt.Sprintf("%s/%s/L%d/d%d", c.topo, p.Structure(), c.L, c.d)
		t.Run(name, func(t *testing.T) {
			net := policytest.IdleNetwork(t, c.topo)
			sat, err := Install(net, p, Config{HopLatencyCycles: c.L, NodeLatencyCycles: c.d})
			if err != nil {
				t.Fatal(err)
			}
			if sat.IdleIntervalCycles != c.want {
				t.Errorf("analytical idle interval %d cycles, formula gives %d", sat.IdleIntervalCycles, c.want)
			}
			var checkErr error
			hook := func(next clock.Cycle) bool {
				if err := sat.Check(next); err != nil {
					checkErr = err
					return true
				}
				return false
			}
			acts, units := net.Actors()
			if _, err := actor.Run(context.Background(), actor.Serial, 1, actor.Spec{Actors: acts, Units: units, To: clock.Cycle(3*c.want + 50), Chunk: 1, Hook: hook}); err != nil {
				t.Fatal(err)
			}
			if checkErr != nil {
				t.Fatal(checkErr)
			}
			for n, g := range sat.Gates {
				if g.WinIntervals < 2 || g.WinMinCycles != uint64(c.want) || g.WinMaxCycles != uint64(c.want) || g.WinIntervals != g.Intervals {
					t.Fatalf("NI %d: %d intervals of %d..%d cycles, want every one %d", n, g.WinIntervals, g.WinMinCycles, g.WinMaxCycles, c.want)
				}
			}
		})
	}
}

func pow(k, n int) int {
	p := 1
	for range n {
		p *= k
	}
	return p
}

// TestSATRingVisitsNodesInOrder: on a fat-tree the ring goes from node i
// to node i+1, and through root switch 0's down-tree only.
func TestSATRingVisitsNodesInOrder(t *testing.T) {
	f, _ := fattree.NewFatTree(4, 3)
	lay, err := laySAT(f, false, unitHop)
	if err != nil {
		t.Fatal(err)
	}
	R := f.Routers()
	var nodes []int
	for _, h := range lay.hops {
		if h.to >= R {
			nodes = append(nodes, h.to-R)
		}
		for _, e := range []int{h.from, h.to} {
			if e >= R {
				continue
			}
			if l, s := f.Switch(e); s%pow(4, l) != 0 {
				t.Fatalf("ring passes %s, outside root 0's down-tree", f.RouterName(e))
			}
		}
	}
	for i, n := range nodes {
		if n != (i+1)%64 {
			t.Fatalf("ring visits node %d in place %d, want %d", n, i, (i+1)%64)
		}
	}
}

// TestSATBadInput: bad SAT parameters and structures give one clear error.
func TestSATBadInput(t *testing.T) {
	def := Params{}
	for _, c := range []struct{ in, want string }{
		{"sat(16,12,ring)", "l = 16 > k = 12"},
		{"sat(0,4)", "allowed 1 <= l <= k"},
		{"sat(4,0,tree)", "allowed 1 <= l <= k"},
		{"sat(4)", "needs both thresholds"},
		{"sat", "allowed 1 <= l <= k"}, // bare: from the defaults, here zero
		{"sat(4,4,star)", "unknown structure \"star\""},
		{"sat(4,4,rign)", "did you mean \"ring\""},
		{"sat(4,4,x1)", "not a whole number"},
		{"sat(1,1000001,ring)", "k = 1000001"},
		{"sat(l=4,k=4,ring,tree)", "structure is given twice"},
		{"sat(l=4,l=5,k=6)", "l is given twice"},
		{"sat(m=4,k=4)", "unknown argument \"m\""},
		{"sat(1,2,3)", "too many numbers"},
		{"sat(2.5,4)", "not a whole number"},
	} {
		_, _, err := Parse(c.in, def)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.in, err, c.want)
		}
	}
	for _, in := range []string{"sat(12,16,ring)", "sat(l=2,k=2,tree)", "sat(k=16, l=12)", "sat(4,4)"} {
		if _, args, err := Parse(in, def); err != nil || !args {
			t.Errorf("%s: %v (arguments read: %v)", in, err, args)
		}
	}
	if p, _, _ := Parse("sat(k=16,l=12,tree)", def); p.String() != "sat(12,16,tree)" {
		t.Errorf("String = %s", p.String())
	}
	m, _ := grid.NewMesh(5, 1)
	if err := Check(m, Params{L: 2, K: 2}, Config{HopLatencyCycles: 1, NodeLatencyCycles: 1}); err == nil || !strings.Contains(err.Error(), "has none") {
		t.Errorf("ring on a 5x5 mesh: %v", err)
	}
	if err := Check(m, Params{L: 2, K: 2, Tree: true}, Config{HopLatencyCycles: 1, NodeLatencyCycles: 1}); err != nil {
		t.Errorf("tree on a 5x5 mesh: %v", err)
	}
	if err := Check(m, Params{L: 2, K: 2, Tree: true}, Config{HopLatencyCycles: 0, NodeLatencyCycles: 1}); err == nil {
		t.Error("hop latency 0 accepted")
	}
}

// TestSATBytesCountsTheLayout: the estimate's hop count is the layout's.
func TestSATBytesCountsTheLayout(t *testing.T) {
	ft, _ := fattree.NewFatTree(4, 4)
	tor, _ := grid.NewTorus(6)
	mesh, _ := grid.NewMesh(4, 3)
	for _, topo := range []topology.Topology{ft, tor, mesh} {
		for _, tree := range []bool{false, true} {
			lay, err := laySAT(topo, tree, unitHop)
			if err != nil {
				t.Fatal(err)
			}
			p := Params{L: 1, K: 1, Tree: tree}
			got := Bytes(topo, p)
			rest := int64(topo.Nodes())*int64(unsafe.Sizeof(Gate{})+8) + int64(topo.Routers())*64
			if hops := (got - rest) / (int64(unsafe.Sizeof(satLane{})) + 48 + 16); hops != int64(len(lay.hops)) {
				t.Errorf("%s %s: estimate counts %d hops, the layout has %d", topo, p.Structure(), hops, len(lay.hops))
			}
		}
	}
}

func unitHop(int, int) int { return 1 }
