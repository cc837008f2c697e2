package vc

import (
	"fmt"
	"math/bits"
	"math/rand/v2"

	"github.com/icnsim/icnsim/clock"
	"github.com/icnsim/icnsim/fabric"
	"github.com/icnsim/icnsim/link"
	"github.com/icnsim/icnsim/router/alloc"
	"github.com/icnsim/icnsim/routing"
	"github.com/icnsim/icnsim/topology"
)

// Input VC states.
const (
	vcIdle   uint8 = iota // front flit not yet routed (or buffer empty)
	vcRouted              // head routed, waiting for an output VC
	vcActive              // packet holds output VC outVC
)

// inVC is the compact per-input-VC state touched every cycle (32 bytes,
// two to a cache line). The front packet's readiness and the back (newest)
// packet's progress are kept here, so that allocation and the arrival of
// body flits never touch packet headers. A body flit is checked to continue
// the back packet by index here; the sink checks source, sequence number and
// order of every flit end to end.
type inVC struct {
	// ready is the low 32 bits of the cycle from which the front packet's
	// head may leave (body flits are tracked by portState.fr and fresh).
	ready uint32
	// moved is the low 32 bits of the cycle of the last departure from this
	// VC, or of its becoming non-empty (for the watchdog).
	moved uint32
	// pkFront and pkBack are the router's packet pool entries (Router.pkts)
	// of the front and the back packet, valid while pkLen > 0; the packets
	// between them are linked through pktDesc.next.
	pkFront, pkBack uint32
	flits           uint16 // occupancy in flits
	pkLen           uint16 // packets (whole or partial) in the VC, the front one included
	front           uint16 // flits of the front packet present
	departed        uint16 // flits of the front packet sent on
	backLeft        uint16 // flits of the back packet still to arrive
	// cand is the router's candidate pool entry (Router.cands) holding the
	// front head's routing decision while state is vcRouted.
	cand    uint16
	state   uint8
	outPort uint8 // output port while active
	outV    uint8 // output VC while active
}

// pktDesc is a packet in an input VC buffer, an entry of its router's
// packet pool. A VC buffer holds flits of one packet at a time from its
// upstream, so a packet's flits are contiguous and a header replaces
// per-flit storage: the flit with index d is rebuilt from the header when
// it leaves.
type pktDesc struct {
	hdr       link.Flit // head flit
	headReady uint32    // low 32 bits of the cycle from which the head may leave (packets behind the front one)
	next      uint32    // the next packet of the VC, or the next free entry
}

// candSlot is an entry of a router's candidate pool: the routing decision
// of a head waiting for an output VC and, when it found none among them,
// its candidate ports (waitPorts, not zero): it cannot find one before a
// VC of one of them is freed or a free one receives a credit
// (Router.bumped). A free entry keeps the next free one in waitPorts.
type candSlot struct {
	routing.Candidates
	waitPorts uint64
}

// noPkt ends the packet pool's free list; noCand the candidate pool's.
const (
	noPkt  = ^uint32(0)
	noCand = ^uint16(0)
)

// Router is an input-queued virtual-channel router actor. Index i = p*V + v
// names input VC v of port p; index o = p*V + v names output VC v of port p.
//
// Packet headers and routing decisions live in two small pools per router,
// sized by what the run uses (the most packets present in the router at
// once, the most heads waiting for a VC at once) rather than by the worst
// case (every VC full of the shortest packets, every head waiting): at the
// loads a network is studied at, that is a few entries where the worst case
// has dozens. A pool grows by half when it runs out, so a run allocates
// only when it meets a new peak.
type Router struct {
	// What every cycle reads, busy or idle, comes first, in one cache line
	// (a router is a multiple of 64 bytes long, so its lines are aligned):
	// wires is the network's wire arena, in which this router reads wire
	// in0+p at port p: flits into its input buffers and credits for its
	// output VCs; conn has a bit per connected port.
	wires    *link.Wires
	conn     uint64
	in0      int32
	vcs      int32
	buffered int32 // flits in all input buffers
	// valid and validInj count the non-empty input VCs, of all ports and of
	// injection ports; active and activeInj the input VCs whose front flit
	// moved this cycle (the entropy papers' N_v and N_a).
	valid, validInj   int32
	active, activeInj int32
	candFree          uint16 // first free candidate pool entry, noCand for none (here: it fills the line's padding before plane)
	// plane is the control-plane logic stepped at the end of every cycle
	// (nil: none).
	plane fabric.ControlPlane

	sh    *routerShared
	id    int32
	ports int32

	ivc     []inVC
	pkts    []pktDesc  // packet pool
	pktFree uint32     // first free packet pool entry, noPkt for none
	selRR   uint32     // tie-break rotation of the selection function
	cands   []candSlot // candidate pool
	port    []portState
	outs    []outVC // per output VC
	reqs    []vaReq // VC allocation requests of this cycle (scratch)
	// vaPorts has bit p set when input port p has a VC with flits but no
	// output VC (a head to route or allocate), saPorts when it has a VC
	// with flits and an output VC. Both are kept up to date as flits
	// arrive and leave, so no cycle scans idle ports.
	vaPorts, saPorts uint64
	// bumped has bit p set when, since the last VC allocation, output port
	// p saw an event that can give a head that found no free VC there one:
	// a VC of the port freed, or a credit for a free VC (a credit for a VC
	// that a packet holds cannot; that VC is freed, and counted, before
	// anyone else gets it).
	bumped   uint64
	netPorts uint64 // ports wired to another router
	// SumValid and SumActive accumulate N_v and N_a over all cycles; every
	// active VC moved one flit, so SumActive counts switch traversals.
	SumValid, SumActive uint64
	// PortFlits counts the flits sent out of each port.
	PortFlits []uint64
	// sq is the output and credit queues of internal speedup; nil without
	// (speedup.go).
	sq *speedup
	// ext is what the router keeps beyond the default router: the state of
	// its options (an arbitration, a switch allocator, a VC allocation
	// stage) and the link statistics Network.CountLinkStats asked for; nil
	// without either (options.go).
	ext *routerExtras
}

// routerShared is what every router of a network has alike, kept once.
type routerShared struct {
	topo topology.Topology // names routers and ports in errors
	rf   routing.Func
	upd  routing.RouteUpdater // rf, when it carries state in Flit.Route; else nil
	// chooser is rf when it decides with the packet's draw or the queues
	// (Chooser: the non-minimal routings); nil for the others.
	chooser routing.Chooser
	depth   int32  // buffer depth per VC, flits
	pkCap   int32  // most packets behind the front one that a VC can hold
	delay   uint32 // routing delay, cycles
	vct     bool
	// atomicAt[p] is the set of VCs allocated atomically at output port p:
	// an output VC in it is free for a new packet only when the downstream
	// buffer is empty (all its credits back), as Duato's theory needs of
	// adaptive channels under wormhole, and as Hybrid-HAR's router.har.free
	// chooses (atomicAllocator); nil for most routing functions.
	atomicAt []uint64
	// secondRound lets heads that lost a VC arbitration ask again in the
	// same cycle (Hybrid-HAR's step 1: a free upper VC is taken when there
	// is one; wormhole only).
	secondRound bool
	// leastOccupied selects by SelectLeastOccupied: a waiting head chooses
	// again every cycle.
	leastOccupied bool
	// ties is how SelectLeastOccupied breaks ties; tieRand holds one
	// stream per router (indexed by id) when it draws (nil otherwise).
	ties    SelectionTies
	tieRand []rand.PCG
	// bodyWait is all ones when a body flit is buffered for one cycle (a
	// flit that arrives at a dry front joins portState.fr a cycle later),
	// zero when it may leave in its arrival cycle (routing delay 0).
	bodyWait uint64
	// sendAhead is the cycles a flit that won the switch takes before it
	// goes on its link: the switch allocation's cycles beyond the first
	// and the crossbar's (Config.SwitchAllocationCycles, CrossbarCycles).
	sendAhead clock.Cycle
	// arb is the arbitration, swAlloc the switch allocator; general is
	// set when the router keeps a Matcher (Config.generalSwitch).
	arb     alloc.Arbitration
	swAlloc alloc.Allocator
	general bool
	// keyed is set when the switch arbiters read the front packets' keys
	// (routerExtras.frontKey): under a keyed arbitration or a class share;
	// vaKeyed when VC allocation's arbiters do (not under the weighted
	// share, whose keys are classes). share is the class share, shareCost
	// its cost per flit of each class (alloc.ShareCosts).
	keyed, vaKeyed bool
	share          alloc.Share
	shareCost      [alloc.MaxShareClasses]uint64
	// vaCycles is the VC allocation stage's cycles; frOnGrant is all ones
	// when it is 0 (a granted head may cross in its grant cycle), zero
	// otherwise (it waits in routerExtras.vaWait).
	vaCycles  uint32
	frOnGrant uint64
}

// outVC is the state of one output VC (8 bytes): the upstream view of its
// free downstream slots (at most 32,768), the input VC that holds it
// (owner, -1 when free; at most 64 x 64 input VCs) with that VC's port and
// index, so that a returning credit can mark the holder eligible without a
// division, and the round-robin pointer of its VC allocation over input VCs.
type outVC struct {
	credits uint16
	owner   int16
	ownPort uint8
	ownV    uint8
	vaPtr   uint16
}

// portState is what a router keeps per port, input and output side
// together (64 bytes, one cache line): a switch allocation touches a
// port's masks, pointers and output wire at once, and one bounds check
// covers them all.
type portState struct {
	nonEmpty uint64 // input side: bit v set when VC v holds a flit
	active   uint64 // input side: bit v set when VC v holds an output VC
	// Switch eligibility of the input VCs, kept up to date as flits and
	// credits come and go so that switch allocation reads three masks
	// instead of every VC: an active VC v may send in cycle now when bit v
	// is set in fr (its front flit is present and has waited its cycles)
	// and in credOK (its output VC has a credit; meaningful only while
	// active). fresh holds the VCs whose front flit arrived this cycle
	// after the front had run dry; with a body delay of one cycle they join
	// fr after this cycle's switch allocation.
	fr, fresh, credOK uint64
	outReq            uint64 // output side: input ports requesting it (scratch)
	// out is the wire the peer reads: flits out of the output and credits
	// for the input; -1 when the port is unconnected.
	out    int32
	inWant uint8 // input side: VC chosen in switch allocation (scratch)
	// Round-robin pointers of switch allocation, as the first position to
	// try (0..64; 64 goes round to 0): inNext over the input side's VCs,
	// outNext over the input ports requesting the output side.
	inNext, outNext uint8
	// accNext is the input side's round-robin pointer over output ports,
	// of the allocators whose inputs ask for several (alloc.Matcher's
	// accept pointer; outNext is its grant pointer).
	accNext uint8
	_       [3]byte // to 64 bytes
}

// vaReq is a VC allocation request: input VC in (port inPort, VC inV)
// asks for output VC out (port outPort, VC outV).
type vaReq struct {
	in, out       int32
	inPort, inV   uint8
	outPort, outV uint8
}

// initialPkts and initialCands are the sizes a router's packet and
// candidate pools start at, for P ports: what a router below saturation
// holds at once, three packets and one routing decision per port, up to 24
// packets and 16 decisions. What a router holds grows with the flits it
// moves, not with its ports: measured after 20,000 cycles (peak entries in
// use: median, 90th percentile and most over the routers),
// torus32-uniform (5 ports) at 0.04 flits/node/cycle 6 / 7 / 10 packets
// and 3 / 4 / 5 decisions; fattree1024-uniform (8 ports) at 0.4 12 / 15 /
// 20 and 5 / 6 / 7; dragonfly1k-uniform (15 ports) at 0.3 17 / 19 / 22 and
// 10 / 11 / 14; hyperx1k-uniform (34 ports) at 0.3 14 / 16 / 18 and 9 /
// 10 / 13, where three per port held 102 and 34. Caps of 16 and 8 made
// the dragonfly's and the HyperX's pools still grow after their steady
// state's warm-up (TestSteadyStateAllocatesNothing: 78 allocations in
// 3,000 cycles against 40 in 1,000). (On a 64x64 torus at 0.05
// flits/node/cycle, after 20,000 cycles, 4,095 of 4,096 routers still had
// their packet pools and 4,027 their candidate pools at these sizes;
// starting at 2 packets per port and P/2 heads made half of them grow, to
// more memory in all.) Busier routers grow theirs.
func initialPkts(P int) int  { return min(3*P, 24) }
func initialCands(P int) int { return min(P, 16) }

// newPkt takes an entry of the packet pool, growing it when none is free.
func (r *Router) newPkt() uint32 {
	d := r.pktFree
	if d == noPkt {
		d = r.growPkts()
	}
	r.pktFree = r.pkts[d].next
	return d
}

// freePkt returns entry d to the packet pool.
func (r *Router) freePkt(d uint32) {
	r.pkts[d].next = r.pktFree
	r.pktFree = d
}

// growPkts adds half as many entries again (at least 4) to the packet pool,
// all free, and returns the first; kept out of line.
//
//go:noinline
func (r *Router) growPkts() uint32 {
	old := len(r.pkts)
	n := old + max(4, old/2)
	r.pkts = append(r.pkts, make([]pktDesc, n-old)...)
	r.freePktsFrom(old)
	return uint32(old)
}

// freePktsFrom makes the packet pool's entries from on, all unused, its
// free list.
func (r *Router) freePktsFrom(from int) {
	for d := from; d < len(r.pkts); d++ {
		r.pkts[d].next = uint32(d + 1)
	}
	r.pkts[len(r.pkts)-1].next = noPkt
	r.pktFree = uint32(from)
}

// newCand takes an entry of the candidate pool, growing it when none is free.
func (r *Router) newCand() uint16 {
	c := r.candFree
	if c == noCand {
		c = r.growCands()
	}
	r.candFree = uint16(r.cands[c].waitPorts)
	return c
}

// freeCand returns entry c to the candidate pool.
func (r *Router) freeCand(c uint16) {
	r.cands[c].waitPorts = uint64(r.candFree)
	r.candFree = c
}

// growCands doubles the candidate pool (new entries free) and returns the
// first new one; kept out of line. A router has at most one routed head
// per input VC, so the pool never outgrows that.
//
//go:noinline
func (r *Router) growCands() uint16 {
	old := len(r.cands)
	n := min(2*old, int(r.ports*r.vcs))
	if n == old {
		panic(fmt.Sprintf("%s: more routed heads than input VCs", r.Name()))
	}
	r.cands = append(r.cands, make([]candSlot, n-old)...)
	r.freeCandsFrom(old)
	return uint16(old)
}

// freeCandsFrom makes the candidate pool's entries from on, all unused,
// its free list.
func (r *Router) freeCandsFrom(from int) {
	for c := from; c < len(r.cands); c++ {
		r.cands[c].waitPorts = uint64(c + 1)
	}
	r.cands[len(r.cands)-1].waitPorts = uint64(noCand)
	r.candFree = uint16(from)
}

// Name is the router's human name.
func (r *Router) Name() string { return r.sh.topo.RouterName(int(r.id)) }

// Ports is the number of ports.
func (r *Router) Ports() int { return int(r.ports) }

// VCs is the number of VCs per port.
func (r *Router) VCs() int { return int(r.vcs) }

// Occupancy is the number of flits in input VC v of port p.
func (r *Router) Occupancy(p, v int) int { return int(r.ivc[p*int(r.vcs)+v].flits) }

// Credits is the upstream view of free slots in downstream VC v of port p.
func (r *Router) Credits(p, v int) int { return int(r.outs[p*int(r.vcs)+v].credits) }

// SetControlPlane installs the router's control-plane logic (before the
// run). It runs after the routing's own publishing, if any (UGAL-G's
// group board).
func (r *Router) SetControlPlane(cp fabric.ControlPlane) {
	if b, ok := r.plane.(*boardPlane); ok {
		b.next = cp
		return
	}
	r.plane = cp
}

// ControlPlane is the router's control-plane logic, nil when none.
func (r *Router) ControlPlane() fabric.ControlPlane {
	if b, ok := r.plane.(*boardPlane); ok {
		return b.next
	}
	return r.plane
}

// OutWire is the wire this router writes at port p (flits out of p), and
// whether there is one; a control lane that steals idle cycles of that
// link checks it.
func (r *Router) OutWire(p int) (link.Wire, bool) {
	if r.port[p].out < 0 {
		return link.Wire{}, false
	}
	return r.wires.Wire(int(r.port[p].out)), true
}

// Buffered is the number of flits in all input buffers.
func (r *Router) Buffered() int { return int(r.buffered) }

func (r *Router) fail(now clock.Cycle, format string, args ...any) {
	panic(fmt.Sprintf("%s at cycle %d: %s", r.Name(), now, fmt.Sprintf(format, args...)))
}

// roundRobin returns the first set bit of req at or after position next
// (0..64), going round to the lowest set bit; req must not be zero. The compiler makes
// the if a short jump; a branch-free form (an OR of req masked by the
// zero test) measured no faster: fewer mispredictions, more instructions.
func roundRobin(req uint64, next uint8) int {
	sel := req & (^uint64(0) << (next & 127))
	if sel == 0 {
		sel = req
	}
	return bits.TrailingZeros64(sel)
}

// after is the round-robin pointer just past position x (0..63).
func after(x int) uint8 { return uint8(x + 1) }

// portChanged recomputes input port p's bits of vaPorts and saPorts after
// its nonEmpty or active mask changed.
func (r *Router) portChanged(p int) {
	pt := &r.port[p]
	ne, act := pt.nonEmpty, pt.active
	sh := uint(p & 63)
	r.vaPorts = r.vaPorts&^(1<<sh) | b2u(ne&^act != 0)<<sh
	r.saPorts = r.saPorts&^(1<<sh) | b2u(ne&act != 0)<<sh
}

// readyBy reports whether a flit stamped with ready may leave at now
// (wrap-safe comparison of the low 32 bits of the cycle).
func readyBy(ready uint32, now clock.Cycle) bool {
	return int32(uint32(now)-ready) >= 0
}

// b2u is 1 for true and 0 for false; it compiles to a SETcc, not a branch.
func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// Tick advances the router by one cycle.
//
// The hot path avoids data-dependent branches where a flit's arrival or a
// credit's is a coin toss: a mispredicted branch costs about as much as
// the twenty instructions it guards, and a router cycle on a loaded
// network has dozens of them. The ports holding a credit and those holding
// a flit are gathered in two masks first, without a branch, and only their
// set bits are visited: an idle port costs the load of its wire slot's
// control word, which lies beside the other ports' (link.Wires).
func (r *Router) Tick(now clock.Cycle) {
	V := int(r.vcs)
	ws, in0 := r.wires, int(r.in0)
	arrived, credited := ws.PollMask(in0, r.conn, now)
	// The ports a flit came in by (crossToQueue looks at those flits again).
	in := arrived
	outs := r.outs
	for ; credited != 0; credited &= credited - 1 {
		p := bits.TrailingZeros64(credited)
		creditVC := ws.TakeCredit(in0+p, now)
		ov := &outs[p*V+int(creditVC)]
		ov.credits++
		// Only a credit for a free output VC can give a waiting head a VC
		// it did not find (see bumped); a credit for a held one makes its
		// holder eligible for the switch (a stale ownPort of a free VC
		// receives a zero).
		free := b2u(ov.owner < 0)
		r.bumped |= free << (p & 63)
		r.port[ov.ownPort].credOK |= (free ^ 1) << (ov.ownV & 63)
		if int32(ov.credits) > r.sh.depth {
			r.fail(now, "credit overflow on output VC %d of port %d", creditVC, p)
		}
	}
	for ; arrived != 0; arrived &= arrived - 1 {
		p := bits.TrailingZeros64(arrived)
		// Buffer the flit f that arrived at port p.
		f := ws.TakeFlit(in0+p, now)
		v := int(f.VC)
		if v >= V {
			r.fail(now, "flit on VC %d of port %d, router has %d VCs", v, p, V)
		}
		i := p*V + v
		s := &r.ivc[i]
		if int32(s.flits) == r.sh.depth {
			r.fail(now, "buffer overflow on input VC %d of port %d (%d flits): credit protocol broken", v, p, r.sh.depth)
		}
		if f.Index == 0 {
			if s.backLeft != 0 {
				r.fail(now, "head of packet %d/%d on input VC %d of port %d before the tail of the previous packet", f.Src, f.Seq, v, p)
			}
			if int32(s.pkLen) > r.sh.pkCap {
				r.fail(now, "more than %d packets in input VC %d of port %d", r.sh.pkCap+1, v, p)
			}
			d := r.newPkt()
			pd := &r.pkts[d]
			pd.hdr = *f
			if s.pkLen == 0 {
				s.pkFront = d
				s.front, s.departed, s.ready = 1, 0, uint32(now)+r.sh.delay
				if r.sh.keyed {
					r.ext.frontKey[i] = r.keyOf(f)
				}
			} else {
				pd.headReady = uint32(now) + r.sh.delay
				r.pkts[s.pkBack].next = d
			}
			s.pkBack = d
			s.pkLen++
			s.backLeft = f.Size - 1
		} else {
			if s.backLeft == 0 || f.Index != f.Size-s.backLeft {
				r.fail(now, "flit %d of packet %d/%d on input VC %d of port %d does not continue the packet in that VC", f.Index, f.Src, f.Seq, v, p)
			}
			s.backLeft--
			// A body flit of the front packet (pkLen == 1) adds to the front;
			// if the front had run dry, it is the next to leave, after its
			// buffering cycle (body cycles, 0 or 1). That VC holds an output
			// VC: the packet's head has left.
			front := s.front
			s.front = front + uint16(b2u(s.pkLen == 1))
			dry := (b2u(front == 0) & b2u(s.pkLen == 1)) << (v & 63)
			pt := &r.port[p]
			bodyWait := r.sh.bodyWait
			pt.fresh |= dry & bodyWait
			pt.fr |= dry &^ bodyWait
		}
		moved := s.moved
		if s.flits == 0 {
			moved = uint32(now)
		}
		s.moved = moved
		became := b2u(s.flits == 0)
		r.valid += int32(became)
		r.validInj += int32(became &^ (r.netPorts >> (p & 63)))
		s.flits++
		r.buffered++
		r.port[p].nonEmpty |= 1 << (v & 63)
		r.portChanged(p)
	}
	// N_v is counted after this cycle's arrivals and before its departures.
	valid, validInj := r.valid, r.validInj
	if r.buffered == 0 {
		r.active, r.activeInj = 0, 0
	} else {
		r.SumValid += uint64(valid)
		if r.vaPorts != 0 {
			r.allocateVCs(now, r.vaPorts)
		}
		if x := r.ext; x != nil {
			if x.links != nil {
				r.countStalls()
			}
			if x.vaLen != 0 {
				r.releaseVCStage(now)
			}
		}
		switch {
		case r.sq == nil && !r.sh.general:
			r.allocateSwitch(now, r.saPorts)
		case r.sq == nil:
			r.allocateSwitchPorts(now, r.saPorts)
		default:
			r.allocateSwitchRounds(now, r.saPorts, in)
		}
	}
	if r.sq != nil {
		r.drainQueues(now)
	}
	if r.plane != nil {
		r.plane.Step(now, fabric.Observation{Valid: int(valid), Active: int(r.active), ValidInj: int(validInj), ActiveInj: int(r.activeInj)})
	}
}

// allocateVCs routes new heads and runs separable input-first VC allocation.
func (r *Router) allocateVCs(now clock.Cycle, vaPorts uint64) {
	V := int(r.vcs)
	r.reqs = r.reqs[:0]
	// Events from here on count for the heads that fail in this call.
	bumped := r.bumped
	r.bumped = 0
	for pm := vaPorts; pm != 0; pm &= pm - 1 {
		p := bits.TrailingZeros64(pm)
		pt := &r.port[p]
		for m := pt.nonEmpty &^ pt.active; m != 0; m &= m - 1 {
			v := bits.TrailingZeros64(m)
			i := p*V + v
			s := &r.ivc[i]
			if s.state == vcIdle {
				s.cand = r.newCand()
				c := &r.cands[s.cand]
				c.N = 0
				h := &r.pkts[s.pkFront].hdr
				if ch := r.sh.chooser; ch != nil {
					ch.Choose(int(r.id), p, h, &c.Candidates, r, now)
				} else {
					r.sh.rf.Route(int(r.id), p, h, &c.Candidates)
				}
				if c.N == 0 {
					r.fail(now, "routing gave no candidate for packet %d->%d", h.Src, h.Dst)
				}
				s.state = vcRouted
				c.waitPorts = 0
			}
			if !readyBy(s.ready, now) {
				continue
			}
			c := &r.cands[s.cand]
			if wp := c.waitPorts; wp != 0 {
				if wp&bumped == 0 {
					continue
				}
				c.waitPorts = 0
			}
			need := int32(1)
			if r.sh.vct {
				need = int32(r.pkts[s.pkFront].hdr.Size)
			}
			if o, op, ov := r.selectVC(&c.Candidates, need); o >= 0 {
				r.reqs = append(r.reqs, vaReq{in: int32(i), out: o, inPort: uint8(p), inV: uint8(v), outPort: op, outV: ov})
			} else if !r.sh.leastOccupied {
				c.waitPorts = c.Ports()
			}
		}
	}
	if len(r.reqs) == 0 {
		return
	}
	n := r.ports * int32(V)
	for a := range r.reqs {
		o := r.reqs[a].out
		if o < 0 {
			continue
		}
		// Among the requests for output VC o, the first input VC at or after
		// its round-robin pointer wins; the others retry next cycle.
		ptr := int32(r.outs[o].vaPtr)
		win := a
		if r.sh.vaKeyed {
			win = r.vaWinner(a, o, ptr, n)
		} else {
			best := ringDistance(r.reqs[a].in, ptr, n)
			for b := a + 1; b < len(r.reqs); b++ {
				if r.reqs[b].out != o {
					continue
				}
				if d := ringDistance(r.reqs[b].in, ptr, n); d < best {
					win, best = b, d
				}
				r.reqs[b].out = -1
			}
		}
		// Grant o to the winner, as grant does, written out here: this
		// loop runs for every head at every hop, and the call measured 2-4%
		// of a torus's router cycles (interleaved benchmarks, issue 18).
		q := &r.reqs[win]
		w := q.in
		ov := &r.outs[o]
		ov.owner, ov.ownPort, ov.ownV = int16(w), q.inPort, q.inV
		iv := &r.ivc[w]
		iv.state = vcActive
		r.freeCand(iv.cand)
		iv.outPort, iv.outV = q.outPort, q.outV
		if r.sh.general {
			r.ext.outPortOf[w] = q.outPort
		}
		if upd := r.sh.upd; upd != nil {
			h := &r.pkts[iv.pkFront].hdr
			h.VC = iv.outV
			upd.Update(int(r.id), int(iv.outPort), h)
		}
		// The head has waited its cycles (it asked only then), so it may
		// cross the switch now if o has a credit (after the VC allocation
		// stage's cycles, if any).
		pt := &r.port[q.inPort]
		bit := uint64(1) << (q.inV & 63)
		pt.active |= bit
		pt.fr |= bit & r.sh.frOnGrant
		if r.sh.vaCycles != 0 {
			r.waitVCStage(now, q.inPort, q.inV)
		}
		pt.credOK = pt.credOK&^bit | b2u(ov.credits > 0)<<(q.inV&63)
		r.portChanged(int(q.inPort))
		if w++; w == n {
			w = 0
		}
		ov.vaPtr = uint16(w)
	}
	if r.sh.secondRound {
		r.secondRound(now, 1)
	}
}

// secondRound gives the heads that lost the arbitration for the output VC
// they asked for a second chance in the same cycle, among the VCs still
// free, one head at a time in request order (routerShared.secondRound).
//
//go:noinline
func (r *Router) secondRound(now clock.Cycle, need int32) {
	for a := range r.reqs {
		q := &r.reqs[a]
		iv := &r.ivc[q.in]
		if iv.state != vcRouted {
			continue // won
		}
		c := &r.cands[iv.cand]
		o, op, ov := r.selectVC(&c.Candidates, need)
		if o < 0 {
			c.waitPorts = c.Ports()
			continue
		}
		r.grant(now, q.in, o, q.inPort, q.inV, op, ov)
	}
}

// grant gives output VC o (VC ovc of port op) to input VC w (VC inV of
// port inPort), as allocateVCs does for the winners of its first round.
// The head has waited its cycles (it asked only then), so it may cross the
// switch now if o has a credit.
func (r *Router) grant(now clock.Cycle, w, o int32, inPort, inV, op, ovc uint8) {
	ov := &r.outs[o]
	ov.owner, ov.ownPort, ov.ownV = int16(w), inPort, inV
	iv := &r.ivc[w]
	iv.state = vcActive
	r.freeCand(iv.cand)
	iv.outPort, iv.outV = op, ovc
	if r.sh.general {
		r.ext.outPortOf[w] = op
	}
	if upd := r.sh.upd; upd != nil {
		h := &r.pkts[iv.pkFront].hdr
		h.VC = iv.outV
		upd.Update(int(r.id), int(iv.outPort), h)
	}
	pt := &r.port[inPort]
	bit := uint64(1) << (inV & 63)
	pt.active |= bit
	pt.fr |= bit & r.sh.frOnGrant
	if r.sh.vaCycles != 0 {
		r.waitVCStage(now, inPort, inV)
	}
	pt.credOK = pt.credOK&^bit | b2u(ov.credits > 0)<<(inV&63)
	r.portChanged(int(inPort))
	n := r.ports * r.vcs
	if w++; w == n {
		w = 0
	}
	ov.vaPtr = uint16(w)
}

// ringDistance is (i - ptr) mod n for i and ptr in 0..n-1.
func ringDistance(i, ptr, n int32) int32 {
	if d := i - ptr; d >= 0 {
		return d
	}
	return i - ptr + n
}

// selectVC picks the output VC a routed head asks for: the first candidate
// group with a free VC with at least need credits (the whole packet under
// virtual cut-through, one flit under wormhole), in it the VC with most
// credits, ties round robin. It returns the output VC index (-1 for none)
// with its port and VC.
func (r *Router) selectVC(s *routing.Candidates, need int32) (best int32, bestPort, bestV uint8) {
	if r.sh.leastOccupied {
		return r.selectLeastOccupied(s, need)
	}
	V := int(r.vcs)
	best, bestCred := int32(-1), int32(-1)
	bestRank := uint32(0)
	atomicAt, depth := r.sh.atomicAt, r.sh.depth
	for g := 0; g < int(s.N); g++ {
		if best >= 0 && s.Level[g] != s.Level[g-1] {
			break // a free VC at a more preferred level
		}
		for pm := s.G[g].Ports; pm != 0; pm &= pm - 1 {
			p := bits.TrailingZeros64(pm)
			var atomic uint64
			if atomicAt != nil {
				atomic = atomicAt[p]
			}
			for vm := s.G[g].VCs; vm != 0; vm &= vm - 1 {
				v := bits.TrailingZeros64(vm)
				o := int32(p*V + v)
				ov := &r.outs[o]
				if ov.owner >= 0 {
					continue
				}
				c := int32(ov.credits)
				if c < need || (atomic>>(v&63)&1 != 0 && c != depth) {
					continue
				}
				// Rotation: the first VC index at or after selRR wins a tie.
				rank := uint32(o) - r.selRR
				if uint32(o) < r.selRR {
					rank += uint32(len(r.outs))
				}
				if c > bestCred || (c == bestCred && rank < bestRank) {
					best, bestCred, bestRank = o, c, rank
					bestPort, bestV = uint8(p), uint8(v)
				}
			}
		}
	}
	if best >= 0 {
		r.selRR++
		if r.selRR == uint32(len(r.outs)) {
			r.selRR = 0
		}
	}
	return best, bestPort, bestV
}

// linkCounts are a router's link statistics beyond PortFlits: the flits
// of each output VC (port*V + vc) and, per output port, the cycles in
// which a front flit ready to leave by it waited for a credit.
type linkCounts struct {
	vcFlits, stallCycles []uint64
}

// countStalls adds one to the stall cycles of each output port that some input
// VC's front flit, ready to leave and holding an output VC of the port,
// waits for with no credit this cycle (link statistics only).
func (r *Router) countStalls() {
	V := int(r.vcs)
	var stalled uint64
	for pm := r.saPorts; pm != 0; pm &= pm - 1 {
		p := bits.TrailingZeros64(pm)
		pt := &r.port[p]
		for vm := pt.fr & pt.active &^ pt.credOK; vm != 0; vm &= vm - 1 {
			stalled |= 1 << (r.ivc[p*V+bits.TrailingZeros64(vm)].outPort & 63)
		}
	}
	for sm := stalled; sm != 0; sm &= sm - 1 {
		r.ext.links.stallCycles[bits.TrailingZeros64(sm)]++
	}
}

// allocateSwitch runs separable input-first switch allocation, the
// default, and moves the winning flits, under any arbitration (a keyed
// pick only where an arbiter has two requests: pickVC, pickInput). The
// other allocators run allocateSwitchPorts, written apart so that the
// default pays for none of their bookkeeping (folding them in here
// measured 4% slower on BenchmarkVCRouterCycle).
func (r *Router) allocateSwitch(now clock.Cycle, saPorts uint64) {
	V := int(r.vcs)
	ivc, outs, ws := r.ivc, r.outs, r.wires
	// Under a keyed arbitration (Config.Arbitration) an arbiter with more
	// than one request orders them by key (pickVC, pickInput).
	keyed := r.sh.keyed
	var outMask uint64
	for pm := saPorts; pm != 0; pm &= pm - 1 {
		p := bits.TrailingZeros64(pm)
		// The VCs whose front flit could leave now: holding an output VC
		// with a credit, with a flit present that has waited its cycles.
		// Flits that arrived this cycle at a dry front may leave from the
		// next one.
		pt := &r.port[p]
		elig := pt.fr & pt.active & pt.credOK
		pt.fr |= pt.fresh
		pt.fresh = 0
		if elig == 0 {
			continue
		}
		v := roundRobin(elig, pt.inNext)
		if keyed && elig&(elig-1) != 0 {
			v = r.pickVC(p, elig)
		}
		pt.inWant = uint8(v)
		op := ivc[p*V+v].outPort
		r.port[op].outReq |= 1 << (p & 63)
		outMask |= 1 << (op & 63)
	}
	var won uint64 // input ports that send a flit
	for om := outMask; om != 0; om &= om - 1 {
		op := bits.TrailingZeros64(om)
		opt := &r.port[op]
		req := opt.outReq
		opt.outReq = 0
		p := roundRobin(req, opt.outNext)
		if keyed && (req&(req-1) != 0 || r.sh.share == alloc.ShareWeighted) {
			p = r.pickInput(op, req, opt.outNext)
		}
		ipt := &r.port[p]
		v := int(ipt.inWant)
		opt.outNext = after(p)
		ipt.inNext = after(v)
		won |= 1 << (p & 63)

		// Traversal (traverse, written out: the call measured 150 million
		// more instructions in 4.8 billion, 3%, on torus32-uniform under
		// cachegrind; crossToQueue, speedup.go, keeps the same books): the
		// front flit of input VC v of port p leaves by op.
		i := p*V + v
		s := &ivc[i]
		o := int32(op*V + int(s.outV))
		slot, ok := ws.FlitSlot(int(opt.out), now+r.sh.sendAhead)
		if !ok {
			r.fail(now, "second flit sent out of port %d in one cycle", op)
		}
		h := &r.pkts[s.pkFront].hdr
		*slot = *h
		slot.Index = s.departed
		slot.VC = s.outV
		slot.Hops += uint8(b2u(slot.Hops < 255) & (r.netPorts >> (op & 63)))
		s.departed++
		s.front--
		ipt.fr &^= b2u(s.front == 0) << (v & 63)
		s.moved = uint32(now)
		ov := &outs[o]
		ov.credits--
		ipt.credOK &^= b2u(ov.credits == 0) << (v & 63)
		r.PortFlits[op]++
		if r.ext != nil && r.ext.links != nil {
			r.ext.links.vcFlits[o]++
		}
		s.flits--
		r.buffered--
		emptied := b2u(s.flits == 0)
		ipt.nonEmpty &^= emptied << (v & 63)
		r.valid -= int32(emptied)
		r.validInj -= int32(emptied &^ (r.netPorts >> (p & 63)))
		r.portChanged(p)
		if !ws.PutCredit(int(ipt.out), now, link.Credit{VC: uint16(v)}) {
			r.fail(now, "second credit sent back from port %d in one cycle", p)
		}
		// The next flit of the front, if any, is ready from the next cycle:
		// it arrived by now, and a body flit waits at most one cycle.
		if s.departed != slot.Size {
			continue
		}
		r.nextPacket(i, p, v, op, o)
	}
	active := bits.OnesCount64(won)
	r.active, r.activeInj = int32(active), int32(bits.OnesCount64(won&^r.netPorts))
	r.SumActive += uint64(active)
}

// traverse moves the front flit of input VC v of port p out of port op:
// switch and link traversal, its credit upstream, and, for a tail, the
// output VC freed and the next packet brought forward, for matchPorts
// (allocateSwitch and allocateSwitchPorts write it out; crossToQueue,
// speedup.go, keeps the same books).
func (r *Router) traverse(now clock.Cycle, p, v, op int) {
	V := int(r.vcs)
	ivc, outs, ws := r.ivc, r.outs, r.wires
	opt, ipt := &r.port[op], &r.port[p]
	i := p*V + v
	s := &ivc[i]
	o := int32(op*V + int(s.outV))
	slot, ok := ws.FlitSlot(int(opt.out), now+r.sh.sendAhead)
	if !ok {
		r.fail(now, "second flit sent out of port %d in one cycle", op)
	}
	h := &r.pkts[s.pkFront].hdr
	*slot = *h
	slot.Index = s.departed
	slot.VC = s.outV
	slot.Hops += uint8(b2u(slot.Hops < 255) & (r.netPorts >> (op & 63)))
	s.departed++
	s.front--
	ipt.fr &^= b2u(s.front == 0) << (v & 63)
	s.moved = uint32(now)
	ov := &outs[o]
	ov.credits--
	ipt.credOK &^= b2u(ov.credits == 0) << (v & 63)
	r.PortFlits[op]++
	if r.ext != nil && r.ext.links != nil {
		r.ext.links.vcFlits[o]++
	}
	s.flits--
	r.buffered--
	emptied := b2u(s.flits == 0)
	ipt.nonEmpty &^= emptied << (v & 63)
	r.valid -= int32(emptied)
	r.validInj -= int32(emptied &^ (r.netPorts >> (p & 63)))
	r.portChanged(p)
	if !ws.PutCredit(int(ipt.out), now, link.Credit{VC: uint16(v)}) {
		r.fail(now, "second credit sent back from port %d in one cycle", p)
	}
	// The next flit of the front, if any, is ready from the next cycle:
	// it arrived by now, and a body flit waits at most one cycle.
	if s.departed == slot.Size {
		r.nextPacket(i, p, v, op, o)
	}
}

// nextPacket runs when the tail of the front packet of input VC i (VC v of
// port p) has left by output VC o of port op: it frees o and brings the
// next packet forward.
func (r *Router) nextPacket(i, p, v, op int, o int32) {
	s := &r.ivc[i]
	s.pkLen--
	s.departed = 0
	r.outs[o].owner = -1
	r.bumped |= 1 << (op & 63)
	s.state = vcIdle
	r.port[p].active &^= 1 << (v & 63)
	r.portChanged(p)
	done := s.pkFront
	if s.pkLen == 0 {
		s.front = 0
		r.freePkt(done)
		return
	}
	s.pkFront = r.pkts[done].next
	r.freePkt(done)
	nd := &r.pkts[s.pkFront]
	s.ready = nd.headReady
	s.front = nd.hdr.Size
	if r.sh.keyed {
		r.ext.frontKey[i] = r.keyOf(&nd.hdr)
	}
	if s.pkLen == 1 {
		s.front -= s.backLeft
	}
}
