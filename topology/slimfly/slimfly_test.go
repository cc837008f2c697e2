package slimfly

import "testing"

// TestMMSGraph: for every prime power q from 3 to 29 the wiring is the
// MMS graph: 2q^2 routers of radix (3q - d)/2, every link symmetric and
// simple, Adjacent and PortTo agree with the ports, and every two
// routers within 2 hops (diameter 2).
func TestMMSGraph(t *testing.T) {
	for _, q := range []int{3, 4, 5, 7, 8, 9, 11, 13, 16, 17, 19, 23, 25, 27, 29} {
		s, err := New(q, 1)
		if err != nil {
			t.Fatalf("q = %d: %v", q, err)
		}
		d := map[int]int{1: 1, 0: 0, 3: -1}[q%4]
		if s.Routers() != 2*q*q || s.Radix() != (3*q-d)/2 {
			t.Fatalf("q = %d: %d routers of radix %d, want %d of %d", q, s.Routers(), s.Radix(), 2*q*q, (3*q-d)/2)
		}
		R := s.Routers()
		for r := range R {
			for p := s.P; p < s.Ports(r); p++ {
				peer := s.Peer(r, p)
				back := s.Peer(peer.Router, peer.Port)
				if back.Router != r || back.Port != p || peer.Router == r || !s.Adjacent(r, peer.Router) || s.PortTo(r, peer.Router) != p {
					t.Fatalf("q = %d: %s -> %s -> %s", q, s.PortName(r, p), s.PortName(peer.Router, peer.Port), s.PortName(back.Router, back.Port))
				}
			}
		}
		if q > 13 {
			continue // the diameter check is quadratic
		}
		for u := range R {
			adjacent := 0
			for v := range R {
				if s.Adjacent(u, v) != s.Adjacent(v, u) {
					t.Fatalf("q = %d: Adjacent(%d, %d) is not symmetric", q, u, v)
				}
				if u == v || s.Adjacent(u, v) {
					if u != v {
						adjacent++
					}
					continue
				}
				common := false
				for p := s.P; p < s.Ports(u) && !common; p++ {
					common = s.Adjacent(s.Peer(u, p).Router, v)
				}
				if !common {
					t.Fatalf("q = %d: %s and %s are more than 2 hops apart", q, s.RouterName(u), s.RouterName(v))
				}
			}
			if adjacent != s.Radix() {
				t.Fatalf("q = %d: Adjacent holds for %d routers of %s, its radix is %d", q, adjacent, s.RouterName(u), s.Radix())
			}
		}
	}
}
