package entropy

import (
	"math"
	"testing"

	"github.com/icnsim/icnsim/link"
)

func TestParseGate(t *testing.T) {
	def := GateParams{RthPercent: 70, ROnPercent: 70, ROffPercent: 90, RnPercent: 25, GuardCycles: 8}
	for _, tc := range []struct {
		in      string
		want    string
		hasArgs bool
		bad     bool
	}{
		{in: "noth", want: "noth"},
		{in: "none", want: "noth"},
		{in: "base", want: "base(70,25)"},
		{in: "base(90,30)", want: "base(90,30)", hasArgs: true},
		{in: " hyst( 70 , 90 , 30 ) ", want: "hyst(70,90,30)", hasArgs: true},
		{in: "gt.a(8,70,90,30)", want: "gt.a(8,70,90,30)", hasArgs: true},
		{in: "gt.x(16,5,98,0)", want: "gt.x(16,5,98,0)", hasArgs: true},
		{in: "gt.x", want: "gt.x(8,70,90,25)"},
		{in: "base(90)", bad: true},
		{in: "base(90,30", bad: true},
		{in: "hyst(70,x,30)", bad: true},
		{in: "hyst(70,190,30)", bad: true},
		{in: "base(-1,30)", bad: true},
		{in: "gt.x(2.5,70,90,30)", bad: true},
		{in: "entropy", bad: true},
	} {
		p, has, err := ParseGate(tc.in, def)
		if tc.bad {
			if err == nil {
				t.Errorf("%q accepted as %v", tc.in, p)
			}
			continue
		}
		if err != nil || p.String() != tc.want || has != tc.hasArgs {
			t.Errorf("%q: got %v (args %v), %v; want %s (args %v)", tc.in, p, has, err, tc.want, tc.hasArgs)
		}
	}
}

// TestGateTransitions: the throttled-mode transitions of every model,
// including both hysteresis orders and the forced release.
func TestGateTransitions(t *testing.T) {
	const routers = 100
	base := GateParams{Model: Base, RthPercent: 70, RnPercent: 25}
	hystUp := GateParams{Model: Hyst, ROnPercent: 60, ROffPercent: 80, RnPercent: 25}   // R_OFF > R_ON
	hystDown := GateParams{Model: Hyst, ROnPercent: 80, ROffPercent: 60, RnPercent: 25} // R_OFF < R_ON
	gtx := hystUp
	gtx.Model, gtx.GuardCycles = GuardFixed, 4
	c := func(valid, active int32) Counts { return Counts{Valid: valid, Active: active} }
	for _, tc := range []struct {
		name string
		p    GateParams
		on   bool
		in   Counts
		want bool
	}{
		{"noth never", GateParams{Model: Noth}, false, c(1000, 0), false},
		{"base congested", base, false, c(100, 69), true},
		{"base at threshold is free", base, true, c(100, 70), false},
		{"base free", base, true, c(100, 90), false},
		{"base forced release", base, false, c(24, 0), false},
		{"base release boundary N_v = R_n N_r", base, false, c(25, 0), true},
		{"base empty network", GateParams{Model: Base, RthPercent: 100, RnPercent: 0}, false, c(0, 0), false},
		// R_OFF > R_ON: a band where the mode holds.
		{"hyst up: off stays off in band", hystUp, false, c(100, 70), false},
		{"hyst up: on stays on in band", hystUp, true, c(100, 70), true},
		{"hyst up: trigger", hystUp, false, c(100, 59), true},
		{"hyst up: release", hystUp, true, c(100, 81), false},
		{"hyst up: at R_OFF stays on", hystUp, true, c(100, 80), true},
		{"hyst up: forced release", hystUp, true, c(10, 0), false},
		// R_OFF < R_ON: in the band both conditions hold, evaluated independently,
		// so the mode flips every cycle.
		{"hyst down: off -> on in band", hystDown, false, c(100, 70), true},
		{"hyst down: on -> off in band", hystDown, true, c(100, 70), false},
		{"hyst down: on stays on below R_OFF", hystDown, true, c(100, 50), true},
		{"hyst down: off stays off above R_ON", hystDown, false, c(100, 90), false},
		{"hyst equal thresholds", GateParams{Model: Hyst, ROnPercent: 70, ROffPercent: 70}, false, c(100, 69), true},
		{"gt.x as hyst", gtx, false, c(100, 59), true},
		{"gt.x forced release", gtx, true, c(0, 0), false},
		{"hyst R_OFF = 100 never releases by R_a", GateParams{Model: Hyst, ROnPercent: 50, ROffPercent: 100}, true, c(100, 100), true},
		{"hyst R_OFF = 100, empty network, R_n = 0", GateParams{Model: Hyst, ROnPercent: 50, ROffPercent: 100}, true, c(0, 0), true},
	} {
		if got := tc.p.Next(tc.on, tc.in, routers); got != tc.want {
			t.Errorf("%s: %v from on=%v with N_v=%d N_a=%d: got %v, want %v", tc.name, tc.p, tc.on, tc.in.Valid, tc.in.Active, got, tc.want)
		}
	}
}

// TestGuardTime: gt.x waits exactly t_G cycles after a tail; gt.a draws
// uniformly from 0..2 t_G (chi-square over the 2 t_G + 1 values, and the mean).
func TestGuardTime(t *testing.T) {
	lane := link.NewLane[Counts]("test", 1)
	gx := NewGate(GateParams{Model: GuardFixed, ROnPercent: 50, ROffPercent: 60, GuardCycles: 5}, 4, lane, 1)
	gx.Injected(100)
	for now := int64(100); now <= 106; now++ {
		if got, want := gx.Allow(clockOf(now)), now >= 106; got != want {
			t.Errorf("gt.x(5) after a tail at 100: Allow(%d) = %v, want %v", now, got, want)
		}
	}
	const tg, n = 8, 170_000
	ga := NewGate(GateParams{Model: GuardRandom, ROnPercent: 50, ROffPercent: 60, GuardCycles: tg}, 4, lane, 7)
	counts := make([]int, 2*tg+1)
	sum := 0
	for range n {
		d := ga.GuardDraw()
		if d < 0 || d > 2*tg {
			t.Fatalf("gt.a(%d) drew %d, outside 0..%d", tg, d, 2*tg)
		}
		counts[d]++
		sum += d
	}
	exp := float64(n) / float64(len(counts))
	chi := 0.0
	for _, c := range counts {
		chi += (float64(c) - exp) * (float64(c) - exp) / exp
	}
	// 16 degrees of freedom: P(chi2 > 39.25) = 0.001.
	if chi > 39.25 {
		t.Errorf("gt.a guard times not uniform: chi-square %.1f over %v", chi, counts)
	}
	if mean := float64(sum) / n; math.Abs(mean-tg) > 0.05 {
		t.Errorf("gt.a(%d) mean guard time %.3f", tg, mean)
	}
	// The drawn guard time is applied after the tail.
	ga2 := NewGate(GateParams{Model: GuardRandom, GuardCycles: tg}, 4, lane, 9)
	ref := NewGate(GateParams{Model: GuardRandom, GuardCycles: tg}, 4, lane, 9)
	for i := range 50 {
		d := ref.GuardDraw()
		at := clockOf(int64(1000 * i))
		ga2.Injected(at)
		if ga2.Allow(at+clockOf(int64(d))) || !ga2.Allow(at+clockOf(int64(d)+1)) {
			t.Fatalf("gt.a draw %d not applied after the tail at %d", d, at)
		}
	}
}
