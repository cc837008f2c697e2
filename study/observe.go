package study

import (
	"github.com/icnsim/icnsim/clock"
	"github.com/icnsim/icnsim/fabric"
	"github.com/icnsim/icnsim/policies"
	"github.com/icnsim/icnsim/policies/entropy"
	"github.com/icnsim/icnsim/policies/sat"
	"github.com/icnsim/icnsim/report"
	"github.com/icnsim/icnsim/router/ioq"
)

// observer is a mechanism's part in a run (entropy throttling, SAT,
// RECN's SAQs): checked with the network's invariants, sampled into each
// sample of the series, told where the measurement window lies, and
// adding its figures to the result.
type observer interface {
	// begin is called before the run, with the window's first cycle.
	begin(from clock.Cycle)
	// check verifies its invariants before cycle next (Options.Checks).
	check(next clock.Cycle) error
	// sample adds its figures over the last dt cycles to s.
	sample(s *report.Sample, dt float64)
	// opened and closed are called at the window's ends (never for a
	// collective, which has no window).
	opened()
	closed(from, to clock.Cycle)
	// result adds its figures to res, after the method's; the run ended
	// at cycle end.
	result(r *run, end clock.Cycle, res *report.Result)
}

// observersOf are the observers of the mechanisms b installs and of its
// router kind's, in a fixed order (their results are added in it).
func observersOf(b *Built) []observer {
	var obs []observer
	// In the policies' order: with the circuit measured beside SAT,
	// the result's injection model is SAT's, the gate's.
	for _, r := range b.running {
		obs = append(obs, &policyObserver{run: r.Running})
		if r.entry.observe != nil {
			obs = append(obs, r.entry.observe(r.Running, b))
		}
	}
	if kind := b.Cfg.routerKind(); kind.observers != nil {
		obs = append(obs, kind.observers(b)...)
	}
	if b.Cfg.Measure.LinkStats {
		if o := newLinkObserver(b); o != nil {
			obs = append(obs, o)
		}
	}
	if m := &b.Cfg.Measure; m.FlowStats || m.Flows != "" {
		obs = append(obs, newFlowObserver(b))
	}
	return obs
}

// policyObserver is what every policy gives a run: its invariants checked,
// the measurement window told, and the figures of a policy that reports
// its own (policies.Reporter) in the result under its name.
type policyObserver struct{ run policies.Running }

func (o *policyObserver) begin(from clock.Cycle)         { o.run.Window(from, clock.Never) }
func (o *policyObserver) check(next clock.Cycle) error   { return o.run.Check(next) }
func (o *policyObserver) sample(*report.Sample, float64) {}
func (o *policyObserver) opened()                        {}
func (o *policyObserver) closed(from, to clock.Cycle)    { o.run.Window(from, to) }
func (o *policyObserver) result(_ *run, end clock.Cycle, res *report.Result) {
	rep, ok := o.run.(policies.Reporter)
	if !ok {
		return
	}
	if res.Policies == nil {
		res.Policies = map[string]map[string]float64{}
	}
	res.Policies[rep.Name()] = rep.Figures(clock.Cycle(res.MeasureFromCycle), clock.Cycle(res.MeasureToCycle), end)
}

// observeSAT is SAT's part in a run's results.
func observeSAT(r policies.Running, b *Built) observer {
	return &satObserver{sat: r.(*sat.Protocol), nodes: b.Fabric.Topology().Nodes()}
}

// observeEntropy is entropy throttling's part in a run's results.
func observeEntropy(r policies.Running, b *Built) observer {
	return &entropyObserver{ent: r.(*entropy.Throttling), net: b.Fabric}
}

// satObserver is SAT in a run: its protocol's invariants, the interval
// and the waiting and starved nodes per sample, and over the window.
type satObserver struct {
	sat            *sat.Protocol
	nodes          int
	from, to, last sat.Totals
	toSet          bool
}

func (o *satObserver) begin(clock.Cycle)       {}
func (o *satObserver) check(clock.Cycle) error { return nil }

func (o *satObserver) sample(s *report.Sample, dt float64) {
	t := o.sat.Totals()
	cells := dt * float64(o.nodes)
	s.SAT = &report.SATSample{IntervalMeanCycles: report.Ratio(float64(t.IntervalSum-o.last.IntervalSum), float64(t.Intervals-o.last.Intervals)),
		WaitingNodeShare: report.Ratio(float64(t.WaitingCycles-o.last.WaitingCycles), cells),
		StarvedNodeShare: report.Ratio(float64(t.HeldCycles-o.last.HeldCycles), cells)}
	o.last = t
}

func (o *satObserver) opened() { o.from = o.sat.Totals() }

func (o *satObserver) closed(_, _ clock.Cycle) { o.to, o.toSet = o.sat.Totals(), true }

func (o *satObserver) result(r *run, _ clock.Cycle, res *report.Result) {
	sat := o.sat
	res.Injection = sat.Params.String()
	if !o.toSet {
		o.to = sat.Totals()
	}
	mean, lo, hi, n := sat.WindowInterval()
	cells := float64(res.MeasureToCycle-res.MeasureFromCycle) * float64(r.nodes)
	res.SAT = &report.SATResult{IdleIntervalCycles: sat.IdleIntervalCycles, Intervals: n, IntervalMeanCycles: report.Ratio(mean, 1),
		IntervalMinCycles: lo, IntervalMaxCycles: hi,
		WaitingNodeCycleShare: report.Ratio(float64(o.to.WaitingCycles-o.from.WaitingCycles), cells),
		StarvedNodeCycleShare: report.Ratio(float64(o.to.HeldCycles-o.from.HeldCycles), cells)}
}

// entropyObserver is entropy throttling in a run: the throttled nodes and
// the circuit's reading against the truth per sample, and the share of
// node-cycles throttled and the circuit's lag.
type entropyObserver struct {
	ent *entropy.Throttling
	net fabric.Fabric
}

func (o *entropyObserver) begin(clock.Cycle)       {}
func (o *entropyObserver) check(clock.Cycle) error { return nil }
func (o *entropyObserver) opened()                 {}
func (o *entropyObserver) closed(_, _ clock.Cycle) {}

func (o *entropyObserver) sample(s *report.Sample, _ float64) {
	t := o.net.Topology()
	readRa, truth := o.ent.MeanReadout()
	trueRa := 1.0
	if truth.Valid > 0 {
		trueRa = float64(truth.Active) / float64(truth.Valid)
	}
	s.Entropy = &report.EntropySample{
		ThrottledNodeShare:   report.Ratio(float64(o.ent.Throttled()), float64(t.Nodes())),
		ValidPerRouter:       report.Ratio(float64(truth.Valid), float64(t.Routers())),
		TrueMobilityRatio:    report.Ratio(trueRa, 1),
		CircuitMobilityRatio: report.Ratio(readRa, 1),
	}
}

func (o *entropyObserver) result(r *run, end clock.Cycle, res *report.Result) {
	ent := o.ent
	res.Injection = ent.Params.String()
	if len(ent.Gates) > 0 {
		var on uint64
		for _, g := range ent.Gates {
			on += g.ThrottledCycles
		}
		res.ThrottledNodeCycleShare = report.Ratio(float64(on), float64(end)*float64(r.nodes))
	}
	res.CircuitLagCycles = circuitLag(r.series, r.m.SampleCycles)
}

// saqObserver is RECN in a run: the SAQs in use per sample, and the
// allocations, refusals and peaks over the window and the run.
type saqObserver struct {
	net      *ioq.Network
	from, to ioq.SAQStats
	toSet    bool
}

func (o *saqObserver) begin(clock.Cycle)       {}
func (o *saqObserver) check(clock.Cycle) error { return nil }

func (o *saqObserver) sample(s *report.Sample, _ float64) {
	st := o.net.SAQs()
	s.SAQs = &report.SAQSample{InUseIngress: st.InUseIngress, InUseEgress: st.InUseEgress, Flits: st.FlitsNow, FullestFlits: int(st.FullestNow)}
}

func (o *saqObserver) opened() {
	o.net.ResetSAQPeaks()
	o.from = o.net.SAQs()
}

func (o *saqObserver) closed(_, _ clock.Cycle) { o.to, o.toSet = o.net.SAQs(), true }

func (o *saqObserver) result(_ *run, _ clock.Cycle, res *report.Result) {
	if !o.toSet {
		o.to = o.net.SAQs()
	}
	// The whole run's peaks are read at its end.
	run := o.net.SAQs()
	res.SAQs = &report.SAQResult{MaxPerPortIngress: o.to.MaxPerPortIngress, MaxPerPortEgress: o.to.MaxPerPortEgress,
		Allocations: o.to.Allocations - o.from.Allocations, Refusals: o.to.Refusals - o.from.Refusals,
		MaxPerPortIngressRun: run.MaxPerPortIngressRun, MaxPerPortEgressRun: run.MaxPerPortEgressRun,
		PeakFlitsIngress: int(run.PeakFlitsIngress), PeakFlitsEgress: int(run.PeakFlitsEgress), XoffFlits: int(run.XoffFlits)}
}

// ioqObservers are the switch's observers: RECN's SAQs where it runs RECN.
func ioqObservers(b *Built) []observer {
	if n, ok := b.Fabric.(*ioq.Network); ok && n.Cfg.Org == ioq.RECN {
		return []observer{&saqObserver{net: n}}
	}
	return nil
}
