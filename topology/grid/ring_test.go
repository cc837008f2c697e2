package grid

import "testing"

// TestRingAndTree: the Hamiltonian walk of tori and even meshes visits
// every router once and every node once, leaves no port twice, follows
// links and is RingHops long; an odd mesh has none; the tree reaches every
// router and node from the centre through real links.
func TestRingAndTree(t *testing.T) {
	for _, g := range []*Grid2D{{K: 2, C: 1, Wrap: true}, {K: 5, C: 2, Wrap: true}, {K: 4, C: 1}, {K: 6, C: 3}, {K: 3, C: 1}} {
		R := g.Routers()
		if err := g.RingFeasible(); err != nil {
			if g.Wrap || g.K%2 == 0 {
				t.Errorf("%s: %v", g, err)
			}
		} else {
			walk := g.Ring()
			if len(walk) != g.RingHops() {
				t.Errorf("%s: a walk of %d steps, RingHops %d", g, len(walk), g.RingHops())
			}
			seen := map[int]int{}
			left := map[[2]int]bool{}
			for i, st := range walk {
				nx := walk[(i+1)%len(walk)]
				if st.E < R {
					peer := g.Peer(st.E, st.Port)
					if to := peer.Router; peer.Node >= 0 && R+peer.Node != nx.E || peer.Node < 0 && to != nx.E {
						t.Fatalf("%s: step %d leaves %s to %v, next is element %d", g, i, g.PortName(st.E, st.Port), peer, nx.E)
					}
					if left[[2]int{st.E, st.Port}] {
						t.Fatalf("%s: leaves %s twice", g, g.PortName(st.E, st.Port))
					}
					left[[2]int{st.E, st.Port}] = true
					if peer.Router >= 0 {
						seen[st.E]++
					}
				} else {
					seen[st.E]++
				}
			}
			if len(seen) != R+g.Nodes() {
				t.Errorf("%s: the walk visits %d of %d routers and nodes", g, len(seen), R+g.Nodes())
			}
			for e, n := range seen {
				if n != 1 {
					t.Errorf("%s: element %d visited %d times", g, e, n)
				}
			}
		}
		tree := g.Tree()
		in := 0
		for e := range tree.Parent {
			p := tree.Parent[e]
			if p < 0 {
				if e != tree.Root {
					t.Errorf("%s: element %d outside the tree", g, e)
				}
				continue
			}
			in++
			peer := g.Peer(p, tree.DownPort[e])
			if e < R && peer.Router != e || e >= R && peer.Node != e-R {
				t.Errorf("%s: element %d's parent port %s leads to %v", g, e, g.PortName(p, tree.DownPort[e]), peer)
			}
		}
		if in+1 != g.TreeElements() {
			t.Errorf("%s: %d elements in the tree, TreeElements %d", g, in+1, g.TreeElements())
		}
	}
}
