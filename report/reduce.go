package report

import "math"

// MeanStd is the mean and the sample standard deviation (n-1 in the
// denominator; 0 for a single value) of xs, rounded like every result.
func MeanStd(xs []float64) (mean, std float64) {
	if len(xs) == 0 {
		return math.NaN(), math.NaN()
	}
	var sum float64
	for _, x := range xs {
		sum += x
	}
	mean = sum / float64(len(xs))
	if len(xs) > 1 {
		var sq float64
		for _, x := range xs {
			sq += (x - mean) * (x - mean)
		}
		std = math.Sqrt(sq / float64(len(xs)-1))
	}
	return round(mean), round(std)
}

// GeoMean is the geometric mean of xs, NaN when empty or when a value is not
// positive (a geometric mean of ratios needs positive ratios).
func GeoMean(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	var logs float64
	for _, x := range xs {
		if !(x > 0) {
			return math.NaN()
		}
		logs += math.Log(x)
	}
	return round(math.Exp(logs / float64(len(xs))))
}

// SpeedUp is how much better value is than baseline, as a ratio above 1 when
// better: baseline/value when smaller is better (durations, latencies),
// value/baseline when larger is better (throughput). NaN when undefined.
func SpeedUp(value, baseline float64, smallerIsBetter bool) float64 {
	num, den := value, baseline
	if smallerIsBetter {
		num, den = baseline, value
	}
	if den == 0 || math.IsNaN(num) || math.IsNaN(den) {
		return math.NaN()
	}
	return round(num / den)
}

// Best is the index of the best value of xs (the first on ties; NaN never
// wins), or -1 when there is none.
func Best(xs []float64, smallerIsBetter bool) int {
	best := -1
	for i, x := range xs {
		if math.IsNaN(x) {
			continue
		}
		if best < 0 || (smallerIsBetter && x < xs[best]) || (!smallerIsBetter && x > xs[best]) {
			best = i
		}
	}
	return best
}
