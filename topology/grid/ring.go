package grid

import (
	"fmt"

	"github.com/icnsim/icnsim/topology"
)

var (
	_ topology.Ringed = (*Grid2D)(nil)
	_ topology.Treed  = (*Grid2D)(nil)
)

// RingFeasible reports a mesh of odd side, which has no Hamiltonian
// cycle of its routers (topology.Ringed).
func (g *Grid2D) RingFeasible() error {
	if !g.Wrap && g.K%2 == 1 {
		return fmt.Errorf("a %dx%d mesh has none (K odd: an odd number of routers in a bipartite grid); an even k, or a torus, has one", g.K, g.K)
	}
	return nil
}

// RingHops is a router hop per router and two per node (to it and back).
func (g *Grid2D) RingHops() int { return g.Routers() + 2*g.Nodes() }

// TreeElements is every router and node.
func (g *Grid2D) TreeElements() int { return g.Routers() + g.Nodes() }

// Ring walks a Hamiltonian cycle of the routers (topology.Ringed),
// visiting each router's nodes in port order: on a torus row after row,
// each row entered one column further west; on a mesh of even side
// along row 0, a boustrophedon over columns 1..k-1 of the rows above,
// and back down column 0.
func (g *Grid2D) Ring() []topology.WalkStep {
	K := g.K
	var order [][2]int // router coordinates in cycle order
	if g.Wrap {
		for y := 0; y < K; y++ {
			x0 := (K - y%K) % K
			for i := 0; i < K; i++ {
				order = append(order, [2]int{(x0 + i) % K, y})
			}
		}
	} else {
		for x := 0; x < K; x++ {
			order = append(order, [2]int{x, 0})
		}
		for y := 1; y < K; y++ {
			for i := 1; i < K; i++ {
				x := i
				if y%2 == 1 {
					x = K - i
				}
				order = append(order, [2]int{x, y})
			}
		}
		for y := K - 1; y >= 1; y-- {
			order = append(order, [2]int{0, y})
		}
	}
	var walk []topology.WalkStep
	for i, xy := range order {
		r := g.Router(xy[0], xy[1])
		nx := order[(i+1)%len(order)]
		for c := 0; c < g.C; c++ {
			walk = append(walk, topology.WalkStep{E: r, Port: PortLocal + c}, topology.WalkStep{E: g.Routers() + r*g.C + c})
		}
		walk = append(walk, topology.WalkStep{E: r, Port: gridPortTo(g, xy, nx)})
	}
	return walk
}

// gridPortTo is the port of router a leading to neighbour b.
func gridPortTo(g *Grid2D, a, b [2]int) int {
	r := g.Router(a[0], a[1])
	want := g.Router(b[0], b[1])
	for p := 0; p < PortLocal; p++ {
		if peer := g.Peer(r, p); peer.Router == want {
			return p
		}
	}
	panic(fmt.Sprintf("grid: ring: %s and %s are not neighbours", g.RouterName(r), g.RouterName(want)))
}

// Tree is rooted at the centre router (topology.Treed): up the centre column, along
// every row, and each router's nodes.
func (g *Grid2D) Tree() topology.SpanningTree {
	R, c := g.Routers(), g.K/2
	s := topology.NewSpanningTree(R + g.Nodes())
	s.Root = g.Router(c, c)
	for r := 0; r < R; r++ {
		x, y := g.XY(r)
		for j := 0; j < g.C; j++ {
			s.Parent[R+r*g.C+j], s.DownPort[R+r*g.C+j] = r, PortLocal+j
		}
		var px, py int
		switch {
		case x != c:
			px, py = x+sign(c-x), y
		case y != c:
			px, py = x, y+sign(c-y)
		default:
			continue
		}
		s.Parent[r] = g.Router(px, py)
		s.DownPort[r] = gridPortTo(g, [2]int{px, py}, [2]int{x, y})
	}
	return s
}

func sign(x int) int {
	if x < 0 {
		return -1
	}
	return 1
}
