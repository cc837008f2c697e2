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
// lanes, each with its own latency; keeping them in one slot lets the
// reader poll both at once, which is where a large network's cycle spends
// its time.
//
// Every wire of an arena has the same latencies (a network's links are
// alike), or a few have extra cycles of their own (NewWiresExtra: a
// dragonfly's global links). A wire is a ring of slots, its own S of them,
// S the smallest power of two above its longest latency: when all are
// alike, wire w is slots [w*S, (w+1)*S) of the arena and no wire keeps a
// header; otherwise a table holds each wire's first slot, mask and extra
// cycles, so that a network's few long links do not make every short
// one's ring as long as theirs. Like a Lane's, the ring is indexed by
// cycle, and writer and reader never touch the same slot in one cycle.
//
// A slot is a control word (4 bytes: whether a flit and a credit are
// there, and the credit's VC) and a flit (32 bytes), kept in two arrays:
// the control words of the wires a router reads lie side by side (a wire
// of latency 1 has 8 bytes of them), so that polling all of a router's
// input wires reads one or two cache lines however many ports it has, and
// a flit's line is read only when a flit is there. A wire of latency 1 is
// 72 bytes. The writer sets a word's flag when it sends; the reader
// clears the flags of the slot it read, by the end of its cycle (Take,
// TakeFlit, TakeCredit, Recv), so a flag is never stale: a slot is written again
// only a ring's length of cycles later, after its reader's cycle. Wires
// are named by the actors that read and write them, in their errors.
type Wires struct {
	ctl       []uint32    // per slot: ctlFlit, ctlCredit and the credit's VC (low 16 bits)
	flits     []Flit      // per slot
	shift     uint8       // S = 1 << shift, when rings is nil
	mask      clock.Cycle // S - 1, when rings is nil
	flitLat   clock.Cycle
	creditLat clock.Cycle
	// rings, when not nil, is each wire's ring and latency beyond flitLat
	// and creditLat (a dragonfly's global links); nil when all are alike.
	rings []wireRing
}

// The flags of a slot's control word.
const (
	ctlFlit   = 1 << 31 // a flit is there, not yet read
	ctlCredit = 1 << 30 // a credit is there, not yet read; its VC is the low 16 bits
)

// A wireRing is the place and extra latency of one wire whose latency may
// differ from the arena's. Its first two fields are what
// prefetch.RingSlots reads.
type wireRing struct {
	start int         // its first slot
	mask  clock.Cycle // its slots - 1
	extra clock.Cycle // its cycles beyond the arena's latencies
}

// WireSlotBytes is the size of one slot of a wire's ring: its control word
// and its flit.
const WireSlotBytes = int64(unsafe.Sizeof(Flit{})) + 4

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
	return NewWiresAhead(n, flitLatencyCycles, creditLatencyCycles, 0, extraCycles)
}

// NewWiresAhead is NewWiresExtra with room in every ring for flits sent up
// to aheadCycles cycles after the cycle of their send: a writer whose
// flits pass a pipeline after they leave (a router's switch allocation
// and crossbar stages) calls FlitSlot with now plus those cycles. It
// changes no latency, only the rings' slots (RingSlots of flit latency
// plus aheadCycles).
func NewWiresAhead(n, flitLatencyCycles, creditLatencyCycles, aheadCycles int, extraCycles []int32) *Wires {
	if aheadCycles < 0 || aheadCycles > 1<<20 {
		panic(fmt.Sprintf("link: wire send-ahead %d outside 0..2^20", aheadCycles))
	}
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
	total := 0
	if most == 0 {
		S := RingSlots(flitLatencyCycles+aheadCycles, creditLatencyCycles, 0)
		for 1<<ws.shift < S {
			ws.shift++
		}
		ws.mask = clock.Cycle(S - 1)
		total = n * S
	} else {
		ws.rings = make([]wireRing, n)
		for w, e := range extraCycles {
			S := RingSlots(flitLatencyCycles+aheadCycles, creditLatencyCycles, int(e))
			ws.rings[w] = wireRing{start: total, mask: clock.Cycle(S - 1), extra: clock.Cycle(e)}
			total += S
		}
	}
	ws.ctl, ws.flits = make([]uint32, total), make([]Flit, total)
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
	return len(ws.ctl)*int(WireSlotBytes) + len(ws.rings)*int(unsafe.Sizeof(wireRing{}))
}

// ExtraCycles is wire w's latency beyond the arena's (0 for most).
func (ws *Wires) ExtraCycles(w int) int {
	if ws.rings == nil {
		return 0
	}
	return int(ws.rings[w].extra)
}

// Slots is the number of slots of all the wires' rings.
func (ws *Wires) Slots() int { return len(ws.ctl) }

// Len is the number of wires.
func (ws *Wires) Len() int {
	if ws.rings != nil {
		return len(ws.rings)
	}
	return len(ws.ctl) >> ws.shift
}

// slot is the index of wire w's slot of cycle at.
func (ws *Wires) slot(w int, at clock.Cycle) int {
	if ws.rings == nil {
		return w<<ws.shift | int(at&ws.mask)
	}
	r := &ws.rings[w]
	return r.start + int(at&r.mask)
}

// ring is the index of wire w's first slot and its number of slots.
func (ws *Wires) ring(w int) (first, n int) {
	if ws.rings == nil {
		return w << ws.shift, 1 << ws.shift
	}
	r := ws.rings[w]
	return r.start, int(r.mask) + 1
}

// sendSlot is the index of the slot of wire w that a value sent to arrive
// at cycle at (now and the arena's latency) takes.
func (ws *Wires) sendSlot(w int, at clock.Cycle) int {
	if ws.rings == nil {
		return w<<ws.shift | int(at&ws.mask)
	}
	r := &ws.rings[w]
	return r.start + int((at+r.extra)&r.mask)
}

// FlitSlot returns the place on wire w to write the flit sent at cycle now
// (visible to the reader at now + flit latency) and whether that place was
// free: ok is false when a flit was already sent in cycle now, a broken
// invariant that the writer reports under its own name. It has no call
// inside, so it inlines into the writer's hot path.
func (ws *Wires) FlitSlot(w int, now clock.Cycle) (f *Flit, ok bool) {
	i := ws.sendSlot(w, now+ws.flitLat)
	c := &ws.ctl[i]
	ok = *c&ctlFlit == 0
	*c |= ctlFlit
	return ws.flitAt(i), ok
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
	x := &ws.ctl[ws.sendSlot(w, now+ws.creditLat)]
	ok = *x&ctlCredit == 0
	*x = *x&^0xffff | ctlCredit | uint32(c.VC)
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
	return ws.ctl[ws.sendSlot(w, now+ws.flitLat)]&ctlFlit != 0
}

// Recv returns what is visible on wire w at cycle now, and takes it (see
// Take): the flit (nil for none) and the credit, if hasCredit. Reader
// only; the flit pointer is valid until the reader's tick ends.
func (ws *Wires) Recv(w int, now clock.Cycle) (f *Flit, c Credit, hasCredit bool) {
	f, vc, hasFlit, hasCredit := ws.Take(w, now)
	if !hasFlit {
		f = nil
	}
	return f, Credit{VC: vc}, hasCredit
}

// Poll is Recv for readers that avoid branches and may look more than
// once in a cycle: it returns the place of the flit visible on wire w at
// cycle now, which always exists, the VC of the credit (meaningful only
// when hasCredit), and whether each was sent for now, and takes nothing:
// the reader takes what it read by the end of its cycle (Take, TakeFlit,
// TakeCredit). Reader only.
func (ws *Wires) Poll(w int, now clock.Cycle) (f *Flit, creditVC uint16, hasFlit, hasCredit bool) {
	i := ws.slot(w, now)
	x := ws.ctl[i]
	return ws.flitAt(i), uint16(x), x&ctlFlit != 0, x&ctlCredit != 0
}

// Take is Poll, and takes what it reports: the slot is free for its
// writer again. A reader takes every slot it reads, in the cycle it reads
// it. Reader only.
func (ws *Wires) Take(w int, now clock.Cycle) (f *Flit, creditVC uint16, hasFlit, hasCredit bool) {
	i := ws.slot(w, now)
	x := ws.ctl[i]
	ws.ctl[i] = 0
	return ws.flitAt(i), uint16(x), x&ctlFlit != 0, x&ctlCredit != 0
}

// PollMask reports, for each bit p of ports, whether wire first+p shows
// a flit (bit p of flits) and a credit (bit p of credits) at cycle now:
// a router's poll of all its input wires in one call, the arena's fields
// read once rather than once a wire. Like Poll it takes nothing: the
// reader takes each flit and credit it reports (TakeFlit, TakeCredit).
// Reader only.
func (ws *Wires) PollMask(first int, ports uint64, now clock.Cycle) (flits, credits uint64) {
	if ports == 0 {
		return 0, 0
	}
	n := 64 - bits.LeadingZeros64(ports)
	if ws.rings != nil {
		// Each ring lies inside the arena (NewWiresExtra), so its slot of
		// now needs no bounds check of its own.
		rings, base := ws.rings[first:first+n], unsafe.Pointer(unsafe.SliceData(ws.ctl))
		for i := n - 1; i >= 0; i-- {
			r := &rings[i]
			x := *(*uint32)(unsafe.Add(base, uintptr(r.start+int(now&r.mask))*4))
			flits = flits<<1 | uint64(x>>31)
			credits = credits<<1 | uint64(x>>30&1)
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
	_ = ws.ctl[(first+n-1)<<shift|at]
	base, stride := unsafe.Pointer(&ws.ctl[first<<shift|at]), uintptr(4)<<shift
	off := uintptr(n-1) * stride
	for range n {
		x := *(*uint32)(unsafe.Add(base, off))
		flits = flits<<1 | uint64(x>>31)
		credits = credits<<1 | uint64(x>>30&1)
		off -= stride
	}
	return flits & ports, credits & ports
}

// TakeCredit returns the VC of the credit wire w shows at cycle now (Poll
// or PollMask said there is one) and takes the credit. Reader only.
func (ws *Wires) TakeCredit(w int, now clock.Cycle) uint16 {
	x := &ws.ctl[ws.slot(w, now)]
	vc := uint16(*x)
	*x &^= ctlCredit
	return vc
}

// TakeFlit returns the flit wire w shows at cycle now (Poll or PollMask
// said there is one) and takes it; the pointer is valid until the
// reader's tick ends (Seen finds it again). Reader only.
func (ws *Wires) TakeFlit(w int, now clock.Cycle) *Flit {
	i := ws.slot(w, now)
	ws.ctl[i] &^= ctlFlit
	return ws.flitAt(i)
}

// Seen is the place of the flit wire w shows at cycle now, taken or not:
// meaningful only when one came (the reader knows from its poll), until
// the reader's tick ends. Reader only.
func (ws *Wires) Seen(w int, now clock.Cycle) *Flit {
	return &ws.flits[ws.slot(w, now)]
}

// flitAt is the flit of slot i, a slot whose control word was already
// indexed: ctl and flits have the same length, so it needs no bounds
// check of its own.
func (ws *Wires) flitAt(i int) *Flit {
	return (*Flit)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(ws.flits)), uintptr(i)*unsafe.Sizeof(Flit{})))
}

// InTransit calls flit and credit (either may be nil) for every value sent
// on wire w but not yet visible to a reader whose next cycle is next: every
// value not yet taken, the reader having taken all it saw before next.
// Both ends must be paused.
func (ws *Wires) InTransit(w int, next clock.Cycle, flit func(*Flit), credit func(Credit)) {
	first, n := ws.ring(w)
	for i := first; i < first+n; i++ {
		x := ws.ctl[i]
		if flit != nil && x&ctlFlit != 0 {
			flit(&ws.flits[i])
		}
		if credit != nil && x&ctlCredit != 0 {
			credit(Credit{VC: uint16(x)})
		}
	}
}

// CountInTransit adds, per VC, the flits (to flits) and credits (to
// credits) sent on wire w but not yet visible to a reader whose next cycle
// is next; either slice may be nil. Both ends must be paused.
func (ws *Wires) CountInTransit(w int, next clock.Cycle, flits, credits []int32) {
	first, n := ws.ring(w)
	for i := first; i < first+n; i++ {
		x := ws.ctl[i]
		if flits != nil && x&ctlFlit != 0 {
			flits[ws.flits[i].VC]++
		}
		if credits != nil && x&ctlCredit != 0 {
			credits[uint16(x)]++
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
// now: the line of each slot's flit (read when one is there) and, on an
// arena of alike wires, the lines of their control words (which Poll
// reads), and no other slot of the rings.
func (ws *Wires) Prefetch(w, n int, now clock.Cycle) {
	if ws.rings == nil {
		i := ws.slot(w, now)
		prefetch.Strided(unsafe.Pointer(&ws.flits[i]), n, int(unsafe.Sizeof(Flit{}))<<ws.shift)
		prefetch.Strided(unsafe.Pointer(&ws.ctl[i]), (n<<ws.shift*4+63)/64+1, 64)
		return
	}
	// A ring's control words are few lines, which its reader's polls keep
	// in cache; only the flits' slots move to a new line every cycle or two.
	_ = ws.rings[w+n-1]
	prefetch.RingSlots(unsafe.Pointer(&ws.flits[0]), int(unsafe.Sizeof(Flit{})), unsafe.Pointer(&ws.rings[w]), int(unsafe.Sizeof(wireRing{})), n, int64(now))
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
