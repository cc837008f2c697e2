package actor

import (
	"fmt"
	"slices"
)

// A Schedule is a plan for temporal blocking: instead of ticking every actor
// for one cycle before any ticks the next, the executor runs the network in
// blocks of Steps cycles, and within a block it runs pieces one after
// another (or, with several workers, as their dependencies allow). A piece
// ticks, for each relative cycle s of the block in turn, its own set of
// actors for cycle t0+s. Every actor is in exactly one piece at each s, so
// at the end of a block every actor stands at t0+Steps: the block's end is a
// point where the whole network is at one cycle, as at the end of a cycle of
// the other executors, and chunk ends (where the hook runs) are block ends.
//
// Why this gives the serial executor's results, byte for byte: a lane of
// latency L >= 1 and ring size S >= L+1 (link.Lane, link.Wires) needs only
// that its reader ticks cycle c after its writer ticked c-L (the value is
// there) and that its writer ticks c after its reader ticked c+L-S (the slot
// was read). Both hold when every actor ticks cycle c after each of its
// neighbours in the lane graph (writers and readers alike) and itself have
// ticked c-1. Ticks within one cycle are order-free (no value is visible in
// the cycle it is written), so an actor that ticks c after its neighbours'
// c-1 sees exactly what it sees under the serial executor, and by induction
// every actor's state sequence is the serial one. Where all the lanes
// between two actors are long (L >= 2 and S >= L+2), the same argument
// allows either to tick c once the other has ticked c-d, for any lead d of
// at most L and S-L (Graph.Lead): pieces joined only by such links run a
// block of up to d cycles each on its own, waiting for none of the others.
// NewSchedule checks that rule against the lane graph for every actor,
// neighbour and step, and derives from it the pieces each piece must wait
// for; it refuses a plan that breaks it.
//
// The point is the cache: a piece of a few thousand routers ticked for
// Steps cycles in a row stays in the processor's cache, where a cycle of
// the whole network streams the whole state from memory once.
type Schedule struct {
	steps  int
	pieces int
	// ranges holds actor index pairs [lo, hi); the ranges of piece p at
	// step s are ranges[at[p*steps+s] : at[p*steps+s+1]] (pairs).
	ranges []int32
	at     []int32
	// deps[depAt[p]:depAt[p+1]] are the pieces that must be done before
	// piece p starts, all earlier in the order.
	deps  []int32
	depAt []int32
	// part[p] is the worker that runs piece p when the run has parts
	// workers (nil: workers claim pieces in order).
	part  []int32
	parts int
}

// Steps is the number of cycles of a full block.
func (s *Schedule) Steps() int { return s.steps }

// Pieces is the number of pieces of a block.
func (s *Schedule) Pieces() int { return s.pieces }

// Deps is the number of piece-to-piece dependencies of a block.
func (s *Schedule) Deps() int { return len(s.deps) }

// Parts is the number of workers the pieces are assigned to (0 when they
// are claimed in order).
func (s *Schedule) Parts() int { return s.parts }

// Assign gives piece p to worker part[p] of parts. A run with exactly parts
// workers has each run its own pieces in the schedule's order, waiting for
// the pieces each needs, so that a worker keeps to a region of the network
// whose state stays in its cache; a run with another number of workers
// has them claim pieces in order. No assignment can deadlock: the order is
// one in which every piece follows the pieces it needs, so the earliest
// unfinished piece can always run.
func (s *Schedule) Assign(parts int, part []int) error {
	if len(part) != s.pieces || parts < 1 {
		return fmt.Errorf("actor: assignment of %d pieces to %d parts for %d pieces", len(part), parts, s.pieces)
	}
	s.part = make([]int32, len(part))
	for p, w := range part {
		if w < 0 || w >= parts {
			return fmt.Errorf("actor: piece %d assigned to part %d of %d", p, w, parts)
		}
		s.part[p] = int32(w)
	}
	s.parts = parts
	return nil
}

// PieceStep is what one piece ticks at one relative cycle: ranges of actor
// indexes [lo, hi), ticked in the order given.
type PieceStep [][2]int

// Plan is a temporal-blocking plan before its check (NewSchedule): the
// pieces, what each ticks at each relative cycle, the steps of a block,
// and, where it is cut for several workers, each piece's worker of
// Workers (Assign; nil for one).
type Plan struct {
	Pieces  [][]PieceStep
	Steps   int
	Worker  []int
	Workers int
}

// Graph is the lane graph of the actors in compressed rows: the neighbours
// of actor a are Adj[Off[a]:Off[a+1]], every actor that writes a lane a
// reads or reads a lane a writes (control lanes included). Edges may be
// listed once or in both directions; a self-edge is implied.
//
// Lead, when not nil, holds for each entry of Adj how many cycles either
// end may run ahead of the other: it may tick cycle c once the other has
// ticked c - Lead (at least 1; nil is 1 for every edge). For every lane
// between the two, of latency L in a ring of S slots, Lead must be at most
// L (its reader needs the value written L cycles before) and at most S - L
// (its writer must not overwrite a slot its reader has not read): a lane
// of latency 1 allows 1, the rule in the Schedule doc; a long link allows
// pieces on either side of it to run several cycles apart, each in its own
// cache, with no piece waiting for the other within a block.
type Graph struct {
	Off  []int32
	Adj  []int32
	Lead []int32
}

// NewSchedule checks a plan of pieces for n actors and returns the
// schedule. plan[p][s] is what piece p ticks at relative cycle s; pieces are
// listed in an order in which every piece comes after every piece it needs
// (a sequential executor runs them in that order, a parallel one claims them
// in it). It returns an error naming the first actor, step and neighbour at
// which the plan breaks the rule in the Schedule doc, or an actor missing
// from or repeated in a step.
func NewSchedule(n, steps int, plan [][]PieceStep, g Graph) (*Schedule, error) {
	if steps < 1 {
		return nil, fmt.Errorf("actor: schedule of %d steps", steps)
	}
	if len(g.Off) != n+1 {
		return nil, fmt.Errorf("actor: lane graph of %d actors for %d", len(g.Off)-1, n)
	}
	if g.Lead != nil && len(g.Lead) != len(g.Adj) {
		return nil, fmt.Errorf("actor: lane graph with %d leads for %d edges", len(g.Lead), len(g.Adj))
	}
	sc := &Schedule{steps: steps, pieces: len(plan), at: make([]int32, 0, len(plan)*steps+1)}
	sc.at = append(sc.at, 0)
	// owners[s mod len(owners)] is the piece of each actor at step s, kept
	// for the longest lead that reaches back into the block.
	back := 1
	for _, l := range g.Lead {
		if l < 1 {
			return nil, fmt.Errorf("actor: lane graph with a lead of %d cycles (at least 1)", l)
		}
		back = max(back, min(int(l), steps-1))
	}
	owners := make([][]int32, back+1)
	for i := range owners {
		owners[i] = make([]int32, n)
	}
	for s := 0; s < steps; s++ {
		cur := owners[s%len(owners)]
		for a := range cur {
			cur[a] = -1
		}
		for p, steps := range plan {
			if len(steps) != sc.steps {
				return nil, fmt.Errorf("actor: schedule piece %d has %d steps, want %d", p, len(steps), sc.steps)
			}
			for _, r := range steps[s] {
				if r[0] < 0 || r[1] > n || r[0] > r[1] {
					return nil, fmt.Errorf("actor: schedule piece %d step %d: range [%d,%d) outside 0..%d", p, s, r[0], r[1], n)
				}
				for a := r[0]; a < r[1]; a++ {
					if cur[a] >= 0 {
						return nil, fmt.Errorf("actor: schedule step %d: actor %d in pieces %d and %d", s, a, cur[a], p)
					}
					cur[a] = int32(p)
				}
			}
		}
		for a, p := range cur {
			if p < 0 {
				return nil, fmt.Errorf("actor: schedule step %d: actor %d in no piece", s, a)
			}
		}
		if s > 0 {
			if err := sc.collectDeps(owners, s, g); err != nil {
				return nil, err
			}
		}
	}
	// Flatten the ranges piece by piece, step by step.
	for p := range plan {
		for s := 0; s < steps; s++ {
			for _, r := range plan[p][s] {
				if r[0] < r[1] {
					sc.ranges = append(sc.ranges, int32(r[0]), int32(r[1]))
				}
			}
			sc.at = append(sc.at, int32(len(sc.ranges)/2))
		}
	}
	// deps holds (after, before) pairs so far: sort into rows.
	pairs := sc.deps
	sc.deps = nil
	type edge struct{ to, from int32 }
	es := make([]edge, len(pairs)/2)
	for i := range es {
		es[i] = edge{pairs[2*i], pairs[2*i+1]}
	}
	slices.SortFunc(es, func(a, b edge) int {
		if a.to != b.to {
			return int(a.to - b.to)
		}
		return int(a.from - b.from)
	})
	es = slices.Compact(es)
	sc.depAt = make([]int32, len(plan)+1)
	sc.deps = make([]int32, len(es))
	for i, e := range es {
		sc.deps[i] = e.from
		sc.depAt[e.to+1]++
	}
	for p := range plan {
		sc.depAt[p+1] += sc.depAt[p]
	}
	return sc, nil
}

// collectDeps checks that each actor's tick at step s comes, in the piece
// order, after its own tick at s-1 and its neighbours' ticks at s-Lead
// (owners[t mod len(owners)] are the pieces of step t; a step before the
// block's first was done in an earlier block), and records the
// cross-piece orderings as dependencies.
func (sc *Schedule) collectDeps(owners [][]int32, s int, g Graph) error {
	cur := owners[s%len(owners)]
	need := func(a, u, lead int) error {
		t := s - lead
		if t < 0 {
			return nil
		}
		p, q := cur[a], owners[t%len(owners)][u]
		if q == p {
			return nil
		}
		if q > p {
			return fmt.Errorf("actor: schedule step %d: actor %d (piece %d) runs before its neighbour %d's step %d (piece %d)", s, a, p, u, t, q)
		}
		n := len(sc.deps)
		if n >= 2 && sc.deps[n-2] == p && sc.deps[n-1] == q {
			return nil
		}
		sc.deps = append(sc.deps, p, q)
		return nil
	}
	for a := range cur {
		if err := need(a, a, 1); err != nil {
			return err
		}
		for e := g.Off[a]; e < g.Off[a+1]; e++ {
			u, lead := int(g.Adj[e]), 1
			if g.Lead != nil {
				lead = int(g.Lead[e])
			}
			// The rule holds for both ends of a lane, so an edge listed
			// once is checked both ways.
			if err := need(a, u, lead); err != nil {
				return err
			}
			if err := need(u, a, lead); err != nil {
				return err
			}
		}
	}
	return nil
}

// piece returns the ranges of piece p at step s as a flat slice of pairs.
func (sc *Schedule) piece(p, s int) []int32 {
	i := p*sc.steps + s
	return sc.ranges[2*sc.at[i] : 2*sc.at[i+1]]
}

// depsOf returns the pieces piece p waits for.
func (sc *Schedule) depsOf(p int) []int32 { return sc.deps[sc.depAt[p]:sc.depAt[p+1]] }
