package study

import (
	"context"
	"fmt"
	"math"
	"math/bits"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/icnsim/icnsim/actor"
	"github.com/icnsim/icnsim/fabric"
	"github.com/icnsim/icnsim/link"
	"github.com/icnsim/icnsim/router/vc"
	"github.com/icnsim/icnsim/routing"
	"github.com/icnsim/icnsim/topology/dragonfly"
	"github.com/icnsim/icnsim/traffic"
)

// dragonflySmall is a balanced dragonfly of 72 nodes (p = 2, a = 4, h = 2,
// g = 9) with global links of 5 cycles, and hyperxSmall a 4x4 HyperX with 2
// nodes per router, under uniform Bernoulli traffic.
func dragonflySmall(routing string, edit func(*Config)) Config {
	c := Default()
	c.Name = "dragonfly72-" + routing
	c.Network = netOf("dragonfly", "routers_per_group", 4, "global_latency_cycles", 5, "levels", 3, "concentration", 1, "node_channels", 1)
	c.Router.Routing, c.Router.VC.VCs, c.Router.VC.BufferFlits = routing, 4, 16
	// BookSim2's phases have a channel-dependency cycle (its routing's doc):
	// its runs waive the check, and the full-load test's watchdog and
	// invariants watch them instead.
	c.Router.AllowDeadlock = routing == "ugal-l-booksim"
	c.Traffic.Pattern, c.Traffic.Process, c.Traffic.Load, c.Traffic.PacketFlits = "uniform", "bernoulli", 0.3, 4
	c.Measure.WarmupCycles, c.Measure.MeasureCycles = 300, 1000
	if edit != nil {
		edit(&c)
	}
	return c
}

func hyperxSmall(routing string, edit func(*Config)) Config {
	c := dragonflySmall(routing, nil)
	c.Name = "hyperx32-" + routing
	c.Network = netOf("hyperx", "k", 4, "dimensions", 2, "nodes_per_router", 2, "levels", 3, "concentration", 1, "node_channels", 1)
	c.Router.VC.VCs = 2
	if edit != nil {
		edit(&c)
	}
	return c
}

// dragonflyPlusSmall is a 32-node Dragonfly+: 4 groups of 2 leaves and 2
// spines, 4 nodes a leaf, 5-cycle global links, two links between each
// pair of groups.
func dragonflyPlusSmall(routing string, edit func(*Config)) Config {
	c := dragonflySmall(routing, nil)
	c.Name = "dragonflyplus32-" + routing
	c.Network = netOf("dragonflyplus", "leaves", 2, "nodes_per_leaf", 4, "global_per_spine", 3, "groups", 4, "global_latency_cycles", 5, "levels", 3, "concentration", 1, "node_channels", 1)
	c.Router.VC.VCs = 3
	if edit != nil {
		edit(&c)
	}
	return c
}

// slimflySmall is a 54-node Slim Fly: q = 3, 18 routers of network radix
// 5, 3 nodes a router, 4 VCs (Valiant's classes).
func slimflySmall(routing string, edit func(*Config)) Config {
	c := dragonflySmall(routing, nil)
	c.Name = "slimfly54-" + routing
	c.Network = netOf("slimfly", "q", 3, "levels", 3, "concentration", 1, "node_channels", 1)
	if edit != nil {
		edit(&c)
	}
	return c
}

// fileSmall is the example topology file's network (docs/), shortest
// paths with a VC class per hop.
func fileSmall(edit func(*Config)) Config {
	c := dragonflySmall("shortest-hops", nil)
	c.Name = "file-shortest-hops"
	c.Network = netOf("file", "path", "../docs/topology-example.txt", "levels", 3, "concentration", 1, "node_channels", 1)
	c.Router.VC.VCs = 3
	if edit != nil {
		edit(&c)
	}
	return c
}

// TestNewTopologiesDeterminism: every routing on a dragonfly, a Dragonfly+,
// a HyperX, a Slim Fly, a tapered fat-tree and n-D tori and meshes, under
// uniform and adversarial traffic, gives one digest under serial, actors
// and shards with 1, 2 and 3 workers (and in blocks over long links, or in
// tiles, where the network allows them).
func TestNewTopologiesDeterminism(t *testing.T) {
	t.Parallel() // long and independent: see "Parallel tests" in study_test.go
	var cases []Config
	for _, r := range []string{"min", "val", "ugal-l", "ugal-g", "par", "ugal-l-booksim"} {
		for _, p := range []string{"uniform", "group-shift"} {
			cases = append(cases, dragonflySmall(r, func(c *Config) { c.Traffic.Pattern = p; c.Name += "-" + p }))
		}
	}
	for _, r := range []string{"min", "val", "ugal-l"} {
		for _, p := range []string{"uniform", "dimension-shift"} {
			cases = append(cases, hyperxSmall(r, func(c *Config) { c.Traffic.Pattern = p; c.Name += "-" + p }))
		}
		for _, p := range []string{"uniform", "group-shift"} {
			cases = append(cases, dragonflyPlusSmall(r, func(c *Config) { c.Traffic.Pattern = p; c.Name += "-" + p }))
		}
		for _, p := range []string{"uniform", "dimension-shift"} {
			cases = append(cases, slimflySmall(r, func(c *Config) { c.Traffic.Pattern = p; c.Name += "-" + p }))
		}
	}
	for _, r := range []string{"fattree-static", "fattree-adaptive"} {
		for _, p := range []string{"uniform", "pod-shift", "group-shift"} {
			cases = append(cases, taperedSmall(r, func(c *Config) { c.Traffic.Pattern, c.Traffic.Load = p, 0.45; c.Name += "-" + p }))
		}
	}
	cases = append(cases, gridNDCases(0.5)...)
	cases = append(cases, fileSmall(nil))
	// The congestion mechanisms on them: entropy throttling over the tree
	// circuit, SAT over the walk around a spanning tree and over the tree.
	for _, inj := range []string{"base", "sat(4,4,ring)", "sat(4,4,tree)"} {
		edit := func(c *Config) {
			c.Traffic.Load, c.Policy.Injection = 0.8, inj
			c.Name += "-" + strings.NewReplacer("(", "", ")", "", ",", "-").Replace(inj)
		}
		cases = append(cases, dragonflySmall("ugal-l", func(c *Config) { edit(c); c.Traffic.Pattern = "group-shift" }),
			hyperxSmall("min", edit), fileSmall(edit), dragonflyPlusSmall("min", edit), slimflySmall("ugal-l", edit))
	}
	// Routers with internal speedup (output and credit queues).
	for _, r := range []string{"min", "ugal-g", "par"} {
		cases = append(cases, dragonflySmall(r, func(c *Config) {
			c.Router.VC.InternalSpeedup, c.Traffic.Load, c.Traffic.Pattern = 2, 0.8, "group-shift"
			c.Name += "-group-shift-speedup2"
		}))
	}
	cases = append(cases, hyperxSmall("val", func(c *Config) { c.Router.VC.InternalSpeedup, c.Traffic.Load = 3, 0.9; c.Name += "-speedup3" }),
		dragonflyPlusSmall("ugal-l", func(c *Config) {
			c.Router.VC.InternalSpeedup, c.Traffic.Load, c.Traffic.Pattern = 2, 0.8, "group-shift"
			c.Name += "-group-shift-speedup2"
		}))
	// The seed studies' collective bursts.
	collective := func(pattern string) func(c *Config) {
		return func(c *Config) {
			c.Traffic.Process, c.Traffic.Pattern, c.Traffic.PacketsPerNode = "collective", pattern, 10
			c.Name += "-collective-" + pattern
		}
	}
	cases = append(cases, dragonflySmall("ugal-g", collective("hotspot")), hyperxSmall("ugal-l", collective("random-pair")))
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			if raceEnabled && (!strings.Contains(c.Name, "ugal") || strings.Contains(c.Name, "booksim")) && !strings.Contains(c.Name, "speedup") && c.Policy.Injection == Default().Policy.Injection {
				t.Skip("under -race only UGAL runs (icnsim's): the routings share their router code")
			}
			if raceEnabled && c.Policy.Injection != Default().Policy.Injection && (strings.HasPrefix(c.Name, "dragonflyplus") || strings.HasPrefix(c.Name, "slimfly")) {
				t.Skip("under -race the policies run on the dragonfly, HyperX and file networks: their lanes and circuits are the same code on every family")
			}
			if raceEnabled && (strings.HasPrefix(c.Name, "fattree64-tapered") || strings.HasPrefix(c.Name, "torus[") || strings.HasPrefix(c.Name, "mesh[")) {
				t.Skip("under -race the tapered tree's and the n-D grids' runs are the router code the other families' cases race")
			}
			r := sameDigestEverywhere(t, c)
			if r.PacketsDelivered == 0 {
				t.Fatal("nothing delivered")
			}
		})
	}
}

// TestNewTopologiesFullLoad runs every routing and pattern of the new
// topologies at load 1.0 for 100,000 cycles (10,000 under -race) with the
// invariants checked every 1,000 cycles and the watchdog on: no deadlock,
// no broken invariant, and packets delivered throughout.
func TestNewTopologiesFullLoad(t *testing.T) {
	t.Parallel() // long and independent: see "Parallel tests" in study_test.go
	cycles := int64(100_000)
	if raceEnabled {
		cycles = 10_000
	}
	var cases []Config
	for _, r := range []string{"min", "val", "ugal-l", "ugal-g", "par", "ugal-l-booksim"} {
		for _, p := range []string{"uniform", "group-shift", "hotspot"} {
			if r == "ugal-l-booksim" && p == "hotspot" {
				continue
			}
			cases = append(cases, dragonflySmall(r, func(c *Config) { c.Traffic.Pattern = p; c.Name += "-" + p }))
		}
	}
	for _, r := range []string{"min", "val", "ugal-l"} {
		for _, p := range []string{"uniform", "dimension-shift", "hotspot"} {
			cases = append(cases, hyperxSmall(r, func(c *Config) { c.Traffic.Pattern = p; c.Name += "-" + p }))
		}
		for _, p := range []string{"uniform", "group-shift"} {
			cases = append(cases, dragonflyPlusSmall(r, func(c *Config) {
				c.Traffic.Pattern = p
				c.Name += "-" + p
				if r == "min" {
					c.Router.VC.VCs = 1 // its one class: no deadlock with one VC
				}
			}))
		}
		for _, p := range []string{"uniform", "dimension-shift"} {
			cases = append(cases, slimflySmall(r, func(c *Config) { c.Traffic.Pattern = p; c.Name += "-" + p }))
		}
	}
	for _, p := range []string{"uniform", "hotspot"} {
		cases = append(cases, fileSmall(func(c *Config) { c.Traffic.Pattern = p; c.Name += "-" + p }))
	}
	for _, r := range []string{"fattree-static", "fattree-adaptive"} {
		for _, p := range []string{"uniform", "pod-shift", "group-shift"} {
			cases = append(cases, taperedSmall(r, func(c *Config) {
				c.Traffic.Pattern, c.Router.VC.VCs = p, 1 // up*/down*: no deadlock with one VC
				c.Name += "-" + p
			}))
		}
	}
	cases = append(cases, gridNDCases(1.0)...)
	speedupFrom := len(cases)
	for _, r := range []string{"min", "val", "ugal-l", "ugal-g", "par"} {
		cases = append(cases, dragonflySmall(r, func(c *Config) {
			c.Router.VC.InternalSpeedup, c.Traffic.Pattern = 2, "group-shift"
			c.Name += "-group-shift-speedup2"
		}))
	}
	for i, c := range cases {
		cycles := cycles
		if i >= speedupFrom {
			cycles /= 5 // the speedup's queues under full load; the routings had their 100,000 above
		}
		c.Traffic.Load = 1.0
		c.Measure.Method = "window"
		c.Measure.WarmupCycles, c.Measure.MeasureCycles = cycles/10, cycles-cycles/10
		c.Measure.MaxCycles, c.Measure.DrainCycles = cycles, 0
		c.Measure.SampleCycles, c.Measure.WatchdogCycles = 10_000, 10_000
		t.Run(c.Name, func(t *testing.T) {
			if raceEnabled && (strings.HasPrefix(c.Name, "dragonflyplus") || strings.HasPrefix(c.Name, "slimfly") || strings.HasPrefix(c.Name, "fattree64-tapered") || strings.HasPrefix(c.Name, "torus[") || strings.HasPrefix(c.Name, "mesh[")) {
				t.Skip("serial runs: the race pass has nothing to find in them that the dragonfly's and HyperX's do not show")
			}
			t.Parallel() // independent runs: the two cores share them
			start := time.Now()
			b, err := Build(context.Background(), c)
			if err != nil {
				t.Fatal(err)
			}
			checks := 0
			res, err := b.Run(context.Background(), Options{Exec: actor.Serial, CheckEveryCycles: 1000, OnCheck: func(int64) { checks++ }})
			if err != nil {
				t.Fatalf("after %d checks: %v", checks, err)
			}
			if res.CyclesSimulated != cycles || checks != int(cycles/1000) {
				t.Fatalf("ran %d cycles with %d checks, want %d and %d", res.CyclesSimulated, checks, cycles, cycles/1000)
			}
			if res.PacketsDelivered == 0 {
				t.Fatal("nothing delivered")
			}
			t.Logf("%s: %d cycles, %d checks, accepted %.3f flits/node/cycle, %.1f s", c.Name, cycles, checks, res.AcceptedFlitsPerNodeCycle, time.Since(start).Seconds())
		})
	}
}

// TestNewTopologiesBadInput: impossible parameters each get one keyed error.
func TestNewTopologiesBadInput(t *testing.T) {
	for _, c := range []struct {
		name string
		edit func(*Config)
		key  string
		says string
	}{
		{"too many groups", func(c *Config) { setLeaf(&c.Network, "groups", 10) }, "network.dragonfly.groups = 10", "too few to reach 9 other groups"},
		{"groups not dividing", func(c *Config) { setLeaf(&c.Network, "groups", 4) }, "network.dragonfly.groups = 4", "split evenly"},
		{"p = 0 means balanced, p < 0 refused", func(c *Config) { setLeaf(&c.Network, "nodes_per_router", -1) }, "network.dragonfly.nodes_per_router = -1", "allowed: 1..32"},
		{"no routers per group", func(c *Config) { setLeaf(&c.Network, "routers_per_group", 0) }, "network.dragonfly.routers_per_group = 0", "allowed: 1..64"},
		{"arrangement", func(c *Config) { setLeaf(&c.Network, "global_arrangement", "palm") }, `network.dragonfly.global_arrangement = "palm"`, "palmtree"},
		{"short global links", func(c *Config) { c.Router.LinkLatencyCycles = 4; setLeaf(&c.Network, "global_latency_cycles", 2) }, "network.dragonfly.global_latency_cycles = 2", "at least router.link_latency_cycles"},
		{"short local links", func(c *Config) { c.Router.LinkLatencyCycles = 4; setLeaf(&c.Network, "local_latency_cycles", 3) }, "network.dragonfly.local_latency_cycles = 3", "at least router.link_latency_cycles (4), the node links' latency"},
		{"long local links", func(c *Config) { setLeaf(&c.Network, "local_latency_cycles", 1001) }, "network.dragonfly.local_latency_cycles = 1001", "1..1000 cycles"},
		{"ugal on a mesh", func(c *Config) { c.Network = netOf("mesh", "k", 4, "concentration", 1, "levels", 3) }, `router.routing = "ugal-l"`, "defined on dragonfly, dragonflyplus, hyperx, slimfly only"},
		{"threshold with min", func(c *Config) { c.Router.Routing = "min"; c.Router.UGALThresholdFlits = 4 }, "router.ugal_threshold_flits = 4", "ugal-l, ugal-g and par only"},
		{"grid circuit", func(c *Config) { c.Policy.Injection = "base"; c.Policy.Circuit = "grid" }, `policy.circuit = "grid"`, "use tree (or auto) on a dragonfly"},
		{"recn", func(c *Config) {
			c.Router.Kind, c.Router.Routing, c.Router.IOQ.Queues, c.Router.VC.VCs = "ioq", "dor", "recn", Default().Router.VC.VCs
		}, `network.topology = "dragonfly"`, `router.kind = "ioq" is built on k x k meshes`},
		{"dimension-shift on a torus", func(c *Config) {
			c.Network = netOf("torus", "k", 4, "concentration", 1, "levels", 3)
			c.Router.Routing, c.Router.VC.VCs = "dor-dateline", 3
			c.Traffic.Pattern = "dimension-shift"
		}, `traffic.pattern = "dimension-shift"`, "defined on a hyperx or slimfly only"},
		{"group-shift on a torus", func(c *Config) {
			c.Network = netOf("torus", "k", 4, "concentration", 1, "levels", 3)
			c.Router.Routing, c.Router.VC.VCs = "dor-dateline", 3
			c.Traffic.Pattern = "group-shift"
		}, `traffic.pattern = "group-shift"`, "defined on a dragonfly, dragonflyplus or fattree only"},
		{"speedup out of range", func(c *Config) { c.Router.VC.InternalSpeedup = 5 }, "router.vc.internal_speedup = 5", "allowed: 1..4"},
		{"too few VCs", func(c *Config) { c.Router.VC.VCs = 2 }, "router.vc.vcs = 2", "channel dependency cycle"},
		{"a threshold for BookSim2's rule", func(c *Config) { c.Router.Routing, c.Router.UGALThresholdFlits = "ugal-l-booksim", 4 }, "router.ugal_threshold_flits = 4", "ugal-l, ugal-g and par only"},
		{"BookSim2's phases, checked", func(c *Config) { c.Router.Routing, c.Router.VC.VCs = "ugal-l-booksim", 3 }, "router.vc.vcs = 3", `routing "ugal-l-booksim" with 3 VCs`},
		{"ugal-l-booksim off a dragonfly", func(c *Config) {
			c.Router.Routing, c.Router.AllowDeadlock = "ugal-l-booksim", true
			c.Network = netOf("hyperx", "k", 4, "dimensions", 2, "nodes_per_router", 2, "levels", 3, "concentration", 1, "node_channels", 1)
		}, `router.routing = "ugal-l-booksim"`, "defined on dragonfly only"},
	} {
		t.Run(c.name, func(t *testing.T) { oneKeyedError(t, dragonflySmall("ugal-l", c.edit), c.key, c.says) })
	}
	dir := t.TempDir()
	for _, c := range []struct{ name, file, says string }{
		{"dangling link", "routers 2\nnode 0\nnode 1\nlink 0 1\nlink 1 2\n", "dangling.txt:5: link: router 2 does not exist (routers 0..1, from \"routers 2\" at line 1)"},
		{"unreachable node", "routers 3\nnode 0\nnode 1\nnode 2\nlink 0 1\n", "unreachable.txt:4: router 2, node 2's, is unreachable from router 0 (node 0's)"},
	} {
		path := dir + "/" + strings.Fields(c.name)[0] + ".txt"
		if err := os.WriteFile(path, []byte(c.file), 0o644); err != nil {
			t.Fatal(err)
		}
		cfg := fileSmall(func(cf *Config) { setLeaf(&cf.Network, "path", path) })
		errs := cfg.Validate()
		if len(errs) != 1 || !strings.Contains(errs[0].Error(), "network.file.path = ") || !strings.Contains(errs[0].Error(), c.says) {
			t.Errorf("%s: %v, want one network.file.path error with %q", c.name, errs, c.says)
		}
	}
	// Left out, a dragonfly's p, h and g are the balanced ones; written as
	// 0 they are refused, each with its key.
	for _, key := range []string{"nodes_per_router", "global_per_router", "groups"} {
		src := fmt.Sprintf("[network]\ntopology = \"dragonfly\"\n\n[network.dragonfly]\nrouters_per_group = 4\n%s = 0\n[router]\nrouting = \"min\"\nvc.vcs = 2\n[traffic]\nprocess = \"bernoulli\"\npattern = \"uniform\"\n", key)
		_, err := ParseFile("zero.toml", []byte(src))
		if err == nil || strings.Count(err.Error(), "network.") != 1 || !strings.Contains(err.Error(), "zero.toml:6: network.dragonfly."+key+" = 0") || !strings.Contains(err.Error(), "leave the key out") {
			t.Errorf("%s = 0: %v, want one keyed error on line 6", key, err)
		}
	}
	if _, err := ParseFile("balanced.toml", []byte("[network]\ntopology = \"dragonfly\"\n\n[network.dragonfly]\nrouters_per_group = 4\n[router]\nrouting = \"min\"\nvc.vcs = 2\n[traffic]\nprocess = \"bernoulli\"\npattern = \"uniform\"\n")); err != nil {
		t.Errorf("balanced dragonfly: %v", err)
	}
	hx := hyperxSmall("val", func(c *Config) { setLeaf(&c.Network, "dimensions", 9) })
	if errs := hx.Validate(); len(errs) != 1 || !strings.Contains(fmt.Sprint(errs), "network.hyperx.dimensions = 9") {
		t.Fatalf("hyperx with 9 dimensions: %v", errs)
	}
}

// routeLoadBound is the saturation throughput the channels of net allow
// under a traffic pattern (flits/node/cycle): 1/max(1, γ), γ the load of
// the busiest router output (a link or an ejection channel) per unit of
// injected load, each node sending to dests(src) uniformly. Each path is
// the routing's at zero load (first candidate, as a lone packet takes);
// with seqs > 1 the packet's draw (Valiant's intermediate) is averaged
// over that many sequence numbers per destination. busiest names the
// busiest output.
func routeLoadBound(t *testing.T, net *vc.Network, dests func(src int) []int, seqs int) (bound float64, busiest string) {
	t.Helper()
	topo := net.Topo
	ch, _ := net.Routing.(routing.Chooser)
	load := make([][]float64, topo.Routers())
	for r := range load {
		load[r] = make([]float64, topo.Ports(r))
	}
	N := topo.Nodes()
	for src := 0; src < N; src++ {
		ds := dests(src)
		w := 1 / float64(N) / float64(len(ds)) / float64(seqs) * float64(N) // per unit of each node's load
		for j, dst := range ds {
			for k := 0; k < seqs; k++ {
				r, in := topo.NodePort(src)
				// A draw of its own for every destination and sample.
				f := link.Flit{Src: int32(src), Dst: int32(dst), Seq: uint32(j*seqs + k)}
				for hop := 0; ; hop++ {
					if hop == 64 {
						t.Fatalf("%d->%d: no sink after 64 hops", src, dst)
					}
					var c routing.Candidates
					if ch != nil {
						ch.Choose(r, in, &f, &c, net.Routers[r], 0)
					} else {
						net.Routing.Route(r, in, &f, &c)
					}
					p := bits.TrailingZeros64(c.G[0].Ports)
					load[r][p] += w
					peer := topo.Peer(r, p)
					if peer.Node >= 0 {
						break
					}
					f.VC = uint8(bits.TrailingZeros64(c.G[0].VCs))
					r, in = peer.Router, peer.Port
				}
			}
		}
	}
	gamma := 1.0 // a node's injection channel
	busiest = "injection"
	for r := range load {
		for p, l := range load[r] {
			if l > gamma+1e-9 {
				gamma, busiest = l, topo.PortName(r, p)
			}
		}
	}
	return 1 / gamma, busiest
}

// pathBound is routeLoadBound for c's routing under c's traffic pattern
// on c's network: each node sends to every other node (uniform), to
// the destinations the pattern spreads it over (traffic.PatternSpec.Spread)
// or to its image under a permutation, with seqs draws per destination.
func pathBound(t *testing.T, c Config, seqs int) (bound float64, busiest string) {
	t.Helper()
	b, err := Build(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	topo := b.Net.Topo
	spec := traffic.Patterns()[c.Traffic.Pattern]
	dests := func(src int) (ds []int) {
		if c.Traffic.Pattern == "uniform" {
			for d := range topo.Nodes() {
				if d != src {
					ds = append(ds, d)
				}
			}
			return ds
		}
		if spec.Spread == nil { // a permutation
			return []int{spec.New(traffic.GeometryOf(topo), traffic.PatternParams{}).Dest(src, nil)}
		}
		spec.Spread(traffic.GeometryOf(topo), traffic.PatternParams{}, src, func(d int, _ float64) { ds = append(ds, d) })
		return ds
	}
	return routeLoadBound(t, b.Net, dests, seqs)
}

// routedAs is c under routing and traffic pattern.
func routedAs(c Config, routing, pattern string) Config {
	c.Router.Routing, c.Traffic.Pattern = routing, pattern
	return c
}

// saturationRun runs c serially and returns its result.
func saturationRun(t *testing.T, c Config) *Result {
	t.Helper()
	res, err := Run(context.Background(), c, Options{Exec: actor.Serial})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// withinBound logs got against want and fails beyond tol (a fraction).
func withinBound(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	t.Logf("%s: %.4f flits/node/cycle against %.4f (%+.1f%%)", what, got, want, 100*(got-want)/want)
	if math.Abs(got-want) > tol*want {
		t.Errorf("%s: %.4f flits/node/cycle, more than %.0f%% from %.4f", what, got, 100*tol, want)
	}
}

// oneKeyedError fails unless cfg is refused, by Validate or else by the
// build's checks, with exactly one error naming key (or its first word,
// the key path) and saying says.
func oneKeyedError(t *testing.T, cfg Config, key, says string) {
	t.Helper()
	errs := cfg.Validate()
	if len(errs) == 0 {
		// The deadlock check is Build's (and validate's).
		_, err := Build(context.Background(), cfg)
		if err == nil {
			t.Fatal("accepted")
		}
		errs = append(errs, err)
	}
	if len(errs) != 1 {
		t.Fatalf("%d errors, want 1: %v", len(errs), errs)
	}
	msg := errs[0].Error()
	if !strings.Contains(msg, key) && !strings.Contains(msg, strings.SplitN(key, " ", 2)[0]) || !strings.Contains(msg, says) {
		t.Fatalf("error %q, want %q with %q", msg, key, says)
	}
}

// TestDragonflyChannelLoadBounds: on a balanced dragonfly with routers of
// internal speedup 2 (BookSim2's dragonfly router), saturation throughput
// meets the bounds of the dragonfly paper's channel-load analysis, each
// computed here from the routing's own paths: minimal routing under uniform
// traffic and under the worst case (group-shift: 1/(a*p), a group's nodes
// sharing one global link) within 10% of its bound, Valiant under the worst
// case within 10% of its bound (about half: every packet crosses two global
// links), and UGAL-G under the worst case within 10% of Valiant's
// throughput. Without the speedup, minimal routing under uniform traffic
// stays near 60% of its bound: the separable allocator of an input-queued
// router of this radix matches no more.
func TestDragonflyChannelLoadBounds(t *testing.T) {
	sat := func(routing, pattern string, speedup int) float64 {
		t.Helper()
		c := dragonflySmall(routing, func(c *Config) {
			c.Router.VC.InternalSpeedup = speedup
			c.Traffic.Pattern, c.Traffic.Process = pattern, "saturation"
			c.Measure.Method = "window"
			c.Measure.WarmupCycles, c.Measure.MeasureCycles, c.Measure.DrainCycles = 3000, 6000, 0
		})
		b, err := Build(context.Background(), c)
		if err != nil {
			t.Fatal(err)
		}
		res, err := b.Run(context.Background(), Options{Exec: actor.Serial})
		if err != nil {
			t.Fatal(err)
		}
		return res.AcceptedFlitsPerNodeCycle
	}
	bound := func(routing, pattern string) (float64, string) {
		t.Helper()
		b, err := Build(context.Background(), dragonflySmall(routing, nil))
		if err != nil {
			t.Fatal(err)
		}
		d := b.Net.Topo.(*dragonfly.Dragonfly)
		group := d.P * d.A
		N := b.Net.Topo.Nodes()
		dests := func(src int) (ds []int) {
			if pattern == "uniform" {
				for i := 0; i < N; i++ {
					ds = append(ds, i)
				}
				return ds
			}
			G := (src/group + 1) % (N / group)
			for i := G * group; i < (G+1)*group; i++ {
				ds = append(ds, i)
			}
			return ds
		}
		seqs := 1
		if routing != "min" {
			seqs = 256
		}
		return routeLoadBound(t, b.Net, dests, seqs)
	}
	within := func(what string, got, want float64) {
		t.Helper()
		t.Logf("%s: %.4f flits/node/cycle against %.4f (%.1f%%)", what, got, want, 100*(got-want)/want)
		if math.Abs(got-want) > 0.10*want {
			t.Errorf("%s: %.4f flits/node/cycle, more than 10%% from %.4f", what, got, want)
		}
	}
	for _, c := range []struct{ routing, pattern string }{{"min", "uniform"}, {"min", "group-shift"}, {"val", "group-shift"}} {
		b, busiest := bound(c.routing, c.pattern)
		t.Logf("%s %s: bound %.4f (busiest: %s)", c.routing, c.pattern, b, busiest)
		within(c.routing+" "+c.pattern+" saturation", sat(c.routing, c.pattern, 2), b)
	}
	if b, _ := bound("min", "group-shift"); math.Abs(b-1.0/8) > 1e-9 {
		t.Errorf("minimal worst-case bound %.4f, want 1/(a*p) = 1/8", b)
	}
	within("ugal-g group-shift saturation against val's", sat("ugal-g", "group-shift", 2), sat("val", "group-shift", 2))
	b, _ := bound("min", "uniform")
	if plain := sat("min", "uniform", 1); plain > 0.75*b {
		t.Errorf("minimal uniform without speedup: %.4f flits/node/cycle, %.0f%% of the bound %.4f: the allocator limit this test documents is gone; revisit the doc", plain, 100*plain/b, b)
	} else {
		t.Logf("min uniform without speedup: %.4f flits/node/cycle (%.0f%% of the bound)", plain, 100*plain/b)
	}
}

// TestDragonflyLeadBlocking: a dragonfly runs in blocks over its long links
// (fabric.LeadTiling) as their latencies allow: its groups for min(L,
// S-L) cycles of its global links (3 for 5-cycle links, rings of 8
// slots), each router with its nodes when the local links are long too
// and the blocks shorter than their lead, and not at all with a policy's
// lanes, UGAL-G's group board or global links of the local links'
// latency.
func TestDragonflyLeadBlocking(t *testing.T) {
	for _, c := range []struct {
		name          string
		cfg           Config
		steps         int
		pieces, block int // 0 pieces: not blockable
	}{
		{"5-cycle global links", dragonflySmall("min", nil), 20, 9, 3},
		{"ugal-l, speedup 2", dragonflySmall("ugal-l", func(c *Config) { c.Router.VC.InternalSpeedup = 2 }), 20, 9, 3},
		{"blocks of 2", dragonflySmall("min", nil), 2, 9, 2},
		{"long local links, long blocks", dragonflySmall("min", func(c *Config) {
			setLeaf(&c.Network, "global_latency_cycles", 100)
			setLeaf(&c.Network, "local_latency_cycles", 10)
		}), 20, 9, 20},
		{"long local links, short blocks", dragonflySmall("min", func(c *Config) {
			setLeaf(&c.Network, "global_latency_cycles", 100)
			setLeaf(&c.Network, "local_latency_cycles", 10)
		}), 6, 36, 6},
		{"ugal-g's group board", dragonflySmall("ugal-g", nil), 20, 0, 0},
		{"entropy gates", dragonflySmall("min", func(c *Config) { c.Policy.Injection = "base(50,0)" }), 20, 0, 0},
		{"1-cycle global links", dragonflySmall("min", func(c *Config) { setLeaf(&c.Network, "global_latency_cycles", 1) }), 20, 0, 0},
	} {
		b, err := Build(context.Background(), c.cfg)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		sc, err := fabric.LeadTiling(b.Fabric, c.steps, 1)
		if c.pieces == 0 {
			if err == nil || fabric.LeadTileable(b.Fabric) {
				t.Errorf("%s: blocks of %d cycles in %d pieces, want none", c.name, sc.Steps(), sc.Pieces())
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if sc.Pieces() != c.pieces || sc.Steps() != c.block || sc.Deps() != 0 {
			t.Errorf("%s: %d pieces of %d cycles with %d dependencies, want %d of %d with none", c.name, sc.Pieces(), sc.Steps(), sc.Deps(), c.pieces, c.block)
		}
	}
}

// TestLeadBlockingAnyLongLinks: a network without tiles runs in blocks
// wherever its links allow a lead, not only a dragonfly: a HyperX of
// 2-cycle links (rings of 4 slots, a lead of 2) in pieces of one router
// with its nodes, blocking on accepted by CheckBlocking and by the run,
// with serial's digest; of 1-cycle links refused by both alike.
func TestLeadBlockingAnyLongLinks(t *testing.T) {
	long := hyperxSmall("min", func(c *Config) { c.Router.LinkLatencyCycles, c.Router.CreditLatencyCycles = 2, 2 })
	b, err := Build(context.Background(), long)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := fabric.LeadTiling(b.Fabric, 20, 1)
	if err != nil || sc.Steps() != 2 || sc.Pieces() != b.Fabric.Topology().Routers() {
		t.Fatalf("schedule %v, %v; want blocks of 2 cycles, one piece per router", sc, err)
	}
	on := Options{Exec: actor.Serial, Blocking: BlockingOn}
	if err := CheckBlocking(context.Background(), long, on); err != nil {
		t.Fatal(err)
	}
	if got, want := mustRun(t, long, on).Digest(), mustRun(t, long, Options{Exec: actor.Serial, Blocking: BlockingOff}).Digest(); got != want {
		t.Fatalf("blocked digest %s, serial %s", got, want)
	}
	short := hyperxSmall("min", nil)
	checkErr := CheckBlocking(context.Background(), short, on)
	_, runErr := Run(context.Background(), short, on)
	if checkErr == nil || runErr == nil || checkErr.Error() != runErr.Error() {
		t.Fatalf("1-cycle links: CheckBlocking %v, run %v; want one refusal from both", checkErr, runErr)
	}
}
