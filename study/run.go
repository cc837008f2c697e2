package study

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/icnsim/icnsim/actor"
	"github.com/icnsim/icnsim/clock"
	"github.com/icnsim/icnsim/fabric"
	"github.com/icnsim/icnsim/policies"
	"github.com/icnsim/icnsim/report"
	"github.com/icnsim/icnsim/router/ioq"
	"github.com/icnsim/icnsim/router/vc"
	"github.com/icnsim/icnsim/topology"
	"github.com/icnsim/icnsim/traffic"
	"github.com/icnsim/icnsim/workload"
)

// Options say how to execute a run; they never change its result.
type Options struct {
	Exec    actor.Kind // default shards
	Workers int        // shard workers; 0 = GOMAXPROCS
	// Checks verifies the network invariants after every cycle (slow; for tests).
	Checks bool
	// CheckEveryCycles verifies the same invariants as Checks (the
	// network's Check and, with SAT installed, SAT's) before every cycle
	// that is a multiple of it: 0 never (negative is an error). The
	// executor's chunk is cut to divide it, so the checks land on exact
	// multiples; Checks, when set, still checks every cycle.
	CheckEveryCycles int64
	// OnCheck, when not nil, is called after each check at a multiple of
	// CheckEveryCycles has passed, with that cycle (the next to run), while
	// the network is paused: for a soak test to sample the heap. It may
	// read the network (Built.Fabric) but must not change it.
	OnCheck func(cycle int64)
	// OnCycle, when not nil, is called with the next cycle to run at every
	// step of the run (at most every 1,024 cycles) from the goroutine that
	// drives it: for progress reports. It must return quickly and may not
	// touch the network; it changes no result.
	OnCycle func(cycle int64)
	// DeadlockChecked says the caller has already run the channel-dependency
	// check on this configuration's network (File.CheckBuild does, once per
	// distinct network of a study), so Run skips repeating it.
	DeadlockChecked bool
	// Blocking is when the run goes in temporal blocks (see Blocking);
	// "" is BlockingAuto. BlockSteps and BlockSide, when positive, replace
	// the blocks' cycles and the tiles' side in routers (for tests).
	Blocking              Blocking
	BlockSteps, BlockSide int
	// RecordTrace, when set, gives the writer of the trace of the run's
	// job j (workload.WriteTrace): j = 0 the [workload] job, j >= 1 the
	// mix's workload.also[j-1]. Replayed, closed or open loop, on the same
	// network (each job's trace as its job's workload.trace_file, the
	// background traffic the configuration's own), the run runs as it
	// did, to the same digest.
	RecordTrace func(job int) (io.Writer, error)
}

// Built is a configuration turned into a network with its collectors.
type Built struct {
	Cfg Config
	// Fabric is the network whatever its router kind; Net is the same
	// network when it is made of VC routers (router.kind = "vc"), else nil.
	Fabric     fabric.Fabric
	Net        *vc.Network
	Collectors []*report.Collector
	// running are the installed policies, in the order of Config.policies
	// (those that installed nothing left out).
	running []runningPolicy

	traffic traffic.Config // Cfg.TrafficConfig(), computed once
	units   loadUnits      // the units of the load, computed once
	// silent marks the nodes that never send (traffic.self = "skip": the
	// pattern's fixed points); nil when every node sends. They are left
	// out of the per-node statistics and averages.
	silent []bool
	// jobs are the jobs under traffic.process = "job" (none otherwise), the
	// [workload] job first, and jobNames their motifs' names (or their
	// traces').
	jobs     []*workload.Job
	jobNames []string
	// requests counts the requests issued under traffic.process =
	// "request-reply" (nil otherwise).
	requests func() uint64
	// rebuild builds the configuration again for a serial re-run after a
	// blocked run panicked (nil: build it from Cfg; tests that inject
	// faults set it to inject them again).
	rebuild func(context.Context) (*Built, error)
}

// latencyRangeCycles is the range of latencies a node's histograms hold
// from the start, given the zero-load latency of the longest route: below
// saturation a packet's latency stays within about twice that, and at
// least 255 cycles (256 one-byte buckets) for small networks, whose
// queueing adds more than their short routes do (a 4-ary 5-tree's longest
// zero-load latency is 34 cycles and its p99 126 at 0.3 flits/node/cycle).
// A wider start costs one byte per cycle per histogram; a narrower one
// reallocates the histograms of every node as their tails arrive.
func latencyRangeCycles(maxZeroLoadCycles int) uint64 {
	return uint64(max(2*maxZeroLoadCycles, 255))
}

// Build turns a validated configuration into a network. ctx stops it.
func Build(ctx context.Context, cfg Config) (*Built, error) { return build(ctx, cfg, false) }

func build(ctx context.Context, cfg Config, deadlockChecked bool) (*Built, error) {
	if errs := cfg.Validate(); len(errs) > 0 {
		return nil, errs[0]
	}
	topo, err := cfg.Topology()
	if err != nil {
		return nil, err
	}
	units, err := cfg.loadUnits()
	if err != nil {
		return nil, err
	}
	tc := cfg.trafficConfig(units)
	cols := report.NewCollectors(topo.Nodes(), report.Window{From: 0, To: clock.Never})
	sinks := make([]fabric.Sink, len(cols))
	for i, c := range cols {
		sinks[i] = c
	}
	var (
		srcs     []fabric.Source
		silent   []bool
		jobs     []*workload.Job
		jobNames []string
	)
	if tc.Process == "job" {
		if jobs, jobNames, err = cfg.buildJobs(topo); err != nil {
			return nil, err
		}
		// The ranks (and the background's nodes) are the senders:
		// per-node figures are over them.
		srcs = make([]fabric.Source, topo.Nodes())
		silent = make([]bool, topo.Nodes())
		if bg := cfg.Workload.BackgroundLoad; bg > 0 {
			btc := tc
			btc.Process, btc.LoadFlits = "bernoulli", bg
			if srcs, err = traffic.New(btc, traffic.GeometryOf(topo), cfg.Seed); err != nil {
				return nil, fmt.Errorf("workload.background_load = %g: %w", bg, err)
			}
		} else {
			for i := range srcs {
				srcs[i], silent[i] = fabric.Idle{}, true
			}
		}
		for _, job := range jobs {
			job.Install(srcs, sinks)
			for _, n := range job.Nodes() {
				silent[n] = false
			}
		}
	} else {
		if srcs, err = traffic.New(tc, traffic.GeometryOf(topo), cfg.Seed); err != nil {
			return nil, err
		}
		if silent, err = traffic.Silent(tc, traffic.GeometryOf(topo), cfg.Seed); err != nil {
			return nil, err
		}
		traffic.ChainSinks(srcs, sinks)
	}
	b := &Built{Cfg: cfg, Collectors: cols, traffic: tc, units: units, silent: silent, jobs: jobs, jobNames: jobNames}
	if tc.Process == "request-reply" {
		b.requests = func() uint64 { return traffic.RequestsIssued(srcs) }
	}
	if err := cfg.routerKind().build(ctx, b, topo, srcs, sinks, deadlockChecked); err != nil {
		return nil, err
	}
	zl := b.Fabric.MaxZeroLoadLatency(tc.MaxPacketFlits())
	if tc.Process == "request-reply" {
		// A reply's latency is its transaction's round trip.
		zl = 2*zl + int(min(tc.RequestReply.ServiceCycles, 1<<20))
	}
	for _, c := range cols {
		c.SetLatencyRange(latencyRangeCycles(zl))
	}
	return b, nil
}

// buildIOQ builds the input/output-buffered switch's network into b.
func buildIOQ(ctx context.Context, b *Built, topo topology.Topology, srcs []fabric.Source, sinks []fabric.Sink, _ bool) error {
	cfg := b.Cfg
	net, err := ioq.Build(ctx, topo, cfg.IOQConfig(), srcs, sinks)
	if err != nil {
		return err
	}
	b.Fabric = net
	// The switch's runs always report the relative throughput.
	if b.units.bisection == nil {
		if b.units.bisection, err = cfg.Bisection(); err != nil {
			return err
		}
	}
	return nil
}

// buildVC builds the VC routers' network into b, with the policies it
// installs (entropy throttling, SAT).
func buildVC(ctx context.Context, b *Built, topo topology.Topology, srcs []fabric.Source, sinks []fabric.Sink, deadlockChecked bool) error {
	cfg := b.Cfg
	rc := cfg.RouterConfig()
	if deadlockChecked {
		rc.AllowDeadlock = true
	}
	if !deadlockChecked {
		if err := cfg.checkMessageClasses(ctx, topo); err != nil {
			return err
		}
	}
	net, err := vc.Build(ctx, topo, rc, srcs, sinks)
	if err != nil {
		return routerError(ctx, cfg, err)
	}
	b.Fabric, b.Net = net, net
	return b.install(ctx, net)
}

// runningPolicy is an installed policy with its catalog entry.
type runningPolicy struct {
	entry injectionPolicy
	policies.Running
}

// install installs the configuration's policies on h, in order.
func (b *Built) install(ctx context.Context, h policies.Host) error {
	ps, err := b.Cfg.policies()
	if err != nil {
		return err
	}
	for _, p := range ps {
		r, err := p.Install(ctx, h, b.Cfg.Seed)
		if err != nil {
			return err
		}
		if r != nil {
			b.running = append(b.running, runningPolicy{p.entry, r})
		}
	}
	return nil
}

// windowTotals is tot as a measurement window's end counts it: under
// request-reply, the packets generated are twice the requests issued, a
// reply counting where its request was issued (it carries the request's
// generation cycle), not where it was queued.
func (b *Built) windowTotals(tot fabric.Totals) fabric.Totals {
	if b.requests != nil {
		tot.PacketsGenerated = 2 * b.requests()
	}
	return tot
}

// Installed is the policy of type T that b runs (*sat.Protocol,
// *entropy.Throttling), if it runs one.
func Installed[T policies.Running](b *Built) (T, bool) {
	for _, r := range b.running {
		if t, ok := r.Running.(T); ok {
			return t, true
		}
	}
	var zero T
	return zero, false
}

// routerError names the key behind a router's refusal: a routing that can
// deadlock is reported against router.vc.vcs (router.vc.class_vcs when
// the VCs are partitioned between traffic classes).
func routerError(ctx context.Context, cfg Config, err error) error {
	var de *fabric.DeadlockError
	if ctx.Err() == nil && errors.As(err, &de) {
		if cfg.Router.VC.ClassVCs.Len() > 0 { // each traffic class's block is checked apart
			return &FieldError{Key: "router.vc.class_vcs", Value: cfg.Router.VC.ClassVCs, Allowed: de.Msg}
		}
		return &FieldError{Key: "router.vc.vcs", Value: cfg.Router.VC.VCs, Allowed: de.Msg}
	}
	return err
}

// checkNetwork reports what building cfg's network would refuse, the
// channel-dependency check included, without allocating the network.
func checkNetwork(ctx context.Context, cfg Config) error {
	topo, err := cfg.Topology()
	if err != nil {
		return err
	}
	return cfg.routerKind().check(ctx, cfg, topo)
}

// checkIOQ is what building the switch's network would refuse.
func checkIOQ(_ context.Context, cfg Config, topo topology.Topology) error {
	return ioq.Check(topo, cfg.IOQConfig())
}

// checkVC is what building the VC routers' network would refuse, the
// channel-dependency check included.
func checkVC(ctx context.Context, cfg Config, topo topology.Topology) error {
	if _, err := vc.Check(ctx, topo, cfg.RouterConfig()); err != nil {
		return routerError(ctx, cfg, err)
	}
	return cfg.checkMessageClasses(ctx, topo)
}

// checkTraffic reports what making cfg's traffic sources and installing
// its policy would refuse, without doing either; ctx stops it.
func checkTraffic(ctx context.Context, cfg Config) error {
	topo, err := cfg.Topology()
	if err != nil {
		return err
	}
	if cfg.Traffic.Process == "job" {
		if _, _, err := cfg.buildJobs(topo); err != nil {
			return err
		}
	} else if err := traffic.Check(cfg.TrafficConfig(), traffic.GeometryOf(topo)); err != nil {
		return err
	}
	ps, err := cfg.policies()
	if err != nil {
		return err
	}
	for _, p := range ps {
		if err := p.Check(ctx, topo); err != nil {
			if ctx.Err() == nil && p.entry.refused != nil {
				return p.entry.refused(&cfg, p.Policy, err)
			}
			return err
		}
	}
	return nil
}

// Run builds and runs one configuration. Stopped by ctx, it returns an
// InterruptedError.
func Run(ctx context.Context, cfg Config, opt Options) (*report.Result, error) {
	b, err := buildToRun(ctx, cfg, opt)
	if err != nil {
		return nil, err
	}
	return b.Run(ctx, opt)
}

// buildToRun builds cfg for Run, an interruption an InterruptedError.
func buildToRun(ctx context.Context, cfg Config, opt Options) (*Built, error) {
	b, err := build(ctx, cfg, opt.DeadlockChecked)
	if err != nil && ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		return nil, &InterruptedError{Phase: "building the network", Cycle: -1, err: err}
	}
	return b, err
}

// InterruptedError is a run that its context stopped: in which phase, and
// at which cycle (-1 before the first). It wraps the context's error.
type InterruptedError struct {
	Phase string
	Cycle int64
	err   error
}

func (e *InterruptedError) Error() string {
	if e.Cycle < 0 {
		return fmt.Sprintf("interrupted while %s: %v", e.Phase, e.err)
	}
	return fmt.Sprintf("interrupted in %s, at cycle %d: %v", e.Phase, e.Cycle, e.err)
}

func (e *InterruptedError) Unwrap() error { return e.err }

// Of is where run name was stopped, in words: `in the warm-up (cycles
// 0..9999) of "torus32", at cycle 3072`, `while building the network of
// "torus32"`.
func (e *InterruptedError) Of(name string) string {
	if e.Cycle < 0 {
		return fmt.Sprintf("while %s of %q", e.Phase, name)
	}
	return fmt.Sprintf("in %s of %q, at cycle %d", e.Phase, name, e.Cycle)
}

// rerunUnblocked builds b's configuration again and runs it serially
// without blocking, after a blocked run failed with blockedErr; it returns
// the error that run fails with.
func (b *Built) rerunUnblocked(ctx context.Context, opt Options, blockedErr error) (*report.Result, error) {
	rebuild := b.rebuild
	if rebuild == nil {
		rebuild = func(ctx context.Context) (*Built, error) { return build(ctx, b.Cfg, true) }
	}
	again, err := rebuild(ctx)
	if err != nil {
		return nil, err
	}
	// The caller has seen the checks up to the panic once already.
	opt.Exec, opt.Blocking, opt.OnCheck = actor.Serial, BlockingOff, nil
	if _, err := again.Run(ctx, opt); err != nil {
		return nil, err
	}
	return nil, fmt.Errorf("%w (in temporal blocks; cycle by cycle the run does not fail: a bug in the blocking)", blockedErr)
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// runSteps are the step and chunk of a run of c (Built.Run): every phase
// boundary and sample falls on a multiple of step, and the run's
// decisions (samples, phase changes, stopping) are taken at multiples of
// step only, whatever the executor's chunk, the cycles between two calls
// of its hook: so options such as Checks, which runs the hook every
// cycle, and CheckEveryCycles, which cuts the chunk to a divisor of its
// period, cannot change a result.
func (c Config) runSteps(opt Options) (step, chunk int64) {
	m := c.Measure
	collective := c.Traffic.Process == "collective"
	steps := []int64{m.Warmup(), m.MeasureCycles, m.BatchCycles, m.SampleCycles}
	if !collective && m.Method == "packet-batches" {
		steps = []int64{m.Warmup(), m.SampleCycles}
	}
	for _, v := range steps {
		if v > 0 {
			step = gcd(step, v)
		}
	}
	if collective {
		step = gcd(step, 16)
	}
	if step < 1 {
		step = 1
	}
	// The largest divisor of step not above 1024, so chunks stay short.
	chunk = min(step, 1024)
	for step%chunk != 0 {
		chunk--
	}
	step = chunk
	if opt.CheckEveryCycles > 0 {
		chunk = gcd(chunk, opt.CheckEveryCycles)
	}
	if opt.Checks {
		chunk = 1
	}
	return step, chunk
}

// Run executes the built network according to its measurement configuration.
func (b *Built) Run(ctx context.Context, opt Options) (*report.Result, error) {
	if opt.CheckEveryCycles < 0 {
		return nil, fmt.Errorf("study: Options.CheckEveryCycles = %d: allowed 0 (never) or >= 1 cycles", opt.CheckEveryCycles)
	}
	if opt.RecordTrace != nil {
		if len(b.jobs) == 0 {
			return nil, fmt.Errorf("recording a trace: only a job (traffic.process = \"job\") has messages to record; this run's process is %q", b.Cfg.Traffic.Process)
		}
		for _, j := range b.jobs {
			j.Record()
		}
	}
	cfg, net := b.Cfg, b.Fabric
	nodes := net.Topology().Nodes()
	r := &run{b: b, m: cfg.Measure, net: net, nodes: nodes, injFrom: make([]uint64, nodes), injTo: make([]uint64, nodes), observers: observersOf(b)}
	m := &r.m
	// Per-node averages are over the sending nodes (all of them unless
	// traffic.self = "skip" silences a permutation's fixed points).
	r.senders = float64(nodes - countTrue(b.silent))
	meth := methodOf(cfg, net, nodes-countTrue(b.silent))
	r.from, r.to = meth.bounds(m)
	step, chunk := cfg.runSteps(opt)
	for _, o := range r.observers {
		o.begin(r.from)
	}
	for _, c := range b.Collectors {
		c.SetWindow(report.Window{From: r.from, To: r.to})
	}
	var (
		last        = net.Totals()
		lastAt      int64
		checkErr    error
		watchdogErr *WatchdogError
		buffers     = float64(net.Buffers())
	)
	hook := func(next clock.Cycle) bool {
		now := int64(next)
		periodic := opt.CheckEveryCycles > 0 && now%opt.CheckEveryCycles == 0
		if opt.Checks || periodic {
			if err := net.Check(next); err != nil {
				checkErr = err
				return true
			}
			for _, o := range r.observers {
				if err := o.check(next); err != nil {
					checkErr = err
					return true
				}
			}
			if periodic && opt.OnCheck != nil {
				opt.OnCheck(now)
			}
		}
		if now%step != 0 && next < clock.Cycle(m.MaxCycles) {
			return false
		}
		if opt.OnCycle != nil {
			opt.OnCycle(now)
		}
		tot := net.Totals()
		if m.WatchdogCycles > 0 {
			if lines, total, since := net.Stuck(next, m.WatchdogCycles, 12); total > 0 {
				watchdogErr = &WatchdogError{Cycle: now, SinceCycle: since, Buffered: tot.FlitsBuffered, Queues: total, Blocked: lines}
				return true
			}
		}
		if m.SampleCycles > 0 && now%m.SampleCycles == 0 {
			dt := float64(now - lastAt)
			s := report.Sample{Cycle: now, InFlightPackets: tot.PacketsInjected - tot.PacketsDelivered,
				SourceQueuedPackets: tot.SourceQueued, InjectionMemoryPackets: tot.InjectionMemory,
				ValidBufferRatio:          report.Ratio(float64(tot.SumValid-last.SumValid), dt*buffers),
				MobilityRatio:             report.Ratio(float64(tot.SumActive-last.SumActive), float64(tot.SumValid-last.SumValid)),
				AcceptedFlitsPerNodeCycle: report.Ratio(float64(tot.FlitsDelivered-last.FlitsDelivered), dt*r.senders)}
			for _, o := range r.observers {
				o.sample(&s, dt)
			}
			r.series = append(r.series, s)
			last, lastAt = tot, now
		}
		return meth.advance(r, next, tot)
	}
	spec := actor.Spec{To: clock.Cycle(m.MaxCycles), Chunk: int(chunk), Hook: hook, Prefetch: net.Prefetcher()}
	spec.Actors, spec.Units = net.Actors()
	exec := opt.Exec
	if exec == "" {
		exec = actor.Shards
	}
	sched, err := Schedule(net, exec, opt, chunk)
	if err != nil {
		return nil, err
	}
	spec.Schedule = sched
	end, err := actor.Run(ctx, exec, opt.Workers, spec)
	if err != nil && ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		return nil, &InterruptedError{Cycle: int64(end), err: err, Phase: meth.phase(r, end)}
	}
	var pe *actor.PanicError
	if sched != nil && errors.As(err, &pe) {
		// A block runs some actors cycles ahead of others, so the first
		// broken invariant it meets need not be the first in cycle
		// order. The run is deterministic: run it again cycle by cycle
		// to report the panic serial reports.
		return b.rerunUnblocked(ctx, opt, err)
	}
	if err != nil {
		return nil, err
	}
	if checkErr != nil {
		return nil, checkErr
	}
	if watchdogErr != nil {
		return nil, watchdogErr
	}
	if opt.Checks && r.completed {
		if err := net.CheckDelivery(); err != nil && cfg.Traffic.Process == "collective" {
			return nil, err
		}
	}
	res, err := b.result(r, meth, end)
	if err == nil && b.isMix() {
		if err = b.companions(ctx, opt, res); err != nil {
			return nil, err
		}
	}
	if err == nil && opt.RecordTrace != nil {
		for j, job := range b.jobs {
			tr, terr := job.Trace(b.jobNames[j])
			if terr != nil {
				return nil, terr
			}
			w, werr := opt.RecordTrace(j)
			if werr == nil {
				werr = workload.WriteTrace(w, tr)
			}
			if werr != nil {
				return nil, fmt.Errorf("recording the trace of job %d: %w", j, werr)
			}
		}
	}
	return res, err
}

// result is the result of run r, which ended at cycle end: what every
// run reports, then the method's figures, then each mechanism's.
func (b *Built) result(r *run, meth method, end clock.Cycle) (*report.Result, error) {
	cfg, net, nodes, m := b.Cfg, b.Fabric, r.nodes, &r.m
	tot := net.Totals()
	res := &report.Result{
		Scenario: cfg.Name, Topology: net.Topology().String(), Routing: cfg.Router.Routing, Pattern: cfg.Traffic.Pattern,
		Process: cfg.Traffic.Process, Seed: cfg.Seed, Nodes: nodes, Routers: net.Topology().Routers(),
		CyclesSimulated: int64(end), PacketsGenerated: tot.PacketsGenerated, PacketsDelivered: tot.PacketsDelivered,
		Completed: r.completed, Series: r.series,
	}
	if len(b.jobs) > 0 {
		res.Pattern = b.jobNames[0] // a job's ranks name their peers
	}
	if cfg.Traffic.Process == "ramp" {
		res.OfferedFlitsPerNodeCycle = cfg.Traffic.Load
		res.CriticalLoadFlitsPerNodeCycle = criticalLoad(r.series, m.SampleCycles, m.SmoothSamples, b.traffic.OfferedAt)
	}
	if traffic.SteadyLoad(cfg.Traffic.Process) {
		res.OfferedFlitsPerNodeCycle = b.traffic.LoadFlits
	} else if cfg.Traffic.Process == "saturation" {
		res.OfferedFlitsPerNodeCycle = 1
	}
	var lat, netLat report.Histogram
	var classLat [report.MaxClasses]report.Histogram
	var hops uint64
	for _, c := range b.Collectors {
		for k := range report.MaxClasses {
			if h := c.Class(k); h != nil {
				lat.Merge(&h.Latency)
				netLat.Merge(&h.NetLatency)
				classLat[k].Merge(&h.Latency)
			}
		}
		hops += c.Hops
	}
	res.Latency, res.NetworkLatency = report.Summarise(&lat), report.Summarise(&netLat)
	classes := cfg.Traffic.ClassVolumePercent.Len()
	if classLat[1].Count() > 0 || cfg.Traffic.LongPacketFlits > 0 || classes > 0 {
		for k := range max(classes, 2) {
			res.ClassLatency = append(res.ClassLatency, report.Summarise(&classLat[k]))
			var cdf [][2]float64
			for _, pt := range classLat[k].CDF() {
				cdf = append(cdf, [2]float64{pt[0], report.Ratio(pt[1], 1)})
			}
			res.ClassLatencyCDF = append(res.ClassLatencyCDF, cdf)
		}
	}
	res.WireCapacity, res.Bisection = b.units.wire, b.units.bisection
	if info := cfg.routerKind().switchInfo; info != nil {
		res.Switch = info(cfg)
	}
	res.MeanHops = report.Ratio(float64(hops), float64(lat.Count()))
	if err := meth.finish(r, end, res); err != nil {
		return nil, err
	}
	res.PerNodeAccepted = report.SpreadOf(r.sending(res.NodeAccepted))
	if span := float64(res.MeasureToCycle-res.MeasureFromCycle) * r.senders; classes > 0 && span > 0 {
		for k := range classes {
			var flits uint64
			for _, c := range b.Collectors {
				flits += c.ClassAcceptedFlits(k)
			}
			res.ClassAcceptedFlitsPerNodeCycle = append(res.ClassAcceptedFlitsPerNodeCycle, report.Ratio(float64(flits), span))
		}
	}
	if t := cfg.Traffic; t.Process == "request-reply" {
		rr := &report.RequestReplyResult{RequestFlits: t.RequestFlits, ReplyFlits: t.ReplyFlits, MaxOutstanding: t.MaxOutstanding,
			OfferedRequestsPerNodeCycle: b.traffic.RequestReply.RequestRate(b.traffic.LoadFlits)}
		if w := float64(res.MeasureToCycle - res.MeasureFromCycle); w > 0 {
			rr.TransactionsPerNodeCycle = report.Ratio(float64(classLat[1].Count()), w*r.senders)
		}
		res.RequestReply = rr
	}
	for i, q := range b.silent {
		if q {
			res.SilentNodes = append(res.SilentNodes, i)
		}
	}
	res.NodeViews.LatencyMeanCycles = make([]float64, nodes)
	for i, c := range b.Collectors {
		var sum, n uint64
		for k := 0; k < report.MaxClasses; k++ {
			if h := c.Class(k); h != nil {
				sum, n = sum+h.Latency.Sum(), n+h.Latency.Count()
			}
		}
		res.NodeViews.LatencyMeanCycles[i] = report.Ratio(float64(sum), float64(n))
	}
	for _, o := range r.observers {
		o.result(r, end, res)
	}
	detectWarmup(m, r.series, res)
	for _, pt := range lat.CDF() {
		res.LatencyCDF = append(res.LatencyCDF, [2]float64{pt[0], report.Ratio(pt[1], 1)})
	}
	return res, nil
}

// countTrue is the number of true values in xs.
func countTrue(xs []bool) int {
	n := 0
	for _, x := range xs {
		if x {
			n++
		}
	}
	return n
}

// withoutSilent returns xs without the entries that silent marks (xs
// itself when silent is nil).
func withoutSilent(xs []float64, silent []bool) []float64 {
	if silent == nil {
		return xs
	}
	out := make([]float64, 0, len(xs))
	for i, x := range xs {
		if !silent[i] {
			out = append(out, x)
		}
	}
	return out
}

// criticalLoad is the ramp-load method's critical load ratio (the extended
// entropy paper's "10 percent degradation point"): over the time series,
// each sample's accepted throughput and the offered load of its interval
// are smoothed by a trailing moving average of smooth samples, and the
// critical load is the smoothed offered load at the first sample where the
// smoothed accepted throughput falls below 90% of it. Samples before a full
// window, and those at an offered load under 1% of the final one (where
// noise dominates), are skipped. -1 when the throughput never degrades.
func criticalLoad(series []report.Sample, sampleCycles int64, smooth int, offeredAt func(float64) float64) float64 {
	if sampleCycles <= 0 || len(series) == 0 {
		return -1
	}
	final := offeredAt(float64(series[len(series)-1].Cycle))
	var accSum, offSum float64
	for i, s := range series {
		off := offeredAt(float64(s.Cycle) - float64(sampleCycles)/2)
		accSum += s.AcceptedFlitsPerNodeCycle
		offSum += off
		if i >= smooth {
			old := series[i-smooth]
			accSum -= old.AcceptedFlitsPerNodeCycle
			offSum -= offeredAt(float64(old.Cycle) - float64(sampleCycles)/2)
		}
		if i+1 < smooth {
			continue
		}
		n := float64(min(i+1, smooth))
		acc, offered := accSum/n, offSum/n
		if offered > 0.01*final && acc < 0.9*offered {
			return report.Ratio(offered, 1)
		}
	}
	return -1
}

// circuitLag is the delay, in cycles, by which the mobility ratio the
// routers read from the circuit follows the true one: the shift d (a
// multiple of the sample period, up to 1000 cycles) that minimises the mean
// absolute difference between the read ratio at t and the true ratio at
// t - d over the time series. -1 without a series long enough.
func circuitLag(series []report.Sample, sampleCycles int64) float64 {
	if sampleCycles <= 0 || len(series) < 4 {
		return -1
	}
	maxShift := min(int(1000/sampleCycles), len(series)/2)
	best, bestErr := -1, math.Inf(1)
	for d := 0; d <= maxShift; d++ {
		var sum float64
		for i := d; i < len(series); i++ {
			sum += math.Abs(series[i].Entropy.CircuitMobilityRatio - series[i-d].Entropy.TrueMobilityRatio)
		}
		if e := sum / float64(len(series)-d); e < bestErr {
			best, bestErr = d, e
		}
	}
	return float64(int64(best) * sampleCycles)
}

// stable reports whether the 95% confidence half-width of the mean of xs
// (batch means, Student t approximated by 2) is within tol of the mean.
func stable(xs []float64, tol float64) bool {
	n := float64(len(xs))
	var sum, sq float64
	for _, x := range xs {
		sum += x
	}
	mean := sum / n
	for _, x := range xs {
		sq += (x - mean) * (x - mean)
	}
	if mean == 0 {
		return sq == 0
	}
	half := 2 * math.Sqrt(sq/(n-1)/n)
	return half <= tol*math.Abs(mean)
}

// WatchdogError reports input queues that hold flits of which none has left
// for measure.watchdog_cycles: a deadlock (of all or part of the network),
// or starvation. It is raised at the first decision step after the bound,
// so within watchdog_cycles + one step of the last departure.
type WatchdogError struct {
	Cycle, SinceCycle int64
	Buffered          uint64
	Queues            int
	Blocked           []string
}

func (e *WatchdogError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "watchdog: %d input queues have held flits without a departure since cycle %d or longer (stopped at cycle %d, %d flits buffered in all); likely deadlock or starvation. Blocked queues:",
		e.Queues, e.SinceCycle, e.Cycle, e.Buffered)
	for _, l := range e.Blocked {
		b.WriteString("\n  " + l)
	}
	if e.Queues > len(e.Blocked) {
		fmt.Fprintf(&b, "\n  ... and %d more", e.Queues-len(e.Blocked))
	}
	return b.String()
}

// jobsDone reports whether every job's ranks have finished.
func (b *Built) jobsDone() bool {
	for _, j := range b.jobs {
		if !j.Done() {
			return false
		}
	}
	return true
}

// jobsComputing reports whether a rank of any job is in a compute step.
func (b *Built) jobsComputing(now clock.Cycle) bool {
	for _, j := range b.jobs {
		if j.Computing(now) {
			return true
		}
	}
	return false
}

// isMix reports whether the run's job shares the network: with further
// jobs or with background traffic.
func (b *Built) isMix() bool { return len(b.jobs) > 1 || b.Cfg.Workload.BackgroundLoad > 0 }

// companions runs each job of a mix alone on the same network, on the
// nodes it had in the mix (no other job, no background), and records its
// completion time there: the job's slowdown is its completion in the mix
// over this.
func (b *Built) companions(ctx context.Context, opt Options, res *report.Result) error {
	jobs := b.Cfg.jobs()
	for i, job := range b.jobs {
		alone := b.Cfg
		w := jobs[i]
		if w.TraceFile == "" {
			w.Placement, w.Nodes, w.Ranks = "list", job.Nodes(), len(job.Nodes())
		}
		w.Also, w.BackgroundLoad = nil, 0
		alone.Workload = w
		r, err := Run(ctx, alone, Options{Exec: opt.Exec, Workers: opt.Workers, Blocking: opt.Blocking, DeadlockChecked: true})
		if err != nil {
			return fmt.Errorf("the companion run of job %d (%s) alone: %w", i, b.jobNames[i], err)
		}
		jr := res.Job
		if i > 0 {
			jr = &res.Jobs[i-1]
		}
		if r.Completed && r.Job != nil {
			jr.AloneCycles = r.Job.CompletionCycles
		}
	}
	return nil
}
