package study

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/icnsim/icnsim/internal/routingtest"
	"github.com/icnsim/icnsim/link"
	"github.com/icnsim/icnsim/routing"
	"github.com/icnsim/icnsim/topology/fattree"
)

// taperedSmall is a 4-ary 3-tree (64 nodes) tapered 2:1 at its leaves:
// 16 leaves of 4 nodes and 2 up ports, 8 switches of level 1 (two above
// each 4-leaf subtree) and 8 roots, under uniform Bernoulli traffic.
func taperedSmall(routing string, edit func(*Config)) Config {
	c := dragonflySmall(routing, nil)
	c.Name = "fattree64-tapered2-1-" + routing
	c.Network = netOf("fattree", "k", 4, "levels", 3)
	c.Network.FatTree.Oversubscription = fattree.RatiosOf(2, 1)
	c.Router.VC.VCs = 2
	if edit != nil {
		edit(&c)
	}
	return c
}

// switchPath is the switches a lone packet from node src to node dst
// visits under rf, by name (the routing must offer one port a hop).
func switchPath(t *testing.T, b *Built, src, dst int) []string {
	t.Helper()
	topo := b.Net.Topo
	r, _ := topo.NodePort(src)
	f := link.Flit{Src: int32(src), Dst: int32(dst), Size: 1, VC: 0}
	var path []string
	for range topo.Routers() {
		path = append(path, topo.RouterName(r))
		var c routing.Candidates
		b.Net.Routing.Route(r, 0, &f, &c)
		if c.N != 1 || c.G[0].Ports&(c.G[0].Ports-1) != 0 {
			t.Fatalf("%d->%d: %d groups at %s, not one port", src, dst, c.N, topo.RouterName(r))
		}
		p := 0
		for c.G[0].Ports>>p&1 == 0 {
			p++
		}
		peer := topo.Peer(r, p)
		if peer.Node >= 0 {
			if peer.Node != dst {
				t.Fatalf("%d->%d: ejected to node %d", src, dst, peer.Node)
			}
			return path
		}
		r = peer.Router
	}
	t.Fatalf("%d->%d: no ejection after %v", src, dst, path)
	return nil
}

// lonePacket checks a lone packet from src to dst on b's network (2-cycle
// links, routing delay 1, 4 flits): its switches are path where the
// routing offers one port a hop (deterministic), its hops as many
// otherwise, and Network.ZeroLoadLatency is 2 + (H+1)R + links + 2 +
// size-1.
func lonePacket(t *testing.T, b *Built, rt string, deterministic bool, src, dst int, path []string) {
	t.Helper()
	hops := len(path) - 1
	if deterministic {
		if got := switchPath(t, b, src, dst); !slices.Equal(got, path) {
			t.Errorf("%s %d->%d: %v, want %v", rt, src, dst, got, path)
		}
	} else if h, _ := routingtest.TracePath(t, b.Net.Topo, b.Net.Routing, func(r int) routing.Queues { return b.Net.Routers[r] }, 2, src, dst, 0); h != hops {
		t.Errorf("%s %d->%d: %d hops, want %d", rt, src, dst, h, hops)
	}
	want := 2 + (hops+1)*1 + 2*hops + 2 + 4 - 1
	if got := b.Net.ZeroLoadLatency(src, dst, 4); got != want {
		t.Errorf("%s %d->%d: ZeroLoadLatency %d, want %d", rt, src, dst, got, want)
	}
}

// saturating is c under always-backlogged sources, measured over a
// window of 6,000 cycles after 3,000, on routers of internal speedup 2.
func saturating(c *Config) {
	c.Router.VC.InternalSpeedup = 2
	c.Traffic.Process = "saturation"
	c.Measure.Method = "window"
	c.Measure.WarmupCycles, c.Measure.MeasureCycles, c.Measure.DrainCycles = 3000, 6000, 0
}

// TestTaperedFatTreeZeroLoadHops: hand-worked routes on the 4-ary 3-tree
// tapered 2:1 at its leaves. Level-1 switch s has digit 0 counting the
// leaves' 2 up ports and digit 1 its subtree (s = b0 + 2*a1); a root has
// s = b0 + 2*b1. D-mod-K climbs from a leaf by up port dst mod 2 and from
// level 1 by (dst/2) mod 4. 0->21 (21 = 1,1,1 in base 4): leaf S(0,0) up 1
// to S(1,1) (b0 = 1, subtree 0), up (21/2) mod 4 = 2 to root S(2,5)
// (b0 = 1, b1 = 2), down digit 2 = 1 to S(1,3) (b0 = 1, subtree 1), down
// digit 1 = 1 to leaf S(0,5) = 21 div 4: 4 hops. 0->4: up 0 to S(1,0),
// down 1 to S(0,1): 2 hops. 0->3: none. The latency of a lone packet is
// 2 + (H+1)R + links + 2 + size-1 (2-cycle links, routing delay 1, 4
// flits), which Network.ZeroLoadLatency gives, under static and adaptive
// routing alike.
func TestTaperedFatTreeZeroLoadHops(t *testing.T) {
	for _, c := range []struct {
		src, dst int
		path     []string
	}{
		{0, 3, []string{"S(0,0)"}},
		{0, 4, []string{"S(0,0)", "S(1,0)", "S(0,1)"}},
		{0, 21, []string{"S(0,0)", "S(1,1)", "S(2,5)", "S(1,3)", "S(0,5)"}},
		// 63->0: leaf 15 up 0 mod 2 = 0 to S(1,6) (b0 = 0, subtree 3), up
		// (0/2) mod 4 = 0 to root S(2,0), down 0 to S(1,0), down 0 to S(0,0).
		{63, 0, []string{"S(0,15)", "S(1,6)", "S(2,0)", "S(1,0)", "S(0,0)"}},
	} {
		for _, rt := range []string{"fattree-static", "fattree-adaptive"} {
			cfg := taperedSmall(rt, func(cf *Config) {
				cf.Router.LinkLatencyCycles, cf.Router.CreditLatencyCycles, cf.Router.RoutingDelayCycles = 2, 1, 1
				cf.Traffic.PacketFlits = 4
			})
			b, err := Build(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			lonePacket(t, b, rt, rt == "fattree-static", c.src, c.dst, c.path)
		}
	}
}

// TestTaperedFatTreeChannelLoadBounds: on the 64-node tree tapered 2:1 at
// its leaves, with routers of internal speedup 2 and 4 VCs, the
// saturation throughput against the channel-load bound traced through the
// static routing's paths, which are the hand-worked ones:
//   - uniform: a leaf's 4 nodes send to the 60 nodes off the leaf over 2
//     up links, 4 * 60/63 / 2 flits a cycle per unit of load (bound 63/120
//     = 0.525; level 1 carries 16 * 48/63 over 8 links, less). Both
//     routings within 10% of it. With 2 VCs static (D-mod-K) routing
//     falls 10.6% short (4 VCs: 5.3%, 8 VCs: 1.1%): a packet's up link is
//     fixed by its destination, and the links up from a leaf and those
//     down into it are both at the bound, so with few VCs a packet for a
//     busy down link holds up the ones behind it for an idle one;
//   - the pod shift (node n to n + N/k, the tree's worst case): every
//     packet climbs to the roots, 4/2 per leaf link and 16/8 per level-1
//     link (bound 1/2); both routings within 5% of it. The pod shift drawn
//     at random within the next pod (group-shift) has the same bound and
//     the uniform pattern's two saturated stages: within 10%.
func TestTaperedFatTreeChannelLoadBounds(t *testing.T) {
	if raceEnabled {
		t.Skip("measures saturation throughput of serial runs; run without -race")
	}
	t.Parallel() // long and independent: see "Parallel tests" in study_test.go
	base := taperedSmall("fattree-static", func(c *Config) { saturating(c); c.Router.VC.VCs = 4 })
	for _, cs := range []struct {
		pattern             string
		want                float64
		staticTol, adaptTol float64
	}{{"uniform", 63.0 / 120, 0.10, 0.10}, {"pod-shift", 0.5, 0.05, 0.05}, {"group-shift", 0.5, 0.10, 0.10}} {
		bound, busiest := pathBound(t, routedAs(base, "fattree-static", cs.pattern), 1)
		if math.Abs(bound-cs.want) > 1e-9 {
			t.Errorf("%s: traced bound %.4f (busiest: %s), want %.4f", cs.pattern, bound, busiest, cs.want)
		}
		for _, rt := range []struct {
			name string
			tol  float64
		}{{"fattree-static", cs.staticTol}, {"fattree-adaptive", cs.adaptTol}} {
			res := saturationRun(t, routedAs(base, rt.name, cs.pattern))
			withinBound(t, rt.name+" "+cs.pattern+" saturation", res.AcceptedFlitsPerNodeCycle, bound, rt.tol)
		}
	}
}

// TestTaperedFatTreeBadInput: an oversubscription list of the wrong
// length, a ratio below 1 and one that leaves a fraction of an up port
// each get one keyed error naming the list, what it derives and what is
// allowed.
func TestTaperedFatTreeBadInput(t *testing.T) {
	for _, c := range []struct {
		name   string
		ratios []float64
		says   string
	}{
		{"too few", []float64{2}, "one ratio for each of the levels-1 = 2 levels below the roots"},
		{"too many", []float64{2, 1, 1}, "one ratio for each of the levels-1 = 2 levels below the roots"},
		{"below one", []float64{1, 0.5}, "level 1's ratio 0.5 gives k/ratio = 4/0.5 = 8 up ports; allowed: ratios that leave a whole number of up ports dividing k (with k = 4: 1, 2, 4)"},
		{"fraction", []float64{3, 1}, "level 0's ratio 3 gives k/ratio = 4/3 = 1.333 up ports"},
		{"zero", []float64{0, 1}, "level 0's ratio 0 gives k/ratio = 4/0 = +Inf up ports"},
		{"infinite", []float64{math.Inf(1), 1}, "level 0's ratio +Inf gives k/ratio = 4/+Inf = 0 up ports"},
		{"not dividing k", []float64{1, 4.0 / 3}, "level 1's ratio 1.3333333333333333 gives k/ratio = 4/1.3333333333333333 = 3 up ports; allowed: ratios that leave a whole number of up ports dividing k"},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := taperedSmall("fattree-static", func(cf *Config) { cf.Network.FatTree.Oversubscription = fattree.RatiosOf(c.ratios...) })
			oneKeyedError(t, cfg, "network.fattree.oversubscription = "+cfg.Network.FatTree.Oversubscription.String(), c.says)
		})
	}
	t.Run("pod-shift off a fat-tree", func(t *testing.T) {
		oneKeyedError(t, dragonflySmall("min", func(c *Config) { c.Traffic.Pattern = "pod-shift" }), `traffic.pattern = "pod-shift"`, "defined on a fattree only")
	})
}
