package study

import (
	"context"
	"runtime"
	"testing"

	"github.com/icnsim/icnsim/actor"
	"github.com/icnsim/icnsim/clock"
)

// benchScenario runs b.N cycles of a bench scenario after a warm-up and
// reports router-cycles per second; allocations are per cycle. Past
// saturation (torus32-uniform at 0.16) source queues and latency histograms
// still grow by doubling now and then, which allocs/cycle counts; the
// simulator's own cycle allocates nothing (TestSteadyStateAllocatesNothing, in study/long).
func benchScenario(b *testing.B, name string, exec actor.Kind, workers int) {
	benchScenarioWith(b, name, exec, workers, func(*Config) {})
}

// benchScenarioWith is benchScenario of the scenario as mod changes it.
func benchScenarioWith(b *testing.B, name string, exec actor.Kind, workers int, mod func(*Config)) {
	cfg := BenchScenarios()[name]
	mod(&cfg)
	built, err := Build(context.Background(), cfg)
	if err != nil {
		b.Fatal(err)
	}
	acts, units := built.Net.Actors()
	const warm = 2000
	if _, err := actor.Run(context.Background(), exec, workers, actor.Spec{Actors: acts, Units: units, To: warm, Chunk: 1024}); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	b.ResetTimer()
	if _, err := actor.Run(context.Background(), exec, workers, actor.Spec{Actors: acts, Units: units, From: warm, To: warm + clock.Cycle(b.N), Chunk: 1024}); err != nil {
		b.Fatal(err)
	}
	b.StopTimer()
	runtime.ReadMemStats(&m1)
	b.ReportMetric(float64(built.Net.Topo.Routers())*float64(b.N)/b.Elapsed().Seconds(), "router-cycles/s")
	// allocs/op is rounded down to an integer; this is the exact rate.
	b.ReportMetric(float64(m1.Mallocs-m0.Mallocs)/float64(b.N), "allocs/cycle")
}

func BenchmarkTorus32Serial(b *testing.B)  { benchScenario(b, "torus32-uniform", actor.Serial, 1) }
func BenchmarkTorus32Shards1(b *testing.B) { benchScenario(b, "torus32-uniform", actor.Shards, 1) }
func BenchmarkTorus32Shards2(b *testing.B) { benchScenario(b, "torus32-uniform", actor.Shards, 2) }
func BenchmarkTorus32Actors(b *testing.B)  { benchScenario(b, "torus32-uniform", actor.Actors, 0) }

// The router options the issue bounds at 10% of the default's speed.
func BenchmarkTorus32OldestFirstSerial(b *testing.B) {
	benchScenarioWith(b, "torus32-uniform", actor.Serial, 1, func(c *Config) { c.Router.VC.Arbitration = "oldest-first" })
}
func BenchmarkTorus32ISLIPSerial(b *testing.B) {
	benchScenarioWith(b, "torus32-uniform", actor.Serial, 1, func(c *Config) { c.Router.VC.SwitchAllocator = "islip" })
}
func BenchmarkMesh8Serial(b *testing.B) { benchScenario(b, "mesh8-uniform", actor.Serial, 1) }

func BenchmarkFatTree1024Serial(b *testing.B) {
	benchScenario(b, "fattree1024-uniform", actor.Serial, 1)
}
func BenchmarkFatTree1024Shards2(b *testing.B) {
	benchScenario(b, "fattree1024-uniform", actor.Shards, 2)
}
func BenchmarkDragonfly1kSerial(b *testing.B) {
	benchScenario(b, "dragonfly1k-uniform", actor.Serial, 1)
}
func BenchmarkDragonfly1kUGALSerial(b *testing.B) {
	benchScenario(b, "dragonfly1k-ugal-uniform", actor.Serial, 1)
}
func BenchmarkHyperX1kSerial(b *testing.B) {
	benchScenario(b, "hyperx1k-uniform", actor.Serial, 1)
}
