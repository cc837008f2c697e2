package study

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/icnsim/icnsim/policies/entropy"
	"github.com/icnsim/icnsim/report"
)

// Equivalence is what a finished run with entropy throttling says about
// other configurations: any configuration equal to it but for the gate's
// thresholds (R_th, R_ON, R_OFF, R_n), with thresholds inside the box its
// gates recorded, would have taken every throttling decision exactly as it
// did, cycle by cycle, and so produced the same result (see
// entropy.ThresholdBox). A threshold sweep uses it to give such points their
// result without simulating them again; the results are the ones a
// simulation would produce, so a study's files do not depend on it.
type Equivalence struct {
	key     string
	box     entropy.ThresholdBox
	routers int
}

// equivalenceKey is cfg with the gate's thresholds removed (and the model
// and guard time written canonically); ok is false when cfg has no gate.
func equivalenceKey(cfg Config) (key string, gp entropy.GateParams, ok bool) {
	g, _, _, err := cfg.gate()
	ep, isEntropy := g.(entropy.Policy)
	gp = ep.Params
	if err != nil || !isEntropy || !gp.Throttles() {
		return "", gp, false
	}
	c := cfg
	c.Policy.Injection = fmt.Sprintf("model %d", gp.Model)
	c.Policy.RthPercent, c.Policy.ROnPercent, c.Policy.ROffPercent, c.Policy.RnPercent = 0, 0, 0, 0
	c.Policy.GuardCycles = gp.GuardCycles
	b, err := json.Marshal(c)
	if err != nil {
		return "", gp, false
	}
	return string(b), gp, true
}

// Probe is a configuration as the equivalence check sees it: its key (the
// configuration without the gate's thresholds) and its gate. Make it once
// per configuration with NewProbe; checks against many runs are then cheap.
type Probe struct {
	key string
	gp  entropy.GateParams
	ok  bool
}

// NewProbe prepares cfg for equivalence checks.
func NewProbe(cfg Config) Probe {
	key, gp, ok := equivalenceKey(cfg)
	return Probe{key: key, gp: gp, ok: ok}
}

// Key groups configurations that differ at most in their gate thresholds;
// it is "" for a configuration without a throttling gate, which has no
// equivalent runs.
func (p Probe) Key() string { return p.key }

// RunEquivalent is Run, also returning the run's Equivalence (nil when the
// configuration has no throttling gate).
func RunEquivalent(ctx context.Context, cfg Config, opt Options) (*report.Result, *Equivalence, error) {
	b, err := buildToRun(ctx, cfg, opt)
	if err != nil {
		return nil, nil, err
	}
	res, err := b.Run(ctx, opt)
	if err != nil {
		return nil, nil, err
	}
	key, _, ok := equivalenceKey(cfg)
	ent, installed := Installed[*entropy.Throttling](b)
	if !ok || !installed {
		return res, nil, nil
	}
	return res, &Equivalence{key: key, box: ent.Thresholds(), routers: b.Fabric.Topology().Routers()}, nil
}

// Reproduce returns the result of the probed configuration when it is
// equivalent to the run that produced res and e: the same result, with its
// own thresholds in the injection field. ok is false when it is not
// provably equivalent.
func (e *Equivalence) Reproduce(res *report.Result, p Probe) (out *report.Result, ok bool) {
	if !p.ok || p.key != e.key || !e.box.Contains(p.gp, e.routers) {
		return nil, false
	}
	r := *res
	r.Injection = p.gp.String()
	return &r, true
}
