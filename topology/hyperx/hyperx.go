package hyperx

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/icnsim/icnsim/topology"
)

// HyperX is the HyperX of Ahn, Binkert, Davis, McLaren and Schreiber (SC
// 2009), of which the flattened butterfly (Kim, Dally and Abts, ISCA 2007)
// is the case T = 1: L dimensions of S routers each, S^L routers, each
// fully connected to the S-1 others that differ from it in one
// coordinate, by T parallel links (trunking); p nodes per router.
//
// Router r has coordinates r = sum c_d S^d. Its ports are, in order: p
// node ports (node r*p + j on port j), then for each dimension d, for
// each other coordinate value x of that dimension in increasing order
// (skipping its own), T ports: port p + ((d*(S-1) + j)*T + t for the j-th
// other value and trunk t.
type HyperX struct {
	S, L, T, P int
	pow        []int // pow[d] = S^d
	// coord[r*L+d] is coordinate d of router r, and portDim[p-P] the
	// dimension, other-value index j and trunk of network port p: the
	// routings read them per hop, and the deadlock check per state, where
	// the divisions they replace took a third of a 16x16x16 HyperX's check.
	coord   []uint8
	portDim []struct{ d, j, t uint8 }
}

// NewHyperX returns a HyperX, or an error naming the impossible parameter.
func NewHyperX(s, l, t, p int) (*HyperX, error) {
	switch {
	case s < 2 || s > 64:
		return nil, fmt.Errorf("hyperx routers per dimension S = %d out of range (allowed: 2..64)", s)
	case l < 1 || l > 8:
		return nil, fmt.Errorf("hyperx dimensions L = %d out of range (allowed: 1..8)", l)
	case t < 1 || t > 8:
		return nil, fmt.Errorf("hyperx trunking T = %d out of range (allowed: 1..8)", t)
	case p < 1 || p > 32:
		return nil, fmt.Errorf("hyperx nodes per router p = %d out of range (allowed: 1..32)", p)
	case p+l*(s-1)*t > 64:
		return nil, fmt.Errorf("hyperx routers have p + L(S-1)T = %d ports (at most 64)", p+l*(s-1)*t)
	}
	h := &HyperX{S: s, L: l, T: t, P: p, pow: make([]int, l+1)}
	h.pow[0] = 1
	for d := 1; d <= l; d++ {
		h.pow[d] = h.pow[d-1] * s
		if h.pow[d] > 1<<20 {
			return nil, fmt.Errorf("hyperx %d^%d has more than 2^20 routers", s, l)
		}
	}
	h.coord = make([]uint8, h.pow[l]*l)
	for r := 0; r < h.pow[l]; r++ {
		for d := 0; d < l; d++ {
			h.coord[r*l+d] = uint8(r / h.pow[d] % s)
		}
	}
	h.portDim = make([]struct{ d, j, t uint8 }, l*(s-1)*t)
	for q := range h.portDim {
		h.portDim[q].t = uint8(q % t)
		h.portDim[q].d, h.portDim[q].j = uint8(q/t/(s-1)), uint8(q/t%(s-1))
	}
	return h, nil
}

func (h *HyperX) Kind() string { return "hyperx" }

func (h *HyperX) String() string {
	dims := make([]string, h.L)
	for d := range dims {
		dims[d] = strconv.Itoa(h.S)
	}
	s := strings.Join(dims, "x") + " hyperx"
	if h.T > 1 {
		s += fmt.Sprintf(", trunking %d", h.T)
	}
	return s + fmt.Sprintf(", %d nodes per router", h.P)
}

func (h *HyperX) Routers() int { return h.pow[h.L] }

func (h *HyperX) Nodes() int { return h.pow[h.L] * h.P }

func (h *HyperX) Ports(int) int { return h.P + h.L*(h.S-1)*h.T }

// Coord is coordinate d of router r.
func (h *HyperX) Coord(r, d int) int { return int(h.coord[r*h.L+d]) }

// WithCoord is router r with coordinate d set to x.
func (h *HyperX) WithCoord(r, d, x int) int { return r + (x-h.Coord(r, d))*h.pow[d] }

// Port is the port of router r towards coordinate x of dimension d (x
// differs from r's), trunk t.
func (h *HyperX) Port(r, d, x, t int) int {
	j := x
	if x > h.Coord(r, d) {
		j--
	}
	return h.P + (d*(h.S-1)+j)*h.T + t
}

// PortDim is the dimension, target coordinate and trunk of network port p
// of router r.
func (h *HyperX) PortDim(r, p int) (d, x, t int) {
	pd := h.portDim[p-h.P]
	d, x, t = int(pd.d), int(pd.j), int(pd.t)
	if x >= h.Coord(r, d) {
		x++
	}
	return d, x, t
}

func (h *HyperX) Peer(r, p int) topology.Peer {
	if p < h.P {
		return topology.Peer{Router: -1, Port: -1, Node: r*h.P + p}
	}
	d, x, t := h.PortDim(r, p)
	to := h.WithCoord(r, d, x)
	return topology.Peer{Router: to, Port: h.Port(to, d, h.Coord(r, d), t), Node: -1}
}

func (h *HyperX) NodePort(n int) (int, int) { return n / h.P, n % h.P }

func (h *HyperX) RouterName(r int) string {
	var b strings.Builder
	b.WriteString("R(")
	for d := 0; d < h.L; d++ {
		if d > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(h.Coord(r, d)))
	}
	b.WriteByte(')')
	return b.String()
}

func (h *HyperX) PortName(r, p int) string {
	if p < h.P {
		return h.RouterName(r) + ".n" + strconv.Itoa(p)
	}
	d, x, t := h.PortDim(r, p)
	s := h.RouterName(r) + ".d" + strconv.Itoa(d) + "=" + strconv.Itoa(x)
	if h.T > 1 {
		s += "t" + strconv.Itoa(t)
	}
	return s
}

func (h *HyperX) NodeName(n int) string { return "NI " + strconv.Itoa(n) }

// Diameter is L: one hop per dimension.
func (h *HyperX) Diameter() int { return h.L }

// Units are the lines of dimension 0 (S routers each).
func (h *HyperX) Units() []int {
	u := make([]int, h.pow[h.L]/h.S)
	for i := range u {
		u[i] = i * h.S
	}
	return u
}

// EccentricityRepresentatives is 1: every router has router 0's
// eccentricity (a HyperX is vertex-transitive: a permutation of the
// values of each coordinate is an automorphism).
func (h *HyperX) EccentricityRepresentatives() int { return 1 }

// LineRouters is S, the routers per dimension (traffic.Lined).
func (h *HyperX) LineRouters() int { return h.S }

// RouterNodes is p, the nodes per router (traffic.Lined).
func (h *HyperX) RouterNodes() int { return h.P }

// PortClass is the dimension of network port p of router r
// (topology.PortClasses): "dim 0", "dim 1", ...
func (h *HyperX) PortClass(r, p int) string {
	d, _, _ := h.PortDim(r, p)
	return "dim " + strconv.Itoa(d)
}
