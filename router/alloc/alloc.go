// Package alloc owns the arbiters and the switch allocators a router kind
// may choose from: round-robin and keyed arbitration (oldest first,
// priority by message class), and the separable input-first, separable
// output-first, iSLIP and wavefront matchings of a router's input ports to
// its output ports, on bit masks of at most 64 ports. A router kind keeps
// its own VCs and decides which ports request which; this package decides
// who wins, and how an arbiter divides itself between traffic classes
// (Share: strict priority, or weighted by start-time fair queueing). Every rule is deterministic: ties go round robin from a
// pointer the Matcher keeps, so results stay a function of the requests.
//
// It may import only the standard library.
package alloc

import (
	"fmt"
	"math/bits"
	"strings"
	"unsafe"
)

// Arbitration is how an arbiter orders the requests it sees.
type Arbitration uint8

const (
	// RoundRobin: the first request at or after a rotating pointer, the
	// pointer moving past each winner (icnsim's router until now).
	RoundRobin Arbitration = iota
	// OldestFirst: the request whose packet left its source NI first (the
	// head's injection cycle, link.Flit.Inj), ties round robin.
	OldestFirst
	// ClassPriority: the request whose packet has the higher message class
	// (link.Flit.Class: replies over requests, long over short), ties
	// round robin.
	ClassPriority
)

func arbitrationNames() []string { return []string{"round-robin", "oldest-first", "class-priority"} }

// ArbitrationNames lists the arbitrations in a fixed order, the default first.
func ArbitrationNames() []string { return arbitrationNames() }

func (a Arbitration) String() string { return nameOf(arbitrationNames(), uint8(a), "arbitration") }

// ParseArbitration reads an arbitration by name; "" is the default.
func ParseArbitration(s string) (Arbitration, error) {
	i, err := parse(arbitrationNames(), s, "arbitration")
	return Arbitration(i), err
}

// Allocator is how a switch matches its input ports to its output ports.
type Allocator uint8

const (
	// SeparableInputFirst: each input picks one of the outputs it requests
	// (one VC, in a router: the router asks for one output per input),
	// then each output grants one of the inputs that picked it.
	SeparableInputFirst Allocator = iota
	// SeparableOutputFirst: each output grants one of the inputs that
	// request it, then each input accepts one of the outputs that granted
	// it; a pointer moves only past an accepted grant.
	SeparableOutputFirst
	// ISLIP: McKeown's iSLIP, Iterations rounds of request, grant and
	// accept among the ports still unmatched, round robin; the pointers
	// move only for grants accepted in the first round.
	ISLIP
	// Wavefront: the request matrix is swept diagonal by diagonal from a
	// priority diagonal that moves by one at each allocation with a
	// request; a request is granted when its input and output are still
	// free (Tamir and Chi; BookSim2's wavefront).
	Wavefront
)

func allocatorNames() []string {
	return []string{"separable-input-first", "separable-output-first", "islip", "wavefront"}
}

// AllocatorNames lists the switch allocators in a fixed order, the default first.
func AllocatorNames() []string { return allocatorNames() }

func (a Allocator) String() string { return nameOf(allocatorNames(), uint8(a), "allocator") }

// ParseAllocator reads a switch allocator by name; "" is the default.
func ParseAllocator(s string) (Allocator, error) {
	i, err := parse(allocatorNames(), s, "switch allocator")
	return Allocator(i), err
}

// Keyed reports whether the allocator's arbiters read request keys (the
// separable ones); iSLIP and wavefront match by their own rules alone.
func (a Allocator) Keyed() bool { return a == SeparableInputFirst || a == SeparableOutputFirst }

// MaxISLIPIterations is the most iSLIP rounds per allocation: a switch of
// P ports is maximal after at most P rounds, and 64 ports is the most a
// router has.
const MaxISLIPIterations = 64

func parse(names []string, s, what string) (uint8, error) {
	if s == "" {
		return 0, nil
	}
	for i, n := range names {
		if n == s {
			return uint8(i), nil
		}
	}
	return 0, fmt.Errorf("unknown %s %q (allowed: %s)", what, s, strings.Join(names, ", "))
}

func nameOf(names []string, v uint8, label string) string {
	if int(v) < len(names) {
		return names[v]
	}
	return fmt.Sprintf("%s(%d)", label, v)
}

// Pick returns the set bit of req whose key is least (keys[i] is bit i's;
// nil keys are all equal), ties to the first at or after position next
// (0..64) going round to the lowest: round-robin arbitration when keys is
// nil. req must not be zero.
func Pick(req uint64, keys *[64]uint64, next uint8) int {
	if keys != nil {
		least := ^uint64(0)
		for m := req; m != 0; m &= m - 1 {
			least = min(least, keys[bits.TrailingZeros64(m)])
		}
		var tied uint64
		for m := req; m != 0; m &= m - 1 {
			i := bits.TrailingZeros64(m) & 63
			if keys[i] == least {
				tied |= 1 << i
			}
		}
		req = tied
	}
	sel := req & (^uint64(0) << (next & 127))
	if sel == 0 {
		sel = req
	}
	return bits.TrailingZeros64(sel)
}

// After is the round-robin pointer just past position x (0..63).
func After(x int) uint8 { return uint8(x + 1) }

// Matcher matches a switch's input ports to its output ports under one
// Allocator, keeping the round-robin pointers and the wavefront's
// priority diagonal between allocations. Its state is its own: a router
// has one, and only that router's tick calls it. A port's state and
// scratch lie together in one 32-byte slot, so that an allocation over a
// few ports touches a few cache lines (a router's matcher is read every
// cycle; NewMatchers lays a network's out in one array).
type Matcher struct {
	kind       Allocator
	ports      int
	iterations int
	diagonal   int // wavefront's priority diagonal
	slot       []portSlot
	keys       *[64]uint64 // Pick's keys (NewMatchers with keyed); nil without
}

// portSlot is port p's state in a Matcher: as an input, its requests
// (Ask), its match (Output), the grants it received and its pointer over
// outputs; as an output, the inputs asking for it and its pointer over
// inputs.
type portSlot struct {
	req, askedBy, grants  uint64
	grantNext, acceptNext uint8
	match                 int8
	_                     [5]byte
}

// Bytes is the memory the matcher holds.
func (m *Matcher) Bytes() int { return MatcherBytes(m.ports, m.keys != nil) }

// MatcherBytes is the memory a Matcher of ports ports holds, with the
// scratch of keyed allocations or without.
func MatcherBytes(ports int, keyed bool) int {
	b := int(unsafe.Sizeof(Matcher{})) + ports*int(unsafe.Sizeof(portSlot{}))
	if keyed {
		b += int(unsafe.Sizeof([64]uint64{}))
	}
	return b
}

// NewMatcher returns the matcher of a switch of ports ports (1..64) under
// kind; iterations is iSLIP's rounds (0 means 1), ignored by the others.
// It takes keys (Match's key) under the separable allocators.
func NewMatcher(kind Allocator, ports, iterations int) *Matcher {
	return &NewMatchers(kind, iterations, []int{ports}, kind.Keyed())[0]
}

// NewMatchers returns the matchers of switches of ports[i] ports each, in
// one array, their slots in another; keyed gives each the scratch of
// keyed allocations (Match with keys), which it then allocates no more.
func NewMatchers(kind Allocator, iterations int, ports []int, keyed bool) []Matcher {
	if kind > Wavefront {
		panic(fmt.Sprintf("alloc: unknown allocator %d", kind))
	}
	total := 0
	for _, P := range ports {
		if P < 1 || P > 64 {
			panic(fmt.Sprintf("alloc: %d ports (allowed: 1..64)", P))
		}
		total += P
	}
	ms, slots := make([]Matcher, len(ports)), make([]portSlot, total)
	var keys [][64]uint64
	if keyed {
		keys = make([][64]uint64, len(ports))
	}
	for i, P := range ports {
		ms[i] = Matcher{kind: kind, ports: P, iterations: max(iterations, 1), slot: slots[:P:P]}
		if keyed {
			ms[i].keys = &keys[i]
		}
		slots = slots[P:]
	}
	return ms
}

// Iterations is the rounds of an allocation (iSLIP's; 1 for the others).
func (m *Matcher) Iterations() int { return m.iterations }

// Ask sets input i's requests for the next Match: the set of outputs it
// asks for (0: none).
func (m *Matcher) Ask(i int, outputs uint64) { m.slot[i].req = outputs }

// Settled ends an allocation its caller settled as Match settles inputs
// that each ask for one output (each output granted round robin from its
// pointer, both pointers moved, kept by the caller: SetPointers): the
// wavefront's diagonal moves, as after any allocation with a request.
func (m *Matcher) Settled() {
	if m.kind == Wavefront {
		m.diagonal = (m.diagonal + 1) % m.ports
	}
}

// SetPointers sets port p's round-robin pointers: as an output, over
// inputs (grant); as an input, over outputs (accept). A caller that keeps
// the pointers itself sets them before Match and reads them back after.
func (m *Matcher) SetPointers(p int, grant, accept uint8) {
	m.slot[p].grantNext, m.slot[p].acceptNext = grant, accept
}

// Pointers is port p's round-robin pointers (SetPointers).
func (m *Matcher) Pointers(p int) (grant, accept uint8) {
	return m.slot[p].grantNext, m.slot[p].acceptNext
}

// Asked is input i's requests, as Ask set them.
func (m *Matcher) Asked(i int) uint64 { return m.slot[i].req }

// Output is the output input i was matched to by the last Match that
// matched it.
func (m *Matcher) Output(i int) int { return int(m.slot[i].match) }

// Match matches the inputs in inputs to outputs, each asking for the
// outputs Ask set (read for the inputs in inputs only). key, when not
// nil, orders the requests of the separable allocators: key[i*P+o] is
// input i's key for output o (P the ports), the least first, ties round
// robin; iSLIP and wavefront ignore it. It returns the set of matched
// inputs, each input's output for Output. Every output is matched to at
// most one input and every input to at most one of the outputs it asked
// for.
func (m *Matcher) Match(inputs uint64, key []uint64) uint64 {
	if inputs == 0 {
		return 0
	}
	// Each input asking for one output, the common case, settles in one
	// pass under every allocator: all of them grant each output to one of
	// the inputs asking for it by that output's arbiter and move both
	// pointers (input-first and output-first: the one rule when no input
	// has a choice; iSLIP: its first round, after which no free input asks
	// for a free output). Wavefront grants them all when no two meet.
	sl := m.slot
	var asked, clash, several uint64
	for s := inputs; s != 0; s &= s - 1 {
		r := sl[bits.TrailingZeros64(s)].req
		clash |= asked & r
		asked |= r
		several |= r & (r - 1)
	}
	if several == 0 && (m.kind != Wavefront || clash == 0) {
		if !m.kind.Keyed() {
			key = nil
		}
		return m.singleRequests(inputs, key)
	}
	switch m.kind {
	case SeparableOutputFirst:
		return m.grantAccept(inputs, key, 1)
	case ISLIP:
		return m.grantAccept(inputs, nil, m.iterations)
	case Wavefront:
		return m.wavefront(inputs)
	}
	return m.inputFirst(inputs, key)
}

// pickKeys returns Pick's keys for nil-or-not key: nil, or the matcher's
// scratch. A matcher made without it refuses keys.
func (m *Matcher) pickKeys(key []uint64) *[64]uint64 {
	if key == nil {
		return nil
	}
	if m.keys == nil {
		panic("alloc: Match with keys on a matcher made without keyed (NewMatchers)")
	}
	return m.keys
}

// keysOfInputs fills the matcher's key scratch with key[i*P+o] for the
// inputs i of set, output o fixed, and returns it; nil for nil keys.
func (m *Matcher) keysOfInputs(set uint64, o int, key []uint64) *[64]uint64 {
	if key == nil {
		return nil
	}
	return m.keysOf(set, key, func(i int) int { return i*m.ports + o })
}

// keysOfOutputs is keysOfInputs for the outputs o of set, input i fixed.
func (m *Matcher) keysOfOutputs(set uint64, i int, key []uint64) *[64]uint64 {
	if key == nil {
		return nil
	}
	return m.keysOf(set, key, func(o int) int { return i*m.ports + o })
}

// keysOf fills the key scratch at each bit b of set with key[at(b)].
func (m *Matcher) keysOf(set uint64, key []uint64, at func(int) int) *[64]uint64 {
	keys := m.pickKeys(key)
	if keys == nil {
		return nil
	}
	for s := set; s != 0; s &= s - 1 {
		b := bits.TrailingZeros64(s) & 63
		keys[b] = key[at(b)]
	}
	return keys
}

// singleRequests matches inputs that ask for one output each: each
// output grants one of the inputs asking for it; every pointer moves. It
// is input-first's rule with no input choosing, and moves the wavefront's
// diagonal as any allocation with a request does.
func (m *Matcher) singleRequests(inputs uint64, key []uint64) uint64 {
	matched := m.inputFirst(inputs, key)
	if m.kind == Wavefront && matched != 0 {
		m.diagonal = (m.diagonal + 1) % m.ports
	}
	return matched
}

// inputFirst: each input picks one output, then each output one input.
func (m *Matcher) inputFirst(inputs uint64, key []uint64) uint64 {
	sl := m.slot
	var outs uint64
	for s := inputs; s != 0; s &= s - 1 {
		i := bits.TrailingZeros64(s)
		in := &sl[i]
		r := in.req
		if r == 0 {
			continue
		}
		o := bits.TrailingZeros64(r)
		if r&(r-1) != 0 {
			o = Pick(r, m.keysOfOutputs(r, i, key), in.acceptNext)
		}
		in.match = int8(o)
		sl[o].askedBy |= 1 << i
		outs |= 1 << o
	}
	var matched uint64
	for s := outs; s != 0; s &= s - 1 {
		o := bits.TrailingZeros64(s)
		out := &sl[o]
		asked := out.askedBy
		out.askedBy = 0
		i := Pick(asked, m.keysOfInputs(asked, o, key), out.grantNext)
		out.grantNext = After(i)
		sl[i].acceptNext = After(o)
		matched |= 1 << i
	}
	return matched
}

// gather records, for each output, the inputs of inputs that ask for it
// (among the outputs in free), and returns the outputs asked for.
func (m *Matcher) gather(inputs, free uint64) uint64 {
	sl := m.slot
	var outs uint64
	for s := inputs; s != 0; s &= s - 1 {
		i := bits.TrailingZeros64(s)
		r := sl[i].req & free
		outs |= r
		for t := r; t != 0; t &= t - 1 {
			sl[bits.TrailingZeros64(t)].askedBy |= 1 << i
		}
	}
	return outs
}

// grantAccept runs rounds of grant and accept among the still unmatched
// inputs and outputs: each output grants one of the inputs asking for it,
// each input accepts one of the outputs granting it, both by their
// arbiters from their pointers (keyed when key is not nil); the pointers
// move only for the grants accepted in the first round. One round is
// separable output-first; iSLIP runs Iterations of them, round robin.
func (m *Matcher) grantAccept(inputs uint64, key []uint64, rounds int) uint64 {
	sl := m.slot
	var matched, busyOut uint64
	free := inputs
	for round := 0; round < rounds && free != 0; round++ {
		outs := m.gather(free, ^busyOut)
		if outs == 0 {
			break
		}
		var granted uint64
		for s := outs; s != 0; s &= s - 1 {
			o := bits.TrailingZeros64(s)
			out := &sl[o]
			asked := out.askedBy
			out.askedBy = 0
			i := Pick(asked, m.keysOfInputs(asked, o, key), out.grantNext)
			sl[i].grants |= 1 << o
			granted |= 1 << i
		}
		for s := granted; s != 0; s &= s - 1 {
			i := bits.TrailingZeros64(s)
			in := &sl[i]
			g := in.grants
			in.grants = 0
			o := Pick(g, m.keysOfOutputs(g, i, key), in.acceptNext)
			in.match = int8(o)
			matched |= 1 << i
			busyOut |= 1 << o
			if round == 0 {
				sl[o].grantNext = After(i)
				in.acceptNext = After(o)
			}
		}
		free &^= granted
	}
	return matched
}

// wavefront sweeps the P x P request matrix by diagonals (cells with
// (i + o) mod P fixed), from the priority diagonal on; within a diagonal
// no two cells share a row or a column, so their order does not matter.
func (m *Matcher) wavefront(inputs uint64) uint64 {
	sl, P := m.slot, m.ports
	var any uint64
	for s := inputs; s != 0; s &= s - 1 {
		any |= sl[bits.TrailingZeros64(s)].req
	}
	if any == 0 {
		return 0
	}
	var matched, busyOut uint64
	for d := 0; d < P; d++ {
		sum := m.diagonal + d
		for o := 0; o < P; o++ {
			i := (sum - o) % P
			if i < 0 {
				i += P
			}
			if inputs>>i&1 == 0 || matched>>i&1 != 0 || busyOut>>o&1 != 0 || sl[i].req>>o&1 == 0 {
				continue
			}
			sl[i].match = int8(o)
			matched |= 1 << i
			busyOut |= 1 << o
		}
	}
	m.diagonal = (m.diagonal + 1) % P
	return matched
}

// Share is how a router's arbiters and its network interfaces divide
// themselves between the traffic classes of a mix (link.Flit.Class).
type Share uint8

const (
	// ShareNone: the classes are not told apart (each arbiter by its
	// Arbitration alone; a network interface sends its packets in the order
	// they were generated).
	ShareNone Share = iota
	// SharePriority: strict priority, the lowest class first (the class
	// listed first in the configuration); within a class, the arbitration.
	SharePriority
	// ShareWeighted: each arbiter serves the classes that request it in
	// proportion to their weights, flit by flit (a network interface:
	// flits of whole packets), by start-time fair queueing (WeightedShare);
	// within a class, round robin.
	ShareWeighted
)

func shareNames() []string { return []string{"none", "priority", "weighted"} }

// ShareNames lists the class shares in a fixed order, the default first.
func ShareNames() []string { return shareNames() }

func (s Share) String() string { return nameOf(shareNames(), uint8(s), "class share") }

// ParseShare reads a class share by name; "" is the default.
func ParseShare(s string) (Share, error) {
	i, err := parse(shareNames(), s, "class share")
	return Share(i), err
}

// MaxShareClasses is the most classes a WeightedShare divides between.
const MaxShareClasses = 4

// MaxShareWeight is the largest class weight: the costs of a set of
// weights are their least common multiple over each (ShareCosts), at
// most about 10^8 for four weights of at most 100.
const MaxShareWeight = 100

// ShareCosts is the cost of one unit (a flit) of each class under weights
// (each 1..MaxShareWeight): the weights' least common multiple over the
// class's weight, so that classes served in proportion to their weights
// pay alike.
func ShareCosts(weights []int) [MaxShareClasses]uint64 {
	l := uint64(1)
	for _, w := range weights {
		l = l / gcd(l, uint64(w)) * uint64(w)
	}
	var c [MaxShareClasses]uint64
	for k, w := range weights {
		c[k] = l / uint64(w)
	}
	return c
}

func gcd(a, b uint64) uint64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// WeightedShare is one arbiter's start-time fair queueing between classes
// (Goyal, Vin and Cheng, 1996): each class has the finish tag of the
// units it was last served, the arbiter a virtual time, the start tag of
// the last service. Among the classes requesting it, the arbiter serves
// the one whose start tag, the later of its finish tag and the virtual
// time, is least (ties to the lower class); serving u units of class k
// moves its finish tag to its start tag plus u times its cost
// (ShareCosts). Classes that request all along are served in proportion
// to their weights; a class that returns after an idle spell starts at
// the virtual time, with no credit banked. It is deterministic: a
// function of the requests alone.
type WeightedShare struct {
	finish  [MaxShareClasses]uint64
	virtual uint64
}

// Next is the class the arbiter serves among present (bit k: class k
// requests; not zero), changing nothing (Served commits it).
func (w *WeightedShare) Next(present uint8) int {
	best, bestStart := -1, ^uint64(0)
	for m := present & (1<<MaxShareClasses - 1); m != 0; m &= m - 1 {
		k := bits.TrailingZeros8(m)
		if s := max(w.finish[k], w.virtual); s < bestStart {
			best, bestStart = k, s
		}
	}
	return best
}

// Served records units units of class k served at cost cost (its
// ShareCosts entry).
func (w *WeightedShare) Served(k int, units, cost uint64) {
	s := max(w.finish[k], w.virtual)
	w.virtual = s
	w.finish[k] = s + units*cost
	if s > 1<<62 { // renumber before the tags could overflow: only their order matters
		for i := range w.finish {
			w.finish[i] -= min(w.finish[i], s)
		}
		w.virtual = 0
	}
}
