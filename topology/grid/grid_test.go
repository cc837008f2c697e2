package grid

import "testing"

// TestGridWiring: every link of tori and meshes is symmetric, their link
// counts are 4k^2 and 4k(k-1), and ports are named by router and direction.
func TestGridWiring(t *testing.T) {
	for _, g := range []*Grid2D{{K: 4, C: 1, Wrap: true}, {K: 5, C: 2}, {K: 2, C: 1, Wrap: true}} {
		links := 0
		for r := 0; r < g.Routers(); r++ {
			for p := 0; p < g.Ports(r); p++ {
				peer := g.Peer(r, p)
				if peer.Router >= 0 {
					links++
					if back := g.Peer(peer.Router, peer.Port); back.Router != r || back.Port != p {
						t.Fatalf("%s: %s -> %s is not symmetric", g, g.PortName(r, p), g.PortName(peer.Router, peer.Port))
					}
				}
			}
		}
		want := 4 * g.K * g.K // directed links on a torus
		if !g.Wrap {
			want = 4 * g.K * (g.K - 1)
		}
		if links != want {
			t.Errorf("%s: %d directed links, want %d", g, links, want)
		}
	}
	g := &Grid2D{K: 4, C: 1, Wrap: true}
	if got := g.PortName(g.Router(3, 2), PortXPlus); got != "R(3,2).E" {
		t.Errorf("port name %q", got)
	}
}
