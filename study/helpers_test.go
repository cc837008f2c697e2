package study

import (
	"context"
	"runtime"

	"github.com/icnsim/icnsim/actor"
	"github.com/icnsim/icnsim/clock"
	"math/rand/v2"
	"testing"

	"github.com/icnsim/icnsim/report"
	"github.com/icnsim/icnsim/traffic"
)

type reportResult = report.Result

func patternDest(t *testing.T, c Config, src int) int {
	topo, err := c.Topology()
	if err != nil {
		t.Fatal(err)
	}
	p, err := traffic.NewPattern(c.Traffic.Pattern, traffic.GeometryOf(topo), traffic.PatternParams{Seed: c.Seed})
	if err != nil {
		t.Fatal(err)
	}
	return p.Dest(src, rand.New(rand.NewPCG(1, 2)))
}

func reportMetrics() []report.Metric { return report.Metrics() }

// allocationsOver returns a function that runs b's network, serially,
// for the next cycles cycles and counts the allocations they made.
func allocationsOver(t *testing.T, b *Built) func(cycles clock.Cycle) uint64 {
	acts, units := b.Fabric.Actors()
	at := clock.Cycle(0)
	return func(cycles clock.Cycle) uint64 {
		var m0, m1 runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&m0)
		if _, err := actor.Run(context.Background(), actor.Serial, 1, actor.Spec{Actors: acts, Units: units, From: at, To: at + cycles, Chunk: 1024}); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&m1)
		at += cycles
		return m1.Mallocs - m0.Mallocs
	}
}
