package fattree

import (
	"fmt"
	"strconv"

	"github.com/icnsim/icnsim/topology"
)

// FatTree is a k-ary n-tree: k^n nodes, n levels of k^(n-1) switches of
// radix 2k (ports 0..k-1 down, k..2k-1 up; the roots' up ports are
// unconnected), butterfly wiring between consecutive levels, as in Petrini
// and Vanneschi and the fat-tree fairness paper.
//
// Level 0 holds the leaves, level n-1 the roots. A switch's index s in its
// level has n-1 base-k digits s_{n-2}..s_0. Up port u of switch (l, s) leads
// to switch (l+1, s with digit l replaced by u), arriving on its down port
// s_l; node i hangs from leaf i div k on down port i mod k. So a packet that
// climbs to level L can reach exactly the nodes whose digits above L agree
// with its source's, and descends by taking, at level l, down port = digit l
// of the destination node.
//
// Routers are numbered pod by pod, so that sharding keeps subtrees together:
// pod t holds, level by level, the switches whose top digit s_{n-2} is t
// (for n = 1 there is a single switch).
type FatTree struct {
	K, N int
	per  int // switches per level, k^(n-1)
}

// NewFatTree returns a k-ary n-tree.
func NewFatTree(k, n int) (*FatTree, error) {
	if k < 2 || k > 32 {
		return nil, fmt.Errorf("fat-tree arity k = %d out of range (allowed: 2..32, radix 2k <= 64)", k)
	}
	if n < 1 || n > 10 {
		return nil, fmt.Errorf("fat-tree levels n = %d out of range (allowed: 1..10)", n)
	}
	per := 1
	for range n - 1 {
		per *= k
		if per > 1<<20 {
			return nil, fmt.Errorf("%d-ary %d-tree is too large (more than 2^20 switches per level)", k, n)
		}
	}
	return &FatTree{K: k, N: n, per: per}, nil
}

func (f *FatTree) Kind() string { return "fattree" }

func (f *FatTree) String() string { return fmt.Sprintf("%d-ary %d-tree", f.K, f.N) }

func (f *FatTree) Routers() int { return f.N * f.per }

func (f *FatTree) Nodes() int { return f.per * f.K }

func (f *FatTree) Ports(int) int { return 2 * f.K }

func (f *FatTree) PerLevel() int { return f.per }

func (f *FatTree) NodeName(n int) string { return "NI " + strconv.Itoa(n) }

// podSize is the number of switches of one level in one pod.
func (f *FatTree) podSize() int {
	if f.N == 1 {
		return 1
	}
	return f.per / f.K
}

// Switch returns the level and in-level index of router r.
func (f *FatTree) Switch(r int) (level, s int) {
	if f.N == 1 {
		return 0, 0
	}
	ps := f.podSize()
	pod, rest := r/(f.N*ps), r%(f.N*ps)
	level, low := rest/ps, rest%ps
	return level, pod*ps + low // the top digit is the pod
}

// Router returns the router number of switch s at level l.
func (f *FatTree) Router(l, s int) int {
	if f.N == 1 {
		return 0
	}
	ps := f.podSize()
	return (s/ps)*f.N*ps + l*ps + s%ps
}

// digit returns base-k digit j of x.
func (f *FatTree) digit(x, j int) int {
	for range j {
		x /= f.K
	}
	return x % f.K
}

func (f *FatTree) setDigit(x, j, d int) int {
	p := 1
	for range j {
		p *= f.K
	}
	return x - ((x/p)%f.K)*p + d*p
}

// Digit returns base-k digit j of node n (j = 0 is the least significant).
func (f *FatTree) Digit(n, j int) int { return f.digit(n, j) }

func (f *FatTree) Peer(r, p int) topology.Peer {
	l, s := f.Switch(r)
	k := f.K
	if p < k { // down
		if l == 0 {
			return topology.Peer{Router: -1, Port: -1, Node: s*k + p}
		}
		child := f.setDigit(s, l-1, p)
		return topology.Peer{Router: f.Router(l-1, child), Port: k + f.digit(s, l-1), Node: -1}
	}
	if l == f.N-1 {
		return topology.Unconnected()
	}
	u := p - k
	return topology.Peer{Router: f.Router(l+1, f.setDigit(s, l, u)), Port: f.digit(s, l), Node: -1}
}

func (f *FatTree) NodePort(n int) (int, int) { return f.Router(0, n/f.K), n % f.K }

func (f *FatTree) RouterName(r int) string {
	l, s := f.Switch(r)
	return "S(" + strconv.Itoa(l) + "," + strconv.Itoa(s) + ")"
}

func (f *FatTree) PortName(r, p int) string {
	if p < f.K {
		return f.RouterName(r) + ".down" + strconv.Itoa(p)
	}
	return f.RouterName(r) + ".up" + strconv.Itoa(p-f.K)
}

// Diameter is 2(n-1): up to a root and down.
func (f *FatTree) Diameter() int { return 2 * (f.N - 1) }

// Units are the pods (subtrees below the roots, with a share of the roots).
func (f *FatTree) Units() []int {
	if f.N == 1 {
		return []int{0}
	}
	u := make([]int, f.K)
	for t := range u {
		u[t] = t * f.N * f.podSize()
	}
	return u
}

// NCALevel is the level of the nearest common ancestor of nodes a and b:
// the smallest L such that a and b agree on all digits above L.
func (f *FatTree) NCALevel(a, b int) int {
	L := 0
	for j := 1; j < f.N; j++ {
		if f.digit(a, j) != f.digit(b, j) {
			L = j
		}
	}
	return L
}

// PortClass is the level and direction of network port p of router r
// (topology.PortClasses): "up L" from level L to L+1, "down L" from level
// L to L-1 (level 0 holds the leaves).
func (f *FatTree) PortClass(r, p int) string {
	l, _ := f.Switch(r)
	if p < f.K {
		return "down " + strconv.Itoa(l)
	}
	return "up " + strconv.Itoa(l)
}
