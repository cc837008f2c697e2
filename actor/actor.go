// Package actor owns the actors of a simulation and the executors that step
// them: serial (one goroutine), actors (one goroutine per actor) and shards
// (W workers, each owning a contiguous block of actors).
//
// All three executors run the same protocol: every participant ticks its
// actors for cycle c, then waits at one barrier; only after every participant
// has finished cycle c does any start cycle c+1. Every Chunk cycles the
// participants stop at the barrier, the first participant (the calling
// goroutine) runs the Hook with every actor paused, and all read its verdict
// after a second barrier. Because lanes never expose a value in the cycle it
// was written, results do not depend on the executor or the worker count.
//
// A panic inside Tick is recovered, the barrier is broken so that every
// participant returns, and Run reports an error naming the actor and cycle.
//
// Temporal blocking (Spec.Schedule, schedule.go): the serial and shards
// executors can instead run a Schedule, blocks of several cycles in which
// each piece of the network is ticked for all of them in a row while its
// state is in the processor's cache. Within a block actors stand at
// different cycles; NewSchedule proves from the lane graph that each
// still sees exactly what it sees under the serial executor, and block
// ends are the points where every actor stands at one cycle, so the hook
// runs only there, as before. The design, the proof and the measurements
// are in the Schedule doc and in package fabric's tiling.go (with the
// families' plans: topology/grid and topology/fattree).
//
// It may import clock only.
package actor

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/icnsim/icnsim/clock"
)

// Actor is anything that advances one cycle at a time. Tick must only read
// its own state and the lanes it reads, and only write its own state and the
// lanes it writes.
type Actor interface {
	Tick(now clock.Cycle)
}

// Named actors get their name in error messages.
type Named interface {
	Name() string
}

// Name returns the name of actor a, or "actor #i" if it has none.
func Name(a Actor, i int) string {
	if n, ok := a.(Named); ok {
		return n.Name()
	}
	return "actor #" + strconv.Itoa(i)
}

// Kind names an executor.
type Kind string

// The executors.
const (
	Serial Kind = "serial"
	Actors Kind = "actors"
	Shards Kind = "shards"
)

// Kinds lists the executors in a fixed order, for help texts and errors.
func Kinds() []Kind { return []Kind{Serial, Actors, Shards} }

// ParseKind checks an executor name.
func ParseKind(s string) (Kind, error) {
	for _, k := range Kinds() {
		if string(k) == s {
			return k, nil
		}
	}
	return "", fmt.Errorf("unknown executor %q (allowed: serial, actors, shards)", s)
}

// Spec says what to run.
type Spec struct {
	// Actors in a fixed order. Shards take contiguous ranges of this slice.
	Actors []Actor
	// Units optionally groups actors for sharding: Units[i] is the index of
	// the first actor of unit i (Units[0] == 0), for example one torus row of
	// routers and their network interfaces. A shard boundary only falls
	// between units. Nil means every actor is its own unit.
	Units []int
	// From is the first cycle to run; To the cycle at which to stop (the
	// run executes cycles From..To-1 unless the hook stops it earlier).
	From, To clock.Cycle
	// Chunk is the number of cycles between hook calls (>= 1).
	Chunk int
	// Hook is called with every actor paused after each chunk (the last one
	// included), with the number of the next cycle to run. Returning true
	// ends the run. It may read any actor's state. Nil means never stop early.
	Hook func(next clock.Cycle) (stop bool)
	// Prefetch, when not nil, is called before each actor's tick with the
	// index of the actor PrefetchDistance places later in the same
	// participant's block, so that it can ask for the memory that actor
	// will read (the serial and shards executors; it must change nothing).
	Prefetch func(actor int, now clock.Cycle)
	// Schedule, when not nil, makes the serial and shards executors run
	// in temporal blocks (see Schedule), with the same results; chunk
	// ends are block ends, so the hook sees what it sees without one. The
	// actors executor ignores it. Prefetch is not called in blocks: a
	// piece's actors are in cache (asking ahead within a piece's ranges
	// gained nothing on the 256x256 torus: 3.16-3.48 M router-cycles/s
	// against 3.16-3.63 M without, interleaved).
	Schedule *Schedule
}

// PrefetchDistance is how many actors ahead Spec.Prefetch is asked for:
// about two routers with their NIs, a microsecond ahead on a large
// network, which a memory access takes a tenth of.
const PrefetchDistance = 4

// Run executes spec with executor kind and the given number of shard
// workers (0 means GOMAXPROCS; ignored by serial and actors). It returns the
// number of the first cycle not executed.
func Run(ctx context.Context, kind Kind, workers int, spec Spec) (clock.Cycle, error) {
	if spec.Chunk < 1 {
		spec.Chunk = 1
	}
	n := len(spec.Actors)
	if n == 0 {
		return spec.From, errors.New("actor: nothing to run")
	}
	var blocks [][2]int
	// Participants no more numerous than CPUs spin (a cycle of a large
	// network takes tens of microseconds, a futex wake-up about as long);
	// beyond that they park at once.
	spin := 1 << 20
	switch kind {
	case Serial:
		blocks = [][2]int{{0, n}}
	case Actors:
		blocks = make([][2]int, n)
		for i := range blocks {
			blocks[i] = [2]int{i, i + 1}
		}
		spin = 0
	case Shards:
		if workers <= 0 {
			workers = runtime.GOMAXPROCS(0)
		}
		blocks = Partition(n, spec.Units, workers)
		if len(blocks) > runtime.GOMAXPROCS(0) {
			spin = 0
		}
	default:
		return spec.From, fmt.Errorf("actor: unknown executor %q", kind)
	}
	if spec.Schedule != nil && kind != Actors {
		// Workers claim pieces, not blocks of actors: the blocks only
		// count the participants.
		nw := 1
		if kind == Shards {
			nw = max(1, min(workers, spec.Schedule.pieces))
		}
		blocks = make([][2]int, nw)
		spin = 1 << 20
		if nw > runtime.GOMAXPROCS(0) {
			spin = 0
		}
	}
	// One goroutine per actor runs each on its own: nothing to prefetch for.
	r := &runner{spec: spec, blocks: blocks, ctx: ctx, prefetch: kind != Actors}
	if kind != Actors && spec.Schedule != nil {
		r.sched = spec.Schedule
		r.done = make([]atomic.Uint64, r.sched.pieces)
	}
	if kind == Actors {
		r.bar = clock.NewTreeBarrier(len(blocks))
	} else {
		r.bar = spinBarrier{clock.NewBarrier(len(blocks), spin)}
	}
	// A cancelled context breaks the barrier at once, so that a run stops
	// within a cycle, not at the end of its chunk (a cycle of a network of a
	// million routers takes most of a second; a chunk of them, minutes).
	// The cycle in progress is abandoned half done: a cancelled run has no
	// result.
	defer context.AfterFunc(ctx, func() { r.fail(ctx.Err()) })()
	var wg sync.WaitGroup
	for w := 1; w < len(blocks); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.work(w)
		}()
	}
	next := r.work(0)
	wg.Wait()
	if p := r.err.Load(); p != nil {
		return next, *p
	}
	if err := ctx.Err(); err != nil {
		return next, err
	}
	return next, nil
}

// Partition splits n actors into at most w contiguous blocks whose edges fall
// on unit boundaries, each edge at the boundary nearest to an equal share of
// the actors, every block holding at least one unit.
func Partition(n int, units []int, w int) [][2]int {
	if len(units) == 0 {
		units = make([]int, n)
		for i := range units {
			units[i] = i
		}
	}
	nu := len(units)
	w = max(1, min(w, nu))
	bounds := append(append(make([]int, 0, nu+1), units...), n)
	cut := make([]int, w+1) // cut[b] is the first unit of block b
	cut[w] = nu
	for b := 1; b < w; b++ {
		target := b * n / w
		j := cut[b-1] + 1
		for j < nu-(w-b) && bounds[j] < target {
			j++
		}
		if j-1 > cut[b-1] && target-bounds[j-1] < bounds[j]-target {
			j--
		}
		cut[b] = j
	}
	blocks := make([][2]int, w)
	for b := range blocks {
		blocks[b] = [2]int{bounds[cut[b]], bounds[cut[b+1]]}
	}
	return blocks
}

// barrier is what the participants meet at each cycle.
type barrier interface {
	Wait(participant int) bool
	Break()
}

type spinBarrier struct{ *clock.Barrier }

func (b spinBarrier) Wait(int) bool { return b.Barrier.Wait() }

type runner struct {
	spec   Spec
	blocks [][2]int
	ctx    context.Context
	bar    barrier
	stop   bool // written by participant 0 between two barrier waits
	// prefetch says whether the participants call spec.Prefetch.
	prefetch bool
	err      atomic.Pointer[error]
	// With a schedule: done[p] is the number of the last block in which
	// piece p finished, and claim[b&1] the next piece of block b to claim.
	sched *Schedule
	done  []atomic.Uint64
	claim [2]atomic.Int64
}

func (r *runner) fail(err error) {
	r.err.CompareAndSwap(nil, &err)
	r.bar.Break()
}

// work runs participant w and returns the next cycle to execute.
func (r *runner) work(w int) (next clock.Cycle) {
	actors := r.spec.Actors[r.blocks[w][0]:r.blocks[w][1]]
	base := r.blocks[w][0]
	c := r.spec.From
	var block uint64 // blocks run so far (with a schedule)
	for c < r.spec.To {
		end := c + clock.Cycle(r.spec.Chunk)
		if end > r.spec.To {
			end = r.spec.To
		}
		if r.sched != nil {
			for c < end {
				n := min(clock.Cycle(r.sched.steps), end-c)
				block++
				if !r.runBlock(w, c, int(n), block) || !r.bar.Wait(w) {
					return c
				}
				c += n
			}
		}
		for ; c < end; c++ {
			if !r.tick(actors, base, c) {
				return c
			}
			if !r.bar.Wait(w) {
				return c
			}
		}
		if w == 0 {
			// The hook also runs after the last chunk, so it sees the end.
			r.stop = r.ctx.Err() != nil
			if !r.stop && r.spec.Hook != nil {
				r.stop = r.hook(c)
			}
			r.stop = r.stop || c >= r.spec.To
		}
		if !r.bar.Wait(w) {
			return c
		}
		if r.stop {
			return c
		}
	}
	return c
}

func (r *runner) tick(actors []Actor, base int, c clock.Cycle) (ok bool) {
	i := 0
	defer func() {
		if p := recover(); p != nil {
			r.fail(&PanicError{Actor: Name(actors[i], base+i), Cycle: c, Value: p})
			ok = false
		}
	}()
	if pf := r.spec.Prefetch; pf != nil && r.prefetch {
		last := len(actors) - PrefetchDistance
		for i = range actors {
			if i < last {
				pf(base+i+PrefetchDistance, c)
			}
			actors[i].Tick(c)
		}
		return true
	}
	for i = range actors {
		actors[i].Tick(c)
	}
	return true
}

// runBlock runs steps cycles from c as block number seq of the schedule:
// participant w claims pieces in the schedule's order and runs each once
// the pieces it needs are done. It reports false when the run failed.
func (r *runner) runBlock(w int, c clock.Cycle, steps int, seq uint64) bool {
	sc := r.sched
	if len(r.blocks) == 1 {
		for p := 0; p < sc.pieces; p++ {
			if !r.runPiece(p, c, steps) || r.err.Load() != nil {
				return false
			}
		}
		return true
	}
	if sc.parts == len(r.blocks) {
		for p := 0; p < sc.pieces; p++ {
			if int(sc.part[p]) == w && !r.runAfterDeps(p, c, steps, seq) {
				return false
			}
		}
		return true
	}
	claim := &r.claim[seq&1]
	if w == 0 {
		// Nobody uses the other counter until the barrier after this
		// block, which this store precedes.
		r.claim[(seq+1)&1].Store(0)
	}
	for {
		p := int(claim.Add(1)) - 1
		if p >= sc.pieces {
			return true
		}
		if !r.runAfterDeps(p, c, steps, seq) {
			return false
		}
	}
}

// runAfterDeps waits until the pieces piece p needs are done in block seq,
// runs it and marks it done.
func (r *runner) runAfterDeps(p int, c clock.Cycle, steps int, seq uint64) bool {
	for _, d := range r.sched.depsOf(p) {
		for i := 0; r.done[d].Load() != seq; i++ {
			if r.err.Load() != nil {
				return false
			}
			if i&63 == 63 {
				runtime.Gosched()
			}
		}
	}
	if !r.runPiece(p, c, steps) || r.err.Load() != nil {
		return false
	}
	r.done[p].Store(seq)
	return true
}

// runPiece ticks piece p for cycles c..c+steps-1.
func (r *runner) runPiece(p int, c clock.Cycle, steps int) (ok bool) {
	a, now := int32(0), c
	defer func() {
		if v := recover(); v != nil {
			r.fail(&PanicError{Actor: Name(r.spec.Actors[a], int(a)), Cycle: now, Value: v})
			ok = false
		}
	}()
	actors := r.spec.Actors
	for s := 0; s < steps; s++ {
		now = c + clock.Cycle(s)
		rs := r.sched.piece(p, s)
		for k := 0; k+1 < len(rs); k += 2 {
			for a = rs[k]; a < rs[k+1]; a++ {
				actors[a].Tick(now)
			}
		}
	}
	return true
}

func (r *runner) hook(next clock.Cycle) (stop bool) {
	defer func() {
		if p := recover(); p != nil {
			r.fail(&PanicError{Actor: "run hook", Cycle: next, Value: p})
			stop = true
		}
	}()
	return r.spec.Hook(next)
}

// PanicError is a panic inside an actor, turned into an error.
type PanicError struct {
	Actor string
	Cycle clock.Cycle
	Value any
}

func (e *PanicError) Error() string {
	return fmt.Sprintf("%s at cycle %d: %v", e.Actor, e.Cycle, e.Value)
}

// Unwrap returns the panic value if it is an error.
func (e *PanicError) Unwrap() error {
	if err, ok := e.Value.(error); ok {
		return err
	}
	return nil
}
