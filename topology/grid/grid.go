package grid

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/icnsim/icnsim/topology"
)

// Port numbers of a 2D router (topology.Plane's). Node ports follow,
// from PortLocal on.
const (
	PortXPlus  = topology.PlaneXPlus  // "E": towards x+1
	PortXMinus = topology.PlaneXMinus // "W": towards x-1
	PortYPlus  = topology.PlaneYPlus  // "N": towards y+1
	PortYMinus = topology.PlaneYMinus // "S": towards y-1
	PortLocal  = topology.PlaneLocal  // first node port
)

var _ topology.Plane = (*Grid2D)(nil)

// Side is k (topology.Plane).
func (g *Grid2D) Side() int { return g.K }

// Wraps reports a torus (topology.Plane).
func (g *Grid2D) Wraps() bool { return g.Wrap }

// Concentration is the nodes per router (topology.Plane).
func (g *Grid2D) Concentration() int { return g.C }

// Loopbacks is the loopback ports per router (topology.Plane).
func (g *Grid2D) Loopbacks() int { return len(g.Loops) }

func dirNames() [4]string {
	return [4]string{"E", "W", "N", "S"}
}

// Grid2D is a k x k torus (Wrap) or mesh with C endnodes per router
// (concentration). Router r sits at x = r mod K, y = r div K; node n is
// attached to router n div C by H channels (0 means 1), at ports
// PortLocal + (n mod C)*H + h for channel h: with H = 2 a node has one
// injection and sink channel per message class (Hybrid-HAR). Loops names
// the router's loopback ports, after the node ports: a loopback port's
// output is wired to its own input (the connection channels of
// Hybrid-HAR's virtual networks).
type Grid2D struct {
	K, C  int
	Wrap  bool
	H     int
	Loops []string
}

// NodeChannels is the number of channels between a node and its router.
func (g *Grid2D) NodeChannels() int { return max(g.H, 1) }

// NodeChannelPort is the router and port of channel h of node n; the
// channels of a node are consecutive ports.
func (g *Grid2D) NodeChannelPort(n, h int) (int, int) {
	return n / g.C, PortLocal + (n%g.C)*g.NodeChannels() + h
}

// LoopPort is the port of loopback i (an index into Loops).
func (g *Grid2D) LoopPort(i int) int { return PortLocal + g.C*g.NodeChannels() + i }

// NewTorus returns a k x k torus with one node per router.
func NewTorus(k int) (*Grid2D, error) {
	if k < 2 || k > 1024 {
		return nil, fmt.Errorf("torus size k = %d out of range (allowed: 2..1024)", k)
	}
	return &Grid2D{K: k, C: 1, Wrap: true}, nil
}

// NewMesh returns a k x k mesh with c nodes per router.
func NewMesh(k, c int) (*Grid2D, error) {
	if k < 2 || k > 1024 {
		return nil, fmt.Errorf("mesh size k = %d out of range (allowed: 2..1024)", k)
	}
	if c < 1 || c > 60 {
		return nil, fmt.Errorf("concentration c = %d out of range (allowed: 1..60)", c)
	}
	return &Grid2D{K: k, C: c}, nil
}

func (g *Grid2D) Kind() string {
	if g.Wrap {
		return "torus"
	}
	return "mesh"
}

func (g *Grid2D) String() string {
	s := fmt.Sprintf("%dx%d %s", g.K, g.K, g.Kind())
	if g.C > 1 {
		s += fmt.Sprintf(" with %d nodes per router", g.C)
	}
	if g.H > 1 {
		s += fmt.Sprintf(", %d channels per node", g.H)
	}
	if len(g.Loops) > 0 {
		s += ", loopback ports " + strings.Join(g.Loops, ", ")
	}
	return s
}

func (g *Grid2D) Routers() int { return g.K * g.K }

func (g *Grid2D) Nodes() int { return g.K * g.K * g.C }

func (g *Grid2D) Ports(int) int { return PortLocal + g.C*g.NodeChannels() + len(g.Loops) }

func (g *Grid2D) XY(r int) (x, y int) { return r % g.K, r / g.K }

func (g *Grid2D) Router(x, y int) int { return y*g.K + x }

func (g *Grid2D) Peer(r, p int) topology.Peer {
	if p >= PortLocal {
		if l := p - PortLocal - g.C*g.NodeChannels(); l >= 0 {
			return topology.Peer{Router: r, Port: p, Node: -1} // loopback
		}
		return topology.Peer{Router: -1, Port: -1, Node: r*g.C + (p-PortLocal)/g.NodeChannels()}
	}
	x, y := g.XY(r)
	dx, dy := 0, 0
	switch p {
	case PortXPlus:
		dx = 1
	case PortXMinus:
		dx = -1
	case PortYPlus:
		dy = 1
	case PortYMinus:
		dy = -1
	}
	nx, ny := x+dx, y+dy
	if g.Wrap {
		nx, ny = (nx+g.K)%g.K, (ny+g.K)%g.K
	} else if nx < 0 || ny < 0 || nx >= g.K || ny >= g.K {
		return topology.Unconnected()
	}
	return topology.Peer{Router: g.Router(nx, ny), Port: p ^ 1, Node: -1}
}

func (g *Grid2D) NodePort(n int) (int, int) { return g.NodeChannelPort(n, 0) }

func (g *Grid2D) RouterName(r int) string {
	x, y := g.XY(r)
	return "R(" + strconv.Itoa(x) + "," + strconv.Itoa(y) + ")"
}

func (g *Grid2D) PortName(r, p int) string {
	if p < PortLocal {
		return g.RouterName(r) + "." + dirNames()[p]
	}
	H := g.NodeChannels()
	if l := p - PortLocal - g.C*H; l >= 0 {
		return g.RouterName(r) + "." + g.Loops[l]
	}
	name := g.RouterName(r) + ".L"
	if g.C > 1 {
		name += strconv.Itoa((p - PortLocal) / H)
	}
	if H > 1 {
		name += "[" + strconv.Itoa((p-PortLocal)%H) + "]"
	}
	return name
}

func (g *Grid2D) NodeName(n int) string { return "NI " + strconv.Itoa(n) }

// Diameter is 2 floor(k/2) on a torus, 2(k-1) on a mesh.
func (g *Grid2D) Diameter() int {
	if g.Wrap {
		return 2 * (g.K / 2)
	}
	return 2 * (g.K - 1)
}

// Units are the rows of the grid.
func (g *Grid2D) Units() []int {
	u := make([]int, g.K)
	for y := range u {
		u[y] = y * g.K
	}
	return u
}

// RouteTableBytes is the memory of the tables the grids' routings keep:
// coordinates per router and a router and port per node
// (topology.RouteTables).
func (g *Grid2D) RouteTableBytes() int64 { return 8*int64(g.Routers()) + 8*int64(g.Nodes()) }

// PortClass is the direction of network port p (topology.PortClasses):
// x+, x-, y+ or y-.
func (g *Grid2D) PortClass(_, p int) string {
	switch p {
	case PortXPlus:
		return "x+"
	case PortXMinus:
		return "x-"
	case PortYPlus:
		return "y+"
	case PortYMinus:
		return "y-"
	}
	return "network"
}
