package study

import (
	"context"
	"strings"
	"testing"
)

// requestReply is a request-reply configuration on network n with the
// given routing and VCs (both virtual networks together).
func requestReply(name string, n Network, routing string, vcs int, mod func(*Config)) Config {
	return small(func(c *Config) {
		c.Name, c.Network = name, n
		c.Router.Routing, c.Router.VC.VCs, c.Router.VC.BufferFlits = routing, vcs, 8
		c.Traffic.Process, c.Traffic.Pattern, c.Traffic.Load = "request-reply", "uniform", 0.3
		c.Traffic.RequestFlits, c.Traffic.ReplyFlits, c.Traffic.ServiceCycles = 2, 6, 5
		c.Traffic.MaxOutstanding, c.Traffic.ServerQueuePackets = 4, 2
		if mod != nil {
			mod(c)
		}
	})
}

// TestRequestReplyNeverDeadlocks: requests and replies on virtual
// networks of their own, at load 1.0 with 16 requests outstanding per
// node and servers that hold two, run 1,000,000 cycles on a mesh, a torus
// and a dragonfly without a stall, every measured transaction answered.
// The same traffic with the classes sharing their VCs deadlocks (below).
func TestRequestReplyNeverDeadlocks(t *testing.T) {
	t.Parallel()
	cycles := int64(1_000_000)
	if raceEnabled {
		cycles = 20_000 // ten times slower: the plain pass runs the million
	}
	for _, c := range []Config{
		requestReply("mesh", netOf("mesh", "k", 4, "concentration", 1), "dor", 2, nil),
		requestReply("torus", netOf("torus", "k", 4), "dor-dateline", 6, nil),
		requestReply("dragonfly", netOf("dragonfly", "routers_per_group", 4), "min", 4, nil),
	} {
		t.Run(c.Name, func(t *testing.T) {
			t.Parallel()
			c.Traffic.Load, c.Traffic.MaxOutstanding = 1.0, 16
			c.Router.VC.Switching, c.Router.VC.BufferFlits = "wormhole", 4
			c.Measure.WarmupCycles, c.Measure.MeasureCycles = 1000, cycles-1000
			r := mustRun(t, c, Options{})
			if !r.Completed || r.CyclesSimulated < cycles || r.MeasuredUndelivered != 0 {
				t.Fatalf("completed %v after %d cycles, %d measured packets undelivered", r.Completed, r.CyclesSimulated, r.MeasuredUndelivered)
			}
			rr := r.RequestReply
			if rr == nil || rr.TransactionsPerNodeCycle <= 0 || r.ClassLatency[0].Count != r.ClassLatency[1].Count {
				t.Fatalf("request-reply result %+v, %d requests and %d replies measured", rr, r.ClassLatency[0].Count, r.ClassLatency[1].Count)
			}
			t.Logf("%s: %.4f transactions/node/cycle, round trip mean %.1f, max %d cycles", c.Name, rr.TransactionsPerNodeCycle, r.ClassLatency[1].Mean, r.ClassLatency[1].Max)
		})
	}
}

// TestRequestReplySharedNetwork: with requests and replies sharing every
// VC (virtual_networks = 1) the message-class check refuses the traffic,
// naming a cycle through a server's ejection and injection channels; run
// anyway (allow_deadlock), it deadlocks and the watchdog names the
// ejection buffers holding requests their servers cannot take.
func TestRequestReplySharedNetwork(t *testing.T) {
	t.Parallel()
	shared := func(allow bool) Config {
		return requestReply("shared", netOf("mesh", "k", 8, "concentration", 1), "dor", 2, func(c *Config) {
			c.Traffic.VirtualNetworks, c.Router.AllowDeadlock = 1, allow
			c.Traffic.Load, c.Traffic.MaxOutstanding, c.Traffic.ServerQueuePackets = 1.0, 16, 1
			c.Traffic.RequestFlits, c.Traffic.ReplyFlits, c.Traffic.ServiceCycles = 8, 8, 20
			c.Router.VC.Switching, c.Router.VC.BufferFlits = "wormhole", 4
			c.Measure.WarmupCycles, c.Measure.MeasureCycles, c.Measure.WatchdogCycles = 1000, 20_000, 2000
		})
	}
	err := checkNetwork(context.Background(), shared(false))
	for _, want := range []string{"traffic.virtual_networks = 1", "message-dependent deadlock", "ejection channel -(a request waits there until its node can send a reply)->", "injection channel"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("check: %v, want %q", err, want)
		}
	}
	if err := checkNetwork(context.Background(), requestReply("apart", netOf("mesh", "k", 8, "concentration", 1), "dor", 2, nil)); err != nil {
		t.Fatalf("two virtual networks refused: %v", err)
	}
	_, err = Run(context.Background(), shared(true), Options{})
	for _, want := range []string{"watchdog", "ejection buffer", "a request its node cannot take"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("run with allow_deadlock: %v, want %q", err, want)
		}
	}
	// The same traffic on two networks of one VC each completes.
	apart := shared(false)
	apart.Traffic.VirtualNetworks = 2
	if r := mustRun(t, apart, Options{}); !r.Completed {
		t.Fatalf("two networks: not completed")
	}
}

// TestRequestReplyLittle: a node never has more than max_outstanding
// requests unanswered, so the transactions completed per node per cycle
// are at most M over the mean round trip (Little's law, L <= M); offered
// far more than that, a node is at M nearly all the time (a slot stays
// empty only until the next Bernoulli arrival), so within 10% of it. Each
// round trip is at least a request's and a reply's zero-load latency and
// the service time, and the shortest (a request to the node itself) is
// exactly that.
func TestRequestReplyLittle(t *testing.T) {
	t.Parallel()
	for _, m := range []int{1, 4} {
		c := requestReply("little", netOf("mesh", "k", 6, "concentration", 1), "dor", 2, func(c *Config) {
			c.Traffic.Load, c.Traffic.MaxOutstanding, c.Traffic.ServerQueuePackets = 1.0, m, 64
			c.Measure.WarmupCycles, c.Measure.MeasureCycles = 2000, 20_000
		})
		r := mustRun(t, c, Options{})
		rt := r.ClassLatency[1]
		little := float64(m) / rt.Mean
		got := r.RequestReply.TransactionsPerNodeCycle
		if got > little*1.005 || got < little*0.9 {
			t.Errorf("M = %d: %.5f transactions/node/cycle, M / round trip = %d / %.2f = %.5f", m, got, m, rt.Mean, little)
		}
		b, err := Build(context.Background(), c)
		if err != nil {
			t.Fatal(err)
		}
		// A request to the node itself crosses its router twice (no hop):
		// the shortest round trip there is.
		floor := b.Net.ZeroLoadLatency(0, 0, c.Traffic.RequestFlits) + int(c.Traffic.ServiceCycles) + b.Net.ZeroLoadLatency(0, 0, c.Traffic.ReplyFlits)
		shortest := r.ClassLatencyCDF[1][0][0]
		if shortest != float64(floor) {
			t.Errorf("M = %d: shortest round trip %g cycles, zero-load %d", m, shortest, floor)
		}
		t.Logf("M = %d: %.5f transactions/node/cycle, round trip mean %.2f (M / mean = %.5f), shortest %g (zero-load %d)", m, got, rt.Mean, little, shortest, floor)
	}
}

// TestRequestReplyDeterminism: one digest under every executor and
// temporal blocking, with an adaptive routing in each virtual network.
func TestRequestReplyDeterminism(t *testing.T) {
	t.Parallel()
	for _, c := range []Config{
		requestReply("torus-duato", netOf("torus", "k", 6), "duato", 8, func(c *Config) { c.Router.VC.Switching = "vct" }),
		requestReply("dragonfly-ugal", netOf("dragonfly", "routers_per_group", 4), "ugal-l", 6, func(c *Config) { c.Traffic.Load = 0.6 }),
	} {
		r := sameDigestEverywhere(t, c)
		if !r.Completed || r.RequestReply == nil || r.RequestReply.TransactionsPerNodeCycle <= 0 {
			t.Fatalf("%s: completed %v, %+v", c.Name, r.Completed, r.RequestReply)
		}
	}
}

// TestRequestReplyAllocatesNothing: in the steady state a request-reply
// run allocates nothing per cycle or per transaction (its servers' rings
// and reply queues are made once, or grow to their bound and stay).
func TestRequestReplyAllocatesNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("measures allocations; run without -race")
	}
	c := requestReply("allocs", netOf("mesh", "k", 6, "concentration", 1), "dor", 2, func(c *Config) { c.Traffic.Load = 0.3 })
	b, err := Build(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	run := allocationsOver(t, b)
	run(5000)
	short, long := run(1000), run(4000)
	if tot := b.Fabric.Totals(); tot.PacketsDelivered < 10000 {
		t.Fatalf("only %d packets delivered: not a steady state", tot.PacketsDelivered)
	}
	t.Logf("allocations: %d in 1,000 cycles, %d in 4,000 cycles", short, long)
	if long > short+20 {
		t.Errorf("4,000 cycles allocated %d times, 1,000 cycles %d times: something allocates per cycle or per transaction", long, short)
	}
}

// TestRequestReplyReviewFixes: a service time the watchdog would take for
// a deadlock is refused under its key, and so is request-reply on nodes
// with a channel per message class; a window in which no transaction
// completes is flagged unfinished.
func TestRequestReplyReviewFixes(t *testing.T) {
	long := requestReply("long-service", netOf("mesh", "k", 4, "concentration", 1), "dor", 2, func(c *Config) {
		c.Traffic.ServiceCycles, c.Measure.WatchdogCycles = 150_000, 100_000
	})
	if errs := long.Validate(); len(errs) == 0 || !strings.Contains(errs[0].Error(), "traffic.service_cycles = 150000") {
		t.Errorf("a service time above the watchdog: %v", errs)
	}
	two := requestReply("two-channels", netOf("mesh", "k", 4, "concentration", 1, "node_channels", 2), "dor", 2, nil)
	if errs := two.Validate(); len(errs) == 0 || !strings.Contains(errs[0].Error(), "node_channels = 2") {
		t.Errorf("two channels per node: %v", errs)
	}
	idle := requestReply("idle-window", netOf("mesh", "k", 4, "concentration", 1), "dor", 2, func(c *Config) {
		c.Traffic.Load, c.Traffic.MaxOutstanding, c.Traffic.ServiceCycles = 0.01, 1, 20_000
		c.Measure.WarmupCycles, c.Measure.MeasureCycles, c.Measure.DrainCycles = 30_000, 100, 60_000
	})
	r := mustRun(t, idle, Options{})
	if r.RequestReply.TransactionsPerNodeCycle != 0 {
		t.Fatalf("%g transactions/node/cycle in a window the test meant to leave empty", r.RequestReply.TransactionsPerNodeCycle)
	}
	if !strings.Contains(r.Unfinished(), "no request issued in the measurement window") {
		t.Errorf("a window with no transaction: unfinished %q", r.Unfinished())
	}
}
