package deadlock

import (
	"fmt"
	"math/bits"
	"slices"
	"testing"

	"github.com/icnsim/icnsim/internal/routingtest"
	"github.com/icnsim/icnsim/link"
	"github.com/icnsim/icnsim/routing"
	"github.com/icnsim/icnsim/topology"
	"github.com/icnsim/icnsim/topology/dragonfly"
)

// FuzzRouting walks one packet through the network as the simulator would,
// under every registered routing function, on random legal states: a
// topology the function is defined on (tori and meshes of k = 2..8, meshes
// with 1-4 nodes per router, one or two channels per node, the loopback
// ports the function needs; k-ary n-trees of k = 2..4, n = 1..4), a VC count
// routing.New accepts, a source, a destination, a message class, and a
// stream of choices among the candidates (so escape and adaptive channels
// alike are taken). At each router it checks that
//
//   - Route offers at least one group, every group with ports and VCs,
//     preference levels starting at 0 and rising by at most one;
//   - every VC is below the VC count, and so is every injection VC;
//   - every port exists, and leads to a router (a neighbour, or itself
//     through a loopback port) or to the destination node's sink channel of
//     the packet's class, at the destination's router;
//   - Route is pure: it leaves the flit alone, gives the same answer twice,
//     and reads nothing of the flit but Dst, VC, Class and Route (the state
//     the channel dependency check enumerates);
//   - an Escaper's escape sub-function offers something, purely, and only
//     what Route offers; Update changes nothing but Flit.Route;
//
// and that the packet reaches its destination in exactly Hops(src, dst)
// router-to-router hops (every registered function is minimal), passing
// through at most one loopback port (Hybrid-HAR moves a message down into
// the lower network once).
func FuzzRouting(f *testing.F) {
	reg := testRoutings()
	names := fuzzRoutingNames(reg)
	for wi, name := range names {
		spec := reg[name]
		for ki, kind := range spec.Topologies {
			// A few shapes per kind: small and larger, one and two
			// channels per node, both classes.
			var shapes []uint16
			switch kind {
			case "torus":
				shapes = []uint16{fuzzShape(ki, 2, 0, false, 0), fuzzShape(ki, 3, 0, true, 1), fuzzShape(ki, 6, 0, true, 0), fuzzShape(ki, 5, 0, false, 1)}
			case "mesh":
				shapes = []uint16{fuzzShape(ki, 2, 0, false, 0), fuzzShape(ki, 4, 1, true, 1), fuzzShape(ki, 6, 0, true, 0), fuzzShape(ki, 3, 3, false, 1)}
			case "fattree":
				shapes = []uint16{fuzzShape(ki, 0, 0, false, 0), fuzzShape(ki, 0, 2, false, 1), fuzzShape(ki, 2, 2, false, 0), fuzzShape(ki, 1, 3, false, 1)}
			default:
				shapes = []uint16{fuzzShape(ki, 0, 0, false, 0), fuzzShape(ki, 1, 1, false, 1), fuzzShape(ki, 2, 2, false, 0)}
			}
			for si, shape := range shapes {
				for pi, pair := range [][2]uint16{{0, 1}, {1, 0}, {0, 0}, {3, 60}, {17, 255}, {511, 29}} {
					// A VC count routing.New accepts (dor-2class and
					// har-dor want an even one, hybrid-har 4 on a torus).
					vcs := uint8(si + pi)
					if pi == 4 {
						vcs = 128 + 63 // many VCs: 64 where MinVCs is 1
					}
					topo, _ := fuzzTopology(f, spec, shape)
					for try := 0; try < 8; try++ {
						if _, err := routing.New(routingNamed(name), topo, fuzzVCs(spec, vcs)); err == nil {
							break
						}
						vcs++
					}
					choices := []byte{byte(pi), byte(si * 7), 1, 2, 3, 250, byte(pi * 31)}
					f.Add(uint8(wi), shape, vcs, pair[0], pair[1], choices)
				}
			}
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, shape uint16, vcsSeed uint8, src, dst uint16, choices []byte) {
		name := names[int(which)%len(names)]
		spec := reg[name]
		topo, class := fuzzTopology(t, spec, shape)
		vcs := fuzzVCs(spec, vcsSeed)
		rf, err := routing.New(routingNamed(name), topo, vcs)
		if err != nil {
			return // a combination routing.New refuses is not a legal state
		}
		n := topo.Nodes()
		w := fuzzWalk{t: t, name: name, topo: topo, rf: rf, vcs: vcs, all: routing.AllVCs(vcs),
			src: int(src) % n, dst: int(dst) % n, class: class, choices: choices}
		w.run()
	})
}

// fuzzRoutingNames are the registered routing functions' names, sorted,
// but for the dragonfly and HyperX routings (they are not minimal, and the
// router calls their Choose, not Route) and those of file topologies:
// TestChooseWithinRoute and TestNonMinimalZeroLoadLatency walk them.
func fuzzRoutingNames(reg map[string]routing.Spec) []string {
	names := make([]string, 0, len(reg))
	for n, spec := range reg {
		if slices.Contains(spec.Topologies, "dragonfly") || slices.Contains(spec.Topologies, "hyperx") || slices.Contains(spec.Topologies, "file") {
			continue
		}
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// fuzzVCs decodes a VC count: from the routing's MinVCs to 8 mostly; with
// the seed's top bit set, up to 64 (the configuration's limit).
func fuzzVCs(spec routing.Spec, seed uint8) int {
	most := 8
	if seed >= 128 {
		most = 64
	}
	lo := max(spec.MinVCs, 1)
	return lo + int(seed&127)%(max(most, lo)-lo+1)
}

// fuzzShape encodes a topology for fuzzTopology: kind index ki into the
// routing's Topologies; size (k - 2 of a torus or mesh, k - 2 of a
// fat-tree); extra (concentration - 1 of a mesh, levels - 1 of a
// fat-tree); two channels per node (tori and meshes); the message class.
func fuzzShape(ki, size, extra int, twoChannels bool, class int) uint16 {
	s := uint16(ki&3) | uint16(size&7)<<2 | uint16(extra&3)<<5 | uint16(class&1)<<8
	if twoChannels {
		s |= 1 << 7
	}
	return s
}

// fuzzTopology decodes shape into a topology the routing is defined on,
// with the ports it needs (WithPorts), and a message class.
func fuzzTopology(t testing.TB, spec routing.Spec, shape uint16) (topology.Topology, int) {
	kind := spec.Topologies[int(shape&3)%len(spec.Topologies)]
	size, extra := int(shape>>2&7), int(shape>>5&3)
	channels := 1 + int(shape>>7&1)
	class := int(shape >> 8 & 1)
	base, err := routingtest.Topology(kind, size, extra)
	if err != nil {
		t.Fatalf("FuzzRouting: building a %s: %v", kind, err)
	}
	if _, ok := base.(topology.Plane); !ok {
		channels = 1 // a channel per message class only on meshes and tori
	}
	topo, err := withPorts(base, spec.Name, channels)
	if err != nil {
		t.Fatalf("FuzzRouting: ports of %s for %s with %d channels per node: %v", base, spec.Name, channels, err)
	}
	return topo, class
}

// fuzzWalk is one packet's walk from src to dst.
type fuzzWalk struct {
	t          *testing.T
	name       string
	topo       topology.Topology
	rf         routing.Func
	vcs        int
	all        uint64
	src, dst   int
	class      int
	choices    []byte
	next       int // next byte of choices
	r, in, hop int
}

// where names the walk and the packet's position, for failures.
func (w *fuzzWalk) where() string {
	return fmt.Sprintf("%s on the %s with %d VCs, class-%d packet %d->%d at %s (after %d hops)",
		w.name, w.topo, w.vcs, w.class, w.src, w.dst, w.topo.PortName(w.r, w.in), w.hop)
}

// choose returns a number in 0..n-1 from the choice stream (0 once it is
// used up).
func (w *fuzzWalk) choose(n int) int {
	if n <= 1 || w.next >= len(w.choices) {
		return 0
	}
	c := int(w.choices[w.next])
	w.next++
	return c % n
}

// pick chooses one set bit of m.
func (w *fuzzWalk) pick(m uint64) int {
	for i := w.choose(bits.OnesCount64(m)); i > 0; i-- {
		m &= m - 1
	}
	return bits.TrailingZeros64(m)
}

func (w *fuzzWalk) run() {
	t, topo, rf := w.t, w.topo, w.rf
	chans := topology.NodeChannels(topo)
	ch := min(w.class, chans-1)

	// Injection, as NI.inject starts a packet.
	inj := rf.InjectVCs(w.src, w.dst)
	w.r, w.in = topo.NodePort(w.src)
	w.in += ch
	if inj == 0 || inj&^w.all != 0 {
		t.Fatalf("%s: injection VCs %#x, want a non-empty subset of %#x", w.where(), inj, w.all)
	}
	if again := rf.InjectVCs(w.src, w.dst); again != inj {
		t.Fatalf("%s: InjectVCs gave %#x, then %#x", w.where(), inj, again)
	}
	fl := link.Flit{Src: int32(w.src), Dst: int32(w.dst), Size: 1, VC: uint8(w.pick(inj)), Class: uint8(w.class)}
	if in, ok := rf.(routing.Injector); ok {
		fl.Route = in.InjectRoute(w.src, w.dst)
		if again := in.InjectRoute(w.src, w.dst); again != fl.Route {
			t.Fatalf("%s: InjectRoute gave %d, then %d", w.where(), fl.Route, again)
		}
	}

	upd, _ := rf.(routing.RouteUpdater)
	esc, _ := rf.(routing.Escaper)
	dr, dp := topo.NodePort(w.dst)
	sink := dp + ch // the destination's sink channel for the packet's class
	want := rf.Hops(w.src, w.dst)
	limit := want + 4*topo.Diameter() + 8
	loops := 0
	for step := 0; ; step++ {
		if step > limit {
			t.Fatalf("%s: not delivered after %d steps (Hops = %d): the route loops", w.where(), step, want)
		}
		c := w.route(&fl, false)
		if esc != nil {
			e := w.route(&fl, true)
			if q, v, ok := subsetOf(&e, &c, w.vcs); !ok {
				t.Fatalf("%s: the escape sub-function offers %s VC %d, which Route does not (%+v, escape %+v)",
					w.where(), topo.PortName(w.r, q), v, c, e)
			}
		}

		// Take any candidate: the selection function may pick any of them
		// when the others are busy.
		g := c.G[w.choose(int(c.N))]
		out := w.pick(g.Ports)
		fl.VC = uint8(w.pick(g.VCs))
		if upd != nil {
			before := fl
			upd.Update(w.r, out, &fl)
			before.Route = fl.Route
			if fl != before {
				t.Fatalf("%s: Update(%s) changed more than Flit.Route: %+v -> %+v", w.where(), topo.PortName(w.r, out), before, fl)
			}
		}
		p := topo.Peer(w.r, out)
		switch {
		case p.Router < 0: // ejection; route checked it is dst's sink
			if w.hop != want {
				t.Fatalf("%s: delivered after %d router-to-router hops, Hops says %d", w.where(), w.hop, want)
			}
			if w.r != dr || out != sink {
				t.Fatalf("%s: ejected at %s, want %s", w.where(), topo.PortName(w.r, out), topo.PortName(dr, sink))
			}
			return
		case p.Router == w.r && p.Port == out: // loopback port
			if loops++; loops > 1 {
				t.Fatalf("%s: through a loopback port (%s) a second time", w.where(), topo.PortName(w.r, out))
			}
		default:
			if w.hop+1 > want {
				t.Fatalf("%s: hop %d to %s, more than Hops = %d on a minimal routing",
					w.where(), w.hop+1, topo.PortName(p.Router, p.Port), want)
			}
			w.hop++
		}
		w.r, w.in = p.Router, p.Port
	}
}

// route calls Route (or, with escape, the Escaper's Escape) for fl at the
// walk's position and checks what it promises; see FuzzRouting.
func (w *fuzzWalk) route(fl *link.Flit, escape bool) routing.Candidates {
	t, topo := w.t, w.topo
	call := w.rf.Route
	what := "Route"
	if escape {
		call = w.rf.(routing.Escaper).Escape
		what = "Escape"
	}
	var c, again, other routing.Candidates
	before := *fl
	call(w.r, w.in, fl, &c)
	if *fl != before {
		t.Fatalf("%s: %s changed the flit: %+v -> %+v", w.where(), what, before, *fl)
	}
	call(w.r, w.in, fl, &again)
	if c != again {
		t.Fatalf("%s: %s is not pure: %+v, then %+v", w.where(), what, c, again)
	}
	// The decision may read Dst, VC, Class and Route only.
	g := *fl
	g.Src = int32((w.src + 1 + w.r) % topo.Nodes())
	g.Seq, g.Index, g.Size, g.Hops, g.InjDelay, g.Gen = 77, 3, 9, uint8(w.hop+5), 11, 1234
	// Stale groups left from an earlier decision must not matter either.
	other.G[0], other.G[routing.MaxGroups-1] = routing.Group{Ports: ^uint64(0), VCs: ^uint64(0)}, routing.Group{Ports: 1, VCs: 1}
	other.Level[1] = 9
	call(w.r, w.in, &g, &other)
	if other.N != c.N || !slices.Equal(other.G[:c.N], c.G[:c.N]) || !slices.Equal(other.Level[:c.N], c.Level[:c.N]) {
		t.Fatalf("%s: %s reads more of the flit than Dst, VC, Class and Route: %+v for %+v, %+v for %+v", w.where(), what, c, *fl, other, g)
	}

	if c.N == 0 || int(c.N) > routing.MaxGroups {
		t.Fatalf("%s: %s gave %d candidate groups to a packet not yet delivered", w.where(), what, c.N)
	}
	if c.Level[0] != 0 {
		t.Fatalf("%s: %s's first group has preference level %d, want 0", w.where(), what, c.Level[0])
	}
	dr, dp := topo.NodePort(w.dst)
	sink := dp + min(w.class, topology.NodeChannels(topo)-1)
	nports := topo.Ports(w.r)
	for i := 0; i < int(c.N); i++ {
		gr := c.G[i]
		if i > 0 && c.Level[i] != c.Level[i-1] && c.Level[i] != c.Level[i-1]+1 {
			t.Fatalf("%s: %s's group %d has level %d after %d", w.where(), what, i, c.Level[i], c.Level[i-1])
		}
		if gr.Ports == 0 || gr.VCs == 0 {
			t.Fatalf("%s: %s's group %d is empty: %+v", w.where(), what, i, c)
		}
		if gr.VCs&^w.all != 0 {
			t.Fatalf("%s: %s's group %d offers VCs %#x, outside the %d VCs (%+v)", w.where(), what, i, gr.VCs&^w.all, w.vcs, c)
		}
		for pm := gr.Ports; pm != 0; pm &= pm - 1 {
			q := bits.TrailingZeros64(pm)
			if q >= nports {
				t.Fatalf("%s: %s offers port %d, the router has %d (%+v)", w.where(), what, q, nports, c)
			}
			p := topo.Peer(w.r, q)
			switch {
			case p.Router >= 0:
			case p.Node == w.dst && w.r == dr && q == sink:
			case p.Node >= 0:
				t.Fatalf("%s: %s offers %s, which leads to %s, not to the destination's sink channel %s (%+v)",
					w.where(), what, topo.PortName(w.r, q), topo.NodeName(p.Node), topo.PortName(dr, sink), c)
			default:
				t.Fatalf("%s: %s offers %s, which is unconnected (%+v)", w.where(), what, topo.PortName(w.r, q), c)
			}
		}
	}
	return c
}

// TestParamsAreConfigurable: every routing that declares parameters
// builds a function that takes them (routing.Configurable), so no value a
// configuration gives is dropped.
func TestParamsAreConfigurable(t *testing.T) {
	n := 0
	for name, spec := range testRoutings() {
		if len(spec.Params) == 0 {
			continue
		}
		var topo topology.Topology
		if spec.Topologies[0] == "dragonfly" {
			topo, _ = dragonfly.NewDragonfly(2, 4, 2, 9, dragonfly.Palmtree, 0)
		} else {
			topo, _ = fuzzTopology(t, spec, 0)
		}
		rf, err := routing.New(spec, topo, max(spec.MinVCsFor(topo), 4)) // 4: even, and every mode's classes
		if err != nil {
			t.Fatalf("%s on %s: %v", name, topo, err)
		}
		if _, ok := rf.(routing.Configurable); !ok {
			t.Errorf("%s declares parameters %v but its function is not routing.Configurable", name, spec.Params)
		}
		n++
	}
	if n < 5 { // ugal-l, ugal-g, par, hybrid-har, har-dor
		t.Fatalf("%d routings with parameters; expected at least 5", n)
	}
}
