package study

import "github.com/icnsim/icnsim/report"

// mser5 is where the transient of xs (a time series sampled every
// sampleCycles cycles, the first sample at cycle firstCycle) ends, by
// MSER-5 (White, 1997; White, Cobb and Spratt, 2000): the series is cut
// into batches of 5 samples, and the truncation point is the batch d that
// minimises the standard error of the mean of the batches from d on,
// sum over j >= d of (x_j - mean)^2 / (n - d)^2, searched over the first
// half of the batches (the usual rule: a truncation past the middle
// leaves too few batches to judge). It returns the cycle of the first
// sample kept, and 0 with fewer than 4 batches.
func mser5(xs []float64, firstCycle, sampleCycles int64) int64 {
	const b = 5
	n := len(xs) / b
	if n < 4 {
		return 0
	}
	means := make([]float64, n)
	for j := range means {
		for _, x := range xs[j*b : (j+1)*b] {
			means[j] += x / b
		}
	}
	// Suffix sums give every d's mean and squares in one pass.
	sum, sq := make([]float64, n+1), make([]float64, n+1)
	for j := n - 1; j >= 0; j-- {
		sum[j], sq[j] = sum[j+1]+means[j], sq[j+1]+means[j]*means[j]
	}
	best, bestStat := 0, 0.0
	for d := 0; d <= n/2; d++ {
		k := float64(n - d)
		mean := sum[d] / k
		stat := (sq[d] - k*mean*mean) / (k * k)
		if d == 0 || stat < bestStat {
			best, bestStat = d, stat
		}
	}
	return firstCycle + int64(best*b)*sampleCycles
}

// detectWarmup fills res.WarmupDetectedCycles by MSER-5 over the packets
// in the system (in flight and queued at the sources) sampled up to the
// end of the measurement window.
func detectWarmup(m *Measure, series []report.Sample, res *report.Result) {
	if m.WarmupDetect != "mser-5" || len(series) == 0 {
		return
	}
	var xs []float64
	for _, s := range series {
		if s.Cycle > res.MeasureToCycle {
			break
		}
		xs = append(xs, float64(s.InFlightPackets+s.SourceQueuedPackets))
	}
	res.WarmupDetectedCycles = mser5(xs, series[0].Cycle, m.SampleCycles)
}
