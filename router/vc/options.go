package vc

import (
	"math/bits"
	"unsafe"

	"github.com/icnsim/icnsim/clock"
	"github.com/icnsim/icnsim/link"
	"github.com/icnsim/icnsim/router/alloc"
)

// routerExtras is what a router keeps beyond the default router: the
// state of its options (Config.Arbitration, SwitchAllocator,
// VCAllocationCycles) and its link statistics; nil without either, so
// that the default router pays for none of them.
type routerExtras struct {
	// links are the link statistics Network.CountLinkStats asked for; nil
	// otherwise.
	links *linkCounts
	// m matches input ports to output ports (matchPorts); forceMatch
	// sends every allocation there (Config.forceMatch).
	m          *alloc.Matcher
	forceMatch bool
	// strict is set when allocateSwitchPorts must ask the Matcher about
	// every contested output too: under forceMatch, a keyed allocator or
	// wavefront.
	strict bool
	// Scratch of allocateSwitchPorts: elig[p] is input port p's eligible
	// VCs (set for the inputs with several); key[p*P+op] is input p's key
	// for output op when the allocator reads keys.
	elig []uint64
	key  []uint64
	// reqOf[p] is the outputs input port p asks for, set for the inputs
	// asking for several (allocateSwitchPorts; askAll reads it).
	reqOf []uint64
	// grants[p] is the outputs granting input p in an iSLIP round
	// (islipPorts), zero between rounds.
	grants []uint64
	// outPortOf[i] is input VC i's output port while it holds an output VC
	// (inVC.outPort, kept here too so that an input's requests are read
	// from one line, not from each of its VCs' states).
	outPortOf []uint8
	// frontKey[i] is the arbitration key of input VC i's front packet
	// (keyOf), kept as the front changes under a keyed arbitration: an
	// arbiter reads one word per request instead of a packet's header.
	frontKey []uint64
	// vaWait is a ring of the heads granted an output VC that may enter
	// switch allocation only VCAllocationCycles later, in grant order (so
	// in the order of their cycles): vaLen of them from vaHead. An input
	// VC has at most one head waiting, so P*V entries, allocated at build,
	// always suffice.
	vaWait        []vaPending
	vaHead, vaLen int32
	// inShare[p] and outShare[p] are the weighted class share's state of
	// input port p's arbiter (over its VCs) and output port p's (over the
	// input ports), under alloc.ShareWeighted; nil otherwise.
	inShare, outShare []alloc.WeightedShare
}

// vaPending is a head waiting out its VC allocation stage: input VC v of
// port p may enter switch allocation from cycle at (low 32 bits).
type vaPending struct {
	at   uint32
	p, v uint8
}

// newRouterExtras returns the options state of routers of ports[r] ports
// each under cfg, nil when cfg's options are all at their defaults: one
// array of extras, one of matchers, one of scratch, in router order, so
// that a cycle walks each in order.
func newRouterExtras(cfg Config, ports []int) []routerExtras {
	if !cfg.needsExtras() {
		return nil
	}
	xs := make([]routerExtras, len(ports))
	if cfg.VCAllocationCycles != 0 {
		perVC(ports, cfg.VCs, func(r int, ring []vaPending) { xs[r].vaWait = ring })
	}
	if cfg.keyed() {
		perVC(ports, cfg.VCs, func(r int, keys []uint64) { xs[r].frontKey = keys })
	}
	if cfg.ClassShare == alloc.ShareWeighted {
		total := 0
		for _, P := range ports {
			total += 2 * P
		}
		shares := make([]alloc.WeightedShare, total)
		for r, P := range ports {
			xs[r].inShare, xs[r].outShare = shares[:P:P], shares[P:2*P:2*P]
			shares = shares[2*P:]
		}
	}
	if !cfg.generalSwitch() {
		return xs
	}
	keyed := cfg.vaKeyed() && cfg.SwitchAllocator.Keyed()
	ms := alloc.NewMatchers(cfg.SwitchAllocator, cfg.ISLIPIterations, ports, keyed)
	perVC(ports, cfg.VCs, func(r int, outs []uint8) { xs[r].outPortOf = outs })
	words := 0
	for _, P := range ports {
		words += 3*P + P*P*int(b2u(keyed))
	}
	scratch := make([]uint64, words)
	for r, P := range ports {
		x := &xs[r]
		x.m, x.forceMatch = &ms[r], cfg.forceMatch
		x.strict = cfg.forceMatch || keyed || cfg.SwitchAllocator == alloc.Wavefront
		x.elig, scratch = scratch[:P:P], scratch[P:]
		x.reqOf, scratch = scratch[:P:P], scratch[P:]
		x.grants, scratch = scratch[:P:P], scratch[P:]
		if keyed {
			x.key, scratch = scratch[:P*P:P*P], scratch[P*P:]
		}
	}
	return xs
}

// perVC carves one array into an entry per input VC of each router
// (ports[r] ports of vcs VCs) and gives router r its part.
func perVC[T any](ports []int, vcs int, give func(r int, part []T)) {
	total := 0
	for _, P := range ports {
		total += P * vcs
	}
	all := make([]T, total)
	for r, P := range ports {
		n := P * vcs
		give(r, all[:n:n])
		all = all[n:]
	}
}

// bytes is the memory the extras hold, their link statistics' counters
// aside (the network's, counted as such).
func (o *routerExtras) bytes() int {
	if o == nil {
		return 0
	}
	b := int(unsafe.Sizeof(routerExtras{})) + 8*(len(o.elig)+len(o.reqOf)+len(o.grants)+len(o.key)+len(o.frontKey)) + len(o.outPortOf) + len(o.vaWait)*int(unsafe.Sizeof(vaPending{})) +
		(len(o.inShare)+len(o.outShare))*int(unsafe.Sizeof(alloc.WeightedShare{}))
	if o.m != nil {
		b += o.m.Bytes()
	}
	return b
}

// extrasBytes is the memory newRouterExtras allocates for a router of P
// ports under cfg.
func extrasBytes(cfg Config, P int) int64 {
	if !cfg.needsExtras() {
		return 0
	}
	b := int64(unsafe.Sizeof(routerExtras{}))
	if cfg.VCAllocationCycles != 0 {
		b += int64(P*cfg.VCs) * int64(unsafe.Sizeof(vaPending{}))
	}
	if cfg.keyed() {
		b += int64(8 * P * cfg.VCs)
	}
	if cfg.ClassShare == alloc.ShareWeighted {
		b += int64(2*P) * int64(unsafe.Sizeof(alloc.WeightedShare{}))
	}
	if cfg.generalSwitch() {
		keyed := cfg.vaKeyed() && cfg.SwitchAllocator.Keyed()
		b += int64(24*P + P*cfg.VCs + alloc.MatcherBytes(P, keyed))
		if keyed {
			b += int64(8 * P * P)
		}
	}
	return b
}

// keyOf is the arbitration key of the packet whose head is h: the less,
// the sooner served (alloc.Arbitration).
//
// Under a class share the class comes first: the weighted share's key is
// the class alone (its arbiters pick a class by WeightedShare, then round
// robin), the priority share's the class above the arbitration's key (the
// lower class first; within it, the older first under oldest-first).
func (r *Router) keyOf(h *link.Flit) uint64 {
	switch {
	case r.sh.share == alloc.ShareWeighted:
		return uint64(h.Class)
	case r.sh.arb == alloc.ClassPriority:
		return uint64(255 - h.Class)
	}
	var k uint64
	if r.sh.arb == alloc.OldestFirst {
		k = uint64(h.Inj()) & (1<<56 - 1)
	}
	if r.sh.share == alloc.SharePriority {
		k |= uint64(h.Class) << 56
	}
	return k
}

// classesOf is the classes of the front packets of input VCs base+v, v in
// set (a bit per class), under the weighted share.
func (r *Router) classesOf(base int, set uint64) uint8 {
	var present uint8
	for m := set; m != 0; m &= m - 1 {
		present |= 1 << (r.vcKey(base+bits.TrailingZeros64(m)) & 7)
	}
	return present
}

// ofClass is the VCs base+v, v in set, whose front packet is of class k.
func (r *Router) ofClass(base int, set uint64, k int) uint64 {
	var of uint64
	for m := set; m != 0; m &= m - 1 {
		v := bits.TrailingZeros64(m)
		of |= b2u(r.vcKey(base+v) == uint64(k)) << (v & 63)
	}
	return of
}

// vcKey is the arbitration key of input VC i's front packet.
func (r *Router) vcKey(i int) uint64 { return r.ext.frontKey[i] }

// pickVC picks one of the VCs of set (input port p's) by the router's
// arbitration from p's round-robin pointer.
func (r *Router) pickVC(p int, set uint64) int {
	next := r.port[p].inNext
	if !r.sh.keyed || set&(set-1) == 0 {
		return roundRobin(set, next)
	}
	if r.sh.share == alloc.ShareWeighted {
		// The class the input's share serves next (committed when the
		// input wins its output: pickInput), round robin within it.
		base := p * int(r.vcs)
		k := r.ext.inShare[p].Next(r.classesOf(base, set))
		return roundRobin(r.ofClass(base, set, k), next)
	}
	// The VCs whose key is least, in one pass; round robin among them
	// (alloc.Pick's rule).
	base := p * int(r.vcs)
	least, tied := ^uint64(0), uint64(0)
	for m := set; m != 0; m &= m - 1 {
		v := bits.TrailingZeros64(m)
		k := r.vcKey(base + v)
		if k < least {
			least, tied = k, 0
		}
		tied |= b2u(k == least) << (v & 63)
	}
	return roundRobin(tied, next)
}

// pickInput picks one of the input ports of set, each asking for output
// port op with the VC in portState.inWant, by the router's keyed
// arbitration from the output's round-robin pointer next. Under the
// weighted share the output's share picks the class, round robin within
// it, and both the output's share and the winning input's record a flit
// of that class served.
func (r *Router) pickInput(op int, set uint64, next uint8) int {
	V := int(r.vcs)
	if r.sh.share == alloc.ShareWeighted {
		var present uint8
		for m := set; m != 0; m &= m - 1 {
			p := bits.TrailingZeros64(m)
			present |= 1 << (r.vcKey(p*V+int(r.port[p].inWant)) & 7)
		}
		x := r.ext
		k := x.outShare[op].Next(present)
		var of uint64
		for m := set; m != 0; m &= m - 1 {
			p := bits.TrailingZeros64(m)
			of |= b2u(r.vcKey(p*V+int(r.port[p].inWant)) == uint64(k)) << (p & 63)
		}
		p := roundRobin(of, next)
		cost := r.sh.shareCost[k]
		x.outShare[op].Served(k, 1, cost)
		x.inShare[p].Served(k, 1, cost)
		return p
	}
	least, tied := ^uint64(0), uint64(0)
	for m := set; m != 0; m &= m - 1 {
		p := bits.TrailingZeros64(m)
		k := r.vcKey(p*V + int(r.port[p].inWant))
		if k < least {
			least, tied = k, 0
		}
		tied |= b2u(k == least) << (p & 63)
	}
	return roundRobin(tied, next)
}

// vaWinner is the index of the winning request among r.reqs[a:] for
// output VC o under a keyed arbitration: the least key, ties to the first
// input VC at or after o's pointer ptr (n input VCs in all); it marks the
// others for o as handled, as allocateVCs's round-robin loop does.
func (r *Router) vaWinner(a int, o, ptr, n int32) int {
	win := a
	var bestKey uint64
	best := ringDistance(r.reqs[a].in, ptr, n)
	keyed := false // the first request's key is read only when another asks for o
	for b := a + 1; b < len(r.reqs); b++ {
		if r.reqs[b].out != o {
			continue
		}
		if !keyed {
			bestKey, keyed = r.vcKey(int(r.reqs[a].in)), true
		}
		k, d := r.vcKey(int(r.reqs[b].in)), ringDistance(r.reqs[b].in, ptr, n)
		if k < bestKey || k == bestKey && d < best {
			win, bestKey, best = b, k, d
		}
		r.reqs[b].out = -1
	}
	return win
}

// waitVCStage holds input VC v of port p, just granted an output VC, out
// of switch allocation for the VC allocation stage's cycles.
func (r *Router) waitVCStage(now clock.Cycle, p, v uint8) {
	o := r.ext
	if int(o.vaLen) == len(o.vaWait) {
		r.fail(now, "more than %d heads in the VC allocation stage", len(o.vaWait))
	}
	tail := int(o.vaHead + o.vaLen)
	if tail >= len(o.vaWait) {
		tail -= len(o.vaWait)
	}
	o.vaWait[tail] = vaPending{at: uint32(now) + r.sh.vaCycles, p: p, v: v}
	o.vaLen++
}

// releaseVCStage lets the heads whose VC allocation stage ends by now
// enter switch allocation.
func (r *Router) releaseVCStage(now clock.Cycle) {
	o := r.ext
	for o.vaLen > 0 && readyBy(o.vaWait[o.vaHead].at, now) {
		w := o.vaWait[o.vaHead]
		r.port[w.p].fr |= 1 << (w.v & 63)
		o.vaLen--
		if o.vaHead++; int(o.vaHead) == len(o.vaWait) {
			o.vaHead = 0
		}
	}
}

// fillKeys writes the switch allocator's keys (routerExtras.key) of the
// requests that an arbiter will order: those for an output another input
// asks for too, and those of an input that asks for several outputs.
// Input p's key for output op is the least key of its eligible VCs bound
// there: of the VC its arbiter picked (inWant) when it asked for one
// output (every eligible VC is bound there, and the pick is the least
// key's). No arbiter reads the others' keys, so they are not computed.
func (r *Router) fillKeys(inputs, several uint64) {
	V, P := int(r.vcs), int(r.ports)
	o := r.ext
	var asked, clash uint64
	for s := inputs; s != 0; s &= s - 1 {
		q := o.m.Asked(bits.TrailingZeros64(s))
		clash |= asked & q
		asked |= q
	}
	for s := inputs; s != 0; s &= s - 1 {
		p := bits.TrailingZeros64(s)
		q := o.m.Asked(p)
		if q&clash == 0 && q&(q-1) == 0 {
			continue
		}
		if several>>(p&63)&1 == 0 {
			v := int(r.port[p].inWant)
			o.key[p*P+int(o.outPortOf[p*V+v])] = r.vcKey(p*V + v)
			continue
		}
		var seen uint64
		for m := o.elig[p]; m != 0; m &= m - 1 {
			v := bits.TrailingZeros64(m)
			op := int(o.outPortOf[p*V+v])
			if k := r.vcKey(p*V + v); seen>>(op&63)&1 == 0 || k < o.key[p*P+op] {
				o.key[p*P+op] = k
			}
			seen |= 1 << (op & 63)
		}
	}
}

// allocateSwitchPorts is allocateSwitch under an allocator other than
// separable input-first (or under a test's forceMatch): each input port
// asks for the output ports of all its eligible VCs (separable
// input-first: of the one VC its arbiter picks). Two cases are settled
// here, as alloc.Matcher.Match settles them, and cost about what
// allocateSwitch does: every input asking for one output, contested or
// not (each output grants one of the inputs asking for it round robin:
// the same under every allocator); and inputs asking for several outputs
// none of which another input asks for (each output grants its one
// asker, which accepts the first at or after its pointer: input-first,
// output-first and every iSLIP round agree). Keyed arbiters and the
// wavefront's diagonal decide otherwise, as does a contested output asked
// for by an input with a choice: matchPorts asks the Matcher.
func (r *Router) allocateSwitchPorts(now clock.Cycle, saPorts uint64) {
	V := int(r.vcs)
	ivc, x := r.ivc, r.ext
	outs, ws := r.outs, r.wires
	keyed := r.sh.keyed
	// multi: the inputs with several eligible VCs, which may be bound for
	// several outputs; their eligible VCs are kept in x.elig.
	var inputs, outMask, multi uint64
	// clash: the outputs more than one input asks for (each input counted
	// once per output it asks for), found as the requests are made.
	var clash uint64
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
		// The VC the input's arbiter picks, were all its eligible VCs
		// bound for one output (separable input-first: it picks first),
		// and that VC's output, which the input asks for.
		v := roundRobin(elig, pt.inNext)
		if elig&(elig-1) != 0 {
			if keyed {
				v = r.pickVC(p, elig)
			}
			multi |= 1 << (p & 63)
			x.elig[p] = elig
		}
		pt.inWant = uint8(v)
		op := ivc[p*V+v].outPort
		r.port[op].outReq |= 1 << (p & 63)
		clash |= outMask & (1 << (op & 63))
		outMask |= 1 << (op & 63)
		inputs |= 1 << (p & 63)
	}
	// The inputs whose eligible VCs are bound for several outputs ask for
	// each: the asking is redone here, for them alone.
	var several uint64
	if multi != 0 && r.sh.swAlloc != alloc.SeparableInputFirst {
		for m := multi; m != 0; m &= m - 1 {
			p := bits.TrailingZeros64(m)
			if req := r.outputsOf(p, x.elig[p]); req&(req-1) != 0 {
				several |= 1 << (p & 63)
				// The outputs beyond the one its picked VC asked for.
				extra := req &^ (1 << (ivc[p*V+int(r.port[p].inWant)].outPort & 63))
				clash |= outMask & extra
				outMask |= req
				x.reqOf[p] = req
			}
		}
	}
	if x.strict && (x.forceMatch || several != 0 || r.contested(outMask)) {
		r.askAll(inputs, several)
		r.matchPorts(now, inputs, several, outMask)
		return
	}
	if several != 0 && r.sh.swAlloc == alloc.ISLIP && !x.forceMatch {
		// iSLIP reads the router's own masks: the clash found above says
		// whether its rounds are needed (askAll would say the same).
		if clash != 0 {
			r.islipPorts(now, inputs, several, outMask)
			return
		}
		r.settleSeveral(several)
	} else if several != 0 && r.chooseOutputs(inputs, several) {
		r.matchPorts(now, inputs, several, outMask)
		return
	}
	var won uint64 // input ports that send a flit
	for om := outMask; om != 0; om &= om - 1 {
		op := bits.TrailingZeros64(om)
		opt := &r.port[op]
		req := opt.outReq
		if req == 0 {
			continue // asked for only by an input that takes another
		}
		opt.outReq = 0
		p := roundRobin(req, opt.outNext)
		ipt := &r.port[p]
		v := int(ipt.inWant)
		if several != 0 && several>>(p&63)&1 != 0 {
			to := r.boundFor(p, x.elig[p], op)
			v = roundRobin(to, ipt.inNext)
			if keyed && to&(to-1) != 0 {
				v = r.pickVC(p, to)
			}
		}
		ipt.accNext = after(op)
		opt.outNext = after(p)
		ipt.inNext = after(v)
		won |= 1 << (p & 63)

		// Traversal, written out as in allocateSwitch (a change to one is
		// a change to both, and to traverse and crossToQueue): the call
		// made iSLIP on torus32-uniform 10.0% slower per router-cycle
		// than the default router, written out 7.5% (9 interleaved
		// pairs, 2 vCPUs).
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
	if outMask != 0 {
		x.m.Settled()
	}
	active := bits.OnesCount64(won)
	r.active, r.activeInj = int32(active), int32(bits.OnesCount64(won&^r.netPorts))
	r.SumActive += uint64(active)
}

// contested reports whether an output of outMask is asked for by more
// than one input (outReq, as allocateSwitchPorts filled it, every input
// asking for one output).
func (r *Router) contested(outMask uint64) bool {
	for om := outMask; om != 0; om &= om - 1 {
		if q := r.port[bits.TrailingZeros64(om)].outReq; q&(q-1) != 0 {
			return true
		}
	}
	return false
}

// chooseOutputs settles the inputs of several (each asking for several
// outputs) when no output any of them asks for is asked for by another
// input: each takes the first of its outputs at or after its pointer
// (accNext), moved from the output allocateSwitchPorts registered it
// with. It reports whether the Matcher is needed instead (some output
// contested), having asked it every input's outputs (askAll), and then
// changes nothing else.
func (r *Router) chooseOutputs(inputs, several uint64) bool {
	if r.askAll(inputs, several) {
		return true
	}
	r.settleSeveral(several)
	return false
}

// settleSeveral registers each input of several (asking for several
// outputs, none of them contested) with the first of its outputs at or
// after its pointer (accNext) instead of its picked VC's.
func (r *Router) settleSeveral(several uint64) {
	V := int(r.vcs)
	for s := several; s != 0; s &= s - 1 {
		p := bits.TrailingZeros64(s)
		pt := &r.port[p]
		bit := uint64(1) << (p & 63)
		r.port[r.ivc[p*V+int(pt.inWant)].outPort].outReq &^= bit
		r.port[roundRobin(r.ext.reqOf[p], pt.accNext)].outReq |= bit
	}
}

// islipPorts is matchPorts under iSLIP, on the router's own masks and
// pointers rather than the Matcher's (alloc.Matcher's grantAccept, the
// same rounds: TestSettledAllocationsMatchTheMatcher): in each of the
// allocator's rounds every output not yet matched grants the first
// unmatched input asking for it at or after its pointer (outNext), and
// every input granted accepts the first granting output at or after its
// own (accNext); the pointers move for the grants accepted in the first
// round. outReq holds, per output, the inputs whose picked VC is bound
// there; an input of several asks for each output of reqOf.
func (r *Router) islipPorts(now clock.Cycle, inputs, several, outMask uint64) {
	x := r.ext
	for s := several; s != 0; s &= s - 1 {
		p := bits.TrailingZeros64(s)
		for m := x.reqOf[p]; m != 0; m &= m - 1 {
			r.port[bits.TrailingZeros64(m)].outReq |= 1 << (p & 63)
		}
	}
	var outOf [64]uint8 // each matched input's output
	var won, busyOut uint64
	free := inputs
	for round := 0; round < x.m.Iterations() && free != 0; round++ {
		var granted uint64
		for om := outMask &^ busyOut; om != 0; om &= om - 1 {
			o := bits.TrailingZeros64(om)
			asked := r.port[o].outReq & free
			if asked == 0 {
				continue
			}
			i := roundRobin(asked, r.port[o].outNext)
			x.grants[i] |= 1 << (o & 63)
			granted |= 1 << (i & 63)
		}
		for g := granted; g != 0; g &= g - 1 {
			i := bits.TrailingZeros64(g)
			pt := &r.port[i]
			o := roundRobin(x.grants[i], pt.accNext)
			x.grants[i] = 0
			outOf[i] = uint8(o)
			busyOut |= 1 << (o & 63)
			if round == 0 {
				r.port[o].outNext = after(i)
				pt.accNext = after(o)
			}
		}
		won |= granted
		free &^= granted
	}
	for om := outMask; om != 0; om &= om - 1 {
		r.port[bits.TrailingZeros64(om)].outReq = 0
	}
	for s := won; s != 0; s &= s - 1 {
		p := bits.TrailingZeros64(s)
		r.sendMatched(now, p, int(outOf[p]), several)
	}
	active := bits.OnesCount64(won)
	r.active, r.activeInj = int32(active), int32(bits.OnesCount64(won&^r.netPorts))
	r.SumActive += uint64(active)
}

// sendMatched sends a flit from input port p, matched to output port op
// (matchPorts, islipPorts): of the VC its arbiter picked (inWant), or, for
// an input of several (asking for several outputs), of the one its
// arbiter picks now among its eligible VCs bound for op.
func (r *Router) sendMatched(now clock.Cycle, p, op int, several uint64) {
	pt := &r.port[p]
	v := int(pt.inWant)
	if several>>(p&63)&1 != 0 {
		v = r.pickVC(p, r.boundFor(p, r.ext.elig[p], op))
	}
	pt.inNext = after(v)
	r.traverse(now, p, v, op)
}

// askAll tells the Matcher the outputs each input asks for (an input of
// several, those in reqOf; another, its picked VC's) and reports whether
// an output is asked for by more than one input.
func (r *Router) askAll(inputs, several uint64) (contested bool) {
	V := int(r.vcs)
	o := r.ext
	var asked, clash uint64
	for s := inputs; s != 0; s &= s - 1 {
		p := bits.TrailingZeros64(s)
		req := uint64(1) << (r.ivc[p*V+int(r.port[p].inWant)].outPort & 63)
		if several>>(p&63)&1 != 0 {
			req = o.reqOf[p]
		}
		o.m.Ask(p, req)
		clash |= asked & req
		asked |= req
	}
	return clash != 0
}

// outputsOf is the output ports of the VCs of set (input port p's).
func (r *Router) outputsOf(p int, set uint64) uint64 {
	V := int(r.vcs)
	outs := r.ext.outPortOf[p*V : p*V+V]
	var req uint64
	for m := set; m != 0; m &= m - 1 {
		req |= 1 << (outs[bits.TrailingZeros64(m)] & 63)
	}
	return req
}

// boundFor is the VCs of set (input port p's) whose output port is op.
func (r *Router) boundFor(p int, set uint64, op int) uint64 {
	V := int(r.vcs)
	outs := r.ext.outPortOf[p*V : p*V+V]
	var to uint64
	for w := set; w != 0; w &= w - 1 {
		x := bits.TrailingZeros64(w)
		to |= b2u(int(outs[x]) == op) << (x & 63)
	}
	return to
}

// matchPorts finishes a switch allocation that allocateSwitchPorts cannot
// settle alone (an input asking for several outputs one of which another
// asks for too, an output contested under wavefront or a keyed
// allocator, or a test's forceMatch): the Matcher matches ports from the
// router's own pointers (portState's outNext and accNext, which it gets
// and gives back), and each matched input sends a VC bound for its
// output: the one its arbiter picked (portState.inWant) unless it asked
// for several outputs (several), when its arbiter picks now among its
// eligible VCs (routerExtras.elig) bound for the output. inputs is the
// input ports with an eligible VC, each having told the Matcher what it
// asks for (askAll), outMask the outputs asked for, whose outReq
// allocateSwitchPorts filled.
func (r *Router) matchPorts(now clock.Cycle, inputs, several, outMask uint64) {
	o := r.ext
	m := o.m
	for om := outMask; om != 0; om &= om - 1 {
		r.port[bits.TrailingZeros64(om)].outReq = 0
	}
	// The Matcher reads and moves the pointers of the ports in the
	// allocation alone: inputs' accept pointers, outputs' grant pointers.
	touched := inputs | outMask
	for t := touched; t != 0; t &= t - 1 {
		p := bits.TrailingZeros64(t)
		pt := &r.port[p]
		m.SetPointers(p, pt.outNext, pt.accNext)
	}
	if o.key != nil {
		r.fillKeys(inputs, several)
	}
	won := m.Match(inputs, o.key)
	for s := won; s != 0; s &= s - 1 {
		p := bits.TrailingZeros64(s)
		r.sendMatched(now, p, m.Output(p), several)
	}
	for t := touched; t != 0; t &= t - 1 {
		p := bits.TrailingZeros64(t)
		r.port[p].outNext, r.port[p].accNext = m.Pointers(p)
	}
	active := bits.OnesCount64(won)
	r.active, r.activeInj = int32(active), int32(bits.OnesCount64(won&^r.netPorts))
	r.SumActive += uint64(active)
}
