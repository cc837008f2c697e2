package clock

import "sync/atomic"

// TreeBarrier is a barrier for many more participants than CPUs (one
// goroutine per actor). Arrival is one atomic add; every participant then
// parks on a channel of its own, and release fans out down a binary tree:
// the last to arrive wakes participant 0, and each woken participant wakes
// participants 2i+1 and 2i+2. No lock is taken and the wake-ups spread over
// all CPUs instead of queueing behind one mutex.
type TreeBarrier struct {
	n       int32
	arrived atomic.Int32
	broken  atomic.Bool
	wake    []chan struct{}
}

// NewTreeBarrier returns a barrier for parties participants, numbered 0..parties-1.
func NewTreeBarrier(parties int) *TreeBarrier {
	b := &TreeBarrier{n: int32(parties), wake: make([]chan struct{}, parties)}
	for i := range b.wake {
		b.wake[i] = make(chan struct{}, 1)
	}
	return b
}

// Wait blocks participant i until all have arrived; false if broken.
func (b *TreeBarrier) Wait(i int) bool {
	if b.broken.Load() {
		return false
	}
	if b.arrived.Add(1) == b.n {
		b.arrived.Store(0)
		b.signal(0)
	}
	<-b.wake[i]
	b.signal(2*i + 1)
	b.signal(2*i + 2)
	return !b.broken.Load()
}

// signal wakes participant c. In normal operation c has consumed its
// previous token before anyone can send it the next, so the send never
// blocks; once broken, sends never block.
func (b *TreeBarrier) signal(c int) {
	if c >= int(b.n) {
		return
	}
	if b.broken.Load() {
		select {
		case b.wake[c] <- struct{}{}:
		default:
		}
		return
	}
	b.wake[c] <- struct{}{}
}

// Break releases every waiter, whoever broke it; every later Wait returns
// false at once.
func (b *TreeBarrier) Break() {
	if b.broken.Swap(true) {
		return
	}
	for c := range b.wake {
		select {
		case b.wake[c] <- struct{}{}:
		default:
		}
	}
}
