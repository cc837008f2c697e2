package deadlock

import (
	"context"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/icnsim/icnsim/routing"
	"github.com/icnsim/icnsim/topology/graph"
)

// randomGraph is a connected graph of 2..12 routers (a random tree and
// extra links, parallel ones among them), with 2..10 nodes on random
// routers, some routers without nodes.
func randomGraph(t *testing.T, rng *rand.Rand) *graph.Graph {
	t.Helper()
	routers := 2 + rng.IntN(11)
	var b strings.Builder
	fmt.Fprintf(&b, "routers %d\n", routers)
	for range 2 + rng.IntN(9) {
		fmt.Fprintf(&b, "node %d\n", rng.IntN(routers))
	}
	for r := 1; r < routers; r++ {
		fmt.Fprintf(&b, "link %d %d\n", rng.IntN(r), r)
	}
	for range rng.IntN(routers + 2) {
		if a, c := rng.IntN(routers), rng.IntN(routers); a != c {
			fmt.Fprintf(&b, "link %d %d\n", a, c)
		}
	}
	g, err := graph.ReadGraph(context.Background(), "random.txt", strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestShortestHopsDependenciesGoUp: on random graphs, with as many VCs as
// the diameter or more, every dependency of shortest-hops the reference
// search finds goes from a VC class up to a higher one, so the check's
// graph, which lists none (shortestHops.ListStatesWithin), has every
// dependency that can lie on a cycle: there is none, and the check
// accepts; with fewer VCs the check is the reference search's, and
// agrees with the graph of VCs.
func TestShortestHopsDependenciesGoUp(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(47, 2))
	upward, checked := 0, 0
	for i := 0; i < 300; i++ {
		g := randomGraph(t, rng)
		D := max(g.Diameter(), 1)
		for _, vcs := range []int{D - 1, D, D + 1, 2 * D} {
			if vcs < 1 {
				continue
			}
			rf, err := routing.New(routingNamed("shortest-hops"), g, vcs)
			if err != nil {
				t.Fatal(err)
			}
			ref, err := referenceDependencies(ctx, g, rf, vcs, true)
			if err != nil {
				t.Fatal(err)
			}
			used, err := buildCDG(ctx, g, rf, vcs)
			if err != nil {
				t.Fatal(err)
			}
			e1, e2 := used.findCycle(ctx), ref.findCycle(ctx)
			if (e1 == nil) != (e2 == nil) {
				t.Fatalf("graph %d, %d VCs (diameter %d): the check finds %v, the reference %v", i, vcs, D, e1, e2)
			}
			byVC, _ := referenceDependencies(ctx, g, rf, vcs, false)
			if e3 := byVC.findCycle(ctx); (e2 == nil) != (e3 == nil) {
				t.Fatalf("graph %d, %d VCs: the graph of classes finds %v, of VCs %v", i, vcs, e2, e3)
			}
			checked++
			if vcs < D {
				continue
			}
			if e1 != nil {
				t.Fatalf("graph %d, %d VCs (diameter %d): refused: %v", i, vcs, D, e1)
			}
			for ch := 0; ch < len(ref.succ)/ref.W; ch++ {
				for w := 0; w < ref.W; w++ {
					for m := ref.succ[ch*ref.W+w]; m != 0; m &= m - 1 {
						if b := w*64 + bits.TrailingZeros64(m); b%ref.vcs <= ch%ref.vcs {
							t.Fatalf("graph %d, %d VCs: %s depends on class %d, not above its own", i, vcs, channelName(g, ref.base, ref.vcs, ch), b%ref.vcs)
						}
						upward++
					}
				}
			}
		}
	}
	t.Logf("%d checks on random graphs, %d dependencies going up a class", checked, upward)
	if upward == 0 {
		t.Fatal("no dependency at all: the graphs test nothing")
	}
}
