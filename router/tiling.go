package router

import (
	"fmt"

	"github.com/icnsim/icnsim/actor"
	"github.com/icnsim/icnsim/fabric"
	"github.com/icnsim/icnsim/topology"
	"github.com/icnsim/icnsim/topology/fattree"
	"github.com/icnsim/icnsim/topology/grid"
)

// Temporal blocking (actor.Schedule) on a network.
//
// The lane graph of a network is its topology: every data and credit lane
// joins the two ends of a link, or a router and one of its own NIs, and
// every control lane (entropy circuits, SAT lanes, RECN notifications,
// Hybrid-HAR's loopback ports) runs beside a data lane of a link or
// between a router and its NI. actorGraph builds it from the topology, and
// actor.NewSchedule checks every plan against it. A mechanism that adds a
// lane between routers that are not neighbours must add it to actorGraph,
// or blocked runs would differ from serial ones (sameDigestEverywhere in
// study's tests and TestShippedStudiesDraw in runner's compare them).
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
// row of tiles below comes from memory. With W workers the columns are
// cut into W bands, each with a pyramid at its start and a valley at its
// end; worker w runs band w and then its valley, so the workers wait for
// one another only before the valleys (anti-diagonal order over the
// tiles, with workers claiming tiles in turn, measured 6.43 M against
// 6.27 M for the bands on the 256x256 torus with 2 workers, but waits at
// every diagonal and would not keep a worker to one region of memory on
// more cores).
//
// Measured on the 2-vCPU development machine (1 MiB L2 per core, 32 MiB
// L3 shared), 256x256 torus at 0.02 flits/node/cycle, router-cycles/s:
// without blocking 1.68 M serial, 3.04 M with 2 workers (the 32x32 torus
// at the same load per channel: 4.64 M and 9.84 M). In blocks, serial,
// steps x side: 8 x 32 2.85 M, 16 x 48 3.09 M, 8 x 16 3.20 M, 16 x 32
// 3.55 M, 24 x 48 3.53 M, 20 x 40 3.86 M, 28 x 56 3.79 M, 32 x 64 1.65 M
// (a 64 x 64 tile, 20 MB, no longer stays in the cache); 2 workers in
// bands: 20 x 40 6.27 M, 16 x 40 6.19 M, 16 x 32 5.90 M, 20 x 48 5.30 M,
// 24 x 48 4.68 M (two tiles at once must fit). In cachegrind with an 8
// MiB last level (the share of the L3 the speed cliff points to), a
// router-cycle of the 128x128 torus misses the last level 30 times
// without blocking and the 32x32's 0.01 times; see the closing figures in
// the README's Large networks section.

// FatTreeGroupActors is about how many actors a piece of a fat-tree's
// split tiling holds.
const FatTreeGroupActors = 512

// Tiling returns the temporal-blocking schedule of fabric f: TileGrid on
// a torus or mesh (side is the tiles' side), TileFatTree on a fat-tree,
// for its actors laid out as both router kinds lay them out
// (each router followed by the nodes attached to it, in increasing order).
// It refuses a fabric laid out otherwise.
func Tiling(f fabric.Fabric, steps, side, parts int) (*actor.Schedule, error) {
	t := f.Topology()
	acts, _ := f.Actors()
	ref := actorRefs(t)
	if len(ref) != len(acts) {
		return nil, fmt.Errorf("tiling: %d actors for %d routers and %d nodes", len(acts), t.Routers(), t.Nodes())
	}
	if ft, ok := t.(*fattree.FatTree); ok {
		if ft.N < 2 {
			return nil, fmt.Errorf("tiling: a %s has no levels to split", t)
		}
		// Split in the middle, blocks no longer than the pods are deep,
		// pieces of about 512 actors (measured on the 4-ary 7-tree:
		// 2048 gave 1.49M router-cycles/s, 512 1.61M, unblocked 1.44M).
		split := (ft.N + 1) / 2
		return TileFatTree(t, ref, min(steps, split), split, FatTreeGroupActors, parts)
	}
	return TileGrid(t, ref, steps, side, parts)
}

// actorRefs lays out the actors of topology t as the networks do: each
// router (ref >= 0) followed by the nodes attached to it (node i as
// -i-1), in increasing order.
func actorRefs(t topology.Topology) []int32 {
	attached := make([][]int32, t.Routers())
	for i := 0; i < t.Nodes(); i++ {
		r, _ := t.NodePort(i)
		attached[r] = append(attached[r], int32(-i-1))
	}
	ref := make([]int32, 0, t.Routers()+t.Nodes())
	for r := range attached {
		ref = append(append(ref, int32(r)), attached[r]...)
	}
	return ref
}

// firstActors inverts ref: first[r] is the index of router r's actor, and,
// since each router's nodes follow it, first[r+1] ends them (first[nr] is
// the number of actors).
func firstActors(t topology.Topology, ref []int32) []int {
	first := make([]int, t.Routers()+1)
	for i, x := range ref {
		if x >= 0 {
			first[x] = i
		}
	}
	first[t.Routers()] = len(ref)
	return first
}

// Tileable reports whether Tiling can cut topology t. Dragonflies are
// not: their routers reach across the whole network in two hops, and
// UGAL-G's group board (board.go) holds a single cycle, which routers run
// cycles apart would break.
func Tileable(t topology.Topology) bool {
	switch t.(type) {
	case *grid.Grid2D, *fattree.FatTree:
		return true
	}
	return false
}

// actorGraph is the lane graph of a topology whose actors are each router
// followed by its nodes: ref[i] >= 0 is router ref[i], ref[i] < 0 node
// -ref[i]-1.
func actorGraph(t topology.Topology, ref []int32) actor.Graph {
	first := firstActors(t, ref)
	nAt := make([]int32, t.Nodes())
	for i, x := range ref {
		if x < 0 {
			nAt[-x-1] = int32(i)
		}
	}
	g := actor.Graph{Off: make([]int32, 1, len(ref)+1)}
	for _, x := range ref {
		if x < 0 {
			r, _ := t.NodePort(int(-x - 1))
			g.Adj = append(g.Adj, int32(first[r]))
		} else {
			r := int(x)
			for p := 0; p < t.Ports(r); p++ {
				peer := t.Peer(r, p)
				switch {
				case peer.Node >= 0:
					g.Adj = append(g.Adj, nAt[peer.Node])
				case peer.Router >= 0 && peer.Router != r:
					g.Adj = append(g.Adj, int32(first[peer.Router]))
				}
			}
		}
		g.Off = append(g.Off, int32(len(g.Adj)))
	}
	return g
}

// TileGrid is the temporal-blocking plan of a torus or mesh network whose
// actor i is router ref[i] (ref[i] >= 0) or node -ref[i]-1: blocks of at
// most steps cycles over tiles of about side x side routers. For parts >=
// 2 workers the network is cut into parts bands of columns, each with its
// own pyramid at its start and a valley at its end (as the wrap-around of
// a single band has), and worker w runs band w's tiles in row order, then
// the valley at the band's end (actor.Schedule.Assign): the bands need
// nothing from each other, so the workers wait only for the valleys. The
// block is shortened to what the narrowest pyramid can lean (half its
// width plus one, or on a mesh its width plus one). It refuses a network
// that is no torus or mesh.
func TileGrid(t topology.Topology, ref []int32, steps, side, parts int) (*actor.Schedule, error) {
	g, ok := t.(*grid.Grid2D)
	if !ok {
		return nil, fmt.Errorf("tiling: %s is no torus or mesh", t)
	}
	if steps < 1 || side < 1 {
		return nil, fmt.Errorf("tiling: %d steps over tiles of side %d", steps, side)
	}
	K := g.K
	parts = max(1, min(parts, K))
	first := firstActors(t, ref)
	xs, steps := tiles1D(K, parts, side, g.Wrap, steps)
	ys, _ := tiles1D(K, 1, side, g.Wrap, steps)
	// Pieces: every band's tiles in row order, then every valley in row
	// order; worker w runs band w and the valley at its end.
	type piece struct{ x, y, part int }
	var order []piece
	for _, valleys := range []bool{false, true} {
		for w := 0; w < parts; w++ {
			for y := range ys {
				for x := range xs {
					if xs[x].band == w && xs[x].valley == valleys {
						order = append(order, piece{x, y, w})
					}
				}
			}
		}
	}
	plan := make([][]actor.PieceStep, 0, len(order))
	part := make([]int, 0, len(order))
	for _, o := range order {
		steps := make([]actor.PieceStep, len(xs[o.x].at))
		for s := range steps {
			var ps actor.PieceStep
			for _, yr := range ys[o.y].at[s] {
				for y := yr[0]; y < yr[1]; y++ {
					for _, xr := range xs[o.x].at[s] {
						if xr[0] < xr[1] {
							r0, r1 := g.Router(xr[0], y), g.Router(xr[1]-1, y)+1
							ps = append(ps, [2]int{first[r0], first[r1]})
						}
					}
				}
			}
			steps[s] = ps
		}
		plan = append(plan, steps)
		part = append(part, o.part)
	}
	sc, err := actor.NewSchedule(len(ref), steps, plan, actorGraph(t, ref))
	if err != nil || parts < 2 {
		return sc, err
	}
	return sc, sc.Assign(parts, part)
}

// tile1D is one tile of a line: its intervals of positions at each step,
// the band it belongs to, and whether it is the valley at the band's end.
type tile1D struct {
	at     [][][2]int
	band   int
	valley bool
}

// tiles1D cuts a line (or ring, with wrap) of k positions into bands and
// each band into skewed tiles of about side positions: a pyramid
// [b0 + s, b1 - s) (on a mesh's first band [0, b1 - s)), parallelograms
// [b_i - s, b_{i+1} - s), and at the band's end B a valley
// [B - s, B + s) mod k (none at a mesh's end, whose last tile runs to k).
// It returns the tiles and the steps they allow: no more than steps, and no
// more than the narrowest pyramid can lean.
func tiles1D(k, bands, side int, wrap bool, steps int) ([]tile1D, int) {
	cut := make([]int, bands+1)
	for w := range cut {
		cut[w] = w * k / bands
	}
	type span struct{ lo, hi, band int }
	var tiles []span
	for w := 0; w < bands; w++ {
		nt := max(1, (cut[w+1]-cut[w])/side)
		for i := 0; i < nt; i++ {
			tiles = append(tiles, span{cut[w] + i*(cut[w+1]-cut[w])/nt, cut[w] + (i+1)*(cut[w+1]-cut[w])/nt, w})
		}
	}
	for _, t := range tiles {
		if t.lo == cut[t.band] && (wrap || t.band > 0) { // a pyramid
			steps = min(steps, (t.hi-t.lo)/2+1)
		} else if t.lo == 0 || t.hi == k && !wrap {
			steps = min(steps, t.hi-t.lo+1)
		}
	}
	var out []tile1D
	for _, t := range tiles {
		at := make([][][2]int, steps)
		for s := range at {
			lo, hi := t.lo-s, t.hi-s
			if t.lo == cut[t.band] {
				lo = t.lo + s
				if !wrap && t.band == 0 {
					lo = 0
				}
			}
			if t.hi == cut[t.band+1] && !wrap && t.band == bands-1 {
				hi = k
			}
			at[s] = [][2]int{{lo, hi}}
		}
		out = append(out, tile1D{at: at, band: t.band})
		if t.hi == cut[t.band+1] && (wrap || t.band < bands-1) {
			// The valley at the band's end.
			v := make([][][2]int, steps)
			for s := range v {
				switch {
				case t.hi == k:
					v[s] = [][2]int{{0, s}, {k - s, k}}
				default:
					v[s] = [][2]int{{t.hi - s, t.hi + s}}
				}
			}
			out = append(out, tile1D{at: v, band: t.band, valley: true})
		}
	}
	return out, steps
}

// TileFatTree is the temporal-blocking plan of a k-ary n-tree whose actor
// i is router ref[i] or node -ref[i]-1: split tiling at level split
// (1 <= split <= n-1), blocks of at most steps cycles.
//
// A climb from level l changes digit l of the switch, so the switches below
// split with the same digits split-1..n-2 (a pod, with its nodes) are joined
// only to each other and, from level split-1, to level split; the switches
// from split up with the same digits 0..split-1 (an upper group) only to
// each other and, from level split, to level split-1. An actor's lean a is
// min(steps, its distance in links to the other side of the split): a
// switch of level l < split split-l (its nodes tick with it), a switch of
// level l >= split l-split+1. Neighbours' leans differ by at most one. A
// block runs first every pod and upper group on its own (pieces of about
// groupActors actors), each actor for its first a steps, which need
// nothing from any other piece: at the level of the split a = 1, and step 0 needs only the
// previous block. Then, step by step, the band of actors with a <= s runs
// step s (split into parts pieces). The pods and groups stay in cache for
// their a steps; the band around the split streams from memory as without
// blocking. The band is levels split-steps+1 .. split+steps-2, so the
// lean that pays is bounded by the tree's depth: a tree of n levels can
// keep at most about n/2 steps in cache.
func TileFatTree(t topology.Topology, ref []int32, steps, split, groupActors, parts int) (*actor.Schedule, error) {
	f, ok := t.(*fattree.FatTree)
	if !ok {
		return nil, fmt.Errorf("tiling: %s is no fat-tree", t)
	}
	if split < 1 || split > f.N-1 || steps < 1 {
		return nil, fmt.Errorf("tiling: a split at level %d of a %s (allowed: 1..%d), %d steps", split, t, f.N-1, steps)
	}
	k, n := f.K, f.N
	pow := func(e int) int {
		p := 1
		for range e {
			p *= k
		}
		return p
	}
	first := firstActors(t, ref)
	// A switch's actors: itself and, on a leaf, its nodes, which tick
	// with it.
	span := func(r int) [2]int { return [2]int{first[r], first[r+1]} }
	lean := func(l int) int { // of a switch at level l
		if l < split {
			return min(steps, split-l)
		}
		return min(steps, l-split+1)
	}
	per := f.PerLevel()
	podLow, podCount := pow(split-1), per/pow(split-1) // switches per level in a pod, pods
	grpLow := pow(split)                               // groups: one per value of digits 0..split-1
	grpCount, grpPer := grpLow, per/grpLow             // groups, switches per level in a group
	var plan [][]actor.PieceStep
	appendMerged := func(ps actor.PieceStep, r [2]int) actor.PieceStep {
		if m := len(ps); m > 0 && ps[m-1][1] == r[0] {
			ps[m-1][1] = r[1]
			return ps
		}
		return append(ps, r)
	}
	// Pods, several to a piece.
	podActors := split*podLow + podLow*k // with the leaves' nodes
	perPiece := max(1, groupActors/podActors)
	for q0 := 0; q0 < podCount; q0 += perPiece {
		piece := make([]actor.PieceStep, steps)
		for s := 0; s < steps; s++ {
			for l := 0; l < split; l++ {
				if lean(l) <= s {
					continue
				}
				for q := q0; q < min(q0+perPiece, podCount); q++ {
					for lo := 0; lo < podLow; lo++ {
						piece[s] = appendMerged(piece[s], span(f.Router(l, q*podLow+lo)))
					}
				}
			}
		}
		plan = append(plan, piece)
	}
	// Upper groups, several to a piece.
	grpActors := (n - split) * grpPer
	perPiece = max(1, groupActors/grpActors)
	for g0 := 0; g0 < grpCount; g0 += perPiece {
		piece := make([]actor.PieceStep, steps)
		for s := 0; s < steps; s++ {
			for l := split; l < n; l++ {
				if lean(l) <= s {
					continue
				}
				for hi := 0; hi < grpPer; hi++ {
					for g := g0; g < min(g0+perPiece, grpCount); g++ {
						piece[s] = appendMerged(piece[s], span(f.Router(l, hi*grpLow+g)))
					}
				}
			}
		}
		plan = append(plan, piece)
	}
	// The band, step by step, each step cut into parts pieces.
	for s := 1; s < steps; s++ {
		var band actor.PieceStep
		for r := 0; r < t.Routers(); r++ {
			if l, _ := f.Switch(r); lean(l) <= s {
				band = appendMerged(band, span(r))
			}
		}
		total := 0
		for _, r := range band {
			total += r[1] - r[0]
		}
		for w := 0; w < max(1, parts); w++ {
			// Part w takes the band's actors [w*total/parts, (w+1)*total/parts).
			lo, hi := w*total/max(1, parts), (w+1)*total/max(1, parts)
			piece := make([]actor.PieceStep, steps)
			at := 0
			for _, r := range band {
				a, b := max(r[0], r[0]+lo-at), min(r[1], r[0]+hi-at)
				if a < b {
					piece[s] = append(piece[s], [2]int{a, b})
				}
				at += r[1] - r[0]
			}
			plan = append(plan, piece)
		}
	}
	return actor.NewSchedule(len(ref), steps, plan, actorGraph(t, ref))
}
