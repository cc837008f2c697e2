package vc

import (
	"math/bits"
	"unsafe"

	"github.com/icnsim/icnsim/clock"
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
	// m matches input ports to output ports (general switch allocation).
	m *alloc.Matcher
	// Scratch of general switch allocation, per input port: its eligible
	// VCs, the output ports it requests, its match; key[p*P+op] is input
	// p's key for output op when the allocator reads keys.
	elig, req []uint64
	match     []int8
	key       []uint64
	// vaWait holds the heads granted an output VC that may enter switch
	// allocation only VCAllocationCycles later, in grant order (so in the
	// order of their cycles); vaHead is the first not yet released.
	vaWait []vaPending
	vaHead int
}

// vaPending is a head waiting out its VC allocation stage: input VC v of
// port p may enter switch allocation from cycle at (low 32 bits).
type vaPending struct {
	at   uint32
	p, v uint8
}

// newRouterExtras returns the options state of a router of P ports under
// cfg, nil when cfg's options are all at their defaults.
func newRouterExtras(cfg Config, P int) *routerExtras {
	if !cfg.needsExtras() {
		return nil
	}
	o := &routerExtras{}
	if cfg.generalSwitch() {
		o.m = alloc.NewMatcher(cfg.SwitchAllocator, P, cfg.ISLIPIterations)
		o.elig, o.req, o.match = make([]uint64, P), make([]uint64, P), make([]int8, P)
		if cfg.Arbitration != alloc.RoundRobin && cfg.SwitchAllocator.Keyed() {
			o.key = make([]uint64, P*P)
		}
	}
	return o
}

// bytes is the memory the extras hold, their link statistics' counters
// aside (the network's, counted as such).
func (o *routerExtras) bytes() int {
	if o == nil {
		return 0
	}
	b := int(unsafe.Sizeof(routerExtras{})) + 8*(len(o.elig)+len(o.req)+len(o.key)) + len(o.match) +
		cap(o.vaWait)*int(unsafe.Sizeof(vaPending{}))
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
	if cfg.generalSwitch() {
		b += int64(8*2*P+P) + int64(alloc.MatcherBytes(P))
		if cfg.Arbitration != alloc.RoundRobin && cfg.SwitchAllocator.Keyed() {
			b += int64(8 * P * P)
		}
	}
	return b
}

// vcKey is the arbitration key of input VC i's front packet: the less,
// the sooner served (alloc.Arbitration).
func (r *Router) vcKey(i int) uint64 {
	h := &r.pkts[r.ivc[i].pkFront].hdr
	if r.sh.arb == alloc.ClassPriority {
		return uint64(255 - h.Class)
	}
	return uint64(h.Inj())
}

// pickVC picks one of the VCs of set (input port p's) by the router's
// arbitration from p's round-robin pointer.
func (r *Router) pickVC(p int, set uint64) int {
	next := r.port[p].inNext
	if r.sh.arb == alloc.RoundRobin || set&(set-1) == 0 {
		return roundRobin(set, next)
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

// pickInput picks one of the input ports of set, each asking for one
// output port with the VC in portState.inWant, by the router's keyed
// arbitration from the output's round-robin pointer next.
func (r *Router) pickInput(set uint64, next uint8) int {
	V := int(r.vcs)
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
	if o.vaHead == len(o.vaWait) {
		o.vaWait, o.vaHead = o.vaWait[:0], 0
	}
	o.vaWait = append(o.vaWait, vaPending{at: uint32(now) + r.sh.vaCycles, p: p, v: v})
}

// releaseVCStage lets the heads whose VC allocation stage ends by now
// enter switch allocation.
func (r *Router) releaseVCStage(now clock.Cycle) {
	o := r.ext
	for ; o.vaHead < len(o.vaWait) && readyBy(o.vaWait[o.vaHead].at, now); o.vaHead++ {
		w := o.vaWait[o.vaHead]
		r.port[w.p].fr |= 1 << (w.v & 63)
	}
}

// fillKeys writes the switch allocator's keys (routerExtras.key) of the
// requests that an arbiter will order: those for an output another input
// asks for too, and those of an input that asks for several outputs
// (input p's key for output op is the least key of its eligible VCs bound
// there; under input-first, of the VC its arbiter picked). No arbiter
// reads the others' keys, so they are not computed.
func (r *Router) fillKeys(inputs uint64, inputFirst bool) {
	V, P := int(r.vcs), int(r.ports)
	o := r.ext
	var asked, clash uint64
	for s := inputs; s != 0; s &= s - 1 {
		q := o.req[bits.TrailingZeros64(s)]
		clash |= asked & q
		asked |= q
	}
	for s := inputs; s != 0; s &= s - 1 {
		p := bits.TrailingZeros64(s)
		q := o.req[p]
		if q&clash == 0 && q&(q-1) == 0 {
			continue
		}
		if inputFirst {
			v := int(r.port[p].inWant)
			o.key[p*P+int(r.ivc[p*V+v].outPort)] = r.vcKey(p*V + v)
			continue
		}
		var seen uint64
		for m := o.elig[p]; m != 0; m &= m - 1 {
			v := bits.TrailingZeros64(m)
			op := int(r.ivc[p*V+v].outPort)
			if k := r.vcKey(p*V + v); seen>>(op&63)&1 == 0 || k < o.key[p*P+op] {
				o.key[p*P+op] = k
			}
			seen |= 1 << (op & 63)
		}
	}
}

// allocateSwitchWith is allocateSwitch under the configured arbitration
// and switch allocator: each input port asks for the output ports of its
// eligible VCs (separable input-first: of the one VC its arbiter picks),
// the Matcher matches ports, and each matched input sends the VC its
// arbiter picks among those bound for its output.
func (r *Router) allocateSwitchWith(now clock.Cycle, saPorts uint64) {
	V := int(r.vcs)
	ivc, o := r.ivc, r.ext
	inputFirst := r.sh.swAlloc == alloc.SeparableInputFirst
	keyed := o.key != nil
	var inputs uint64
	for pm := saPorts; pm != 0; pm &= pm - 1 {
		p := bits.TrailingZeros64(pm)
		pt := &r.port[p]
		elig := pt.fr & pt.active & pt.credOK
		pt.fr |= pt.fresh
		pt.fresh = 0
		if elig == 0 {
			continue
		}
		inputs |= 1 << (p & 63)
		o.elig[p] = elig
		if inputFirst {
			v := r.pickVC(p, elig)
			pt.inWant = uint8(v)
			o.req[p] = 1 << (ivc[p*V+v].outPort & 63)
			continue
		}
		var req uint64
		for m := elig; m != 0; m &= m - 1 {
			req |= 1 << (ivc[p*V+bits.TrailingZeros64(m)].outPort & 63)
		}
		o.req[p] = req
	}
	if keyed {
		r.fillKeys(inputs, inputFirst)
	}
	won := o.m.Match(inputs, o.req, o.key, o.match)
	for s := won; s != 0; s &= s - 1 {
		p := bits.TrailingZeros64(s)
		op := int(o.match[p])
		pt := &r.port[p]
		v := int(pt.inWant)
		if elig := o.elig[p]; !inputFirst && elig&(elig-1) == 0 {
			v = bits.TrailingZeros64(elig)
		} else if !inputFirst {
			var to uint64
			for m := o.elig[p]; m != 0; m &= m - 1 {
				w := bits.TrailingZeros64(m)
				to |= b2u(int(ivc[p*V+w].outPort) == op) << (w & 63)
			}
			v = r.pickVC(p, to)
		}
		pt.inNext = after(v)
		r.traverse(now, p, v, op)
	}
	active := bits.OnesCount64(won)
	r.active, r.activeInj = int32(active), int32(bits.OnesCount64(won&^r.netPorts))
	r.SumActive += uint64(active)
}
