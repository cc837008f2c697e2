// Package report owns measurement: per-node collectors that observe
// delivered packets without shared counters, mergeable histograms, the
// result of a run with its digest, and its text, CSV and JSON forms.
//
// Collectors know nothing of routers: a collector is handed the tail flit of
// each delivered packet (link.Flit) and decides by generation time whether the
// packet belongs to the measurement. Collectors are merged in node order at
// the end of a run, so results are identical whatever executor ran them.
package report

import (
	"math"
	"math/bits"
)

// subBuckets is the number of exact values before buckets widen: values below
// 1024 are exact, larger ones fall in buckets of relative width <= 1/512.
const subBits = 10

// Histogram is a mergeable log-linear histogram of non-negative integers
// (latencies in cycles). Recording does not allocate unless a value larger
// than any seen before needs a new bucket. Its bucket array grows only as far
// as the largest value seen (at least 256 buckets, doubling): a large network
// keeps two histograms per node, and at the latencies of a network below
// saturation that is 2 KiB each instead of 8 KiB, which keeps
// the per-node collectors out of the caches the routers need.
type Histogram struct {
	counts []uint64
	n      uint64
	sum    uint64
	min    uint64
	max    uint64
}

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

// Record adds one value.
func (h *Histogram) Record(v uint64) {
	i := bucketOf(v)
	if i >= len(h.counts) {
		n := max(2*len(h.counts), 256, i+1)
		c := make([]uint64, n)
		copy(c, h.counts)
		h.counts = c
	}
	h.counts[i]++
	if h.n == 0 || v < h.min {
		h.min = v
	}
	if v > h.max {
		h.max = v
	}
	h.n++
	h.sum += v
}

// Merge adds all of o's values.
func (h *Histogram) Merge(o *Histogram) {
	if o.n == 0 {
		return
	}
	if len(o.counts) > len(h.counts) {
		c := make([]uint64, len(o.counts))
		copy(c, h.counts)
		h.counts = c
	}
	for i, c := range o.counts {
		h.counts[i] += c
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
	var seen uint64
	for i, c := range h.counts {
		seen += c
		if seen >= rank {
			return max(h.min, min(bucketLow(i), h.max))
		}
	}
	return h.max
}

// CDF returns (value, cumulative share) points, one per non-empty bucket.
func (h *Histogram) CDF() [][2]float64 {
	var out [][2]float64
	var seen uint64
	for i, c := range h.counts {
		if c == 0 {
			continue
		}
		seen += c
		out = append(out, [2]float64{float64(bucketLow(i)), float64(seen) / float64(h.n)})
	}
	return out
}
