package traffic

import (
	"math/rand/v2"
	"testing"

	"github.com/icnsim/icnsim/clock"
	"github.com/icnsim/icnsim/router"
)

func TestPermutations(t *testing.T) {
	g := Geometry{Nodes: 64, K: 8, C: 1}
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
			var q router.SourceQueue
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
