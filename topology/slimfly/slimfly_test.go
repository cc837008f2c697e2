package slimfly

import "testing"

// TestMMSGraph: for every prime power q from 3 to 41 the wiring is the
// MMS graph: 2q^2 routers of radix (3q - d)/2, every link symmetric and
// simple, Adjacent and PortTo agree with the ports, and every two
// routers within 2 hops (diameter 2); up to q = 13 Adjacent is also
// symmetric and true for exactly the radix's routers.
func TestMMSGraph(t *testing.T) {
	for _, q := range []int{3, 4, 5, 7, 8, 9, 11, 13, 16, 17, 19, 23, 25, 27, 29, 31, 32, 37, 41} {
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
		// Diameter 2: each router's neighbours and theirs mark every
		// router (R k'^2 steps).
		mark := make([]int, R)
		for u := range R {
			mark[u] = u + 1
			for p := s.P; p < s.Ports(u); p++ {
				n := s.Peer(u, p).Router
				mark[n] = u + 1
				for p2 := s.P; p2 < s.Ports(n); p2++ {
					mark[s.Peer(n, p2).Router] = u + 1
				}
			}
			for v := range R {
				if mark[v] != u+1 {
					t.Fatalf("q = %d: %s and %s are more than 2 hops apart", q, s.RouterName(u), s.RouterName(v))
				}
			}
			if q > 13 {
				continue // Adjacent against every router: quadratic
			}
			adjacent := 0
			for v := range R {
				if s.Adjacent(u, v) != s.Adjacent(v, u) {
					t.Fatalf("q = %d: Adjacent(%d, %d) is not symmetric", q, u, v)
				}
				if u != v && s.Adjacent(u, v) {
					adjacent++
				}
			}
			if adjacent != s.Radix() {
				t.Fatalf("q = %d: Adjacent holds for %d routers of %s, its radix is %d", q, adjacent, s.RouterName(u), s.Radix())
			}
		}
	}
}
