package actor

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/icnsim/icnsim/clock"
	"github.com/icnsim/icnsim/link"
)

// ringGraph is the lane graph of makeRing: actor i writes the lane actor
// i+1 reads.
func ringGraph(n int) Graph {
	g := Graph{Off: make([]int32, n+1)}
	for i := 0; i < n; i++ {
		g.Adj = append(g.Adj, int32((i+1)%n))
		g.Off[i+1] = int32(len(g.Adj))
	}
	return g
}

// skewedRing is the skewed tiling of a ring of n actors into tiles of w:
// a pyramid, parallelograms leaning one actor per step, and the valley
// around the wrap-around last.
func skewedRing(n, w, steps int) [][]PieceStep {
	var plan [][]PieceStep
	add := func(f func(s int) PieceStep) {
		p := make([]PieceStep, steps)
		for s := range p {
			p[s] = f(s)
		}
		plan = append(plan, p)
	}
	add(func(s int) PieceStep { return PieceStep{{s, w - s}} })
	for lo := w; lo < n; lo += w {
		hi := min(lo+w, n)
		add(func(s int) PieceStep { return PieceStep{{lo - s, hi - s}} })
	}
	add(func(s int) PieceStep { return PieceStep{{0, s}, {n - s, n}} })
	return plan
}

func TestScheduleMatchesSerial(t *testing.T) {
	const n, to = 40, 503
	ref, rs := makeRing(n, -1)
	if _, err := Run(context.Background(), Serial, 1, Spec{Actors: ref, To: to, Chunk: 50}); err != nil {
		t.Fatal(err)
	}
	sc, err := NewSchedule(n, 7, skewedRing(n, 12, 7), ringGraph(n))
	if err != nil {
		t.Fatal(err)
	}
	if sc.Pieces() != 5 || sc.Deps() == 0 {
		t.Fatalf("%d pieces, %d dependencies; want 5 and some", sc.Pieces(), sc.Deps())
	}
	for _, c := range []struct {
		kind    Kind
		workers int
	}{{Serial, 1}, {Shards, 1}, {Shards, 2}, {Shards, 3}, {Shards, 9}} {
		as, got := makeRing(n, -1)
		var hooks []clock.Cycle
		next, err := Run(context.Background(), c.kind, c.workers, Spec{Actors: as, To: to, Chunk: 50, Schedule: sc,
			Hook: func(at clock.Cycle) bool {
				// Every actor stands at the hook's cycle.
				hooks = append(hooks, at)
				return false
			}})
		if err != nil || next != to {
			t.Fatalf("%s/%d: next %d, err %v", c.kind, c.workers, next, err)
		}
		if len(hooks) != 11 || hooks[0] != 50 || hooks[10] != to {
			t.Errorf("%s/%d: hook at %v, want every 50 cycles and at %d", c.kind, c.workers, hooks, to)
		}
		for i := range rs {
			if got[i].acc != rs[i].acc {
				t.Fatalf("%s/%d: actor %d state %x, serial %x", c.kind, c.workers, i, got[i].acc, rs[i].acc)
			}
		}
	}
}

func TestScheduleRefusesBadPlans(t *testing.T) {
	const n = 20
	flat := func(steps int) [][]PieceStep { // tiles that do not lean
		var plan [][]PieceStep
		for lo := 0; lo < n; lo += 5 {
			p := make([]PieceStep, steps)
			for s := range p {
				p[s] = PieceStep{{lo, lo + 5}}
			}
			plan = append(plan, p)
		}
		return plan
	}
	for _, c := range []struct {
		name string
		plan [][]PieceStep
		want string
	}{
		{"no lean", flat(3), "runs before its neighbour"},
		{"missing", [][]PieceStep{{{{0, 19}}}}, "actor 19 in no piece"},
		{"twice", [][]PieceStep{{{{0, 20}}}, {{{3, 4}}}}, "actor 3 in pieces 0 and 1"},
		{"outside", [][]PieceStep{{{{0, 21}}}}, "outside"},
	} {
		steps := len(c.plan[0])
		_, err := NewSchedule(n, steps, c.plan, ringGraph(n))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
	// One piece of one step is the cycle-by-cycle loop: always valid.
	if _, err := NewSchedule(n, 1, [][]PieceStep{{{{0, n}}}}, ringGraph(n)); err != nil {
		t.Error(err)
	}
}

func TestSchedulePanicAndCancel(t *testing.T) {
	const n = 40
	sc, err := NewSchedule(n, 7, skewedRing(n, 12, 7), ringGraph(n))
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []int{1, 2} {
		as, _ := makeRing(n, 123)
		_, err := Run(context.Background(), Shards, w, Spec{Actors: as, To: 500, Chunk: 100, Schedule: sc})
		var pe *PanicError
		if !errors.As(err, &pe) || pe.Cycle != 123 || !strings.HasPrefix(pe.Actor, "ring ") {
			t.Fatalf("%d workers: error %v, want a panic of a ring actor at cycle 123", w, err)
		}
		// A run with no end stops within a second of its cancellation.
		as, _ = makeRing(n, -1)
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		start := time.Now()
		_, err = Run(ctx, Shards, w, Spec{Actors: as, To: clock.Never, Chunk: 1 << 20, Schedule: sc})
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > time.Second {
			t.Fatalf("%d workers: cancelled run returned %v after %v", w, err, time.Since(start))
		}
	}
}

// longRing is a ring of n actors whose lanes all have latency lat (rings
// of link.Lane's size), and its lane graph with every edge's lead.
func longRing(n, lat int) ([]Actor, []*ring, Graph) {
	lanes := make([]*link.Lane[uint64], n)
	for i := range lanes {
		lanes[i] = link.NewLane[uint64]("l", lat)
	}
	as := make([]Actor, n)
	rs := make([]*ring, n)
	for i := range as {
		rs[i] = &ring{name: "ring " + string(rune('A'+i)), in: lanes[i], out: lanes[(i+1)%n], acc: uint64(i), bomb: -1}
		as[i] = rs[i]
	}
	g := ringGraph(n)
	slots := 2
	for slots < lat+1 {
		slots <<= 1
	}
	lead := int32(min(lat, slots-lat))
	for range g.Adj {
		g.Lead = append(g.Lead, lead)
	}
	return as, rs, g
}

// TestScheduleLeadsOverLongLanes: actors joined only by lanes of latency 4
// (rings of 8 slots: a lead of 4 cycles) run as pieces of one actor each,
// for blocks of up to 4 cycles, in any order, with serial's results; 5
// steps, or a lead the lanes do not allow, are refused.
func TestScheduleLeadsOverLongLanes(t *testing.T) {
	const n, to, lat = 9, 301, 4
	_, want, g := longRing(n, lat)
	if _, err := Run(context.Background(), Serial, 1, Spec{Actors: actorsOf(want), To: to, Chunk: 20}); err != nil {
		t.Fatal(err)
	}
	singles := func(steps int, reverse bool) [][]PieceStep {
		plan := make([][]PieceStep, n)
		for i := range plan {
			a := i
			if reverse {
				a = n - 1 - i
			}
			plan[i] = make([]PieceStep, steps)
			for s := range plan[i] {
				plan[i][s] = PieceStep{{a, a + 1}}
			}
		}
		return plan
	}
	for _, reverse := range []bool{false, true} {
		sc, err := NewSchedule(n, lat, singles(lat, reverse), g)
		if err != nil {
			t.Fatal(err)
		}
		if sc.Deps() != 0 {
			t.Errorf("%d dependencies between pieces, want none within a block", sc.Deps())
		}
		for _, w := range []int{1, 2, 4} {
			as, got, _ := longRing(n, lat)
			if _, err := Run(context.Background(), Shards, w, Spec{Actors: as, To: to, Chunk: 20, Schedule: sc}); err != nil {
				t.Fatal(err)
			}
			for i := range got {
				if got[i].acc != want[i].acc {
					t.Fatalf("reverse %v, %d workers: actor %d state %x, serial %x", reverse, w, i, got[i].acc, want[i].acc)
				}
			}
		}
	}
	if _, err := NewSchedule(n, lat+1, singles(lat+1, false), g); err == nil || !strings.Contains(err.Error(), "runs before its neighbour") {
		t.Errorf("blocks of %d cycles over leads of %d: error %v, want a refusal", lat+1, lat, err)
	}
	g.Lead = nil
	if _, err := NewSchedule(n, 2, singles(2, false), g); err == nil {
		t.Error("pieces of one actor over leads of 1: accepted, want a refusal")
	}
}

func actorsOf(rs []*ring) []Actor {
	as := make([]Actor, len(rs))
	for i, r := range rs {
		as[i] = r
	}
	return as
}
