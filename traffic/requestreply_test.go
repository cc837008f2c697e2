package traffic

import (
	"math/rand/v2"
	"testing"
)

// TestReachOf: every destination a source draws is among its To, To and
// From are each other's inverse, a skipped fixed point reaches nothing and
// a redrawn one every other node, and patterns without a rule reach every
// node (their superset).
func TestReachOf(t *testing.T) {
	grid := Geometry{Nodes: 16, K: 4, C: 1}
	df := Geometry{Nodes: 72, Groups: 9, GroupNodes: 8}
	for _, c := range []struct {
		name    string
		g       Geometry
		pattern string
		self    SelfMode
		reaches func(s, d int) bool // nil: check draws and inverses only
	}{
		{"uniform loopback", grid, "uniform", SelfLoopback, func(int, int) bool { return true }},
		{"uniform skip", grid, "uniform", SelfSkip, func(s, d int) bool { return s != d }},
		{"transpose skip", grid, "transpose", SelfSkip, func(s, d int) bool { return s%4 != s/4 && d == s%4*4+s/4 }},
		{"transpose redraw", grid, "transpose", SelfRedraw, func(s, d int) bool {
			if s%4 == s/4 {
				return d != s
			}
			return d == s%4*4+s/4
		}},
		{"group shift", df, "group-shift", SelfLoopback, func(s, d int) bool { return d/8 == (s/8+1)%9 }},
		{"hotspot", grid, "hotspot", SelfLoopback, func(int, int) bool { return true }},
	} {
		cfg := Config{Pattern: c.pattern, Self: c.self, PatternParams: PatternParams{HotspotFraction: 0.5, HotspotNode: -1}}
		r, err := ReachOf(cfg, c.g, 1)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		to := map[[2]int]bool{}
		for s := range c.g.Nodes {
			r.To(s, func(d int) { to[[2]int{s, d}] = true })
		}
		from := map[[2]int]bool{}
		for d := range c.g.Nodes {
			r.From(d, func(s int) { from[[2]int{s, d}] = true })
		}
		for s := range c.g.Nodes {
			for d := range c.g.Nodes {
				if want := c.reaches(s, d); to[[2]int{s, d}] != want || from[[2]int{s, d}] != want {
					t.Errorf("%s: %d -> %d: To %v, From %v, want %v", c.name, s, d, to[[2]int{s, d}], from[[2]int{s, d}], want)
				}
			}
		}
		pat, err := NewPattern(c.pattern, c.g, cfg.PatternParams)
		if err != nil {
			t.Fatal(err)
		}
		src := &source{node: 0, nodes: c.g.Nodes, cfg: &cfg, pat: pat, permutes: Patterns()[c.pattern].Permutes, rng: rand.New(rand.NewPCG(3, 4))}
		for s := range c.g.Nodes {
			src.node = s
			for range 200 {
				if d, ok := src.dest(0); ok && !to[[2]int{s, d}] {
					t.Fatalf("%s: node %d drew %d, outside its reach", c.name, s, d)
				}
			}
		}
	}
}
