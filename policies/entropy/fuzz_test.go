package entropy

import (
	"testing"

	"github.com/icnsim/icnsim/internal/policytest"
)

// FuzzParseGate feeds injection-model strings (policy.injection, as the
// papers write them) to ParseGate, which must have policytest.RoundTrip's
// property.
func FuzzParseGate(f *testing.F) {
	defaults := GateParams{RthPercent: 90, ROnPercent: 70, ROffPercent: 90, RnPercent: 30, GuardCycles: 16}
	for _, name := range ModelNames() {
		f.Add(name)
		f.Add(name + "()")
		f.Add(name + "(1,2,3,4,5)")
	}
	for _, s := range []string{
		// as the shipped studies write them
		"base(90,30)", "hyst(70,90,30)", "gt.a(16,90,80,80)", "gt.x(16,90,80,80)", "gt.a(0,100,100,0)",
		// and as they must not
		"hyst(70,90", "hyst(70,,30)", "hyst(70,90,30))", "base(nan,30)", "base(inf,30)", "base(-1,30)",
		"gt.a(16.5,90,80,80)", "gt.a(1e30,90,80,80)", "gt.x(-1,90,80,80)",
		" HYST ", "", "(", ")", "noth(", "entropy",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		policytest.RoundTrip(t, s, func(v string) (GateParams, error) {
			p, _, err := ParseGate(v, defaults)
			return p, err
		})
	})
}
