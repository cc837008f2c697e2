package traffic

import (
	"maps"
	"slices"
	"testing"

	"github.com/icnsim/icnsim/clock"
	"github.com/icnsim/icnsim/fabric"
)

// TestFixedPoints counts the nodes every permutation maps onto themselves,
// against counts derived by hand from each pattern's definition.
func TestFixedPoints(t *testing.T) {
	tree := func(n int) Geometry { return Geometry{Nodes: n} }
	grid := func(k, c int) Geometry { return Geometry{Nodes: k * k * c, K: k, C: c} }
	// palindromes of b bits: 2^ceil(b/2)
	pal := func(b int) int { return 1 << ((b + 1) / 2) }
	type fixedCase struct {
		pattern string
		g       Geometry
		want    int
		why     string
	}
	cases := []fixedCase{
		{"transpose", grid(16, 1), 16, "the diagonal x = y"},
		{"transpose", grid(8, 4), 32, "the diagonal's 8 routers, 4 nodes each"},
		{"transpose", tree(256), 16, "addresses whose two 4-bit halves are equal"},
		{"transpose", tree(1024), 32, "addresses whose two 5-bit halves are equal"},
		{"butterfly", tree(64), 32, "most and least significant bits equal: half the nodes"},
		{"butterfly", tree(256), 128, "half the nodes"},
		{"shuffle", tree(256), 2, "rotation by one bit: all zeros and all ones"},
		{"bit-rotation", tree(64), 2, "all zeros and all ones"},
		{"bit-reverse", tree(256), pal(8), "8-bit palindromes"},
		{"bit-reverse", tree(64), pal(6), "6-bit palindromes"},
		{"bit-reverse", grid(16, 2), pal(9), "9-bit palindromes"},
		{"bit-complement", tree(256), 0, "no bit equals its complement"},
		{"tornado", grid(16, 1), 0, "W + k/2 mod k^2 never returns W"},
		{"neighbour", grid(16, 1), 0, "x + 1 mod k never returns x"},
		{"centre-reflection", grid(16, 1), 0, "k-1-x = x has no solution for k even"},
		{"centre-reflection", grid(5, 3), 3, "the centre router (2,2) of an odd grid, 3 nodes"},
		{"centre-reflection-k", grid(16, 1), 4, "x, y in {0, 8}: (0,0), (0,8), (8,0), (8,8)"},
		{"centre-reflection-k", grid(5, 1), 1, "x = y = 0 only (k/2 is not a coordinate)"},
		{"pod-shift", Geometry{Nodes: 64, Groups: 4, GroupNodes: 16}, 0, "n + N/k mod N never returns n"},
	}
	for _, c := range cases {
		fixed, err := FixedPoints(c.pattern, c.g, PatternParams{})
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, f := range fixed {
			n += int(b2i(f))
		}
		if n != c.want {
			t.Errorf("%s on %d nodes (k=%d): %d fixed points, want %d (%s)", c.pattern, c.g.Nodes, c.g.K, n, c.want, c.why)
		}
	}
	// Every registered permutation is covered above, random-pair aside.
	for name, spec := range Patterns() {
		if spec.Permutes && name != "random-pair" && !slices.ContainsFunc(cases, func(c fixedCase) bool { return c.pattern == name }) {
			t.Errorf("permutation %q has no fixed-point case", name)
		}
	}
	// random-pair: the fixed points of its permutation; patterns that are
	// not permutations have none to report.
	g := tree(64)
	fixed, _ := FixedPoints("random-pair", g, PatternParams{Seed: 3})
	p, _ := NewPattern("random-pair", g, PatternParams{Seed: 3})
	for s := range fixed {
		if fixed[s] != (p.Dest(s, nil) == s) {
			t.Errorf("random-pair: node %d fixed %v", s, fixed[s])
		}
	}
	if f, err := FixedPoints("uniform", g, PatternParams{}); f != nil || err != nil {
		t.Errorf("uniform: fixed points %v, %v; want none", f, err)
	}
}

func b2i(b bool) int8 {
	if b {
		return 1
	}
	return 0
}

// drawDests runs node src's source for cycles cycles and returns how many
// packets it sent to each node (the queue is emptied every cycle).
func drawDests(t *testing.T, c Config, g Geometry, src, cycles int) []int {
	t.Helper()
	srcs, err := New(c, g, 11)
	if err != nil {
		t.Fatal(err)
	}
	counts := make([]int, g.Nodes)
	var q fabric.SourceQueue
	next := clock.Cycle(0)
	for now := clock.Cycle(0); now < clock.Cycle(cycles); now++ {
		if now >= next {
			next = srcs[src].Generate(now, &q)
		}
		for q.Len() > 0 {
			counts[q.Pop().Dst]++
		}
	}
	return counts
}

// TestSelfModes checks what each choice does with a permutation's fixed
// point, and that uniform traffic picks the source only under loopback.
func TestSelfModes(t *testing.T) {
	g := Geometry{Nodes: 16} // transpose swaps 2-bit halves: 0, 5, 10, 15 are fixed
	base := Config{Pattern: "transpose", Process: "saturation", PacketFlits: 4}
	for _, c := range []struct {
		self   SelfMode
		silent bool // node 5 never sends
		toSelf bool // node 5 sends to itself
	}{{SelfLoopback, false, true}, {SelfSkip, true, false}, {SelfRedraw, false, false}} {
		cfg := base
		cfg.Self = c.self
		counts := drawDests(t, cfg, g, 5, 3000)
		total := 0
		for _, n := range counts {
			total += n
		}
		if (total == 0) != c.silent || (counts[5] > 0) != c.toSelf {
			t.Errorf("self = %s: node 5 sent %d packets, %d to itself", c.self, total, counts[5])
		}
		if c.self == SelfRedraw {
			for d, n := range counts {
				if d != 5 && (n < 3000/15/2 || n > 3000/15*2) {
					t.Errorf("redraw: node 5 sent %d of %d packets to node %d, want about %d (uniform over the other 15)", n, total, d, total/15)
				}
			}
		}
		silent, err := Silent(cfg, g, 11)
		if err != nil {
			t.Fatal(err)
		}
		want := []bool(nil)
		if c.self == SelfSkip {
			want = make([]bool, 16)
			want[0], want[5], want[10], want[15] = true, true, true, true
		}
		if !slices.Equal(silent, want) {
			t.Errorf("self = %s: silent nodes %v, want %v", c.self, silent, want)
		}
		// A non-fixed node sends to its image only, whatever the choice.
		if counts := drawDests(t, cfg, g, 1, 200); counts[4] != 200 {
			t.Errorf("self = %s: node 1 sent %d of 200 packets to transpose(1) = 4", c.self, counts[4])
		}
	}
	// Uniform: the source is picked under loopback only; skip and redraw
	// spread over the 15 others.
	for _, self := range []SelfMode{SelfLoopback, SelfSkip, SelfRedraw} {
		cfg := Config{Pattern: "uniform", Process: "saturation", PacketFlits: 4, Self: self}
		counts := drawDests(t, cfg, g, 7, 4800)
		if (counts[7] > 0) != (self == SelfLoopback) {
			t.Errorf("uniform, self = %s: %d packets to the source", self, counts[7])
		}
		for d, n := range counts {
			if d != 7 && (n < 4800/16/2 || n > 4800/15*2) {
				t.Errorf("uniform, self = %s: %d packets to node %d", self, n, d)
			}
		}
	}
	// A random pattern that always draws the source (the hot spot's own
	// node) falls back to another node under skip.
	cfg := Config{Pattern: "hotspot", Process: "saturation", PacketFlits: 4, Self: SelfSkip,
		PatternParams: PatternParams{HotspotFraction: 1, HotspotNode: 3}}
	if counts := drawDests(t, cfg, g, 3, 500); counts[3] != 0 {
		t.Errorf("hotspot fraction 1, skip: the hot node sent %d packets to itself", counts[3])
	}
	// With a phase change, a node fixed in one phase only is not silent; it
	// sends nothing while the permutation that fixes it is in force.
	cfg = Config{Pattern: "transpose", PhasePattern: "bit-complement", PhaseCycle: 1000, Process: "saturation", PacketFlits: 4, Self: SelfSkip}
	if silent, _ := Silent(cfg, g, 11); silent != nil {
		t.Errorf("phase change: silent nodes %v, want none (bit-complement has no fixed point)", silent)
	}
	if counts := drawDests(t, cfg, g, 5, 2000); counts[5] != 0 || counts[10] != 1000 {
		t.Errorf("phase change, skip: node 5 sent %d to itself and %d to its complement 10 (want 0 and 1000)", counts[5], counts[10])
	}
}

// TestBoundedSourceQueue checks that a bounded queue never holds more than
// its bound, that an arrival waiting outside it enters in the first cycle
// with room and is stamped with that cycle, and that the process pauses
// meanwhile (no arrival is lost or counted twice).
func TestBoundedSourceQueue(t *testing.T) {
	g := Geometry{Nodes: 16}
	for _, process := range []string{"bernoulli", "poisson", "ramp"} {
		c := Config{Pattern: "uniform", Process: process, LoadFlits: 1, PacketFlits: 2, QueuePackets: 3, RampCycles: 100}
		srcs, err := New(c, g, 5)
		if err != nil {
			t.Fatal(err)
		}
		var q fabric.SourceQueue
		next := clock.Cycle(0)
		entered, drained := 0, 0
		for now := clock.Cycle(0); now < 20000; now++ {
			before := q.Len()
			if now >= next {
				next = srcs[0].Generate(now, &q)
			}
			entered += q.Len() - before
			if q.Len() > 3 {
				t.Fatalf("%s: %d packets queued at cycle %d, bound 3", process, q.Len(), now)
			}
			for i := before; i < q.Len(); i++ {
				if p := q.Peek(i); p.Gen != int64(now) {
					t.Fatalf("%s: packet entering at cycle %d stamped %d", process, now, p.Gen)
				}
			}
			if now%8 == 0 && q.Len() > 0 { // the network takes one packet every 8 cycles
				q.Pop()
				drained++
			}
		}
		// The queue is drained at 1/8 packet per cycle, a quarter of the
		// offered 1/2: it stays full, so about 2,500 packets enter.
		if drained < 2490 || entered-drained > 3 || entered-drained < 0 {
			t.Errorf("%s: %d entered, %d drained, want the queue's rate (about 2,500) and at most 3 left", process, entered, drained)
		}
	}
	if err := Check(Config{Pattern: "uniform", Process: "collective", PacketsPerNode: 1, PacketFlits: 2, QueuePackets: 3}, g); err == nil {
		t.Error("a bounded queue under the collective process was accepted")
	}
}

// TestSelfModesEveryPermutation checks, for every registered permutation
// on a network where it has fixed points (where it has any), what each
// choice does at every node, a node being fixed where the pattern maps it
// onto itself: under loopback a fixed point sends every packet to itself;
// under skip it sends nothing and it, and no other node, is reported
// silent; under redraw it sends to other nodes only; and every other node
// sends every packet to its image under every choice.
func TestSelfModesEveryPermutation(t *testing.T) {
	geometries := []Geometry{{Nodes: 64}, {Nodes: 75, K: 5, C: 3}, {Nodes: 256, K: 16, C: 1}, {Nodes: 64, Groups: 4, GroupNodes: 16}}
	// The permutations with no fixed point on any of these networks.
	noFixedPoint := []string{"bit-complement", "neighbour", "pod-shift", "tornado"}
	const cycles = 60
	names := slices.Sorted(maps.Keys(Patterns()))
	for _, name := range names {
		if !Patterns()[name].Permutes {
			continue
		}
		t.Run(name, func(t *testing.T) {
			params := PatternParams{Seed: 11} // the sources' seed: random-pair's permutation
			var g Geometry
			var p Pattern
			var fixed []bool
			for _, cand := range geometries {
				pc, err := NewPattern(name, cand, params)
				if err != nil {
					continue
				}
				f := make([]bool, cand.Nodes)
				for n := range f {
					f[n] = pc.Dest(n, nil) == n
				}
				if p == nil || slices.Contains(f, true) && !slices.Contains(fixed, true) {
					g, p, fixed = cand, pc, f
				}
			}
			if p == nil {
				t.Fatalf("no geometry of %v takes %s", geometries, name)
			}
			if hasFixed := slices.Contains(fixed, true); hasFixed == slices.Contains(noFixedPoint, name) {
				t.Fatalf("%s on %d nodes: fixed points %v, listed as having none: %v", name, g.Nodes, hasFixed, !hasFixed)
			}
			for _, self := range []SelfMode{SelfLoopback, SelfSkip, SelfRedraw} {
				cfg := Config{Pattern: name, Process: "saturation", PacketFlits: 4, Self: self, PatternParams: params}
				silent, err := Silent(cfg, g, 11)
				if err != nil {
					t.Fatal(err)
				}
				wantSilent := self == SelfSkip && slices.Contains(fixed, true)
				if (silent != nil) != wantSilent || wantSilent && !slices.Equal(silent, fixed) {
					t.Errorf("self = %s on %d nodes: silent %v, fixed points %v", self, g.Nodes, silent, fixed)
				}
				for n := range g.Nodes {
					counts := drawDests(t, cfg, g, n, cycles)
					total := 0
					for _, c := range counts {
						total += c
					}
					switch {
					case !fixed[n] && counts[p.Dest(n, nil)] != cycles,
						fixed[n] && self == SelfLoopback && counts[n] != cycles,
						fixed[n] && self == SelfSkip && total != 0,
						fixed[n] && self == SelfRedraw && (counts[n] != 0 || total != cycles):
						t.Errorf("self = %s: node %d (fixed %v, image %d) sent %d packets, %d to itself", self, n, fixed[n], p.Dest(n, nil), total, counts[n])
					}
				}
			}
		})
	}
}
