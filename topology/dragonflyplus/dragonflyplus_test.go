package dragonflyplus

import (
	"testing"

	"github.com/icnsim/icnsim/routing"
)

// TestWiring: on Dragonflies+ of several shapes every link is symmetric,
// every leaf is joined to every spine of its group once, every two
// groups by Copies global links, every node reaches its leaf, and the
// ports of a spine to a group (portsTo) are those GlobalTarget says lead
// there.
func TestWiring(t *testing.T) {
	for _, q := range [][5]int{{1, 1, 1, 2, 3}, {2, 3, 2, 2, 5}, {1, 2, 2, 3, 4}, {4, 4, 4, 4, 17}, {2, 2, 1, 1, 2}} {
		d, err := New(q[0], q[1], q[2], q[3], q[4])
		if err != nil {
			t.Fatal(err)
		}
		links := map[[2]int]int{} // group pair -> global links
		for r := range d.Routers() {
			G := d.Group(r)
			for p := range d.Ports(r) {
				peer := d.Peer(r, p)
				if peer.Node >= 0 {
					if nr, np := d.NodePort(peer.Node); nr != r || np != p || !d.IsLeaf(r) {
						t.Fatalf("%s: node %d at %s, NodePort says router %d port %d", d, peer.Node, d.PortName(r, p), nr, np)
					}
					continue
				}
				back := d.Peer(peer.Router, peer.Port)
				if back.Router != r || back.Port != p {
					t.Fatalf("%s: %s -> %s -> %s", d, d.PortName(r, p), d.PortName(peer.Router, peer.Port), d.PortName(back.Router, back.Port))
				}
				switch {
				case d.IsLeaf(r):
					if want := d.Spine(G, p-d.P); peer.Router != want {
						t.Fatalf("%s: %s leads to %s, want %s", d, d.PortName(r, p), d.RouterName(peer.Router), d.RouterName(want))
					}
				case p < d.L:
					if peer.Router != d.Leaf(G, p) {
						t.Fatalf("%s: %s leads to %s", d, d.PortName(r, p), d.RouterName(peer.Router))
					}
				default:
					T, _ := d.GlobalTarget(r, p)
					if d.Group(peer.Router) != T || T == G || d.IsLeaf(peer.Router) {
						t.Fatalf("%s: %s leads to %s, GlobalTarget says group %d", d, d.PortName(r, p), d.RouterName(peer.Router), T)
					}
					links[[2]int{G, T}]++
					for D := range d.G {
						if got, want := d.portsTo(r, D)&routing.Bit(p) != 0, D == T; got != want {
							t.Fatalf("%s: portsTo(%s, %d) has port %d: %v, want %v", d, d.RouterName(r), D, p, got, want)
						}
					}
				}
			}
		}
		for a := range d.G {
			for b := range d.G {
				if a == b {
					continue
				}
				if links[[2]int{a, b}] != d.Copies() {
					t.Fatalf("%s: %d links from group %d to %d, want %d", d, links[[2]int{a, b}], a, b, d.Copies())
				}
				// GlobalLink names Copies distinct links from a that land
				// in b, copy c arriving as b's copy c back to a.
				seen := map[[2]int]bool{}
				for c := range d.Copies() {
					j, p := d.GlobalLink(a, b, c)
					r := d.Spine(a, j)
					peer := d.Peer(r, p)
					if d.Group(peer.Router) != b || seen[[2]int{r, p}] {
						t.Fatalf("%s: GlobalLink(%d, %d, %d) = %s, leading to %s", d, a, b, c, d.PortName(r, p), d.RouterName(peer.Router))
					}
					seen[[2]int{r, p}] = true
					if j2, p2 := d.GlobalLink(b, a, c); d.Spine(b, j2) != peer.Router || p2 != peer.Port {
						t.Fatalf("%s: copy %d from %d to %d arrives at %s, not at copy %d back", d, c, a, b, d.PortName(peer.Router, peer.Port), c)
					}
				}
			}
		}
	}
}

// TestHops: the minimal path's hops, hand-worked: 0 to a node of the
// same leaf, 2 to another leaf of the group, 3 to another group.
func TestHops(t *testing.T) {
	d, err := New(2, 3, 2, 2, 5) // groups of 6 nodes
	if err != nil {
		t.Fatal(err)
	}
	r := newRouting(d, 3, routing.ModeMin)
	for _, c := range []struct{ src, dst, hops int }{{0, 1, 0}, {0, 2, 2}, {5, 0, 2}, {0, 6, 3}, {29, 0, 3}} {
		if got := r.Hops(c.src, c.dst); got != c.hops {
			t.Errorf("Hops(%d, %d) = %d, want %d", c.src, c.dst, got, c.hops)
		}
	}
}
