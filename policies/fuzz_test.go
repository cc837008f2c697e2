package policies

import (
	"strings"
	"testing"
)

// FuzzParseGate feeds injection-model strings (policy.injection, as the
// papers write them) to ParseGate: it either rejects one with an error, or
// accepts parameters that validate and that print
// (String, which results and figure titles use) as a string that parses
// back to the same model.
func FuzzParseGate(f *testing.F) {
	defaults := GateParams{RthPercent: 90, ROnPercent: 70, ROffPercent: 90, RnPercent: 30, GuardCycles: 16, SAT: SATParams{L: 12, K: 12}}
	for _, name := range ModelNames() {
		f.Add(name)
		f.Add(name + "()")
		f.Add(name + "(1,2,3,4,5)")
	}
	for _, s := range []string{
		// as the shipped studies write them
		"base(90,30)", "hyst(70,90,30)", "gt.a(16,90,80,80)", "gt.x(16,90,80,80)", "gt.a(0,100,100,0)",
		"sat(12,12,ring)", "sat(16,16,tree)", "sat(l=8,k=8)", "sat(k=4,l=4,ring)", "sat(4,4)",
		// and as they must not
		"hyst(70,90", "hyst(70,,30)", "hyst(70,90,30))", "base(nan,30)", "base(inf,30)", "base(-1,30)",
		"gt.a(16.5,90,80,80)", "gt.a(1e30,90,80,80)", "gt.x(-1,90,80,80)", "sat(0,0)", "sat(l=1,l=2)",
		"sat(ring,tree)", "sat(1,2,3)", "sat(x=1)", " HYST ", "", "(", ")", "noth(", "entropy",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, _, err := ParseGate(s, defaults)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty error")
			}
			return
		}
		if err := p.Validate(); err != nil {
			t.Fatalf("%q accepted as %v, which does not validate: %v", s, p, err)
		}
		printed := p.String()
		q, _, err := ParseGate(printed, defaults)
		if err != nil {
			t.Fatalf("%q prints as %q, which does not parse: %v", s, printed, err)
		}
		if again := q.String(); again != printed || q.Model != p.Model {
			t.Fatalf("%q prints as %q, which reads back as %q", s, printed, again)
		}
		if strings.ContainsAny(printed, " \n") {
			t.Fatalf("%q prints as %q, with spaces", s, printed)
		}
	})
}
