// Package policies owns the contract every congestion-control policy meets
// and what they share: a policy is a small state machine in the style of
// the etcd raft package (local observations and control-lane messages in,
// a decision and an outbox out, no goroutines, clocks or shared memory
// inside), installed on a Host, any fabric whose routers take a control
// plane and whose nodes take an injection gate (fabric.Gate). The
// policies are its sub-packages, one per mechanism:
//
//   - policies/entropy: the entropy papers' injection models (noth, base,
//     hyst, gt.a, gt.x) and their measurement circuit;
//   - policies/sat: the SAT fairness protocol of Izu and Vallejo.
//
// Each registers the values of policy.injection it reads (Model), parses
// them into its own typed parameters, checks them against a topology,
// estimates its memory and installs on a Host; the study layer's catalog
// names them, one line each. A policy reads the topology through its
// capabilities (topology.Plane, topology.Ringed, topology.Treed,
// topology.ShortestPathTree), never its type.
//
// It may import fabric, topology, link and clock.
package policies

import (
	"github.com/icnsim/icnsim/fabric"
	"github.com/icnsim/icnsim/link"
	"github.com/icnsim/icnsim/topology"
)

// Host is what a policy installs on: a fabric whose routers take a control
// plane and whose nodes take an injection gate. The VC router's network is
// one; the input/output-buffered switch is not (the study layer refuses
// entropy throttling and SAT on it with an error keyed to the policy).
type Host interface {
	Topology() topology.Topology
	// OutWire is the data wire out of port p of router r, if it has one.
	OutWire(r, p int) (link.Wire, bool)
	// ControlPlane is router r's control plane (nil for none).
	ControlPlane(r int) fabric.ControlPlane
	SetControlPlane(r int, cp fabric.ControlPlane)
	SetGate(node int, g fabric.Gate)
}

// Model documents one value of policy.injection a policy registers: its
// name, its parameters in the papers' order, and what it does.
type Model struct {
	Name   string
	Params []string
	Doc    string
}
