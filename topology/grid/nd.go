package grid

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/icnsim/icnsim/topology"
)

// MaxDimensions is the most dimensions of a grid (Tofu's 6-D torus and
// room beyond it).
const MaxDimensions = 8

// GridND is a torus (Wrap) or mesh of any number of dimensions n, each of
// its own radix Radix[d] >= 2, with C nodes per router: the k-ary n-cube
// of BookSim2's kncube and SST's torus. Router r sits at coordinates a_d =
// (r / stride_d) mod Radix[d], stride_0 = 1 (dimension 0 varies fastest).
// Its ports are, for each dimension d, 2d towards a_d + 1 and 2d + 1
// towards a_d - 1, then the node ports from 2n on. On two dimensions of
// equal radix this is Grid2D's numbering of routers and ports, and the
// n-D routings there take Grid2D's decisions (TestGridNDIsGrid2D).
type GridND struct {
	Radix []int
	C     int
	Wrap  bool
	// stride[d] is the router-number weight of coordinate d.
	stride  []int
	routers int
}

// NewGridND returns the torus (wrap) or mesh of the given radices with c
// nodes per router.
func NewGridND(radix []int, c int, wrap bool) (*GridND, error) {
	if len(radix) < 1 || len(radix) > MaxDimensions {
		return nil, fmt.Errorf("%d dimensions (allowed: 1..%d)", len(radix), MaxDimensions)
	}
	if c < 1 || c > MaxConcentration {
		return nil, fmt.Errorf("concentration c = %d out of range (allowed: 1..%d)", c, MaxConcentration)
	}
	g := &GridND{Radix: append([]int(nil), radix...), C: c, Wrap: wrap, stride: make([]int, len(radix))}
	n := 1
	for d, k := range radix {
		if k < 2 || k > MaxK {
			return nil, fmt.Errorf("dimension %d: radix %d out of range (allowed: 2..%d)", d, k, MaxK)
		}
		g.stride[d] = n
		if n *= k; n > 1<<22 {
			return nil, fmt.Errorf("a %s grid has more than 2^22 routers", sidesWords(radix))
		}
	}
	g.routers = n
	return g, nil
}

// sidesWords is "16x16x16".
func sidesWords(radix []int) string {
	s := make([]string, len(radix))
	for d, k := range radix {
		s[d] = strconv.Itoa(k)
	}
	return strings.Join(s, "x")
}

// Dims is n.
func (g *GridND) Dims() int { return len(g.Radix) }

// Coord is coordinate d of router r.
func (g *GridND) Coord(r, d int) int { return r / g.stride[d] % g.Radix[d] }

// Stride is the router-number weight of coordinate d.
func (g *GridND) Stride(d int) int { return g.stride[d] }

func (g *GridND) Kind() string {
	if g.Wrap {
		return "torus"
	}
	return "mesh"
}

func (g *GridND) String() string {
	s := sidesWords(g.Radix) + " " + g.Kind()
	if g.C > 1 {
		s += fmt.Sprintf(" with %d nodes per router", g.C)
	}
	return s
}

func (g *GridND) Routers() int { return g.routers }

func (g *GridND) Nodes() int { return g.routers * g.C }

func (g *GridND) Ports(int) int { return 2*len(g.Radix) + g.C }

// Local is the first node port, 2n.
func (g *GridND) Local() int { return 2 * len(g.Radix) }

func (g *GridND) Peer(r, p int) topology.Peer {
	if l := g.Local(); p >= l {
		return topology.Peer{Router: -1, Port: -1, Node: r*g.C + p - l}
	}
	d, k := p/2, g.Radix[p/2]
	a := g.Coord(r, d)
	b := a + 1
	if p%2 == 1 {
		b = a - 1
	}
	switch {
	case g.Wrap:
		b = (b + k) % k
	case b < 0 || b >= k:
		return topology.Unconnected()
	}
	return topology.Peer{Router: r + (b-a)*g.stride[d], Port: p ^ 1, Node: -1}
}

func (g *GridND) NodePort(n int) (int, int) { return n / g.C, g.Local() + n%g.C }

func (g *GridND) RouterName(r int) string {
	s := make([]string, len(g.Radix))
	for d := range s {
		s[d] = strconv.Itoa(g.Coord(r, d))
	}
	return "R(" + strings.Join(s, ",") + ")"
}

// dimName names dimension d: x, y, z, then d3, d4, ...
func dimName(d int) string {
	if d < 3 {
		return string("xyz"[d])
	}
	return "d" + strconv.Itoa(d)
}

func (g *GridND) PortName(r, p int) string {
	if l := g.Local(); p >= l {
		name := g.RouterName(r) + ".L"
		if g.C > 1 {
			name += strconv.Itoa(p - l)
		}
		return name
	}
	return g.RouterName(r) + "." + g.PortClass(r, p)
}

func (g *GridND) NodeName(n int) string { return "NI " + strconv.Itoa(n) }

// Diameter is the sum over the dimensions of floor(k/2) on a torus, k-1
// on a mesh.
func (g *GridND) Diameter() int {
	h := 0
	for _, k := range g.Radix {
		if g.Wrap {
			h += k / 2
		} else {
			h += k - 1
		}
	}
	return h
}

// Units are the lines of dimension 0 (sharding keeps each together).
func (g *GridND) Units() []int {
	u := make([]int, g.routers/g.Radix[0])
	for i := range u {
		u[i] = i * g.Radix[0]
	}
	return u
}

// RouteTableBytes is the memory of the tables the n-D routings keep:
// coordinates per router and dimension, a router and port per node
// (topology.RouteTables).
func (g *GridND) RouteTableBytes() int64 {
	return 4*int64(g.routers)*int64(len(g.Radix)) + 8*int64(g.Nodes())
}

// PortClass is the dimension and direction of network port p
// (topology.PortClasses): x+, x-, y+, ..., d3+, ...
func (g *GridND) PortClass(_, p int) string {
	if p >= g.Local() {
		return "network"
	}
	if p%2 == 0 {
		return dimName(p/2) + "+"
	}
	return dimName(p/2) + "-"
}

// Sides is the routers of each dimension (traffic.Gridded).
func (g *GridND) Sides() []int { return g.Radix }

// Concentration is the nodes per router (traffic.Gridded).
func (g *GridND) Concentration() int { return g.C }
