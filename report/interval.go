package report

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

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
// freedom (gonum's distuv).
func tQuantile975(df int) float64 {
	return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(df)}.Quantile(0.975)
}
