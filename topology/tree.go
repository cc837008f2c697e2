package topology

// WalkStep is one step of a closed walk through a topology: element E (a
// router r, or node n numbered Routers()+n) and, for a router, the port
// it leaves by.
type WalkStep struct{ E, Port int }

// Ringed is implemented by families that know a short closed walk through
// every router and node in which no directed link repeats (what SAT's
// signal travels): a fat-tree's walk from node to node through their
// nearest common ancestors, a grid's Hamiltonian cycle of the routers.
// Other topologies get the walk around a spanning tree.
type Ringed interface {
	// RingFeasible reports, in constant time, why the family has no such
	// walk for this instance (nil when it has).
	RingFeasible() error
	// Ring is the walk, the step after the last being the first (only
	// where RingFeasible is nil).
	Ring() []WalkStep
	// RingHops is len(Ring()), in constant time.
	RingHops() int
}

// SpanningTree is a tree over a topology's routers and nodes (elements
// numbered as WalkStep's): its root router, and each element's parent and
// the parent's port down to it (-1 for the root and for elements outside
// the tree).
type SpanningTree struct {
	Root     int
	Parent   []int
	DownPort []int
}

// NewSpanningTree is a tree of n elements none of which is in it yet.
func NewSpanningTree(n int) SpanningTree {
	s := SpanningTree{Parent: make([]int, n), DownPort: make([]int, n)}
	for i := range s.Parent {
		s.Parent[i], s.DownPort[i] = -1, -1
	}
	return s
}

// Treed is implemented by families with a natural spanning tree (a
// fat-tree's root switch 0 and its down-tree, a grid's tree rooted at the
// centre router); other topologies get the quickest-path tree
// (ShortestPathTree).
type Treed interface {
	Tree() SpanningTree
	// TreeElements is the number of elements in Tree(), in constant time.
	TreeElements() int
}
