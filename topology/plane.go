package topology

// Plane is implemented by a k x k mesh or torus (topology/grid): the
// coordinates and the port layout that grid-specific checks and policies
// read (the abstract-state deadlock check, a ring or a tree laid over the
// grid, a switch's dimension-order table) without knowing the family's
// type. Router r sits at XY(r); its ports are numbered PlaneXPlus,
// PlaneXMinus, PlaneYPlus, PlaneYMinus, then its node ports from
// PlaneLocal on.
type Plane interface {
	Topology
	Side() int           // k: routers per row and per column
	Wraps() bool         // a torus (wrap-around links), not a mesh
	Concentration() int  // nodes per router
	XY(r int) (x, y int) // router r's coordinates
	Router(x, y int) int // the router at (x, y)
	Loopbacks() int      // loopback ports per router, after the node ports
	LoopPort(i int) int  // loopback port i (0 <= i < Loopbacks())
}

// The ports of a Plane's router.
const (
	PlaneXPlus  = 0 // towards x+1
	PlaneXMinus = 1 // towards x-1
	PlaneYPlus  = 2 // towards y+1
	PlaneYMinus = 3 // towards y-1
	PlaneLocal  = 4 // the first node port
)

// RingStep is the direction (+1, -1 or 0) of the shorter way from a to b
// on a ring of k (the positive way on a tie), as a torus routes.
func RingStep(a, b, k int) int {
	if a == b {
		return 0
	}
	d := b - a // (b - a) mod k, a and b in 0..k-1
	if d < 0 {
		d += k
	}
	if d <= k-d {
		return 1
	}
	return -1
}

// RingDistance is the hops the shorter way from a to b on a ring of k.
func RingDistance(a, b, k int) int {
	d := (b - a + k) % k
	return min(d, k-d)
}
