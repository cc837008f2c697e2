package study

import (
	"fmt"
	"math"

	"github.com/icnsim/icnsim/clock"
	"github.com/icnsim/icnsim/fabric"
	"github.com/icnsim/icnsim/report"
)

// run is the state of one Built.Run that the measurement method and the
// mechanisms' observers share: the network, the measurement window and
// the totals at its ends.
type run struct {
	b       *Built
	m       Measure
	net     fabric.Fabric
	nodes   int
	senders float64 // the sending nodes (traffic.self = "skip" silences some)
	// from and to bound the measurement window (to is clock.Never until a
	// method that closes the window by itself has closed it).
	from, to   clock.Cycle
	windowDone bool
	completed  bool
	atFrom     fabric.Totals
	atTo       fabric.Totals
	injFrom    []uint64 // each node's flits injected at the window's ends
	injTo      []uint64
	series     []report.Sample
	observers  []observer
}

// measuredDelivered is the count of measured packets delivered so far and
// the sums of their latencies from generation and from injection.
func (r *run) measuredDelivered() (n, sum, netSum uint64) {
	for _, c := range r.b.Collectors {
		for k := range report.MaxClasses {
			if h := c.Class(k); h != nil {
				n += h.Latency.Count()
				sum += h.Latency.Sum()
				netSum += h.NetLatency.Sum()
			}
		}
	}
	return
}

// sending is xs without the silent nodes (the per-node averages are over
// the nodes that send).
func (r *run) sending(xs []float64) []float64 { return withoutSilent(xs, r.b.silent) }

// closeWindow ends the measurement window at cycle to.
func (r *run) closeWindow(to clock.Cycle) {
	r.to = to
	for _, c := range r.b.Collectors {
		c.SetWindow(report.Window{From: r.from, To: to})
	}
}

// injected is each node's flits injected now.
func (r *run) injected(into []uint64) {
	for i := range into {
		into[i] = r.net.NodeFlitsInjected(i)
	}
}

// method is a measurement method (measure.method, and the collective
// process, which has its own): where its window lies, what it does at
// each step of the run, when the run stops, and its part of the result.
type method interface {
	// bounds is the window before the run: its first cycle and its end
	// (clock.Never where the method closes it by itself).
	bounds(m *Measure) (from, to clock.Cycle)
	// advance is called at every step boundary, after the sample, with
	// the network's totals; it reports whether the run is over.
	advance(r *run, next clock.Cycle, tot fabric.Totals) (stop bool)
	// phase names the part of the run that cycle end lay in (for an
	// interrupted run).
	phase(r *run, end clock.Cycle) string
	// finish adds the method's figures to res (the run ended at end).
	finish(r *run, end clock.Cycle, res *report.Result) error
}

// methodOf is the measurement method of a configuration on net, with
// senders nodes sending (a packet-batches method counts, from now on, the
// packets each node sends to each).
func methodOf(cfg Config, net fabric.Fabric, senders int) method {
	switch {
	case cfg.Traffic.Process == "collective":
		return &collective{expect: uint64(senders) * uint64(cfg.Traffic.PacketsPerNode)}
	case cfg.Traffic.Process == "job":
		return &jobRun{collective{expect: math.MaxUint64}} // never reached: the job decides
	case cfg.Measure.Method == "batches":
		return &windowed{rule: &batchMeans{}}
	case cfg.Measure.Method == "packet-batches":
		p := &packetBatches{perDst: make([]*fabric.PacketCounts, net.Topology().Nodes())}
		for i := range p.perDst {
			p.perDst[i] = net.CountPerDestination(i)
		}
		return &windowed{rule: p}
	}
	return &windowed{rule: fixedWindow{}}
}

// collective measures a collective burst: the run ends when every
// packet is delivered, or when nothing has moved for measure.stall_cycles.
type collective struct {
	expect     uint64 // the packets of the burst
	stallAt    fabric.Totals
	stallSince int64
}

func (c *collective) bounds(*Measure) (clock.Cycle, clock.Cycle) { return 0, clock.Never }

func (c *collective) advance(r *run, next clock.Cycle, tot fabric.Totals) bool {
	now := int64(next)
	if tot.PacketsDelivered == c.expect {
		r.completed = true
		return true
	}
	if tot.FlitsInjected != c.stallAt.FlitsInjected || tot.FlitsDelivered != c.stallAt.FlitsDelivered {
		c.stallAt, c.stallSince = tot, now
	} else if r.m.StallCycles > 0 && now-c.stallSince >= r.m.StallCycles {
		return true
	}
	return false
}

func (c *collective) phase(r *run, _ clock.Cycle) string {
	return fmt.Sprintf("the collective burst (at most %d cycles)", r.m.MaxCycles)
}

func (c *collective) finish(r *run, _ clock.Cycle, res *report.Result) error {
	tot := r.net.Totals()
	dur := int64(r.net.LastDelivery())
	res.CollectiveDurationCycles = dur
	res.MeasureFromCycle, res.MeasureToCycle = 0, dur+1
	injected := make([]float64, r.nodes)
	perNode := make([]float64, r.nodes)
	for i, col := range r.b.Collectors {
		perNode[i] = report.Ratio(float64(col.AcceptedFlits), float64(dur+1))
		injected[i] = report.Ratio(float64(r.net.NodeFlitsInjected(i)), float64(dur+1))
	}
	res.PerNodeInjected = report.SpreadOf(r.sending(injected))
	res.NodeAccepted = perNode
	res.NodeViews = &report.NodeViews{InjectedFlitsPerCycle: injected}
	res.AcceptedFlitsPerNodeCycle = report.Ratio(float64(tot.FlitsDelivered), float64(dur+1)*r.senders)
	res.InjectedFlitsPerNodeCycle = report.Ratio(float64(tot.FlitsInjected), float64(dur+1)*r.senders)
	return nil
}

// jobRun measures a job (traffic.process = "job"): the run ends when every
// rank has finished its program, or when nothing has moved for
// measure.stall_cycles (a program that waits for what never comes).
type jobRun struct {
	collective // its stall rule and its throughput figures
}

func (j *jobRun) advance(r *run, next clock.Cycle, tot fabric.Totals) bool {
	if r.b.jobsDone() && (tot.PacketsDelivered == tot.PacketsGenerated || r.b.Cfg.Workload.BackgroundLoad > 0) {
		// (Background traffic never ends: the jobs' end is the run's.)
		r.completed = true
		return true
	}
	if r.b.jobsComputing(next) {
		// Ranks computing move no flit but are not stalled.
		j.stallAt, j.stallSince = tot, int64(next)
	}
	return j.collective.advance(r, next, tot)
}

func (j *jobRun) phase(r *run, _ clock.Cycle) string {
	return fmt.Sprintf("the job (at most %d cycles)", r.m.MaxCycles)
}

func (j *jobRun) finish(r *run, end clock.Cycle, res *report.Result) error {
	if err := j.collective.finish(r, end, res); err != nil {
		return err
	}
	res.CollectiveDurationCycles = 0
	for i, job := range r.b.jobs {
		jr := job.Result()
		out := &report.JobResult{Motif: r.b.jobNames[i], Ranks: jr.Ranks, RanksFinished: jr.Finished,
			CompletionCycles: jr.CompletionCycles, IterationCycles: jr.IterationCycles, Messages: jr.Messages,
			MessageLatencyMeanCycles: jr.MessageLatencyMeanCycles, MessageLatencyMaxCycles: jr.MessageLatencyMaxCycles}
		if net := r.b.Net; net != nil {
			if zl, err := job.ZeroLoadCycles(net.ZeroLoadLatency); err == nil {
				out.ZeroLoadCycles = zl
			}
		}
		if i == 0 {
			res.Job = out
		} else {
			res.Jobs = append(res.Jobs, *out)
		}
	}
	return nil
}

// windowed measures a steady process over a window: from the end of the
// warm-up to where its rule closes it, then drains the window's packets
// (for at most measure.drain_cycles).
type windowed struct {
	rule windowRule
}

// windowRule is how a windowed method closes its window and what it adds
// to the result.
type windowRule interface {
	// end is the window's end known before the run (clock.Never: closes
	// decides it).
	end(m *Measure, from clock.Cycle) clock.Cycle
	// opened is called at the window's first cycle.
	opened(r *run, tot fabric.Totals)
	// closes is called at every step boundary inside the open window; it
	// reports whether the window closes at next.
	closes(r *run, next clock.Cycle, tot fabric.Totals) bool
	// closed is called at the window's end.
	closed(r *run)
	// result adds the rule's figures to res.
	result(r *run, res *report.Result)
}

func (w *windowed) bounds(m *Measure) (clock.Cycle, clock.Cycle) {
	from := clock.Cycle(m.Warmup())
	return from, w.rule.end(m, from)
}

func (w *windowed) advance(r *run, next clock.Cycle, tot fabric.Totals) bool {
	now := int64(next)
	if next == r.from {
		r.atFrom = r.b.windowTotals(tot)
		r.injected(r.injFrom)
		for _, o := range r.observers {
			o.opened()
		}
		w.rule.opened(r, tot)
	}
	if next > r.from && !r.windowDone && w.rule.closes(r, next, tot) {
		r.closeWindow(next)
	}
	if next == r.to && !r.windowDone {
		r.windowDone, r.atTo = true, r.b.windowTotals(tot)
		r.injected(r.injTo)
		for _, o := range r.observers {
			o.closed(r.from, r.to)
		}
		w.rule.closed(r)
	}
	if r.windowDone {
		gen := r.atTo.PacketsGenerated - r.atFrom.PacketsGenerated
		if n, _, _ := r.measuredDelivered(); n == gen {
			r.completed = true
			return true
		}
		if now >= int64(r.to)+r.m.DrainCycles {
			return true
		}
	}
	return false
}

func (w *windowed) phase(r *run, end clock.Cycle) string {
	switch {
	case int64(end) < int64(r.from):
		return fmt.Sprintf("the warm-up (cycles 0..%d)", r.from-1)
	case !r.windowDone:
		return fmt.Sprintf("the measurement (from cycle %d)", r.from)
	}
	return fmt.Sprintf("the drain (after the measurement ended at cycle %d)", r.to)
}

func (w *windowed) finish(r *run, end clock.Cycle, res *report.Result) error {
	if !r.windowDone {
		return fmt.Errorf("run ended at cycle %d (measure.max_cycles = %d) before the measurement window closed", end, r.m.MaxCycles)
	}
	span := float64(r.to - r.from)
	res.MeasureFromCycle, res.MeasureToCycle = int64(r.from), int64(r.to)
	injected := make([]float64, r.nodes)
	perNode := make([]float64, r.nodes)
	for i, c := range r.b.Collectors {
		perNode[i] = report.Ratio(float64(c.AcceptedFlits), span)
		injected[i] = report.Ratio(float64(r.injTo[i]-r.injFrom[i]), span)
	}
	res.PerNodeInjected = report.SpreadOf(r.sending(injected))
	res.NodeAccepted = perNode
	res.NodeViews = &report.NodeViews{InjectedFlitsPerCycle: injected}
	// Accepted throughput counts the flits of packets whose tail arrived
	// in the window, per node and in aggregate alike.
	var accepted uint64
	for _, c := range r.b.Collectors {
		accepted += c.AcceptedFlits
	}
	res.AcceptedFlitsPerNodeCycle = report.Ratio(float64(accepted), span*r.senders)
	res.InjectedFlitsPerNodeCycle = report.Ratio(float64(r.atTo.FlitsInjected-r.atFrom.FlitsInjected), span*r.senders)
	n, _, _ := r.measuredDelivered()
	res.MeasuredUndelivered = r.atTo.PacketsGenerated - r.atFrom.PacketsGenerated - n
	w.rule.result(r, res)
	return nil
}

// fixedWindow is measure.method = "window": measure.measure_cycles after
// the warm-up.
type fixedWindow struct{}

func (fixedWindow) end(m *Measure, from clock.Cycle) clock.Cycle {
	return from + clock.Cycle(m.MeasureCycles)
}
func (fixedWindow) opened(*run, fabric.Totals)                   {}
func (fixedWindow) closes(*run, clock.Cycle, fabric.Totals) bool { return false }
func (fixedWindow) closed(*run)                                  {}
func (fixedWindow) result(*run, *report.Result)                  {}

// batchMeans is measure.method = "batches": batches of
// measure.batch_cycles until the accepted throughput and the latency of
// the batches are stable (measure.tolerance), at least min_batches and at
// most max_batches of them.
type batchMeans struct {
	prev       fabric.Totals
	prevLatSum uint64
	prevLatN   uint64
	means      []float64 // accepted flits per node per cycle, per batch
	latencies  []float64
	unstable   bool // stopped at max_batches, not stable
}

func (*batchMeans) end(*Measure, clock.Cycle) clock.Cycle { return clock.Never }

func (b *batchMeans) opened(_ *run, tot fabric.Totals) { b.prev = tot }

func (b *batchMeans) closes(r *run, next clock.Cycle, tot fabric.Totals) bool {
	m := &r.m
	if (int64(next)-int64(r.from))%m.BatchCycles != 0 {
		return false
	}
	n, sum, _ := r.measuredDelivered()
	b.means = append(b.means, float64(tot.FlitsDelivered-b.prev.FlitsDelivered)/float64(m.BatchCycles)/r.senders)
	// A batch with no measured delivery has no latency of its own; it
	// does not enter the latency stability test.
	if n > b.prevLatN {
		b.latencies = append(b.latencies, float64(sum-b.prevLatSum)/float64(n-b.prevLatN))
	}
	b.prev, b.prevLatSum, b.prevLatN = tot, sum, n
	if len(b.means) >= m.MinBatches && len(b.latencies) >= 2 && stable(b.means, m.Tolerance) && stable(b.latencies, m.Tolerance) {
		return true
	}
	b.unstable = len(b.means) >= m.MaxBatches
	return b.unstable
}

func (*batchMeans) closed(*run)                         {}
func (b *batchMeans) result(_ *run, res *report.Result) { res.BatchesUnstable = b.unstable }

// packetBatches is measure.method = "packet-batches" (the fat-tree
// fairness paper's): batches of measure.batch_packets delivered packets,
// measure.packet_batches of them, with each batch's figures, each node's
// injected throughput and the injection matrix over the window.
type packetBatches struct {
	perDst           []*fabric.PacketCounts
	batches          []report.BatchResult
	start            fabric.Totals
	startAt          int64
	inj              []uint64
	netN, netSum     uint64
	matFrom, matTo   [][]uint32
	injectedPerCycle []float64
}

func (*packetBatches) end(*Measure, clock.Cycle) clock.Cycle { return clock.Never }

// matrix is the packets each node has sent to each node so far.
func (p *packetBatches) matrix() [][]uint32 {
	mat := make([][]uint32, len(p.perDst))
	for i, c := range p.perDst {
		mat[i] = c.Snapshot(nil)
	}
	return mat
}

func (p *packetBatches) opened(r *run, tot fabric.Totals) {
	p.start, p.startAt, p.netN, p.netSum = tot, int64(r.from), 0, 0
	p.inj = append([]uint64(nil), r.injFrom...)
	p.matFrom = p.matrix()
}

func (p *packetBatches) closes(r *run, next clock.Cycle, tot fabric.Totals) bool {
	now := int64(next)
	if tot.PacketsDelivered-p.start.PacketsDelivered < uint64(r.m.PacketsPerBatch(r.nodes)) {
		return false
	}
	dt := float64(now - p.startAt)
	inj := make([]float64, r.nodes)
	for i := range inj {
		fi := r.net.NodeFlitsInjected(i)
		inj[i] = report.Ratio(float64(fi-p.inj[i]), dt)
		p.inj[i] = fi
	}
	n, _, sum := r.measuredDelivered()
	p.batches = append(p.batches, report.BatchResult{FromCycle: p.startAt, ToCycle: now, PacketsDelivered: tot.PacketsDelivered - p.start.PacketsDelivered,
		NodeInjected: report.SpreadOf(r.sending(inj)), AcceptedFlitsPerNodeCycle: report.Ratio(float64(tot.FlitsDelivered-p.start.FlitsDelivered), dt*r.senders),
		NetworkLatencyMeanCycles: report.Ratio(float64(sum-p.netSum), float64(n-p.netN))})
	p.start, p.startAt, p.netN, p.netSum = tot, now, n, sum
	return len(p.batches) == r.m.PacketBatches
}

func (p *packetBatches) closed(*run) { p.matTo = p.matrix() }

func (p *packetBatches) result(r *run, res *report.Result) {
	res.Batches = p.batches
	res.NodeInjected = res.NodeViews.InjectedFlitsPerCycle
	res.InjectionMatrix = make([][]uint32, r.nodes)
	for i := range p.matTo {
		row := make([]uint32, r.nodes)
		for j := range row {
			row[j] = p.matTo[i][j] - p.matFrom[i][j]
		}
		res.InjectionMatrix[i] = row
	}
}
