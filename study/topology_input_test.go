package study

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/icnsim/icnsim/actor"
)

// topologyBases are a valid small configuration of every topology family.
func topologyBases(t *testing.T) map[string]Config {
	t.Helper()
	torus := Default()
	setLeaf(&torus.Network, "k", 4)
	mesh := Default()
	mesh.Network = netOf("mesh", "k", 4, "concentration", 2)
	mesh.Router.Routing, mesh.Router.VC.VCs = "dor", 2
	tree := Default()
	tree.Network = netOf("fattree", "k", 2, "levels", 3)
	tree.Router.Routing, tree.Router.VC.VCs = "fattree-adaptive", 2
	bases := map[string]Config{"torus": torus, "mesh": mesh, "fattree": tree,
		"dragonfly": dragonflySmall("ugal-l", nil), "hyperx": hyperxSmall("val", nil),
		"dragonflyplus": dragonflyPlusSmall("ugal-l", nil), "slimfly": slimflySmall("ugal-l", nil), "file": fileSmall(nil)}
	for k, c := range bases {
		c.Traffic.Process, c.Traffic.Pattern, c.Traffic.Load = "bernoulli", "uniform", 0.2
		bases[k] = c
	}
	return bases
}

// TestTopologyKeysAtIntegerExtremes: every integer key of every family's
// table, at the integer extremes, on its topology, is refused with
// errors that all name that key: no value overflows into a product that
// another key's check then reports (a dragonfly's routers_per_group =
// 2^63-1 once came out as "traffic.hotspot_node = -1: allowed: ...
// 0..-4611686018427387903").
func TestTopologyKeysAtIntegerExtremes(t *testing.T) {
	extremes := []int64{math.MinInt64, math.MinInt32, -1, math.MaxInt32, 1 << 32, 1 << 62, math.MaxInt64}
	for topo, base := range topologyBases(t) {
		if errs := base.Validate(); len(errs) > 0 {
			t.Fatalf("%s base: %v", topo, errs)
		}
		for _, leaf := range familyKeys()[topo] {
			key := "network." + topo + "." + leaf
			if fieldKind(key) != reflect.Int {
				continue
			}
			for _, v := range extremes {
				cfg := base
				if err := setKey(&cfg, key, v); err != nil {
					t.Fatal(err)
				}
				errs := cfg.Validate()
				if len(errs) == 0 {
					t.Errorf("%s: %s = %d accepted", topo, key, v)
					continue
				}
				for _, e := range errs {
					var fe *FieldError
					if !errors.As(e, &fe) || fe.Key != key {
						t.Errorf("%s: %s = %d: an error about another key: %v", topo, key, v, e)
					}
				}
			}
		}
	}
}

// TestDerivedValueMessages: a value derived from the keys written is
// refused naming a key the user wrote and the values derived from it.
func TestDerivedValueMessages(t *testing.T) {
	for _, c := range []struct {
		name string
		edit func(*Network)
		want string
	}{
		{"dragonfly with g left out beyond 255", func(n *Network) {
			n.Dragonfly.RoutersPerGroup, n.Dragonfly.NodesPerRouter, n.Dragonfly.GlobalPerRouter = 32, 16, 16
		},
			"network.dragonfly.routers_per_group = 32: a = 32, p = 16, h = 16 give g = a*h+1 = 32*16+1 = 513 groups (groups left out); at most 255: set groups (g-1 dividing a*h = 512), or a smaller routers_per_group or global_per_router"},
		{"dragonfly, p and h left out", func(n *Network) { n.Dragonfly.RoutersPerGroup = 40 },
			"network.dragonfly.routers_per_group = 40: a = 40, p = 20 (left out: a/2), h = 20 (left out: a/2) give g = a*h+1 = 40*20+1 = 801 groups (groups left out); at most 255: set groups (g-1 dividing a*h = 800), or a smaller routers_per_group or global_per_router"},
		{"dragonfly groups beyond a*h+1", func(n *Network) { n.Dragonfly.RoutersPerGroup, n.Dragonfly.Groups = 4, 10 },
			"network.dragonfly.groups = 10: a = 4, p = 2 (left out: a/2), h = 2 (left out: a/2), g = 10: a group has a*h = 4*2 = 8 global links, too few to reach 9 other groups: allowed 2..9 (left out: a*h+1)"},
		{"dragonfly groups not dividing", func(n *Network) { n.Dragonfly.RoutersPerGroup, n.Dragonfly.Groups = 4, 8 },
			"network.dragonfly.groups = 8: a = 4, p = 2 (left out: a/2), h = 2 (left out: a/2), g = 8: the a*h = 8 global links of a group must split evenly over the g-1 = 7 other groups: allowed g-1 dividing 8"},
		{"dragonfly ports", func(n *Network) {
			n.Dragonfly.RoutersPerGroup, n.Dragonfly.NodesPerRouter, n.Dragonfly.GlobalPerRouter, n.Dragonfly.Groups = 40, 20, 10, 201
		},
			"network.dragonfly.routers_per_group = 40: a = 40, p = 20, h = 10, g = 201: a router has p + a-1 + h = 20 + 39 + 10 = 69 ports; at most 64"},
		{"dragonfly groups written beyond 255", func(n *Network) { n.Dragonfly.RoutersPerGroup, n.Dragonfly.Groups = 32, 257 },
			"network.dragonfly.groups = 257: allowed: 2..255 groups, at most a*h+1 (left out: a*h+1)"},
		{"hyperx p left out beyond 32", func(n *Network) { n.Topology, n.HyperX.K, n.HyperX.Dimensions = "hyperx", 64, 2 },
			"network.hyperx.k = 64: k = 64 gives nodes_per_router = k = 64 (left out: the flattened butterfly's p = k); allowed: 1..32 nodes per router: set nodes_per_router"},
		{"hyperx ports", func(n *Network) {
			n.Topology, n.HyperX.K, n.HyperX.Dimensions, n.HyperX.NodesPerRouter = "hyperx", 17, 4, 2
		},
			"network.hyperx.k = 17: k = 17, dimensions = 4, trunking = 1 (left out: 1), nodes_per_router = 2: a router has p + dimensions*(k-1)*trunking = 2 + 4*16*1 = 66 ports; at most 64"},
		{"hyperx nodes", func(n *Network) {
			n.Topology, n.HyperX.K, n.HyperX.Dimensions, n.HyperX.NodesPerRouter = "hyperx", 8, 7, 2
		},
			"network.hyperx.dimensions = 7: k = 8, dimensions = 7, trunking = 1 (left out: 1), nodes_per_router = 2: the hyperx has k^dimensions*p = 8^7*2 = 4194304 nodes; at most 2^20 = 1048576"},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := dragonflySmall("min", nil)
			cfg.Network = netOf("dragonfly", "levels", 3, "concentration", 1, "node_channels", 1)
			c.edit(&cfg.Network)
			errs := cfg.Validate()
			if len(errs) != 1 || errs[0].Error() != c.want {
				t.Errorf("errors %v\nwant  %s", errs, c.want)
			}
		})
	}
}

// TestLeftOutKeysWrittenAsZero: the keys whose 0 means "left out" are
// refused when written as 0, in the file or as an axis value, and so is
// an internal speedup of 0 (it ran as 1).
func TestLeftOutKeysWrittenAsZero(t *testing.T) {
	head := "[network]\ntopology = \"hyperx\"\n\n[network.hyperx]\nk = 4\ndimensions = 2\n[router]\nrouting = \"min\"\n[traffic]\nprocess = \"bernoulli\"\npattern = \"uniform\"\n"
	for _, c := range []struct{ name, src, want string }{
		{"trunking", strings.Replace(head, "dimensions = 2\n", "dimensions = 2\ntrunking = 0\n", 1),
			"zero.toml:7: network.hyperx.trunking = 0: allowed: 1..8 links between two routers of a line; leave the key out for 1"},
		{"nodes_per_router on an axis", head + "[[axis]]\nkey = \"network.hyperx.nodes_per_router\"\nvalues = [2, 0]\n",
			"zero.toml:13: axis[0].values = 0: network.hyperx.nodes_per_router: allowed: 1..32 nodes per router; leave the key out for the flattened butterfly's p = k"},
		{"internal speedup", strings.Replace(head, "routing = \"min\"\n", "routing = \"min\"\nvc.internal_speedup = 0\n", 1),
			"zero.toml:9: router.vc.internal_speedup = 0: allowed: 1..4 switch allocation rounds per cycle (1: the input-queued router; more adds output queues)"},
	} {
		_, err := ParseFile("zero.toml", []byte(c.src))
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: %v\nwant %s", c.name, err, c.want)
		}
	}
}

// TestInterruptionNamesPhase: a run stopped by its context says in which
// phase and at which cycle, on every topology: building, the warm-up, the
// measurement and the drain, or the collective burst.
func TestInterruptionNamesPhase(t *testing.T) {
	for topo, base := range topologyBases(t) {
		base.Traffic.Process, base.Traffic.Pattern, base.Traffic.Load = "bernoulli", "uniform", 0.2
		base.Measure.WarmupCycles, base.Measure.MeasureCycles, base.Measure.DrainCycles = 200, 200, 400
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		_, err := Run(ctx, base, Options{Exec: actor.Serial})
		var ie *InterruptedError
		if !errors.As(err, &ie) || !errors.Is(err, context.Canceled) || ie.Of("x") != `while building the network of "x"` {
			t.Errorf("%s, cancelled before the build: %v", topo, err)
		}
		for _, c := range []struct {
			at, before int64 // cancelled at cycle at; the phase ends before cycle before
			cfg        func(*Config)
			phase      string
		}{
			{100, 200, nil, "the warm-up (cycles 0..199)"},
			{300, 400, nil, "the measurement (from cycle 200)"},
			{450, 800, func(c *Config) { c.Traffic.Load = 0.95 }, "the drain (after the measurement ended at cycle 400)"},
			{50, 1 << 20, func(c *Config) { c.Traffic.Process, c.Traffic.PacketsPerNode = "collective", 1000 }, "the collective burst (at most 10000000 cycles)"},
		} {
			cfg := base
			if c.cfg != nil {
				c.cfg(&cfg)
			}
			ctx, cancel := context.WithCancel(context.Background())
			_, err := Run(ctx, cfg, Options{Exec: actor.Serial, CheckEveryCycles: 50, OnCheck: func(cycle int64) {
				if cycle == c.at {
					cancel()
				}
			}})
			cancel()
			// The executor stops at the end of the chunk it is in.
			if !errors.As(err, &ie) || !errors.Is(err, context.Canceled) || ie.Phase != c.phase || ie.Cycle < c.at || ie.Cycle >= c.before {
				t.Errorf("%s, cancelled at cycle %d: %v, want %s before cycle %d", topo, c.at, err, c.phase, c.before)
			}
		}
	}
}

// TestBlockingOnRefusedAlike: blocking on is applied or refused, never
// dropped: the actors executor refuses it on every topology (as serial
// and shards refuse a topology they cannot tile, or a network whose links
// allow no lead), and so does a run that stops every cycle.
func TestBlockingOnRefusedAlike(t *testing.T) {
	for topo, base := range topologyBases(t) {
		base.Measure.WarmupCycles, base.Measure.MeasureCycles = 100, 100
		_, err := Run(context.Background(), base, Options{Exec: actor.Actors, Blocking: BlockingOn})
		if err == nil || err.Error() != ActorsCannotBlock {
			t.Errorf("%s, actors, blocking on: %v", topo, err)
		}
	}
	cfg := topologyBases(t)["torus"]
	cfg.Measure.WarmupCycles, cfg.Measure.MeasureCycles, cfg.Measure.SampleCycles = 101, 100, 0
	cfg.Traffic.Process = "bernoulli"
	if _, err := Run(context.Background(), cfg, Options{Exec: actor.Serial, Blocking: BlockingOn}); err == nil || !strings.Contains(err.Error(), "blocking = on: this run stops every cycle") {
		t.Errorf("blocking on, chunk of one cycle: %v", err)
	}
	// A HyperX has neither tiles nor long links; a dragonfly whose global
	// links are as short as its local ones has no lead (fabric.LeadTiling).
	hyperx := topologyBases(t)["hyperx"]
	dragonfly := topologyBases(t)["dragonfly"]
	setLeaf(&dragonfly.Network, "global_latency_cycles", 1)
	for _, c := range []struct {
		name string
		cfg  Config
		want string
	}{{"hyperx", hyperx, "cannot be tiled"}, {"dragonfly, 1-cycle global links", dragonfly, "no link of it lets"}} {
		c.cfg.Measure.WarmupCycles, c.cfg.Measure.MeasureCycles = 100, 100
		for _, exec := range []actor.Kind{actor.Serial, actor.Shards} {
			if _, err := Run(context.Background(), c.cfg, Options{Exec: exec, Blocking: BlockingOn}); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s, %s, blocking on: %v, want an error containing %q", c.name, exec, err, c.want)
			}
		}
	}
}

// TestTopologyFileInStudy: a topology file's defects reach the user as one
// error keyed to network.file with the file's own line; a file a study's
// points share is read once.
func TestTopologyFileInStudy(t *testing.T) {
	dir := t.TempDir()
	lone := filepath.Join(dir, "lone.txt")
	if err := os.WriteFile(lone, []byte("routers 3\nnode 0\nnode 1\nlink 0 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	src := fmt.Sprintf("[network]\ntopology = \"file\"\n\n[network.file]\npath = %q\n[router]\nrouting = \"shortest-hops\"\n[traffic]\nprocess = \"bernoulli\"\npattern = \"uniform\"\n", lone)
	_, err := ParseFile("s.toml", []byte(src))
	want := fmt.Sprintf("s.toml:5: network.file.path = %q: %s:1: router 2 has no node and no link (\"routers 3\" declares routers 0..2; every router needs a node or a link)", lone, lone)
	if err == nil || err.Error() != want {
		t.Errorf("router without nodes or links: %v\nwant %s", err, want)
	}
	ok := filepath.Join(dir, "ok.txt")
	if err := os.WriteFile(ok, []byte("routers 3\nnode 0\nnode 1\nnode 2\nlink 0 1\nlink 1 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	src = strings.Replace(src, lone, ok, 1) + "[[axis]]\nkey = \"traffic.load_flits_per_node_cycle\"\nvalues = [0.1, 0.2, 0.3]\n"
	f, err := ParseFile("s.toml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	g0, _ := f.Points[0].Config.Network.File.Graph()
	for _, p := range f.Points {
		if g, _ := p.Config.Network.File.Graph(); g != g0 {
			t.Fatal("the points of a study do not share their topology file's graph")
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ParseFileContext(ctx, "s.toml", []byte(src)); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}
