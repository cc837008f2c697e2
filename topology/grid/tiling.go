package grid

import (
	"fmt"

	"github.com/icnsim/icnsim/actor"
)

// Tiles is the temporal-blocking plan of a torus or mesh network
// (fabric.Tiler; fabric/tiling.go has the design): blocks of at most steps
// cycles over skewed tiles of about side x side routers, router r's actors
// being first[r] .. first[r+1]-1. For parts >=
// 2 workers the network is cut into parts bands of columns, each with its
// own pyramid at its start and a valley at its end (as the wrap-around of
// a single band has), and worker w runs band w's tiles in row order, then
// the valley at the band's end (actor.Schedule.Assign): the bands need
// nothing from each other, so the workers wait only for the valleys. The
// block is shortened to what the narrowest pyramid can lean (half its
// width plus one, or on a mesh its width plus one).
func (g *Grid2D) Tiles(first []int, steps, side, parts int) (actor.Plan, error) {
	return tilePlan(first, steps, side, parts, g.K, g.K, g.Wrap, func(x0, x1, y int, emit func(r0, r1 int)) {
		emit(g.Router(x0, y), g.Router(x1-1, y)+1)
	})
}

// Tiles is the temporal-blocking plan of an n-D grid of two or more
// dimensions (fabric.Tiler): Grid2D's skewed tiles over dimensions 0 and
// 1, each tile holding every router of the dimensions above (its lines
// along them stay whole in the piece, wrap-arounds included, so only
// dimensions 0 and 1 lean).
func (g *GridND) Tiles(first []int, steps, side, parts int) (actor.Plan, error) {
	if err := g.TilesRefused(); err != nil {
		return actor.Plan{}, err
	}
	kx, ky := g.Radix[0], g.Radix[1]
	above := g.routers / (kx * ky) // the routers of dimensions 2.. per (x, y)
	return tilePlan(first, steps, side, parts, kx, ky, g.Wrap, func(x0, x1, y int, emit func(r0, r1 int)) {
		for q := range above {
			r0 := q*kx*ky + y*kx + x0
			emit(r0, r0+x1-x0)
		}
	})
}

// TilesRefused refuses tiles on a grid of one dimension (a ring or a
// line): they need two.
func (g *GridND) TilesRefused() error {
	if g.Dims() < 2 {
		return fmt.Errorf("blocking = on: a %s has one dimension and cannot be tiled (tiles need two); use blocking off or auto", g)
	}
	return nil
}

// tilePlan is the plan over a grid of kx x ky positions (torus with
// wrap), the routers of row y's positions x0..x1-1 being given by rows
// as ranges of router numbers.
func tilePlan(first []int, steps, side, parts, kx, ky int, wrap bool, rows func(x0, x1, y int, emit func(r0, r1 int))) (actor.Plan, error) {
	if steps < 1 || side < 1 {
		return actor.Plan{}, fmt.Errorf("tiling: %d steps over tiles of side %d", steps, side)
	}
	parts = max(1, min(parts, kx))
	xs, steps := tiles1D(kx, parts, side, wrap, steps)
	ys, ySteps := tiles1D(ky, 1, side, wrap, steps)
	if ySteps < steps { // the columns' pyramids lean less (never on k x k)
		steps = ySteps
		xs, _ = tiles1D(kx, parts, side, wrap, steps)
	}
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
							rows(xr[0], xr[1], y, func(r0, r1 int) { ps = append(ps, [2]int{first[r0], first[r1]}) })
						}
					}
				}
			}
			steps[s] = ps
		}
		plan = append(plan, steps)
		part = append(part, o.part)
	}
	if parts < 2 {
		part = nil
	}
	return actor.Plan{Pieces: plan, Steps: steps, Worker: part, Workers: parts}, nil
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
