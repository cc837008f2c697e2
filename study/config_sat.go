package study

import (
	"github.com/icnsim/icnsim/policies"
	"github.com/icnsim/icnsim/policies/sat"
)

// SAT's keys live in the [policy] table (policy.injection = "sat(l,k,s)"
// or "sat" with sat_l, sat_k, sat_structure, and the signal's latencies);
// they are checked here.

// SATConfig is package sat's view of the SAT keys.
func (c *Config) SATConfig() sat.Config {
	return sat.Config{HopLatencyCycles: c.Policy.SATHopLatencyCycles, NodeLatencyCycles: c.Policy.SATNodeLatencyCycles}
}

// validateSATGate checks SAT's parameters given by policy.injection: in
// the arguments or in the keys, not both, and a structure the topology
// has.
func validateSATGate(c *Config, add addFunc, p policies.Policy, hasArgs bool) {
	sp := p.(sat.Policy).Params
	pol, d := &c.Policy, Default().Policy
	if hasArgs && (pol.SATL != d.SATL || pol.SATK != d.SATK || pol.SATStructure != d.SATStructure) {
		add("policy.injection", pol.Injection, "give SAT's parameters either as arguments here or in the sat_l, sat_k and sat_structure keys (with injection = \"sat\"), not both")
	} else if topo, err := c.Topology(); err == nil {
		if err := sat.CheckTopology(topo, sp.Tree); err != nil {
			add("policy.injection", pol.Injection, err.Error())
		}
	}
}

// validateSAT checks SAT's keys: the structure and the signal's latencies.
func (c *Config) validateSAT(add addFunc) {
	pol := &c.Policy
	if pol.SATStructure != "ring" && pol.SATStructure != "tree" {
		add("policy.sat_structure", pol.SATStructure, "allowed: ring (the Hamiltonian virtual ring), tree (the spanning tree, SS)")
	}
	if pol.SATHopLatencyCycles < 1 || pol.SATHopLatencyCycles > 1000 {
		add("policy.sat_hop_latency_cycles", pol.SATHopLatencyCycles, "allowed: 1..1000 cycles per link")
	}
	if pol.SATNodeLatencyCycles < 0 || pol.SATNodeLatencyCycles > 1000 {
		add("policy.sat_node_latency_cycles", pol.SATNodeLatencyCycles, "allowed: 0..1000 cycles")
	}
}

// parseSATGate reads SAT's value of policy.injection, bare (l, k and the
// structure from the sat_l, sat_k and sat_structure keys) or with its
// arguments.
func parseSATGate(c *Config) (policies.Policy, bool, error) {
	p := &c.Policy
	sp, hasArgs, err := sat.Parse(p.Injection, sat.Params{L: p.SATL, K: p.SATK, Tree: p.SATStructure == "tree"})
	return sat.Policy{Params: sp, Config: c.SATConfig()}, hasArgs, err
}
