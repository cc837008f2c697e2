package study

import (
	"context"
	"testing"

	"github.com/icnsim/icnsim/router/vc"
	"github.com/icnsim/icnsim/topology/fattree"
)

func treeConfig(k, n int, routing, pattern string) Config {
	c := Default()
	c.Name = routing + "-" + pattern
	c.Network = netOf("fattree", "k", k, "levels", n, "concentration", 1)
	// The fairness paper's network: no VCs, 16-phit packets, 4-packet input queues, VCT.
	c.Router = Router{Routing: routing, RoutingDelayCycles: 1, LinkLatencyCycles: 1, CreditLatencyCycles: 1,
		kinds: kinds{VC: vc.Table{VCs: 1, BufferFlits: 64, Switching: "vct", InternalSpeedup: 1, SwitchAllocationCycles: 1, ISLIPIterations: 1}}}
	c.Traffic.Pattern, c.Traffic.Process, c.Traffic.PacketFlits = pattern, "saturation", 16
	c.Measure.WarmupCycles, c.Measure.MeasureCycles, c.Measure.DrainCycles, c.Measure.SampleCycles = 5000, 10000, 0, 0
	return c
}

// TestStaticRuleBalancesRoots: d-mod-k maps every destination to one root
// and every root gets the same number of destinations; over a long uniform
// run every root switch carries the same load within 2%, and so does every
// down link of every root (a rule that ties the root to its down port passes
// the first check and fails the second).
func TestStaticRuleBalancesRoots(t *testing.T) {
	if raceEnabled {
		t.Skip("statistical test of a long run: runs without -race")
	}
	c := treeConfig(4, 3, "fattree-static", "uniform")
	c.Traffic.Process, c.Traffic.Load = "bernoulli", 0.6
	c.Measure.WarmupCycles, c.Measure.MeasureCycles = 1000, 300000
	b, err := Build(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Run(context.Background(), Options{}); err != nil {
		t.Fatal(err)
	}
	tree := b.Net.Topo.(*fattree.FatTree)
	var loads []float64
	for r, rt := range b.Net.Routers {
		if l, _ := tree.Switch(r); l == tree.N-1 {
			loads = append(loads, float64(rt.SumActive))
		}
	}
	within := func(what string, loads []float64, tol float64) {
		sum := 0.0
		for _, l := range loads {
			sum += l
		}
		mean := sum / float64(len(loads))
		worst := 0.0
		for i, l := range loads {
			dev := l/mean - 1
			worst = max(worst, dev, -dev)
			if dev > tol || dev < -tol {
				t.Errorf("%s %d carried %.0f flits, %.2f%% off the mean %.0f", what, i, l, 100*dev, mean)
			}
		}
		t.Logf("%d %ss, mean %.0f flits, largest deviation %.2f%%", len(loads), what, mean, 100*worst)
	}
	within("root", loads, 0.02)
	// Flits sent out of each root's down ports. Each such link carries one
	// destination's traffic, so sampling noise is about 1% here; 10% still
	// catches any structural imbalance (a rule tying the root to its down
	// port loads one link 4x and leaves three idle).
	var links []float64
	for r, rt := range b.Net.Routers {
		if l, _ := tree.Switch(r); l == tree.N-1 {
			for p := 0; p < tree.K; p++ {
				links = append(links, float64(rt.PortFlits[p]))
			}
		}
	}
	within("root down link", links, 0.10)
}

// TestFatTreeFairness reproduces the setting of Fig. 3 of the fairness paper
// (4-ary 3-tree, full load, static and adaptive routing) and checks that
// adaptive routing beats static routing on transpose for 64 and 256 nodes.
func TestFatTreeFairness(t *testing.T) {
	if raceEnabled {
		t.Skip("long saturation runs: without -race")
	}
	for _, pattern := range []string{"uniform", "transpose", "butterfly", "bit-reverse", "shuffle", "hot-region"} {
		for _, routing := range []string{"fattree-static", "fattree-adaptive"} {
			r := mustRun(t, treeConfig(4, 3, routing, pattern), Options{})
			t.Logf("64 nodes %-16s %-11s node throughput avg %.3f min %.3f max %.3f phits/node/cycle",
				routing, pattern, r.PerNodeInjected.Mean, r.PerNodeInjected.Min, r.PerNodeInjected.Max)
		}
	}
	for _, n := range []int{3, 4} {
		st := mustRun(t, treeConfig(4, n, "fattree-static", "transpose"), Options{})
		ad := mustRun(t, treeConfig(4, n, "fattree-adaptive", "transpose"), Options{})
		t.Logf("%d nodes transpose: static %.3f, adaptive %.3f phits/node/cycle", st.Nodes, st.AcceptedFlitsPerNodeCycle, ad.AcceptedFlitsPerNodeCycle)
		if ad.AcceptedFlitsPerNodeCycle <= st.AcceptedFlitsPerNodeCycle {
			t.Errorf("%d nodes: adaptive %.3f does not beat static %.3f on transpose", st.Nodes, ad.AcceptedFlitsPerNodeCycle, st.AcceptedFlitsPerNodeCycle)
		}
	}
}
