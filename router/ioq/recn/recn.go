// Package recn owns the logic of RECN (Regional Explicit Congestion
// Notification, Duato et al., HPCA 2005, as used by García et al. on
// meshes): per port memory of the input/output-buffered switch, its CAM of
// set-aside queues (SAQs), congestion detection, the notifications that
// grow congestion trees upstream and shrink them from their leaves, the
// in-order pointer and Xon/Xoff per SAQ. It is a pure state machine in the
// style of a raft node: a Port is told what happened to its queues
// (observations) and what messages arrived, and answers with decisions
// (which queue a packet goes to, which SAQ was allocated and must wait for
// the in-order pointer) and messages in its outbox (Out), which the switch
// or adapter that owns it delivers. It moves no data, has no clock of its
// own and shares no memory: package router/ioq owns the queues and lanes.
//
// It lives under router/, beside the switch that drives it, and imports
// only package link: the router layer never imports the policies layer
// (TestRouterLayerImports), and RECN's queue decisions are part of the
// switch's microarchitecture, not an injection policy.
//
// # Points and routes
//
// A congested point is an output port of a switch (Point). RECN's
// notifications carry the route from the notified port to that point as a
// sequence of turns (PCI Express AS turnpools) and a CAM line matches a
// packet whose remaining route begins with it. Under deterministic XY
// routing on a mesh the route from a port to a point is unique, so "the
// packet's remaining route begins with the line's route" holds exactly
// when the packet's XY route from here leaves the point's switch by the
// point's port (Mesh.Through). A line therefore stores the point and the
// route's length in switches (Hops) instead of the turns: the same
// information, matched in O(1).
//
// # Queues and sides
//
// An ingress port has a detection queue per output port of its switch
// (packets go to the one of the output they take, unless a line matches)
// and up to SAQs set-aside queues. An egress port, and an adapter's
// injection side, has one standard queue and up to SAQs set-aside queues.
//
//   - Detection: when a packet's tail arrives in a detection queue that
//     then holds at least DetectFlits, the output is congested: a line for
//     (this switch, that output) is allocated, its SAQ takes the detection
//     queue's packets (the owner swaps the two queues) and the upstream port
//     is notified. When a tail arrives in an egress standard queue holding
//     at least DetectFlits, the ingress port that sent it is notified that
//     this egress port is congested (once, until it answers).
//   - Propagation: when a tail arrives in a SAQ holding at least
//     DetectFlits and that SAQ has not notified the port that sent it (the
//     upstream port, for an ingress SAQ; the sending ingress port, for an
//     egress SAQ), it notifies it with the route one switch longer at an
//     ingress port (Hops+1). A notified port allocates a line (its SAQ is
//     blocked by the in-order pointer until the packets its flows left
//     ahead of it have gone, below), or refuses when all its
//     SAQs are in use (see Refuse).
//   - Leaf bit: a line with no notified upstream port (no children) is a
//     leaf. A leaf whose SAQ is empty and not blocked is deallocated when
//     its last packet leaves, when its last child deallocates, or when it
//     has received no packet for IdleCycles (a SAQ allocated for a flow
//     that stopped; IdleCycles 0 turns this off, as the paper, which frees
//     a SAQ only when it empties); the port then tells the line's parent
//     (Dealloc), which clears the child and may deallocate in turn, down
//     to the root.
//   - Xon/Xoff: a SAQ holding at least XoffFlits (at a packet's tail) is
//     full until it drains to XonFlits or fewer. What a full SAQ stops is
//     Config.Scope (below).
//   - Matching: a packet goes to the SAQ of the matching line whose point
//     is farthest along its route (the longest turnpool that matches): the
//     paper stores "every incoming packet that will pass through the
//     congested point" in the SAQ allocated for it, so a port that holds a
//     line for a nearer point on the same route (a root detected here, say)
//     hands the packets for the farther point to the farther point's SAQ,
//     where its Xon/Xoff reaches them. (Matching the oldest line instead
//     leaves them in the nearer SAQ, which the farther point's Xoff does
//     not stop: on configuration #1 under traffic case #3 at full load the
//     egress SAQs then held 320,000 flits, twelve times what Xoff allows,
//     and uniform throughput fell 9%.)
//   - In-order pointer: a new line's flows sent their earlier packets to
//     the standard or detection queue, or to the SAQ of a nearer point on
//     the same route (Prefixes). The owner points the new SAQ's in-order
//     pointer at the last packet of each of those queues, and the SAQ stays
//     blocked until all of them have left: the paper's pointer at the last
//     packet of the standard queue, extended to the SAQs that longest-match
//     takes flows from.
//
// # Xon/Xoff: what a full SAQ stops (Scope)
//
// The paper: "When the occupancy of a SAQ grows up to a given threshold,
// an Xoff packet is sent to the corresponding upstream SAQ. Any SAQ that
// receives an Xoff packet stops the injection of packets until the
// reception of an Xon packet", and "Xon/Xoff scheme guarantees that the
// number of packets in a SAQ will be always below a certain threshold".
//
// Children (the default) is that text: the full SAQ sends Xoff (and later
// Xon) to its children, which stop (restart) their own SAQ for its point.
// It bounds no SAQ, because a SAQ's packets do not all come from its
// children's SAQs for its point. They also come from the queues that held
// the point's packets before the upstream port's line for it existed, the
// standard or detection queue and the SAQ of a nearer point, which that
// line's in-order pointer waits for (the line is blocked, so its Xoff
// stops nothing); from a port that refused the notification; and, in an
// adapter, from the admission queues, which no Xoff reaches. Measured on
// configuration #1 (16x16 mesh) under traffic case #3 (a quarter of the
// sources to node 32) at full load: of the packets that arrived in a SAQ
// already holding twice the 163-flit threshold in the first 100,000
// cycles, 99% came from a queue of another point or the standard queue
// of an upstream port whose line for the SAQ's point was blocked by its
// in-order pointer; SAQs held up to 14,216 flits at ingress after 200,000
// cycles, and an adapter's injection SAQ the whole 16,384-flit memory.
//
// Feeders stops every packet that would enter a full SAQ, from whatever
// queue of whatever port: the crossbar grants no packet whose egress queue
// is a full SAQ; an adapter's admission arbiter moves no packet into a
// full injection SAQ; an ingress SAQ sends Xoff and Xon to the far end of
// its link (Filled, Departed), which keeps the points full there (Held,
// independent of its own lines) and starts no packet, from any queue,
// whose route passes one of them (Holds: the far port's lines are not
// known here, so a packet the far port would set aside in a farther
// point's SAQ waits too). A port that holds packets for a full SAQ and is
// not its child is notified (Filled, Holding), as if they had arrived, so
// that it sets the point's later packets aside. The bound (package
// router/ioq's XoffBounds): an egress or injection SAQ takes one packet at
// a time and only when not full, so holds at most XoffFlits + P - 1 flits
// (P the largest packet); an ingress SAQ holds at most that (or a swapped
// detection queue) when its Xoff leaves, and then takes only what reaches
// it before the far end has it: the flits on the link, those sent while
// the Xoff waits for the reverse link and crosses it, and the rest of a
// packet started: 2L + W + P - 2 flits for a link of latency L and a wait
// W. On configurations #1, #4 and #5 under cases #1-#3 at full load for
// 600,000 cycles no SAQ held more than its bound (184 flits against 163
// and a bound of 186 under case #3).
//
// Deadlock: a held packet waits for a SAQ farther along its own route;
// that SAQ's packets wait only for room farther along theirs (their
// output's egress memory, the next link's far SAQ) or, blocked by an
// in-order pointer, for packets of the same memory that do the same. XY
// routing orders all of these waits, so they form no cycle, every full
// SAQ drains to Xon, and held packets move on.
//
// The cost: a packet for a full SAQ that waits in a queue shared with
// other flows blocks them (head-of-line) until the SAQ drains to Xon, at
// the rate of the congested flows. RECN puts such packets in shared queues
// by design: before a port has a line for the point, and after, ahead of
// its in-order pointer (the point's packets already in the standard or
// detection queue or a nearer point's SAQ); sampled on configuration #1
// under case #3, most of the flits stuck behind a held packet were in a
// nearer point's ingress SAQ, behind packets that the blocked line for the
// full point waited for. Under Children the same packets go on into the
// full SAQ, which grows instead; a SAQ that fills its whole port memory
// then blocks every flow through that port. Measured at full load over
// cycles 400,000-600,000 (studies/mesh-recn-xoff.toml), relative
// throughput Children against Feeders: about equal under uniform traffic
// (0.919 and 0.915 on configuration #1, 0.880 and 0.910 on #4); under a
// hot spot on the larger networks Feeders loses 14-21% (#1: 0.857 and
// 0.734 under case #2, 0.746 and 0.604 under case #3; #2 and #3 alike,
// #3 less), and on #5 (4x4) it gains (0.668 and 0.817 under case #2,
// 0.501 and 0.717 under case #3), where Children's SAQs fill the memories
// of the adapters and egress ports by cycle 330,000.
//
// # The limit
//
// A port has at most SAQs lines (8 by default, the paper's). A
// notification that finds them all in use is refused: the port answers
// Refuse, the notifying line records that this child is not to be
// notified again while it lives (it counts as a leaf for it), and the
// packets for that point stay in the standard or detection queue, sharing
// it as without RECN. A detection that finds no free line does nothing.
// Both are counted in Refusals.
package recn

import (
	"fmt"
	"math/bits"
	"strings"

	"github.com/icnsim/icnsim/topology"
)

// Point is a congested point: output port Port of switch Switch.
type Point struct {
	Switch int32
	Port   uint8
}

// Kind is a RECN message's kind.
type Kind uint8

const (
	// Notify (upstream): allocate a SAQ for the point.
	Notify Kind = iota + 1
	// Refuse (downstream): the notified port has no free SAQ.
	Refuse
	// Dealloc (downstream): the child's SAQ for the point is gone.
	Dealloc
	// Xoff (upstream): stop sending from the SAQ for the point.
	Xoff
	// Xon (upstream): resume.
	Xon
)

func kindNames() map[Kind]string {
	return map[Kind]string{Notify: "notify", Refuse: "refuse", Dealloc: "dealloc", Xoff: "xoff", Xon: "xon"}
}

func (k Kind) String() string {
	if n, ok := kindNames()[k]; ok {
		return n
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}

// Link is Msg.Port of a message for the port at the other end of the
// port's link (rather than another port of the same switch).
const Link = 255

// Msg is a RECN control message. In an outbox, Port says where it goes:
// Link, or the index of another port of the same switch (an ingress port,
// for an egress port's messages; the egress port, for an ingress port's).
type Msg struct {
	Target Point
	Kind   Kind
	Hops   uint8 // switches on the route from the receiving port to Target
	Port   uint8
}

// Side says which memory a Port is.
type Side uint8

const (
	// Ingress: detection queues per output port, SAQs.
	Ingress Side = iota
	// Egress: a standard queue, SAQs; also an adapter's injection side.
	Egress
)

// Scope says which upstream queues a SAQ's Xoff stops (see Xon/Xoff in
// the package doc).
type Scope uint8

const (
	// Children: Xoff and Xon go to the SAQ's children, the upstream ports
	// notified for its point, which stop and restart their own SAQ for
	// that point: the paper's text, which bounds no SAQ.
	Children Scope = iota
	// Feeders: a SAQ that reaches XoffFlits stops every queue of every
	// port that feeds it, for the packets that would enter it: the
	// crossbar (egress SAQs) and the admission arbiter (an adapter's
	// injection SAQs) read its state directly, and an ingress SAQ tells
	// the far end of its link, which starts no packet whose route passes
	// the SAQ's point until Xon. It bounds every SAQ.
	Feeders
)

func scopeNames() map[string]Scope {
	return map[string]Scope{"children": Children, "feeders": Feeders}
}

// Scopes lists the scopes' names, sorted.
func Scopes() []string { return []string{"children", "feeders"} }

// ParseScope reads a scope's name.
func ParseScope(s string) (Scope, bool) {
	sc, ok := scopeNames()[s]
	return sc, ok
}

func (s Scope) String() string {
	for n, v := range scopeNames() {
		if v == s {
			return n
		}
	}
	return fmt.Sprintf("scope(%d)", uint8(s))
}

// Config is RECN's configuration, the same for every port.
type Config struct {
	SAQs        int   // lines (SAQs) per port, 1..64; the paper's 8
	DetectFlits int32 // congestion detection threshold of a queue
	XoffFlits   int32 // a SAQ holding this many sends Xoff
	XonFlits    int32 // and, once down to this many, Xon
	// IdleCycles deallocates an empty leaf SAQ without arrivals this long
	// (0: never; the paper frees a SAQ only when it empties).
	IdleCycles int64
	// Scope is what an Xoff stops: the children's SAQs for the point
	// (the paper's text) or every queue feeding the SAQ.
	Scope Scope
}

// Defaults returns the paper's configuration for port memories of
// memFlits flits: 8 SAQs, detection and Xoff at 1% of the memory (its
// footnote 5; at least a flit), Xon at half of that, and empty SAQs that
// never fill freed after 1024 cycles.
func Defaults(memFlits int) Config {
	x := max(int32(memFlits/100), 1)
	return Config{SAQs: 8, DetectFlits: x, XoffFlits: x, XonFlits: x / 2, IdleCycles: 1024}
}

// Validate reports what is wrong with c for port memories of memFlits
// flits, naming the setting.
func (c Config) Validate(memFlits int) (setting string, err error) {
	switch {
	case c.SAQs < 1 || c.SAQs > MaxQueues-1:
		return "saqs", fmt.Errorf("%d SAQs per port: allowed 1..%d", c.SAQs, MaxQueues-1)
	case c.DetectFlits < 1 || int(c.DetectFlits) > memFlits:
		return "detect", fmt.Errorf("detection threshold of %d flits: allowed 1..%d (the port memory)", c.DetectFlits, memFlits)
	case c.XoffFlits < 1 || int(c.XoffFlits) > memFlits:
		return "xoff", fmt.Errorf("Xoff threshold of %d flits: allowed 1..%d (the port memory)", c.XoffFlits, memFlits)
	case c.XoffFlits < c.DetectFlits:
		return "xoff", fmt.Errorf("Xoff threshold of %d flits below the detection threshold (%d): a SAQ would stop a child it has not notified yet", c.XoffFlits, c.DetectFlits)
	case c.XonFlits < 0 || c.XonFlits >= c.XoffFlits:
		return "xon", fmt.Errorf("Xon threshold of %d flits: allowed 0..%d (below the Xoff threshold)", c.XonFlits, c.XoffFlits-1)
	case c.IdleCycles < 0:
		return "idle", fmt.Errorf("idle time of %d cycles: allowed 0 (never free an idle SAQ) or >= 1", c.IdleCycles)
	case c.Scope > Feeders:
		return "scope", fmt.Errorf("Xoff scope %v: allowed %s", c.Scope, strings.Join(Scopes(), ", "))
	}
	return "", nil
}

// MaxQueues is the most queues a port memory holds: detection (or
// standard) queues and SAQs together.
const MaxQueues = 64

// Mesh is the XY geometry RECN matches routes on: a K x K mesh of switches
// with C endnodes each (node n at switch n/C, port topology.PlaneLocal+n%C).
type Mesh struct{ K, C int }

// Through reports whether the XY route of a packet to node dst, from
// switch from on (from's own output decision included), leaves switch
// t.Switch by port t.Port.
func (g Mesh) Through(from int, dst int32, t Point) bool {
	r := int(dst) / g.C
	ts := int(t.Switch)
	if t.Port >= topology.PlaneLocal {
		return ts == r && int(t.Port) == topology.PlaneLocal+int(dst)%g.C
	}
	x, y, tx, ty, cx, cy := from%g.K, from/g.K, r%g.K, r/g.K, ts%g.K, ts/g.K
	switch t.Port {
	case topology.PlaneXPlus:
		return cy == y && x <= cx && cx < tx
	case topology.PlaneXMinus:
		return cy == y && tx < cx && cx <= x
	case topology.PlaneYPlus:
		return cx == tx && y <= cy && cy < ty
	default: // PortYMinus
		return cx == tx && ty < cy && cy <= y
	}
}

// beyond returns a node whose XY route leaves t.Switch by t.Port (the
// first node of the switch past the port, or the port's own node) and
// that switch (-1 for a node port). Every route through t shares its part
// up to t with the route to that node, which then only ends at next.
func (g Mesh) beyond(t Point) (dst int32, next int) {
	s := int(t.Switch)
	switch t.Port {
	case topology.PlaneXPlus:
		next = s + 1
	case topology.PlaneXMinus:
		next = s - 1
	case topology.PlaneYPlus:
		next = s + g.K
	case topology.PlaneYMinus:
		next = s - g.K
	default:
		return int32(s*g.C + int(t.Port) - topology.PlaneLocal), -1
	}
	return int32(next * g.C), next
}

// Line is a CAM line: a SAQ and the point it is for.
type Line struct {
	Target Point
	Hops   uint8
	InUse  bool
	// Blocked: the in-order pointer holds the SAQ until the packets that
	// were last in the standard (or detection) queue and in the SAQs of
	// nearer points on its route (Prefixes) at allocation have left.
	Blocked bool
	// Stopped: Xoff received from the parent (Children scope).
	Stopped bool
	// Full (Feeders scope): the SAQ reached XoffFlits and has not yet
	// drained to XonFlits; whatever feeds it holds the packets that would
	// enter it.
	Full bool
	// Children are the upstream ports notified for the point (bit 0: the
	// link's far end, at an ingress port; bit p: ingress port p, at an
	// egress port); Refused those that refused; XoffSent those told Xoff.
	Children, Refused, XoffSent uint64
	// Parent is the port the line answers to: the egress port of the
	// first output on its route (ingress lines) or Link.
	Parent      uint8
	filled      bool // a packet has entered the SAQ
	born        uint64
	lastArrival int64
}

// Leaf reports whether the line has no children.
func (l *Line) Leaf() bool { return l.Children == 0 }

// Queues is what a Port observes of the SAQs its owner keeps: the flits
// present in line i's SAQ, and whether it holds no packet (none arrived
// in part either).
type Queues interface {
	Flits(line int) int32
	Empty(line int) bool
}

// Port is the RECN state of one port memory.
type Port struct {
	q     Queues
	cfg   *Config
	side  Side
	here  Point // ingress: (switch, -); egress: (switch, port)
	Lines []Line
	inUse int
	born  uint64
	// notified: ingress ports told that this egress port is congested
	// (its standard queue's detection), not yet answered.
	notified uint64
	// Out is the outbox: the owner delivers and clears it.
	Out []Msg
	// Held (Feeders scope, at an egress port or an adapter's injection
	// side): the points whose SAQ at the far end of the link is full
	// (Xoff received, no Xon since). A packet whose route passes one of
	// them does not start on the link (Holds).
	Held []Point
	// MaxInUse is the most lines in use at once since the last ResetPeak,
	// RunMaxInUse since Init; Refusals counts notifications and detections
	// that found every line in use; Allocations counts lines allocated.
	MaxInUse, RunMaxInUse int
	Refusals, Allocations uint64
}

// Init prepares the port of switch s numbered port (ignored at ingress)
// on side, its lines in lines (cfg.SAQs of them), its SAQs observed
// through q.
func (p *Port) Init(cfg *Config, side Side, s int, port int, lines []Line, q Queues) {
	*p = Port{q: q, cfg: cfg, side: side, here: Point{Switch: int32(s), Port: uint8(port)}, Lines: lines[:cfg.SAQs:cfg.SAQs],
		Out: make([]Msg, 0, 4)}
	if cfg.Scope == Feeders && side == Egress {
		p.Held = make([]Point, 0, cfg.SAQs)
	}
}

// Holds reports whether a packet to dst, whose route from switch from on
// (the switch at the far end of the port's link) is matched there, must
// wait: its route passes a point whose SAQ there is full. (The far port
// puts it in the SAQ of the farthest point on its route that it has a line
// for, which may be another one: holding every packet through a full point
// holds all that could enter its SAQ, and a few that would not.)
func (p *Port) Holds(g Mesh, from int, dst int32) bool {
	for _, t := range p.Held {
		if g.Through(from, dst, t) {
			return true
		}
	}
	return false
}

// hold records an Xoff (on) or Xon for point t from the far end.
func (p *Port) hold(t Point, on bool) {
	for k, u := range p.Held {
		if u == t {
			if !on {
				p.Held[k] = p.Held[len(p.Held)-1]
				p.Held = p.Held[:len(p.Held)-1]
			}
			return
		}
	}
	if on {
		if len(p.Held) == cap(p.Held) {
			panic(fmt.Sprintf("recn: Xoff for %v with %d points already held: the far port has at most %d SAQs", t, len(p.Held), cap(p.Held)))
		}
		p.Held = append(p.Held, t)
	}
}

// InUse is the number of lines in use.
func (p *Port) InUse() int { return p.inUse }

// ResetPeak starts a new maximum of lines in use from the current count.
func (p *Port) ResetPeak() { p.MaxInUse = p.inUse }

// Match returns the line whose SAQ a packet to dst takes here, -1 for the
// standard or detection queue: of the lines in use whose point is on the
// packet's route from switch from (at ingress: this switch; at egress: the
// next one), the one whose point is farthest (its route the longest; two
// points on one route are never equally far).
func (p *Port) Match(g Mesh, from int, dst int32) int {
	if p.inUse == 0 {
		return -1
	}
	best := -1
	for i := range p.Lines {
		l := &p.Lines[i]
		if l.InUse && g.Through(from, dst, l.Target) && (best < 0 || l.Hops > p.Lines[best].Hops) {
			best = i
		}
	}
	return best
}

// Prefixes returns the lines in use (a bit per line) whose point is on the
// route from switch from to line i's point, before it: the SAQs that
// packets now matching line i went to before it was allocated. The owner
// points line i's in-order pointer at their last packets (and at the
// standard or detection queue's).
func (p *Port) Prefixes(g Mesh, from int, i int) uint64 {
	t := p.Lines[i].Target
	dst, next := g.beyond(t)
	var m uint64
	for j := range p.Lines {
		u := p.Lines[j].Target
		if j != i && p.Lines[j].InUse && u != t && int(u.Switch) != next && g.Through(from, dst, u) {
			m |= 1 << j
		}
	}
	return m
}

// Find returns the line in use for point t, or -1.
func (p *Port) Find(t Point) int {
	for i := range p.Lines {
		if p.Lines[i].InUse && p.Lines[i].Target == t {
			return i
		}
	}
	return -1
}

func (p *Port) alloc(now int64, t Point, hops uint8, parent uint8) int {
	for i := range p.Lines {
		l := &p.Lines[i]
		if !l.InUse {
			p.born++
			*l = Line{Target: t, Hops: hops, InUse: true, Parent: parent, born: p.born, lastArrival: now}
			p.inUse++
			p.Allocations++
			p.MaxInUse = max(p.MaxInUse, p.inUse)
			p.RunMaxInUse = max(p.RunMaxInUse, p.inUse)
			return i
		}
	}
	p.Refusals++
	return -1
}

func (p *Port) send(k Kind, t Point, hops uint8, to uint8) {
	p.Out = append(p.Out, Msg{Target: t, Kind: k, Hops: hops, Port: to})
}

// Detected tells an ingress port that a packet's tail arrived in the
// detection queue of output o, which now holds flits. It returns the line
// allocated for (this switch, o), whose SAQ must take the detection
// queue's packets (swap them), or -1; the notification upstream is in Out.
func (p *Port) Detected(now int64, o int, flits int32) int {
	if flits < p.cfg.DetectFlits {
		return -1
	}
	t := Point{Switch: p.here.Switch, Port: uint8(o)}
	if p.Find(t) >= 0 {
		// A notification from the egress port allocated the line while
		// this packet was arriving: its SAQ takes the flows from now on,
		// behind the in-order pointer; the detection queue drains.
		return -1
	}
	i := p.alloc(now, t, 1, uint8(o))
	if i < 0 {
		return -1
	}
	p.Lines[i].Children, p.Lines[i].filled = 1, true
	p.send(Notify, t, 1, Link)
	return i
}

// StandardArrived tells an egress port that a packet's tail from ingress
// port from arrived in its standard queue, which now holds flits.
func (p *Port) StandardArrived(from int, flits int32) {
	if flits >= p.cfg.DetectFlits && p.notified&(1<<from) == 0 {
		p.notified |= 1 << from
		p.send(Notify, p.here, 1, uint8(from))
	}
}

// Enqueued tells the port that a packet entered the SAQ of line i (an
// adapter's injection side, which has no upstream to notify).
func (p *Port) Enqueued(now int64, i int) {
	p.Lines[i].lastArrival, p.Lines[i].filled = now, true
}

// Arrived tells the port that a packet's tail arrived in the SAQ of line
// i; from is the sending ingress port at an egress port (ignored at
// ingress, where the sender is the link's far end).
func (p *Port) Arrived(now int64, i int, from int) {
	p.Enqueued(now, i)
	l := &p.Lines[i]
	flits := p.q.Flits(i)
	child, to, hops := uint64(1), uint8(Link), l.Hops
	if p.side == Egress {
		child, to, hops = 1<<from, uint8(from), l.Hops+1
	}
	if flits >= p.cfg.DetectFlits && (l.Children|l.Refused)&child == 0 {
		l.Children |= child
		p.send(Notify, l.Target, hops, to)
	}
	if p.cfg.Scope == Feeders {
		p.Filled(i)
		return
	}
	if flits >= p.cfg.XoffFlits {
		for m := l.Children &^ l.XoffSent; m != 0; m &= m - 1 {
			p.send(Xoff, l.Target, 0, p.childPort(m))
		}
		l.XoffSent = l.Children
	}
}

// childPort is where a message to the child of the lowest bit of m goes.
func (p *Port) childPort(m uint64) uint8 {
	if p.side == Ingress {
		return Link
	}
	return uint8(bits.TrailingZeros64(m))
}

// Filled tells the port that the SAQ of line i took a whole packet (or,
// at ingress, a detection queue's packets). In Feeders scope a SAQ holding
// XoffFlits becomes Full: at ingress it sends Xoff to the far end of the
// link; an egress port's crossbar and an adapter's admission arbiter read
// Full themselves (Arrived calls it; an adapter, whose injection SAQs have
// no upstream to notify, calls it alone).
func (p *Port) Filled(i int) {
	l := &p.Lines[i]
	if p.cfg.Scope != Feeders || l.Full || p.q.Flits(i) < p.cfg.XoffFlits {
		return
	}
	l.Full = true
	if p.side == Ingress {
		// The far end holds every packet for the point from now on: if
		// it has no SAQ for it, it allocates one, so that its other
		// flows do not wait behind them.
		if (l.Children|l.Refused)&1 == 0 {
			l.Children |= 1
			p.send(Notify, l.Target, l.Hops, Link)
		}
		p.send(Xoff, l.Target, 0, Link)
	}
}

// Holding tells an egress port that the crossbar held a packet of ingress
// port from for the full SAQ of line i (Feeders scope): an ingress port
// that is not a child is notified, as if the packet had arrived, so that
// it sets its packets for the point aside instead of holding them in its
// detection queue.
// It reports whether it notified.
func (p *Port) Holding(i int, from int) bool {
	l := &p.Lines[i]
	child := uint64(1) << from
	if (l.Children|l.Refused)&child != 0 {
		return false
	}
	l.Children |= child
	p.send(Notify, l.Target, l.Hops+1, uint8(from))
	return true
}

// Departed tells the port that a flit left the SAQ of line i.
func (p *Port) Departed(i int) {
	l := &p.Lines[i]
	if l.Full && p.q.Flits(i) <= p.cfg.XonFlits {
		l.Full = false
		if p.side == Ingress {
			p.send(Xon, l.Target, 0, Link)
		}
	}
	if l.XoffSent != 0 && p.q.Flits(i) <= p.cfg.XonFlits {
		for m := l.XoffSent; m != 0; m &= m - 1 {
			p.send(Xon, l.Target, 0, p.childPort(m))
		}
		l.XoffSent = 0
	}
	p.maybeFree(i, false)
}

// maybeFree deallocates line i if it is a leaf, unblocked, its SAQ is
// empty, and it has held a packet (or, idle, has waited IdleCycles for
// one), telling its parent.
func (p *Port) maybeFree(i int, idle bool) bool {
	l := &p.Lines[i]
	if l.Children != 0 || l.Blocked || !(l.filled || idle) || !p.q.Empty(i) {
		return false
	}
	p.send(Dealloc, l.Target, l.Hops, l.Parent)
	*l = Line{}
	p.inUse--
	return true
}

// Unblock tells the port that the packet the in-order pointer of line i
// waited for has left.
func (p *Port) Unblock(i int) {
	p.Lines[i].Blocked = false
	p.maybeFree(i, false)
}

// Sweep deallocates the lines that are empty leaves, unblocked, and have
// had no arrival for IdleCycles.
func (p *Port) Sweep(now int64) {
	if p.inUse == 0 || p.cfg.IdleCycles == 0 {
		return
	}
	for i := range p.Lines {
		if l := &p.Lines[i]; l.InUse && now-l.lastArrival >= p.cfg.IdleCycles {
			p.maybeFree(i, true)
		}
	}
}

// Receive applies message m, which came from the link's far end or (Port
// set to the sender) from another port of the switch. For a Notify it
// returns the line allocated, or -1: the owner then points the in-order
// pointer of that line at the last packet of the standard queue (egress)
// or of the detection queue of the line's first output (ingress, Parent)
// and sets Blocked if there is one.
func (p *Port) Receive(now int64, m Msg, from uint8) int {
	switch m.Kind {
	case Notify:
		if p.Find(m.Target) >= 0 {
			return -1
		}
		parent := uint8(Link)
		if p.side == Ingress {
			parent = from
		}
		i := p.alloc(now, m.Target, m.Hops, parent)
		if i < 0 {
			p.send(Refuse, m.Target, m.Hops, parent)
		}
		return i
	case Xoff, Xon:
		if p.cfg.Scope == Feeders {
			p.hold(m.Target, m.Kind == Xoff)
			break
		}
		if i := p.Find(m.Target); i >= 0 {
			p.Lines[i].Stopped = m.Kind == Xoff
		}
	case Refuse, Dealloc:
		child := uint64(1)
		if p.side == Egress {
			child = 1 << from
		}
		i := p.Find(m.Target)
		if i < 0 {
			if p.side == Egress && m.Target == p.here {
				p.notified &^= child
				return -1
			}
			panic(fmt.Sprintf("recn: %s for %v from a port that has no line for it", m.Kind, m.Target))
		}
		l := &p.Lines[i]
		l.Children &^= child
		l.XoffSent &^= child
		if m.Kind == Refuse {
			l.Refused |= child
		}
		p.maybeFree(i, false)
	}
	return -1
}
