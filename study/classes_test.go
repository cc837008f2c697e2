package study

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/icnsim/icnsim/internal/keys"
	"github.com/icnsim/icnsim/routing"
	"github.com/icnsim/icnsim/topology/grid"
)

// classesSmall is a 4x4 mesh of DOR routers carrying two traffic classes,
// half the volume each (class 0 in 2-flit packets, class 1 in 8-flit
// ones), each on 2 VCs of its own, with edit applied.
func classesSmall(share string, edit func(*Config)) Config {
	c := Default()
	c.Name = "mesh4-classes-" + share
	c.Network = netOf("mesh", "levels", 3, "concentration", 1)
	c.Network.Mesh.K.SetUniform(4)
	c.Router.Routing = "dor"
	c.Router.VC.VCs, c.Router.VC.BufferFlits = 4, 8
	c.Router.VC.ClassVCs, c.Router.VC.ClassShare = keys.ListOf(2, 2), share
	if share == "weighted" {
		c.Router.VC.ClassWeights = keys.ListOf(3, 1)
	}
	c.Traffic.ClassVolumePercent, c.Traffic.ClassPacketFlits = keys.ListOf(50.0, 50.0), keys.ListOf(2, 8)
	c.Traffic.Load = 0.3
	c.Measure.WarmupCycles, c.Measure.MeasureCycles = 2000, 4000
	if edit != nil {
		edit(&c)
	}
	return c
}

// TestTrafficClassesDeterminism: a mix of traffic classes under each class
// share, with and without a VC partition, gives one digest under every
// executor and worker count and in temporal blocks.
func TestTrafficClassesDeterminism(t *testing.T) {
	t.Parallel() // independent runs: see "Parallel tests" in study_test.go
	cases := []Config{
		classesSmall("none", nil),
		classesSmall("priority", nil),
		classesSmall("weighted", nil),
		classesSmall("weighted", func(c *Config) {
			c.Name += "-shared-vcs"
			c.Router.VC.ClassVCs, c.Traffic.Load = keys.List[int]{}, 0.4
		}),
		classesSmall("priority", func(c *Config) {
			c.Name += "-oldest-first-three-classes"
			c.Router.VC.Arbitration, c.Router.VC.VCs, c.Router.VC.ClassVCs = "oldest-first", 3, keys.ListOf(1, 1, 1)
			c.Traffic.ClassVolumePercent, c.Traffic.ClassPacketFlits = keys.ListOf(20.0, 30.0, 50.0), keys.ListOf(1, 4, 8)
		}),
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			if raceEnabled && !strings.Contains(c.Name, "weighted") {
				t.Skip("under -race the weighted share runs: its state is the one the other shares lack")
			}
			r := sameDigestEverywhere(t, c)
			if len(r.ClassAcceptedFlitsPerNodeCycle) != c.Traffic.ClassVolumePercent.Len() || r.ClassAcceptedFlitsPerNodeCycle[1] == 0 {
				t.Fatalf("per-class throughput %v", r.ClassAcceptedFlitsPerNodeCycle)
			}
		})
	}
}

// TestTrafficClassesShare: at a hot spot whose ejection port is saturated
// by both classes (every node sends there, half the volume in each class,
// offered twice what it takes), the weighted share splits the node's
// throughput by the weights, the priority share gives class 0 all of it
// when class 0 alone offers more than the node takes, and without a share
// the classes split it about evenly.
func TestTrafficClassesShare(t *testing.T) {
	t.Parallel() // independent runs: see "Parallel tests" in study_test.go
	hot := func(c *Config) {
		c.Traffic.Pattern, c.Traffic.HotspotFraction = "hotspot", 1
		// 15 senders at 2/15 each offer the hot node twice its one flit a
		// cycle: class 0 alone offers 1/16 flits/node/cycle of the 1/16 the
		// node takes, a share of 1.
		c.Traffic.Load = 2.0 / 15
		c.Traffic.Self = "redraw"    // the hot node sends to the others
		c.Measure.WatchdogCycles = 0 // priority starves class 1 at the hot spot by design
	}
	for _, c := range []struct {
		share   string
		weights []int
		want0   float64 // class 0's share of the hot node's throughput
	}{
		{"weighted", []int{3, 1}, 0.75},
		{"weighted", []int{1, 3}, 0.25},
		// Class 0 alone offers the hot node 1.5 times what it takes.
		{"priority", nil, 1},
		{"none", nil, math.NaN()},
	} {
		cfg := classesSmall(c.share, func(cf *Config) {
			hot(cf)
			if c.weights != nil {
				cf.Router.VC.ClassWeights = keys.ListOf(c.weights...)
			}
			if c.share == "priority" {
				cf.Traffic.Load = 3.0 / 15
			}
		})
		r := saturationRun(t, cfg)
		// The hot node's own packets reach the others uncontended: half its
		// offered load in each class, over the 16 nodes, taken off both
		// classes' throughput to leave what the hot node took.
		own := cfg.Traffic.Load / 2 / 16
		a := []float64{r.ClassAcceptedFlitsPerNodeCycle[0] - own, r.ClassAcceptedFlitsPerNodeCycle[1] - own}
		got := a[0] / (a[0] + a[1])
		t.Logf("%s %v: the hot node took class 0 %.4f, class 1 %.4f flits/node/cycle (share %.3f); mean latency %.0f and %.0f cycles",
			c.share, c.weights, a[0], a[1], got, r.ClassLatency[0].Mean, r.ClassLatency[1].Mean)
		if a[0]+a[1] < 0.9/16 {
			t.Fatalf("the hot node took %.4f flits/node/cycle, not about 1/16", a[0]+a[1])
		}
		if math.IsNaN(c.want0) {
			// Without a share, the classes are served alike: within 20% of
			// the half each offers.
			if got < 0.4 || got > 0.6 {
				t.Fatalf("without a share class 0 took %.3f of the hot node's flits", got)
			}
			continue
		}
		// Within 0.05: an output's share sees only the classes its inputs'
		// arbiters present (separable allocation, one VC per input), which
		// pulls the split toward the classes' offered halves.
		if math.Abs(got-c.want0) > 0.05 || c.share == "priority" && got < 0.98 {
			t.Fatalf("class 0 took %.3f of the hot node's flits, want %.3f", got, c.want0)
		}
	}
}

// TestTrafficClassesBadInput: every traffic-class key's bad value is one
// error naming its key, the value and what is allowed.
func TestTrafficClassesBadInput(t *testing.T) {
	for _, c := range []struct {
		name string
		edit func(*Config)
		key  string
		says string
	}{
		{"one class", func(c *Config) { c.Traffic.ClassVolumePercent = keys.ListOf(100.0) }, "traffic.class_volume_percent = [100]", "allowed: 2..4 classes"},
		{"five classes", func(c *Config) { c.Traffic.ClassVolumePercent = keys.ListOf(20.0, 20, 20, 20, 20) }, "traffic.class_volume_percent", "5 classes; allowed: 2..4"},
		{"sum", func(c *Config) { c.Traffic.ClassVolumePercent = keys.ListOf(60.0, 60) }, "traffic.class_volume_percent = [60, 60]", "the percents sum to 120"},
		{"zero share", func(c *Config) { c.Traffic.ClassVolumePercent = keys.ListOf(0.0, 100) }, "traffic.class_volume_percent = [0, 100]", "percents > 0 and <= 100"},
		{"sizes count", func(c *Config) { c.Traffic.ClassPacketFlits = keys.ListOf(2, 8, 4) }, "traffic.class_packet_flits = [2, 8, 4]", "3 sizes for 2 classes"},
		{"size zero", func(c *Config) { c.Traffic.ClassPacketFlits = keys.ListOf(0, 8) }, "traffic.class_packet_flits = [0, 8]", "allowed: sizes 1..65535"},
		{"sizes alone", func(c *Config) {
			c.Traffic.ClassVolumePercent = keys.List[float64]{}
			c.Router.VC.ClassVCs, c.Router.VC.ClassShare, c.Router.VC.ClassWeights = keys.List[int]{}, "none", keys.List[int]{}
		}, "traffic.class_packet_flits = [2, 8]", "set traffic.class_volume_percent too"},
		{"long packets", func(c *Config) { c.Traffic.LongPacketFlits, c.Traffic.LongVolumePercent = 8, 50 }, "traffic.class_volume_percent", "use traffic classes (class_packet_flits for the sizes) or long_packet_flits, not both"},
		{"request-reply", func(c *Config) { c.Traffic.Process = "request-reply" }, "traffic.class_volume_percent", `process "request-reply" has message classes of its own`},
		{"partition sum", func(c *Config) { c.Router.VC.ClassVCs = keys.ListOf(2, 1) }, "router.vc.class_vcs = [2, 1]", "sums to 3 VCs; allowed: a partition of vcs = 4"},
		{"partition zero", func(c *Config) { c.Router.VC.ClassVCs = keys.ListOf(4, 0) }, "router.vc.class_vcs = [4, 0]", "at least 1 VC per traffic class"},
		{"partition count", func(c *Config) { c.Router.VC.VCs, c.Router.VC.ClassVCs = 3, keys.ListOf(1, 1, 1) }, "router.vc.class_vcs = [1, 1, 1]", "3 counts for 2 traffic classes"},
		{"partition under the routing's minimum", func(c *Config) {
			c.Network = netOf("torus", "levels", 3, "concentration", 1)
			c.Network.Torus.K.SetUniform(4)
			c.Router.Routing, c.Router.VC.ClassVCs = "dor-dateline", keys.ListOf(3, 1)
		}, "router.vc.class_vcs = [3, 1]", `traffic class 1's 1 VCs: routing "dor-dateline" needs at least 3 VCs per class`},
		{"share name", func(c *Config) { c.Router.VC.ClassShare = "fair" }, `router.vc.class_share = "fair"`, "allowed: none, priority, weighted"},
		{"weights count", func(c *Config) { c.Router.VC.ClassWeights = keys.ListOf(1, 2, 3) }, "router.vc.class_weights = [1, 2, 3]", "3 weights for 2 traffic classes"},
		{"weight range", func(c *Config) { c.Router.VC.ClassWeights = keys.ListOf(101, 1) }, "router.vc.class_weights = [101, 1]", "allowed: weights 1..100"},
		{"weights unweighted", func(c *Config) { c.Router.VC.ClassShare = "priority" }, "router.vc.class_weights = [3, 1]", `under class_share = "weighted" only`},
		{"weighted islip", func(c *Config) { c.Router.VC.SwitchAllocator = "islip" }, `router.vc.class_share = "weighted"`, "runs on separable input-first arbiters"},
		{"weighted oldest-first", func(c *Config) { c.Router.VC.Arbitration = "oldest-first" }, `router.vc.class_share = "weighted"`, "round robin within it"},
		{"priority wavefront", func(c *Config) {
			c.Router.VC.ClassShare, c.Router.VC.ClassWeights, c.Router.VC.SwitchAllocator = "priority", keys.List[int]{}, "wavefront"
		}, `router.vc.class_share = "priority"`, "matches ports by its own rule"},
		{"priority class-priority", func(c *Config) {
			c.Router.VC.ClassShare, c.Router.VC.ClassWeights, c.Router.VC.Arbitration = "priority", keys.List[int]{}, "class-priority"
		}, `router.vc.class_share = "priority"`, "use one of the two"},
		{"share and speedup", func(c *Config) { c.Router.VC.InternalSpeedup = 2 }, `router.vc.class_share = "weighted"`, "internal_speedup = 2 arbitrates round robin"},
		{"a routing of message classes", func(c *Config) {
			c.Router.Routing, c.Router.VC.Switching, c.Router.VC.ClassShare = "hybrid-har", "wormhole", "none"
			c.Router.VC.ClassVCs, c.Router.VC.ClassWeights = keys.List[int]{}, keys.List[int]{}
		}, "traffic.class_volume_percent = [50, 50]", `routing "hybrid-har" routes by message class itself (2 classes`},
		{"share under the saturation process", func(c *Config) { c.Traffic.Process = "saturation" }, `router.vc.class_share = "weighted"`, "the saturation process keeps only one backlogged"},
		{"share with a bounded source queue", func(c *Config) { c.Traffic.SourceQueuePackets = 4 }, `router.vc.class_share = "weighted"`, "would bound class 0's alone"},
		{"share without classes", func(c *Config) {
			c.Traffic.ClassVolumePercent, c.Traffic.ClassPacketFlits, c.Router.VC.ClassVCs = keys.List[float64]{}, keys.List[int]{}, keys.List[int]{}
		}, `router.vc.class_share = "weighted"`, "the traffic has one"},
	} {
		t.Run(c.name, func(t *testing.T) {
			oneKeyedError(t, classesSmall("weighted", c.edit), c.key, c.says)
		})
	}
}

// TestMessageClassesMatchTheRouting: a routing's registry entry declares
// the message classes it routes by (routing.Spec.MessageClasses, which
// refuses traffic classes) exactly when the function built reads them
// (routing.ClassRouter), for every routing of the mesh.
func TestMessageClassesMatchTheRouting(t *testing.T) {
	mesh, err := grid.NewMesh(4, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, spec := range RoutingList() {
		if !slices.Contains(spec.Topologies, "mesh") {
			continue
		}
		classes := 0
		if cr, ok := spec.New(mesh, max(spec.MinVCs, 4)).(routing.ClassRouter); ok {
			classes = cr.Classes()
		}
		if classes != spec.MessageClasses {
			t.Errorf("%s: the function routes by %d message classes, its entry says %d", spec.Name, classes, spec.MessageClasses)
		}
	}
}
