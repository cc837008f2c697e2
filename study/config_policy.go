package study

import (
	"fmt"
	"slices"
	"strings"

	"github.com/icnsim/icnsim/link"
	"github.com/icnsim/icnsim/policies"
	"github.com/icnsim/icnsim/policies/entropy"
)

// Policy is the congestion control: entropy throttling's injection model
// and measurement circuit.
type Policy struct {
	// Injection is the model of every node: noth (or none), base, hyst,
	// gt.a, gt.x, bare (parameters from the keys below) or with the papers'
	// arguments, e.g. "hyst(70,90,30)".
	Injection   string  `toml:"injection"`
	RthPercent  float64 `toml:"r_th_percent"`
	ROnPercent  float64 `toml:"r_on_percent"`
	ROffPercent float64 `toml:"r_off_percent"`
	RnPercent   float64 `toml:"r_n_percent"`
	GuardCycles int     `toml:"guard_cycles"`
	// Circuit is the measurement circuit's shape: auto (grid on a torus or
	// mesh, tree on a fat-tree), grid or tree.
	Circuit              string `toml:"circuit"`
	CircuitLanes         string `toml:"circuit_lanes"` // dedicated or steal
	CircuitLatencyCycles int    `toml:"circuit_latency_cycles"`
	// CountInjectionBuffers counts the injection ports' buffers in N_v, N_a.
	CountInjectionBuffers bool `toml:"count_injection_buffers"`
	// MeasureCircuit runs the circuit even under noth, so that its readings
	// appear in the time series.
	MeasureCircuit bool `toml:"measure_circuit"`
	// SATHopLatencyCycles is the SAT signal's latency over one link, and
	// SATNodeLatencyCycles the least time a node holds it (injection =
	// "sat(l,k,ring|tree)").
	SATHopLatencyCycles  int `toml:"sat_hop_latency_cycles"`
	SATNodeLatencyCycles int `toml:"sat_node_latency_cycles"`
	// SATL, SATK and SATStructure are bare "sat"'s l, k and ring or tree.
	SATL         int    `toml:"sat_l"`
	SATK         int    `toml:"sat_k"`
	SATStructure string `toml:"sat_structure"`
}

// gate is policy.injection read by the policy of the catalog that reads
// its value (injectionPolicies), with its parameters and the defaults of
// c's [policy] keys, and the index of that policy; it reports whether the
// value gave the parameters as arguments.
func (c *Config) gate() (policies.Policy, int, bool, error) {
	name, _, _ := strings.Cut(strings.TrimSpace(c.Policy.Injection), "(")
	var names []string
	for i, ip := range injectionPolicies() {
		for _, m := range ip.models() {
			if m.Name == strings.TrimSpace(name) {
				p, hasArgs, err := ip.parse(c)
				return p, i, hasArgs, err
			}
			names = append(names, m.Name)
		}
	}
	slices.Sort(names)
	return nil, -1, false, fmt.Errorf("unknown injection model %q (allowed: %s, with or without arguments, e.g. \"hyst(70,90,30)\")", strings.TrimSpace(name), strings.Join(names, ", "))
}

// chosenPolicy is a policy a configuration installs, with its catalog
// entry.
type chosenPolicy struct {
	entry injectionPolicy
	policies.Policy
}

// policies are what c installs, in order: what the catalog's other
// policies install beside the gate (the entropy circuit measured under
// SAT), then the gate (entropy's noth included: it installs nothing
// unless the circuit is measured).
func (c *Config) policies() ([]chosenPolicy, error) {
	gate, idx, _, err := c.gate()
	if err != nil {
		return nil, err
	}
	entries := injectionPolicies()
	var ps []chosenPolicy
	for i, ip := range entries {
		if i == idx || ip.beside == nil {
			continue
		}
		if p := ip.beside(c); p != nil {
			ps = append(ps, chosenPolicy{ip, p})
		}
	}
	return append(ps, chosenPolicy{entries[idx], gate}), nil
}

// parseEntropyGate reads an entropy-throttling model, bare (its
// parameters from the r_*_percent and guard_cycles keys) or with the
// papers' arguments, with the circuit's keys.
func parseEntropyGate(c *Config) (policies.Policy, bool, error) {
	p := &c.Policy
	gp, hasArgs, err := entropy.ParseGate(p.Injection, entropy.GateParams{RthPercent: p.RthPercent, ROnPercent: p.ROnPercent,
		ROffPercent: p.ROffPercent, RnPercent: p.RnPercent, GuardCycles: p.GuardCycles})
	return c.entropyPolicy(gp), hasArgs, err
}

// entropyPolicy is entropy throttling with model gp and c's circuit keys.
func (c *Config) entropyPolicy(gp entropy.GateParams) entropy.Policy {
	return entropy.Policy{Params: gp, Circuit: c.CircuitConfig(), Measure: c.Policy.MeasureCircuit}
}

// entropyBeside is the entropy circuit measured beside another policy's
// gate (policy.measure_circuit), throttling nothing; nil when not measured.
func entropyBeside(c *Config) policies.Policy {
	if !c.Policy.MeasureCircuit {
		return nil
	}
	return c.entropyPolicy(entropy.GateParams{})
}

// validateEntropyGate checks that a model's parameters come from its
// arguments or from the keys, not both.
func validateEntropyGate(c *Config, add addFunc, _ policies.Policy, hasArgs bool) {
	pol, d := &c.Policy, Default().Policy
	if hasArgs && (pol.RthPercent != d.RthPercent || pol.ROnPercent != d.ROnPercent || pol.ROffPercent != d.ROffPercent || pol.RnPercent != d.RnPercent || pol.GuardCycles != d.GuardCycles) {
		add("policy.injection", pol.Injection, "give the model's parameters either as arguments here or in the r_*_percent and guard_cycles keys, not both")
	}
}

// entropyRefused names the key behind the circuit's refusal: the model's
// when it throttles, policy.measure_circuit when it only measures.
func entropyRefused(c *Config, p policies.Policy, err error) error {
	if ep, ok := p.(entropy.Policy); ok && ep.Params.Throttles() {
		return &FieldError{Key: "policy.injection", Value: c.Policy.Injection, Allowed: "its entropy circuit cannot be laid: " + err.Error()}
	}
	return &FieldError{Key: "policy.measure_circuit", Value: c.Policy.MeasureCircuit, Allowed: "the entropy circuit cannot be laid: " + err.Error()}
}

// entropyModels are the entropy papers' models, in their registry's order
// of names.
func entropyModels() []policies.Model {
	var ms []policies.Model
	for _, n := range entropy.ModelNames() {
		s := entropy.Models()[n]
		ms = append(ms, policies.Model{Name: s.Name, Params: s.Params, Doc: s.Doc})
	}
	return ms
}

// CircuitConfig is package entropy's view of the circuit keys.
func (c *Config) CircuitConfig() entropy.CircuitConfig {
	p := c.Policy
	shape := entropy.ShapeGrid
	grid := isGrid(&c.Network)
	if p.Circuit == "tree" || (p.Circuit == "auto" && !grid) {
		shape = entropy.ShapeTree
	}
	mode, _ := link.ParseMode(p.CircuitLanes)
	return entropy.CircuitConfig{Shape: shape, Mode: mode, LatencyCycles: p.CircuitLatencyCycles, CountInjection: p.CountInjectionBuffers}
}

// validatePolicy checks the [policy] table's entropy-throttling keys: the
// thresholds, the injection model and its arguments (SAT's with
// validateSATGate), and the measurement circuit.
func (c *Config) validatePolicy(add addFunc) {
	n := &c.Network
	pol := &c.Policy
	pctKeys := []struct {
		key string
		v   float64
	}{{"policy.r_th_percent", pol.RthPercent}, {"policy.r_on_percent", pol.ROnPercent}, {"policy.r_off_percent", pol.ROffPercent}, {"policy.r_n_percent", pol.RnPercent}}
	pctOK := true
	for _, k := range pctKeys {
		if !(k.v >= 0 && k.v <= 100) {
			add(k.key, k.v, "allowed: 0..100 (percent, as the entropy papers write thresholds)")
			pctOK = false
		}
	}
	if pol.GuardCycles < 0 || pol.GuardCycles > 1_000_000 {
		add("policy.guard_cycles", pol.GuardCycles, "allowed: 0..1000000 (t_G, cycles)")
		pctOK = false
	}
	if pctOK {
		gate, idx, hasArgs, err := c.gate()
		if err != nil {
			add("policy.injection", pol.Injection, err.Error())
		} else if v := injectionPolicies()[idx].validate; v != nil {
			v(c, add, gate, hasArgs)
		}
	}
	switch pol.Circuit {
	case "auto", "tree":
	case "grid":
		if !isGrid(n) {
			add("policy.circuit", pol.Circuit, fmt.Sprintf("the grid circuit needs a torus or mesh; use tree (or auto) on a %s", n.Topology))
		}
	default:
		add("policy.circuit", pol.Circuit, "allowed: auto, grid, tree"+didYouMean(pol.Circuit, []string{"auto", "grid", "tree"}))
	}
	if _, err := link.ParseMode(pol.CircuitLanes); err != nil {
		add("policy.circuit_lanes", pol.CircuitLanes, "allowed: dedicated (a register value crosses every cycle), steal (only in cycles the link carries no flit)")
	}
	if pol.CircuitLatencyCycles < 1 || pol.CircuitLatencyCycles > 1000 {
		add("policy.circuit_latency_cycles", pol.CircuitLatencyCycles, "allowed: 1..1000")
	}
}

// ParseGate reads value as policy.injection, with every parameter the
// [policy] keys would give left zero: for a value with arguments, the
// policy's typed parameters (a figure's labels read them).
func ParseGate(value string) (policies.Policy, bool, error) {
	c := Config{Policy: Policy{Injection: value}}
	p, _, hasArgs, err := c.gate()
	return p, hasArgs, err
}
