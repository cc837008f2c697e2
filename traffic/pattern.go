// Package traffic owns what the network interfaces send: destination
// patterns (pure functions of the source, using the NI's own PRNG where they
// are random), arrival processes (Bernoulli, Poisson, saturation, collective
// burst) with phase changes, and packet sizes. It implements fabric.Source;
// each NI gets a Source of its own with its own PCG stream, so traffic is a
// pure function of (configuration, seed) whatever executor runs it.
//
// Bit patterns (Table 1 of the extended entropy paper) treat a node number as
// a b-bit word w_{b-1}..w_0 and need a power-of-two node count; coordinate
// patterns (transpose, tornado, centre reflection, neighbour) act on the
// router coordinates of a k x k grid and keep the node's slot at its router.
//
// It may import fabric, topology, link and clock only.
package traffic

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/icnsim/icnsim/topology"
)

// Geometry is what a pattern needs to know of the network.
type Geometry struct {
	Nodes int
	K     int // side of the k x k router grid; 0 when the topology is not a grid
	C     int // nodes per router on a grid
	// Groups and GroupNodes are a dragonfly's groups and nodes per group
	// (0 elsewhere).
	Groups, GroupNodes int
	// Line and RouterNodes are a HyperX's routers per dimension and nodes
	// per router (0 elsewhere).
	Line, RouterNodes int
	// Dims and Sides are the dimensions and routers per dimension of a
	// grid of any number of dimensions that is not a k x k one (Gridded;
	// 0 elsewhere), whose routers are numbered with dimension 0 varying
	// fastest; C is then its nodes per router.
	Dims  int
	Sides [MaxGridDims]int
}

// MaxGridDims is the most dimensions of a grid a pattern reads.
const MaxGridDims = 8

// Gridded is implemented by grids of any number of dimensions
// (grid.GridND): the coordinate patterns read their sides.
type Gridded interface {
	Sides() []int
	Concentration() int
}

// ndGrid reports a grid of Dims dimensions (not a k x k one).
func (g Geometry) ndGrid() bool { return g.K == 0 && g.Dims > 0 }

// ndPerm maps the router coordinates of a node on an n-D grid by f (in
// place), keeping its slot at its router.
func ndPerm(g Geometry, f func(a, sides []int)) Pattern {
	sides := g.Sides[:g.Dims]
	return patternFunc(func(src int, _ *rand.Rand) int {
		var at [MaxGridDims]int
		a := at[:g.Dims]
		r, l := src/g.C, src%g.C
		for d, k := range sides {
			a[d], r = r%k, r/k
		}
		f(a, sides)
		r = 0
		for d := len(sides) - 1; d >= 0; d-- {
			r = r*sides[d] + a[d]
		}
		return r*g.C + l
	})
}

// Grouped is implemented by topologies of groups of routers (a
// dragonfly's groups, a fat-tree's pods): group-shift reads it.
type Grouped interface {
	Groups() int
	GroupNodes() int // nodes per group
}

// Lined is implemented by topologies whose routers lie on lines of equal
// length (a HyperX's dimensions): dimension-shift reads it.
type Lined interface {
	LineRouters() int // routers per line (per dimension)
	RouterNodes() int // nodes per router
}

// GeometryOf is the geometry of topology t, read from its capabilities: a
// grid's side and concentration (topology.Plane), a dragonfly's groups
// (Grouped), a HyperX's lines (Lined).
func GeometryOf(t topology.Topology) Geometry {
	g := Geometry{Nodes: t.Nodes()}
	if p, ok := t.(topology.Plane); ok {
		g.K, g.C = p.Side(), p.Concentration()
	} else if gr, ok := t.(Gridded); ok && len(gr.Sides()) <= MaxGridDims {
		g.Dims, g.C = len(gr.Sides()), gr.Concentration()
		copy(g.Sides[:], gr.Sides())
	}
	if gr, ok := t.(Grouped); ok {
		g.Groups, g.GroupNodes = gr.Groups(), gr.GroupNodes()
	}
	if l, ok := t.(Lined); ok {
		g.Line, g.RouterNodes = l.LineRouters(), l.RouterNodes()
	}
	return g
}

// Pattern maps a source node to a destination node.
type Pattern interface {
	Dest(src int, rng *rand.Rand) int
}

// PatternSpec describes a registered pattern.
type PatternSpec struct {
	Name string
	Doc  string
	Bits bool // needs a power-of-two node count
	Grid bool // needs a k x k grid
	// Groups and Lines: the pattern needs a topology of groups (Grouped)
	// or of lines of routers (Lined).
	Groups, Lines bool
	// Topologies name the families the pattern is defined on, for the
	// configuration's check and its messages (nil for any).
	Topologies []string
	New        func(g Geometry, p PatternParams) Pattern
	Permutes   bool // a permutation (deterministic, one destination per source)
	// Spread, where set, visits every destination src sends to with the
	// share of its packets that go there (the shares sum to 1): what the
	// channel-load bound needs of a random pattern beside uniform.
	Spread func(g Geometry, p PatternParams, src int, visit func(dst int, share float64))
}

// PatternParams are the parameters some patterns take.
type PatternParams struct {
	HotspotFraction       float64 // share of packets sent to the hot-spot node (hotspot)
	HotspotSourceFraction float64 // share of sources sending every packet to it (hotspot-sources)
	HotspotNode           int     // -1: the node at the grid centre (or node N/2)
	HotRegionFraction     float64 // share of packets sent to nodes 0..N/8-1
	Seed                  uint64  // for the random permutation
}

type patternFunc func(src int, rng *rand.Rand) int

func (f patternFunc) Dest(src int, rng *rand.Rand) int { return f(src, rng) }

func log2(n int) int { return bits.Len(uint(n)) - 1 }

// Patterns returns the registry of destination patterns by name.
func Patterns() map[string]PatternSpec {
	bitPerm := func(name, doc string, f func(w, b int) int) PatternSpec {
		return PatternSpec{Name: name, Doc: doc, Bits: true, Permutes: true, New: func(g Geometry, _ PatternParams) Pattern {
			b := log2(g.Nodes)
			return patternFunc(func(src int, _ *rand.Rand) int { return f(src, b) })
		}}
	}
	// gridPerm is a coordinate permutation: f on a k x k grid, nd (of the
	// coordinates and sides, in place) on any other, the same map on two
	// equal sides.
	gridPerm := func(name, doc string, f func(x, y, k int) (int, int), nd func(a, sides []int)) PatternSpec {
		return PatternSpec{Name: name, Doc: doc, Grid: true, Permutes: true, New: func(g Geometry, _ PatternParams) Pattern {
			if g.ndGrid() {
				return ndPerm(g, nd)
			}
			return patternFunc(func(src int, _ *rand.Rand) int {
				r, l := src/g.C, src%g.C
				x, y := f(r%g.K, r/g.K, g.K)
				return (y*g.K+x)*g.C + l
			})
		}}
	}
	return map[string]PatternSpec{
		"uniform": {Name: "uniform", Doc: "uniform random over all nodes (the source included, as Dally & Towles and BookSim2)",
			New: func(g Geometry, _ PatternParams) Pattern {
				return patternFunc(func(_ int, rng *rand.Rand) int { return rng.IntN(g.Nodes) })
			}},
		"random-pair": {Name: "random-pair", Doc: "a fixed random permutation drawn from the seed (rpar)", Permutes: true,
			New: func(g Geometry, p PatternParams) Pattern {
				perm := rand.New(rand.NewPCG(p.Seed, 0x7261_6e64_7065_726d)).Perm(g.Nodes)
				return patternFunc(func(src int, _ *rand.Rand) int { return perm[src] })
			}},
		"transpose": {Name: "transpose", Permutes: true,
			Doc: "(x, y) -> (y, x) on a grid (trns), the coordinates in reverse order on an n-D grid (its sides read the same both ways); elsewhere the two halves of the address swap (needs 2^(2m) nodes)",
			New: func(g Geometry, p PatternParams) Pattern {
				if g.K > 0 || g.ndGrid() {
					return gridPerm("", "", func(x, y, _ int) (int, int) { return y, x }, func(a, _ []int) { slices.Reverse(a) }).New(g, p)
				}
				h := log2(g.Nodes) / 2
				return patternFunc(func(src int, _ *rand.Rand) int { return src>>h | (src&(1<<h-1))<<h })
			}},
		"butterfly": bitPerm("butterfly", "swap the most and least significant address bits", func(w, b int) int {
			lo, hi := w&1, w>>(b-1)&1
			return w&^(1|1<<(b-1)) | hi | lo<<(b-1)
		}),
		"hot-region": {Name: "hot-region", Doc: "a share hot_region_fraction of packets to nodes 0..N/8-1 (uniformly), the rest uniform over all nodes",
			New: func(g Geometry, p PatternParams) Pattern {
				region := max(1, g.Nodes/8)
				return patternFunc(func(_ int, rng *rand.Rand) int {
					if rng.Float64() < p.HotRegionFraction {
						return rng.IntN(region)
					}
					return rng.IntN(g.Nodes)
				})
			}},
		"shuffle": bitPerm("shuffle", "perfect shuffle: rotate the address left by one bit (shfl)", func(w, b int) int {
			return (w<<1 | w>>(b-1)) & (1<<b - 1)
		}),
		"bit-complement": bitPerm("bit-complement", "complement every address bit (bcmp)", func(w, b int) int { return ^w & (1<<b - 1) }),
		"bit-reverse": bitPerm("bit-reverse", "reverse the address bits (brev)", func(w, b int) int {
			return int(bits.Reverse64(uint64(w)) >> (64 - b))
		}),
		"bit-rotation": bitPerm("bit-rotation", "rotate the address right by one bit (brot)", func(w, b int) int {
			return (w>>1 | (w&1)<<(b-1)) & (1<<b - 1)
		}),
		"tornado": {Name: "tornado", Doc: "router W -> (W + k/2) mod k^2, the extended entropy paper's definition (torn); on an n-D grid W -> (W + k_0/2) mod R, R its routers", Grid: true, Permutes: true,
			New: func(g Geometry, _ PatternParams) Pattern {
				n, half := g.K*g.K, g.K/2
				if g.ndGrid() {
					n, half = g.Nodes/g.C, g.Sides[0]/2
				}
				return patternFunc(func(src int, _ *rand.Rand) int {
					r, l := src/g.C, src%g.C
					return ((r+half)%n)*g.C + l
				})
			}},
		"centre-reflection": gridPerm("centre-reflection", "(x, y) -> (k-1-x, k-1-y); every coordinate a_d -> k_d-1-a_d on an n-D grid", func(x, y, k int) (int, int) { return k - 1 - x, k - 1 - y },
			func(a, sides []int) {
				for d, k := range sides {
					a[d] = k - 1 - a[d]
				}
			}),
		"centre-reflection-k": gridPerm("centre-reflection-k", "(x, y) -> ((k-x) mod k, (k-y) mod k): the Hybrid-HAR paper's (16-x, 16-y) on a 16x16 mesh read with coordinates 0..k-1, the off-grid k of a coordinate 0 taken mod k (rows and columns 0 and k/2 keep that coordinate; routers (0,0), (0,k/2), (k/2,0), (k/2,k/2) are fixed points); every coordinate on an n-D grid",
			func(x, y, k int) (int, int) { return (k - x) % k, (k - y) % k },
			func(a, sides []int) {
				for d, k := range sides {
					a[d] = (k - a[d]) % k
				}
			}),
		"neighbour": gridPerm("neighbour", "(x, y) -> (x+1 mod k, y); a_0 -> a_0+1 mod k_0 on an n-D grid", func(x, y, k int) (int, int) { return (x + 1) % k, y },
			func(a, sides []int) { a[0] = (a[0] + 1) % sides[0] }),
		"group-shift": {Name: "group-shift", Topologies: []string{"dragonfly", "dragonflyplus", "fattree"}, Groups: true,
			Doc: "dragonfly and Dragonfly+ worst case (Kim et al.): every node of group i sends to a node of group i+1 mod g drawn uniformly; on a fat-tree the groups are the k pods (subtrees below the roots), so every packet climbs to the roots, the worst case of a tapered tree",
			New: func(g Geometry, _ PatternParams) Pattern {
				return patternFunc(func(src int, rng *rand.Rand) int {
					return (src/g.GroupNodes+1)%g.Groups*g.GroupNodes + rng.IntN(g.GroupNodes)
				})
			},
			Spread: func(g Geometry, _ PatternParams, src int, visit func(dst int, share float64)) {
				first := (src/g.GroupNodes + 1) % g.Groups * g.GroupNodes
				for d := range g.GroupNodes {
					visit(first+d, 1/float64(g.GroupNodes))
				}
			}},
		"pod-shift": {Name: "pod-shift", Topologies: []string{"fattree"}, Groups: true, Permutes: true,
			Doc: "fat-tree worst case: node n sends to node n + N/k mod N, its place in the next pod (subtree below the roots), so every packet climbs to the roots; a shift permutation, which D-mod-K routing spreads evenly over every level's links (Zahavi), so the tapering alone bounds it",
			New: func(g Geometry, _ PatternParams) Pattern {
				return patternFunc(func(src int, _ *rand.Rand) int { return (src + g.GroupNodes) % g.Nodes })
			}},
		"dimension-shift": {Name: "dimension-shift", Topologies: []string{"hyperx", "slimfly"}, Lines: true,
			Doc: "HyperX and Slim Fly adversarial shift: every node of the router at coordinate x of dimension 0 sends to a node, drawn uniformly, of the router at x+1 mod k (the other coordinates kept), so minimal routing funnels each router's nodes through one link (on a Slim Fly the line is the q routers (s, a, b) that differ in a, and the shift's two-hop paths meet two by two on the links of the routers with a = 0)",
			New: func(g Geometry, _ PatternParams) Pattern {
				return patternFunc(func(src int, rng *rand.Rand) int {
					r := src / g.RouterNodes
					r += (r%g.Line+1)%g.Line - r%g.Line
					return r*g.RouterNodes + rng.IntN(g.RouterNodes)
				})
			},
			Spread: func(g Geometry, _ PatternParams, src int, visit func(dst int, share float64)) {
				r := src / g.RouterNodes
				r += (r%g.Line+1)%g.Line - r%g.Line
				for d := range g.RouterNodes {
					visit(r*g.RouterNodes+d, 1/float64(g.RouterNodes))
				}
			}},
		"hotspot": {Name: "hotspot", Doc: "a share hotspot_fraction of packets to the hot-spot node (default: the centre), the rest uniform",
			New: func(g Geometry, p PatternParams) Pattern {
				h := hotspotNode(g, p)
				return patternFunc(func(_ int, rng *rand.Rand) int {
					if rng.Float64() < p.HotspotFraction {
						return h
					}
					return rng.IntN(g.Nodes)
				})
			}},
		"hotspot-sources": {Name: "hotspot-sources",
			Doc: "a share hotspot_source_fraction of the sources send every packet to the hot-spot node (default: the centre), the others uniform (the RECN paper's traffic cases); the hot sources are a fixed random set drawn from the seed, the hot-spot node not among them",
			New: func(g Geometry, p PatternParams) Pattern {
				hot := HotSources(g, p)
				h := hotspotNode(g, p)
				return patternFunc(func(src int, rng *rand.Rand) int {
					if hot[src] {
						return h
					}
					return rng.IntN(g.Nodes)
				})
			}},
	}
}

// hotspotNode is the hot-spot node of p: HotspotNode, or for -1 the node
// at the grid's centre (node N/2 elsewhere).
func hotspotNode(g Geometry, p PatternParams) int {
	if p.HotspotNode >= 0 {
		return p.HotspotNode
	}
	if g.K > 0 {
		return ((g.K/2)*g.K + g.K/2) * g.C
	}
	if g.ndGrid() { // the router at k_d/2 in every dimension
		r := 0
		for d := g.Dims - 1; d >= 0; d-- {
			r = r*g.Sides[d] + g.Sides[d]/2
		}
		return r * g.C
	}
	return g.Nodes / 2
}

// HotSources is the set of sources that the hotspot-sources pattern sends
// to the hot-spot node: round(HotspotSourceFraction x N) of them (at most
// N-1), the first of a random permutation of the nodes drawn from the
// seed, skipping the hot-spot node (a node sending to itself loads no
// link). The same configuration and seed always give the same set.
func HotSources(g Geometry, p PatternParams) []bool {
	h := hotspotNode(g, p)
	n := min(int(math.Round(p.HotspotSourceFraction*float64(g.Nodes))), g.Nodes-1)
	hot := make([]bool, g.Nodes)
	for _, s := range rand.New(rand.NewPCG(p.Seed, 0x686f_7473_7263_7321)).Perm(g.Nodes) {
		if n == 0 {
			break
		}
		if s != h {
			hot[s] = true
			n--
		}
	}
	return hot
}

// TransposeSides refuses a grid whose coordinates transpose cannot
// reverse: its sides must read the same both ways.
func TransposeSides(sides []int) error {
	for d := range sides {
		if sides[d] != sides[len(sides)-1-d] {
			return fmt.Errorf("transpose reverses the coordinates: the sides %v must read the same both ways", sides)
		}
	}
	return nil
}

// PatternNames lists the registered patterns, sorted.
func PatternNames() []string {
	reg := Patterns()
	names := make([]string, 0, len(reg))
	for n := range reg {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// NewPattern builds a pattern, refusing combinations it is not defined on.
func NewPattern(name string, g Geometry, p PatternParams) (Pattern, error) {
	spec, ok := Patterns()[name]
	if !ok {
		return nil, fmt.Errorf("unknown pattern %q (allowed: %s)", name, strings.Join(PatternNames(), ", "))
	}
	if spec.Bits && (g.Nodes < 2 || g.Nodes&(g.Nodes-1) != 0) {
		return nil, fmt.Errorf("pattern %q needs a power-of-two node count, the network has %d nodes", name, g.Nodes)
	}
	if spec.Grid && g.K == 0 && !g.ndGrid() {
		return nil, fmt.Errorf("pattern %q needs a grid topology", name)
	}
	if name == "transpose" && g.ndGrid() {
		if err := TransposeSides(g.Sides[:g.Dims]); err != nil {
			return nil, err
		}
	}
	if spec.Groups && g.Groups < 2 || spec.Lines && g.Line < 2 {
		return nil, fmt.Errorf("pattern %q needs a %s", name, strings.Join(spec.Topologies, " or "))
	}
	if name == "transpose" && g.K == 0 && !g.ndGrid() && (g.Nodes&(g.Nodes-1) != 0 || log2(g.Nodes)%2 != 0) {
		return nil, fmt.Errorf("pattern %q swaps the halves of the address and needs 2^(2m) nodes, the network has %d", name, g.Nodes)
	}
	if name == "hotspot" || name == "hotspot-sources" {
		if p.HotspotFraction < 0 || p.HotspotFraction > 1 {
			return nil, fmt.Errorf("hotspot_fraction = %g out of range (allowed: 0..1)", p.HotspotFraction)
		}
		if p.HotspotSourceFraction < 0 || p.HotspotSourceFraction > 1 {
			return nil, fmt.Errorf("hotspot_source_fraction = %g out of range (allowed: 0..1)", p.HotspotSourceFraction)
		}
		if p.HotspotNode >= g.Nodes || p.HotspotNode < -1 {
			return nil, fmt.Errorf("hotspot_node = %d out of range (allowed: -1 for the centre, or 0..%d)", p.HotspotNode, g.Nodes-1)
		}
	}
	return spec.New(g, p), nil
}
