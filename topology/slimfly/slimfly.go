package slimfly

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/icnsim/icnsim/topology"
)

// SlimFly is the Slim Fly of Besta and Hoefler (SC 2014): the
// McKay-Miller-Siran graph over the field F_q, q = 4w + d a prime power
// (d in {-1, 0, 1}), of diameter 2 and network radix k' = (3q - d)/2,
// with P nodes per router.
//
// Its 2q^2 routers are (0, x, y) and (1, m, c), x, y, m, c in F_q, joined
// by the MMS rule with xi a primitive element and the generator sets
//
//   - d = 1: X = {xi^0, xi^2, ..., xi^(q-3)}, X' = {xi^1, xi^3, ..., xi^(q-2)};
//   - d = -1: X = {xi^0, xi^2, ..., xi^(2w-2), xi^(2w-1), xi^(2w+1), ..., xi^(4w-3)},
//     X' = {xi^1, xi^3, ..., xi^(2w-1), xi^(2w), xi^(2w+2), ..., xi^(4w-2)};
//   - d = 0: X = {xi^0, xi^2, ..., xi^(q-2)}, X' = {xi^1, xi^3, ..., xi^(q-1)}:
//
// (0, x, y) ~ (0, x, y') when y - y' is in X, (1, m, c) ~ (1, m, c') when
// c - c' is in X', and (0, x, y) ~ (1, m, c) when y = m*x + c.
//
// Router (s, a, b) is number s*q^2 + b*q + a: the q routers that differ
// only in a (x or m) are consecutive, a line (traffic.Lined: the
// coordinate shift a -> a+1 mod q moves every router's traffic two hops,
// through one router of the other subgraph). A router's ports are, in
// order, P node ports (node r*P + j on port j) and its k' neighbours in
// increasing router number.
type SlimFly struct {
	Q, P  int
	delta int
	f     *field
	inX   [2][]bool // inX[s][e]: e is in X (s = 0) or X' (s = 1)
	k     int       // k', the network radix
	nbr   []int32   // nbr[r*k + i]: router r's i-th neighbour
	back  []uint8   // back[r*k + i]: the port index i' of r among nbr's
}

// New returns the Slim Fly of q and p nodes per router, or an error
// naming the impossible parameter.
func New(q, p int) (*SlimFly, error) {
	f, err := newField(q)
	if err != nil {
		return nil, err
	}
	delta := q % 4
	switch delta {
	case 2:
		return nil, fmt.Errorf("slim fly q = %d: q = 4w + d needs d in -1, 0, 1", q)
	case 3:
		delta = -1
	}
	k := (3*q - delta) / 2
	if p < 1 || p+k > topology.MaxPorts {
		return nil, fmt.Errorf("slim fly q = %d, p = %d: routers of %d + %d ports (at most %d)", q, p, p, k, topology.MaxPorts)
	}
	s := &SlimFly{Q: q, P: p, delta: delta, f: f, k: k}
	w := (q - delta) / 4
	var x, xp []int // exponents of X and X'
	switch delta {
	case 1:
		for e := 0; e <= q-3; e += 2 {
			x, xp = append(x, e), append(xp, e+1)
		}
	case 0:
		for e := 0; e <= q-2; e += 2 {
			x, xp = append(x, e), append(xp, e+1)
		}
	case -1:
		for e := 0; e <= 2*w-2; e += 2 {
			x = append(x, e)
		}
		for e := 2*w - 1; e <= 4*w-3; e += 2 {
			x = append(x, e)
		}
		for e := 1; e <= 2*w-1; e += 2 {
			xp = append(xp, e)
		}
		for e := 2 * w; e <= 4*w-2; e += 2 {
			xp = append(xp, e)
		}
	}
	for i, exps := range [][]int{x, xp} {
		s.inX[i] = make([]bool, q)
		for _, e := range exps {
			s.inX[i][f.power(e)] = true
		}
	}
	R := 2 * q * q
	s.nbr, s.back = make([]int32, R*k), make([]uint8, R*k)
	for r := range R {
		ns := s.nbr[r*k : r*k : (r+1)*k]
		side, a, b := s.Coords(r)
		for b2 := range q { // the same subgraph
			if b2 != b && s.inX[side][f.diff(b, b2)] {
				ns = append(ns, int32(s.router(side, a, b2)))
			}
		}
		for a2 := range q { // the other: y = m*x + c
			if side == 0 { // (0, x, y) to (1, m, y - m*x)
				ns = append(ns, int32(s.router(1, a2, f.diff(b, f.prod(a2, a)))))
			} else { // (1, m, c) to (0, x, m*x + c)
				ns = append(ns, int32(s.router(0, a2, f.sum(f.prod(a, a2), b))))
			}
		}
		if len(ns) != k {
			return nil, fmt.Errorf("slim fly q = %d: router %d has %d neighbours, want %d (a bug)", q, r, len(ns), k)
		}
		slices.Sort(ns)
	}
	for r := range R {
		for i, n := range s.nbr[r*k : (r+1)*k] {
			j, found := slices.BinarySearch(s.nbr[int(n)*k:(int(n)+1)*k], int32(r))
			if !found {
				return nil, fmt.Errorf("slim fly q = %d: link %d-%d is one-way (a bug)", q, r, n)
			}
			s.back[r*k+i] = uint8(j)
		}
	}
	return s, nil
}

// router is the number of router (side, a, b).
func (s *SlimFly) router(side, a, b int) int { return side*s.Q*s.Q + b*s.Q + a }

// Coords are router r's subgraph (0 or 1) and coordinates a (x or m) and
// b (y or c).
func (s *SlimFly) Coords(r int) (side, a, b int) {
	qq := s.Q * s.Q
	return r / qq, r % qq % s.Q, r % qq / s.Q
}

// Adjacent reports whether routers u and v are joined by a link.
func (s *SlimFly) Adjacent(u, v int) bool {
	su, au, bu := s.Coords(u)
	sv, av, bv := s.Coords(v)
	switch {
	case su == sv:
		return au == av && bu != bv && s.inX[su][s.f.diff(bu, bv)]
	case su == 1: // (1, m, c) and (0, x, y)
		au, bu, av, bv = av, bv, au, bu
	}
	return bu == s.f.sum(s.f.prod(av, au), bv) // y = m*x + c
}

// PortTo is the port of router r to its neighbour n, -1 when n is not one.
func (s *SlimFly) PortTo(r, n int) int {
	i, found := slices.BinarySearch(s.nbr[r*s.k:(r+1)*s.k], int32(n))
	if !found {
		return -1
	}
	return s.P + i
}

// Radix is k', the network ports of a router.
func (s *SlimFly) Radix() int { return s.k }

func (s *SlimFly) Kind() string { return "slimfly" }

func (s *SlimFly) String() string {
	return fmt.Sprintf("slim fly q=%d (%d routers of radix %d, %d nodes per router)", s.Q, s.Routers(), s.k, s.P)
}

func (s *SlimFly) Routers() int { return 2 * s.Q * s.Q }

func (s *SlimFly) Nodes() int { return s.Routers() * s.P }

func (s *SlimFly) Ports(int) int { return s.P + s.k }

func (s *SlimFly) Peer(r, p int) topology.Peer {
	if p < s.P {
		return topology.Peer{Router: -1, Port: -1, Node: r*s.P + p}
	}
	i := r*s.k + p - s.P
	return topology.Peer{Router: int(s.nbr[i]), Port: s.P + int(s.back[i]), Node: -1}
}

func (s *SlimFly) NodePort(n int) (int, int) { return n / s.P, n % s.P }

func (s *SlimFly) RouterName(r int) string {
	side, a, b := s.Coords(r)
	return "R(" + strconv.Itoa(side) + "," + strconv.Itoa(a) + "," + strconv.Itoa(b) + ")"
}

func (s *SlimFly) PortName(r, p int) string {
	if p < s.P {
		return s.RouterName(r) + ".n" + strconv.Itoa(p)
	}
	return s.RouterName(r) + ">" + s.RouterName(int(s.nbr[r*s.k+p-s.P]))
}

func (s *SlimFly) NodeName(n int) string { return "NI " + strconv.Itoa(n) }

// Diameter is 2.
func (s *SlimFly) Diameter() int { return 2 }

// Units are the lines of q routers.
func (s *SlimFly) Units() []int {
	u := make([]int, 2*s.Q)
	for i := range u {
		u[i] = i * s.Q
	}
	return u
}

// LineRouters is q, the routers of a line (traffic.Lined).
func (s *SlimFly) LineRouters() int { return s.Q }

// RouterNodes is p, the nodes per router (traffic.Lined).
func (s *SlimFly) RouterNodes() int { return s.P }

// PortClass is "intra" (a link within a subgraph) or "inter" (between
// the two) (topology.PortClasses).
func (s *SlimFly) PortClass(r, p int) string {
	if s.Peer(r, p).Router/(s.Q*s.Q) == r/(s.Q*s.Q) {
		return "intra"
	}
	return "inter"
}
