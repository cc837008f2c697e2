package topology_test

import (
	"testing"

	"github.com/icnsim/icnsim/topology"
)

// TestRingArithmetic: RingStep and RingDistance against walking the ring
// both ways, on rings of 1 to 12 (the positive way on a tie).
func TestRingArithmetic(t *testing.T) {
	for _, c := range []struct{ a, b, k, step, dist int }{
		{0, 0, 4, 0, 0}, {0, 1, 4, 1, 1}, {0, 3, 4, -1, 1}, {0, 2, 4, 1, 2}, {3, 1, 4, 1, 2}, {1, 3, 5, 1, 2}, {3, 1, 5, -1, 2},
	} {
		if s, d := topology.RingStep(c.a, c.b, c.k), topology.RingDistance(c.a, c.b, c.k); s != c.step || d != c.dist {
			t.Errorf("%d -> %d on a ring of %d: step %d, distance %d; want %d, %d", c.a, c.b, c.k, s, d, c.step, c.dist)
		}
	}
	for k := 1; k <= 12; k++ {
		for a := range k {
			for b := range k {
				up := (b - a + k) % k // hops the positive way
				down := (k - up) % k
				want, step := min(up, down), 0
				switch {
				case up == 0:
				case up <= down:
					step = 1
				default:
					step = -1
				}
				if s, d := topology.RingStep(a, b, k), topology.RingDistance(a, b, k); s != step || d != want {
					t.Fatalf("%d -> %d on a ring of %d: step %d, distance %d; want %d, %d", a, b, k, s, d, step, want)
				}
			}
		}
	}
}
