package deadlock

import (
	"math/bits"

	"github.com/icnsim/icnsim/topology"
)

// The intermediate nodes of Duato's check on a torus (duatostates.go): a
// walk through C2 from an escape channel, dimension by dimension, through
// segment trees over the rows and columns.

// torusWalk gives, along one ring of k, the coordinates a walk from p0 can
// reach for a destination whose descriptor from p0 is d0 (not none) and
// which lies at most budget hops ahead, with the descriptor each has
// there (end): the walk makes t hops in d0's direction, 0 <= t <= h for
// the destination h hops ahead. It returns up to two intervals [t1, t2]
// of hop counts (n of them).
//
// With s the direction and tc the hop count at which the walk crosses the
// wrap link (k-p0 for s = +1, p0+1 for s = -1), a destination h hops
// ahead crosses it when h >= tc; at hop t < h the rest of the way crosses
// it when t < tc <= h. So, over the destinations with descriptor d0, h in
// [hlo, hhi]: none at t in [hlo, hhi]; crossing at t in [0, tc-1] when
// hhi >= tc; not crossing at t in [0, min(hhi, tc-1)-1] when hlo < tc,
// and at t in [tc, hhi-1].
func torusWalk(l *descLine, p0, d0, budget, end int) (iv [2][2]int, n int) {
	s := l.sgn[d0]
	hlo, hhi := -1, -1
	for h := 1; h <= budget; h++ {
		if d, _ := l.desc(p0, (p0+s*h+l.k*h)%l.k); d == d0 {
			if hlo < 0 {
				hlo = h
			}
			hhi = h
		}
	}
	if hlo < 0 {
		return iv, 0
	}
	tc := l.k - p0
	if s < 0 {
		tc = p0 + 1
	}
	add := func(t1, t2 int) {
		if t1 <= t2 {
			iv[n] = [2]int{t1, t2}
			n++
		}
	}
	switch {
	case end == l.none:
		add(hlo, hhi)
	case l.sgn[end] != s:
	case end == 2 || end == 4: // crossing
		if hhi >= tc {
			add(0, tc-1)
		}
	default:
		if hlo < tc {
			add(0, min(hhi, tc-1)-1)
		}
		add(tc, hhi-1)
	}
	return iv, n
}

// maxAhead is the most hops a destination lies ahead the way s points: k/2
// the positive way (a tie goes positive), (k-1)/2 the other.
func (l *descLine) maxAhead(s int) int {
	if s > 0 {
		return l.k / 2
	}
	return (l.k - 1) / 2
}

// torusGraph is the compact graph's intermediate nodes on a torus: for
// every row, end descriptor in x and class, a segment tree over the row's
// coordinates (xTree), and for every column, descriptors and class, one
// over the column's (yTree). A tree has nodes 1..2k-1, node i >= k the
// leaf of coordinate i-k, node i < k the parent of 2i and 2i+1; a leaf of
// a row's tree leads to the column trees of its router's column, a leaf of
// a column's tree to the escape channels of its router and descriptors.
type torusGraph struct {
	s        *duatoStates
	k, nd, n int
	xBase    int // the first node of the row trees; the column trees follow
	yBase    int
	// yKinds is 1, or 1+nd when some escape channel reached its router
	// along y with its destination's column not reached (an escape
	// sub-function that is not dimension order): the row trees are then
	// kept apart by what the walk in y may do after them, kind 0 any
	// descriptor from the row (free), kind 1+d descriptor d one hop less
	// far (along y).
	yKinds     int
	walks      []bool // walks[cls]: escape channels of class cls lead to walks through non-escape channels
	lowerVC    int    // the VC the escape sub-function is asked for on lower states
	walkNodes  [][]int32
	freeNodes  [][]int32
	canonicals func(p0, t1, t2, s int, out []int32) []int32
}

// newTorusGraph makes the intermediate nodes; ok is false when the states
// reach found do not keep the dimensions independent.
func newTorusGraph(s *duatoStates) (*torusGraph, bool) {
	l := s.line
	k, nd := l.k, l.nd
	tg := &torusGraph{s: s, k: k, nd: nd, walks: make([]bool, s.classes)}
	tg.lowerVC = bits.TrailingZeros64(s.E)
	// The walks: the non-escape VCs offered from escape channels, and from
	// those, by class.
	for cls := 0; cls < s.classes; cls++ {
		var from, walk uint64 = s.E, 0
		for from != 0 {
			var next uint64
			for vm := from; vm != 0; vm &= vm - 1 {
				next |= s.offNon[bits.TrailingZeros64(vm)*s.classes+cls]
			}
			from = next &^ walk
			walk |= next
		}
		tg.walks[cls] = walk != 0
		s.adaptive |= walk
	}
	// The dimensions must be independent: an escape channel that reached
	// its router along x or by a loopback must allow every descriptor in y
	// with each in x; one that reached it along y is taken descriptor by
	// descriptor.
	tg.yKinds = 1
	for e := 0; e < s.nE; e++ {
		ch := int(s.es.ch[e])
		pr := s.es.peer[ch/s.vcs]
		r, p, v := int(pr.router), int(pr.port), ch%s.vcs
		_, y := s.g.XY(r)
		b := s.portBit(p)
		for cls := 0; cls < s.classes; cls++ {
			if !tg.walks[cls] {
				continue
			}
			st := s.state(r, v, cls, 0)
			var dys [8]uint8 // per x descriptor, the y descriptors reached
			for d := 0; d < s.nd2; d++ {
				if s.reached[st+d]&b != 0 {
					dys[d/nd] |= 1 << (d % nd)
				}
			}
			for dx := 0; dx < nd; dx++ {
				want := l.feas[y]
				if dx == l.none {
					want &^= 1 << l.none
				}
				switch {
				case dys[dx] == 0:
				case p == topology.PlaneYPlus || p == topology.PlaneYMinus:
					if dx != l.none {
						tg.yKinds = 1 + nd
					}
				case dys[dx]&want != want:
					return nil, false
				}
			}
		}
	}
	tg.xBase = s.nE
	tg.yBase = tg.xBase + k*nd*s.classes*tg.yKinds*2*k
	tg.n = tg.yBase + k*nd*nd*s.classes*2*k
	// canonical covers of the hop interval [t1, t2] from p0 in direction
	// s: the tree nodes, as offsets 1..2k-1, whose leaves are its
	// coordinates.
	cover := func(lo, hi int, out []int32) []int32 { // coordinates lo..hi, no wrap
		for a, b := lo+k, hi+k+1; a < b; a, b = a>>1, b>>1 {
			if a&1 != 0 {
				out = append(out, int32(a))
				a++
			}
			if b&1 != 0 {
				b--
				out = append(out, int32(b))
			}
		}
		return out
	}
	tg.canonicals = func(p0, t1, t2, sgn int, out []int32) []int32 {
		lo, hi := p0+t1, p0+t2
		if sgn < 0 {
			lo, hi = p0-t2, p0-t1
		}
		lo, hi = (lo%k+k)%k, (hi%k+k)%k
		if lo <= hi {
			return cover(lo, hi, out)
		}
		return cover(0, hi, cover(lo, k-1, out))
	}
	// walkNodes[((p0*nd+d0)*2+along)*nd+end]: the tree nodes of the walk
	// from p0 with descriptor d0, along the dimension of the hop that
	// brought the escape channel (budget one less) or not, to descriptor
	// end. freeNodes[p0*nd+end]: those of every descriptor at p0, not along.
	tg.walkNodes = make([][]int32, k*nd*2*nd)
	tg.freeNodes = make([][]int32, k*nd)
	for p0 := 0; p0 < k; p0++ {
		for d0 := 0; d0 < nd; d0++ {
			if l.feas[p0]>>d0&1 == 0 {
				continue
			}
			for along := 0; along < 2; along++ {
				for end := 0; end < nd; end++ {
					var nodes []int32
					if d0 == l.none {
						if end == l.none {
							nodes = append(nodes, int32(k+p0))
						}
					} else {
						iv, n := torusWalk(l, p0, d0, l.maxAhead(l.sgn[d0])-along, end)
						for i := 0; i < n; i++ {
							nodes = tg.canonicals(p0, iv[i][0], iv[i][1], l.sgn[d0], nodes)
						}
					}
					tg.walkNodes[((p0*nd+d0)*2+along)*nd+end] = nodes
					if along == 0 {
						tg.freeNodes[p0*nd+end] = append(tg.freeNodes[p0*nd+end], nodes...)
					}
				}
			}
		}
	}
	return tg, true
}

// xTree is the first node of row y's tree for end descriptor dx, class
// cls and kind of walk in y yk (its node i is xTree+i).
func (tg *torusGraph) xTree(y, dx, cls, yk int) int {
	return tg.xBase + (((y*tg.nd+dx)*tg.s.classes+cls)*tg.yKinds+yk)*2*tg.k
}

// yTree is the first node of column x's tree for descriptors dx, dy and
// class cls.
func (tg *torusGraph) yTree(x, dx, dy, cls int) int {
	return tg.yBase + (((x*tg.nd+dx)*tg.nd+dy)*tg.s.classes+cls)*2*tg.k
}

// succ appends the successors of compact node u.
func (tg *torusGraph) succ(u int, out []int32) []int32 {
	s, k, nd := tg.s, tg.k, tg.nd
	l := s.line
	switch {
	case u < s.nE:
		ch := int(s.es.ch[u])
		pr := s.es.peer[ch/s.vcs]
		r, p, v := int(pr.router), int(pr.port), ch%s.vcs
		x, y := s.g.XY(r)
		b := s.portBit(p)
		alongY := p == topology.PlaneYPlus || p == topology.PlaneYMinus
		alongX := p == topology.PlaneXPlus || p == topology.PlaneXMinus
		for cls := 0; cls < s.classes; cls++ {
			st := s.state(r, v, cls, 0)
			var dxs uint8
			for d := 0; d < s.nd2; d++ {
				if s.reached[st+d]&b == 0 {
					continue
				}
				dx, dy := d/nd, d%nd
				switch {
				case !tg.walks[cls]:
					// No walk: the escape channels of r itself.
					out = append(out, int32(tg.yTree(x, dx, dy, cls)+k+y))
				case alongY && dx == l.none:
					// The column's trees, from y with descriptor dy.
					for end := 0; end < nd; end++ {
						t := tg.yTree(x, dx, end, cls)
						for _, i := range tg.walkNodes[((y*nd+dy)*2+1)*nd+end] {
							out = append(out, int32(t)+i)
						}
					}
				case alongY:
					// The row's trees, then the column's from y with
					// descriptor dy.
					for end := 0; end < nd; end++ {
						t := tg.xTree(y, end, cls, 1+dy)
						for _, i := range tg.walkNodes[((x*nd+dx)*2)*nd+end] {
							out = append(out, int32(t)+i)
						}
					}
				default:
					dxs |= 1 << dx
				}
			}
			along := 0
			if alongX {
				along = 1
			}
			for m := dxs; m != 0; m &= m - 1 {
				dx := bits.TrailingZeros8(m)
				for end := 0; end < nd; end++ {
					t := tg.xTree(y, end, cls, 0)
					for _, i := range tg.walkNodes[((x*nd+dx)*2+along)*nd+end] {
						out = append(out, int32(t)+i)
					}
				}
			}
		}
	case u < tg.yBase:
		i := (u - tg.xBase) % (2 * k)
		if i < k {
			return append(out, int32(u+i), int32(u+i+1))
		}
		tree := (u - tg.xBase) / (2 * k)
		yk, tree := tree%tg.yKinds, tree/tg.yKinds
		cls, tree := tree%s.classes, tree/s.classes
		dx, y := tree%nd, tree/nd
		x := i - k
		// From the row's router, the column's trees: any descriptor in y
		// from y (free), or from the one it had.
		for end := 0; end < nd; end++ {
			t := tg.yTree(x, dx, end, cls)
			nodes := tg.freeNodes[y*nd+end]
			if yk > 0 {
				nodes = tg.walkNodes[((y*nd+yk-1)*2+1)*nd+end]
			}
			for _, i := range nodes {
				out = append(out, int32(t)+i)
			}
		}
	default:
		i := (u - tg.yBase) % (2 * k)
		if i < k {
			return append(out, int32(u+i), int32(u+i+1))
		}
		tree := (u - tg.yBase) / (2 * k)
		cls := tree % s.classes
		d := tree / s.classes % (nd * nd)
		x, y := tree/s.classes/(nd*nd), i-k
		if d == s.here || !s.feasible(x, y, d) {
			return out
		}
		r := s.g.Router(x, y)
		return s.escapes(r, topology.PlaneLocal, tg.lowerVC, cls, s.rep(r, d), out)
	}
	return out
}
