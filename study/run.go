package study

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/icnsim/icnsim/actor"
	"github.com/icnsim/icnsim/clock"
	"github.com/icnsim/icnsim/policies"
	"github.com/icnsim/icnsim/report"
	"github.com/icnsim/icnsim/router"
	"github.com/icnsim/icnsim/traffic"
)

// Options say how to execute a run; they never change its result.
type Options struct {
	Exec    actor.Kind // default shards
	Workers int        // shard workers; 0 = GOMAXPROCS
	// Checks verifies the network invariants after every cycle (slow; for tests).
	Checks bool
}

// Built is a configuration turned into a network with its collectors.
type Built struct {
	Cfg        Config
	Net        *router.Network
	Collectors []*report.Collector
}

// Build turns a validated configuration into a network.
func Build(cfg Config) (*Built, error) {
	if errs := cfg.Validate(); len(errs) > 0 {
		return nil, errs[0]
	}
	topo, err := cfg.Topology()
	if err != nil {
		return nil, err
	}
	srcs, err := traffic.New(cfg.TrafficConfig(), Geometry(topo), cfg.Seed)
	if err != nil {
		return nil, err
	}
	cols := report.NewCollectors(topo.Nodes(), report.Window{From: 0, To: clock.Never})
	sinks := make([]router.Sink, len(cols))
	for i, c := range cols {
		sinks[i] = c
	}
	net, err := router.Build(topo, cfg.RouterConfig(), srcs, sinks)
	if err != nil {
		var de *router.DeadlockError
		if errors.As(err, &de) {
			return nil, &FieldError{Key: "router.vcs", Value: cfg.Router.VCs, Allowed: de.Msg}
		}
		return nil, err
	}
	gates, err := policies.NewGates(cfg.Policy.Injection, topo.Nodes())
	if err != nil {
		return nil, err
	}
	for i, g := range gates {
		net.NIs[i].SetGate(g)
	}
	return &Built{Cfg: cfg, Net: net, Collectors: cols}, nil
}

// Run builds and runs one configuration.
func Run(ctx context.Context, cfg Config, opt Options) (*report.Result, error) {
	b, err := Build(cfg)
	if err != nil {
		return nil, err
	}
	return b.Run(ctx, opt)
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// Run executes the built network according to its measurement configuration.
func (b *Built) Run(ctx context.Context, opt Options) (*report.Result, error) {
	cfg, net := b.Cfg, b.Net
	m := cfg.Measure
	nodes := net.Topo.Nodes()
	collective := cfg.Traffic.Process == "collective"
	batches := !collective && m.Method == "batches"

	// Every phase boundary and sample falls on a multiple of step, and the
	// run's decisions (samples, phase changes, stopping) are taken at
	// multiples of step only, whatever the executor's chunk: so options such
	// as Checks, which runs the hook every cycle, cannot change a result.
	step := int64(0)
	for _, v := range []int64{m.WarmupCycles, m.MeasureCycles, m.BatchCycles, m.SampleCycles} {
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
	chunk := min(step, 1024)
	for step%chunk != 0 {
		chunk--
	}
	step = chunk
	if opt.Checks {
		chunk = 1
	}

	from, to := clock.Cycle(m.WarmupCycles), clock.Cycle(m.WarmupCycles+m.MeasureCycles)
	if collective {
		from, to = 0, clock.Never
	}
	if batches {
		to = clock.Never
	}
	for _, c := range b.Collectors {
		c.SetWindow(report.Window{From: from, To: to})
	}

	var (
		series      []report.Sample
		last        = net.Totals()
		lastAt      int64
		atFrom      router.Totals
		atTo        router.Totals
		windowDone  bool
		completed   bool
		checkErr    error
		watchdogErr *WatchdogError
		batchMeans  []float64 // accepted flits per node per cycle, per batch
		batchLat    []float64
		prevBatch   router.Totals
		prevLatSum  uint64
		prevLatN    uint64
		expect      = uint64(nodes * cfg.Traffic.PacketsPerNode)
		injFrom     = make([]uint64, nodes)
		injTo       = make([]uint64, nodes)
		buffers     = float64(net.Buffers())
		measuredDel = func() (n, sum uint64) {
			for _, c := range b.Collectors {
				for k := range c.Latency {
					n += c.Latency[k].Count()
					sum += c.Latency[k].Sum()
				}
			}
			return
		}
	)
	hook := func(next clock.Cycle) bool {
		now := int64(next)
		if opt.Checks {
			if err := net.Check(next); err != nil {
				checkErr = err
				return true
			}
		}
		if now%step != 0 && next < clock.Cycle(m.MaxCycles) {
			return false
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
				SourceQueuedPackets:       tot.SourceQueued,
				ValidBufferRatio:          report.Ratio(float64(tot.SumValid-last.SumValid), dt*buffers),
				MobilityRatio:             report.Ratio(float64(tot.SumActive-last.SumActive), float64(tot.SumValid-last.SumValid)),
				AcceptedFlitsPerNodeCycle: report.Ratio(float64(tot.FlitsDelivered-last.FlitsDelivered), dt*float64(nodes))}
			series = append(series, s)
			last, lastAt = tot, now
		}
		if collective {
			if tot.PacketsDelivered == expect {
				completed = true
				return true
			}
			return false
		}
		if next == from {
			atFrom, prevBatch = tot, tot
			for i, ni := range net.NIs {
				injFrom[i] = ni.FlitsInjected
			}
		}
		if batches && next > from && (now-int64(from))%m.BatchCycles == 0 && !windowDone {
			n, sum := measuredDel()
			batchMeans = append(batchMeans, float64(tot.FlitsDelivered-prevBatch.FlitsDelivered)/float64(m.BatchCycles)/float64(nodes))
			// A batch with no measured delivery has no latency of its own;
			// it does not enter the latency stability test.
			if n > prevLatN {
				batchLat = append(batchLat, float64(sum-prevLatSum)/float64(n-prevLatN))
			}
			prevBatch, prevLatSum, prevLatN = tot, sum, n
			if (len(batchMeans) >= m.MinBatches && len(batchLat) >= 2 && stable(batchMeans, m.Tolerance) && stable(batchLat, m.Tolerance)) || len(batchMeans) >= m.MaxBatches {
				to = next
				for _, c := range b.Collectors {
					c.SetWindow(report.Window{From: from, To: to})
				}
			}
		}
		if next == to && !windowDone {
			windowDone, atTo = true, tot
			for i, ni := range net.NIs {
				injTo[i] = ni.FlitsInjected
			}
		}
		if windowDone {
			gen := atTo.PacketsGenerated - atFrom.PacketsGenerated
			if n, _ := measuredDel(); n == gen {
				completed = true
				return true
			}
			if now >= int64(to)+m.DrainCycles {
				return true
			}
		}
		return false
	}
	spec := actor.Spec{To: clock.Cycle(m.MaxCycles), Chunk: int(chunk), Hook: hook}
	spec.Actors, spec.Units = net.Actors()
	exec := opt.Exec
	if exec == "" {
		exec = actor.Shards
	}
	end, err := actor.Run(ctx, exec, opt.Workers, spec)
	if err != nil {
		return nil, err
	}
	if checkErr != nil {
		return nil, checkErr
	}
	if watchdogErr != nil {
		return nil, watchdogErr
	}
	if opt.Checks && completed {
		if err := net.CheckDelivery(); err != nil && collective {
			return nil, err
		}
	}
	tot := net.Totals()
	res := &report.Result{
		Scenario: cfg.Name, Topology: net.Topo.String(), Routing: cfg.Router.Routing, Pattern: cfg.Traffic.Pattern,
		Process: cfg.Traffic.Process, Seed: cfg.Seed, Nodes: nodes, Routers: net.Topo.Routers(),
		CyclesSimulated: int64(end), PacketsGenerated: tot.PacketsGenerated, PacketsDelivered: tot.PacketsDelivered,
		Completed: completed, Series: series,
	}
	if cfg.Traffic.Process == "bernoulli" || cfg.Traffic.Process == "poisson" {
		res.OfferedFlitsPerNodeCycle = cfg.Traffic.Load
	} else if cfg.Traffic.Process == "saturation" {
		res.OfferedFlitsPerNodeCycle = 1
	}
	var lat, netLat report.Histogram
	var classLat [report.MaxClasses]report.Histogram
	var hops uint64
	perNode := make([]float64, nodes)
	var lastDelivery clock.Cycle
	for i, c := range b.Collectors {
		for k := range c.Latency {
			lat.Merge(&c.Latency[k])
			netLat.Merge(&c.NetLatency[k])
			classLat[k].Merge(&c.Latency[k])
		}
		hops += c.Hops
		lastDelivery = max(lastDelivery, net.NIs[i].LastDelivery)
	}
	res.Latency, res.NetworkLatency = report.Summarise(&lat), report.Summarise(&netLat)
	if classLat[1].Count() > 0 {
		for k := range classLat {
			res.ClassLatency = append(res.ClassLatency, report.Summarise(&classLat[k]))
		}
	}
	res.MeanHops = report.Ratio(float64(hops), float64(lat.Count()))
	if collective {
		dur := int64(lastDelivery)
		res.CollectiveDurationCycles = dur
		res.MeasureFromCycle, res.MeasureToCycle = 0, dur+1
		injected := make([]float64, nodes)
		for i, c := range b.Collectors {
			perNode[i] = report.Ratio(float64(c.AcceptedFlits), float64(dur+1))
			injected[i] = report.Ratio(float64(net.NIs[i].FlitsInjected), float64(dur+1))
		}
		res.PerNodeInjected = report.SpreadOf(injected)
		res.AcceptedFlitsPerNodeCycle = report.Ratio(float64(tot.FlitsDelivered), float64(dur+1)*float64(nodes))
		res.InjectedFlitsPerNodeCycle = report.Ratio(float64(tot.FlitsInjected), float64(dur+1)*float64(nodes))
	} else {
		if !windowDone {
			return nil, fmt.Errorf("run ended at cycle %d (measure.max_cycles = %d) before the measurement window closed", end, m.MaxCycles)
		}
		w := float64(to - from)
		res.MeasureFromCycle, res.MeasureToCycle = int64(from), int64(to)
		injected := make([]float64, nodes)
		for i, c := range b.Collectors {
			perNode[i] = report.Ratio(float64(c.AcceptedFlits), w)
			injected[i] = report.Ratio(float64(injTo[i]-injFrom[i]), w)
		}
		res.PerNodeInjected = report.SpreadOf(injected)
		// Accepted throughput counts the flits of packets whose tail arrived
		// in the window, per node and in aggregate alike.
		var accepted uint64
		for _, c := range b.Collectors {
			accepted += c.AcceptedFlits
		}
		res.AcceptedFlitsPerNodeCycle = report.Ratio(float64(accepted), w*float64(nodes))
		res.InjectedFlitsPerNodeCycle = report.Ratio(float64(atTo.FlitsInjected-atFrom.FlitsInjected), w*float64(nodes))
		n, _ := measuredDel()
		res.MeasuredUndelivered = atTo.PacketsGenerated - atFrom.PacketsGenerated - n
	}
	res.PerNodeAccepted = report.SpreadOf(perNode)
	res.NodeAccepted = perNode
	for _, pt := range lat.CDF() {
		res.LatencyCDF = append(res.LatencyCDF, [2]float64{pt[0], report.Ratio(pt[1], 1)})
	}
	return res, nil
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
