package dragonflyplus

import (
	"fmt"
	"strconv"

	"github.com/icnsim/icnsim/topology"
)

// DragonflyPlus is the Dragonfly+ of Shpiner, Haramaty, Eliad, Zdornov,
// Gafni and Zahavi (HiPINEB 2017), which Flajslik et al. call Megafly: g
// groups, each a two-level fat-tree of L leaf routers and S spine
// routers, every leaf joined to every spine by one link; a leaf has P
// nodes, a spine H global links; the S*H global links of a group reach
// the other groups, each pair of groups joined by S*H/(g-1) links (g =
// S*H + 1 by default: exactly one), laid out as a dragonfly's palmtree
// (global link k of group G leads to group (G + k mod (g-1) + 1) mod g).
//
// Router r is router i = r mod (L+S) of group G = r div (L+S): leaf i for
// i < L, spine i-L otherwise. A leaf's ports are, in order, P node ports
// (node (G*L + i)*P + j on port j) and S up ports (port P + j to spine j);
// a spine's, L down ports (port l to leaf l) and H global ports (port L +
// m is the group's global link k = j*H + m of spine j). Global links have
// latency GlobalLatencyCycles and the links between leaves and spines
// LocalLatencyCycles (0: the network's link latency); node links the
// network's.
type DragonflyPlus struct {
	P, L, S, H, G       int
	GlobalLatencyCycles int
	LocalLatencyCycles  int
}

// MaxGroups is the most groups of a Dragonfly+.
const MaxGroups = 255

// New returns a Dragonfly+, or an error naming the impossible parameter.
func New(p, l, s, h, g int) (*DragonflyPlus, error) {
	switch {
	case p < 1 || p > 32:
		return nil, fmt.Errorf("dragonfly+ nodes per leaf p = %d out of range (allowed: 1..32)", p)
	case l < 1 || l > 32:
		return nil, fmt.Errorf("dragonfly+ leaves per group L = %d out of range (allowed: 1..32)", l)
	case s < 1 || s > 32:
		return nil, fmt.Errorf("dragonfly+ spines per group S = %d out of range (allowed: 1..32)", s)
	case h < 1 || h > 32:
		return nil, fmt.Errorf("dragonfly+ global links per spine h = %d out of range (allowed: 1..32)", h)
	case g < 2 || g > MaxGroups:
		return nil, fmt.Errorf("dragonfly+ groups g = %d out of range (allowed: 2..%d)", g, MaxGroups)
	case g > s*h+1:
		return nil, fmt.Errorf("dragonfly+ groups g = %d: a group has S*h = %d global links, too few to reach %d other groups", g, s*h, g-1)
	case (s*h)%(g-1) != 0:
		return nil, fmt.Errorf("dragonfly+ groups g = %d: the S*h = %d global links of a group must split evenly over the g-1 = %d other groups", g, s*h, g-1)
	}
	return &DragonflyPlus{P: p, L: l, S: s, H: h, G: g}, nil
}

func (d *DragonflyPlus) Kind() string { return "dragonflyplus" }

func (d *DragonflyPlus) String() string {
	s := fmt.Sprintf("dragonfly+ p=%d leaves=%d spines=%d h=%d g=%d (%d nodes)", d.P, d.L, d.S, d.H, d.G, d.Nodes())
	if d.LocalLatencyCycles > 0 {
		s += fmt.Sprintf(", local links %d cycles", d.LocalLatencyCycles)
	}
	if d.GlobalLatencyCycles > 0 {
		s += fmt.Sprintf(", global links %d cycles", d.GlobalLatencyCycles)
	}
	return s
}

// GroupRouters is L+S, the routers of a group.
func (d *DragonflyPlus) GroupRouters() int { return d.L + d.S }

func (d *DragonflyPlus) Routers() int { return (d.L + d.S) * d.G }

func (d *DragonflyPlus) Nodes() int { return d.P * d.L * d.G }

// IsLeaf reports whether router r is a leaf.
func (d *DragonflyPlus) IsLeaf(r int) bool { return r%(d.L+d.S) < d.L }

func (d *DragonflyPlus) Ports(r int) int {
	if d.IsLeaf(r) {
		return d.P + d.S
	}
	return d.L + d.H
}

// Group is router r's group.
func (d *DragonflyPlus) Group(r int) int { return r / (d.L + d.S) }

// Leaf is the router of leaf l of group G, Spine that of spine j.
func (d *DragonflyPlus) Leaf(G, l int) int { return G*(d.L+d.S) + l }

func (d *DragonflyPlus) Spine(G, j int) int { return G*(d.L+d.S) + d.L + j }

// Copies is the number of global links between two groups.
func (d *DragonflyPlus) Copies() int { return d.S * d.H / (d.G - 1) }

// offset is the place, among the g-1 other groups, of group to as seen
// from group from (the palmtree arrangement).
func (d *DragonflyPlus) offset(from, to int) int { return (to - from - 1 + d.G) % d.G }

// farEnd is the group and link index at the far end of global link k of
// group G: link k leads to group (G + o + 1) mod g, o = k mod (g-1), and
// arrives there as link c(g-1) + (g-2-o), c = k div (g-1).
func (d *DragonflyPlus) farEnd(G, k int) (int, int) {
	o, c := k%(d.G-1), k/(d.G-1)
	return (G + o + 1) % d.G, c*(d.G-1) + d.G - 2 - o
}

// GlobalLink is the spine index and global port of group from's copy c
// (0..Copies-1) of its global links to group to (from != to).
func (d *DragonflyPlus) GlobalLink(from, to, c int) (spine, port int) {
	k := c*(d.G-1) + d.offset(from, to)
	return k / d.H, d.L + k%d.H
}

// GlobalTarget is the group and copy that global port p of spine router r
// leads to.
func (d *DragonflyPlus) GlobalTarget(r, p int) (group, copy int) {
	k := (r%(d.L+d.S)-d.L)*d.H + p - d.L
	to, _ := d.farEnd(d.Group(r), k)
	return to, k / (d.G - 1)
}

// portsTo is the set of global ports of spine router r that lead to
// group D: its links k = j*h + m (j the spine's index, m the port's)
// with k mod (g-1) the place of D among the other groups.
func (d *DragonflyPlus) portsTo(r, D int) uint64 {
	G, j := d.Group(r), r%(d.L+d.S)-d.L
	if D == G {
		return 0
	}
	o, n := d.offset(G, D), d.G-1
	var ports uint64
	for k := j*d.H + ((o-j*d.H)%n+n)%n; k < (j+1)*d.H; k += n {
		ports |= 1 << (d.L + k - j*d.H)
	}
	return ports
}

func (d *DragonflyPlus) Peer(r, p int) topology.Peer {
	G, i := d.Group(r), r%(d.L+d.S)
	if i < d.L { // a leaf
		if p < d.P {
			return topology.Peer{Router: -1, Port: -1, Node: (G*d.L+i)*d.P + p}
		}
		return topology.Peer{Router: d.Spine(G, p-d.P), Port: i, Node: -1}
	}
	j := i - d.L
	if p < d.L {
		return topology.Peer{Router: d.Leaf(G, p), Port: d.P + j, Node: -1}
	}
	to, k := d.farEnd(G, j*d.H+p-d.L)
	return topology.Peer{Router: d.Spine(to, k/d.H), Port: d.L + k%d.H, Node: -1}
}

func (d *DragonflyPlus) NodePort(n int) (int, int) {
	leaf := n / d.P
	return d.Leaf(leaf/d.L, leaf%d.L), n % d.P
}

func (d *DragonflyPlus) RouterName(r int) string {
	G, i := d.Group(r), r%(d.L+d.S)
	if i < d.L {
		return "L(" + strconv.Itoa(G) + "," + strconv.Itoa(i) + ")"
	}
	return "S(" + strconv.Itoa(G) + "," + strconv.Itoa(i-d.L) + ")"
}

func (d *DragonflyPlus) PortName(r, p int) string {
	if d.IsLeaf(r) {
		if p < d.P {
			return d.RouterName(r) + ".n" + strconv.Itoa(p)
		}
		return d.RouterName(r) + ".u" + strconv.Itoa(p-d.P)
	}
	if p < d.L {
		return d.RouterName(r) + ".d" + strconv.Itoa(p)
	}
	return d.RouterName(r) + ".g" + strconv.Itoa(p-d.L)
}

func (d *DragonflyPlus) NodeName(n int) string { return "NI " + strconv.Itoa(n) }

// Diameter is 3 (up, global, down): nodes sit on leaves only.
func (d *DragonflyPlus) Diameter() int { return 3 }

// Units are the groups.
func (d *DragonflyPlus) Units() []int {
	u := make([]int, d.G)
	for G := range u {
		u[G] = G * (d.L + d.S)
	}
	return u
}

// LatencyCycles is GlobalLatencyCycles on global ports, LocalLatencyCycles
// on the ports between leaves and spines, 0 (the network's) on node ports
// (topology.PortLatencies).
func (d *DragonflyPlus) LatencyCycles(r, p int) int {
	switch leaf := d.IsLeaf(r); {
	case leaf && p < d.P:
		return 0
	case !leaf && p >= d.L:
		return d.GlobalLatencyCycles
	}
	return d.LocalLatencyCycles
}

// MinimalExtraCycles is what the links longer than linkLatencyCycles add
// to the minimal route from node src to node dst (topology.MinimalLatencies):
// none on one leaf, two local links within a group, two local links and
// a global one between groups.
func (d *DragonflyPlus) MinimalExtraCycles(src, dst, linkLatencyCycles int) int {
	global, local := d.extraCycles(linkLatencyCycles)
	switch {
	case src/d.P == dst/d.P:
		return 0
	case src/(d.P*d.L) == dst/(d.P*d.L):
		return 2 * local
	}
	return global + 2*local
}

// MaxMinimalExtraCycles bounds MinimalExtraCycles.
func (d *DragonflyPlus) MaxMinimalExtraCycles(linkLatencyCycles int) int {
	global, local := d.extraCycles(linkLatencyCycles)
	return global + 2*local
}

func (d *DragonflyPlus) extraCycles(linkLatencyCycles int) (global, local int) {
	return topology.CyclesBeyond(d.GlobalLatencyCycles, linkLatencyCycles), topology.CyclesBeyond(d.LocalLatencyCycles, linkLatencyCycles)
}

// EccentricityRepresentatives is a group's routers: the rotation of the
// groups (G to G+1 mod g) is an automorphism of the palmtree arrangement.
func (d *DragonflyPlus) EccentricityRepresentatives() int { return d.L + d.S }

// Groups is g (traffic.Grouped).
func (d *DragonflyPlus) Groups() int { return d.G }

// GroupNodes is the nodes per group, P*L (traffic.Grouped).
func (d *DragonflyPlus) GroupNodes() int { return d.P * d.L }

// PortClass is "up" (leaf to spine), "down" (spine to leaf) or "global"
// (topology.PortClasses).
func (d *DragonflyPlus) PortClass(r, p int) string {
	switch {
	case d.IsLeaf(r):
		return "up"
	case p < d.L:
		return "down"
	}
	return "global"
}
