package deadlock

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/icnsim/icnsim/internal/routingtest"
	"github.com/icnsim/icnsim/routing"
	"github.com/icnsim/icnsim/topology"
	"github.com/icnsim/icnsim/topology/grid"
)

// duatoVariant is a hybrid-har or har-dor routing function as the check
// sees it, with the test-only changes that make it unsafe.
type duatoVariant struct {
	name string
	rf   func(h *grid.HAR) routing.Func
}

// withFree is h under free rule f (its router.har.free parameter).
func withFree(h *grid.HAR, f grid.HARFree) *grid.HAR {
	if err := h.Configure(routing.Params{"har.free": f.String()}); err != nil {
		panic(err)
	}
	return h
}

func duatoVariants() []duatoVariant {
	return []duatoVariant{
		{"as shipped", func(h *grid.HAR) routing.Func { return h }},
		{"upper-empty", func(h *grid.HAR) routing.Func { return withFree(h, grid.HARUpperEmpty) }},
		{"all-empty", func(h *grid.HAR) routing.Func { return withFree(h, grid.HARAllEmpty) }},
		{"long messages on C2", func(h *grid.HAR) routing.Func { h.SetVariant(true, false); return h }},
		{"adaptive C1", func(h *grid.HAR) routing.Func { h.SetVariant(false, true); return h }},
		{"adaptive C1, long on C2", func(h *grid.HAR) routing.Func { h.SetVariant(true, true); return h }},
		{"C2 not atomic", func(h *grid.HAR) routing.Func { return &nonAtomic{h} }},
		{"no C1 for short", func(h *grid.HAR) routing.Func { return &noShortEscape{h} }},
	}
}

// TestDuatoStatesMatchReference: the extended graph of the abstract-state
// check is the reference's (referenceDuatoGraph), edge for edge, and the
// two checks give the same result, the same cycle where there is one, on
// meshes of many sizes and concentrations, every VC count the routings
// allow up to 6 (up to 4 on the largest), both routings, every free rule,
// under wormhole (and virtual cut-through where that changes the
// conditions), and the unsafe variants, which the checks reject in each
// of the three ways: a cycle, a non-atomic C2, a missing escape.
func TestDuatoStatesMatchReference(t *testing.T) {
	ctx := context.Background()
	compared, rejected := 0, map[string]int{}
	type net struct {
		name string
		topo topology.Topology
	}
	var nets []net
	for _, name := range []string{"hybrid-har", "har-dor"} {
		for k := 2; k <= 8; k++ {
			for c := 1; c <= 2; c++ {
				if c == 2 && k > 5 {
					continue
				}
				mesh, _ := grid.NewMesh(k, c)
				nets = append(nets, net{name, mesh})
			}
		}
	}
	for k := 2; k <= 9; k++ {
		torus, _ := grid.NewTorus(k)
		nets = append(nets, net{"hybrid-har", torus})
	}
	for _, n := range nets {
		name := n.name
		topo, err := withPorts(n.topo, name, 2)
		if err != nil {
			t.Fatal(err)
		}
		k := topo.(*grid.Grid2D).K
		for vcs := 2; vcs <= 6; vcs++ {
			if routingNamed(name).CheckVCs(topo, vcs) != nil || vcs > 4 && k > 6 {
				continue
			}
			for _, variant := range duatoVariants() {
				if name == "har-dor" && strings.Contains(variant.name, "C2") {
					continue // har-dor has no C2
				}
				wormholes := []bool{true}
				if variant.name == "as shipped" || variant.name == "C2 not atomic" {
					wormholes = append(wormholes, false) // the only condition it changes is atomicity
				}
				for _, wormhole := range wormholes {
					base, err := routing.New(routingNamed(name), topo, vcs)
					if err != nil {
						t.Fatal(err)
					}
					rf := variant.rf(base.(*grid.HAR))
					what := fmt.Sprintf("%s (%s) on %s, %d VCs, wormhole %v", name, variant.name, topo, vcs, wormhole)
					got := compareDuato(t, ctx, topo, rf, vcs, wormhole, what)
					compared++
					if got != nil {
						rejected[variant.name]++
					}
				}
			}
		}
	}
	t.Logf("%d configurations agree; rejected: %v", compared, rejected)
	for _, v := range []string{"adaptive C1", "C2 not atomic", "no C1 for short"} {
		if rejected[v] == 0 {
			t.Errorf("variant %q never rejected: the comparison saw no failure of that kind", v)
		}
	}
}

// compareDuato compares both checks of rf on topo and returns the error.
func compareDuato(t *testing.T, ctx context.Context, topo topology.Topology, rf routing.Func, vcs int, wormhole bool, what string) error {
	t.Helper()
	adj, W, es, refErr := referenceDuatoGraph(ctx, topo, rf, vcs, wormhole)
	want := refErr
	if refErr == nil {
		// referenceDuato
		want = findDenseCycle(ctx, adj, W, len(es.ch), func(e int) string { return es.name(topo, vcs, e) })
	}
	ok, got := checkDuatoStates(ctx, topo, rf, vcs, wormhole)
	if !ok {
		t.Fatalf("%s: the abstract-state check does not cover it", what)
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("%s:\nabstract states: %v\nreference:       %v", what, got, want)
	}
	s, _ := newDuatoStates(ctx, topo, rf, vcs)
	if refErr != nil {
		return want // no graph to compare
	}
	if ok, err := s.build(); !ok || err != nil {
		t.Fatalf("%s: build: %v, %v", what, ok, err)
	}
	if len(es.ch) != s.nE {
		t.Fatalf("%s: %d escape channels, reference %d", what, s.nE, len(es.ch))
	}
	seen := make([]int32, s.nodes()-s.nE)
	row := make([]uint64, W)
	for e := 0; e < s.nE; e++ {
		clear(row)
		if !s.extendedSuccessors(e, seen, int32(e+1), func(b int) { row[b/64] |= 1 << (b % 64) }) {
			t.Fatalf("%s: a hop the abstraction does not cover", what)
		}
		for w := range row {
			if d := row[w] ^ adj[e*W+w]; d != 0 {
				b := w*64 + int(routing.TrailingZeros(d))
				t.Fatalf("%s: edge %s -> %s: abstract states %v, reference %v", what, es.name(topo, vcs, e), es.name(topo, vcs, b),
					row[w]&d != 0, adj[e*W+w]&d != 0)
			}
		}
	}
	return want
}

// TestDuatoStatesCoverage: the abstract-state check covers meshes and
// tori, the torus also with an escape sub-function that is not dimension
// order (its row trees then kept apart by the walk in y after them).
func TestDuatoStatesCoverage(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		wrap, adaptiveEscape bool
		yKinds               int
	}{{false, false, 0}, {true, false, 1}, {true, true, 6}} {
		g := routingtest.HARTopology(t, 6, c.wrap, "hybrid-har")
		rf, _ := routing.New(routingNamed("hybrid-har"), g, 4)
		rf.(*grid.HAR).SetVariant(false, c.adaptiveEscape)
		s, ok := newDuatoStates(ctx, g, rf, 4)
		if ok {
			ok, _ = s.build()
		}
		if !ok {
			t.Fatalf("%s (adaptive C1 %v) not covered", g, c.adaptiveEscape)
		}
		if c.wrap && s.torus.yKinds != c.yKinds {
			t.Errorf("%s (adaptive C1 %v): %d kinds of row trees, want %d", g, c.adaptiveEscape, s.torus.yKinds, c.yKinds)
		}
	}
}

// TestTorusWalk: the hop counts at which a walk from p0 reaches each end
// descriptor (torusWalk) are those of some destination, tried one by one,
// on rings of 2 to 20.
func TestTorusWalk(t *testing.T) {
	for k := 2; k <= 20; k++ {
		l := newDescLine(k, true)
		for p0 := 0; p0 < k; p0++ {
			for d0 := 0; d0 < l.nd; d0++ {
				s := l.sgn[d0]
				if s == 0 || l.feas[p0]>>d0&1 == 0 {
					continue
				}
				for budget := 0; budget <= l.maxAhead(s); budget++ {
					for end := 0; end < l.nd; end++ {
						want := map[int]bool{}
						for b := 0; b < k; b++ {
							d, h := l.desc(p0, b)
							if d != d0 || h > budget {
								continue
							}
							for t := 0; t <= h; t++ {
								if e, _ := l.desc(l.step(p0, s*t%k+k), b); e == end {
									want[t] = true
								}
							}
						}
						got := map[int]bool{}
						iv, n := torusWalk(l, p0, d0, budget, end)
						for i := 0; i < n; i++ {
							for t := iv[i][0]; t <= iv[i][1]; t++ {
								got[t] = true
							}
						}
						if fmt.Sprint(got) != fmt.Sprint(want) {
							t.Fatalf("k %d, from %d, descriptor %d, budget %d, end %d: hops %v, want %v", k, p0, d0, budget, end, got, want)
						}
					}
				}
			}
		}
	}
}
