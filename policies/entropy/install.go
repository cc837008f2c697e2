package entropy

import (
	"context"

	"github.com/icnsim/icnsim/clock"
	"github.com/icnsim/icnsim/policies"
	"github.com/icnsim/icnsim/topology"
)

// Policy is entropy throttling as a configuration gives it
// (policies.Policy): every node's injection model, the circuit's shape,
// and whether the circuit runs (is measured) when nothing throttles.
type Policy struct {
	Params  GateParams
	Circuit CircuitConfig
	Measure bool
}

// String is the model as the papers write it.
func (p Policy) String() string { return p.Params.String() }

// Check reports what Install would refuse on t.
func (p Policy) Check(ctx context.Context, t topology.Topology) error {
	return Check(ctx, t, p.Params, p.Circuit, p.Measure)
}

// Estimate is the circuit's and the gates' memory on t and the time the
// circuit takes to lay.
func (p Policy) Estimate(t topology.Topology) policies.Estimate {
	return policies.Estimate{Bytes: Bytes(t, p.Params, p.Circuit, p.Measure), BuildSeconds: BuildSeconds(t, p.Params, p.Circuit, p.Measure)}
}

// seedSalt separates the gates' streams (gt.a's guard times) from the
// traffic's, which draw from the same run seed.
const seedSalt = 0x5eed_9a7e

// Install lays the circuit and the gates on h (nil when the model is noth
// and the circuit is not measured).
func (p Policy) Install(ctx context.Context, h policies.Host, seed uint64) (policies.Running, error) {
	e, err := Install(ctx, h, p.Params, p.Circuit, seed^seedSalt, p.Measure)
	if e == nil {
		return nil, err
	}
	return e, err
}

// Check has nothing to verify: the circuit's and the gates' state is
// checked by the network's own invariants.
func (e *Throttling) Check(clock.Cycle) error { return nil }

// Window changes nothing: the gates count their throttled cycles over the
// whole run.
func (e *Throttling) Window(_, _ clock.Cycle) {}

// Throttling is entropy throttling installed on a network: the circuit and one
// gate per node (nil gates when the model is noth).
type Throttling struct {
	Params  GateParams
	Circuit *Circuits
	Gates   []*Gate
}

// Install builds the measurement circuit on net and, unless the
// model is noth, one gate per node reading it. seed feeds the gt.a guard
// times (node i draws from its own stream). With noth the circuit still
// runs when measure is set (so its readings can be reported) but no gate is
// installed; without measure nothing is installed and nil is returned.
// ctx stops the laying of the circuit.
func Install(ctx context.Context, net policies.Host, p GateParams, cfg CircuitConfig, seed uint64, measure bool) (*Throttling, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if !p.Throttles() && !measure {
		return nil, nil
	}
	cs, err := BuildCircuit(ctx, net, cfg)
	if err != nil {
		return nil, err
	}
	e := &Throttling{Params: p, Circuit: cs}
	if !p.Throttles() {
		return e, nil
	}
	t := net.Topology()
	e.Gates = make([]*Gate, t.Nodes())
	for i := range e.Gates {
		g := NewGate(p, t.Routers(), cs.ToNode[i], splitSeed(seed, uint64(i)))
		e.Gates[i] = g
		net.SetGate(i, g)
	}
	return e, nil
}

// splitSeed derives node i's stream seed from the run seed (SplitMix64).
func splitSeed(seed, i uint64) uint64 {
	z := seed + (i+1)*0x9E3779B97F4A7C15
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

// Throttled counts the nodes in throttled mode (read while paused).
func (e *Throttling) Throttled() int {
	n := 0
	for _, g := range e.Gates {
		if g.on {
			n++
		}
	}
	return n
}

// MeanReadout is the mean over routers of the circuit's readout, as the
// mobility ratio R_a each router reads (1 when it reads N_v = 0), and the
// true network-wide counts of the routers' last cycle (read while paused).
func (e *Throttling) MeanReadout() (meanRa float64, truth Counts) {
	for _, c := range e.Circuit.Routers {
		r := c.Readout()
		if r.Valid > 0 {
			meanRa += float64(r.Active) / float64(r.Valid)
		} else {
			meanRa++
		}
		truth = truth.add(c.Profile())
	}
	return meanRa / float64(len(e.Circuit.Routers)), truth
}

// Thresholds is the box of thresholds that would have taken every decision
// of every gate so far (read while paused): any thresholds in it reproduce
// the run exactly. It is AnyThresholds when no gate is installed.
func (e *Throttling) Thresholds() ThresholdBox {
	b := AnyThresholds()
	for _, g := range e.Gates {
		b.Intersect(g.box)
	}
	return b
}
