package study

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/icnsim/icnsim/topology/grid"
)

// torusND is a torus of the given sides (one number and dims, or a list)
// under uniform Bernoulli traffic, 4 VCs of 16 flits.
func torusND(k grid.Sides, dims int, routing string, edit func(*Config)) Config {
	c := dragonflySmall(routing, nil)
	c.Network = netOf("torus", "levels", 3, "concentration", 1)
	c.Network.Torus.K, c.Network.Torus.Dimensions = k, dims
	c.Name = "torus" + strings.ReplaceAll(k.String(), " ", "") + "-" + routing
	c.Router.VC.VCs = 4
	if routing == "duato" {
		c.Router.VC.VCs, c.Router.VC.Switching = 6, "vct"
	}
	if routing == "min-adaptive" {
		c.Router.VC.VCs = 16
	}
	if edit != nil {
		edit(&c)
	}
	return c
}

// TestGridNDDigestsMatch2D: a k x k torus or mesh given as a list (k =
// [k, k]) is built through the n-D family (GridND, its routings and the
// n-D forms of the grid patterns), and gives the digest of the same
// network given as one number (the Grid2D), routing by routing and
// pattern by pattern: the 2-D grids run through the n-D family as today.
func TestGridNDDigestsMatch2D(t *testing.T) {
	t.Parallel() // independent runs: see "Parallel tests" in study_test.go
	type tc struct {
		topo, routing, pattern string
	}
	var cases []tc
	for _, r := range []string{"dor-dateline", "dor-2class", "duato", "min-adaptive"} {
		for _, p := range []string{"uniform", "transpose", "tornado", "neighbour", "centre-reflection", "centre-reflection-k", "hotspot", "bit-complement"} {
			cases = append(cases, tc{"torus", r, p})
		}
	}
	for _, p := range []string{"uniform", "transpose", "tornado", "hotspot"} {
		cases = append(cases, tc{"mesh", "dor", p})
	}
	for _, c := range cases {
		t.Run(c.topo+"-"+c.routing+"-"+c.pattern, func(t *testing.T) {
			if raceEnabled && c.pattern != "uniform" {
				t.Skip("under -race uniform traffic only: the patterns are serial code")
			}
			cfg := func(k grid.Sides) Config {
				return torusND(k, 0, c.routing, func(cf *Config) {
					cf.Name = "grid-nd-vs-2d"
					cf.Traffic.Pattern, cf.Traffic.Load = c.pattern, 0.25
					if c.topo == "mesh" {
						cf.Network = netOf("mesh", "levels", 3, "concentration", 2)
						cf.Network.Mesh.K = k
					}
				})
			}
			plane, nd := cfg(grid.Side(8)), cfg(grid.SidesOf(8, 8))
			bp, err := Build(context.Background(), plane)
			if err != nil {
				t.Fatal(err)
			}
			bn, err := Build(context.Background(), nd)
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := bp.Net.Topo.(*grid.Grid2D); !ok {
				t.Fatalf("k = 8 built a %T", bp.Net.Topo)
			}
			if _, ok := bn.Net.Topo.(*grid.GridND); !ok {
				t.Fatalf("k = [8, 8] built a %T", bn.Net.Topo)
			}
			a, b := mustRun(t, plane, Options{}), mustRun(t, nd, Options{})
			if a.PacketsDelivered == 0 || a.Digest() != b.Digest() {
				t.Errorf("k = 8: digest %s (%d packets); k = [8, 8]: %s (%d packets)", a.Digest(), a.PacketsDelivered, b.Digest(), b.PacketsDelivered)
			}
		})
	}
}

// TestGridNDZeroLoadHops: hand-worked dimension-order routes on the 4x4x4
// torus (dimension 0 first, the shorter way round, the positive one on a
// tie) and a 3x3x3 mesh: from (0,0,0) to (1,2,3) the packet goes x+ to
// (1,0,0), y+ twice (distance 2 of 4, a tie) to (1,2,0), then z- across the
// wrap-around to (1,2,3): 4 hops; on the mesh from (2,0,1) to (0,2,2) x-
// twice, y+ twice, z+ once. The latency of a lone packet is 2 + (H+1)R +
// links + 2 + size-1 (2-cycle links, routing delay 1, 4 flits), which
// Network.ZeroLoadLatency gives, and duato's and min-adaptive's paths are
// as long.
func TestGridNDZeroLoadHops(t *testing.T) {
	for _, c := range []struct {
		mesh     bool
		src, dst int
		path     []string
	}{
		{false, 0, 1 + 4*2 + 16*3, []string{"R(0,0,0)", "R(1,0,0)", "R(1,1,0)", "R(1,2,0)", "R(1,2,3)"}},
		{false, 63, 0, []string{"R(3,3,3)", "R(0,3,3)", "R(0,0,3)", "R(0,0,0)"}}, // every hop x+, y+, z+ across a wrap-around (distance 1)
		{false, 5, 5, []string{"R(1,1,0)"}},
		{true, 2 + 9*1, 0 + 3*2 + 9*2, []string{"R(2,0,1)", "R(1,0,1)", "R(0,0,1)", "R(0,1,1)", "R(0,2,1)", "R(0,2,2)"}},
	} {
		for _, rt := range []string{"dor-dateline", "duato", "min-adaptive"} {
			if c.mesh && rt != "dor-dateline" {
				continue
			}
			cfg := torusND(grid.Side(4), 3, rt, func(cf *Config) {
				cf.Router.LinkLatencyCycles, cf.Router.CreditLatencyCycles, cf.Router.RoutingDelayCycles = 2, 1, 1
				cf.Traffic.PacketFlits = 4
				if c.mesh {
					cf.Network = netOf("mesh", "levels", 3, "concentration", 1)
					cf.Network.Mesh.K, cf.Network.Mesh.Dimensions = grid.Side(3), 3
					cf.Router.Routing = "dor"
				}
			})
			b, err := Build(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			lonePacket(t, b, cfg.Router.Routing, rt == "dor-dateline", c.src, c.dst, c.path)
		}
	}
}

// TestGridNDChannelLoadBounds: on the 8x8x8 torus (512 nodes) with
// routers of internal speedup 2 and 12 VCs of 16 flits (3 in each of the
// 4 dateline classes), dimension-order routing with datelines saturates
// within 10% of its channel-load bound under uniform traffic and within
// 5% of it under tornado. The bounds, traced through the routing's paths,
// are the hand-worked ones: uniform sends a node's traffic along each
// ring to a coordinate drawn over 8, (1+2+3+4)/8 = 10/8 of a node's load
// on each positive link per unit (the tie at distance 4 goes positive):
// 0.8, as traced without the node itself 511/512 of it; tornado (router W
// to W + 4) sends every node 4 hops along x+ (4 flows on every x+ link:
// 1/4), half of them then one hop y+ (the carry). Uniform traffic falls
// further short with fewer VCs a class (measured: 5 VCs, one a class and
// one more, 0.637, -20%; 8 VCs 0.700, -12%; 12 VCs 0.734, -8%): head-of-
// line blocking in classes of one or two VCs, which tornado, one flow a
// link, does not have (0.250 with 4 VCs).
func TestGridNDChannelLoadBounds(t *testing.T) {
	if raceEnabled {
		t.Skip("measures saturation throughput of serial runs; run without -race")
	}
	t.Parallel() // long and independent: see "Parallel tests" in study_test.go
	base := torusND(grid.Side(8), 3, "dor-dateline", func(c *Config) {
		saturating(c)
		c.Router.VC.VCs, c.Router.VC.Switching = 12, "vct"
	})
	for _, cs := range []struct {
		pattern string
		want    float64
		tol     float64
	}{{"uniform", 0.8 * 511 / 512, 0.10}, {"tornado", 0.25, 0.05}} {
		bound, busiest := pathBound(t, routedAs(base, "dor-dateline", cs.pattern), 1)
		t.Logf("%s: traced bound %.4f (busiest: %s)", cs.pattern, bound, busiest)
		if math.Abs(bound-cs.want) > 1e-6 {
			t.Errorf("%s: traced bound %.4f (busiest: %s), want %.4f", cs.pattern, bound, busiest, cs.want)
		}
		res := saturationRun(t, routedAs(base, "dor-dateline", cs.pattern))
		withinBound(t, "dor-dateline "+cs.pattern+" saturation", res.AcceptedFlitsPerNodeCycle, bound, cs.tol)
	}
}

// TestGridNDBadInput: impossible n-D grids, routings and patterns each get
// one keyed error naming the value, what it derives and what is allowed.
func TestGridNDBadInput(t *testing.T) {
	for _, c := range []struct {
		name string
		edit func(*Config)
		key  string
		says string
	}{
		{"too many dimensions", func(c *Config) { c.Network.Torus.Dimensions = 9 }, "network.torus.dimensions = 9", "allowed: 1..8 (0 or left out: 2)"},
		{"negative dimensions", func(c *Config) { c.Network.Torus.Dimensions = -1 }, "network.torus.dimensions = -1", "allowed: 1..8"},
		{"list and dimensions", func(c *Config) { c.Network.Torus.K, c.Network.Torus.Dimensions = grid.SidesOf(4, 4), 3 }, "network.torus.dimensions = 3", "k lists 2 dimensions: leave dimensions out, or give 2"},
		{"a side of one", func(c *Config) { c.Network.Torus.K = grid.SidesOf(4, 1, 4) }, "network.torus.k = [4, 1, 4]", "allowed: 2..1024 routers per dimension"},
		{"too many routers", func(c *Config) { c.Network.Torus.K, c.Network.Torus.Dimensions = grid.Side(64), 4 }, "network.torus.k = 64", "gives 64x64x64x64 = 16777216 routers (dimensions = 4); at most 2^22 = 4194304"},
		{"min-adaptive on five dimensions", func(c *Config) {
			c.Network.Torus.K, c.Network.Torus.Dimensions = grid.Side(2), 5
			c.Router.Routing, c.Router.VC.VCs = "min-adaptive", 64
		}, "router.vc.vcs = 64", "on 5 dimensions needs 2^(n-1)(n+1) = 96 VCs, more than the 64 a router holds"},
		{"duato's check too long", func(c *Config) {
			c.Network.Torus.K, c.Network.Torus.Dimensions = grid.Side(4), 8
			c.Router.Routing, c.Router.VC.VCs, c.Router.VC.Switching = "duato", 12, "vct"
		}, "router.vc.vcs = 12", "visits about 7^n combinations of travel at each of 65536 routers, about 13759 s, more than 300"},
		{"too few dateline classes", func(c *Config) { c.Router.VC.VCs = 3 }, "router.vc.vcs = 3", `"dor-dateline" needs at least 4 VCs on 3 dimensions, one per VC class`},
		{"dor-2class, odd VCs", func(c *Config) { c.Router.Routing, c.Router.VC.VCs = "dor-2class", 5 }, "router.vc.vcs = 5", `"dor-2class" needs an even number of VCs`},
		{"har-dor", func(c *Config) {
			c.Network = netOf("mesh", "levels", 3, "concentration", 1)
			c.Network.Mesh.K, c.Network.Mesh.Dimensions = grid.Side(4), 3
			c.Router.Routing = "har-dor"
		}, `router.routing = "har-dor"`, "built on two-dimensional grids of equal sides, not on a 4x4x4 mesh"},
		{"hybrid-har", func(c *Config) { c.Router.Routing = "hybrid-har" }, `router.routing = "hybrid-har"`, "built on two-dimensional grids of equal sides"},
		{"node channels", func(c *Config) { c.Network.Torus.NodeChannels = 2 }, "network.torus.node_channels = 2", "a channel per message class exists on two-dimensional grids of equal sides only"},
		{"transpose on unequal sides", func(c *Config) {
			c.Network.Torus.K, c.Network.Torus.Dimensions = grid.SidesOf(4, 2, 2), 0
			c.Traffic.Pattern = "transpose"
		}, `traffic.pattern = "transpose"`, "the sides [4 2 2] must read the same both ways"},
		{"ioq switch", func(c *Config) { c.Router.Kind, c.Router.Routing = "ioq", "dor" }, `network.topology = "torus"`, `router.kind = "ioq" is built on k x k meshes`},
		{"grid circuit", func(c *Config) { c.Policy.Injection, c.Policy.Circuit = "base", "grid" }, `policy.circuit = "grid"`, "tree"},
	} {
		t.Run(c.name, func(t *testing.T) {
			oneKeyedError(t, torusND(grid.Side(4), 3, "dor-dateline", c.edit), c.key, c.says)
		})
	}
}

// gridNDCases are the n-D grids' runs of the determinism and full-load
// tests at load: dor-dateline, duato and min-adaptive on the 4x4x4 torus
// under uniform and tornado traffic, dor-2class under uniform, duato on a
// 2x3x2x3 torus of four dimensions, and dor on a 3x4x2 mesh of 2 nodes a
// router.
func gridNDCases(load float64) []Config {
	var cases []Config
	for _, r := range []string{"dor-dateline", "duato", "min-adaptive"} {
		for _, p := range []string{"uniform", "tornado"} {
			cases = append(cases, torusND(grid.SidesOf(4, 4, 4), 0, r, func(c *Config) {
				c.Traffic.Pattern, c.Traffic.Load = p, load
				c.Name += "-" + p
			}))
		}
	}
	cases = append(cases, torusND(grid.SidesOf(2, 3, 2, 3), 0, "duato", func(c *Config) { c.Traffic.Load = load }),
		torusND(grid.SidesOf(4, 4, 4), 0, "dor-2class", func(c *Config) { c.Traffic.Load = load }))
	mesh := torusND(grid.SidesOf(3, 4, 2), 0, "dor", func(c *Config) {
		c.Network = netOf("mesh", "levels", 3, "concentration", 2)
		c.Network.Mesh.K = grid.SidesOf(3, 4, 2)
		c.Traffic.Load = load
	})
	mesh.Name = "mesh[3,4,2]-dor"
	return append(cases, mesh)
}

// TestGridNDBlockingOnARing: blocking = on over a torus of one dimension
// is refused before anything runs (it has no tiles), and granted on three.
func TestGridNDBlockingOnARing(t *testing.T) {
	ring := torusND(grid.SidesOf(5), 0, "dor-dateline", func(c *Config) { c.Router.VC.VCs = 2 })
	err := CheckBlocking(context.Background(), ring, Options{Blocking: BlockingOn})
	if err == nil || !strings.Contains(err.Error(), "a 5 torus has one dimension and cannot be tiled") {
		t.Errorf("blocking on a ring: %v", err)
	}
	if err := CheckBlocking(context.Background(), torusND(grid.Side(4), 3, "dor-dateline", nil), Options{Blocking: BlockingOn}); err != nil {
		t.Errorf("blocking on a 4x4x4 torus: %v", err)
	}
}
