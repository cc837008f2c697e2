package study

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/icnsim/icnsim/clock"
	"github.com/icnsim/icnsim/report"
)

// quietPolicy is a running policy without figures of its own.
type quietPolicy struct{}

func (quietPolicy) Check(clock.Cycle) error { return nil }
func (quietPolicy) Window(_, _ clock.Cycle) {}

// reportingPolicy is one that reports the window's length and the end.
type reportingPolicy struct{ quietPolicy }

func (reportingPolicy) Name() string { return "fake" }
func (reportingPolicy) Figures(from, to, end clock.Cycle) map[string]float64 {
	return map[string]float64{"window_cycles": float64(to - from), "end_cycle": float64(end)}
}

// TestPolicyFiguresKeyedByName: a policy that reports figures of its own
// (policies.Reporter) has them in the result under its name, in the JSON
// as "policies": {"NAME": {...}}; a policy without figures adds nothing,
// so a result's JSON and digest are what they were before the key existed.
func TestPolicyFiguresKeyedByName(t *testing.T) {
	res := &report.Result{MeasureFromCycle: 100, MeasureToCycle: 400}
	plain := *res
	before := plain.Digest()
	(&policyObserver{run: reportingPolicy{}}).result(nil, 450, res)
	if got := res.Policies["fake"]; got["window_cycles"] != 300 || got["end_cycle"] != 450 || len(res.Policies) != 1 {
		t.Fatalf("policies = %v, want fake: window_cycles 300, end_cycle 450", res.Policies)
	}
	b, err := json.Marshal(res)
	if err != nil || !strings.Contains(string(b), `"policies":{"fake":{"end_cycle":450,"window_cycles":300}}`) {
		t.Fatalf("JSON %s (%v) lacks the keyed figures", b, err)
	}
	(&policyObserver{run: quietPolicy{}}).result(nil, 450, &plain)
	if b, _ := json.Marshal(&plain); plain.Policies != nil || strings.Contains(string(b), "policies") || plain.Digest() != before {
		t.Fatalf("a policy without figures changed the result: %s", b)
	}
}
