// Package entropy owns entropy throttling, the injection control of the
// entropy papers: the injection gates (noth, base, hyst, gt.a, gt.x) that
// network interfaces consult and the measurement circuit the routers run.
// Each gate and each router's part of the circuit is a small state machine
// (package policies' contract): local observations and control-lane
// messages in, a decision and an outbox out.
//
// Every router runs its part of the measurement circuit (Circuit, a
// fabric.ControlPlane) and sends the network-wide (N_v, N_a) it reads to its
// network interfaces over a one-cycle lane; each NI's gate (Gate, a
// fabric.Gate) holds the node's throttled-mode register and updates it every
// cycle from the latest reading, exactly as Figs. 2 and 3 of the extended
// paper (Yokota, Ootsu, Ohkawa, IEICE 2016):
//
//	base(R_th, R_n):          ON  iff not forced and R_a < R_th
//	hyst(R_ON, R_OFF, R_n):   OFF -> ON when R_a < R_ON; ON -> OFF when R_a > R_OFF
//	gt.a(t_G, R_ON, R_OFF, R_n), gt.x(t_G, ...): hyst, plus a guard time
//	forced release (all):     OFF whenever N_v < R_n x N_r
//
// with R_a = N_a / N_v (taken as 1 when N_v = 0: an empty network is not
// congested) and N_r the number of routers. Thresholds are percentages, as
// the papers write them. Fig. 3 as printed re-asserts the current mode in
// both inner branches ("if ON: if R_a < R_ON then ON"), which would never
// change the mode; the text of its Sects. 4.1 and 6.2 (R_ON triggers
// throttling, R_OFF releases it, the two conditions evaluated independently)
// is what is implemented. The mode is checked when a new packet would start;
// a started packet is never interrupted. With guard time, after the tail of
// each packet leaves the node, the node starts no new packet for t_G cycles
// (gt.x) or for a number of cycles drawn uniformly from the integers
// 0..2 t_G (gt.a, mean t_G) with the node's own PCG stream.
//
// The reading reaches the gate one cycle after the router's readout
// register took it (the throttled-mode register is a register too).
//
// It installs on a policies.Host and reads the topology through its
// capabilities: a grid's coordinates for the grid circuit
// (topology.Plane), else a breadth-first tree of least eccentricity.
//
// It may import policies, fabric, topology, link and clock.
package entropy

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/icnsim/icnsim/clock"
	"github.com/icnsim/icnsim/link"
)

// Model is an injection-control model of the extended entropy paper.
type Model uint8

const (
	// Noth never throttles.
	Noth Model = iota
	// Base is Fig. 2: one threshold R_th.
	Base
	// Hyst is Fig. 3: thresholds R_ON (trigger) and R_OFF (release).
	Hyst
	// GuardRandom (gt.a) is Hyst with a guard time uniform on [0, 2 t_G].
	GuardRandom
	// GuardFixed (gt.x) is Hyst with a fixed guard time t_G.
	GuardFixed
)

// ModelSpec describes a registered model.
type ModelSpec struct {
	Name   string
	Model  Model
	Params []string // parameter names in the papers' order
	Doc    string
}

// Models returns the registry of injection-control models by name. "none"
// is an alias of "noth".
func Models() map[string]ModelSpec {
	specs := []ModelSpec{
		{Name: "noth", Model: Noth, Doc: "no throttling (baseline)"},
		{Name: "none", Model: Noth, Doc: "alias of noth"},
		{Name: "base", Model: Base, Params: []string{"R_th", "R_n"}, Doc: "entropy throttling with one threshold (Fig. 2)"},
		{Name: "hyst", Model: Hyst, Params: []string{"R_ON", "R_OFF", "R_n"}, Doc: "entropy throttling with hysteresis (Fig. 3)"},
		{Name: "gt.a", Model: GuardRandom, Params: []string{"t_G", "R_ON", "R_OFF", "R_n"}, Doc: "hysteresis and a random guard time, uniform on [0, 2 t_G] cycles"},
		{Name: "gt.x", Model: GuardFixed, Params: []string{"t_G", "R_ON", "R_OFF", "R_n"}, Doc: "hysteresis and a fixed guard time of t_G cycles"},
	}
	m := make(map[string]ModelSpec, len(specs))
	for _, s := range specs {
		m[s.Name] = s
	}
	return m
}

// ModelNames lists the registered model names, sorted.
func ModelNames() []string {
	var names []string
	for n := range Models() {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// GateParams are a model and its parameters. Thresholds are percentages
// (0..100) as the papers write them; GuardCycles is t_G.
type GateParams struct {
	Model                                          Model
	RthPercent, ROnPercent, ROffPercent, RnPercent float64
	GuardCycles                                    int
}

// ParseGate reads a model as the papers write it: a bare name ("noth",
// "hyst") takes its parameters from defaults; a name with arguments
// ("base(90,30)", "hyst(70,90,30)", "gt.x(16,70,90,30)") sets all of them,
// in the papers' order. It reports whether arguments were given.
func ParseGate(s string, defaults GateParams) (GateParams, bool, error) {
	name, args, hasArgs := strings.Cut(strings.TrimSpace(s), "(")
	name = strings.TrimSpace(name)
	spec, ok := Models()[name]
	if !ok {
		return GateParams{}, false, fmt.Errorf("unknown injection model %q (allowed: %s, with or without arguments, e.g. \"hyst(70,90,30)\")", name, strings.Join(ModelNames(), ", "))
	}
	p := defaults
	p.Model = spec.Model
	if !hasArgs {
		return p, false, p.Validate()
	}
	args, closed := strings.CutSuffix(strings.TrimSpace(args), ")")
	if !closed {
		return GateParams{}, false, fmt.Errorf("%q: missing closing parenthesis", s)
	}
	var vals []float64
	if strings.TrimSpace(args) != "" {
		for _, a := range strings.Split(args, ",") {
			v, err := strconv.ParseFloat(strings.TrimSpace(a), 64)
			if err != nil {
				return GateParams{}, false, fmt.Errorf("%q: argument %q is not a number", s, strings.TrimSpace(a))
			}
			vals = append(vals, v)
		}
	}
	if len(vals) != len(spec.Params) {
		return GateParams{}, false, fmt.Errorf("%q: %s takes %d arguments (%s), got %d", s, name, len(spec.Params), strings.Join(spec.Params, ", "), len(vals))
	}
	for i, n := range spec.Params {
		v := vals[i]
		switch n {
		case "R_th":
			p.RthPercent = v
		case "R_ON":
			p.ROnPercent = v
		case "R_OFF":
			p.ROffPercent = v
		case "R_n":
			p.RnPercent = v
		case "t_G":
			if v != float64(int(v)) {
				return GateParams{}, false, fmt.Errorf("%q: t_G = %v is not a whole number of cycles", s, v)
			}
			p.GuardCycles = int(v)
		}
	}
	return p, true, p.Validate()
}

// Validate checks the parameters the model uses.
func (p GateParams) Validate() error {
	pct := func(name string, v float64) error {
		if !(v >= 0 && v <= 100) {
			return fmt.Errorf("%s = %v%% out of range (allowed: 0..100 percent)", name, v)
		}
		return nil
	}
	var err error
	switch p.Model {
	case Base:
		err = firstErr(pct("R_th", p.RthPercent), pct("R_n", p.RnPercent))
	case Hyst, GuardRandom, GuardFixed:
		err = firstErr(pct("R_ON", p.ROnPercent), pct("R_OFF", p.ROffPercent), pct("R_n", p.RnPercent))
		if err == nil && p.Model != Hyst && (p.GuardCycles < 0 || p.GuardCycles > 1_000_000) {
			err = fmt.Errorf("t_G = %d cycles out of range (allowed: 0..1000000)", p.GuardCycles)
		}
	}
	return err
}

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// String writes the parameters as the papers do, e.g. "hyst(70,90,30)".
func (p GateParams) String() string {
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	switch p.Model {
	case Base:
		return fmt.Sprintf("base(%s,%s)", f(p.RthPercent), f(p.RnPercent))
	case Hyst:
		return fmt.Sprintf("hyst(%s,%s,%s)", f(p.ROnPercent), f(p.ROffPercent), f(p.RnPercent))
	case GuardRandom, GuardFixed:
		name := "gt.a"
		if p.Model == GuardFixed {
			name = "gt.x"
		}
		return fmt.Sprintf("%s(%d,%s,%s,%s)", name, p.GuardCycles, f(p.ROnPercent), f(p.ROffPercent), f(p.RnPercent))
	}
	return "noth"
}

// Throttles reports whether the model is entropy throttling (needs the
// circuit): every model but noth.
func (p GateParams) Throttles() bool { return p.Model != Noth }

// Next is the throttled-mode transition of one cycle: from mode on, given
// the network-wide counts c as read and the number of routers.
func (p GateParams) Next(on bool, c Counts, routers int) bool { return p.next(on, c, routers, nil) }

// next is Next; when box is not nil it also records in box the bounds that
// this decision puts on the thresholds (see ThresholdBox).
func (p GateParams) next(on bool, c Counts, routers int, box *ThresholdBox) bool {
	x := float64(c.Valid) * 100
	forced := x < p.RnPercent*float64(routers)
	ra := 100.0 // percent; an empty network is not congested
	if c.Valid > 0 {
		ra = 100 * float64(c.Active) / float64(c.Valid)
	}
	var keep bool // the model's own decision, were the release not forced
	switch p.Model {
	case Base:
		keep = ra < p.RthPercent
	case Hyst, GuardRandom, GuardFixed:
		if on {
			keep = !(ra > p.ROffPercent)
		} else {
			keep = ra < p.ROnPercent
		}
	default:
		return false
	}
	if box == nil {
		return keep && !forced
	}
	if keep && !forced {
		box.notForced(x)
		box.model(p.Model, on, ra, true)
		return true
	}
	// Off: the forced release, the model's condition or both suffice; with
	// both, record the one that narrows the box less.
	if forced && (keep || !box.forcedNarrows(x) || box.modelNarrows(p.Model, on, ra) && p.forcedSlack(x, routers) >= p.modelSlack(on, ra)) {
		box.forced(x)
	} else {
		box.model(p.Model, on, ra, false)
	}
	return false
}

// forcedSlack is how far (percentage points of R_n) the forced release at
// scaled count x is from not holding; modelSlack how far the model's failed
// condition on ra is from holding.
func (p GateParams) forcedSlack(x float64, routers int) float64 {
	return p.RnPercent - x/float64(routers)
}

func (p GateParams) modelSlack(on bool, ra float64) float64 {
	switch {
	case p.Model == Base:
		return ra - p.RthPercent
	case on:
		return ra - p.ROffPercent
	default:
		return ra - p.ROnPercent
	}
}

// Gate is one node's injection gate: its throttled-mode register,
// the latest reading of the circuit and its guard timer. It implements
// fabric.Gate.
type Gate struct {
	p          GateParams
	routers    int
	in         *link.Lane[Counts]
	read       Counts
	on         bool
	guardUntil clock.Cycle
	rng        *rand.Rand
	// box records the thresholds that would have taken every decision so far.
	box ThresholdBox
	// ThrottledCycles counts the cycles spent in throttled mode.
	ThrottledCycles uint64
}

// NewGate returns the gate of one node reading the circuit's readout
// from lane in; seed feeds the guard-time stream of gt.a.
func NewGate(p GateParams, routers int, in *link.Lane[Counts], seed uint64) *Gate {
	g := &Gate{p: p, routers: routers, in: in, box: AnyThresholds()}
	if p.Model == GuardRandom {
		g.rng = rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	}
	return g
}

// Observe reads the circuit's readout and updates the mode (fabric.Gate).
func (g *Gate) Observe(now clock.Cycle, _ int) {
	if v := g.in.Recv(now); v != nil {
		g.read = *v
	}
	g.on = g.p.next(g.on, g.read, g.routers, &g.box)
	if g.on {
		g.ThrottledCycles++
	}
}

// Allow lets a new packet start when the mode is off and no guard time
// runs (fabric.Gate).
func (g *Gate) Allow(now clock.Cycle) bool { return !g.on && now >= g.guardUntil }

// Started does nothing: the entropy models decide by mode and guard time
// only (fabric.Gate).
func (g *Gate) Started(clock.Cycle) {}

// Injected starts the guard time after a packet's tail left (fabric.Gate).
func (g *Gate) Injected(now clock.Cycle) {
	switch g.p.Model {
	case GuardFixed:
		g.guardUntil = now + 1 + clock.Cycle(g.p.GuardCycles)
	case GuardRandom:
		g.guardUntil = now + 1 + clock.Cycle(g.GuardDraw())
	}
}

// GuardDraw draws one gt.a guard time, uniform on 0..2 t_G cycles.
func (g *Gate) GuardDraw() int { return g.rng.IntN(2*g.p.GuardCycles + 1) }

// Throttled reports the mode (read only while the NI is paused).
func (g *Gate) Throttled() bool { return g.on }
