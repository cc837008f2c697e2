package sat

import (
	"testing"

	"github.com/icnsim/icnsim/internal/policytest"
)

// FuzzParse feeds SAT's values of policy.injection to Parse, which must
// have policytest.RoundTrip's property.
func FuzzParse(f *testing.F) {
	defaults := Params{L: 12, K: 12}
	for _, s := range []string{
		// as the shipped studies write them
		"sat", "sat(12,12,ring)", "sat(16,16,tree)", "sat(l=8,k=8)", "sat(k=4,l=4,ring)", "sat(4,4)",
		// and as they must not
		"sat(0,0)", "sat(l=1,l=2)", "sat(ring,tree)", "sat(1,2,3)", "sat(x=1)", "sat(4,4", " SAT ", "", "(", ")", "sat(",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		policytest.RoundTrip(t, s, func(v string) (Params, error) {
			p, _, err := Parse(v, defaults)
			return p, err
		})
	})
}
