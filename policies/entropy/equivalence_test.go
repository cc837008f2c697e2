package entropy

import (
	"math/rand/v2"
	"testing"
)

// TestThresholdBoxReproducesDecisions: for random reading sequences and
// thresholds P, every grid point Q inside the box recorded while P decided
// takes exactly P's decisions on the same readings, cycle by cycle (which is
// the induction step of the run-level equivalence: same decisions, same
// network, same readings). It also checks that the box holds P, and that it
// is not trivially small.
func TestThresholdBoxReproducesDecisions(t *testing.T) {
	const routers = 64
	grid := []float64{0, 1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 98, 100}
	rng := rand.New(rand.NewPCG(7, 11))
	inside, checked := 0, 0
	for trial := 0; trial < 300; trial++ {
		// A reading sequence: a network filling, congesting and draining.
		readings := make([]Counts, 200)
		for i := range readings {
			phase := float64(i) / float64(len(readings))
			level := 4 * phase * (1 - phase) // 0 -> 1 -> 0
			valid := int32(rng.Float64() * level * 3 * routers)
			if rng.IntN(10) == 0 {
				valid = int32(rng.IntN(routers / 2)) // the sparse regime of the forced release
			}
			active := int32(0)
			if valid > 0 {
				active = int32(rng.Int64N(int64(valid) + 1))
			}
			if rng.IntN(3) == 0 {
				// Readings on the grid's edges: R_a a multiple of 5% and
				// 100 N_v equal to R_n N_r for some grid R_n, so that an
				// off-by-one bound shows.
				valid = 20 * int32(1+rng.IntN(3*routers/20))
				if rng.IntN(2) == 0 {
					valid = int32(grid[rng.IntN(len(grid))] * routers / 100)
				}
				active = valid / 20 * int32(rng.IntN(21))
			}
			readings[i] = Counts{Valid: valid, Active: active}
		}
		pick := func() float64 { return grid[rng.IntN(len(grid))] }
		model := []Model{Base, Hyst, GuardFixed}[trial%3]
		p := GateParams{Model: model, RthPercent: pick(), ROnPercent: pick(), ROffPercent: pick(), RnPercent: pick(), GuardCycles: 4}
		decide := func(q GateParams, box *ThresholdBox) []bool {
			on := false
			out := make([]bool, len(readings))
			for i, c := range readings {
				on = q.next(on, c, routers, box)
				out[i] = on
			}
			return out
		}
		box := AnyThresholds()
		want := decide(p, &box)
		if !box.Contains(p, routers) {
			t.Fatalf("trial %d: the box %+v does not hold its own thresholds %v", trial, box, p)
		}
		for range 200 {
			q := p
			q.RthPercent, q.ROnPercent, q.ROffPercent, q.RnPercent = pick(), pick(), pick(), pick()
			if !box.Contains(q, routers) {
				continue
			}
			checked++
			if q != p {
				inside++
			}
			got := decide(q, nil)
			for i := range got {
				if got[i] != want[i] {
					t.Fatalf("trial %d: %v is in the box of %v but decides %v at step %d (readings %+v)", trial, q, p, got[i], i, readings[i])
				}
			}
		}
	}
	t.Logf("%d thresholds in recorded boxes checked, %d of them other than the recording run's", checked, inside)
	if inside < 100 {
		t.Errorf("only %d other thresholds fell in the boxes: the box is needlessly small", inside)
	}
}

// TestThresholdBoxNoth: noth compares nothing, so any thresholds reproduce it.
func TestThresholdBoxNoth(t *testing.T) {
	box := AnyThresholds()
	p := GateParams{Model: Noth}
	for _, c := range []Counts{{Valid: 0}, {Valid: 10, Active: 1}} {
		p.next(false, c, 16, &box)
	}
	if !box.Contains(GateParams{Model: Noth, RnPercent: 98, ROnPercent: 5, ROffPercent: 100, RthPercent: 0}, 16) {
		t.Fatalf("noth's box %+v excludes some thresholds", box)
	}
}
