package router

import (
	"fmt"

	"github.com/icnsim/icnsim/actor"
	"github.com/icnsim/icnsim/link"
)

// Temporal blocking (actor.Schedule) on a network.
//
// The lane graph of a network is its topology: every data and credit lane
// joins the two ends of a link, or a router and one of its own NIs, and
// every control lane (entropy circuits, SAT lanes, RECN notifications,
// Hybrid-HAR's loopback ports) runs beside a data lane of a link or
// between a router and its NI. ActorGraph builds it from the topology, and
// actor.NewSchedule checks every plan against it.
//
// On a torus or mesh (TileGrid) the plan is skewed space-time tiling.
// Along one dimension of K routers cut into tiles of about side routers
// at b_0 = 0 < b_1 < ... < b_n = K, tile i ticks at relative cycle s the
// routers [b_i - s, b_{i+1} - s): each step leans one router towards the
// tiles already run, so a router's neighbours' previous step is in the
// same tile or an earlier one. On a torus the first tile is a pyramid
// [s, b_1 - s) and the routers left over around the wrap-around,
// [K - s, K + s) mod K, are a last tile (a valley); on a mesh the first
// tile is [0, b_1 - s) and the last [b_{n-1} - s, K). A 2D tile is the
// product of an x-tile and a y-tile. Run in row order (y outer), a tile
// finds most of what it needs in cache: the routers it shares with the
// tile to its west were just ticked, only the strip it shares with the
// row of tiles below comes from memory. Run by several workers, tiles
// are claimed by anti-diagonals (x-tile + y-tile), whose members need
// nothing from each other.

// Tiling returns the temporal-blocking schedule of fabric f: TileGrid on
// its topology, for its actors laid out as both router kinds lay them out
// (each router followed by the nodes attached to it, in increasing order).
// It refuses a fabric laid out otherwise.
func Tiling(f Fabric, steps, side, parts int) (*actor.Schedule, error) {
	t := f.Topology()
	acts, _ := f.Actors()
	attached := make([][]int32, t.Routers())
	for i := 0; i < t.Nodes(); i++ {
		r, _ := t.NodePort(i)
		attached[r] = append(attached[r], int32(-i-1))
	}
	ref := make([]int32, 0, len(acts))
	for r := range attached {
		ref = append(append(ref, int32(r)), attached[r]...)
	}
	if len(ref) != len(acts) {
		return nil, fmt.Errorf("tiling: %d actors for %d routers and %d nodes", len(acts), t.Routers(), t.Nodes())
	}
	return TileGrid(t, ref, steps, side, parts)
}

// Tileable reports whether TileGrid can cut topology t.
func Tileable(t link.Topology) bool {
	_, ok := t.(*link.Grid2D)
	return ok
}

// actorGraph is the lane graph of a topology whose actors are each router
// followed by its nodes: ref[i] >= 0 is router ref[i], ref[i] < 0 node
// -ref[i]-1.
func actorGraph(t link.Topology, ref []int32) actor.Graph {
	rAt := make([]int32, t.Routers())
	nAt := make([]int32, t.Nodes())
	for i, x := range ref {
		if x >= 0 {
			rAt[x] = int32(i)
		} else {
			nAt[-x-1] = int32(i)
		}
	}
	g := actor.Graph{Off: make([]int32, 1, len(ref)+1)}
	for _, x := range ref {
		if x < 0 {
			r, _ := t.NodePort(int(-x - 1))
			g.Adj = append(g.Adj, rAt[r])
		} else {
			r := int(x)
			for p := 0; p < t.Ports(r); p++ {
				peer := t.Peer(r, p)
				switch {
				case peer.Node >= 0:
					g.Adj = append(g.Adj, nAt[peer.Node])
				case peer.Router >= 0 && peer.Router != r:
					g.Adj = append(g.Adj, rAt[peer.Router])
				}
			}
		}
		g.Off = append(g.Off, int32(len(g.Adj)))
	}
	return g
}

// TileGrid is the temporal-blocking plan of a torus or mesh network whose
// actor i is router ref[i] (ref[i] >= 0) or node -ref[i]-1: blocks of at
// most steps cycles over tiles of about side x side routers, listed in row
// order for one worker and by anti-diagonals for parts >= 2 (whose
// workers claim them in that order, each tile of a diagonal needing none
// of the others). The block is shortened to what the first tile
// can lean (its width, or half of it on a torus, plus one) on a network
// smaller than a tile. It refuses a network that is no torus or mesh.
func TileGrid(t link.Topology, ref []int32, steps, side, parts int) (*actor.Schedule, error) {
	g, ok := t.(*link.Grid2D)
	if !ok {
		return nil, fmt.Errorf("tiling: %s is no torus or mesh", t)
	}
	if steps < 1 || side < 1 {
		return nil, fmt.Errorf("tiling: %d steps over tiles of side %d", steps, side)
	}
	K := g.K
	nt := max(1, K/side)
	bounds := make([]int, nt+1)
	for i := range bounds {
		bounds[i] = i * K / nt
	}
	if g.Wrap {
		steps = min(steps, bounds[1]/2+1)
	} else {
		steps = min(steps, bounds[1]+1)
	}
	// first[r] is the actor index of router r; first[nr] the number of actors.
	first := make([]int, t.Routers()+1)
	for i := len(ref) - 1; i >= 0; i-- {
		if ref[i] >= 0 {
			first[ref[i]] = i
		}
	}
	first[t.Routers()] = len(ref)
	// line[i][s] are tile i's intervals of positions at step s.
	line := tiles1D(K, bounds, g.Wrap, steps)
	n := len(line)
	order := make([][2]int, 0, n*n) // (x-tile, y-tile)
	if parts > 1 {
		for d := 0; d <= 2*(n-1); d++ {
			for j := max(0, d-(n-1)); j <= min(d, n-1); j++ {
				order = append(order, [2]int{d - j, j})
			}
		}
	} else {
		for j := 0; j < n; j++ {
			for i := 0; i < n; i++ {
				order = append(order, [2]int{i, j})
			}
		}
	}
	plan := make([][]actor.PieceStep, 0, len(order))
	for _, o := range order {
		piece := make([]actor.PieceStep, steps)
		for s := 0; s < steps; s++ {
			var ps actor.PieceStep
			for _, yr := range line[o[1]][s] {
				for y := yr[0]; y < yr[1]; y++ {
					for _, xr := range line[o[0]][s] {
						if xr[0] < xr[1] {
							r0, r1 := g.Router(xr[0], y), g.Router(xr[1]-1, y)+1
							ps = append(ps, [2]int{first[r0], first[r1]})
						}
					}
				}
			}
			piece[s] = ps
		}
		plan = append(plan, piece)
	}
	return actor.NewSchedule(len(ref), steps, plan, actorGraph(t, ref))
}

// tiles1D cuts a line (or ring, with wrap) of k positions at bounds into
// skewed tiles: tiles[i][s] are tile i's intervals at step s, each within
// 0..k, listed in increasing position.
func tiles1D(k int, bounds []int, wrap bool, steps int) [][][][2]int {
	nt := len(bounds) - 1
	var tiles [][][][2]int
	add := func(f func(s int) [][2]int) {
		t := make([][][2]int, steps)
		for s := range t {
			t[s] = f(s)
		}
		tiles = append(tiles, t)
	}
	if !wrap {
		for i := 0; i < nt; i++ {
			add(func(s int) [][2]int {
				lo, hi := bounds[i]-s, bounds[i+1]-s
				if i == 0 {
					lo = 0
				}
				if i == nt-1 {
					hi = k
				}
				return [][2]int{{lo, hi}}
			})
		}
		return tiles
	}
	add(func(s int) [][2]int { return [][2]int{{s, bounds[1] - s}} })
	for i := 1; i < nt; i++ {
		add(func(s int) [][2]int { return [][2]int{{bounds[i] - s, bounds[i+1] - s}} })
	}
	add(func(s int) [][2]int { return [][2]int{{0, s}, {k - s, k}} })
	return tiles
}
