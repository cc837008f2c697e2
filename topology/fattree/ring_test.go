package fattree

import "testing"

// TestRingAndTree: the walk through nearest common ancestors follows
// links, leaves no port twice, visits every node once and is RingHops
// long; root switch 0's down-tree reaches TreeElements elements through
// real links.
func TestRingAndTree(t *testing.T) {
	for _, c := range []struct{ k, n int }{{2, 1}, {2, 3}, {4, 2}, {3, 3}, {4, 4}} {
		f, _ := NewFatTree(c.k, c.n)
		R := f.Routers()
		walk := f.Ring()
		if len(walk) != f.RingHops() {
			t.Errorf("%s: a walk of %d steps, RingHops %d", f, len(walk), f.RingHops())
		}
		nodes := map[int]int{}
		left := map[[2]int]bool{}
		for i, st := range walk {
			nx := walk[(i+1)%len(walk)]
			if st.E >= R {
				nodes[st.E-R]++
				continue
			}
			peer := f.Peer(st.E, st.Port)
			if peer.Node >= 0 && R+peer.Node != nx.E || peer.Node < 0 && peer.Router != nx.E {
				t.Fatalf("%s: step %d leaves %s to %v, next is element %d", f, i, f.PortName(st.E, st.Port), peer, nx.E)
			}
			if left[[2]int{st.E, st.Port}] {
				t.Fatalf("%s: leaves %s twice", f, f.PortName(st.E, st.Port))
			}
			left[[2]int{st.E, st.Port}] = true
		}
		if len(nodes) != f.Nodes() {
			t.Errorf("%s: the walk visits %d of %d nodes", f, len(nodes), f.Nodes())
		}
		tree := f.Tree()
		in := 1 // the root
		for e, p := range tree.Parent {
			if p < 0 {
				continue
			}
			in++
			peer := f.Peer(p, tree.DownPort[e])
			if e < R && peer.Router != e || e >= R && peer.Node != e-R {
				t.Errorf("%s: element %d's parent port %s leads to %v", f, e, f.PortName(p, tree.DownPort[e]), peer)
			}
		}
		if in != f.TreeElements() {
			t.Errorf("%s: %d elements in the tree, TreeElements %d", f, in, f.TreeElements())
		}
	}
}
