package workload

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"
	"unsafe"
)

// Params are a motif's parameters.
type Params struct {
	Ranks        int
	MessageFlits int64 // the message size each step moves (ring allreduce: the vector, split into Ranks chunks)
	Iterations   int
	// ComputeCycles is a compute step at the start of every iteration.
	ComputeCycles int64
	// Root is the root rank of a broadcast, a binomial allreduce's reduce
	// and an incast.
	Root int
	// Grid is the halo exchange's rank grid, its first side varying
	// fastest (rank = x + X*y + X*Y*z); empty: the most nearly square or
	// cubic grid of Ranks.
	Grid []int
	// Periodic wraps the halo exchange's grid around.
	Periodic bool
	// Seed draws the permutation's pairs.
	Seed uint64
}

// Motif is a communication pattern a job runs: its description, the
// number of steps one iteration takes (the longest chain of messages each
// sent after the one before it was received: on an idle network, the
// iteration's time is about that many message latencies, plus what a
// rank's interface takes to send its messages of a step one after the
// other), what it needs of its parameters, and its program.
type Motif struct {
	Doc string
	// Steps is the analytic number of steps per iteration.
	Steps func(p Params) int
	// Check returns what is wrong with p for this motif ("" when nothing).
	Check func(p Params) string
	// body is one iteration of rank r's program.
	body func(p Params, r int) []Op
}

// Motifs lists the motifs by name.
func Motifs() map[string]Motif {
	pow2 := func(p Params) string {
		if p.Ranks&(p.Ranks-1) != 0 {
			return fmt.Sprintf("ranks = %d: this motif needs a power of two", p.Ranks)
		}
		return ""
	}
	none := func(Params) string { return "" }
	halo := func(d int, diagonals bool) Motif {
		what := map[[2]int]string{
			{2, 0}: "its 4 neighbours across edges", {2, 1}: "its 8 neighbours (across edges and corners)",
			{3, 0}: "its 6 neighbours across faces", {3, 1}: "its 26 neighbours (across faces, edges and corners)",
		}[[2]int{d, map[bool]int{false: 0, true: 1}[diagonals]}]
		return Motif{
			Doc:   fmt.Sprintf("halo exchange on a %d-D grid of ranks: every rank posts a receive from and a send of message_flits to each of %s (off the grid's edge none, unless periodic), then waits; 1 step", d, what),
			Steps: func(p Params) int { return min(1, p.Ranks-1) },
			Check: func(p Params) string { return checkGrid(p, d) },
			body:  func(p Params, r int) []Op { return haloBody(p, r, d, diagonals) },
		}
	}
	return map[string]Motif{
		"allreduce-ring": {
			Doc:   "ring allreduce: a reduce-scatter then an allgather around the ring of ranks, each step sending ceil(message_flits/ranks) flits to rank r+1 and receiving as much from r-1; 2(P-1) steps",
			Steps: func(p Params) int { return 2 * (p.Ranks - 1) },
			Check: none,
			body:  ringAllreduce,
		},
		"allreduce-recursive-doubling": {
			Doc:   "recursive-doubling allreduce: in step k every rank exchanges the whole message with rank r XOR 2^k; log2(P) steps (P a power of two)",
			Steps: func(p Params) int { return log2Ceil(p.Ranks) },
			Check: pow2,
			body:  recursiveDoubling,
		},
		"allreduce-recursive-halving": {
			Doc:   "Rabenseifner's allreduce: a reduce-scatter by recursive halving (step k exchanges message_flits/2^(k+1) with rank r XOR P/2^(k+1)) then an allgather by recursive doubling (the same in reverse); 2 log2(P) steps (P a power of two)",
			Steps: func(p Params) int { return 2 * log2Ceil(p.Ranks) },
			Check: pow2,
			body:  recursiveHalving,
		},
		"allreduce-binomial": {
			Doc:   "binomial-tree reduce to the root, then binomial-tree broadcast of the whole message from it; 2 floor(log2 P) steps (a parent's messages to or from its children in turn)",
			Steps: func(p Params) int { return 2 * log2Floor(p.Ranks) },
			Check: checkRoot,
			body: func(p Params, r int) []Op {
				return append(binomialReduce(p, r), binomialBcast(p, r)...)
			},
		},
		"alltoall-pairwise": {
			Doc:   "pairwise-exchange all-to-all: in step k (1..P-1) every rank sends message_flits to rank r+k and receives from r-k, then waits; P-1 steps",
			Steps: func(p Params) int { return p.Ranks - 1 },
			Check: none,
			body:  pairwiseAlltoall,
		},
		"alltoall-linear": {
			Doc:   "linear all-to-all: every rank posts all P-1 receives and sends of message_flits at once (to r+1, r+2, ... in turn), then waits; 1 step",
			Steps: func(p Params) int { return min(1, p.Ranks-1) },
			Check: none,
			body:  linearAlltoall,
		},
		"broadcast-binomial": {
			Doc:   "binomial-tree broadcast of message_flits from the root: a rank receives from its parent, then sends to its children, farthest subtree first; floor(log2 P) steps (a parent's messages to its children in turn)",
			Steps: func(p Params) int { return log2Floor(p.Ranks) },
			Check: checkRoot,
			body:  binomialBcast,
		},
		"barrier-dissemination": {
			Doc:   "dissemination barrier: in round k every rank sends message_flits (set it to 1 for a barrier's token) to rank r+2^k and waits for the one from r-2^k; ceil(log2 P) steps",
			Steps: func(p Params) int { return log2Ceil(p.Ranks) },
			Check: none,
			body:  dissemination,
		},
		"halo-2d":           halo(2, false),
		"halo-2d-diagonals": halo(2, true),
		"halo-3d":           halo(3, false),
		"halo-3d-diagonals": halo(3, true),
		"incast": {
			Doc:   "incast: every rank but the root sends message_flits to the root, which receives them all; 1 step",
			Steps: func(p Params) int { return min(1, p.Ranks-1) },
			Check: checkRoot,
			body:  incast,
		},
		"permutation": {
			Doc:   "random permutation exchange: the ranks form one random cycle (drawn with the seed, Sattolo's algorithm: no rank sends to itself); each sends message_flits to its successor and receives from its predecessor; 1 step",
			Steps: func(p Params) int { return min(1, p.Ranks-1) },
			Check: none,
			body:  permutation,
		},
	}
}

// MotifNames lists the motifs in order.
func MotifNames() []string {
	names := make([]string, 0, len(Motifs()))
	for n := range Motifs() {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// Build is one iteration of motif name's program under p: a compute step
// of ComputeCycles first (where above 0), the motif's steps, and a Mark.
// A job runs it p.Iterations times (NewJob).
func Build(name string, p Params) (Program, error) {
	m, ok := Motifs()[name]
	if !ok {
		return nil, fmt.Errorf("no motif %q: allowed %s", name, strings.Join(MotifNames(), ", "))
	}
	if err := p.check(); err != "" {
		return nil, fmt.Errorf("motif %s: %s", name, err)
	}
	if err := m.Check(p); err != "" {
		return nil, fmt.Errorf("motif %s: %s", name, err)
	}
	prog := make(Program, p.Ranks)
	for r := range prog {
		var ops []Op
		if p.ComputeCycles > 0 {
			ops = append(ops, Op{Kind: Compute, Cycles: p.ComputeCycles})
		}
		prog[r] = append(append(ops, m.body(p, r)...), Op{Kind: Mark})
	}
	return prog, nil
}

// check is what is wrong with p whatever the motif.
func (p Params) check() string {
	switch {
	case p.Ranks < 1:
		return fmt.Sprintf("ranks = %d: allowed >= 1", p.Ranks)
	case p.MessageFlits < 1:
		return fmt.Sprintf("message size %d flits: allowed >= 1", p.MessageFlits)
	case p.Iterations < 1:
		return fmt.Sprintf("iterations = %d: allowed >= 1", p.Iterations)
	case p.ComputeCycles < 0:
		return fmt.Sprintf("compute_cycles = %d: allowed >= 0", p.ComputeCycles)
	}
	return ""
}

func checkRoot(p Params) string {
	if p.Root < 0 || p.Root >= p.Ranks {
		return fmt.Sprintf("root = %d: allowed 0..%d (a rank of the job)", p.Root, p.Ranks-1)
	}
	return ""
}

// log2Ceil is ceil(log2 n), 0 for n <= 1.
func log2Ceil(n int) int {
	if n <= 1 {
		return 0
	}
	return bits.Len(uint(n - 1))
}

// log2Floor is floor(log2 n), 0 for n <= 1.
func log2Floor(n int) int {
	if n <= 1 {
		return 0
	}
	return bits.Len(uint(n)) - 1
}

// exchange is one step: send to one rank, receive from another, wait.
func exchange(to, from int, flits int64) []Op {
	return []Op{{Kind: Recv, Peer: from, Flits: flits}, {Kind: Send, Peer: to, Flits: flits}, {Kind: Wait}}
}

func ringAllreduce(p Params, r int) []Op {
	P := p.Ranks
	chunk := (p.MessageFlits + int64(P) - 1) / int64(P)
	var ops []Op
	for range 2 * (P - 1) {
		ops = append(ops, exchange((r+1)%P, (r+P-1)%P, chunk)...)
	}
	return ops
}

func recursiveDoubling(p Params, r int) []Op {
	var ops []Op
	for mask := 1; mask < p.Ranks; mask <<= 1 {
		ops = append(ops, exchange(r^mask, r^mask, p.MessageFlits)...)
	}
	return ops
}

// halvedFlits is ceil(s / 2^k).
func halvedFlits(s int64, k int) int64 { return max(1, (s+(int64(1)<<k)-1)>>k) }

func recursiveHalving(p Params, r int) []Op {
	var ops []Op
	steps := log2Ceil(p.Ranks)
	for k := range steps { // reduce-scatter: distance and size halve
		peer := r ^ (p.Ranks >> (k + 1))
		ops = append(ops, exchange(peer, peer, halvedFlits(p.MessageFlits, k+1))...)
	}
	for k := steps - 1; k >= 0; k-- { // allgather: the same in reverse
		peer := r ^ (p.Ranks >> (k + 1))
		ops = append(ops, exchange(peer, peer, halvedFlits(p.MessageFlits, k+1))...)
	}
	return ops
}

// binomialReduce sends each subtree's result to its parent: a rank
// receives from its children nearest first, then sends to its parent.
func binomialReduce(p Params, r int) []Op {
	P, v := p.Ranks, (r-p.Root+p.Ranks)%p.Ranks
	abs := func(u int) int { return (u + p.Root) % P }
	var ops []Op
	for mask := 1; mask < P; mask <<= 1 {
		if v&mask != 0 {
			ops = append(ops, Op{Kind: Send, Peer: abs(v - mask), Flits: p.MessageFlits})
			break
		}
		if v+mask < P {
			ops = append(ops, Op{Kind: Recv, Peer: abs(v + mask), Flits: p.MessageFlits}, Op{Kind: Wait})
		}
	}
	return ops
}

// binomialBcast receives from the parent, then sends to the children,
// farthest subtree first.
func binomialBcast(p Params, r int) []Op {
	P, v := p.Ranks, (r-p.Root+p.Ranks)%p.Ranks
	abs := func(u int) int { return (u + p.Root) % P }
	var ops []Op
	mask := 1
	for ; mask < P; mask <<= 1 {
		if v&mask != 0 {
			ops = append(ops, Op{Kind: Recv, Peer: abs(v - mask), Flits: p.MessageFlits}, Op{Kind: Wait})
			break
		}
	}
	for mask >>= 1; mask > 0; mask >>= 1 {
		if v+mask < P {
			ops = append(ops, Op{Kind: Send, Peer: abs(v + mask), Flits: p.MessageFlits})
		}
	}
	return ops
}

func pairwiseAlltoall(p Params, r int) []Op {
	var ops []Op
	for k := 1; k < p.Ranks; k++ {
		ops = append(ops, exchange((r+k)%p.Ranks, (r-k+p.Ranks)%p.Ranks, p.MessageFlits)...)
	}
	return ops
}

func linearAlltoall(p Params, r int) []Op {
	var ops []Op
	for k := 1; k < p.Ranks; k++ {
		ops = append(ops, Op{Kind: Recv, Peer: (r - k + p.Ranks) % p.Ranks, Flits: p.MessageFlits})
	}
	for k := 1; k < p.Ranks; k++ {
		ops = append(ops, Op{Kind: Send, Peer: (r + k) % p.Ranks, Flits: p.MessageFlits})
	}
	if p.Ranks > 1 {
		ops = append(ops, Op{Kind: Wait})
	}
	return ops
}

func dissemination(p Params, r int) []Op {
	var ops []Op
	for d := 1; d < p.Ranks; d <<= 1 {
		ops = append(ops, exchange((r+d)%p.Ranks, (r-d+p.Ranks)%p.Ranks, p.MessageFlits)...)
	}
	return ops
}

func incast(p Params, r int) []Op {
	if r != p.Root {
		return []Op{{Kind: Send, Peer: p.Root, Flits: p.MessageFlits}}
	}
	var ops []Op
	for s := range p.Ranks {
		if s != r {
			ops = append(ops, Op{Kind: Recv, Peer: s, Flits: p.MessageFlits})
		}
	}
	if len(ops) > 0 {
		ops = append(ops, Op{Kind: Wait})
	}
	return ops
}

// Cycle is the permutation exchange's single random cycle over the ranks,
// each of the (P-1)! cycles equally likely (Sattolo's algorithm with the
// seed): rank r sends to Cycle(...)[r].
func Cycle(ranks int, seed uint64) []int {
	next := make([]int, ranks)
	for i := range next {
		next[i] = i
	}
	rng := rand.New(rand.NewPCG(seed, 0x7065726d)) // "perm"
	for i := ranks - 1; i > 0; i-- {
		j := rng.IntN(i) // j < i: the result, read as a map, is one cycle
		next[i], next[j] = next[j], next[i]
	}
	return next
}

func permutation(p Params, r int) []Op {
	if p.Ranks < 2 {
		return nil
	}
	next := Cycle(p.Ranks, p.Seed)
	prev := 0
	for s, n := range next {
		if n == r {
			prev = s
		}
	}
	return exchange(next[r], prev, p.MessageFlits)
}

// GridOf is the halo exchange's grid of p.Ranks ranks in d dimensions:
// p.Grid, or the most nearly square or cubic factorisation (largest side
// first).
func GridOf(p Params, d int) []int {
	if len(p.Grid) > 0 {
		return p.Grid
	}
	g := make([]int, 0, d)
	n := p.Ranks
	for k := d; k > 1; k-- {
		// The largest side no larger than the k-th root of what is left.
		s := 1
		for c := 1; pow(c, k) <= n; c++ {
			if n%c == 0 {
				s = c
			}
		}
		g = append(g, s)
		n /= s
	}
	g = append(g, n)
	slices.Reverse(g)
	return g
}

func pow(b, e int) int {
	r := 1
	for range e {
		r *= b
	}
	return r
}

func checkGrid(p Params, d int) string {
	if len(p.Grid) == 0 {
		return ""
	}
	if len(p.Grid) != d {
		return fmt.Sprintf("grid = %s: a %d-D halo exchange needs %d sides", formatInts(p.Grid), d, d)
	}
	prod := 1
	for _, s := range p.Grid {
		if s < 1 {
			return fmt.Sprintf("grid = %s: every side >= 1", formatInts(p.Grid))
		}
		prod *= s
	}
	if prod != p.Ranks {
		return fmt.Sprintf("grid = %s holds %d ranks, the job has %d", formatInts(p.Grid), prod, p.Ranks)
	}
	return ""
}

// formatInts writes xs as a TOML array: [4, 5].
func formatInts(xs []int) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = fmt.Sprint(x)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// haloBody posts a receive from every neighbour, then a send to every
// neighbour (in the order of the offsets), then waits.
func haloBody(p Params, r, d int, diagonals bool) []Op {
	g := GridOf(p, d)
	coord := make([]int, d)
	rest := r
	for i, s := range g {
		coord[i] = rest % s
		rest /= s
	}
	var peers, from []int
	off := make([]int, d)
	var walk func(i int)
	walk = func(i int) {
		if i == d {
			nonzero := 0
			for _, o := range off {
				if o != 0 {
					nonzero++
				}
			}
			if nonzero == 0 || (!diagonals && nonzero > 1) {
				return
			}
			if to, ok := gridRank(g, coord, off, 1, p.Periodic); ok && to != r {
				peers = append(peers, to)
			}
			if fr, ok := gridRank(g, coord, off, -1, p.Periodic); ok && fr != r {
				from = append(from, fr)
			}
			return
		}
		for _, o := range []int{-1, 0, 1} {
			off[i] = o
			walk(i + 1)
		}
	}
	walk(0)
	var ops []Op
	for _, f := range from {
		ops = append(ops, Op{Kind: Recv, Peer: f, Flits: p.MessageFlits})
	}
	for _, to := range peers {
		ops = append(ops, Op{Kind: Send, Peer: to, Flits: p.MessageFlits})
	}
	if len(ops) > 0 {
		ops = append(ops, Op{Kind: Wait})
	}
	return ops
}

// gridRank is the rank at coord + sign*off on grid g, wrapping where
// periodic; ok is false off a non-periodic grid's edge.
func gridRank(g, coord, off []int, sign int, periodic bool) (int, bool) {
	r, stride := 0, 1
	for i, s := range g {
		c := coord[i] + sign*off[i]
		if c < 0 || c >= s {
			if !periodic {
				return 0, false
			}
			c = (c + s) % s
		}
		r += c * stride
		stride *= s
	}
	return r, true
}

// Bytes is about the memory the ranks of motif name under p hold: their
// steps (one iteration's), per peer they receive from the messages of an
// iteration (their sizes, arrivals and state; a sender running further
// ahead grows the latter), and, for a rank that never waits (an incast's
// senders), every iteration's sends in its outbox at once.
func Bytes(name string, p Params) int64 {
	m, ok := Motifs()[name]
	if !ok || p.check() != "" || m.Check(p) != "" {
		return 0
	}
	var total int64
	for r := range p.Ranks {
		body := m.body(p, r)
		recvs, sends, waits := 0, 0, 0
		for _, o := range body {
			switch o.Kind {
			case Recv:
				recvs++
			case Send:
				sends++
			case Wait:
				waits++
			}
		}
		total += int64(len(body)+2)*int64(unsafe.Sizeof(op{})) + int64(recvs)*(4+2*5) + int64(p.Iterations)*8 + int64(unsafe.Sizeof(Rank{}))
		if waits == 0 {
			total += int64(p.Iterations) * int64(sends) * int64(unsafe.Sizeof(pendingSend{}))
		}
	}
	return total
}
