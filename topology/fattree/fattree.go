package fattree

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/icnsim/icnsim/topology"
)

// FatTree is a k-ary n-tree: k^n nodes, n levels of k^(n-1) switches of
// radix 2k (ports 0..k-1 down, k..2k-1 up; the roots' up ports are
// unconnected), butterfly wiring between consecutive levels, as in Petrini
// and Vanneschi and the fat-tree fairness paper; or a tapered one, whose
// switches of level l have Up(l) <= k up ports (an oversubscription of
// k/Up(l) to 1), and whose upper levels hold correspondingly fewer
// switches: the XGFT(n; k, ..., k; 1, Up(0), ..., Up(n-2)) of Öhring et
// al. ("On generalized fat trees", IPPS 1995).
//
// Level 0 holds the leaves, level n-1 the roots. A switch's index s in its
// level has n-1 digits s_{n-2}..s_0 of mixed radix: at level l, digit j < l
// counts Up(j) (which of the replicas above a subtree) and digit j >= l
// counts k (which subtree). Up port u of switch (l, s) leads to switch
// (l+1, s with digit l replaced by u), arriving on its down port s_l; node
// i hangs from leaf i div k on down port i mod k. So a packet that climbs
// to level L can reach exactly the nodes whose digits above L agree with
// its source's, and descends by taking, at level l, down port = digit l of
// the destination node. Untapered, every digit counts k.
//
// Routers are numbered pod by pod, so that sharding keeps subtrees together:
// pod t holds, level by level, the switches whose top digit s_{n-2} is t
// (for n = 1 there is a single switch). Tapered, the roots' top digit
// counts Up(n-2) < k, so only the first Up(n-2) pods hold roots.
type FatTree struct {
	K, N int
	per  int // switches per level untapered, k^(n-1)
	// up[l] is Up(l), the up ports of a switch of level l < n-1.
	up []int
	// count[l] is the switches of level l; stride[l][j] the weight of
	// digit j of a level-l switch index.
	count  []int
	stride [][]int
	// level and index of every router, and the first router of every
	// pod; levelAt[l] is a level's offset within its pod.
	level, index []int32
	podStart     []int
	levelAt      []int
}

// NewFatTree returns a k-ary n-tree.
func NewFatTree(k, n int) (*FatTree, error) { return NewTapered(k, n, nil) }

// NewTapered returns a k-ary n-tree whose switches of level l have up[l]
// up ports (l = 0..n-2; each dividing k): an oversubscription of k/up[l]
// to 1 at that level. A nil up is the untapered tree.
func NewTapered(k, n int, up []int) (*FatTree, error) {
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
	if up == nil {
		up = make([]int, n-1)
		for l := range up {
			up[l] = k
		}
	}
	if len(up) != n-1 {
		return nil, fmt.Errorf("a %d-level fat-tree has %d levels below its roots, not %d up-port counts", n, n-1, len(up))
	}
	for l, u := range up {
		if u < 1 || u > k || k%u != 0 {
			return nil, fmt.Errorf("fat-tree level %d: %d up ports (allowed: a divisor of k = %d)", l, u, k)
		}
	}
	f := &FatTree{K: k, N: n, per: per, up: slices.Clone(up)}
	f.count, f.stride = make([]int, n), make([][]int, n)
	for l := range n {
		f.stride[l] = make([]int, n-1)
		w := 1
		for j := range n - 1 {
			f.stride[l][j] = w
			w *= f.radix(l, j)
		}
		f.count[l] = w
	}
	// Pods: every level below the roots has count/k switches a pod; the
	// roots' top digit counts up[n-2].
	f.levelAt = make([]int, n+1)
	for l := range n {
		f.levelAt[l+1] = f.levelAt[l] + f.podSwitches(l)
	}
	f.podStart = make([]int, k+1)
	for t := range k {
		f.podStart[t+1] = f.podStart[t] + f.levelAt[n-1]
		if n == 1 || t < f.radix(n-1, n-2) {
			f.podStart[t+1] += f.podSwitches(n - 1)
		}
	}
	if n == 1 {
		f.podStart = []int{0, 1}
	}
	R := f.podStart[len(f.podStart)-1]
	f.level, f.index = make([]int32, R), make([]int32, R)
	for l := range n {
		for s := range f.count[l] {
			r := f.Router(l, s)
			f.level[r], f.index[r] = int32(l), int32(s)
		}
	}
	return f, nil
}

// radix is what digit j of a level-l switch index counts.
func (f *FatTree) radix(l, j int) int {
	if j < l {
		return f.up[j]
	}
	return f.K
}

// podSwitches is the switches of level l in one pod (in a pod that holds
// roots, at the root level).
func (f *FatTree) podSwitches(l int) int {
	if f.N == 1 {
		return 1
	}
	return f.count[l] / f.radix(l, f.N-2)
}

// Tapered reports whether some level has fewer up ports than down ports.
func (f *FatTree) Tapered() bool {
	for _, u := range f.up {
		if u < f.K {
			return true
		}
	}
	return false
}

// Up is the up ports of a switch of level l < n-1.
func (f *FatTree) Up(l int) int { return f.up[l] }

func (f *FatTree) Kind() string { return "fattree" }

func (f *FatTree) String() string {
	s := fmt.Sprintf("%d-ary %d-tree", f.K, f.N)
	if f.Tapered() {
		r := make([]string, len(f.up))
		for l, u := range f.up {
			r[l] = strconv.Itoa(f.K/u) + ":1"
		}
		s += " tapered " + strings.Join(r, ", ")
	}
	return s
}

func (f *FatTree) Routers() int { return len(f.level) }

func (f *FatTree) Nodes() int { return f.per * f.K }

// Ports is k down ports and the level's up ports (the roots keep the
// up ports of the level below, unconnected).
func (f *FatTree) Ports(r int) int {
	if f.N == 1 {
		return 2 * f.K
	}
	return f.K + f.up[min(int(f.level[r]), f.N-2)]
}

// LevelSwitches is the switches of level l (k^(n-1) untapered).
func (f *FatTree) LevelSwitches(l int) int { return f.count[l] }

func (f *FatTree) NodeName(n int) string { return "NI " + strconv.Itoa(n) }

// Switch returns the level and in-level index of router r.
func (f *FatTree) Switch(r int) (level, s int) { return int(f.level[r]), int(f.index[r]) }

// Router returns the router number of switch s at level l.
func (f *FatTree) Router(l, s int) int {
	if f.N == 1 {
		return 0
	}
	ps := f.podSwitches(l)
	return f.podStart[s/ps] + f.levelAt[l] + s%ps
}

// SwitchDigit is digit j of the index s of a switch of level l.
func (f *FatTree) SwitchDigit(l, s, j int) int { return s / f.stride[l][j] % f.radix(l, j) }

// withDigit is the index s of a level-l switch with digit j set to d,
// read as the index of a switch of level to (whose digits count the same
// but for digit j).
func (f *FatTree) withDigit(l, s, j, d, to int) int {
	x := 0
	for i := range f.N - 1 {
		v := f.SwitchDigit(l, s, i)
		if i == j {
			v = d
		}
		x += v * f.stride[to][i]
	}
	return x
}

// digit returns base-k digit j of x.
func (f *FatTree) digit(x, j int) int {
	for range j {
		x /= f.K
	}
	return x % f.K
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
		child := f.withDigit(l, s, l-1, p, l-1)
		return topology.Peer{Router: f.Router(l-1, child), Port: k + f.SwitchDigit(l, s, l-1), Node: -1}
	}
	if l == f.N-1 {
		return topology.Unconnected()
	}
	u := p - k
	return topology.Peer{Router: f.Router(l+1, f.withDigit(l, s, l, u, l+1)), Port: f.SwitchDigit(l, s, l), Node: -1}
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
func (f *FatTree) Units() []int { return slices.Clone(f.podStart[:len(f.podStart)-1]) }

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

// Groups is the pods, k (traffic.Grouped): the subtrees below the roots,
// between which every packet crosses the root level.
func (f *FatTree) Groups() int { return f.K }

// GroupNodes is the nodes of a pod, k^(n-1) (traffic.Grouped).
func (f *FatTree) GroupNodes() int { return f.per }
