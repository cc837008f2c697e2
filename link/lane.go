// Package link owns what connects actors and nothing else: lanes (delay
// lines with one writer and one reader), the wire arena that carries a
// link's flits and credits, control lanes, and the flit and credit they
// carry. Topologies (which router port leads where) are package topology's
// and its families'. It may import clock and internal/prefetch only
// (DESIGN.md section 10).
//
// A lane of latency L >= 1 is a ring of slots indexed by cycle: a value sent
// at cycle c lands in slot (c+L) mod S and the reader, at cycle c, looks at
// slot c mod S. S is the smallest power of two >= L+1 rather than L+1 exactly
// (DESIGN.md section 1): a mask replaces a division on the hot path, and
// because S > L the writer's slot and the reader's slot are never the same in
// one cycle, and a value is read (at c+L) before its slot is reused (at
// c+S > c+L). Each slot carries the cycle at which it becomes visible, so the
// reader never writes to the lane and a stale value is never mistaken for a
// new one.
package link

import (
	"fmt"

	"github.com/icnsim/icnsim/clock"
)

type slot[T any] struct {
	at clock.Cycle // cycle at which v becomes visible; -1 when never written
	v  T
}

// Lane is a delay line carrying at most one value of type T per cycle from
// its writer to its reader.
type Lane[T any] struct {
	slots   []slot[T]
	inline  [2]slot[T] // storage for latency 1, so reading a lane chases no pointer
	mask    clock.Cycle
	latency clock.Cycle
	sent    uint64 // values sent so far (written by the writer only)
	name    string
}

// NewLane returns a lane with the given latency in cycles (>= 1).
func NewLane[T any](name string, latencyCycles int) *Lane[T] {
	l := &Lane[T]{}
	l.Init(name, latencyCycles)
	return l
}

// Init prepares a zero Lane in place (for lanes allocated in flat arrays).
func (l *Lane[T]) Init(name string, latencyCycles int) {
	if latencyCycles < 1 {
		panic(fmt.Sprintf("link: lane %s: latency %d < 1", name, latencyCycles))
	}
	size := 1
	for size < latencyCycles+1 {
		size <<= 1
	}
	if size <= len(l.inline) {
		l.slots = l.inline[:size]
	} else {
		l.slots = make([]slot[T], size)
	}
	for i := range l.slots {
		l.slots[i].at = -1
	}
	l.mask = clock.Cycle(size - 1)
	l.latency = clock.Cycle(latencyCycles)
	l.name = name
}

// Name is the lane's human name, e.g. "R(3,2).E->R(4,2).W".
func (l *Lane[T]) Name() string { return l.name }

// LatencyCycles is the lane's latency.
func (l *Lane[T]) LatencyCycles() int { return int(l.latency) }

// Send puts v on the lane at cycle now; the reader sees it at now+latency.
// Sending twice in one cycle is a broken invariant and panics.
func (l *Lane[T]) Send(now clock.Cycle, v T) {
	at := now + l.latency
	s := &l.slots[at&l.mask]
	if s.at == at {
		l.doubleSend(now)
	}
	s.at = at
	s.v = v
	l.sent++
}

// doubleSend reports a broken invariant; kept out of line so that Send and
// Slot stay small enough to inline.
//
//go:noinline
func (l *Lane[T]) doubleSend(now clock.Cycle) {
	panic(fmt.Sprintf("lane %s: second value sent in cycle %d", l.name, now))
}

// Slot returns the slot to fill for a value sent at cycle now; the caller
// writes the value in place (avoiding a copy). It counts as Send.
func (l *Lane[T]) Slot(now clock.Cycle) *T {
	at := now + l.latency
	s := &l.slots[at&l.mask]
	if s.at == at {
		l.doubleSend(now)
	}
	s.at = at
	l.sent++
	return &s.v
}

// SentAt reports whether the writer already sent a value in cycle now.
// Only the writer may call it.
func (l *Lane[T]) SentAt(now clock.Cycle) bool {
	at := now + l.latency
	return l.slots[at&l.mask].at == at
}

// Recv returns the value visible at cycle now, or nil. The pointer is valid
// until the end of the reader's tick. Only the reader may call it.
func (l *Lane[T]) Recv(now clock.Cycle) *T {
	s := &l.slots[now&l.mask]
	if s.at != now {
		return nil
	}
	return &s.v
}

// Sent is the number of values the writer has sent. Read it only while the
// writer is paused (between cycles).
func (l *Lane[T]) Sent() uint64 { return l.sent }

// InTransit calls fn for every value sent but not yet visible to a reader
// whose next cycle is next. Call it only while both ends are paused.
func (l *Lane[T]) InTransit(next clock.Cycle, fn func(v *T)) {
	for i := range l.slots {
		if l.slots[i].at >= next {
			fn(&l.slots[i].v)
		}
	}
}

// Mode says how a control lane shares its physical link.
type Mode uint8

const (
	// Dedicated control lanes are wires of their own: a value may cross in
	// every cycle.
	Dedicated Mode = iota
	// Steal control lanes use cycle stealing (the virtual control channel of
	// the entropy papers): a value may cross only in a cycle in which the data
	// lane of the same link carried no flit.
	Steal
)

// ParseMode reads "dedicated" or "steal".
func ParseMode(s string) (Mode, error) {
	switch s {
	case "dedicated":
		return Dedicated, nil
	case "steal":
		return Steal, nil
	}
	return 0, fmt.Errorf("unknown control lane mode %q (allowed: dedicated, steal)", s)
}

func (m Mode) String() string {
	if m == Steal {
		return "steal"
	}
	return "dedicated"
}

// Control is a control lane for policy messages of type T (entropy register
// values, the SAT token, RECN notifications, Xon/Xoff). Its writer must be the
// writer of the data lane it steals from, and must make the cycle's data-lane
// decision before calling TrySend.
type Control[T any] struct {
	Lane[T]
	mode Mode
	data interface{ SentAt(clock.Cycle) bool }
}

// NewControl returns a control lane. data is the data lane of the same link
// and direction; it is required in Steal mode.
func NewControl[T any](name string, latencyCycles int, mode Mode, data interface{ SentAt(clock.Cycle) bool }) *Control[T] {
	c := &Control[T]{}
	c.InitControl(name, latencyCycles, mode, data)
	return c
}

// InitControl prepares a zero Control in place (for lanes allocated in flat
// arrays), as NewControl.
func (c *Control[T]) InitControl(name string, latencyCycles int, mode Mode, data interface{ SentAt(clock.Cycle) bool }) {
	if mode == Steal && data == nil {
		panic("link: steal control lane " + name + " without a data lane")
	}
	c.mode, c.data = mode, data
	c.Init(name, latencyCycles)
}

// Mode is the lane's sharing mode.
func (c *Control[T]) Mode() Mode { return c.mode }

// TrySend sends v unless the lane is in steal mode and the data lane carried
// a flit this cycle; it reports whether v was sent.
func (c *Control[T]) TrySend(now clock.Cycle, v T) bool {
	if c.mode == Steal && c.data.SentAt(now) {
		return false
	}
	c.Send(now, v)
	return true
}
