package study

import (
	"context"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/icnsim/icnsim/actor"
	"github.com/icnsim/icnsim/fabric"
	"github.com/icnsim/icnsim/router/vc"
)

// Parallel tests: the long runs that measure nothing of the process (no
// allocation counts, heap sizes or CPU times) call t.Parallel, so that they
// share the two cores after the sequential tests finish; the measuring
// tests (TestBuildSecondsEstimate, TestEstimateMatchesHeap, the soak;
// TestSteadyStateAllocatesNothing in study/long) stay sequential, alone in the
// process while they measure. Go's test package runs top-level parallel
// tests only after every sequential one has returned.

func small(mod func(*Config)) Config {
	c := BuiltIn()
	setLeaf(&c.Network, "k", 8)
	c.Measure.WarmupCycles, c.Measure.MeasureCycles, c.Measure.DrainCycles = 500, 1000, 20000
	mod(&c)
	return c
}

func mustRun(t *testing.T, c Config, opt Options) *Result {
	t.Helper()
	r, err := Run(context.Background(), c, opt)
	if err != nil {
		t.Fatalf("%s: %v", c.Name, err)
	}
	return r
}

// Result is a local alias so the tests read naturally.
type Result = reportResult

// TestDeterminismAcrossExecutors: the same configuration gives the same
// digest under serial, actors, and shards with 1, 2 and 3 workers.
func TestDeterminismAcrossExecutors(t *testing.T) {
	t.Parallel() // long and independent: see "Parallel tests" in study_test.go
	cases := []Config{
		small(func(c *Config) { c.Name = "torus-tornado-collective" }),
		small(func(c *Config) {
			c.Name = "torus-uniform-bernoulli-wormhole"
			c.Traffic.Pattern, c.Traffic.Process, c.Traffic.Load = "uniform", "bernoulli", 0.3
			c.Router.VC.Switching, c.Router.VC.VCs, c.Router.VC.BufferFlits = "wormhole", 4, 4
		}),
		small(func(c *Config) {
			c.Name = "mesh-c2-hotspot-poisson"
			c.Network = netOf("mesh", "k", 6, "concentration", 2)
			c.Router.Routing, c.Router.VC.VCs = "dor", 2
			c.Traffic.Pattern, c.Traffic.Process, c.Traffic.Load, c.Traffic.HotspotFraction = "hotspot", "poisson", 0.2, 0.1
		}),
		small(func(c *Config) {
			c.Name = "mesh-transpose-saturation-phase"
			c.Network = netOf("mesh", "k", 8, "concentration", 1)
			c.Router.Routing = "dor"
			c.Traffic.Pattern, c.Traffic.Process = "transpose", "saturation"
			c.Traffic.PhaseCycle, c.Traffic.PhasePattern = 800, "bit-reverse"
		}),
		small(func(c *Config) {
			c.Name = "fattree-adaptive-hot-region"
			c.Network = netOf("fattree", "k", 4, "levels", 3, "concentration", 1)
			c.Router = Router{Routing: "fattree-adaptive", RoutingDelayCycles: 1, LinkLatencyCycles: 1, CreditLatencyCycles: 1,
				kinds: kinds{VC: vc.Table{VCs: 1, BufferFlits: 64, Switching: "vct", InternalSpeedup: 1, SwitchAllocationCycles: 1, ISLIPIterations: 1}}}
			c.Traffic.Pattern, c.Traffic.Process, c.Traffic.PacketFlits = "hot-region", "saturation", 16
		}),
		small(func(c *Config) {
			c.Name = "fattree-static-transpose"
			c.Network = netOf("fattree", "k", 2, "levels", 6, "concentration", 1)
			c.Router = Router{Routing: "fattree-static", RoutingDelayCycles: 1, LinkLatencyCycles: 1, CreditLatencyCycles: 1,
				kinds: kinds{VC: vc.Table{VCs: 2, BufferFlits: 8, Switching: "wormhole", InternalSpeedup: 1, SwitchAllocationCycles: 1, ISLIPIterations: 1}}}
			c.Traffic.Pattern, c.Traffic.Process, c.Traffic.Load = "transpose", "bernoulli", 0.5
		}),
		small(func(c *Config) {
			c.Name = "torus-min-adaptive-transpose"
			c.Router.Routing, c.Router.VC.VCs = "min-adaptive", 6
			c.Traffic.Pattern, c.Traffic.Process, c.Traffic.Load = "transpose", "bernoulli", 0.4
		}),
		small(func(c *Config) {
			c.Name = "torus-duato-uniform-small-buffers"
			c.Router.Routing, c.Router.VC.VCs, c.Router.VC.BufferFlits = "duato", 5, 8
			c.Traffic.Pattern, c.Traffic.Process = "uniform", "saturation"
		}),
		small(func(c *Config) {
			c.Name = "torus-batches"
			setLeaf(&c.Network, "k", 6)
			c.Traffic.Pattern, c.Traffic.Process, c.Traffic.Load = "random-pair", "bernoulli", 0.2
			c.Measure.Method, c.Measure.BatchCycles = "batches", 200
		}),
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			if r := sameDigestEverywhere(t, c); r.PacketsDelivered == 0 {
				t.Fatal("nothing delivered")
			}
		})
	}
}

// sameDigestEverywhere runs c under serial, actors, and shards with 2, 1
// and 3 workers, and also in temporal blocks (serial and two shard
// workers; on a torus or mesh over tiles small enough that even an 8 x 8
// network has several), fails unless all digests agree, and returns the
// serial result.
func sameDigestEverywhere(t *testing.T, c Config) *Result {
	t.Helper()
	var first *Result
	opts := []Options{{Exec: actor.Serial}, {Exec: actor.Actors}, {Exec: actor.Shards, Workers: 2}}
	// Under the race detector (CI's slowest pass, ten times slower) only
	// the runs with something to race: actors, two shard workers, and the
	// blocked run with two workers; the plain pass compares all of them.
	if !raceEnabled {
		opts = append(opts, Options{Exec: actor.Shards, Workers: 1}, Options{Exec: actor.Shards, Workers: 3})
	}
	switch c.Network.Topology {
	case "fattree":
		if !raceEnabled {
			opts = append(opts, Options{Exec: actor.Serial, Blocking: BlockingOn, BlockSteps: 3})
		}
		opts = append(opts, Options{Exec: actor.Shards, Workers: 2, Blocking: BlockingOn, BlockSteps: 2})
	case "torus", "mesh":
		if !raceEnabled {
			opts = append(opts, Options{Exec: actor.Serial, Blocking: BlockingOn, BlockSteps: 4, BlockSide: 3})
		}
		opts = append(opts, Options{Exec: actor.Shards, Workers: 2, Blocking: BlockingOn, BlockSteps: 8, BlockSide: 2})
	case "dragonfly", "dragonflyplus":
		// Blocks over the long global links (fabric.LeadTiling), where
		// the built network allows them (no policy lanes, no group board).
		if leadBlockable(t, c) {
			if !raceEnabled {
				opts = append(opts, Options{Exec: actor.Serial, Blocking: BlockingOn})
			}
			opts = append(opts, Options{Exec: actor.Shards, Workers: 2, Blocking: BlockingOn, BlockSteps: 2})
		}
	}
	for _, o := range opts {
		r := mustRun(t, c, o)
		if first == nil {
			first = r
		} else if d, want := r.Digest(), first.Digest(); d != want {
			t.Fatalf("%s/%d (blocking %q): digest %s, serial gave %s", o.Exec, o.Workers, o.Blocking, d, want)
		} else if !reflect.DeepEqual(r.NodeViews, first.NodeViews) {
			// NodeViews are outside the digest: compared here.
			t.Fatalf("%s/%d: per-node views differ from serial's", o.Exec, o.Workers)
		} else if !reflect.DeepEqual(r.Series, first.Series) {
			// So are the series' injection-memory and SAQ flit counts.
			t.Fatalf("%s/%d: time series differ from serial's", o.Exec, o.Workers)
		} else if !reflect.DeepEqual(r.SAQs, first.SAQs) {
			// And RECN's whole-run SAQ peaks.
			t.Fatalf("%s/%d: SAQ figures %+v differ from serial's %+v", o.Exec, o.Workers, r.SAQs, first.SAQs)
		}
	}
	if v := first.NodeViews; v == nil || len(v.InjectedFlitsPerCycle) != first.Nodes || len(v.LatencyMeanCycles) != first.Nodes {
		t.Fatalf("per-node views: %+v, want %d nodes", v, first.Nodes)
	}
	return first
}

// leadBlockable reports whether c's network, built with its policies, has
// links long enough to run in blocks over them (fabric.LeadTiling).
func leadBlockable(t *testing.T, c Config) bool {
	t.Helper()
	b, err := Build(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	return fabric.LeadTileable(b.Fabric)
}

// TestInvariantsEveryCycle runs steady configurations with the network
// invariants checked after every cycle.
func TestInvariantsEveryCycle(t *testing.T) {
	for _, c := range []Config{
		small(func(c *Config) {
			c.Traffic.Pattern, c.Traffic.Process, c.Traffic.Load = "uniform", "bernoulli", 0.5
			c.Router.VC.Switching, c.Router.VC.BufferFlits = "wormhole", 3
		}),
		small(func(c *Config) {
			c.Network = netOf("mesh", "k", 4, "concentration", 4)
			c.Router.Routing = "dor"
			c.Traffic.Pattern, c.Traffic.Process = "bit-complement", "saturation"
		}),
	} {
		mustRun(t, c, Options{Exec: actor.Shards, Workers: 2, Checks: true})
	}
	// A drained collective also checks exactly-once delivery by hash.
	r := mustRun(t, small(func(c *Config) { c.Traffic.Pattern = "uniform" }), Options{Checks: true})
	if !r.Completed || r.PacketsDelivered != 640 {
		t.Fatalf("collective: completed %v, delivered %d", r.Completed, r.PacketsDelivered)
	}
}

// TestAcceptedTracksOffered: below saturation, accepted = offered within noise.
func TestAcceptedTracksOffered(t *testing.T) {
	for _, load := range []float64{0.05, 0.15, 0.3} {
		c := small(func(c *Config) {
			c.Network = netOf("mesh", "k", 8, "concentration", 1)
			c.Router.Routing = "dor"
			c.Traffic.Pattern, c.Traffic.Process, c.Traffic.Load = "uniform", "bernoulli", load
			c.Measure.WarmupCycles, c.Measure.MeasureCycles = 2000, 10000
		})
		r := mustRun(t, c, Options{})
		if rel := math.Abs(r.AcceptedFlitsPerNodeCycle-load) / load; rel > 0.03 {
			t.Errorf("offered %.2f: accepted %.4f (%.1f%% off)", load, r.AcceptedFlitsPerNodeCycle, 100*rel)
		}
		if r.MeasuredUndelivered != 0 {
			t.Errorf("offered %.2f: %d measured packets undelivered", load, r.MeasuredUndelivered)
		}
	}
}

// channelLoadBound is the saturation throughput of c's permutation under
// its deterministic routing: 1/(the most flows sharing one channel, router
// output or ejection port) (Dally & Towles, 3.3.1; routeLoadBound).
func channelLoadBound(t *testing.T, c Config) float64 {
	t.Helper()
	b, err := Build(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	bound, _ := routeLoadBound(t, b.Net, func(src int) []int { return []int{patternDest(t, c, src)} }, 1)
	return bound
}

// saturationThroughput sweeps the offered load over fractions of bound and
// returns the highest load the network accepts in full (accepted >= 98% of
// offered), with the accepted throughput at 1.3x the bound.
func saturationThroughput(t *testing.T, c Config, bound float64, fractions []float64) (sat, over float64) {
	c.Traffic.Process = "bernoulli"
	c.Measure.WarmupCycles, c.Measure.MeasureCycles, c.Measure.DrainCycles = 3000, 5000, 0
	for _, f := range fractions {
		c.Traffic.Load = f * bound
		r := mustRun(t, c, Options{})
		t.Logf("%s: offered %.4f (%.0f%% of bound) accepted %.4f latency %.1f", c.Name, c.Traffic.Load, 100*f, r.AcceptedFlitsPerNodeCycle, r.Latency.Mean)
		if r.AcceptedFlitsPerNodeCycle >= 0.98*c.Traffic.Load {
			sat = c.Traffic.Load
		}
	}
	c.Traffic.Load = math.Min(1, 1.3*bound)
	over = mustRun(t, c, Options{}).AcceptedFlitsPerNodeCycle
	return sat, over
}

// TestSaturationNearChannelLoadBound compares DOR saturation throughput with
// the channel-load bound 1/gamma_max, gamma_max being the largest number of
// flows that the routes of the permutation put on one channel (computed by
// walking the routing function, so it is the bound of these very routes).
func TestSaturationNearChannelLoadBound(t *testing.T) {
	t.Parallel() // long and independent: see "Parallel tests" in study_test.go
	if raceEnabled {
		// Measurement windows long enough for a 2% verdict take minutes under
		// the race detector; races are exercised by the determinism tests, and
		// this test runs in full in the plain `go test ./...` (and in CI).
		t.Skip("statistical throughput test: runs without -race")
	}
	cases := []struct {
		cfg  Config
		want float64 // saturation throughput must reach this share of the bound
	}{
		{small(func(c *Config) {
			c.Name = "mesh16-transpose"
			c.Network = netOf("mesh", "k", 16, "concentration", 1)
			c.Router.Routing = "dor"
			c.Traffic.Pattern = "transpose"
		}), 0.90},
		// Tornado (the entropy paper's W -> W + k/2) sends every packet 16 hops
		// +x, so every +x channel carries 16 flows: bound 1/16. Every packet
		// crosses exactly one dateline, so only two of the three VC classes
		// carry it. With 4 VCs per class (12), 32-flit buffers, a one-cycle
		// router and 4-flit packets, saturation comes at 92.5% of the bound
		// (accepted 98.1% of offered there, 96% at 95%); the test asks for
		// 90%. Measured alongside (offered 92.5% / 95% of the bound, accepted
		// share): 8-flit packets 98.0% / 94.6% at 90% / 95%; 2-flit 99.3% /
		// 96.8%; even 1-flit packets 100% / 97.5%, so the last few percent
		// are not packet effects but the separable switch allocator and the
		// merging of injected and through traffic at every +x output.
		// 24 VCs or 64-flit buffers change nothing.
		{small(func(c *Config) {
			c.Name = "torus32-tornado-12vc"
			setLeaf(&c.Network, "k", 32)
			c.Router.VC.VCs, c.Router.VC.BufferFlits, c.Router.RoutingDelayCycles = 12, 32, 0
			c.Traffic.Pattern, c.Traffic.PacketFlits = "tornado", 4
		}), 0.90},
		// The extended entropy paper's router: 3 VCs (one per dateline class)
		// of 16 flits, 8-flit packets. What idles the +x channels was
		// measured at saturation with 6 VCs x 32 flits (88.7% busy): 7.0% of
		// channel-cycles the output VCs of the class a waiting head needs
		// are all held by packets whose next flits have not arrived yet (a
		// packet holds its VC until its tail passes), 2.2% the separable
		// input-first switch allocator's matching loss (an input chose a VC
		// for another output), 2.1% the flit's buffering delay. With one VC
		// per class the first dominates: saturation at 80% of the bound.
		{small(func(c *Config) {
			c.Name = "torus32-tornado-3vc"
			setLeaf(&c.Network, "k", 32)
			c.Traffic.Pattern = "tornado"
		}), 0.75},
	}
	for _, tc := range cases {
		c := tc.cfg
		t.Run(c.Name, func(t *testing.T) {
			bound := channelLoadBound(t, c)
			sat, over := saturationThroughput(t, c, bound, []float64{0.70, 0.75, 0.80, 0.85, 0.90, 0.925, 0.95})
			t.Logf("%s: channel-load bound %.4f, saturation throughput %.4f (%.1f%% of bound), accepted at 1.3x bound %.4f",
				c.Name, bound, sat, 100*sat/bound, over)
			if sat < tc.want*bound*0.999 {
				t.Errorf("saturation throughput %.4f is below %.0f%% of the bound %.4f", sat, 100*tc.want, bound)
			}
			if over >= 0.98*math.Min(1, 1.3*bound) {
				t.Errorf("offered 1.3x the bound and accepted it all (%.4f): the bound is wrong", over)
			}
		})
	}
}

func TestDefaultTOMLRoundTrip(t *testing.T) {
	c, err := Parse("default.toml", []byte(DefaultTOML()))
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprintf("%+v", c) != fmt.Sprintf("%+v", Default()) {
		t.Fatalf("parsed default differs:\n%+v\n%+v", c, Default())
	}
}

func TestErrorsNameKeyAndLine(t *testing.T) {
	_, err := Parse("x.toml", []byte("[router]\nvc.vcs = 99\n"))
	if err == nil || !strings.Contains(err.Error(), "x.toml:2: router.vc.vcs = 99") || !strings.Contains(err.Error(), "1..64") {
		t.Fatalf("got %v", err)
	}
}

// TestOptionsDoNotChangeResults: running with the invariant checks (which
// run the hook every cycle) gives the same digest as without.
func TestOptionsDoNotChangeResults(t *testing.T) {
	for _, c := range []Config{
		small(func(c *Config) { setLeaf(&c.Network, "k", 4) }), // collective
		small(func(c *Config) {
			c.Network = netOf("mesh", "k", 4, "concentration", 1)
			c.Router.Routing = "dor"
			c.Traffic.Pattern, c.Traffic.Process, c.Traffic.Load = "uniform", "bernoulli", 0.2
		}),
	} {
		plain := mustRun(t, c, Options{Exec: actor.Serial})
		checked := mustRun(t, c, Options{Exec: actor.Shards, Workers: 2, Checks: true})
		if plain.Digest() != checked.Digest() {
			t.Errorf("%s: checks changed the result: %d vs %d cycles", c.Traffic.Process, plain.CyclesSimulated, checked.CyclesSimulated)
		}
		// Periodic checks cut the executor's chunk to a divisor of their
		// period (7: every chunk one cycle; 1000: the run's own chunk
		// shortened): neither changes the result, and every multiple of
		// the period the run reaches is checked once.
		for _, every := range []int64{7, 1000} {
			var at []int64
			opt := Options{Exec: actor.Shards, Workers: 2, CheckEveryCycles: every, OnCheck: func(cycle int64) { at = append(at, cycle) }}
			r := mustRun(t, c, opt)
			if plain.Digest() != r.Digest() {
				t.Errorf("%s: CheckEveryCycles = %d changed the result: %d vs %d cycles", c.Traffic.Process, every, plain.CyclesSimulated, r.CyclesSimulated)
			}
			if want := r.CyclesSimulated / every; int64(len(at)) != want {
				t.Errorf("%s: CheckEveryCycles = %d: %d checks in %d cycles, want %d", c.Traffic.Process, every, len(at), r.CyclesSimulated, want)
			}
			for i, cycle := range at {
				if cycle != int64(i+1)*every {
					t.Errorf("%s: CheckEveryCycles = %d: check %d at cycle %d, want %d", c.Traffic.Process, every, i, cycle, int64(i+1)*every)
					break
				}
			}
		}
	}
	if _, err := Run(context.Background(), small(func(c *Config) { setLeaf(&c.Network, "k", 4) }), Options{CheckEveryCycles: -1}); err == nil {
		t.Error("CheckEveryCycles = -1 was accepted")
	}
}

// TestWindowBoundaries: phase lengths whose common divisor exceeds the
// chunk limit, and a run that ends exactly at the window's end, both close
// their measurement window.
func TestWindowBoundaries(t *testing.T) {
	for _, m := range []Measure{
		{WarmupCycles: 3000, MeasureCycles: 1500, BatchCycles: 1500, SampleCycles: 0},
		{WarmupCycles: 500, MeasureCycles: 1000, SampleCycles: 100, MaxCycles: 1500},
	} {
		c := small(func(c *Config) {
			setLeaf(&c.Network, "k", 4)
			c.Traffic.Pattern, c.Traffic.Process, c.Traffic.Load = "uniform", "bernoulli", 0.1
		})
		m.Method, m.MinBatches, m.MaxBatches, m.Tolerance, m.SmoothSamples = "window", 2, 10, 0.05, 400
		if m.BatchCycles == 0 {
			m.BatchCycles = 100
		}
		if m.MaxCycles == 0 {
			m.MaxCycles = 100000
		}
		c.Measure = m
		r := mustRun(t, c, Options{})
		if r.MeasureToCycle != m.WarmupCycles+m.MeasureCycles || r.AcceptedFlitsPerNodeCycle == 0 {
			t.Errorf("%+v: window [%d, %d), accepted %v", m, r.MeasureFromCycle, r.MeasureToCycle, r.AcceptedFlitsPerNodeCycle)
		}
	}
}

// TestWatchdogCatchesDeadlock: a torus with dor and 1 VC, forced to run at
// high load, deadlocks; the watchdog stops it within its bound and names
// blocked queues and what they wait for.
func TestWatchdogCatchesDeadlock(t *testing.T) {
	c := small(func(c *Config) {
		setLeaf(&c.Network, "k", 8)
		c.Router.Routing, c.Router.VC.VCs, c.Router.AllowDeadlock = "dor", 1, true
		c.Traffic.Pattern, c.Traffic.Process = "uniform", "saturation"
		c.Measure.WarmupCycles, c.Measure.MeasureCycles, c.Measure.SampleCycles = 100000, 100000, 100
		c.Measure.WatchdogCycles = 500
	})
	if _, err := Build(context.Background(), func() Config { d := c; d.Router.AllowDeadlock = false; return d }()); err == nil {
		t.Fatal("the deadlock check accepted dor with 1 VC on a torus")
	}
	_, err := Run(context.Background(), c, Options{})
	var we *WatchdogError
	if !errors.As(err, &we) {
		t.Fatalf("got %v, want a watchdog error", err)
	}
	t.Logf("%v", err)
	if stall := we.Cycle - we.SinceCycle; stall < 500 || stall > 500+100 {
		t.Errorf("stopped %d cycles after the last departure, want within [500, 600] (bound + one step)", stall)
	}
	if we.Queues == 0 || !strings.Contains(err.Error(), "waits for") {
		t.Errorf("report names no blocked queue: %v", err)
	}
}

// TestWatchdogCatchesPartialDeadlock: a deadlock of part of the network,
// while flits keep moving elsewhere, is caught too (found by review).
func TestWatchdogCatchesPartialDeadlock(t *testing.T) {
	c := small(func(c *Config) {
		setLeaf(&c.Network, "k", 8)
		c.Router.Routing, c.Router.VC.VCs, c.Router.AllowDeadlock = "dor", 1, true
		c.Router.VC.Switching, c.Router.VC.BufferFlits = "wormhole", 4
		c.Traffic.Pattern, c.Traffic.Process, c.Traffic.Load = "random-pair", "bernoulli", 0.05
		c.Measure.WarmupCycles, c.Measure.MeasureCycles, c.Measure.DrainCycles = 50000, 10000, 50000
		c.Measure.WatchdogCycles = 1000
	})
	_, err := Run(context.Background(), c, Options{})
	var we *WatchdogError
	if !errors.As(err, &we) {
		t.Fatalf("got %v, want a watchdog error", err)
	}
	t.Logf("stopped at cycle %d: %d stuck queues while flits moved elsewhere", we.Cycle, we.Queues)
}
