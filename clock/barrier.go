package clock

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Barrier is a reusable sense-reversing barrier for a fixed number of
// participants. A waiter spins for a bounded number of iterations (yielding
// the processor between checks) and then parks, so a barrier with more
// participants than CPUs does not burn a core. Break releases every current
// and future waiter, which is how a cancelled context or a panicking actor
// unblocks a run.
type Barrier struct {
	parties  int32
	spin     int
	arrived  atomic.Int32
	gen      atomic.Uint32
	broken   atomic.Bool
	sleepers atomic.Int32
	mu       sync.Mutex
	cond     *sync.Cond
}

// NewBarrier returns a barrier for parties participants. spin is the number of
// polling iterations before a waiter parks; 0 parks at once, which is right
// when participants outnumber CPUs.
func NewBarrier(parties, spin int) *Barrier {
	if parties < 1 {
		panic("clock: barrier needs at least one party")
	}
	b := &Barrier{parties: int32(parties), spin: spin}
	b.cond = sync.NewCond(&b.mu)
	return b
}

// Wait blocks until all parties have called Wait for the current generation,
// or until the barrier is broken. It reports false when the barrier is broken.
func (b *Barrier) Wait() bool {
	g := b.gen.Load()
	if b.arrived.Add(1) == b.parties {
		b.arrived.Store(0)
		b.gen.Store(g + 1)
		if b.sleepers.Load() > 0 {
			b.mu.Lock()
			b.cond.Broadcast()
			b.mu.Unlock()
		}
		return !b.broken.Load()
	}
	for i := 0; i < b.spin; i++ {
		if b.gen.Load() != g || b.broken.Load() {
			return !b.broken.Load()
		}
		if i&255 == 255 {
			runtime.Gosched()
		}
	}
	b.mu.Lock()
	b.sleepers.Add(1)
	for b.gen.Load() == g && !b.broken.Load() {
		b.cond.Wait()
	}
	b.sleepers.Add(-1)
	b.mu.Unlock()
	return !b.broken.Load()
}

// Break releases all waiters now and makes every later Wait return false at once.
func (b *Barrier) Break() {
	b.broken.Store(true)
	b.mu.Lock()
	b.cond.Broadcast()
	b.mu.Unlock()
}

// Broken reports whether Break was called.
func (b *Barrier) Broken() bool { return b.broken.Load() }
