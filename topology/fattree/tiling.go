package fattree

import (
	"fmt"

	"github.com/icnsim/icnsim/actor"
)

// GroupActors is about how many actors a piece of a fat-tree's split
// tiling holds.
const GroupActors = 512

// Tiles is the temporal-blocking plan of the fat-tree (fabric.Tiler):
// split tiling in the middle (TileSplit), blocks no longer than the pods
// are deep, pieces of about GroupActors actors (measured on the 4-ary
// 7-tree: 2048 gave 1.49M router-cycles/s, 512 1.61M, unblocked 1.44M);
// side is not used.
func (f *FatTree) Tiles(first []int, steps, _, parts int) (actor.Plan, error) {
	if f.N < 2 {
		return actor.Plan{}, fmt.Errorf("tiling: a %s has no levels to split", f)
	}
	split := (f.N + 1) / 2
	return f.TileSplit(first, min(steps, split), split, GroupActors, parts)
}

// TileSplit is the temporal-blocking plan of a k-ary n-tree whose router
// r's actors are first[r] .. first[r+1]-1: split tiling at level split
// (1 <= split <= n-1), blocks of at most steps cycles, pieces of about
// groupActors actors, the band around the split cut for parts workers.
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
func (f *FatTree) TileSplit(first []int, steps, split, groupActors, parts int) (actor.Plan, error) {
	if split < 1 || split > f.N-1 || steps < 1 {
		return actor.Plan{}, fmt.Errorf("tiling: a split at level %d of a %s (allowed: 1..%d), %d steps", split, f, f.N-1, steps)
	}
	k, n := f.K, f.N
	// A switch's actors: itself and, on a leaf, its nodes, which tick
	// with it.
	span := func(r int) [2]int { return [2]int{first[r], first[r+1]} }
	lean := func(l int) int { // of a switch at level l
		if l < split {
			return min(steps, split-l)
		}
		return min(steps, l-split+1)
	}
	// Below the split a pod's switches of level l are those with the same
	// digits split-1..n-2 (each counting k there): podLow(l) consecutive
	// indices. Above it a group's are those with the same digits
	// 0..split-1 (counting Up(0)..Up(split-1) on every level from split):
	// every grpLow-th index.
	podLow := func(l int) int { return f.stride[l][split-1] }
	podCount := f.count[0] / podLow(0)
	grpLow := f.count[split]
	for j := split; j < n-1; j++ {
		grpLow /= f.radix(split, j)
	}
	var plan [][]actor.PieceStep
	appendMerged := func(ps actor.PieceStep, r [2]int) actor.PieceStep {
		if m := len(ps); m > 0 && ps[m-1][1] == r[0] {
			ps[m-1][1] = r[1]
			return ps
		}
		return append(ps, r)
	}
	// Pods, several to a piece.
	podActors := podLow(0) * k // the leaves' nodes
	for l := range split {
		podActors += podLow(l)
	}
	perPiece := max(1, groupActors/podActors)
	for q0 := 0; q0 < podCount; q0 += perPiece {
		piece := make([]actor.PieceStep, steps)
		for s := 0; s < steps; s++ {
			for l := 0; l < split; l++ {
				if lean(l) <= s {
					continue
				}
				for q := q0; q < min(q0+perPiece, podCount); q++ {
					for lo := 0; lo < podLow(l); lo++ {
						piece[s] = appendMerged(piece[s], span(f.Router(l, q*podLow(l)+lo)))
					}
				}
			}
		}
		plan = append(plan, piece)
	}
	// Upper groups, several to a piece.
	grpActors := 0
	for l := split; l < n; l++ {
		grpActors += f.count[l] / grpLow
	}
	perPiece = max(1, groupActors/grpActors)
	for g0 := 0; g0 < grpLow; g0 += perPiece {
		piece := make([]actor.PieceStep, steps)
		for s := 0; s < steps; s++ {
			for l := split; l < n; l++ {
				if lean(l) <= s {
					continue
				}
				for hi := 0; hi < f.count[l]/grpLow; hi++ {
					for g := g0; g < min(g0+perPiece, grpLow); g++ {
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
		for r := 0; r < f.Routers(); r++ {
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
	return actor.Plan{Pieces: plan, Steps: steps}, nil
}
