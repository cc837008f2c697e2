// Package sat owns SAT, the SATisfied throughput-fairness protocol, as a
// policy of package policies' contract: its parameters (Params, read from
// policy.injection by Parse), its layouts over a topology's capabilities,
// its interval formulas and its state machine (Gate, at every node; the
// switches' planes).
//
// SAT (Izu and Vallejo, "Throughput Fairness in Indirect Interconnection
// Networks", after Cidon and Ofek's Metaring) balances the packets every
// node injects. One control signal, SAT, circulates among the nodes; an
// interval is the time between two receptions of the signal at a node.
// Each node's injection counter counts the packets it starts and is reset
// when the signal departs from it. With thresholds k >= l >= 1:
//
//   - a node whose counter has reached k starts no packet until the signal
//     has passed (arrived and departed) again;
//   - a node that holds the signal with a counter below l and packets ready
//     in its source queue is starved and keeps the signal until its counter
//     reaches l or its source queue is empty; then the signal departs.
//
// A node holds the signal for at least NodeLatencyCycles (default 1, the
// paper's single-cycle node latency) after it arrives. The signal travels
// only on SAT lanes (link.Control, dedicated: one bit wire per link and
// direction beside the data and credit lanes) with HopLatencyCycles per
// link (default 1); a switch forwards it in the cycle it arrives, so a
// switch adds no latency of its own, as the paper's interval formulas
// assume. The protocol never touches a data lane: it takes no bandwidth.
//
// Two propagation structures:
//
// Hamiltonian virtual ring (ring). On a k-ary n-tree the signal goes from
// node i to node i+1 mod N up to their nearest common ancestor and down
// (the paper's Fig. 2). The ancestors used are those of root switch 0's
// down-tree: climbing always leaves by up port 0, descending takes the
// destination's digits, so the ring is the Euler tour of that tree, it
// crosses every one of the tree's links once in each direction, and its
// length in link hops is H(n) with H(0) = 0, H(n) = 2k + k H(n-1). The
// idle interval (every node releases the signal as soon as it may) is
//
//	I_ring(fat-tree) = H(n) L + N d           (232 cycles for 64 nodes)
//
// with L the hop latency and d the node latency. On a 2D torus or mesh the
// ring follows a Hamiltonian cycle of the routers and, at each router,
// visits its c nodes in port order (router -> node -> router -> next node
// ... -> next router). On a K x K torus the cycle takes row y eastwards
// from x = -y mod K, K-1 hops, then one hop north (the last row ends at
// x = 0 and the wrap-around link of column 0 closes the cycle): it exists
// for every K. On a mesh it is the boustrophedon that runs east along row
// 0, then through columns 1..K-1 row by row (west on odd rows, east on
// even ones) and returns south along column 0; it needs K even (a mesh
// with K odd has an odd number of routers and, being bipartite, no
// Hamiltonian cycle: the ring is refused there). Either way the ring has
// K^2 router-to-router hops and 2N node hops:
//
//	I_ring(grid) = (K^2 + 2N) L + N d         (4K^2 on a torus with defaults)
//
// Spanning tree (tree, the paper's SS). The root switch sends the signal
// down to all its children; every switch forwards it to all of its
// children and, once all have returned it, returns it to its parent (the
// switches act as SAT concentrators); when all return to the root it
// starts the next round at once. A node returns the signal when it is
// satisfied or has nothing to send. On a k-ary n-tree the tree is root
// switch 0's down-tree, n link hops deep to every node; on a K x K torus or
// mesh it is rooted at the centre router (K/2, K/2), climbs the centre
// column and spreads along every row (the entropy circuit's grid tree), so
// the deepest node is 2 floor(K/2) + 1 hops from the root (the torus
// wrap-around links would not shorten it). The idle interval is
//
//	I_tree = 2 D L + d,   D = n (fat-tree), 2 floor(K/2) + 1 (grid)
//
// which is the paper's 2n + 1 with defaults.
//
// A packet counts against the quota when its head leaves the NI into the
// network, the paper's "injection count register, incremented each time a
// packet is injected"; the gate holds back the packet at the head of the
// source queue. (Counting packets instead as they enter a bounded NIC
// buffer, as a gate at FSIN's generation would, was measured and does not
// reproduce the paper's delays either: see studies/README.md.) How many
// packets per interval the network lets a node start depends on the
// router's selection function: under transpose on the 256-node 4-ary
// 4-tree, l32k32 reaches the paper's 0.548 only with FSIN's least-occupied
// selection (vc.Selection; 0.547 with FSIN's tie draw,
// vc.SelectionTies); with the default, nodes hold the signal and the
// interval stretches from 936 to about 1,140 cycles (0.45).
//
// At cycle 0 node 0 holds the ring's signal (as if it had just arrived)
// and the tree's root sends it down. Exactly one signal exists in the ring
// at all times; in the tree, exactly one wave: every switch is either idle
// with nothing of the signal below it, or waiting for a set of children
// each of which has exactly one piece of the wave in its subtree or on the
// links to it. Protocol.Check verifies both between any two cycles.
//
// It may import policies, fabric, topology, link and clock.
package sat

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unsafe"

	"github.com/icnsim/icnsim/clock"
	"github.com/icnsim/icnsim/fabric"
	"github.com/icnsim/icnsim/link"
	"github.com/icnsim/icnsim/policies"
	"github.com/icnsim/icnsim/topology"
)

// Params are the thresholds and the propagation structure of SAT.
type Params struct {
	// L is the starvation threshold l, K the quota k per interval.
	L, K int
	// Tree selects the spanning tree (SS); otherwise the Hamiltonian ring.
	Tree bool
}

// maxSATQuota bounds k: an interval of more packets than this is no longer
// a fairness protocol.
const maxSATQuota = 1_000_000

// Validate checks 1 <= l <= k.
func (p Params) Validate() error {
	if p.L < 1 || p.K < 1 {
		return fmt.Errorf("sat: l = %d, k = %d: allowed 1 <= l <= k <= %d packets per interval", p.L, p.K, maxSATQuota)
	}
	if p.K > maxSATQuota {
		return fmt.Errorf("sat: k = %d: allowed 1 <= l <= k <= %d packets per interval", p.K, maxSATQuota)
	}
	if p.L > p.K {
		return fmt.Errorf("sat: l = %d > k = %d: allowed 1 <= l <= k <= %d (a node may inject at most k packets per interval, and is starved below l)", p.L, p.K, maxSATQuota)
	}
	return nil
}

// Structure names the propagation structure: "ring" or "tree".
func (p Params) Structure() string {
	if p.Tree {
		return "tree"
	}
	return "ring"
}

func (p Params) String() string {
	return fmt.Sprintf("sat(%d,%d,%s)", p.L, p.K, p.Structure())
}

// closeTo is "; did you mean X?" for the first of names within an edit
// of a (one letter changed, added, dropped or two swapped), or "".
func closeTo(a string, names ...string) string {
	for _, n := range names {
		if oneEdit(strings.ToLower(a), n) {
			return fmt.Sprintf("; did you mean %q?", n)
		}
	}
	return ""
}

// oneEdit reports whether a and b differ by at most one substitution,
// insertion, deletion or swap of neighbours.
func oneEdit(a, b string) bool {
	if len(a) > len(b) {
		a, b = b, a
	}
	i := 0
	for i < len(a) && a[i] == b[i] {
		i++
	}
	switch {
	case len(b)-len(a) > 1:
		return false
	case len(a) != len(b):
		return a[i:] == b[i+1:]
	case i >= len(a)-1:
		return true
	}
	return a[i+1:] == b[i+1:] || (a[i] == b[i+1] && a[i+1] == b[i] && a[i+2:] == b[i+2:])
}

// Model is the value of policy.injection that SAT reads.
func Model() policies.Model {
	return policies.Model{Name: "sat", Params: []string{"l", "k", "ring|tree"},
		Doc: "SAT fairness (Izu and Vallejo): at most k packets per interval, a node below l holds the signal; over the Hamiltonian ring or the spanning tree"}
}

// Parse reads SAT as policy.injection writes it: bare "sat" takes l, k
// and the structure from defaults; "sat(12,16,ring)" (or with l=, k=;
// the structure may be left out: ring) sets them. It reports whether
// arguments were given.
func Parse(s string, defaults Params) (Params, bool, error) {
	name, args, hasArgs := strings.Cut(strings.TrimSpace(s), "(")
	if strings.TrimSpace(name) != Model().Name {
		return Params{}, false, fmt.Errorf("%q: not SAT (allowed: sat, or sat(l,k,ring|tree))", s)
	}
	if !hasArgs {
		return defaults, false, defaults.Validate()
	}
	args, closed := strings.CutSuffix(strings.TrimSpace(args), ")")
	if !closed {
		return Params{}, false, fmt.Errorf("%q: missing closing parenthesis", s)
	}
	p, err := parseArgs(s, args)
	if err != nil {
		return Params{}, false, err
	}
	return p, true, nil
}

// parseArgs reads the arguments of "sat(...)": l and k, positional or as
// l=..., k=..., and optionally the structure, ring (the default) or tree.
func parseArgs(s, args string) (Params, error) {
	var p Params
	var nums []int
	seen := map[string]bool{}
	for i, a := range strings.Split(args, ",") {
		a = strings.TrimSpace(a)
		name, val, named := strings.Cut(a, "=")
		name, val = strings.TrimSpace(name), strings.TrimSpace(val)
		switch {
		case !named && (a == "ring" || a == "tree"):
			if seen["structure"] {
				return p, fmt.Errorf("%q: the structure is given twice", s)
			}
			seen["structure"] = true
			p.Tree = a == "tree"
			continue
		case !named:
			val = a
		case name != "l" && name != "k":
			return p, fmt.Errorf("%q: unknown argument %q (allowed: l, k and ring or tree, e.g. \"sat(12,16,ring)\" or \"sat(l=12,k=16,tree)\")", s, name)
		}
		v, err := strconv.Atoi(val)
		switch {
		case err != nil && !named && i >= 2 && strings.IndexFunc(a, unicode.IsDigit) < 0: // the third place: the structure
			return p, fmt.Errorf("%q: unknown structure %q (allowed: ring or tree, with l and k, e.g. \"sat(12,16,ring)\")%s", s, a, closeTo(a, "ring", "tree"))
		case err != nil:
			return p, fmt.Errorf("%q: argument %q is not a whole number of packets (allowed: l, k and ring or tree, e.g. \"sat(12,16,ring)\")", s, a)
		}
		switch {
		case named && seen[name]:
			return p, fmt.Errorf("%q: %s is given twice", s, name)
		case named && name == "l":
			p.L = v
		case named:
			p.K = v
		default:
			nums = append(nums, v)
			continue
		}
		seen[name] = true
	}
	for _, v := range nums {
		switch {
		case !seen["l"]:
			p.L, seen["l"] = v, true
		case !seen["k"]:
			p.K, seen["k"] = v, true
		default:
			return p, fmt.Errorf("%q: too many numbers (sat takes l and k)", s)
		}
	}
	if !seen["l"] || !seen["k"] {
		return p, fmt.Errorf("%q: sat needs both thresholds, l and k (e.g. \"sat(12,16,ring)\")", s)
	}
	return p, p.Validate()
}

// Config is how the SAT signal travels.
type Config struct {
	// HopLatencyCycles is the signal's latency over one link (>= 1) of the
	// network's link latency; over a longer link (a dragonfly's global
	// links) it takes the link's extra cycles more.
	HopLatencyCycles int
	// NodeLatencyCycles is the least time a node holds the signal (>= 0).
	NodeLatencyCycles int
}

func (c Config) validate() error {
	if c.HopLatencyCycles < 1 || c.HopLatencyCycles > 1000 {
		return fmt.Errorf("sat hop latency %d cycles out of range (allowed: 1..1000)", c.HopLatencyCycles)
	}
	if c.NodeLatencyCycles < 0 || c.NodeLatencyCycles > 1000 {
		return fmt.Errorf("sat node latency %d cycles out of range (allowed: 0..1000)", c.NodeLatencyCycles)
	}
	return nil
}

// satToken is the signal; a lane value is its presence.
type satToken struct{}

// satLane is one direction of one link's SAT wire.
type satLane = link.Control[satToken]

// satHop is one directed hop of the layout: from router or node to router or
// node. Routers are 0..R-1, node n is R+n. port is the router port the hop
// leaves by or arrives at when the other end is a node.
type satHop struct {
	from, to, port int
}

// satLayout is the structure laid over a topology: the hops, and for the
// tree, each element's parent hop and child hops.
type satLayout struct {
	routers int
	hops    []satHop
	// ring: next[i] is the hop that follows hop i.
	next []int
	// tree: root router; up[e] (e a router or node) is the hop from e to
	// its parent, down[e] the hops to its children, -1 / nil at the ends.
	root int
	up   []int
	down [][]int
	// idleNodes is the node visits of one idle interval (every node on the
	// ring, one on the tree).
	idleNodes int
}

// idleCycles is the interval of the structure in an idle network (every
// node releases the signal as soon as it may): the ring's hops, or twice
// the tree's longest path from the root to a node, at hopCycles(h) a hop,
// and the node visits at nodeCycles each.
func (lay *satLayout) idleCycles(hopCycles func(satHop) int, nodeCycles int) int {
	hops := 0
	if lay.next != nil {
		for _, h := range lay.hops {
			hops += hopCycles(h)
		}
	} else {
		// The longest path from e down to a node (-1: no node below e).
		var deepest func(e int) int
		deepest = func(e int) int {
			if e >= lay.routers {
				return 0
			}
			most := -1
			for _, h := range lay.down[e] {
				if d := deepest(lay.hops[h].to); d >= 0 {
					most = max(most, hopCycles(lay.hops[h])+d)
				}
			}
			return most
		}
		hops = 2 * deepest(lay.root)
	}
	return hops + lay.idleNodes*nodeCycles
}

// CheckTopology reports whether the ring (tree false) or the spanning
// tree can be laid over t, in constant time.
func CheckTopology(t topology.Topology, tree bool) error {
	if rg, ok := t.(topology.Ringed); ok && !tree {
		if err := rg.RingFeasible(); err != nil {
			return fmt.Errorf("the SAT ring needs a Hamiltonian cycle of the routers, and %v; use the spanning tree (sat(l,k,tree))", err)
		}
	}
	return nil // any other topology: the walk around a spanning tree, or the tree
}

// laySAT lays the ring or the tree over t: the family's own
// (topology.Ringed, topology.Treed) where it has one, else the walk
// around, or the tree of, the quickest paths from router 0, hop(r, p)
// being the signal's latency out of port p of router r.
func laySAT(t topology.Topology, tree bool, hop func(r, p int) int) (*satLayout, error) {
	if err := CheckTopology(t, tree); err != nil {
		return nil, err
	}
	if tr, ok := t.(topology.Treed); ok && tree {
		return treeLayout(t, tr.Tree()), nil
	}
	if rg, ok := t.(topology.Ringed); ok && !tree {
		return ringLayout(t, rg.Ring())
	}
	spec := spanningTree(t, hop)
	if tree {
		return treeLayout(t, spec), nil
	}
	return ringLayout(t, eulerRing(t, spec))
}

// spanningTree is the spanning tree of any other topology (a dragonfly, a
// HyperX, a graph from a file): the quickest paths from router 0 over the
// links (topology.ShortestPathTree; breadth-first in port order where the links are
// alike), with each router's nodes below it.
func spanningTree(t topology.Topology, hop func(r, p int) int) topology.SpanningTree {
	R := t.Routers()
	s := topology.NewSpanningTree(R + t.Nodes())
	parent, parentPort, _, _ := topology.ShortestPathTree(t, 0, hop)
	copy(s.Parent, parent)
	copy(s.DownPort, parentPort)
	for n := 0; n < t.Nodes(); n++ {
		r, p := t.NodePort(n)
		s.Parent[R+n], s.DownPort[R+n] = r, p
	}
	return s
}

// eulerRing is the ring of any other topology: the walk around spanning
// tree s (down each tree link and back up it, children in port order),
// visiting each node from its router. Every directed link is used once, so
// the ring is 2(R-1) router hops and 2N node hops long.
func eulerRing(t topology.Topology, s topology.SpanningTree) []topology.WalkStep {
	R := t.Routers()
	var walk []topology.WalkStep
	// An explicit stack of (router, next port to try): a graph from a file
	// may be a long chain.
	type frame struct{ r, p int }
	stack := []frame{{s.Root, 0}}
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.p == t.Ports(top.r) {
			stack = stack[:len(stack)-1]
			if len(stack) > 0 {
				up := stack[len(stack)-1]
				walk = append(walk, topology.WalkStep{E: top.r, Port: t.Peer(up.r, up.p-1).Port})
			}
			continue
		}
		r, p := top.r, top.p
		top.p++
		peer := t.Peer(r, p)
		switch {
		case peer.Node >= 0 && s.Parent[R+peer.Node] == r && s.DownPort[R+peer.Node] == p:
			walk = append(walk, topology.WalkStep{E: r, Port: p}, topology.WalkStep{E: R + peer.Node})
		case peer.Router >= 0 && s.Parent[peer.Router] == r && s.DownPort[peer.Router] == p:
			walk = append(walk, topology.WalkStep{E: r, Port: p})
			stack = append(stack, frame{peer.Router, 0})
		}
	}
	return walk
}

// ringLayout turns a closed walk into hops: each step leads to the next
// (the last to the first). A router's output port must not repeat: the
// switch forwards by the lane a signal arrives on, so every hop is its own
// lane and the walk must be a circuit in which no directed link repeats.
func ringLayout(t topology.Topology, walk []topology.WalkStep) (*satLayout, error) {
	R := t.Routers()
	lay := &satLayout{routers: R}
	used := map[[2]int]bool{}
	for i, st := range walk {
		nx := walk[(i+1)%len(walk)]
		h := satHop{from: st.E, to: nx.E, port: st.Port}
		if st.E < R {
			peer := t.Peer(st.E, st.Port)
			want := peer.Router
			if peer.Node >= 0 {
				want = R + peer.Node
			}
			if want != nx.E {
				return nil, fmt.Errorf("internal: SAT ring step %d: %s does not lead to element %d", i, t.PortName(st.E, st.Port), nx.E)
			}
			if used[[2]int{st.E, st.Port}] {
				return nil, fmt.Errorf("internal: SAT ring leaves by %s twice", t.PortName(st.E, st.Port))
			}
			used[[2]int{st.E, st.Port}] = true
		} else {
			_, h.port = t.NodePort(st.E - R)
			if used[[2]int{st.E, -1}] {
				return nil, fmt.Errorf("internal: SAT ring leaves %s twice", t.NodeName(st.E-R))
			}
			used[[2]int{st.E, -1}] = true
			lay.idleNodes++
		}
		lay.hops = append(lay.hops, h)
	}
	lay.next = make([]int, len(lay.hops))
	for i := range lay.next {
		lay.next[i] = (i + 1) % len(lay.hops)
	}
	if lay.idleNodes != t.Nodes() {
		return nil, fmt.Errorf("internal: SAT ring visits %d of %d nodes", lay.idleNodes, t.Nodes())
	}
	return lay, nil
}

// treeLayout turns a tree into hops: per child, one hop down from its
// parent and one back up, children in element order.
func treeLayout(t topology.Topology, s topology.SpanningTree) *satLayout {
	R := t.Routers()
	n := len(s.Parent)
	lay := &satLayout{routers: R, root: s.Root, up: make([]int, n), down: make([][]int, n), idleNodes: 1}
	for e := range lay.up {
		lay.up[e] = -1
	}
	for e := 0; e < n; e++ {
		p := s.Parent[e]
		if p < 0 {
			continue
		}
		upPort := s.DownPort[e] // a node's port at its router
		if e < R {
			upPort = t.Peer(p, s.DownPort[e]).Port
		}
		lay.down[p] = append(lay.down[p], len(lay.hops))
		lay.hops = append(lay.hops, satHop{from: p, to: e, port: s.DownPort[e]})
		lay.up[e] = len(lay.hops)
		lay.hops = append(lay.hops, satHop{from: e, to: p, port: upPort})
	}
	return lay
}

// Gate is one node's part of SAT (a fabric.Gate): its injection counter,
// whether it holds the signal, and the lanes to and from its router.
type Gate struct {
	in, out  *satLane
	l, k     int32
	count    int32 // packets started since the signal last departed
	holding  bool
	heldFrom clock.Cycle // the cycle from which the signal may depart
	nodeLat  clock.Cycle
	lastRecv clock.Cycle // -1 before the first reception
	node     int32

	// Statistics, read only while the NI is paused. Intervals and
	// IntervalSum count every interval; the Win* ones those whose closing
	// reception falls in [CountFrom, CountTo).
	Intervals, IntervalSum                           uint64
	CountFrom, CountTo                               clock.Cycle
	WinIntervals, WinSum, WinMinCycles, WinMaxCycles uint64
	// WaitingCycles counts the cycles the node had a packet ready to start
	// and was held at its quota k; HeldCycles those it held the signal
	// starved (after the node latency).
	WaitingCycles, HeldCycles uint64
	Receptions                uint64
	MaxCount                  int32 // the most packets started in one interval
}

// Observe reads the signal and releases it when the node is satisfied or
// has nothing to send (fabric.Gate).
func (g *Gate) Observe(now clock.Cycle, queued int) {
	if g.in.Recv(now) != nil {
		if g.holding {
			panic(fmt.Sprintf("NI %d SAT at cycle %d: a second signal arrived while holding one", g.node, now))
		}
		g.holding, g.heldFrom = true, now+g.nodeLat
		g.Receptions++
		if g.lastRecv >= 0 {
			d := uint64(now - g.lastRecv)
			g.Intervals++
			g.IntervalSum += d
			if now >= g.CountFrom && now < g.CountTo {
				if g.WinIntervals == 0 || d < g.WinMinCycles {
					g.WinMinCycles = d
				}
				g.WinMaxCycles = max(g.WinMaxCycles, d)
				g.WinIntervals++
				g.WinSum += d
			}
		}
		g.lastRecv = now
	}
	if !g.holding {
		return
	}
	if now >= g.heldFrom && (g.count >= g.l || queued == 0) {
		g.out.Send(now, satToken{})
		g.holding, g.count = false, 0
		return
	}
	if now >= g.heldFrom {
		g.HeldCycles++
	}
}

// Allow lets a packet start while the counter is below k (fabric.Gate).
// A cycle refused here is a node-cycle spent waiting for the signal.
func (g *Gate) Allow(clock.Cycle) bool {
	if g.count < g.k {
		return true
	}
	g.WaitingCycles++
	return false
}

// Started counts a packet against the interval's quota (fabric.Gate).
func (g *Gate) Started(now clock.Cycle) {
	g.count++
	g.MaxCount = max(g.MaxCount, g.count)
	if g.count > g.k {
		panic(fmt.Sprintf("NI %d SAT at cycle %d: %d packets started in one interval, quota k = %d", g.node, now, g.count, g.k))
	}
}

// Injected does nothing: SAT counts packets as they start (fabric.Gate).
func (g *Gate) Injected(clock.Cycle) {}

// satRingSwitch forwards the ring's signal: a signal arriving on in[i]
// leaves on out[i] in the same cycle.
type satRingSwitch struct {
	in, out []*satLane
}

func (s *satRingSwitch) Step(now clock.Cycle, _ fabric.Observation) {
	for i, l := range s.in {
		if l.Recv(now) != nil {
			s.out[i].Send(now, satToken{})
		}
	}
}

// satTreeSwitch is a SAT concentrator: it sends the signal down to all its
// children when it arrives from the parent (the root: at cycle 0 and when
// a round completes) and returns it up once every child has returned it.
type satTreeSwitch struct {
	name     string
	fromUp   *satLane // nil at the root
	toUp     *satLane
	toDown   []*satLane
	fromDown []*satLane
	waiting  []bool // child i has not yet returned this round
	pending  int
	root     bool
}

func (s *satTreeSwitch) Step(now clock.Cycle, _ fabric.Observation) {
	if s.root && now == 0 {
		s.sendDown(now)
	}
	if s.fromUp != nil && s.fromUp.Recv(now) != nil {
		if s.pending != 0 {
			panic(fmt.Sprintf("%s SAT at cycle %d: the signal came down again before %d children returned it", s.name, now, s.pending))
		}
		s.sendDown(now)
	}
	for i, l := range s.fromDown {
		if l.Recv(now) == nil {
			continue
		}
		if !s.waiting[i] {
			panic(fmt.Sprintf("%s SAT at cycle %d: child %d returned the signal twice", s.name, now, i))
		}
		s.waiting[i] = false
		s.pending--
		if s.pending > 0 {
			continue
		}
		if s.root {
			s.sendDown(now)
		} else {
			s.toUp.Send(now, satToken{})
		}
	}
}

func (s *satTreeSwitch) sendDown(now clock.Cycle) {
	for i, l := range s.toDown {
		l.Send(now, satToken{})
		s.waiting[i] = true
	}
	s.pending = len(s.toDown)
}

// Policy is SAT as a configuration gives it (policies.Policy): its
// parameters and the signal's latencies.
type Policy struct {
	Params Params
	Config Config
}

// String is SAT's value of policy.injection, e.g. "sat(12,16,ring)".
func (p Policy) String() string { return p.Params.String() }

// Check reports what Install would refuse on t.
func (p Policy) Check(_ context.Context, t topology.Topology) error {
	return Check(t, p.Params, p.Config)
}

// Estimate is the ring's or the tree's memory on t (laid in time linear
// in the network, counted with the network's own build).
func (p Policy) Estimate(t topology.Topology) policies.Estimate {
	return policies.Estimate{Bytes: Bytes(t, p.Params)}
}

// Install lays SAT on h (it draws no random numbers: seed is unused).
func (p Policy) Install(_ context.Context, h policies.Host, _ uint64) (policies.Running, error) {
	s, err := Install(h, p.Params, p.Config)
	if s == nil {
		return nil, err
	}
	return s, err
}

// Protocol is SAT installed on a network.
type Protocol struct {
	Params Params
	Config Config
	Gates  []*Gate
	// IdleIntervalCycles is the analytical interval of an idle network.
	IdleIntervalCycles int
	lay                *satLayout
	lanes              []satLane
	trees              []*satTreeSwitch // by router; nil when not a tree switch
}

// Check reports what Install would refuse, without building anything.
func Check(t topology.Topology, p Params, cfg Config) error {
	if err := p.Validate(); err != nil {
		return err
	}
	if err := cfg.validate(); err != nil {
		return err
	}
	return CheckTopology(t, p.Tree)
}

// Install lays SAT's ring or tree over net, installs a gate in every NI
// and a forwarding or concentrating plane in every router the structure
// passes through (beside any control plane the router already has).
func Install(net policies.Host, p Params, cfg Config) (*Protocol, error) {
	t := net.Topology()
	if err := Check(t, p, cfg); err != nil {
		return nil, err
	}
	R, N := t.Routers(), t.Nodes()
	// A hop over a link longer than the network's takes its extra cycles.
	linkCycles := func(r, p int) int {
		if w, ok := net.OutWire(r, p); ok {
			return cfg.HopLatencyCycles + w.ExtraCycles()
		}
		return cfg.HopLatencyCycles
	}
	hopCycles := func(h satHop) int {
		if h.from < R {
			return linkCycles(h.from, h.port)
		}
		return cfg.HopLatencyCycles
	}
	lay, err := laySAT(t, p.Tree, linkCycles)
	if err != nil {
		return nil, err
	}
	s := &Protocol{Params: p, Config: cfg, lay: lay, lanes: make([]satLane, len(lay.hops)),
		IdleIntervalCycles: lay.idleCycles(hopCycles, cfg.NodeLatencyCycles)}
	name := func(e int) string {
		if e < R {
			return t.RouterName(e)
		}
		return t.NodeName(e - R)
	}
	for i, h := range lay.hops {
		port := name(h.from)
		if h.from < R {
			port = t.PortName(h.from, h.port)
		}
		s.lanes[i].InitControl(port+" -> "+name(h.to)+" (sat)", hopCycles(h), link.Dedicated, nil)
	}
	gates := make([]Gate, N)
	s.Gates = make([]*Gate, N)
	for n := range gates {
		gates[n] = Gate{l: int32(p.L), k: int32(p.K), nodeLat: clock.Cycle(cfg.NodeLatencyCycles), lastRecv: -1, node: int32(n), CountTo: clock.Never}
		s.Gates[n] = &gates[n]
	}
	planes := make([]fabric.ControlPlane, R)
	if p.Tree {
		s.trees = make([]*satTreeSwitch, R)
		for e, hs := range lay.down {
			if len(hs) == 0 {
				continue
			}
			sw := &satTreeSwitch{name: name(e), root: e == lay.root, waiting: make([]bool, len(hs))}
			if u := lay.up[e]; u >= 0 {
				sw.toUp = &s.lanes[u]
				sw.fromUp = &s.lanes[u-1] // the hop down to e precedes its hop up
			}
			for _, h := range hs {
				sw.toDown = append(sw.toDown, &s.lanes[h])
				sw.fromDown = append(sw.fromDown, &s.lanes[lay.up[lay.hops[h].to]])
			}
			s.trees[e] = sw
			planes[e] = sw
		}
		for n := range gates {
			e := R + n
			gates[n].in, gates[n].out = &s.lanes[lay.up[e]-1], &s.lanes[lay.up[e]]
		}
	} else {
		sws := make([]satRingSwitch, R)
		for i, h := range lay.hops {
			nx := lay.next[i]
			switch {
			case h.to < R:
				sws[h.to].in = append(sws[h.to].in, &s.lanes[i])
				sws[h.to].out = append(sws[h.to].out, &s.lanes[nx])
				planes[h.to] = &sws[h.to]
			default:
				gates[h.to-R].in = &s.lanes[i]
				gates[h.to-R].out = &s.lanes[nx]
			}
		}
		gates[0].holding = true // node 0 starts with the signal
	}
	for r, pl := range planes {
		if pl == nil {
			continue
		}
		policies.AddControlPlane(net, r, pl)
	}
	for n, g := range s.Gates {
		net.SetGate(n, g)
	}
	return s, nil
}

// Window makes the gates measure the intervals whose closing reception
// falls in [from, to) (set it before the run or while paused).
func (s *Protocol) Window(from, to clock.Cycle) {
	for _, g := range s.Gates {
		g.CountFrom, g.CountTo = from, to
	}
}

// WindowInterval is the SAT interval over all nodes in the window: mean,
// min and max in cycles, and the number of intervals (read while paused).
func (s *Protocol) WindowInterval() (mean float64, minC, maxC, n uint64) {
	var sum uint64
	for _, g := range s.Gates {
		if g.WinIntervals == 0 {
			continue
		}
		if n == 0 || g.WinMinCycles < minC {
			minC = g.WinMinCycles
		}
		maxC = max(maxC, g.WinMaxCycles)
		n += g.WinIntervals
		sum += g.WinSum
	}
	if n > 0 {
		mean = float64(sum) / float64(n)
	}
	return mean, minC, maxC, n
}

// Totals are the gates' counters summed (see Gate).
type Totals struct {
	Intervals, IntervalSum, WaitingCycles, HeldCycles uint64
}

// Totals sums the gates' counters (read while paused).
func (s *Protocol) Totals() Totals {
	var t Totals
	for _, g := range s.Gates {
		t.Intervals += g.Intervals
		t.IntervalSum += g.IntervalSum
		t.WaitingCycles += g.WaitingCycles
		t.HeldCycles += g.HeldCycles
	}
	return t
}

// Check verifies, between two cycles (next is the cycle about to run),
// that no node has started more than k packets in its interval and that
// the signal is neither lost nor duplicated: exactly one in the ring, one
// consistent wave in the tree.
func (s *Protocol) Check(next clock.Cycle) error {
	for n, g := range s.Gates {
		if g.count > g.k {
			return fmt.Errorf("SAT at cycle %d: NI %d started %d packets in one interval (k = %d)", next, n, g.count, g.k)
		}
	}
	inFlight := make([]int, len(s.lanes))
	for i := range s.lanes {
		s.lanes[i].InTransit(next, func(*satToken) { inFlight[i]++ })
	}
	if !s.Params.Tree {
		total := 0
		for _, c := range inFlight {
			total += c
		}
		for _, g := range s.Gates {
			if g.holding {
				total++
			}
		}
		if total != 1 {
			return fmt.Errorf("SAT at cycle %d: %d signals on the ring (held or on lanes), want exactly 1", next, total)
		}
		return nil
	}
	if next == 0 {
		return nil
	}
	// active(e) is 1 when e is in the current round (a node holding the
	// signal, a switch waiting for children), else 0; each switch's waiting
	// children must each have exactly one piece of the wave below them (on
	// the lane down, in the child, or on the lane back up), the others none.
	R := s.lay.routers
	ok := true
	var active func(e int) int
	active = func(e int) int {
		if e >= R {
			if s.Gates[e-R].holding {
				return 1
			}
			return 0
		}
		sw := s.trees[e]
		for i, h := range s.lay.down[e] {
			c := s.lay.hops[h].to
			below := inFlight[h] + active(c) + inFlight[s.lay.up[c]]
			want := 0
			if sw.waiting[i] {
				want = 1
			}
			ok = ok && below == want
		}
		if sw.pending > 0 {
			return 1
		}
		return 0
	}
	if active(s.lay.root) != 1 {
		return fmt.Errorf("SAT at cycle %d: no round under way at the tree's root", next)
	}
	if !ok {
		return fmt.Errorf("SAT at cycle %d: the tree's wave is inconsistent (a signal lost, duplicated, or below a switch that did not send it)", next)
	}
	return nil
}

// Bytes estimates the memory Install takes on topology t: a lane per
// hop of the ring or the tree (with its name, counted at 48 bytes), a gate
// per node, and per switch its plane (a forwarding table or a
// concentrator's children).
func Bytes(t topology.Topology, p Params) int64 {
	// The walk around, or the tree of, a spanning tree by default.
	hops := 2 * (int64(t.Routers()) - 1 + int64(t.Nodes()))
	if tr, ok := t.(topology.Treed); ok && p.Tree {
		hops = 2 * (int64(tr.TreeElements()) - 1)
	}
	if rg, ok := t.(topology.Ringed); ok && !p.Tree {
		hops = int64(rg.RingHops())
	}
	perHop := int64(unsafe.Sizeof(satLane{})) + 48 + 2*8 // the lane, its name, its places in the planes' lists
	return hops*perHop + int64(t.Nodes())*int64(unsafe.Sizeof(Gate{})+8) + int64(t.Routers())*64
}
