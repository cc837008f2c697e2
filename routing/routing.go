package routing

import (
	"fmt"
	"slices"
	"strings"

	"github.com/icnsim/icnsim/link"
	"github.com/icnsim/icnsim/topology"
)

// MaxGroups is the number of candidate groups a routing function may return.
const MaxGroups = 4

// Candidates is a routing decision: up to MaxGroups groups in order of
// preference, each a set of output ports and a set of VCs allowed on them.
// VC allocation takes the first group in which some allowed output VC is free.
// Groups of the same Level are equally preferred (the selection function
// picks among all of them); a higher Level is tried only when no lower one
// has a free VC. 72 bytes: a router keeps one per head waiting for a VC.
type Candidates struct {
	G     [MaxGroups]Group
	Level [MaxGroups]uint8
	N     uint8
}

// Group is a set of output ports and the VCs allowed on them.
type Group struct {
	Ports uint64 // bit p: output port p
	VCs   uint64 // bit v: VC v
}

// Add appends a group at the current preference level.
func (c *Candidates) Add(ports, vcs uint64) {
	level := uint8(0)
	if c.N > 0 {
		level = c.Level[c.N-1]
	}
	c.add(ports, vcs, level)
}

// AddFallback appends a group at a new, lower preference level (e.g. the
// escape channels of Duato's protocol).
func (c *Candidates) AddFallback(ports, vcs uint64) {
	level := uint8(0)
	if c.N > 0 {
		level = c.Level[c.N-1] + 1
	}
	c.add(ports, vcs, level)
}

func (c *Candidates) add(ports, vcs uint64, level uint8) {
	if c.N == MaxGroups {
		panic("routing: more than MaxGroups candidate groups")
	}
	c.G[c.N] = Group{Ports: ports, VCs: vcs}
	c.Level[c.N] = level
	c.N++
}

// Func decides where head flits go. It must be a pure function of its
// arguments and of the topology: routers share one instance.
type Func interface {
	// Route fills c for the head flit f waiting at input port in of router r
	// (f.VC is the VC it arrived on).
	Route(r, in int, f *link.Flit, c *Candidates)
	// InjectVCs is the set of VCs a packet from node src to node dst may
	// take on its injection channel.
	InjectVCs(src, dst int) uint64
	// Hops is the number of router-to-router hops of a packet from src to
	// dst on a zero-load network (for the analytical latency).
	Hops(src, dst int) int
}

// Spec describes a registered routing function.
type Spec struct {
	Name       string
	Doc        string
	Topologies []string // topology kinds it is defined on
	MinVCs     int      // smallest VC count that is deadlock free
	// Label is the routing's name in the papers' figures ("DOR",
	// "Hybrid-HAR"); "" where they give it none.
	Label string
	// MinVCsOn, where set, is MinVCs on t, where it depends on the
	// topology (a Valiant routing's VC classes, a graph's diameter).
	MinVCsOn func(t topology.Topology) int
	// CheckTopology, where set, refuses a topology of a kind the function
	// lists that it is not built on (a torus of three dimensions for a
	// routing of 2-D grids), before its VCs are checked.
	CheckTopology func(t topology.Topology) error
	// CheckVCs, where set, refuses a VC count the function cannot use on t
	// (its virtual networks or classes), before any deadlock check.
	CheckVCs func(t topology.Topology, vcs int) error
	// ClassVCs, where set, refuses a VC count below the function's VC
	// classes on t even where the deadlock check is waived
	// (allow_deadlock): a packet that reads its class from its VC could
	// otherwise be sent round for ever.
	ClassVCs func(t topology.Topology, vcs int) error
	// Params are the parameters the function reads (it implements
	// Configurable when there are any).
	Params []Param
	// BuildSeconds, where set, estimates the time to check and build a
	// network of VC routers with this function on t with vcs VCs, beside
	// touching its memory (measured on the development machine:
	// TestBuildSecondsEstimate); nil estimates DefaultSecondsPerPort per
	// port.
	BuildSeconds func(t topology.Topology, vcs int) float64
	// TableBytes, where set, is the memory of the function's own tables on
	// t beyond the topology's (topology.RouteTables): what the footprint
	// estimate adds for it.
	TableBytes func(t topology.Topology) int64
	// Loops names the loopback ports the function needs on every router
	// (grid.Grid2D.Loops): Hybrid-HAR's connection channels.
	Loops []string
	// EscapeLevel: the candidates come in two levels of preference, the
	// adaptive VCs and then an escape (duato's dateline DOR, Hybrid-HAR's
	// connection channel and C1); the function implements Escaper.
	EscapeLevel bool
	New         func(t topology.Topology, vcs int) Func
	// MessageClasses is the number of message classes (Flit.Class) the
	// function routes by itself (it implements ClassRouter: Hybrid-HAR's
	// short and long), 0 for a function blind to the class: a
	// configuration that gives the packets classes of its own (traffic
	// classes) is refused for a function that reads them.
	MessageClasses int
	// Escapes, for a function checked by Duato's extended condition
	// (DuatoChecked: hybrid-har, har-dor), gives its escape VCs and its
	// message classes on t with vcs VCs before it is built: what that
	// check's memory grows with (the footprint estimate); nil for a
	// function checked by its channel dependency graph.
	Escapes func(t topology.Topology, vcs int) (escapeVCs uint64, classes int)
}

// ClassRouter is implemented by routing functions whose decisions depend
// on the packet's message class (Flit.Class): the channel dependency check
// then enumerates every class.
type ClassRouter interface {
	Classes() int
}

// AtomicAllocator is implemented by routing functions some of whose output
// VCs are allocated atomically: free for a new packet only when the
// downstream buffer is empty (routerShared.atomicAt).
type AtomicAllocator interface {
	// AtomicVCs is that set of VCs on the router-to-router ports, where
	// Duato's check asks for it.
	AtomicVCs() uint64
	// AtomicVCsAt is the set on output port p of every router (port
	// numbers mean the same on every router of the topologies that have
	// such routings).
	AtomicVCsAt(p int) uint64
}

// Injector is implemented by routing functions whose packets start with a
// routing state (Flit.Route) other than 0. A routing decision may depend on
// the router, input port, destination, VC and Flit.Route only, which is what
// the channel dependency check enumerates.
type Injector interface {
	InjectRoute(src, dst int) uint8
}

// Escaper is implemented by adaptive routing functions whose deadlock
// freedom rests on an escape sub-function (Duato): the channel dependency
// graph is then that of the escape sub-function.
type Escaper interface {
	// Escape gives the escape candidates of a packet in the given state.
	Escape(r, in int, f *link.Flit, c *Candidates)
	// EscapeVCs is the set of VCs that form the escape channels.
	EscapeVCs() uint64
}

// RouteLatencies is implemented by routing functions whose routes are not
// the topology's minimal ones where its links differ in latency (up*/down*
// on a graph from a file): ExtraCycles is the latency beyond
// linkLatencyCycles per link of the route a lone packet from node src to
// node dst takes (the least of them where it may take several).
type RouteLatencies interface {
	ExtraCycles(src, dst, linkLatencyCycles int) int
}

// RouteUpdater is implemented by routing functions that carry state in
// Flit.Route: Update is called once per packet per hop, when the head is
// granted VC f.VC of output port out of router r, and may change f.Route.
type RouteUpdater interface {
	Update(r, out int, f *link.Flit)
}

// Ports is the set of ports of all candidate groups.
func (c *Candidates) Ports() uint64 {
	var m uint64
	for g := 0; g < int(c.N); g++ {
		m |= c.G[g].Ports
	}
	return m
}

// ByName indexes registry lists by routing name, the later list's entry
// winning where two share a name.
func ByName(lists ...[]Spec) map[string]Spec {
	m := map[string]Spec{}
	for _, l := range lists {
		for _, s := range l {
			m[s.Name] = s
		}
	}
	return m
}

// New makes spec's function on t with vcs VCs, checking that it fits
// the topology and the VC count.
func New(spec Spec, t topology.Topology, vcs int) (Func, error) {
	if spec.New == nil {
		return nil, fmt.Errorf("routing function %q: not a registered routing (no constructor)", spec.Name)
	}
	if !slices.Contains(spec.Topologies, t.Kind()) {
		return nil, fmt.Errorf("routing function %q is not defined on a %s (allowed topologies: %s)",
			spec.Name, t.Kind(), strings.Join(spec.Topologies, ", "))
	}
	if spec.CheckTopology != nil {
		if err := spec.CheckTopology(t); err != nil {
			return nil, err
		}
	}
	if spec.CheckVCs != nil {
		if err := spec.CheckVCs(t, vcs); err != nil {
			return nil, err
		}
	}
	return spec.New(t, vcs), nil
}
