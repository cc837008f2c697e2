package study

import (
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
