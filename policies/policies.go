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
// Each registers the values of policy.injection it reads (Model) and
// parses one into its own typed parameters, a Policy: it checks itself
// against a topology, estimates its memory, and installs on a Host,
// giving what the run loop asks of it while it runs (Running). The study
// layer's catalog names the policies, one line each, and knows them only
// through these interfaces. A policy reads the topology through its
// capabilities (topology.Plane, topology.Ringed, topology.Treed,
// topology.ShortestPathTree), never its type.
//
// It may import fabric, topology, link and clock.
package policies

import (
	"context"

	"github.com/icnsim/icnsim/clock"
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

// Policy is a value of policy.injection parsed by the policy that reads
// it, with its parameters and settings: what the composition layer asks of
// every policy.
type Policy interface {
	// String is the value as the papers write it, e.g. "hyst(70,90,30)".
	String() string
	// Check reports what Install would refuse on t, building nothing; ctx
	// stops it.
	Check(ctx context.Context, t topology.Topology) error
	// Estimate is what Install takes on t beyond the network.
	Estimate(t topology.Topology) Estimate
	// Install installs the policy on h, its random streams drawn from seed
	// (the run's). It returns nil and no error where there is nothing to
	// run (entropy's noth with the circuit not measured).
	Install(ctx context.Context, h Host, seed uint64) (Running, error)
}

// Estimate is a policy's memory and the time its installation takes
// beyond allocating it.
type Estimate struct {
	Bytes        int64
	BuildSeconds float64
}

// Running is an installed policy as the run loop sees it. Both methods
// are called while the network is paused.
type Running interface {
	// Check verifies the policy's invariants before cycle next.
	Check(next clock.Cycle) error
	// Window says where the measurement window lies, [from, to): to is
	// clock.Never while it is open.
	Window(from, to clock.Cycle)
}

// Reporter is a running policy with figures of its own for a run's
// result, where they appear under its name (report.Result.Policies, JSON
// "policies": {"NAME": {...}}); entropy throttling's and SAT's results
// keep the typed fields they had before this contract.
type Reporter interface {
	// Name keys its figures in the result.
	Name() string
	// Figures are what it measured over the measurement window [from, to)
	// of a run that ended at cycle end (read while paused).
	Figures(from, to, end clock.Cycle) map[string]float64
}

// AddControlPlane installs cp as router r's control plane beside the one
// it has, if any (stepped after it): policies that share a router (SAT's
// signal and the entropy circuit measured beside it) each keep their own.
// Their planes share no state, so the order changes no result.
func AddControlPlane(h Host, r int, cp fabric.ControlPlane) {
	if old := h.ControlPlane(r); old != nil {
		cp = planePair{old, cp}
	}
	h.SetControlPlane(r, cp)
}

// planePair steps two control planes of one router in order.
type planePair [2]fabric.ControlPlane

func (m planePair) Step(now clock.Cycle, obs fabric.Observation) {
	m[0].Step(now, obs)
	m[1].Step(now, obs)
}
