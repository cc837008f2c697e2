package deadlock

import (
	"context"
	"strings"
	"testing"

	"github.com/icnsim/icnsim/link"
	"github.com/icnsim/icnsim/routing"
	"github.com/icnsim/icnsim/topology/grid"
)

// requestReply is request-reply's classes with requests from each node to
// the nodes to(n) visits, on networks request and reply.
func requestReply(nodes, request, reply int, to func(n int, visit func(int))) MessageClasses {
	from := make([][]int, nodes)
	for s := range nodes {
		to(s, func(d int) { from[d] = append(from[d], s) })
	}
	return MessageClasses{
		Names: []string{"request", "reply"}, Network: []int{request, reply}, Answers: [][2]int{{0, 1}},
		Flows: func(c, src int, visit func(int)) {
			if c == 0 {
				to(src, visit)
				return
			}
			for _, s := range from[src] {
				visit(s)
			}
		},
	}
}

// TestCheckMessageClasses: requests and replies on networks of their own
// pass; on one network, a cycle through two servers' endpoint channels is
// found wherever a node that receives requests also sends one, and where
// none does (clients apart from one server that asks no one) the shared
// network is still refused, for lack of a proof.
func TestCheckMessageClasses(t *testing.T) {
	mesh, _ := grid.NewMesh(4, 1)
	N := mesh.Nodes()
	others := func(n int, visit func(int)) {
		for d := range N {
			if d != n {
				visit(d)
			}
		}
	}
	toServer := func(n int, visit func(int)) {
		if n != 5 {
			visit(5)
		}
	}
	for _, c := range []struct {
		name string
		mc   MessageClasses
		want []string // "" : passes
	}{
		{"uniform apart", requestReply(N, 0, 1, others), nil},
		{"one server apart", requestReply(N, 0, 1, toServer), nil},
		{"uniform shared", requestReply(N, 0, 0, others), []string{"message-dependent deadlock: ",
			"NI 0's ejection channel -(a request waits there until its node can send a reply)-> NI 0's injection channel -(request route)-> NI 1's ejection channel",
			"NI 1's injection channel -(request route)-> NI 0's ejection channel"}},
		{"one server shared", requestReply(N, 0, 0, toServer), []string{"share a virtual network", "only separate networks prove"}},
		{"replies answered on the request network", MessageClasses{Names: []string{"request", "reply"}, Network: []int{0, 1}, Answers: [][2]int{{0, 1}, {1, 0}},
			Flows: requestReply(N, 0, 1, others).Flows}, []string{"(virtual network 1)", "until its node can send a request"}},
	} {
		err := CheckMessageClasses(context.Background(), mesh, c.mc)
		if c.want == nil {
			if err != nil {
				t.Errorf("%s: %v", c.name, err)
			}
			continue
		}
		for _, w := range c.want {
			if err == nil || !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %v, want %q", c.name, err, w)
			}
		}
	}
}

// TestNetworksAreCopies: a routing split into virtual networks routes a
// packet in network n as the inner function routes it with its VC's place
// in the network, every candidate VC moved into the network's block, and
// injects it on the same VCs in every block; the whole function's
// channel dependency graph is acyclic as the inner one is (the check of
// the split function on all its VCs, the networks' VCs apart, agrees with
// the inner's on its own).
func TestNetworksAreCopies(t *testing.T) {
	torus, _ := grid.NewTorus(5)
	spec := routingNamed("dor-dateline")
	per, nets := spec.MinVCsFor(torus), 3
	inner := spec.New(torus, per)
	split := routing.NewNetworks(inner, nets, per, torus.Routers())
	states := 0
	inner.(routing.StateLister).ListStates(func(r, in int, vcMask uint64, route uint8, dst int) bool {
		for m := vcMask; m != 0; m &= m - 1 {
			v := routing.TrailingZeros(m)
			for n := range nets {
				states++
				f := link.Flit{Dst: int32(dst), VC: uint8(n*per + v), Route: route}
				g := f
				g.VC = uint8(v)
				var want, got routing.Candidates
				inner.Route(r, in, &g, &want)
				split.Route(r, in, &f, &got)
				if f.VC != uint8(n*per+v) || got.N != want.N {
					t.Fatalf("network %d: VC %d after routing, %d groups for %d", n, f.VC, got.N, want.N)
				}
				for i := range got.N {
					if got.G[i].Ports != want.G[i].Ports || got.G[i].VCs != want.G[i].VCs<<(n*per) {
						t.Fatalf("network %d, VC %d: group %d %+v, inner %+v", n, v, i, got.G[i], want.G[i])
					}
				}
			}
		}
		return true
	})
	if states == 0 {
		t.Fatal("no state listed")
	}
	for n := range nets {
		if split.ClassVCs(uint8(n)) != routing.AllVCs(per)<<(n*per) {
			t.Fatalf("class %d's VCs %b", n, split.ClassVCs(uint8(n)))
		}
	}
	if m, i := split.InjectVCs(0, 7), inner.InjectVCs(0, 7); m != i|i<<per|i<<(2*per) {
		t.Errorf("injection VCs %b, inner %b", m, inner.InjectVCs(0, 7))
	}
	ctx := context.Background()
	if err := Check(ctx, torus, inner, per, true); err != nil {
		t.Fatalf("inner: %v", err)
	}
	if err := Check(ctx, torus, split, per*nets, true); err != nil {
		t.Errorf("split into %d networks: %v", nets, err)
	}
	// One VC per network is too few for the dateline: each network's
	// graph has the cycle the inner one has.
	inner1 := spec.New(torus, 1)
	if err := Check(ctx, torus, routing.NewNetworks(inner1, nets, 1, torus.Routers()), nets, true); err == nil || Check(ctx, torus, inner1, 1, true) == nil {
		t.Errorf("one VC per network: split %v", err)
	}
}
