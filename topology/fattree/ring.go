package fattree

import "github.com/icnsim/icnsim/topology"

var (
	_ topology.Ringed = (*FatTree)(nil)
	_ topology.Treed  = (*FatTree)(nil)
)

// RingFeasible is nil: every fat-tree has its walk (topology.Ringed).
func (f *FatTree) RingFeasible() error { return nil }

// RingHops is H(n) = 2k + k H(n-1), H(0) = 0: a walk down and up each
// level of the subtrees it crosses.
func (f *FatTree) RingHops() int {
	h := 0
	for range f.N {
		h = 2*f.K + f.K*h
	}
	return h
}

// TreeElements is the nodes and root switch 0's down-tree, 1 + k + ...
// + k^(n-1) switches.
func (f *FatTree) TreeElements() int { return f.Nodes() + (f.Nodes()-1)/(f.K-1) }

// Ring walks node 0, 1, ..., N-1 (topology.Ringed) and back to 0 through the nearest
// common ancestors in root switch 0's down-tree.
func (f *FatTree) Ring() []topology.WalkStep {
	R, N := f.Routers(), f.Nodes()
	var walk []topology.WalkStep
	for i := 0; i < N; i++ {
		j := (i + 1) % N
		walk = append(walk, topology.WalkStep{E: R + i})
		r, _ := f.NodePort(i) // the leaf switch
		for range f.NCALevel(i, j) {
			walk = append(walk, topology.WalkStep{E: r, Port: f.K}) // up port 0
			r = f.Peer(r, f.K).Router
		}
		for l, _ := f.Switch(r); l >= 0; l-- {
			d := f.Digit(j, l)
			walk = append(walk, topology.WalkStep{E: r, Port: d})
			r = f.Peer(r, d).Router // -1 past the leaf: the next step is node j
		}
	}
	return walk
}

// Tree is root switch 0's down-tree (topology.Treed): switches of level l whose digits
// below l are zero, and every node.
func (f *FatTree) Tree() topology.SpanningTree {
	R, k := f.Routers(), f.K
	s := topology.NewSpanningTree(R + f.Nodes())
	s.Root = f.Router(f.N-1, 0)
	for r := 0; r < R; r++ {
		l, idx := f.Switch(r)
		low := 1 // what the digits below l count together
		for j := range min(l, f.N-1) {
			low *= f.radix(l, j)
		}
		if idx%low != 0 {
			continue // not in the tree
		}
		for p := 0; p < k; p++ {
			peer := f.Peer(r, p)
			child := peer.Router
			if peer.Node >= 0 {
				child = R + peer.Node
			}
			s.Parent[child], s.DownPort[child] = r, p
		}
	}
	return s
}
