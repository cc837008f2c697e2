package grid

import (
	"fmt"

	"github.com/icnsim/icnsim/link"
	"github.com/icnsim/icnsim/routing"
	"github.com/icnsim/icnsim/topology"
)

// Hybrid-HAR (papers/004, Liu): hierarchical adaptive wormhole routing for
// a mix of short and long messages.
//
// # Virtual networks
//
// The VCs of every router-to-router link form two virtual networks. On a
// mesh with V VCs (the paper's V = 4): the upper network is VCs 0..V-3
// (the paper's two), minimal fully adaptive (FAR); the lower network is
// C1 = VC V-2, dimension order for short and long messages, and C2 = VC
// V-1, minimal fully adaptive for short messages only. On a torus C1 takes
// two VCs (V-3 and V-2), a class each: a hop whose remaining route in its
// dimension crosses the wrap-around link takes class 1, any other class 0,
// recomputed at every hop (so a packet switches from class 1 to class 0
// once it has crossed; class-0 channels never include a wrap link and
// class-1 chains end at one, so C1 has no cycle); the torus needs V >= 4.
//
// The routing algorithm's steps, in the paper's order: a message in the
// upper network (every message starts there) takes a free upper output VC
// on a productive port (step 1); otherwise the connection channel of its
// class, CCS or CCL, if free (3.1, 3.2); otherwise it blocks and tries
// again, step 1 first (4). A message in the lower network takes, if short,
// a free C2 VC on a productive port (5.1), else C1 on the dimension-order
// port (5.2); if long, C1 only (5.3); otherwise it blocks (6). A message in
// the lower network stays there. At its destination's router a message of
// class c takes VC 0 of sink channel c, from either network.
//
// # Connection channels
//
// A connection channel is modelled as what the paper's router has: a
// channel from the upper network's crossbar to the lower network's, here
// a loopback port of the router (Grid2D.Loops: "CCS" and "CCL") whose
// output is wired back to its own input with the links' latency, carrying
// one VC (C1's first, so the check counts it among the escape channels).
// A message "moves into" the lower network by taking that output VC, which
// is free when the previous message's tail has left, exactly as any output
// VC of this router (only when empty, under router.har.free = all-empty);
// its head then waits in the loopback input, is routed again by the lower
// network's rules (the 2-cycle routing decision again) and holds the
// channel until its tail has passed, so at most one message of each class
// moves down at a router at a time, and a blocked one waits
// inside the lower network, as the paper's connection channel does. The
// alternatives were weaker: a per-class budget would put Hybrid-HAR's
// state in the VC router's allocation loop, and a plain VC would tie the
// connection to one link. The cost is the loopback's link cycle and second
// routing decision on moving down, and two more ports per router; a
// loopback is not a hop between routers (mean_hops does not count it).
//
// # Deadlock freedom
//
// The escape set is C1 with the connection channels (C1's VC on every
// port): from any state a message is offered one of them (upper: its
// connection channel; lower: C1 on the dimension-order port). The upper
// network's cycles are allowed because an upper message can always move
// down and nothing in the lower network waits for the upper one. The check
// builds Duato's extended dependency graph of the escape set, direct and
// indirect (through C2) dependencies, for both classes, and finds no
// cycle; it does so from abstract states, a destination seen from a
// router through its direction in each dimension (and on a torus whether
// the rest of the way crosses the wrap link), in time and memory linear
// in the network (routing/deadlock, by abstract states: 0.8 s for a 256x256
// mesh or torus), and matches, edge for edge, the search per destination
// that defines it (referenceDuato). Duato's theory assumes a buffer holds
// one packet at a time where packets holding escape channels may wait on
// adaptive ones;
// this router reallocates a VC when the previous tail has left, so C2 is
// allocated atomically (only when its downstream buffer is empty:
// AtomicVCs), which the check requires under wormhole. The upper network
// and C1 keep the router's usual reallocation unless router.har.free says
// otherwise (below). Allowing long messages on
// C2 as well gives the original Duato adaptive routing (DAR), which the
// check accepts: the paper keeps C2 for short messages for their latency,
// not for deadlock freedom; a variant whose lower network routes adaptively
// on C1 has a cycle and is rejected (TestHybridHARCheck).
//
// # The paper's DOR baseline (har-dor)
//
// The paper's DOR router "has two levels of virtual networks" like Hybrid-
// HAR's, with crossbars of the same size. har-dor is read as that same
// hierarchy with dimension order in both: VCs split in halves, a message
// starts in the upper half and, when no upper VC on its dimension-order
// port is free, moves down through its class's connection channel into
// the lower half, where it stays. No VC is kept for short messages.
//
// # When a channel is free (router.har.free)
//
// The paper's routing algorithm takes a channel when it is "free", one
// word for every channel: "1 If one OVC is free by FAR, forward the message
// along that channel"; "3.1 If the message is short and CCS is free, move
// it into SVN"; "5.1 If the message is short and one OVC in C_2 is free by
// DFR, forward it". From that rule it concludes (Sect. 4): "a short message
// will never be blocked by a long message in the higher virtual network,
// since the connection channel will allow the blocked short message in the
// higher virtual network to move into the lower virtual network". That
// holds only if a short message that waits is at the front of its buffer,
// where it sees the connection channel: if an upper VC could take the
// short message while the long message before it still fills the buffer
// downstream, the short one would queue behind the long one's flits, and
// no connection channel could help it. The reading under which the
// sentence holds is that a channel is free when no message occupies it,
// its buffer downstream included: the paper's virtual channel, which "has
// its own buffer queue and control signals" (Sect. 2, after Dally and
// Seitz), serves one message at a time. The paper's analysis of the lower
// network reads the same way: a short message is blocked by a long one
// there only when C_2 holds a cycle of short messages and "all the
// corresponding virtual channels in C_1 must be occupied by long
// messages", so a short message that took C_1 does not queue behind a
// long one inside its buffer.
//
// This router reallocates an output VC once the previous message's tail
// has been sent (Router, package doc), which lets a VC buffer hold the end
// of one message and the start of the next. HARFree chooses, for the
// routings here, which channels instead are free only when empty
// downstream, that is, with all their credits back (the upstream router's
// only view of the buffer; it lags the buffer by the credit latency):
//
//   - tail-sent (the default, the behaviour before the option existed):
//     only C_2, which Duato's condition needs (see Deadlock freedom);
//   - upper-empty: the upper network's VCs too, the least the paper's
//     guarantee needs: an upper buffer then holds one message at a time,
//     so no short message ever queues behind a long one there. The
//     connection channels keep the tail rule: each carries one class, so
//     no short message can queue behind a long one in them;
//   - all-empty: every router-to-router VC of both networks and both
//     connection channels, the paper's "free" read alike in steps 1, 3
//     and 5.
//
// har-dor follows the same rule: the paper's DOR router "has two levels of
// virtual networks" and "the models of DOR and Hybrid-HAR are similar to
// each other", so its channels are free under the same condition (upper-
// empty: its upper half; all-empty: both halves and the connection
// channels). The node's sink channels keep the tail rule under every
// choice: each carries one class and the NI takes a flit every cycle, so
// a message never queues there behind another.
//
// The deadlock check is unchanged by the choice: the channel dependency
// graph depends on what the routing offers, not on when a channel counts
// as free, and allocating a channel only when empty removes states (two
// messages in one buffer) without adding any; Duato's condition asks the
// adaptive channels that packets holding escape channels wait on (C_2) to
// be atomic, which they are under every choice, and allows any escape
// channel to be. The upper network never waits on the lower one (a
// message in the lower network stays there), so making its VCs atomic
// adds no dependency, and an upper message that finds every upper VC
// taken still has its connection channel, freed when the message ahead
// of it drains into the deadlock-free lower network. TestHybridHARCheck
// runs the check under each choice.

// HARFree is when the routers of hybrid-har and har-dor count a channel
// free for a new message (router.har.free; see the comment at the top of this file).
type HARFree uint8

const (
	// HARTailSent: once the previous message's tail has been sent on (C2
	// only when empty downstream, for Duato's condition). The default.
	HARTailSent HARFree = iota
	// HARUpperEmpty: the upper network's VCs (and C2) only when empty
	// downstream.
	HARUpperEmpty
	// HARAllEmpty: every router-to-router VC and both connection channels
	// only when empty downstream.
	HARAllEmpty
)

func (f HARFree) String() string { return routing.ChoiceName(HARFreeNames(), f, "HARFree") }

// HARFreeNames lists the choices of router.har.free, the default first.
func HARFreeNames() []string { return []string{"tail-sent", "upper-empty", "all-empty"} }

// ParseHARFree reads a choice of router.har.free; "" is the default.
func ParseHARFree(s string) (HARFree, error) {
	return routing.ParseChoice[HARFree](HARFreeNames(), s, "free rule", true)
}

// harLoops are the loopback ports of the Hybrid-HAR routings: the
// connection channels for short and long messages.
func harLoops() []string {
	return []string{"CCS", "CCL"}
}

// HAR is the routing function of hybrid-har (or, with dorBoth, of
// har-dor, the paper's DOR baseline).
type HAR struct {
	dor
	upper   uint64    // VCs of the upper network
	c1      [2]uint64 // C1 by wrap class (the same twice on a mesh)
	c2      uint64    // C2: the lower network's adaptive VCs (short messages)
	lower   uint64    // c1 | c2
	ccVC    uint64    // the VC of the connection channels
	cc      [2]int    // connection channel ports by class: CCS, CCL
	dorBoth bool      // har-dor: dimension order in both networks, no C2
	free    HARFree   // which channels are free only when empty downstream
	// Variants for tests of the deadlock check; never registered.
	longOnC2       bool // long messages may use C2 too (Duato's DAR)
	adaptiveEscape bool // C1 minimal fully adaptive (unsafe)
}

// HARLayout is how a HAR function splits the VCs between its virtual
// networks and which ports are its connection channels: what the router's
// tests and traces read of it.
type HARLayout struct {
	Upper           uint64    // the upper network's VCs
	C1              [2]uint64 // C1 by wrap class (the same twice on a mesh)
	C2              uint64    // C2, the lower network's adaptive VCs (short messages)
	Lower           uint64    // C1 | C2
	ConnectionVC    uint64    // the VC of the connection channels
	ConnectionPorts [2]int    // the connection channels' loopback ports: CCS, CCL
}

// Layout is h's HARLayout.
func (h *HAR) Layout() HARLayout {
	return HARLayout{Upper: h.upper, C1: h.c1, C2: h.c2, Lower: h.lower, ConnectionVC: h.ccVC, ConnectionPorts: h.cc}
}

// SetVariant makes h one of the variants the tests of the deadlock checks
// use, never registered: longOnC2 lets long messages use C2 too (Duato's
// DAR, still deadlock free), adaptiveEscape makes C1 minimal fully
// adaptive (which can deadlock, and the checks must say so).
func (h *HAR) SetVariant(longOnC2, adaptiveEscape bool) {
	h.longOnC2, h.adaptiveEscape = longOnC2, adaptiveEscape
}

func newHAR(t topology.Topology, vcs int, dorBoth bool) *HAR {
	g := t.(*Grid2D)
	h := &HAR{dor: newDor(g, vcs), dorBoth: dorBoth}
	h.upper, h.c1, h.c2 = harVCs(g.Wrap, vcs, dorBoth)
	h.lower = h.c1[0] | h.c1[1] | h.c2
	h.ccVC = h.c1[0] & -h.c1[0]
	h.cc = [2]int{g.LoopPort(0), g.LoopPort(1)}
	return h
}

// harVCs is the split of V VCs into the upper network, C1 by wrap class
// and C2, on a torus (wrap) or mesh, for hybrid-har or (dorBoth) har-dor.
func harVCs(wrap bool, V int, dorBoth bool) (upper uint64, c1 [2]uint64, c2 uint64) {
	switch {
	case dorBoth:
		upper = routing.AllVCs(V / 2)
		c1[0] = routing.AllVCs(V) &^ upper
		c1[1] = c1[0]
	case wrap:
		upper = routing.AllVCs(V - 3)
		c1 = [2]uint64{1 << (V - 3), 1 << (V - 2)}
		c2 = 1 << (V - 1)
	default:
		upper = routing.AllVCs(V - 2)
		c1 = [2]uint64{1 << (V - 2), 1 << (V - 2)}
		c2 = 1 << (V - 1)
	}
	return upper, c1, c2
}

// harEscapes are the escape VCs (C1) and the two message classes of
// hybrid-har or (dorBoth) har-dor on t with vcs VCs (routing.Spec.Escapes).
func harEscapes(dorBoth bool) func(t topology.Topology, vcs int) (uint64, int) {
	return func(t topology.Topology, vcs int) (uint64, int) {
		g, ok := t.(*Grid2D)
		if !ok {
			return 0, 0
		}
		_, c1, _ := harVCs(g.Wrap, vcs, dorBoth)
		return c1[0] | c1[1], 2
	}
}

// harSpecs are the registry entries of hybrid-har and har-dor.
func harSpecs() []routing.Spec {
	return []routing.Spec{{
		Name: "hybrid-har", MinVCs: 3, Topologies: []string{"mesh", "torus"}, Loops: harLoops(),
		Doc:   "Hybrid-HAR (papers/004): an upper minimal fully adaptive network (VCs 0..V-3; V-4 on a torus) and a lower one of C1 (VC V-2, dimension order, short and long; VCs V-3 and V-2 by wrap class on a torus) and C2 (VC V-1, minimal fully adaptive, short messages only); a message with no free upper VC moves down through the connection channel of its class (loopback ports CCS, CCL) and stays down; 4 VCs on a mesh as the paper (4 or more on a torus), wormhole with routing_delay_cycles = 2",
		Label: "Hybrid-HAR", Params: harParams(), CheckVCs: checkHAR(false), BuildSeconds: harBuildSeconds,
		New:     func(t topology.Topology, vcs int) routing.Func { return newHAR(t, vcs, false) },
		Escapes: harEscapes(false), MessageClasses: 2,
	}, {
		Name: "har-dor", MinVCs: 2, Topologies: []string{"mesh"}, Loops: harLoops(),
		Doc:   "the Hybrid-HAR paper's DOR baseline: the VCs split in halves as two levels of virtual networks, dimension order in both; a message starts in the upper half and moves down through its class's connection channel (CCS, CCL) when no upper VC on its dimension-order port is free",
		Label: "DOR", Params: harParams(), CheckVCs: checkHAR(true), BuildSeconds: harBuildSeconds,
		New:     func(t topology.Topology, vcs int) routing.Func { return newHAR(t, vcs, true) },
		Escapes: harEscapes(true), MessageClasses: 2,
	}}
}

// harParams are the parameters of hybrid-har and har-dor: the free rule.
func harParams() []routing.Param {
	return []routing.Param{{Key: "har.free", Choices: HARFreeNames(), Doc: "when a channel is free for a new message",
		ChoicesDoc: "tail-sent: a channel takes a new message once the previous tail has been sent on; upper-empty: the upper network's VCs only when empty downstream; all-empty: every VC and both connection channels only when empty downstream"}}
}

// Configure sets the free rule (routing.Configurable).
func (h *HAR) Configure(p routing.Params) error {
	f, err := ParseHARFree(p.Choice("har.free"))
	h.free = f
	return err
}

// harBuildSeconds is the build time of hybrid-har and har-dor: Duato's
// extended check by abstract states, its walks through segment trees on
// a torus.
func harBuildSeconds(t topology.Topology, vcs int) float64 {
	if g, ok := t.(*Grid2D); ok && g.Wrap {
		return routing.SecondsPerPort(1.3e-6)(t, vcs)
	}
	return routing.SecondsPerPort(0.7e-6)(t, vcs)
}

// checkHAR is the VC check of hybrid-har or (dorBoth) har-dor: it
// reports a VC count the routing cannot use.
func checkHAR(dorBoth bool) func(t topology.Topology, vcs int) error {
	return func(t topology.Topology, vcs int) error {
		name := "hybrid-har"
		if dorBoth {
			name = "har-dor"
		}
		return checkHARVCs(name, t, vcs)
	}
}

func checkHARVCs(name string, t topology.Topology, vcs int) error {
	g, ok := t.(*Grid2D)
	if !ok {
		return nil
	}
	switch {
	case name == "har-dor" && (vcs < 2 || vcs%2 != 0):
		return fmt.Errorf("routing \"har-dor\" splits the VCs into two virtual networks of equal size: needs an even VC count >= 2 (got %d)", vcs)
	case name == "hybrid-har" && g.Wrap && vcs < 4:
		return fmt.Errorf("routing \"hybrid-har\" on a torus needs at least 4 VCs: one or more upper, two C1 (dateline classes) and C2 (got %d)", vcs)
	case name == "hybrid-har" && vcs < 3:
		return fmt.Errorf("routing \"hybrid-har\" needs at least 3 VCs: one or more upper, C1 and C2 (the paper's 4: two upper) (got %d)", vcs)
	}
	if len(g.Loops) != len(harLoops()) || g.Loops[0] != harLoops()[0] || g.Loops[1] != harLoops()[1] {
		return fmt.Errorf("routing %q needs the loopback ports %v on every router (the connection channels); the %s has %v", name, harLoops(), g, g.Loops)
	}
	return nil
}

// classOf is the connection channel index of a packet: 0 short, 1 long.
func classOf(f *link.Flit) int { return int(min(f.Class, 1)) }

// c1Hop is the dimension-order hop of a packet at router r for node dst in
// the lower network: the port and C1's VCs of the hop's wrap class.
func (h *HAR) c1Hop(r, dst int) (port int, vcs uint64) {
	dr, _ := h.nodePort(dst)
	x, y := h.xy(r)
	dx, dy := h.xy(dr)
	a, b, s := x, dx, h.step(x, dx)
	port = xPort(s)
	if s == 0 {
		a, b, s = y, dy, h.step(y, dy)
		port = yPort(s)
	}
	class := 0
	if h.g.Wrap && ((s > 0 && b < a) || (s < 0 && b > a)) {
		class = 1
	}
	return port, h.c1[class]
}

// productivePorts is the set of ports of minimal hops from router r
// towards router dr (0 at dr).
func (h *HAR) productivePorts(r, dr int) uint64 {
	sx, sy, _, _ := h.productive(r, dr)
	var m uint64
	if sx != 0 {
		m |= routing.Bit(xPort(sx))
	}
	if sy != 0 {
		m |= routing.Bit(yPort(sy))
	}
	return m
}

func (h *HAR) Route(r, _ int, f *link.Flit, c *routing.Candidates) {
	dst := int(f.Dst)
	dr, dp := h.nodePort(dst)
	if dr == r {
		c.Add(routing.Bit(h.sink(dp, f)), 1)
		return
	}
	cls := classOf(f)
	if routing.Bit(int(f.VC))&h.lower == 0 {
		// Upper network: steps 1 to 4.
		ports := h.productivePorts(r, dr)
		if h.dorBoth {
			port, _ := h.c1Hop(r, dst)
			ports = routing.Bit(port)
		}
		c.Add(ports, h.upper)
		c.AddFallback(routing.Bit(h.cc[cls]), h.ccVC)
		return
	}
	// Lower network: steps 5 and 6.
	port, c1 := h.c1Hop(r, dst)
	escape := routing.Bit(port)
	if h.adaptiveEscape {
		escape = h.productivePorts(r, dr)
	}
	if h.c2 != 0 && (cls == 0 || h.longOnC2) {
		c.Add(h.productivePorts(r, dr), h.c2)
		c.AddFallback(escape, c1)
		return
	}
	c.Add(escape, c1)
}

// Escape is the escape sub-function: the connection channel of the
// packet's class from the upper network, C1 on the dimension-order port in
// the lower one, the sink at the destination.
func (h *HAR) Escape(r, _ int, f *link.Flit, c *routing.Candidates) {
	dst := int(f.Dst)
	dr, dp := h.nodePort(dst)
	switch {
	case dr == r:
		c.Add(routing.Bit(h.sink(dp, f)), 1)
	case routing.Bit(int(f.VC))&h.lower == 0:
		c.Add(routing.Bit(h.cc[classOf(f)]), h.ccVC)
	case h.adaptiveEscape:
		_, c1 := h.c1Hop(r, dst)
		c.Add(h.productivePorts(r, dr), c1)
	default:
		port, c1 := h.c1Hop(r, dst)
		c.Add(routing.Bit(port), c1)
	}
}

// EscapeVCs is C1 (which the connection channels carry).
func (h *HAR) EscapeVCs() uint64 { return h.c1[0] | h.c1[1] }

// AtomicVCs is the set of VCs a router-to-router port allocates only when
// empty downstream: C2 (packets holding C1 may wait on it), and by
// router.har.free the upper network's VCs or every VC.
func (h *HAR) AtomicVCs() uint64 {
	switch h.free {
	case HARUpperEmpty:
		return h.c2 | h.upper
	case HARAllEmpty:
		return h.c2 | h.upper | h.lower
	}
	return h.c2
}

// AtomicVCsAt is AtomicVCs on the router-to-router ports, the connection
// channels' VC on the loopback ports under all-empty, and nothing on the
// sink channels.
func (h *HAR) AtomicVCsAt(p int) uint64 {
	switch {
	case p < PortLocal:
		return h.AtomicVCs()
	case (p == h.cc[0] || p == h.cc[1]) && h.free == HARAllEmpty:
		return h.ccVC
	}
	return 0
}

func (h *HAR) DuatoChecked() {}

var _ routing.DuatoChecked = (*HAR)(nil)

// Classes: short and long messages route differently.
func (h *HAR) Classes() int { return 2 }

// InjectVCs: a message enters the upper network by VC 0 of its class's
// injection channel.
func (h *HAR) InjectVCs(int, int) uint64 { return 1 }

// WithPorts returns the topology a routing function runs on: t with the
// loopback ports the routing needs (routing.Spec.Loops) and nodeChannels
// channels between each node and its router (1, or 2: one per message
// class). t itself is not changed.
func WithPorts(t topology.Topology, loops []string, nodeChannels int) (topology.Topology, error) {
	if nodeChannels < 1 || nodeChannels > 2 {
		return nil, fmt.Errorf("%d channels per node (allowed: 1, or 2 for one per message class)", nodeChannels)
	}
	if nodeChannels == 1 && loops == nil {
		return t, nil
	}
	g, ok := t.(*Grid2D)
	if !ok {
		return nil, fmt.Errorf("a channel per message class and loopback ports exist on two-dimensional meshes and tori of equal sides only, not on a %s", t)
	}
	c := *g
	c.H, c.Loops = nodeChannels, loops
	return &c, nil
}
