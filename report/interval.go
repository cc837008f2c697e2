package report

import "math"

// CIHalfWidth95 is the half-width of the 95% confidence interval of the
// mean of n values whose sample standard deviation is std: Student's t
// with n - 1 degrees of freedom times std / sqrt(n). NaN for n < 2, where
// there is no interval.
func CIHalfWidth95(std float64, n int) float64 {
	if n < 2 || math.IsNaN(std) {
		return math.NaN()
	}
	return tQuantile975(n-1) * std / math.Sqrt(float64(n))
}

// tQuantile975 is the 0.975 quantile of Student's t with df degrees of
// freedom: the table to 30, then the normal quantile with the first two
// Cornish-Fisher terms, (z^3 + z) / (4 df) and (5z^5 + 16z^3 + 3z) /
// (96 df^2), within 0.0005 of the exact value.
func tQuantile975(df int) float64 {
	table := [...]float64{12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
		2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
		2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042}
	if df >= 1 && df <= len(table) {
		return table[df-1]
	}
	const z = 1.959964
	d := float64(df)
	z3, z5 := z*z*z, z*z*z*z*z
	return z + (z3+z)/(4*d) + (5*z5+16*z3+3*z)/(96*d*d)
}
