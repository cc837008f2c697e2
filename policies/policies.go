// Package policies owns the congestion-control policies that routers and
// network interfaces consult: injection gates now, and, as the project grows,
// the entropy measurement circuit, the SAT token protocol and RECN. Each
// policy is a small state machine in the style of the etcd raft package:
// local observations and control-lane messages in, a decision and an outbox
// out, no goroutines, clocks or shared memory inside.
//
// An injection gate is asked by its NI before each new packet (router.Gate);
// a packet already started is never interrupted.
package policies

import (
	"fmt"
	"slices"
	"strings"

	"github.com/icnsim/icnsim/clock"
	"github.com/icnsim/icnsim/router"
)

// None never throttles: the "noth" baseline of the entropy papers.
type None struct{}

// Allow always lets a new packet start.
func (None) Allow(clock.Cycle) bool { return true }

// GateSpec describes a registered injection gate.
type GateSpec struct {
	Name string
	Doc  string
	// New returns the gate of one node.
	New func(node int) router.Gate
}

// Gates returns the registry of injection gates by name.
func Gates() map[string]GateSpec {
	return map[string]GateSpec{
		"none": {Name: "none", Doc: "no injection control (noth)", New: func(int) router.Gate { return None{} }},
	}
}

// NewGates returns one gate per node for the named policy.
func NewGates(name string, nodes int) ([]router.Gate, error) {
	spec, ok := Gates()[name]
	if !ok {
		var names []string
		for n := range Gates() {
			names = append(names, n)
		}
		slices.Sort(names)
		return nil, fmt.Errorf("unknown injection gate %q (allowed: %s)", name, strings.Join(names, ", "))
	}
	gs := make([]router.Gate, nodes)
	for i := range gs {
		gs[i] = spec.New(i)
	}
	return gs, nil
}
