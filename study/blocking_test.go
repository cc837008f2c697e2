package study

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/icnsim/icnsim/actor"
	"github.com/icnsim/icnsim/clock"
)

// blockedOptions are runs in temporal blocks over tiles small enough that
// an 8 x 8 torus has several.
var blockedOptions = []Options{
	{Exec: actor.Serial, Blocking: BlockingOn, BlockSteps: 3, BlockSide: 3},
	{Exec: actor.Shards, Workers: 2, Blocking: BlockingOn, BlockSteps: 3, BlockSide: 3},
}

// faulty is an actor that panics at a given cycle.
type faulty struct {
	actor.Actor
	at clock.Cycle
}

func (f *faulty) Name() string { return actor.Name(f.Actor, -1) }

func (f *faulty) Tick(now clock.Cycle) {
	if now == f.at {
		panic("injected fault")
	}
	f.Actor.Tick(now)
}

// TestBlockedFailuresAsSerial: a run in temporal blocks fails where and
// when the serial run fails: the same watchdog error at the same cycle,
// the invariant checks at the same cycles (every 100), and of two actors
// that panic,
// the one serial meets first (router (5,5) at cycle 45, although a block
// ticks router (1,1) at cycle 46 before it).
func TestBlockedFailuresAsSerial(t *testing.T) {
	deadlock := small(func(c *Config) {
		c.Router.Routing, c.Router.VC.VCs, c.Router.AllowDeadlock = "dor", 1, true
		c.Traffic.Pattern, c.Traffic.Process = "uniform", "saturation"
		c.Measure.WarmupCycles, c.Measure.MeasureCycles, c.Measure.SampleCycles = 100000, 100000, 100
		c.Measure.WatchdogCycles = 500
	})
	_, want := Run(context.Background(), deadlock, Options{Exec: actor.Serial})
	var we *WatchdogError
	if !errors.As(want, &we) {
		t.Fatalf("serial: %v, want a watchdog error", want)
	}
	for _, o := range blockedOptions {
		if _, err := Run(context.Background(), deadlock, o); err == nil || err.Error() != want.Error() {
			t.Errorf("%s/%d blocked: %v\nserial: %v", o.Exec, o.Workers, err, want)
		}
	}

	steady := small(func(c *Config) { c.Traffic.Pattern, c.Traffic.Process, c.Traffic.Load = "uniform", "bernoulli", 0.3 })
	checks := func(o Options) []int64 {
		var at []int64
		// A period the chunk divides, so that the run is still blocked
		// (a period of 37 would cut the chunk, and the blocks, to 1).
		o.CheckEveryCycles = 100
		o.OnCheck = func(cycle int64) { at = append(at, cycle) }
		mustRun(t, steady, o)
		return at
	}
	serialChecks := checks(Options{Exec: actor.Serial})
	for _, o := range blockedOptions {
		if got := checks(o); !reflect.DeepEqual(got, serialChecks) || len(got) < 10 {
			t.Errorf("%s/%d blocked: checks at %v, serial at %v", o.Exec, o.Workers, got, serialChecks)
		}
	}

	var inject func(ctx context.Context) (*Built, error)
	inject = func(ctx context.Context) (*Built, error) {
		b, err := Build(ctx, steady)
		if err != nil {
			return nil, err
		}
		acts, _ := b.Fabric.Actors()
		for i, a := range acts {
			switch actor.Name(a, i) {
			case "R(5,5)":
				acts[i] = &faulty{a, 45}
			case "R(1,1)":
				acts[i] = &faulty{a, 46}
			}
		}
		b.rebuild = inject
		return b, nil
	}
	for _, o := range append([]Options{{Exec: actor.Serial}}, blockedOptions...) {
		b, err := inject(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		_, err = b.Run(context.Background(), o)
		var pe *actor.PanicError
		if !errors.As(err, &pe) || pe.Actor != "R(5,5)" || pe.Cycle != 45 {
			t.Errorf("%s/%d (blocking %q): %v, want R(5,5)'s panic at cycle 45", o.Exec, o.Workers, o.Blocking, err)
		}
	}
}
