package study

import (
	"strings"
	"testing"
)

// TestPoliciesOnTheSwitchRefused: entropy throttling and SAT install on
// the VC router only; on the input/output-buffered switch (router.kind =
// "ioq") every injection policy, and the entropy measurement circuit, is
// refused by validate with an error keyed to policy.injection (or
// policy.measure_circuit), before anything is built, and run refuses it
// alike.
func TestPoliciesOnTheSwitchRefused(t *testing.T) {
	for _, c := range []struct {
		name   string
		set    func(p *Policy)
		key    string
		reason string
	}{
		{"entropy base", func(p *Policy) { p.Injection = "base(90,30)" }, "policy.injection", `injection policies run on router.kind = "vc" only`},
		{"entropy hyst", func(p *Policy) { p.Injection = "hyst(70,90,30)" }, "policy.injection", `injection policies run on router.kind = "vc" only`},
		{"entropy gt.x", func(p *Policy) { p.Injection = "gt.x(16,70,90,30)" }, "policy.injection", `injection policies run on router.kind = "vc" only`},
		{"SAT ring", func(p *Policy) { p.Injection = "sat(4,8,ring)" }, "policy.injection", `injection policies run on router.kind = "vc" only`},
		{"SAT tree", func(p *Policy) { p.Injection = "sat(4,8,tree)" }, "policy.injection", `injection policies run on router.kind = "vc" only`},
		{"measurement circuit", func(p *Policy) { p.MeasureCircuit = true }, "policy.measure_circuit", `the entropy measurement circuit runs on router.kind = "vc" only`},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := BenchScenarios()["mesh16-ioq-uniform"]
			c.set(&cfg.Policy)
			errs := cfg.Validate()
			found := false
			for _, err := range errs {
				if strings.HasPrefix(err.Error(), c.key+" = ") && strings.Contains(err.Error(), c.reason) {
					found = true
				}
			}
			if !found {
				t.Fatalf("on the ioq switch: got %v, want an error keyed %s saying %q", errs, c.key, c.reason)
			}
			// The same policy on the VC router of the same mesh validates.
			vc := BenchScenarios()["mesh16-vc-uniform"]
			c.set(&vc.Policy)
			if errs := vc.Validate(); len(errs) != 0 {
				t.Fatalf("on the VC router: %v", errs)
			}
		})
	}
}
