package link

import (
	"fmt"

	"github.com/icnsim/icnsim/clock"
)

// Wire stores the two lanes that run from one port to the port at the other
// end of a link and back again with the same writer and the same reader: the
// data lane of one direction of the link and the credit lane of the other.
// They stay two lanes, each with its own latency and its own stamp; keeping
// them in one slot lets the reader poll both with one cache line, which is
// where a large network's cycle spends its time.
//
// Like a Lane, a Wire is a ring of S slots indexed by cycle, S the smallest
// power of two above both latencies; writer and reader never touch the same
// slot in one cycle.
type Wire struct {
	slots     []wireSlot
	mask      clock.Cycle
	flitLat   clock.Cycle
	creditLat clock.Cycle
	inline    [2]wireSlot // the ring when both latencies are 1: no pointer to chase
	name      string
}

type wireSlot struct {
	flitAt   clock.Cycle // cycle at which flit becomes visible; -1 never
	creditAt clock.Cycle // cycle at which credit becomes visible; -1 never
	flit     Flit
	credit   Credit
}

// Init prepares a wire in place.
func (w *Wire) Init(name string, flitLatencyCycles, creditLatencyCycles int) {
	if flitLatencyCycles < 1 || creditLatencyCycles < 1 {
		panic(fmt.Sprintf("link: wire %s: latency < 1", name))
	}
	size := 1
	for size < max(flitLatencyCycles, creditLatencyCycles)+1 {
		size <<= 1
	}
	if size <= len(w.inline) {
		w.slots = w.inline[:size]
	} else {
		w.slots = make([]wireSlot, size)
	}
	for i := range w.slots {
		w.slots[i].flitAt, w.slots[i].creditAt = -1, -1
	}
	w.mask = clock.Cycle(size - 1)
	w.flitLat, w.creditLat = clock.Cycle(flitLatencyCycles), clock.Cycle(creditLatencyCycles)
	w.name = name
}

// Name is the wire's human name, e.g. "R(3,2).E->R(4,2).W".
func (w *Wire) Name() string { return w.name }

// Connected reports whether Init was called.
func (w *Wire) Connected() bool { return w.slots != nil }

// FlitSlot returns the place to write the flit sent at cycle now (visible
// to the reader at now + flit latency) and whether that place was free: ok
// is false when a flit was already sent in cycle now, a broken invariant
// that the writer reports under its own name. It has no call inside, so it
// inlines into the writer's hot path.
func (w *Wire) FlitSlot(now clock.Cycle) (f *Flit, ok bool) {
	at := now + w.flitLat
	s := &w.slots[at&w.mask]
	ok = s.flitAt != at
	s.flitAt = at
	return &s.flit, ok
}

// SendFlit sends f at cycle now. A second flit in one cycle panics.
func (w *Wire) SendFlit(now clock.Cycle, f Flit) {
	slot, ok := w.FlitSlot(now)
	if !ok {
		w.doubleSend("flit", now)
	}
	*slot = f
}

// PutCredit sends c at cycle now (visible at now + credit latency) and
// reports whether it was the cycle's first credit (false: a broken
// invariant that the writer reports under its own name). It inlines.
func (w *Wire) PutCredit(now clock.Cycle, c Credit) (ok bool) {
	at := now + w.creditLat
	s := &w.slots[at&w.mask]
	ok = s.creditAt != at
	s.creditAt = at
	s.credit = c
	return ok
}

// SendCredit sends c at cycle now. A second credit in one cycle panics.
func (w *Wire) SendCredit(now clock.Cycle, c Credit) {
	if !w.PutCredit(now, c) {
		w.doubleSend("credit", now)
	}
}

// SentAt reports whether the writer already sent a flit in cycle now (for
// control lanes that steal idle cycles of this link). Writer only.
func (w *Wire) SentAt(now clock.Cycle) bool {
	at := now + w.flitLat
	return w.slots[at&w.mask].flitAt == at
}

// Recv returns what is visible at cycle now: a flit, a credit, either or
// neither (nil). Reader only; the pointers are valid until the reader's tick ends.
func (w *Wire) Recv(now clock.Cycle) (*Flit, *Credit) {
	f, c, hasFlit, hasCredit := w.Poll(now)
	if !hasFlit {
		f = nil
	}
	if !hasCredit {
		c = nil
	}
	return f, c
}

// Poll is Recv for readers that avoid branches: it returns the places of
// the flit and the credit visible at cycle now, which always exist, and
// whether each holds a value sent for now. Reader only.
func (w *Wire) Poll(now clock.Cycle) (f *Flit, c *Credit, hasFlit, hasCredit bool) {
	s := &w.slots[now&w.mask]
	return &s.flit, &s.credit, s.flitAt == now, s.creditAt == now
}

// InTransit calls flit and credit for every value sent but not yet visible
// to a reader whose next cycle is next. Both ends must be paused.
func (w *Wire) InTransit(next clock.Cycle, flit func(*Flit), credit func(*Credit)) {
	for i := range w.slots {
		if w.slots[i].flitAt >= next {
			flit(&w.slots[i].flit)
		}
		if w.slots[i].creditAt >= next {
			credit(&w.slots[i].credit)
		}
	}
}

// doubleSend reports a broken invariant; kept out of line.
//
//go:noinline
func (w *Wire) doubleSend(what string, now clock.Cycle) {
	panic(fmt.Sprintf("wire %s: second %s sent in cycle %d", w.name, what, now))
}

// CountInTransit adds, per VC, the flits (to flits) and credits (to credits)
// sent but not yet visible to a reader whose next cycle is next; either
// slice may be nil. Both ends must be paused.
func (w *Wire) CountInTransit(next clock.Cycle, flits, credits []int32) {
	for i := range w.slots {
		s := &w.slots[i]
		if flits != nil && s.flitAt >= next {
			flits[s.flit.VC]++
		}
		if credits != nil && s.creditAt >= next {
			credits[s.credit.VC]++
		}
	}
}
