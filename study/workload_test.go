package study

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/icnsim/icnsim/report"
	"github.com/icnsim/icnsim/router/vc"
	"github.com/icnsim/icnsim/routing"
	"github.com/icnsim/icnsim/topology"
	"github.com/icnsim/icnsim/workload"
)

// modelMessage is a message of the model: its nodes, size, and the cycle
// its first flit leaves its node.
type modelMessage struct {
	src, dst int
	flits    int64
	start    int64
}

// meetings counts the pairs of the model's messages that could meet: both
// take a router output channel (the ejection channel included) in
// overlapping cycles (two of one source excepted), a message taking the channel out of the i-th router
// of its route from when its head would leave that router on an idle
// network (after the injection link, i+1 routing delays and i links) for
// as many cycles as it has flits, a cycle more either side. Where none
// meet, no message of the job waits for another, and the model is exact.
func meetings(t *testing.T, b *Built, msgs []modelMessage) int {
	t.Helper()
	rf, err := routing.New(b.Cfg.routingSpec(), b.Net.Topo, b.Cfg.Router.VC.VCs)
	if err != nil {
		t.Fatal(err)
	}
	L, R := int64(b.Cfg.Router.LinkLatencyCycles), int64(b.Cfg.Router.RoutingDelayCycles)
	lat, _ := b.Net.Topo.(topology.PortLatencies)
	type use struct {
		msg      int
		from, to int64
	}
	users := map[[2]int][]use{} // channel -> its uses
	for i, m := range msgs {
		head := m.start + L + R // leaves the first router
		err := traceRoute(b.Net.Topo, rf, m.src, m.dst, func(r, p int) {
			users[[2]int{r, p}] = append(users[[2]int{r, p}], use{i, head - 1, head + m.flits})
			l := L
			if lat != nil && lat.LatencyCycles(r, p) > 0 {
				l = int64(lat.LatencyCycles(r, p))
			}
			head += l + R
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	n := 0
	for _, us := range users {
		for i, a := range us {
			for _, c := range us[i+1:] {
				// Messages of one source keep their order through the
				// channels they share (its interface sends them one after
				// the other): they do not hold each other up.
				if msgs[a.msg].src != msgs[c.msg].src && a.from <= c.to && c.from <= a.to {
					n++
				}
			}
		}
	}
	return n
}

// TestJobZeroLoadCompletion: on an idle network every motif's completion
// time is its program's critical path over the zero-load latencies of its
// messages, to the cycle, on a mesh, a torus, a fat-tree and a dragonfly,
// with jobs of 8 to 64 ranks, messages of one packet and of several, and
// compute steps between iterations.
func TestJobZeroLoadCompletion(t *testing.T) {
	networks := []struct{ name, toml string }{
		{"mesh", "[network]\ntopology = \"mesh\"\n[network.mesh]\nk = 4\n[router]\nrouting = \"dor\"\n"},
		{"torus", "[network]\ntopology = \"torus\"\n[network.torus]\nk = 4\n[router]\nrouting = \"dor-dateline\"\n"},
		{"fattree", "[network]\ntopology = \"fattree\"\n[network.fattree]\nk = 4\nlevels = 3\n[router]\nrouting = \"fattree-static\"\n"},
		{"dragonfly", "[network]\ntopology = \"dragonfly\"\n[network.dragonfly]\nrouters_per_group = 4\n[router]\nrouting = \"min\"\n"},
	}
	motifs := workload.MotifNames()
	exact := 0
	defer func() {
		// Ring, binomial and broadcast on every network, and the XOR
		// exchanges and the barrier on the fat-tree, meet nowhere: a
		// model that found meetings everywhere would test nothing.
		if t.Logf("%d cases contention-free and exact", exact); exact < 28 {
			t.Errorf("%d cases contention-free, want at least 28", exact)
		}
	}()
	for _, nw := range networks {
		for _, m := range motifs {
			ranks := 16
			if nw.name == "dragonfly" && m != "alltoall-linear" {
				ranks = 32
			}
			for _, size := range []int64{4, 40} {
				name := fmt.Sprintf("%s/%s/%d-flits", nw.name, m, size)
				t.Run(name, func(t *testing.T) {
					src := nw.toml + fmt.Sprintf("[traffic]\nprocess = \"job\"\npacket_flits = 8\n[workload]\nmotif = %q\nranks = %d\nmessage_flits = %d\niterations = 2\ncompute_cycles = 7\nplacement = \"contiguous\"\n", m, ranks, size)
					cfg, err := Parse(name, []byte(src))
					if err != nil {
						t.Fatal(err)
					}
					b, err := Build(context.Background(), cfg)
					if err != nil {
						t.Fatal(err)
					}
					res, err := b.Run(context.Background(), Options{Exec: "serial"})
					if err != nil {
						t.Fatal(err)
					}
					if !res.Completed || res.Job == nil {
						t.Fatalf("job not completed: %+v", res.Job)
					}
					prog, err := workload.Build(m, cfg.workloadParams())
					if err != nil {
						t.Fatal(err)
					}
					var nodes []int
					for _, rk := range b.jobs[0].Ranks() {
						nodes = append(nodes, rk.Node())
					}
					var msgs []modelMessage
					want, err := prog.ZeroLoadCycles(workload.ZeroLoad{Iterations: cfg.Workload.Iterations, Nodes: nodes,
						Latency: b.Net.ZeroLoadLatency,
						Sent: func(src, dst int, flits, start int64) {
							msgs = append(msgs, modelMessage{src: src, dst: dst, flits: flits, start: start})
						}})
					if err != nil {
						t.Fatal(err)
					}
					got := res.Job.CompletionCycles
					if meet := meetings(t, b, msgs); meet == 0 {
						exact++
						t.Logf("exact: no messages meet; completion %d cycles", got)
						if got != want {
							t.Errorf("completion %d cycles, the critical path %d: no two messages meet, so they should agree (%d steps of %d ranks)", got, want, workload.Motifs()[m].Steps(cfg.workloadParams()), ranks)
						}
					} else if got < want {
						t.Errorf("completion %d cycles, below the critical path of %d (%d message pairs may meet)", got, want, meet)
					} else {
						t.Logf("%d pairs of messages may meet: completion %d cycles, the critical path %d (x%.2f)", meet, got, want, float64(got)/float64(want))
					}
				})
			}
		}
	}
}

// TestJobDeterminism: a job's result, its digest with its completion time
// and iteration times, is the same under serial, actors and shards with
// 1, 2 and 3 workers and temporal blocking, on adaptive routings (whose
// packets of one message arrive out of order, so that the receiver must
// place each by its number) and on the input/output-buffered switch.
func TestJobDeterminism(t *testing.T) {
	t.Parallel()
	job := func(name, motif string, ranks int, mod func(c *Config)) Config {
		return small(func(c *Config) {
			c.Name = name
			c.Traffic.Process, c.Traffic.PacketFlits = "job", 4
			c.Workload.Motif, c.Workload.Ranks, c.Workload.MessageFlits, c.Workload.Iterations = motif, ranks, 37, 2
			c.Workload.ComputeCycles, c.Workload.Placement = 5, "random"
			mod(c)
		})
	}
	cases := []Config{
		job("torus-min-adaptive-alltoall", "alltoall-pairwise", 64, func(c *Config) {
			c.Router.Routing, c.Router.VC.VCs = "min-adaptive", 6
		}),
		job("torus-duato-halo", "halo-2d-diagonals", 36, func(c *Config) {
			setLeaf(&c.Network, "k", 6)
			c.Router.Routing, c.Router.VC.VCs = "duato", 5
		}),
		job("mesh-ioq-broadcast", "broadcast-binomial", 30, func(c *Config) {
			c.Network = netOf("mesh", "k", 6, "concentration", 1)
			c.Router.Routing, c.Router.Kind = "dor", "ioq"
		}),
		job("fattree-adaptive-allreduce", "allreduce-recursive-halving", 32, func(c *Config) {
			c.Network = netOf("fattree", "k", 4, "levels", 3, "concentration", 1)
			c.Router = Router{Routing: "fattree-adaptive", RoutingDelayCycles: 1, LinkLatencyCycles: 1, CreditLatencyCycles: 1,
				kinds: kinds{VC: vc.Table{VCs: 2, BufferFlits: 8, Switching: "wormhole", InternalSpeedup: 1, SwitchAllocationCycles: 1, ISLIPIterations: 1}}}
		}),
		job("dragonfly-ugal-incast", "incast", 40, func(c *Config) {
			c.Network = netOf("dragonfly", "routers_per_group", 4)
			c.Router.Routing, c.Router.VC.VCs = "ugal-l", 3
			c.Workload.Placement = "spread"
		}),
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			r := sameDigestEverywhere(t, c)
			if !r.Completed || r.Job == nil || r.Job.RanksFinished != r.Job.Ranks || len(r.Job.IterationCycles) != 2 {
				t.Fatalf("job not finished: completed %v, %+v", r.Completed, r.Job)
			}
		})
	}
}

// TestJobAllocatesNothing: a job's ranks run in place: after a warm-up in
// which source queues and histograms reach their sizes, 3,000 cycles of a
// 64-rank all-to-all allocate no more than 1,000 do (a message's packets
// go into a source queue that grows by doubling and never shrinks; ranks
// keep their per-peer state from the start).
func TestJobAllocatesNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("measures allocations; run without -race")
	}
	cfg := small(func(c *Config) {
		c.Traffic.Process, c.Traffic.PacketFlits = "job", 8
		c.Workload.Motif, c.Workload.MessageFlits, c.Workload.Iterations, c.Workload.ComputeCycles = "alltoall-pairwise", 20, 40, 10
	})
	b, err := Build(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	run := allocationsOver(t, b)
	run(6000)
	var short, long uint64
	for try := 1; try <= 3; try++ {
		short, long = run(1000), run(3000)
		if b.jobs[0].Done() {
			t.Fatal("the job ended before the measurement did: make it longer")
		}
		t.Logf("try %d: allocations: %d in 1,000 cycles, %d in 3,000 cycles", try, short, long)
		if long < short+20 {
			return
		}
	}
	t.Errorf("3,000 cycles allocated %d times, 1,000 cycles %d times: something allocates per cycle, packet or message", long, short)
}

// TestJobComputeIsNoStall: a compute step longer than measure.stall_cycles
// moves no flit for that long, yet the job is running: it completes, and
// a job that does stall (a program waiting for what never comes cannot be
// written, so a run cut by max_cycles stands in) is flagged.
func TestJobComputeIsNoStall(t *testing.T) {
	cfg := small(func(c *Config) {
		setLeaf(&c.Network, "k", 4)
		c.Traffic.Process = "job"
		c.Workload.Motif, c.Workload.MessageFlits, c.Workload.Iterations, c.Workload.ComputeCycles = "allreduce-ring", 32, 2, 30000
		c.Measure.StallCycles = 20000
	})
	r := mustRun(t, cfg, Options{Exec: "serial"})
	if !r.Completed || r.Job.RanksFinished != 16 || r.Job.CompletionCycles < 60000 {
		t.Fatalf("completed %v, %d ranks finished, completion %d cycles (two computes of 30,000)", r.Completed, r.Job.RanksFinished, r.Job.CompletionCycles)
	}
	cfg.Measure.MaxCycles = 40000
	if r := mustRun(t, cfg, Options{Exec: "serial"}); r.Completed || r.Unfinished() == "" {
		t.Fatalf("a job cut at 40,000 cycles: completed %v, unfinished %q", r.Completed, r.Unfinished())
	}
}

// TestTraceReplaysTheJob: a job's recorded trace, replayed closed loop
// (after its dependencies) and open loop (at its recorded cycles) on the
// same network, gives the recording run's digest: for an allreduce under
// adaptive routing (packets out of order), a halo exchange with compute
// steps, and an incast whose senders never wait.
func TestTraceReplaysTheJob(t *testing.T) {
	for _, c := range []struct {
		motif string
		ranks int
	}{{"allreduce-recursive-halving", 32}, {"halo-3d-diagonals", 27}, {"incast", 20}} {
		t.Run(c.motif, func(t *testing.T) {
			cfg := small(func(cf *Config) {
				setLeaf(&cf.Network, "k", 6)
				cf.Router.Routing, cf.Router.VC.VCs = "min-adaptive", 6
				cf.Traffic.Process, cf.Traffic.PacketFlits = "job", 4
				cf.Workload.Motif, cf.Workload.Ranks, cf.Workload.MessageFlits = c.motif, c.ranks, 23
				cf.Workload.Iterations, cf.Workload.ComputeCycles, cf.Workload.Placement = 3, 9, "random"
			})
			var trace strings.Builder
			rec := mustRun(t, cfg, Options{Exec: "serial", RecordTrace: func(int) (io.Writer, error) { return &trace, nil }})
			path := filepath.Join(t.TempDir(), "job.trace")
			if err := os.WriteFile(path, []byte(trace.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			for _, timing := range []string{"dependencies", "recorded"} {
				replay := cfg
				replay.Workload.TraceFile, replay.Workload.TraceTiming = path, timing
				r := mustRun(t, replay, Options{Exec: "shards", Workers: 2})
				if r.Digest() != rec.Digest() || !r.Completed {
					t.Errorf("%s replay: completion %d (recorded %d), digest %s, the recording's %s", timing, r.Job.CompletionCycles, rec.Job.CompletionCycles, r.Digest(), rec.Digest())
				}
				// A replay recorded again replays closed loop as it ran
				// (an open-loop replay's waits for its cycles included).
				var again strings.Builder
				mustRun(t, replay, Options{Exec: "serial", RecordTrace: func(int) (io.Writer, error) { return &again, nil }})
				path2 := filepath.Join(t.TempDir(), "again.trace")
				if err := os.WriteFile(path2, []byte(again.String()), 0o644); err != nil {
					t.Fatal(err)
				}
				replay.Workload.TraceFile, replay.Workload.TraceTiming = path2, "dependencies"
				if r := mustRun(t, replay, Options{Exec: "serial"}); r.Digest() != rec.Digest() {
					t.Errorf("the %s replay recorded again and replayed closed loop: completion %d (recorded %d)", timing, r.Job.CompletionCycles, rec.Job.CompletionCycles)
				}
			}
		})
	}
}

// TestTraceReplaysTheMix: a mix's jobs recorded (one trace per job) and
// replayed closed loop, each as its job's trace_file, beside the same
// background traffic (the configuration's own, seeded as before), give
// the recording run's digest, the companion runs' times alone included.
func TestTraceReplaysTheMix(t *testing.T) {
	t.Parallel()
	cfg := small(func(c *Config) {
		c.Name = "torus-mix-trace"
		c.Router.Routing, c.Router.VC.VCs = "min-adaptive", 6
		c.Traffic.Process, c.Traffic.PacketFlits, c.Traffic.Pattern = "job", 4, "uniform"
		c.Workload.Motif, c.Workload.Ranks, c.Workload.MessageFlits, c.Workload.Iterations = "halo-2d", 16, 24, 2
		c.Workload.Placement, c.Workload.BackgroundLoad, c.Workload.ComputeCycles = "random", 0.15, 7
		c.Workload.Also = []Workload{{Motif: "alltoall-pairwise", Ranks: 16, Placement: "spread"}}
	})
	traces := map[int]*strings.Builder{}
	rec := mustRun(t, cfg, Options{Exec: "serial", RecordTrace: func(j int) (io.Writer, error) {
		traces[j] = &strings.Builder{}
		return traces[j], nil
	}})
	if len(traces) != 2 || rec.Job == nil || len(rec.Jobs) != 1 || rec.Jobs[0].AloneCycles <= 0 {
		t.Fatalf("%d traces recorded, result jobs %+v %+v", len(traces), rec.Job, rec.Jobs)
	}
	dir := t.TempDir()
	replay := cfg
	replay.Workload.Also = slices.Clone(cfg.Workload.Also)
	for j, tr := range traces {
		path := filepath.Join(dir, fmt.Sprintf("job%d.trace", j))
		if err := os.WriteFile(path, []byte(tr.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		if j == 0 {
			replay.Workload.TraceFile = path
		} else {
			replay.Workload.Also[j-1].TraceFile = path
		}
	}
	r := mustRun(t, replay, Options{Exec: "shards", Workers: 2})
	if r.Digest() != rec.Digest() || !r.Completed {
		t.Errorf("replayed mix: completions %d and %d (recorded %d and %d), alone %d and %d (recorded %d and %d), digest %s, the recording's %s",
			r.Job.CompletionCycles, r.Jobs[0].CompletionCycles, rec.Job.CompletionCycles, rec.Jobs[0].CompletionCycles,
			r.Job.AloneCycles, r.Jobs[0].AloneCycles, rec.Job.AloneCycles, rec.Jobs[0].AloneCycles, r.Digest(), rec.Digest())
	}
}

// TestTraceFileErrors: a bad trace is an error of workload.trace_file that
// names the trace's file and line, from validate as from run.
func TestTraceFileErrors(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ name, text, want string }{
		{"cycle", "icnsim-trace 1\nrank 0 node 0\nrank 1 node 1\nsend 0 0 1 4 after 1\nsend 1 1 0 4 after 0\n", "cycle of dependencies"},
		{"unknown-rank", "icnsim-trace 1\nrank 0 node 0\nrank 1 node 1\nsend 0 3 1 4\n", ":4: rank 3"},
		{"negative-size", "icnsim-trace 1\nrank 0 node 0\nrank 1 node 1\nsend 0 0 1 -2\n", ":4: size (flits) -2"},
		{"node-outside", "icnsim-trace 1\nrank 0 node 0\nrank 1 node 99\nsend 0 0 1 4\n", "rank 1 on node 99"},
		{"netrace-cut", "UTJH\x00\x00\x80?short", "netrace: the 72-byte header"},
	} {
		path := filepath.Join(dir, c.name+".trace")
		if err := os.WriteFile(path, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		f, err := ParseFile("t.toml", []byte(fmt.Sprintf("[network]\ntopology = \"mesh\"\nmesh.k = 4\n[router]\nrouting = \"dor\"\n[traffic]\nprocess = \"job\"\n[workload]\ntrace_file = %q\n", path)))
		if err == nil {
			err = f.CheckBuild(context.Background())
		}
		if err == nil || !strings.Contains(err.Error(), "workload.trace_file") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want workload.trace_file and %q", c.name, err, c.want)
		}
	}
}

// TestMixDeterminism: a mix (a halo exchange, an all-to-all spread over
// the torus's rows and background traffic on the other nodes) gives one
// digest under every executor and blocking; its jobs take disjoint nodes,
// both finish, and each is slower than alone on its own nodes (measured by
// the companion runs; dimension-order routing: sharing only delays).
func TestMixDeterminism(t *testing.T) {
	t.Parallel()
	cfg := small(func(c *Config) {
		c.Name = "torus-mix"
		c.Traffic.Process, c.Traffic.PacketFlits, c.Traffic.Pattern = "job", 4, "uniform"
		c.Workload.Motif, c.Workload.Ranks, c.Workload.MessageFlits, c.Workload.Iterations = "halo-2d", 16, 24, 2
		c.Workload.Placement, c.Workload.BackgroundLoad = "random", 0.15
		c.Workload.Also = []Workload{{Motif: "alltoall-pairwise", Ranks: 16, Placement: "spread"}}
	})
	r := sameDigestEverywhere(t, cfg)
	if !r.Completed || r.Job == nil || len(r.Jobs) != 1 {
		t.Fatalf("completed %v, job %+v, %d further jobs", r.Completed, r.Job, len(r.Jobs))
	}
	for i, j := range append([]report.JobResult{*r.Job}, r.Jobs...) {
		if j.RanksFinished != 16 || j.AloneCycles <= 0 || j.Slowdown() < 1 {
			t.Errorf("job %d (%s): %d of 16 ranks finished, %d cycles in the mix, %d alone", i, j.Motif, j.RanksFinished, j.CompletionCycles, j.AloneCycles)
		}
	}
	b, err := Build(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int]int{}
	for k, job := range b.jobs {
		for _, n := range job.Nodes() {
			if other, dup := seen[n]; dup {
				t.Fatalf("node %d holds ranks of jobs %d and %d", n, other, k)
			}
			seen[n] = k
		}
	}
}

// TestMixErrors: a mix's jobs are checked one by one under their own keys,
// and together against the network's nodes.
func TestMixErrors(t *testing.T) {
	base := "[network]\ntopology = \"mesh\"\nmesh.k = 4\n[router]\nrouting = \"dor\"\n[traffic]\nprocess = \"job\"\n[workload]\n"
	for _, c := range []struct{ name, extra, want string }{
		{"every node in a mix", "[[workload.also]]\nranks = 4\n", "workload.ranks = 0: 0 is every node, which leaves none to the other jobs"},
		{"too many ranks", "ranks = 8\n[[workload.also]]\nranks = 9\n", "add up to 17, more than the network's 16 nodes"},
		{"a bad motif", "ranks = 8\n[[workload.also]]\nmotif = \"gossip\"\n", `workload.also[0].motif = "gossip"`},
		{"a node taken", "ranks = 8\n[[workload.also]]\nranks = 2\nplacement = \"list\"\nnodes = [3, 9]\n", "another job's rank is on node 3"},
		{"background above 1", "ranks = 8\nbackground_load = 2\n", "workload.background_load = 2"},
	} {
		f, err := ParseFile("m.toml", []byte(base+c.extra))
		if err == nil {
			err = f.CheckBuild(context.Background())
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
}

// TestNetraceReplay: a netrace file (the workload package's small bzip2
// test trace: five packets between four nodes) runs as a job: under
// "recorded" and "both" no packet leaves before its trace cycle (the last
// at cycle 90), under "dependencies" the chain of a request and its
// response alone sets the pace; every timing gives one digest everywhere.
func TestNetraceReplay(t *testing.T) {
	t.Parallel()
	path, err := filepath.Abs(filepath.Join("..", "workload", "testdata", "small.tra.bz2"))
	if err != nil {
		t.Fatal(err)
	}
	done := map[string]int64{}
	for _, timing := range []string{"dependencies", "recorded", "both"} {
		c := small(func(c *Config) {
			c.Name = "netrace-" + timing
			c.Network = netOf("mesh", "k", 4, "concentration", 1)
			c.Router.Routing, c.Router.VC.VCs = "dor", 2
			c.Traffic.Process, c.Traffic.PacketFlits = "job", 4
			c.Workload.TraceFile, c.Workload.TraceTiming, c.Workload.FlitBytes = path, timing, 16
		})
		r := sameDigestEverywhere(t, c)
		if !r.Completed || r.Job == nil || r.Job.Motif != "netrace-unit-test" || r.Job.Messages != 5 {
			t.Fatalf("%s: completed %v, job %+v", timing, r.Completed, r.Job)
		}
		done[timing] = r.Job.CompletionCycles
	}
	if done["recorded"] < 90 || done["both"] < done["recorded"] || done["dependencies"] >= 90 {
		t.Errorf("completions %v: recorded and both after cycle 90, both no earlier than recorded, dependencies before 90", done)
	}
	t.Logf("completions: %v", done)
}
