package study

import (
	"context"
	"testing"

	"github.com/icnsim/icnsim/actor"
)

// TestOnCycleChangesNothing: a run reports its cycles to OnCycle, rising,
// at most a step apart and up to its end, and gives the digest it gives
// without the hook, under each executor; ExpectedCycles is the warm-up
// and the window it runs before its drain.
func TestOnCycleChangesNothing(t *testing.T) {
	c := small(func(c *Config) {
		c.Traffic.Pattern, c.Traffic.Process, c.Traffic.Load = "uniform", "bernoulli", 0.2
	})
	if got, want := c.ExpectedCycles(), c.Measure.WarmupCycles+c.Measure.MeasureCycles; got != want {
		t.Errorf("ExpectedCycles = %d, want %d", got, want)
	}
	plain := mustRun(t, c, Options{Exec: actor.Serial})
	for _, exec := range []actor.Kind{actor.Serial, actor.Shards} {
		var seen []int64
		r, err := Run(context.Background(), c, Options{Exec: exec, Workers: 2, OnCycle: func(cycle int64) { seen = append(seen, cycle) }})
		if err != nil {
			t.Fatal(err)
		}
		if r.Digest() != plain.Digest() {
			t.Errorf("%s: digest with OnCycle differs", exec)
		}
		if len(seen) < 2 || seen[len(seen)-1] != r.CyclesSimulated {
			t.Fatalf("%s: %d reports, last %v, run of %d cycles", exec, len(seen), seen[max(len(seen)-1, 0):], r.CyclesSimulated)
		}
		for i := 1; i < len(seen); i++ {
			if seen[i] <= seen[i-1] || seen[i]-seen[i-1] > 1024 {
				t.Fatalf("%s: report %d at cycle %d after %d", exec, i, seen[i], seen[i-1])
			}
		}
	}
}
