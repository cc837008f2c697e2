package link

import (
	"fmt"
	"math/bits"
	"unsafe"

	"github.com/icnsim/icnsim/clock"
	"github.com/icnsim/icnsim/internal/prefetch"
)

// Wires holds the wires of a network in one arena. A wire carries the two
// lanes that run from one port to the port at the other end of a link and
// back again with the same writer and the same reader: the data lane of one
// direction of the link and the credit lane of the other. They stay two
// lanes, each with its own latency and its own stamp; keeping them in one
// slot lets the reader poll both at once, which is where a large network's
// cycle spends its time.
//
// Every wire of an arena has the same latencies (a network's links are
// alike), or a few have extra cycles of their own (NewWiresExtra: a
// dragonfly's global links). A wire is a ring of slots, its own S of them,
// S the smallest power of two above its longest latency: when all are
// alike, wire w is slots [w*S, (w+1)*S) of the arena and no wire keeps a
// header; otherwise a table holds each wire's first slot, mask and extra
// cycles, so that a network's few long links do not make every short
// one's ring as long as theirs. Like a Lane's, the ring is
// indexed by cycle, and writer and reader never touch the same slot in one
// cycle. A slot is 48 bytes (the flit's stamp, the credit's stamp and VC in
// one word, and the flit), so a wire of latency 1 is 96 bytes, and a slot's
// two stamps never straddle a cache line (slots start at multiples of 16
// bytes of a line): polling a wire reads one line. Wires are named by the
// actors that read and write them, in their errors.
type Wires struct {
	slots     []wireSlot
	shift     uint8       // S = 1 << shift, when rings is nil
	mask      clock.Cycle // S - 1, when rings is nil
	flitLat   clock.Cycle
	creditLat clock.Cycle
	// rings, when not nil, is each wire's ring and latency beyond flitLat
	// and creditLat (a dragonfly's global links); nil when all are alike.
	rings []wireRing
}

// A wireRing is the place and extra latency of one wire whose latency may
// differ from the arena's. Its first two fields are what
// prefetch.RingSlots reads.
type wireRing struct {
	start int         // its first slot
	mask  clock.Cycle // its slots - 1
	extra clock.Cycle // its cycles beyond the arena's latencies
}

// WireSlotBytes is the size of one slot of a wire's ring.
const WireSlotBytes = int64(unsafe.Sizeof(wireSlot{}))

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

// NewWires returns an arena of n wires with the given latencies in cycles
// (1 to 2^20), nothing sent on any.
func NewWires(n, flitLatencyCycles, creditLatencyCycles int) *Wires {
	return NewWiresExtra(n, flitLatencyCycles, creditLatencyCycles, nil)
}

// NewWiresExtra is NewWires with wire w's flits and credits taking
// extraCycles[w] cycles more (a longer link: both of its directions'
// lanes on that wire are longer); nil for none. Each wire's ring then has
// RingSlots of its own latencies.
func NewWiresExtra(n, flitLatencyCycles, creditLatencyCycles int, extraCycles []int32) *Wires {
	if flitLatencyCycles < 1 || creditLatencyCycles < 1 || flitLatencyCycles > 1<<20 || creditLatencyCycles > 1<<20 {
		panic(fmt.Sprintf("link: wire latencies %d and %d outside 1..2^20", flitLatencyCycles, creditLatencyCycles))
	}
	most := int32(0)
	for _, e := range extraCycles {
		if e < 0 || e > 1<<20 {
			panic(fmt.Sprintf("link: extra wire latency %d outside 0..2^20", e))
		}
		most = max(most, e)
	}
	if len(extraCycles) != 0 && len(extraCycles) != n {
		panic(fmt.Sprintf("link: %d extra latencies for %d wires", len(extraCycles), n))
	}
	ws := &Wires{flitLat: clock.Cycle(flitLatencyCycles), creditLat: clock.Cycle(creditLatencyCycles)}
	if most == 0 {
		S := RingSlots(flitLatencyCycles, creditLatencyCycles, 0)
		for 1<<ws.shift < S {
			ws.shift++
		}
		ws.mask = clock.Cycle(S - 1)
		ws.slots = make([]wireSlot, n*S)
	} else {
		ws.rings = make([]wireRing, n)
		total := 0
		for w, e := range extraCycles {
			S := RingSlots(flitLatencyCycles, creditLatencyCycles, int(e))
			ws.rings[w] = wireRing{start: total, mask: clock.Cycle(S - 1), extra: clock.Cycle(e)}
			total += S
		}
		ws.slots = make([]wireSlot, total)
	}
	for i := range ws.slots {
		ws.slots[i].flitAt, ws.slots[i].credit = -1, -1<<16
	}
	return ws
}

// RingSlots is the number of slots of a wire's ring with the given
// latencies and extra cycles: the smallest power of two, at least 2, above
// the longer of its latencies.
func RingSlots(flitLatencyCycles, creditLatencyCycles, extraCycles int) int {
	S := 2
	for S < max(flitLatencyCycles, creditLatencyCycles)+extraCycles+1 {
		S <<= 1
	}
	return S
}

// RingBytes is the memory one wire with those latencies holds in an arena
// whose wires differ (NewWiresExtra with some extra cycles): its ring and
// its entry in the table of rings.
func RingBytes(flitLatencyCycles, creditLatencyCycles, extraCycles int) int64 {
	return int64(RingSlots(flitLatencyCycles, creditLatencyCycles, extraCycles))*WireSlotBytes + int64(unsafe.Sizeof(wireRing{}))
}

// Bytes is the memory the arena holds.
func (ws *Wires) Bytes() int {
	return len(ws.slots)*int(unsafe.Sizeof(wireSlot{})) + len(ws.rings)*int(unsafe.Sizeof(wireRing{}))
}

// ExtraCycles is wire w's latency beyond the arena's (0 for most).
func (ws *Wires) ExtraCycles(w int) int {
	if ws.rings == nil {
		return 0
	}
	return int(ws.rings[w].extra)
}

// Slots is the number of slots of all the wires' rings.
func (ws *Wires) Slots() int { return len(ws.slots) }

// Len is the number of wires.
func (ws *Wires) Len() int {
	if ws.rings != nil {
		return len(ws.rings)
	}
	return len(ws.slots) >> ws.shift
}

// slot is the slot of cycle at of wire w.
func (ws *Wires) slot(w int, at clock.Cycle) *wireSlot {
	if ws.rings == nil {
		return &ws.slots[w<<ws.shift|int(at&ws.mask)]
	}
	r := &ws.rings[w]
	return &ws.slots[r.start+int(at&r.mask)]
}

// ring is wire w's slots.
func (ws *Wires) ring(w int) []wireSlot {
	if ws.rings == nil {
		return ws.slots[w<<ws.shift : (w+1)<<ws.shift]
	}
	r := ws.rings[w]
	return ws.slots[r.start : r.start+int(r.mask)+1]
}

// sendSlot is the slot of wire w that a value sent to arrive at cycle at
// (now and the arena's latency) takes, and the cycle it arrives with the
// wire's extra cycles.
func (ws *Wires) sendSlot(w int, at clock.Cycle) (*wireSlot, clock.Cycle) {
	if ws.rings == nil {
		return &ws.slots[w<<ws.shift|int(at&ws.mask)], at
	}
	r := &ws.rings[w]
	at += r.extra
	return &ws.slots[r.start+int(at&r.mask)], at
}

// FlitSlot returns the place on wire w to write the flit sent at cycle now
// (visible to the reader at now + flit latency) and whether that place was
// free: ok is false when a flit was already sent in cycle now, a broken
// invariant that the writer reports under its own name. It has no call
// inside, so it inlines into the writer's hot path.
func (ws *Wires) FlitSlot(w int, now clock.Cycle) (f *Flit, ok bool) {
	s, at := ws.sendSlot(w, now+ws.flitLat)
	ok = s.flitAt != at
	s.flitAt = at
	return &s.flit, ok
}

// SendFlit sends f on wire w at cycle now. A second flit in one cycle panics.
func (ws *Wires) SendFlit(w int, now clock.Cycle, f Flit) {
	slot, ok := ws.FlitSlot(w, now)
	if !ok {
		doubleSend("flit", now)
	}
	*slot = f
}

// PutCredit sends c on wire w at cycle now (visible at now + credit
// latency) and reports whether it was the cycle's first credit (false: a
// broken invariant that the writer reports under its own name). It inlines.
func (ws *Wires) PutCredit(w int, now clock.Cycle, c Credit) (ok bool) {
	s, at := ws.sendSlot(w, now+ws.creditLat)
	ok = s.credit>>16 != int64(at)
	s.credit = int64(at)<<16 | int64(c.VC)
	return ok
}

// SendCredit sends c on wire w at cycle now. A second credit in one cycle panics.
func (ws *Wires) SendCredit(w int, now clock.Cycle, c Credit) {
	if !ws.PutCredit(w, now, c) {
		doubleSend("credit", now)
	}
}

// SentAt reports whether the writer of wire w already sent a flit in
// cycle now (for control lanes that steal idle cycles of the link). Writer
// only.
func (ws *Wires) SentAt(w int, now clock.Cycle) bool {
	s, at := ws.sendSlot(w, now+ws.flitLat)
	return s.flitAt == at
}

// Recv returns what is visible on wire w at cycle now: the flit (nil for
// none) and the credit, if hasCredit. Reader only; the flit pointer is
// valid until the reader's tick ends.
func (ws *Wires) Recv(w int, now clock.Cycle) (f *Flit, c Credit, hasCredit bool) {
	f, vc, hasFlit, hasCredit := ws.Poll(w, now)
	if !hasFlit {
		f = nil
	}
	return f, Credit{VC: vc}, hasCredit
}

// Poll is Recv for readers that avoid branches: it returns the place of the
// flit visible on wire w at cycle now, which always exists, the VC of the
// credit (meaningful only when hasCredit), and whether each was sent for
// now. Reader only.
func (ws *Wires) Poll(w int, now clock.Cycle) (f *Flit, creditVC uint16, hasFlit, hasCredit bool) {
	s := ws.slot(w, now)
	return &s.flit, uint16(s.credit), s.flitAt == now, s.credit>>16 == int64(now)
}

// PollMask reports, for each bit p of ports, whether wire first+p shows
// a flit (bit p of flits) and a credit (bit p of credits) at cycle now:
// a router's poll of all its input wires in one call, the arena's fields
// read once rather than once a wire. Reader only.
func (ws *Wires) PollMask(first int, ports uint64, now clock.Cycle) (flits, credits uint64) {
	stamp := int64(now)
	if ports == 0 {
		return 0, 0
	}
	n := 64 - bits.LeadingZeros64(ports)
	if ws.rings != nil {
		// Each ring lies inside the arena (NewWiresExtra), so its slot of
		// now needs no bounds check of its own.
		rings, base := ws.rings[first:first+n], unsafe.Pointer(unsafe.SliceData(ws.slots))
		for i := n - 1; i >= 0; i-- {
			r := &rings[i]
			s := (*wireSlot)(unsafe.Add(base, uintptr(r.start+int(now&r.mask))*uintptr(WireSlotBytes)))
			flits = flits<<1 | isOne(s.flitAt == now)
			credits = credits<<1 | isOne(s.credit>>16 == stamp)
		}
		return flits & ports, credits & ports
	}
	// Wire first+p's slot of cycle now is p rings after wire first's: one
	// bounds check, for the last wire, covers them all. Every wire from
	// first to the last of ports is read, from the last down, each
	// shifting its bit in (a wire of no port in ports, never written,
	// shows nothing, and the masks keep only ports): no shift by a
	// variable count, no branch.
	shift, at := ws.shift&63, int(now&ws.mask)
	_ = ws.slots[(first+n-1)<<shift|at]
	base, stride := unsafe.Pointer(&ws.slots[first<<shift|at]), uintptr(WireSlotBytes)<<shift
	off := uintptr(n-1) * stride
	for range n {
		s := (*wireSlot)(unsafe.Add(base, off))
		flits = flits<<1 | isOne(s.flitAt == now)
		credits = credits<<1 | isOne(s.credit>>16 == stamp)
		off -= stride
	}
	return flits & ports, credits & ports
}

// isOne is 1 for true and 0 for false, without a branch.
func isOne(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// InTransit calls flit and credit (either may be nil) for every value sent
// on wire w but not yet visible to a reader whose next cycle is next. Both
// ends must be paused.
func (ws *Wires) InTransit(w int, next clock.Cycle, flit func(*Flit), credit func(Credit)) {
	ring := ws.ring(w)
	for i := range ring {
		s := &ring[i]
		if flit != nil && s.flitAt >= next {
			flit(&s.flit)
		}
		if credit != nil && s.credit>>16 >= int64(next) {
			credit(Credit{VC: uint16(s.credit)})
		}
	}
}

// CountInTransit adds, per VC, the flits (to flits) and credits (to
// credits) sent on wire w but not yet visible to a reader whose next cycle
// is next; either slice may be nil. Both ends must be paused.
func (ws *Wires) CountInTransit(w int, next clock.Cycle, flits, credits []int32) {
	ring := ws.ring(w)
	for i := range ring {
		s := &ring[i]
		if flits != nil && s.flitAt >= next {
			flits[s.flit.VC]++
		}
		if credits != nil && s.credit>>16 >= int64(next) {
			credits[uint16(s.credit)]++
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

// Prefetch asks for the slots wires w..w+n-1 show their reader at cycle
// now: the lines of each slot (its stamps, which Poll reads, and its flit,
// read when one is there), and no other slot of the rings.
func (ws *Wires) Prefetch(w, n int, now clock.Cycle) {
	last := int(WireSlotBytes) - 1
	if ws.rings == nil {
		p, stride := unsafe.Pointer(ws.slot(w, now)), int(WireSlotBytes)<<ws.shift
		prefetch.Strided(p, n, stride)
		prefetch.Strided(unsafe.Add(p, last), n, stride)
		return
	}
	_ = ws.rings[w+n-1]
	prefetch.RingSlots(unsafe.Pointer(&ws.slots[0]), int(WireSlotBytes), unsafe.Pointer(&ws.rings[w]), int(unsafe.Sizeof(wireRing{})), n, int64(now))
}

// Wire is one wire of an arena, for code off the hot path, such as a
// control lane that steals the idle cycles of a data wire.
type Wire struct {
	ws *Wires
	w  int
}

// Wire returns wire w of the arena.
func (ws *Wires) Wire(w int) Wire { return Wire{ws, w} }

// SentAt reports whether the wire's writer already sent a flit in cycle now.
func (w Wire) SentAt(now clock.Cycle) bool { return w.ws.SentAt(w.w, now) }

// ExtraCycles is the wire's latency beyond the arena's (a longer link).
func (w Wire) ExtraCycles() int { return w.ws.ExtraCycles(w.w) }

// CountInTransit is Wires.CountInTransit for this wire.
func (w Wire) CountInTransit(next clock.Cycle, flits, credits []int32) {
	w.ws.CountInTransit(w.w, next, flits, credits)
}
