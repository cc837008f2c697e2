package traffic

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/icnsim/icnsim/clock"
	"github.com/icnsim/icnsim/fabric"
)

func TestPermutations(t *testing.T) {
	g := Geometry{Nodes: 64, K: 8, C: 1, Groups: 4, GroupNodes: 16} // a grid's, and a 4-ary 3-tree's pods
	cases := []struct {
		name     string
		src, dst int
	}{
		{"transpose", 1*8 + 2, 2*8 + 1}, // (2,1) -> (1,2)
		{"shuffle", 0b100101, 0b001011},
		{"bit-complement", 0b100101, 0b011010},
		{"bit-reverse", 0b100110, 0b011001},
		{"bit-rotation", 0b100101, 0b110010},
		{"tornado", 3, 7},  // W + k/2
		{"tornado", 60, 0}, // mod k^2
		{"centre-reflection", 0, 63},
		{"neighbour", 7, 0}, // (7,0) -> (0,0)
		{"pod-shift", 3, 19},
		{"pod-shift", 50, 2}, // mod N
	}
	for _, c := range cases {
		p, err := NewPattern(c.name, g, PatternParams{})
		if err != nil {
			t.Fatal(err)
		}
		if got := p.Dest(c.src, nil); got != c.dst {
			t.Errorf("%s(%d) = %d, want %d", c.name, c.src, got, c.dst)
		}
	}
	for name, spec := range Patterns() {
		if !spec.Permutes {
			continue
		}
		p, err := NewPattern(name, g, PatternParams{Seed: 9})
		if err != nil {
			t.Fatal(err)
		}
		seen := make([]bool, g.Nodes)
		for s := 0; s < g.Nodes; s++ {
			d := p.Dest(s, nil)
			if seen[d] {
				t.Fatalf("%s is not a permutation: %d hit twice", name, d)
			}
			seen[d] = true
		}
	}
}

func TestTreePatterns(t *testing.T) {
	g := Geometry{Nodes: 64}
	for _, c := range []struct {
		name     string
		src, dst int
	}{
		{"transpose", 0b000111, 0b111000},
		{"transpose", 0b101001, 0b001101},
		{"butterfly", 0b100000, 0b000001},
		{"butterfly", 0b100110, 0b000111},
	} {
		p, err := NewPattern(c.name, g, PatternParams{})
		if err != nil {
			t.Fatal(err)
		}
		if got := p.Dest(c.src, nil); got != c.dst {
			t.Errorf("%s(%06b) = %06b, want %06b", c.name, c.src, got, c.dst)
		}
	}
	if _, err := NewPattern("transpose", Geometry{Nodes: 128}, PatternParams{}); err == nil {
		t.Error("transpose accepted on 2^7 nodes")
	}
	p, _ := NewPattern("hot-region", g, PatternParams{HotRegionFraction: 0.25})
	rng := rand.New(rand.NewPCG(2, 2))
	in := 0
	const n = 100000
	for i := 0; i < n; i++ {
		if p.Dest(9, rng) < 8 {
			in++
		}
	}
	// 25% directly plus 1/8 of the uniform rest.
	if got, want := float64(in)/n, 0.25+0.75/8; got < want-0.01 || got > want+0.01 {
		t.Errorf("hot-region share %.4f, want %.4f", got, want)
	}
}

func TestPatternErrors(t *testing.T) {
	if _, err := NewPattern("bit-reverse", Geometry{Nodes: 36, K: 6, C: 1}, PatternParams{}); err == nil {
		t.Error("bit pattern accepted on 36 nodes")
	}
	if _, err := NewPattern("tornado", Geometry{Nodes: 64}, PatternParams{}); err == nil {
		t.Error("grid pattern accepted without a grid")
	}
	if _, err := NewPattern("hotspot", Geometry{Nodes: 64, K: 8, C: 1}, PatternParams{HotspotFraction: 1.5}); err == nil {
		t.Error("hotspot fraction 1.5 accepted")
	}
	if _, err := NewPattern("hotspot-sources", Geometry{Nodes: 64, K: 8, C: 1}, PatternParams{HotspotSourceFraction: -0.1}); err == nil {
		t.Error("hotspot source fraction -0.1 accepted")
	}
}

// TestHotspotSources: the RECN paper's traffic cases on its configurations
// (#1 16x16x1, #2 8x8x4, #3 4x4x16, #5 4x4x1 with hot-spot node 10): the
// hot sources are round(f x N) nodes, the hot-spot node not among them,
// the same set for the same seed and another for another seed; a hot
// source sends only to the hot spot and the others spread uniformly.
func TestHotspotSources(t *testing.T) {
	for _, tc := range []struct {
		g        Geometry
		fraction float64
		hotNode  int
		want     int
	}{
		{Geometry{Nodes: 256, K: 16, C: 1}, 0.125, 32, 32},
		{Geometry{Nodes: 256, K: 16, C: 1}, 0.25, 32, 64},
		{Geometry{Nodes: 256, K: 8, C: 4}, 0.25, 32, 64},
		{Geometry{Nodes: 256, K: 4, C: 16}, 0.125, 32, 32},
		{Geometry{Nodes: 16, K: 4, C: 1}, 0.25, 10, 4},
		{Geometry{Nodes: 16, K: 4, C: 1}, 1, 10, 15},
		{Geometry{Nodes: 16, K: 4, C: 1}, 0, 10, 0},
	} {
		p := PatternParams{HotspotSourceFraction: tc.fraction, HotspotNode: tc.hotNode, Seed: 7}
		hot := HotSources(tc.g, p)
		n := 0
		for s, h := range hot {
			if h {
				n++
				if s == tc.hotNode {
					t.Errorf("%d nodes, %g: the hot-spot node %d is a hot source", tc.g.Nodes, tc.fraction, s)
				}
			}
		}
		if n != tc.want {
			t.Errorf("%d nodes, %g: %d hot sources, want %d", tc.g.Nodes, tc.fraction, n, tc.want)
		}
		if !slices.Equal(hot, HotSources(tc.g, p)) {
			t.Errorf("%d nodes, %g: two draws with seed 7 differ", tc.g.Nodes, tc.fraction)
		}
		p.Seed = 8
		if other := HotSources(tc.g, p); tc.want > 0 && tc.want < tc.g.Nodes-1 && slices.Equal(hot, other) {
			t.Errorf("%d nodes, %g: seeds 7 and 8 give the same hot sources", tc.g.Nodes, tc.fraction)
		}
	}
	g := Geometry{Nodes: 64, K: 8, C: 1}
	params := PatternParams{HotspotSourceFraction: 0.25, HotspotNode: -1, Seed: 3}
	pat, err := NewPattern("hotspot-sources", g, params)
	if err != nil {
		t.Fatal(err)
	}
	hot, centre := HotSources(g, params), 4*8+4
	rng := rand.New(rand.NewPCG(1, 1))
	for src := range g.Nodes {
		hits := 0
		const n = 2000
		for range n {
			if pat.Dest(src, rng) == centre {
				hits++
			}
		}
		if hot[src] && hits != n {
			t.Errorf("hot source %d sent %d of %d packets to the hot spot", src, hits, n)
		}
		if !hot[src] && hits > n/64*3 {
			t.Errorf("uniform source %d sent %d of %d packets to the hot spot (about %d expected)", src, hits, n, n/64)
		}
	}
}

func TestHotspotShare(t *testing.T) {
	g := Geometry{Nodes: 64, K: 8, C: 1}
	p, _ := NewPattern("hotspot", g, PatternParams{HotspotFraction: 0.25, HotspotNode: -1})
	rng := rand.New(rand.NewPCG(1, 1))
	hits := 0
	const n = 100000
	for i := 0; i < n; i++ {
		if p.Dest(5, rng) == 4*8+4 {
			hits++
		}
	}
	// 25% directly plus 1/64 of the uniform rest.
	want := 0.25 + 0.75/64
	if got := float64(hits) / n; got < want-0.01 || got > want+0.01 {
		t.Errorf("hot-spot share %.4f, want %.4f", got, want)
	}
}

// TestOfferedRate: the processes generate load/size packets per cycle on average.
func TestOfferedRate(t *testing.T) {
	for _, proc := range []string{"bernoulli", "poisson"} {
		for _, load := range []float64{0.05, 0.4, 1.0} {
			srcs, err := New(Config{Pattern: "uniform", Process: proc, LoadFlits: load, PacketFlits: 4}, Geometry{Nodes: 16}, 3)
			if err != nil {
				t.Fatal(err)
			}
			var q fabric.SourceQueue
			const cycles = 200000
			next := clock.Cycle(0)
			got := 0
			for c := clock.Cycle(0); c < cycles; c++ {
				if c >= next {
					before := q.Len()
					next = srcs[0].Generate(c, &q)
					got += q.Len() - before
				}
			}
			rate := float64(got) * 4 / cycles
			if rate < load*0.97 || rate > load*1.03 {
				t.Errorf("%s at %.2f: generated %.4f flits/cycle", proc, load, rate)
			}
		}
	}
}

// TestTinyRates: at any representable rate the next arrival lies ahead,
// never behind now (a gap that overflowed a cycle count came out negative:
// a packet every cycle at 1e-20 flits/node/cycle).
func TestTinyRates(t *testing.T) {
	for _, proc := range []string{"bernoulli", "poisson"} {
		for _, load := range []float64{1e-12, 1e-19, 1e-20, 1e-300, 5e-324} {
			srcs, err := New(Config{Pattern: "uniform", Process: proc, LoadFlits: load, PacketFlits: 4}, Geometry{Nodes: 16}, 3)
			if err != nil {
				t.Fatal(err)
			}
			for n, src := range srcs {
				var q fabric.SourceQueue
				next := src.Generate(0, &q)
				if q.Len() != 0 || next < 1 || next > MaxGapCycles {
					t.Errorf("%s at %g: node %d queued %d packets at cycle 0, next at %d (want none, next in 1..%d)", proc, load, n, q.Len(), next, MaxGapCycles)
				}
			}
		}
	}
}

// TestOnOffBursts: the on-off process offers its load on average, and in
// bursts: counts over windows of 1,000 cycles vary far more than a
// Bernoulli process's at the same load (index of dispersion, variance over
// mean, above 10 where Bernoulli's is below 1), the more so the longer the
// periods; a peak load above 1 is refused.
func TestOnOffBursts(t *testing.T) {
	dispersion := func(c Config) (rate, index float64) {
		srcs, err := New(c, Geometry{Nodes: 16}, 5)
		if err != nil {
			t.Fatal(err)
		}
		var q fabric.SourceQueue
		const cycles, window = 10_000_000, 1000 // about 2,500 ON periods of the longer kind: the rate within 7% is 3 standard deviations
		var counts []float64
		next, got, in := clock.Cycle(0), 0, 0
		for cy := clock.Cycle(0); cy < cycles; cy++ {
			if cy >= next {
				before := q.Len()
				next = srcs[0].Generate(cy, &q)
				got += q.Len() - before
				in += q.Len() - before
			}
			if (cy+1)%window == 0 {
				counts = append(counts, float64(in))
				in = 0
			}
		}
		mean, ss := 0.0, 0.0
		for _, x := range counts {
			mean += x
		}
		mean /= float64(len(counts))
		for _, x := range counts {
			ss += (x - mean) * (x - mean)
		}
		return float64(got) * float64(c.PacketFlits) / cycles, ss / float64(len(counts)-1) / mean
	}
	base := Config{Pattern: "uniform", Process: "bernoulli", LoadFlits: 0.2, PacketFlits: 1}
	_, bern := dispersion(base)
	if bern > 1 {
		t.Errorf("Bernoulli's index of dispersion %.2f", bern)
	}
	prev := 0.0
	for _, period := range []float64{100, 1000} {
		c := base
		c.Process, c.OnCycles, c.OffCycles = "on-off", period, 3*period
		rate, idx := dispersion(c)
		if rate < 0.2*0.93 || rate > 0.2*1.07 {
			t.Errorf("on-off %g/%g: %.4f flits/cycle offered, want 0.2", period, 3*period, rate)
		}
		if idx < 10 || idx <= prev {
			t.Errorf("on-off %g/%g: index of dispersion %.1f (Bernoulli %.2f, shorter periods %.1f)", period, 3*period, idx, bern, prev)
		}
		prev = idx
	}
	c := base
	c.Process, c.OnCycles, c.OffCycles, c.LoadFlits = "on-off", 100, 500, 0.2
	if err := Check(c, Geometry{Nodes: 16}); err == nil || !strings.Contains(err.Error(), "peak load 1.2") {
		t.Errorf("peak load 1.2 accepted: %v", err)
	}
}
