package grid

import (
	"testing"

	"github.com/icnsim/icnsim/link"
	"github.com/icnsim/icnsim/routing"
)

// TestGridNDIsGrid2D: a two-dimensional GridND of equal radices is the
// Grid2D of that side, wire for wire, and each routing built on both takes
// the same decision for every router, input port, destination, VC and
// routing state (candidates in the same order, at the same preference
// levels), injects on the same VCs with the same routing state, updates it
// alike and counts the same hops: a 2-D torus or mesh built through the
// n-D family runs as today's.
func TestGridNDIsGrid2D(t *testing.T) {
	for _, c := range []struct {
		k, conc int
		wrap    bool
	}{{4, 1, true}, {5, 1, true}, {6, 1, true}, {3, 1, true}, {4, 2, false}, {5, 1, false}} {
		g2 := &Grid2D{K: c.k, C: c.conc, Wrap: c.wrap}
		nd, err := NewGridND([]int{c.k, c.k}, c.conc, c.wrap)
		if err != nil {
			t.Fatal(err)
		}
		if nd.Routers() != g2.Routers() || nd.Nodes() != g2.Nodes() || nd.Diameter() != g2.Diameter() || nd.Kind() != g2.Kind() {
			t.Fatalf("%s and %s differ in size", nd, g2)
		}
		for r := range g2.Routers() {
			if nd.Ports(r) != g2.Ports(r) {
				t.Fatalf("%s: router %d has %d ports, %s %d", nd, r, nd.Ports(r), g2, g2.Ports(r))
			}
			for p := range g2.Ports(r) {
				if a, b := nd.Peer(r, p), g2.Peer(r, p); a != b {
					t.Fatalf("%s: %s goes to %+v, %s's to %+v", nd, nd.PortName(r, p), a, g2, b)
				}
			}
		}
		for n := range g2.Nodes() {
			r1, p1 := nd.NodePort(n)
			r2, p2 := g2.NodePort(n)
			if r1 != r2 || p1 != p2 {
				t.Fatalf("%s: node %d at %d.%d, %s's at %d.%d", nd, n, r1, p1, g2, r2, p2)
			}
		}
		for _, spec := range Routings() {
			if ndClasses(spec.Name, 2) < 0 {
				continue // not built on n-D grids
			}
			if !c.wrap && spec.Name != "dor" {
				continue // the others are defined on tori only
			}
			vcs := map[string]int{"dor": 2, "dor-dateline": 4, "dor-2class": 4, "duato": 5, "min-adaptive": 7}[spec.Name]
			a, err1 := routing.New(spec, nd, vcs)
			b, err2 := routing.New(spec, g2, vcs)
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
			sameRouting(t, spec.Name, g2, a, b, vcs)
		}
	}
}

// sameRouting compares routing functions a (on the n-D grid) and b (on
// g) decision for decision.
func sameRouting(t *testing.T, name string, g *Grid2D, a, b routing.Func, vcs int) {
	t.Helper()
	ua, _ := a.(routing.RouteUpdater)
	ub, _ := b.(routing.RouteUpdater)
	if (ua == nil) != (ub == nil) {
		t.Fatalf("%s: one updates its routing state, the other not", name)
	}
	ia, _ := a.(routing.Injector)
	ib, _ := b.(routing.Injector)
	if (ia == nil) != (ib == nil) {
		t.Fatalf("%s: one sets a routing state at injection, the other not", name)
	}
	for src := range g.Nodes() {
		for dst := range g.Nodes() {
			if va, vb := a.InjectVCs(src, dst), b.InjectVCs(src, dst); va != vb {
				t.Fatalf("%s on %s: %d->%d injects on %x, not %x", name, g, src, dst, va, vb)
			}
			if ia != nil && ia.InjectRoute(src, dst) != ib.InjectRoute(src, dst) {
				t.Fatalf("%s on %s: %d->%d starts in state %d, not %d", name, g, src, dst, ia.InjectRoute(src, dst), ib.InjectRoute(src, dst))
			}
			if ha, ok := a.(interface{ Hops(int, int) int }); ok {
				if hb := b.(interface{ Hops(int, int) int }); ha.Hops(src, dst) != hb.Hops(src, dst) {
					t.Fatalf("%s on %s: %d->%d: %d hops, not %d", name, g, src, dst, ha.Hops(src, dst), hb.Hops(src, dst))
				}
			}
		}
	}
	// Route states reachable: under min-adaptive a base bit and up to two
	// wrap-arounds, under duato up to two datelines.
	routes := []uint8{0, 1, 2, 4, 5, 6}
	for r := range g.Routers() {
		for in := range g.Ports(r) {
			for dst := range g.Nodes() {
				for v := range vcs {
					for _, route := range routes {
						if name != "min-adaptive" && name != "duato" && route != 0 || name == "duato" && route > 2 {
							continue
						}
						var ca, cb routing.Candidates
						fa := link.Flit{Dst: int32(dst), VC: uint8(v), Route: route}
						fb := fa
						okA, okB := decide(a, r, in, &fa, &ca), decide(b, r, in, &fb, &cb)
						if okA != okB {
							t.Fatalf("%s on %s: %s in %d, VC %d, state %d, to %d: one form refuses the state, the other not", name, g, g.RouterName(r), in, v, route, dst)
						}
						if !okA {
							continue // a state no packet reaches (a third crossing): both refuse it
						}
						if ca != cb {
							t.Fatalf("%s on %s: %s in %d, VC %d, state %d, to %d: %+v, not %+v", name, g, g.RouterName(r), in, v, route, dst, ca, cb)
						}
					}
				}
			}
			if ua != nil && in < PortLocal {
				fa, fb := link.Flit{}, link.Flit{}
				ua.Update(r, in, &fa)
				ub.Update(r, in, &fb)
				if fa.Route != fb.Route {
					t.Fatalf("%s on %s: a hop out of %s adds %d to the state, not %d", name, g, g.PortName(r, in), fa.Route, fb.Route)
				}
			}
		}
	}
}

// decide calls rf's Route, false where it panics (a state beyond the
// routing's classes, which both forms refuse).
func decide(rf routing.Func, r, in int, f *link.Flit, c *routing.Candidates) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	rf.Route(r, in, f, c)
	return true
}
