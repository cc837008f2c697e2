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
// slot in one cycle. A Wire is 128 bytes, two cache lines, with the ring
// inside it when both latencies are 1: a large network touches every wire
// every cycle, and the number of lines it touches sets its speed. It has no
// name; the actor that reads or writes it names it in its errors.
type Wire struct {
	slots     []wireSlot
	flitLat   int32
	creditLat int32
	inline    [2]wireSlot // the ring when both latencies are 1: no pointer to chase
}

// A wireSlot is 48 bytes: the flit's stamp, the credit's stamp and VC in
// one word, and the flit.
type wireSlot struct {
	flitAt clock.Cycle // cycle at which flit becomes visible; -1 never
	// credit is the cycle at which the credit becomes visible, shifted
	// left by 16 bits, with the credit's VC in the low 16 bits; -1<<16
	// never. Cycles stay far below 2^47.
	credit int64
	flit   Flit
}

// Init prepares a wire in place.
func (w *Wire) Init(flitLatencyCycles, creditLatencyCycles int) {
	if flitLatencyCycles < 1 || creditLatencyCycles < 1 || flitLatencyCycles > 1<<20 || creditLatencyCycles > 1<<20 {
		panic(fmt.Sprintf("link: wire latencies %d and %d outside 1..2^20", flitLatencyCycles, creditLatencyCycles))
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
		w.slots[i].flitAt, w.slots[i].credit = -1, -1<<16
	}
	w.flitLat, w.creditLat = int32(flitLatencyCycles), int32(creditLatencyCycles)
}

// Connected reports whether Init was called.
func (w *Wire) Connected() bool { return w.slots != nil }

// slot is the slot of cycle at (the ring's length is a power of two).
func (w *Wire) slot(at clock.Cycle) *wireSlot {
	return &w.slots[at&clock.Cycle(len(w.slots)-1)]
}

// FlitSlot returns the place to write the flit sent at cycle now (visible
// to the reader at now + flit latency) and whether that place was free: ok
// is false when a flit was already sent in cycle now, a broken invariant
// that the writer reports under its own name. It has no call inside, so it
// inlines into the writer's hot path.
func (w *Wire) FlitSlot(now clock.Cycle) (f *Flit, ok bool) {
	at := now + clock.Cycle(w.flitLat)
	s := w.slot(at)
	ok = s.flitAt != at
	s.flitAt = at
	return &s.flit, ok
}

// SendFlit sends f at cycle now. A second flit in one cycle panics.
func (w *Wire) SendFlit(now clock.Cycle, f Flit) {
	slot, ok := w.FlitSlot(now)
	if !ok {
		doubleSend("flit", now)
	}
	*slot = f
}

// PutCredit sends c at cycle now (visible at now + credit latency) and
// reports whether it was the cycle's first credit (false: a broken
// invariant that the writer reports under its own name). It inlines.
func (w *Wire) PutCredit(now clock.Cycle, c Credit) (ok bool) {
	at := now + clock.Cycle(w.creditLat)
	s := w.slot(at)
	ok = s.credit>>16 != int64(at)
	s.credit = int64(at)<<16 | int64(c.VC)
	return ok
}

// SendCredit sends c at cycle now. A second credit in one cycle panics.
func (w *Wire) SendCredit(now clock.Cycle, c Credit) {
	if !w.PutCredit(now, c) {
		doubleSend("credit", now)
	}
}

// SentAt reports whether the writer already sent a flit in cycle now (for
// control lanes that steal idle cycles of this link). Writer only.
func (w *Wire) SentAt(now clock.Cycle) bool {
	at := now + clock.Cycle(w.flitLat)
	return w.slot(at).flitAt == at
}

// Recv returns what is visible at cycle now: the flit (nil for none) and
// the credit, if hasCredit. Reader only; the flit pointer is valid until the
// reader's tick ends.
func (w *Wire) Recv(now clock.Cycle) (f *Flit, c Credit, hasCredit bool) {
	f, vc, hasFlit, hasCredit := w.Poll(now)
	if !hasFlit {
		f = nil
	}
	return f, Credit{VC: vc}, hasCredit
}

// Poll is Recv for readers that avoid branches: it returns the place of the
// flit visible at cycle now, which always exists, the VC of the credit
// (meaningful only when hasCredit), and whether each was sent for now.
// Reader only.
func (w *Wire) Poll(now clock.Cycle) (f *Flit, creditVC uint16, hasFlit, hasCredit bool) {
	s := w.slot(now)
	return &s.flit, uint16(s.credit), s.flitAt == now, s.credit>>16 == int64(now)
}

// InTransit calls flit and credit for every value sent but not yet visible
// to a reader whose next cycle is next. Both ends must be paused.
func (w *Wire) InTransit(next clock.Cycle, flit func(*Flit), credit func(Credit)) {
	for i := range w.slots {
		s := &w.slots[i]
		if s.flitAt >= next {
			flit(&s.flit)
		}
		if s.credit>>16 >= int64(next) {
			credit(Credit{VC: uint16(s.credit)})
		}
	}
}

// doubleSend reports a broken invariant (the executor adds the name of the
// actor that sent); kept out of line.
//
//go:noinline
func doubleSend(what string, now clock.Cycle) {
	panic(fmt.Sprintf("wire: second %s sent in cycle %d", what, now))
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
		if credits != nil && s.credit>>16 >= int64(next) {
			credits[uint16(s.credit)]++
		}
	}
}
