package grid

import (
	"context"
	"math/bits"
	"strings"
	"testing"

	"github.com/icnsim/icnsim/link"
	"github.com/icnsim/icnsim/routing"
	"github.com/icnsim/icnsim/routing/deadlock"
)

// routingNamed is the grids' routing name.
func routingNamed(name string) routing.Spec { return routing.ByName(Routings())[name] }

// walkDor2Class follows a packet from router (sx, sy) to router (dx, dy)
// under rf, from its injection (input port PortLocal, the lowest VC of
// InjectVCs) to its ejection, taking the lowest VC offered at each hop.
// Each hop is written as the output port (E, W, N, S) and the class of
// the VCs offered on it (0: the lower half, 1: the upper half, ? for a mix
// or an empty set), ejection as "L*" when every VC is offered. It also
// returns the class of InjectVCs in the same notation.
func walkDor2Class(t *testing.T, g *Grid2D, rf routing.Func, vcs, sx, sy, dx, dy int) (hops, inject string) {
	t.Helper()
	all := routing.AllVCs(vcs)
	lower := routing.AllVCs(vcs / 2)
	classOf := func(m uint64) string {
		switch m {
		case all:
			return "*"
		case lower:
			return "0"
		case all &^ lower:
			return "1"
		}
		return "?"
	}
	src, dst := g.Router(sx, sy)*g.C, g.Router(dx, dy)*g.C
	im := rf.InjectVCs(src, dst)
	r, in := g.Router(sx, sy), PortLocal
	f := link.Flit{Src: int32(src), Dst: int32(dst), VC: uint8(bits.TrailingZeros64(im))}
	var out []string
	for i := 0; ; i++ {
		if i > 2*g.K {
			t.Fatalf("(%d,%d)->(%d,%d): no ejection after %d hops: %v", sx, sy, dx, dy, i, out)
		}
		var c routing.Candidates
		rf.Route(r, in, &f, &c)
		if c.N != 1 || bits.OnesCount64(c.G[0].Ports) != 1 {
			t.Fatalf("(%d,%d)->(%d,%d) at %s: %d groups, ports %b; want one port", sx, sy, dx, dy, g.RouterName(r), c.N, c.G[0].Ports)
		}
		p := bits.TrailingZeros64(c.G[0].Ports)
		if p >= PortLocal {
			out = append(out, "L"+classOf(c.G[0].VCs))
			break
		}
		out = append(out, [4]string{"E", "W", "N", "S"}[p]+classOf(c.G[0].VCs))
		q := g.Peer(r, p)
		r, in = q.Router, q.Port
		f.VC = uint8(bits.TrailingZeros64(c.G[0].VCs))
	}
	return strings.Join(out, " "), classOf(im)
}

// TestDor2ClassRoutes: the class chosen at injection and again at the
// turn into Y, and kept along each dimension, on hand-picked routes.
func TestDor2ClassRoutes(t *testing.T) {
	t8, _ := NewTorus(8)
	t5, _ := NewTorus(5)
	cases := []struct {
		name           string
		g              *Grid2D
		sx, sy, dx, dy int
		want           string // hops, see walkDor2Class
	}{
		// 8x8: the shorter way round, positive on a tie (distance 4).
		{"x+ no wrap", t8, 1, 0, 3, 0, "E0 E0 L*"},
		{"x+ wrap", t8, 6, 0, 1, 0, "E1 E1 E1 L*"},
		{"x- no wrap", t8, 5, 0, 3, 0, "W0 W0 L*"},
		{"x- wrap", t8, 1, 0, 6, 0, "W1 W1 W1 L*"},
		{"x tie, positive without wrap", t8, 2, 0, 6, 0, "E0 E0 E0 E0 L*"},
		{"x tie, positive across the wrap", t8, 6, 0, 2, 0, "E1 E1 E1 E1 L*"}, // BookSim2 may go W0 x4
		{"x wrap, then y no wrap", t8, 6, 1, 1, 3, "E1 E1 E1 N0 N0 L*"},
		{"x no wrap, then y wrap", t8, 2, 2, 5, 7, "E0 E0 E0 S1 S1 S1 L*"},
		{"x wrap, then y wrap", t8, 1, 6, 6, 1, "W1 W1 W1 N1 N1 N1 L*"},
		{"x no wrap, then y no wrap", t8, 4, 5, 3, 2, "W0 S0 S0 S0 L*"},
		{"y only, wrap", t8, 3, 1, 3, 6, "S1 S1 S1 L*"},
		{"y only, no wrap", t8, 3, 6, 3, 7, "N0 L*"},
		{"y tie, no wrap", t8, 3, 0, 3, 4, "N0 N0 N0 N0 L*"},
		{"y tie, wrap", t8, 3, 5, 3, 1, "N1 N1 N1 N1 L*"},
		{"x wrap, then y tie across the wrap", t8, 7, 4, 0, 0, "E1 N1 N1 N1 N1 L*"},
		{"same router", t8, 2, 2, 2, 2, "L*"},
		// 5x5: no ties; at most 2 hops per dimension.
		{"5: x- no wrap", t5, 3, 0, 1, 0, "W0 W0 L*"},
		{"5: x+ wrap", t5, 4, 0, 1, 0, "E1 E1 L*"},
		{"5: x- wrap", t5, 0, 0, 3, 0, "W1 W1 L*"},
		{"5: x no wrap, then y wrap", t5, 1, 4, 3, 1, "E0 E0 N1 N1 L*"},
		{"5: x wrap, then y no wrap", t5, 4, 2, 0, 0, "E1 S0 S0 L*"},
		{"5: y only, wrap", t5, 2, 1, 2, 4, "S1 S1 L*"},
	}
	for _, vcs := range []int{2, 4, 6} {
		for _, c := range cases {
			rf, err := routing.New(routingNamed("dor-2class"), c.g, vcs)
			if err != nil {
				t.Fatal(err)
			}
			got, inj := walkDor2Class(t, c.g, rf, vcs, c.sx, c.sy, c.dx, c.dy)
			if got != c.want {
				t.Errorf("%s, %d VCs: (%d,%d)->(%d,%d): got %q, want %q", c.name, vcs, c.sx, c.sy, c.dx, c.dy, got, c.want)
			}
			// InjectVCs is the class of the first dimension travelled.
			if want := c.want[1:2]; inj != want {
				t.Errorf("%s, %d VCs: InjectVCs is class %s, want %s", c.name, vcs, inj, want)
			}
		}
	}
}

// TestDor2ClassVCCount: an odd or too small VC count is refused with a
// message that says why, and so is a topology other than the torus.
func TestDor2ClassVCCount(t *testing.T) {
	torus, _ := NewTorus(4)
	for _, vcs := range []int{0, 1, 3, 5, 7} {
		_, err := routing.New(routingNamed("dor-2class"), torus, vcs)
		if err == nil || !strings.Contains(err.Error(), "needs an even number of VCs") {
			t.Errorf("%d VCs: got %v, want an error about an even VC count", vcs, err)
		}
	}
	mesh, _ := NewMesh(4, 1)
	if _, err := routing.New(routingNamed("dor-2class"), mesh, 2); err == nil {
		t.Error("dor-2class accepted on a mesh")
	}
}

// TestDor2ClassDeadlockCheck: the channel dependency check accepts
// dor-2class with 2 and 4 VCs on tori k = 3..12, and refuses, with a
// printed cycle, a broken variant that puts every packet in one class
// (with 2 VCs: plain dor on a torus) and plain dor itself.
func TestDor2ClassDeadlockCheck(t *testing.T) {
	ctx := context.Background()
	for k := 3; k <= 12; k++ {
		torus, _ := NewTorus(k)
		for _, vcs := range []int{2, 4} {
			rf, err := routing.New(routingNamed("dor-2class"), torus, vcs)
			if err != nil {
				t.Fatal(err)
			}
			if err := deadlock.Check(ctx, torus, rf, vcs, true); err != nil {
				t.Errorf("dor-2class on %s with %d VCs: %v", torus, vcs, err)
			}
		}
	}
	for _, k := range []int{4, 5, 8, 11} { // on k = 3 a minimal route makes one hop per ring: dor cannot deadlock
		torus, _ := NewTorus(k)
		oneClass := newDor2Class(torus, 2)
		oneClass.class[0], oneClass.class[1] = oneClass.all, oneClass.all
		dor, _ := routing.New(routingNamed("dor"), torus, 2)
		for _, c := range []struct {
			name string
			rf   routing.Func
		}{{"dor-2class with one class for all packets", oneClass}, {"dor", dor}} {
			err := deadlock.Check(ctx, torus, c.rf, 2, true)
			if err == nil || !strings.Contains(err.Error(), "channel dependency cycle") || strings.Count(err.Error(), " -> ") < 2 {
				t.Errorf("%s on %s with 2 VCs: got %v, want a printed cycle", c.name, torus, err)
				continue
			}
			names := strings.Split(strings.TrimPrefix(err.Error(), "channel dependency cycle: "), " -> ")
			if names[0] != names[len(names)-1] {
				t.Errorf("%s on %s: cycle does not close: %v", c.name, torus, names)
			}
			t.Logf("%s on %s: %v", c.name, torus, err)
		}
	}
}
