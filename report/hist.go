// Package report owns measurement: per-node collectors that observe
// delivered packets without shared counters, mergeable histograms, the
// result of a run with its digest, and its text, CSV and JSON forms.
//
// Collectors know nothing of routers: a collector is handed the tail flit of
// each delivered packet (link.Flit) and decides by generation time whether the
// packet belongs to the measurement. Collectors are merged in node order at
// the end of a run, so results are identical whatever executor ran them.
//
// It may import link and clock only.
package report

import (
	"math"
	"math/bits"
)

// subBuckets is the number of exact values before buckets widen: values below
// 1024 are exact, larger ones fall in buckets of relative width <= 1/512.
const subBits = 10

// Histogram is a mergeable log-linear histogram of non-negative integers
// (latencies in cycles). Recording allocates only when values outside the
// range of buckets allocated so far keep coming.
//
// A large network keeps two histograms per node, so their size matters: the
// counts cover a range of buckets (Reserve, or the first values seen), one
// byte each; a count that reaches 256 carries into a second array of high
// parts, allocated for the whole range the first time one does. A value
// outside the range waits in a small inline tail of tailCap buckets, and
// only when the tail is full does the range grow (doubling on the side it
// grows) to take them all: below saturation a node's few latencies beyond
// its reserved range cost no allocation for a long time.
// A node of a 64x64 torus then holds about 280 bytes of counts per
// histogram, where a dense array of 64-bit counts took 2 KiB or more.
type Histogram struct {
	low   []uint8   // low byte of the count of bucket lo+j
	high  *[]uint32 // count >> 8 of bucket lo+j; nil until a count reaches 256
	lo    int32     // bucket of low[0]
	nTail int32
	tail  [tailCap]uint32 // buckets of values outside the range, not yet counted in it
	n     uint64
	sum   uint64
	min   uint64
	max   uint64
}

// tailCap is the number of out-of-range values a histogram holds before
// its range grows.
const tailCap = 4

func bucketOf(v uint64) int {
	g := bits.Len64(v) - subBits
	if g <= 0 {
		return int(v)
	}
	return g<<(subBits-1) + int(v>>uint(g))
}

func bucketLow(i int) uint64 {
	if i < 1<<subBits {
		return uint64(i)
	}
	g := i>>(subBits-1) - 1
	return uint64(i-g<<(subBits-1)) << uint(g)
}

// count is the count of bucket lo+j in the range (the tail not included).
func (h *Histogram) count(j int) uint64 {
	c := uint64(h.low[j])
	if h.high != nil {
		c += uint64((*h.high)[j]) << 8
	}
	return c
}

// Record adds one value.
func (h *Histogram) Record(v uint64) {
	i := bucketOf(v)
	if j := i - int(h.lo); uint(j) < uint(len(h.low)) {
		h.low[j]++
		if h.low[j] == 0 {
			h.carry(j, 1)
		}
	} else if h.nTail < tailCap {
		h.tail[h.nTail] = uint32(i)
		h.nTail++
	} else {
		h.spill(i)
	}
	if h.n == 0 || v < h.min {
		h.min = v
	}
	if v > h.max {
		h.max = v
	}
	h.n++
	h.sum += v
}

// spill grows the range to take the tail and bucket i, and counts them in
// it; kept out of line.
//
//go:noinline
func (h *Histogram) spill(i int) {
	h.ensure(h.tailSpan(i, i))
	h.add(i, 1)
	h.settle()
}

// tailSpan widens the span of buckets a..b to take the tail's.
func (h *Histogram) tailSpan(a, b int) (int, int) {
	for _, t := range h.tail[:h.nTail] {
		a, b = min(a, int(t)), max(b, int(t))
	}
	return a, b
}

// ensure grows the range, if needed, to hold buckets a..b.
func (h *Histogram) ensure(a, b int) {
	if len(h.low) == 0 || a < int(h.lo) || b >= int(h.lo)+len(h.low) {
		h.cover(a, b)
	}
}

// settle counts the tail in the range, growing it if needed.
func (h *Histogram) settle() {
	if h.nTail == 0 {
		return
	}
	h.ensure(h.tailSpan(int(h.tail[0]), int(h.tail[0])))
	for _, t := range h.tail[:h.nTail] {
		h.add(int(t), 1)
	}
	h.nTail = 0
}

// add adds c to the count of bucket i, which must be in the range.
func (h *Histogram) add(i int, c uint64) {
	j := i - int(h.lo)
	t := uint64(h.low[j]) + c
	h.low[j] = uint8(t)
	if t >>= 8; t > 0 {
		h.carry(j, t)
	}
}

// carry adds c to the high part of bucket lo+j; kept out of line.
//
//go:noinline
func (h *Histogram) carry(j int, c uint64) {
	if h.high == nil {
		high := make([]uint32, len(h.low))
		h.high = &high
	}
	c += uint64((*h.high)[j])
	if c > math.MaxUint32 {
		panic("report: histogram bucket count over 2^40")
	}
	(*h.high)[j] = uint32(c)
}

// cover widens the range of buckets to hold buckets a..b. A first range
// spans at least 128 buckets, a quarter of them below a; a range that
// must grow at least doubles on the side it grows, so a drifting tail
// reallocates it a logarithmic number of times.
func (h *Histogram) cover(a, b int) {
	var lo, hi int
	if len(h.low) == 0 {
		lo = max(0, a-32)
		hi = max(b+1, lo+128)
	} else {
		n := len(h.low)
		lo, hi = int(h.lo), int(h.lo)+n
		if a < lo {
			lo = max(0, min(a, lo-n))
		}
		if b >= hi {
			hi = max(b+1, hi+n)
		}
	}
	low := make([]uint8, hi-lo)
	if len(h.low) > 0 {
		copy(low[int(h.lo)-lo:], h.low)
	}
	if h.high != nil {
		high := make([]uint32, hi-lo)
		copy(high[int(h.lo)-lo:], *h.high)
		h.high = &high
	}
	h.low, h.lo = low, int32(lo)
}

// Reserve makes an empty histogram hold the values 0..maxValue in its
// range (not in its tail).
func (h *Histogram) Reserve(maxValue uint64) {
	if len(h.low) == 0 {
		h.cover(0, bucketOf(maxValue))
	}
}

// Merge adds all of o's values.
func (h *Histogram) Merge(o *Histogram) {
	if o.n == 0 {
		return
	}
	h.settle()
	a, b := int(o.lo), int(o.lo)+len(o.low)-1
	if len(o.low) == 0 {
		a, b = int(o.tail[0]), int(o.tail[0])
	}
	h.ensure(o.tailSpan(a, b))
	for j := range o.low {
		if c := o.count(j); c > 0 {
			h.add(int(o.lo)+j, c)
		}
	}
	for _, t := range o.tail[:o.nTail] {
		h.add(int(t), 1)
	}
	if h.n == 0 || o.min < h.min {
		h.min = o.min
	}
	h.max = max(h.max, o.max)
	h.n += o.n
	h.sum += o.sum
}

// Count is the number of values.
func (h *Histogram) Count() uint64 { return h.n }

// Mean is the exact mean (0 when empty).
func (h *Histogram) Mean() float64 {
	if h.n == 0 {
		return 0
	}
	return float64(h.sum) / float64(h.n)
}

// Sum is the exact sum of the values.
func (h *Histogram) Sum() uint64 { return h.sum }

// Max is the largest value.
func (h *Histogram) Max() uint64 { return h.max }

// Quantile returns the smallest recorded bucket value v such that at least a
// share q of the values are <= v (exact below 1024, within 1/512 above).
func (h *Histogram) Quantile(q float64) uint64 {
	if h.n == 0 {
		return 0
	}
	// The smallest rank r with r >= q*n: at least a share q is at or below it.
	rank := uint64(math.Ceil(q*float64(h.n) - 1e-9))
	rank = max(1, min(rank, h.n))
	h.settle()
	var seen uint64
	for j := range h.low {
		seen += h.count(j)
		if seen >= rank {
			return max(h.min, min(bucketLow(int(h.lo)+j), h.max))
		}
	}
	return h.max
}

// CDF returns (value, cumulative share) points, one per non-empty bucket.
func (h *Histogram) CDF() [][2]float64 {
	h.settle()
	var out [][2]float64
	var seen uint64
	for j := range h.low {
		c := h.count(j)
		if c == 0 {
			continue
		}
		seen += c
		out = append(out, [2]float64{float64(bucketLow(int(h.lo) + j)), float64(seen) / float64(h.n)})
	}
	return out
}
