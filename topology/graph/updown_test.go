package graph

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/icnsim/icnsim/internal/graphfile"

	"github.com/icnsim/icnsim/link"
	"github.com/icnsim/icnsim/routing"
)

// TestUpDownRoutes: on random connected graphs, the deterministic and the
// adaptive up*/down* routings take every packet from every node to every
// other on a legal route (no up link after a down one) of the shortest
// legal length, which is at least the shortest path's; the root is the
// file's where it names one, else a router whose farthest router is
// nearest.
func TestUpDownRoutes(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := range 30 {
		text := graphfile.RandomConnected(rng, 4+rng.IntN(20), rng.IntN(12))
		if trial%3 == 0 {
			text += fmt.Sprintf("root %d\n", 1)
		}
		g, err := ReadGraph(context.Background(), "g.txt", strings.NewReader(text))
		if err != nil {
			t.Fatal(err)
		}
		ud := g.UpDown()
		if trial%3 == 0 && ud.Root != 1 {
			t.Fatalf("trial %d: root %d, the file says 1", trial, ud.Root)
		}
		ecc := func(r int) int32 {
			d, _ := g.distancesTo(context.Background(), r, nil)
			return slices.Max(d)
		}
		for r := range g.Routers() {
			if ecc(r) < ecc(ud.Root) && g.Root < 0 {
				t.Fatalf("trial %d: root %d's farthest router is %d hops away, router %d's %d", trial, ud.Root, ecc(ud.Root), r, ecc(r))
			}
		}
		for _, adaptive := range []bool{false, true} {
			rf := &upDownRouting{g: g, ud: ud, all: 1, adaptive: adaptive}
			for src := range g.Nodes() {
				for dst := range g.Nodes() {
					walkUpDown(t, g, rf, src, dst, rng)
				}
			}
		}
	}
}

// walkUpDown routes a packet from src to dst, taking a random candidate
// at each hop, and checks its route.
func walkUpDown(t *testing.T, g *Graph, rf *upDownRouting, src, dst int, rng *rand.Rand) {
	t.Helper()
	f := link.Flit{Src: int32(src), Dst: int32(dst)}
	r, in := g.NodePort(src)
	dr, _ := g.NodePort(dst)
	want := rf.Hops(src, dst)
	if short := g.Routes().Hops(r, dr); want < short {
		t.Fatalf("%d -> %d: legal route of %d hops, shorter than the shortest path's %d", src, dst, want, short)
	}
	hops, down := 0, false
	for {
		var c routing.Candidates
		rf.Route(r, in, &f, &c)
		if c.N != 1 || c.G[0].Ports == 0 {
			t.Fatalf("%d -> %d at R%d: candidates %+v", src, dst, r, c)
		}
		if !rf.adaptive && c.G[0].Ports&(c.G[0].Ports-1) != 0 {
			t.Fatalf("%d -> %d at R%d: up-down offers ports %b", src, dst, r, c.G[0].Ports)
		}
		ports := []int{}
		for m := c.G[0].Ports; m != 0; m &= m - 1 {
			ports = append(ports, routing.TrailingZeros(m))
		}
		p := ports[rng.IntN(len(ports))]
		peer := g.Peer(r, p)
		if peer.Node >= 0 {
			if r != dr || peer.Node != dst || hops != want {
				t.Fatalf("%d -> %d: ejected at R%d to node %d after %d hops (want %d)", src, dst, r, peer.Node, hops, want)
			}
			return
		}
		up := rf.ud.Up(r, p)
		if up && down {
			t.Fatalf("%d -> %d: up link R%d port %d after a down link", src, dst, r, p)
		}
		down = down || !up
		rf.Update(r, p, &f)
		if (f.Route&wentDown != 0) != down {
			t.Fatalf("%d -> %d: route state %d after %v", src, dst, f.Route, down)
		}
		r, in = peer.Router, peer.Port
		if hops++; hops > want {
			t.Fatalf("%d -> %d: %d hops, the legal route has %d", src, dst, hops, want)
		}
	}
}
