package dragonfly

import (
	"fmt"
	"strconv"

	"github.com/icnsim/icnsim/topology"
)

// Arrangement is how a dragonfly's global links are laid out between groups.
type Arrangement uint8

const (
	// Palmtree: global link k of group G (router k div h, its global port
	// k mod h) leads to group (G + o + 1) mod g, o = k mod (g-1), and
	// arrives there on link c(g-1) + (g-2-o), c = k div (g-1) (Camarero,
	// Vallejo and Beivide, "Topological characterization of Hamming and
	// dragonfly networks", 2014). The default.
	Palmtree Arrangement = iota
	// Consecutive: global link k of group G leads to group o when o < G,
	// o+1 otherwise (o = k mod (g-1)): the groups in order, skipping G
	// (BookSim2's dragonflynew, the "absolute" arrangement).
	Consecutive
)

func arrangementNames() []string {
	return []string{"palmtree", "consecutive"}
}

// ArrangementNames lists the global arrangements in a fixed order.
func ArrangementNames() []string { return arrangementNames() }

// ParseArrangement reads an arrangement by name; "" is the default (palmtree).
func ParseArrangement(s string) (Arrangement, error) {
	if s == "" {
		return Palmtree, nil
	}
	for i, n := range arrangementNames() {
		if n == s {
			return Arrangement(i), nil
		}
	}
	return 0, fmt.Errorf("unknown global arrangement %q (allowed: palmtree, consecutive)", s)
}

func (a Arrangement) String() string { return arrangementNames()[a] }

// Dragonfly is the dragonfly of Kim, Dally, Scott and Abts (ISCA 2008): g
// groups of a routers, each router with p nodes, a-1 local links (one to
// every other router of its group) and h global links; the a*h global
// links of a group reach the other groups, each pair of groups joined by
// a*h/(g-1) links (g = a*h + 1 by default: exactly one).
//
// Router r is router i = r mod a of group G = r div a. Its ports are, in
// order: p node ports (node r*p + j on port j), a-1 local ports (port
// p + j leads to router j of the group when j < i, to router j+1
// otherwise) and h global ports (port p + a-1 + m is the group's global
// link k = i*h + m, laid out by Arrangement). Global links have latency
// GlobalLatencyCycles and local links LocalLatencyCycles (0: the
// network's link latency), node links the network's.
type Dragonfly struct {
	P, A, H, G          int
	Arrangement         Arrangement
	GlobalLatencyCycles int
	LocalLatencyCycles  int
}

// NewDragonfly returns a dragonfly, or an error naming the impossible
// parameter. g = 0 means a*h + 1.
func NewDragonfly(p, a, h, g int, arr Arrangement, globalLatencyCycles int) (*Dragonfly, error) {
	if g == 0 {
		g = a*h + 1
	}
	switch {
	case p < 1 || p > 32:
		return nil, fmt.Errorf("dragonfly nodes per router p = %d out of range (allowed: 1..32)", p)
	case a < 1 || a > 64:
		return nil, fmt.Errorf("dragonfly routers per group a = %d out of range (allowed: 1..64)", a)
	case h < 1 || h > 32:
		return nil, fmt.Errorf("dragonfly global links per router h = %d out of range (allowed: 1..32)", h)
	case p+a-1+h > 64:
		return nil, fmt.Errorf("dragonfly routers have p + a-1 + h = %d ports (at most 64)", p+a-1+h)
	case g < 2:
		return nil, fmt.Errorf("dragonfly groups g = %d out of range (allowed: 2..a*h+1 = %d)", g, a*h+1)
	case g > a*h+1:
		return nil, fmt.Errorf("dragonfly groups g = %d: a group has a*h = %d global links, too few to reach %d other groups (allowed: 2..%d)", g, a*h, g-1, a*h+1)
	case (a*h)%(g-1) != 0:
		return nil, fmt.Errorf("dragonfly groups g = %d: the a*h = %d global links of a group must split evenly over the g-1 = %d other groups (allowed: g-1 dividing %d)", g, a*h, g-1, a*h)
	case g > 255:
		return nil, fmt.Errorf("dragonfly groups g = %d out of range (allowed: at most 255)", g)
	case globalLatencyCycles < 0 || globalLatencyCycles > 1000:
		return nil, fmt.Errorf("dragonfly global link latency %d out of range (allowed: 0..1000 cycles, 0 for the link latency)", globalLatencyCycles)
	}
	return &Dragonfly{P: p, A: a, H: h, G: g, Arrangement: arr, GlobalLatencyCycles: globalLatencyCycles}, nil
}

func (d *Dragonfly) Kind() string { return "dragonfly" }

func (d *Dragonfly) String() string {
	s := fmt.Sprintf("dragonfly p=%d a=%d h=%d g=%d (%d nodes, %s)", d.P, d.A, d.H, d.G, d.Nodes(), d.Arrangement)
	if d.LocalLatencyCycles > 0 {
		s += fmt.Sprintf(", local links %d cycles", d.LocalLatencyCycles)
	}
	if d.GlobalLatencyCycles > 0 {
		s += fmt.Sprintf(", global links %d cycles", d.GlobalLatencyCycles)
	}
	return s
}

func (d *Dragonfly) Routers() int { return d.A * d.G }

func (d *Dragonfly) Nodes() int { return d.P * d.A * d.G }

func (d *Dragonfly) Ports(int) int { return d.P + d.A - 1 + d.H }

// LocalPort0 and GlobalPort0 are the first local and global ports.
func (d *Dragonfly) LocalPort0() int { return d.P }

func (d *Dragonfly) GlobalPort0() int { return d.P + d.A - 1 }

// Group is router r's group, Index its place in the group.
func (d *Dragonfly) Group(r int) int { return r / d.A }

func (d *Dragonfly) Index(r int) int { return r % d.A }

// LocalPort is the port of router index i towards router index j of the
// same group (i != j).
func (d *Dragonfly) LocalPort(i, j int) int {
	if j < i {
		return d.P + j
	}
	return d.P + j - 1
}

// IsGlobal reports whether port p is a global port.
func (d *Dragonfly) IsGlobal(p int) bool { return p >= d.GlobalPort0() }

// IsLocal reports whether port p is a local port.
func (d *Dragonfly) IsLocal(p int) bool { return p >= d.P && p < d.GlobalPort0() }

// Copies is the number of global links between two groups.
func (d *Dragonfly) Copies() int { return d.A * d.H / (d.G - 1) }

// offset is the place, among the g-1 other groups, of group to as seen
// from group from.
func (d *Dragonfly) offset(from, to int) int {
	if d.Arrangement == Consecutive {
		if to < from {
			return to
		}
		return to - 1
	}
	return (to - from - 1 + d.G) % d.G
}

// link returns the group and link index at the far end of link k of group G.
func (d *Dragonfly) farEnd(G, k int) (int, int) {
	o, c := k%(d.G-1), k/(d.G-1)
	var to int
	if d.Arrangement == Consecutive {
		to = o
		if o >= G {
			to = o + 1
		}
	} else {
		to = (G + o + 1) % d.G
	}
	return to, c*(d.G-1) + d.offset(to, G)
}

// GlobalLink is the router and port of group from's copy c (0..Copies-1)
// of its global links to group to (from != to).
func (d *Dragonfly) GlobalLink(from, to, c int) (router, port int) {
	k := c*(d.G-1) + d.offset(from, to)
	return from*d.A + k/d.H, d.GlobalPort0() + k%d.H
}

// GlobalTarget is the group that global port p of router r leads to.
func (d *Dragonfly) GlobalTarget(r, p int) int {
	to, _ := d.farEnd(d.Group(r), d.Index(r)*d.H+p-d.GlobalPort0())
	return to
}

func (d *Dragonfly) Peer(r, p int) topology.Peer {
	G, i := d.Group(r), d.Index(r)
	switch {
	case p < d.P:
		return topology.Peer{Router: -1, Port: -1, Node: r*d.P + p}
	case p < d.GlobalPort0():
		j := p - d.P
		if j >= i {
			j++
		}
		return topology.Peer{Router: G*d.A + j, Port: d.LocalPort(j, i), Node: -1}
	}
	to, k := d.farEnd(G, i*d.H+p-d.GlobalPort0())
	return topology.Peer{Router: to*d.A + k/d.H, Port: d.GlobalPort0() + k%d.H, Node: -1}
}

func (d *Dragonfly) NodePort(n int) (int, int) { return n / d.P, n % d.P }

func (d *Dragonfly) RouterName(r int) string {
	return "R(" + strconv.Itoa(d.Group(r)) + "," + strconv.Itoa(d.Index(r)) + ")"
}

func (d *Dragonfly) PortName(r, p int) string {
	switch {
	case p < d.P:
		return d.RouterName(r) + ".n" + strconv.Itoa(p)
	case p < d.GlobalPort0():
		return d.RouterName(r) + ".l" + strconv.Itoa(p-d.P)
	}
	return d.RouterName(r) + ".g" + strconv.Itoa(p-d.GlobalPort0())
}

func (d *Dragonfly) NodeName(n int) string { return "NI " + strconv.Itoa(n) }

// Diameter is 3 (local, global, local); 1 with a single router per group.
func (d *Dragonfly) Diameter() int {
	if d.A == 1 {
		return 1
	}
	return 3
}

// Units are the groups.
func (d *Dragonfly) Units() []int {
	u := make([]int, d.G)
	for G := range u {
		u[G] = G * d.A
	}
	return u
}

// LatencyCycles is GlobalLatencyCycles on global ports, LocalLatencyCycles
// on local ones, 0 (the network's) on node ports.
func (d *Dragonfly) LatencyCycles(_, p int) int {
	switch {
	case p >= d.GlobalPort0():
		return d.GlobalLatencyCycles
	case p >= d.P:
		return d.LocalLatencyCycles
	}
	return 0
}

// EccentricityRepresentatives is the routers whose eccentricities stand
// for all: under the palmtree arrangement the rotation of the groups (G
// to G+1 mod g) is an automorphism, so router i of any group has router
// i of group 0's eccentricity; under the consecutive one, every router.
func (d *Dragonfly) EccentricityRepresentatives() int {
	if d.Arrangement == Palmtree {
		return d.A
	}
	return d.Routers()
}

// MinimalExtraCycles is what the links longer than linkLatencyCycles add
// to the minimal route from node src to node dst (topology.MinimalLatencies):
// its global link, if it leaves the group, and its local hops (to the
// global link's router when the source router does not own it, from the
// link's far end to the destination's router when that is another: the
// routing's minimal path, copy dst mod Copies of the global links).
func (d *Dragonfly) MinimalExtraCycles(src, dst, linkLatencyCycles int) int {
	global, local := d.extraCycles(linkLatencyCycles)
	sr, dr := src/d.P, dst/d.P
	S, D := d.Group(sr), d.Group(dr)
	if S == D {
		if sr == dr {
			return 0
		}
		return local
	}
	extra := global
	or, op := d.GlobalLink(S, D, dst%d.Copies())
	if or != sr {
		extra += local
	}
	if d.Peer(or, op).Router != dr {
		extra += local
	}
	return extra
}

// MaxMinimalExtraCycles bounds MinimalExtraCycles: a minimal route
// crosses one global link and at most two local ones.
func (d *Dragonfly) MaxMinimalExtraCycles(linkLatencyCycles int) int {
	global, local := d.extraCycles(linkLatencyCycles)
	return global + 2*local
}

// extraCycles is what a global and a local link take beyond
// linkLatencyCycles (0 for links of the network's latency).
func (d *Dragonfly) extraCycles(linkLatencyCycles int) (global, local int) {
	return topology.CyclesBeyond(d.GlobalLatencyCycles, linkLatencyCycles), topology.CyclesBeyond(d.LocalLatencyCycles, linkLatencyCycles)
}

// Groups is g (traffic.Grouped).
func (d *Dragonfly) Groups() int { return d.G }

// GroupNodes is the nodes per group, p*a (traffic.Grouped).
func (d *Dragonfly) GroupNodes() int { return d.P * d.A }

// PortClass is "local" or "global" (topology.PortClasses).
func (d *Dragonfly) PortClass(_, p int) string {
	if p < d.GlobalPort0() {
		return "local"
	}
	return "global"
}
