package study

import (
	"math"
	"testing"

	"github.com/icnsim/icnsim/actor"
)

// TestMSER5: on a series that rises for 20 samples and then varies about a
// level, MSER-5 truncates at the end of the rise (the batch of samples
// 20..24); on a stationary series, at the start; with fewer than four
// batches it gives no answer.
func TestMSER5(t *testing.T) {
	var rise, flat []float64
	for i := range 200 {
		noise := 3 * math.Sin(float64(i)*1.7)
		flat = append(flat, 100+noise)
		if i < 20 {
			rise = append(rise, float64(i)*5)
		} else {
			rise = append(rise, 100+noise)
		}
	}
	if got := mser5(rise, 100, 100); got != 100+20*100 {
		t.Errorf("rise: transient to cycle %d, want %d (sample 20)", got, 100+20*100)
	}
	if got := mser5(flat, 100, 100); got > 100+5*100 {
		t.Errorf("stationary: transient to cycle %d, want at most the first batch", got)
	}
	if got := mser5(flat[:19], 100, 100); got != 0 {
		t.Errorf("3 batches: %d, want 0 (no answer)", got)
	}
}

// TestWarmupDetect: measure.warmup_detect = "mser-5" states a transient end
// inside the run and changes nothing else of it.
func TestWarmupDetect(t *testing.T) {
	c := small(func(c *Config) {
		c.Traffic.Pattern, c.Traffic.Process, c.Traffic.Load = "uniform", "bernoulli", 0.3
		c.Measure.WarmupCycles, c.Measure.MeasureCycles = 200, 4000
	})
	plain := mustRun(t, c, Options{Exec: actor.Serial})
	c.Measure.WarmupDetect = "mser-5"
	r := mustRun(t, c, Options{Exec: actor.Serial})
	if r.WarmupDetectedCycles <= 0 || r.WarmupDetectedCycles >= r.MeasureToCycle {
		t.Errorf("transient to cycle %d, want within the run (window %d..%d)", r.WarmupDetectedCycles, r.MeasureFromCycle, r.MeasureToCycle)
	}
	bare := *r
	bare.WarmupDetectedCycles = 0
	if bare.Digest() != plain.Digest() {
		t.Error("the check changed the run")
	}
	c.Measure.SampleCycles = 0
	if errs := c.Validate(); len(errs) != 1 {
		t.Errorf("mser-5 without a time series: %v", errs)
	}
}
