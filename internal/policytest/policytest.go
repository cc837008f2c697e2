// Package policytest owns what the tests of the policies share: a network
// of VC routers that sends nothing, for a policy to install on, and
// topologies with links of unequal latency. It may import router/vc,
// topology, the topology families and internal/routingtest.
package policytest

import (
	"context"
	"strings"
	"testing"

	"github.com/icnsim/icnsim/clock"
	"github.com/icnsim/icnsim/fabric"
	"github.com/icnsim/icnsim/internal/routingtest"
	"github.com/icnsim/icnsim/router/vc"
	"github.com/icnsim/icnsim/topology"
	"github.com/icnsim/icnsim/topology/dragonfly"
	"github.com/icnsim/icnsim/topology/graph"
	"github.com/icnsim/icnsim/topology/hyperx"
)

// Idle is a source that never sends.
type Idle struct{}

// Generate sends nothing, ever.
func (Idle) Generate(clock.Cycle, *fabric.SourceQueue) clock.Cycle { return clock.Never }

// IdleNetwork is a network of VC routers on topo whose nodes send
// nothing, with a deadlock-free routing of its family.
func IdleNetwork(t *testing.T, topo topology.Topology) *vc.Network {
	t.Helper()
	srcs := make([]fabric.Source, topo.Nodes())
	for i := range srcs {
		srcs[i] = Idle{}
	}
	net, err := vc.Build(context.Background(), topo, vc.Config{Routing: routingtest.Named(routingFor(topo)), VCs: 3, BufferFlits: 8, RoutingDelayCycles: 1,
		LinkLatencyCycles: 1, CreditLatencyCycles: 1, MaxPacketFlits: 4}, srcs, nil)
	if err != nil {
		t.Fatal(err)
	}
	return net
}

func routingFor(topo topology.Topology) string {
	switch topo.Kind() {
	case "torus":
		return "dor-dateline"
	case "mesh":
		return "dor"
	case "dragonfly", "dragonflyplus", "hyperx", "slimfly":
		return "min"
	case "file":
		return "shortest-hops"
	}
	return "fattree-static"
}

// LongLinkTopologies are a dragonfly with global links of 5 cycles (4
// beyond the network's 1), a HyperX, and a graph from a file with two
// longer links: the tree circuit and SAT over links of unequal latency.
func LongLinkTopologies(t *testing.T) (df, hx, fromFile topology.Topology) {
	t.Helper()
	d, err := dragonfly.NewDragonfly(2, 4, 2, 0, dragonfly.Palmtree, 5)
	if err != nil {
		t.Fatal(err)
	}
	h, err := hyperx.NewHyperX(4, 2, 1, 2)
	if err != nil {
		t.Fatal(err)
	}
	g, err := graph.ReadGraph(context.Background(), "test.txt", strings.NewReader("routers 6\nnode 0\nnode 0\nnode 1\nnode 2\nnode 3\nnode 4\nnode 5\n"+
		"link 0 1\nlink 1 2 4\nlink 2 3\nlink 3 4\nlink 4 5\nlink 5 0\nlink 0 3 3\n"))
	if err != nil {
		t.Fatal(err)
	}
	return d, h, g
}

// A Parsed is a policy's typed parameters, read from a value of
// policy.injection.
type Parsed interface {
	comparable
	String() string
	Validate() error
}

// RoundTrip is the property every policy's reading of policy.injection
// has, for its fuzz target: a value s that parse accepts gives parameters
// that validate and print (String, which results and figure titles use)
// without spaces as a value that reads back to the same parameters; a
// value it refuses gets a non-empty error.
func RoundTrip[P Parsed](t *testing.T, s string, parse func(string) (P, error)) {
	t.Helper()
	p, err := parse(s)
	if err != nil {
		if err.Error() == "" {
			t.Fatal("empty error")
		}
		return
	}
	if err := p.Validate(); err != nil {
		t.Fatalf("%q accepted as %v, which does not validate: %v", s, p, err)
	}
	printed := p.String()
	q, err := parse(printed)
	switch {
	case err != nil:
		t.Fatalf("%q prints as %q, which does not parse: %v", s, printed, err)
	case q != p || q.String() != printed:
		t.Fatalf("%q prints as %q, which reads back as %q", s, printed, q)
	case strings.ContainsAny(printed, " \n"):
		t.Fatalf("%q prints as %q, with spaces", s, printed)
	}
}
