package deadlock

import (
	"context"
	"strings"
	"testing"

	"github.com/icnsim/icnsim/internal/routingtest"
	"github.com/icnsim/icnsim/routing"
	"github.com/icnsim/icnsim/topology/grid"
)

// TestHARVariants: Duato's extended check accepts hybrid-har and har-dor
// on meshes and tori with the variant that lets long messages use C2 as
// well (the original DAR); it rejects, with a printed cycle, a lower
// network that routes adaptively on C1, under wormhole a C2 that is not
// allocated atomically (accepted under virtual cut-through), and a
// routing that forgets C1 for short messages in the lower network (its
// escape sub-function offers what the routing does not).
func TestHARVariants(t *testing.T) {
	ctx := context.Background()
	type net struct {
		k    int
		wrap bool
		name string
		vcs  int
	}
	var nets []net
	for _, k := range []int{5, 8} {
		nets = append(nets, net{k, false, "hybrid-har", 3}, net{k, false, "hybrid-har", 4}, net{k, false, "har-dor", 4}, net{k, true, "hybrid-har", 4}, net{k, true, "hybrid-har", 5})
	}
	for _, c := range nets {
		g := routingtest.HARTopology(t, c.k, c.wrap, c.name)
		rf, err := routing.New(routingNamed(c.name), g, c.vcs)
		if err != nil {
			t.Fatal(err)
		}
		h := rf.(*grid.HAR)
		h.SetVariant(true, false)
		if err := Check(ctx, g, h, c.vcs, true); err != nil {
			t.Errorf("%s with long messages on C2 (DAR) on %s: %v", c.name, g, err)
		}
	}
	g := routingtest.HARTopology(t, 6, false, "hybrid-har")
	rf, _ := routing.New(routingNamed("hybrid-har"), g, 4)
	h := rf.(*grid.HAR)
	h.SetVariant(false, true)
	err := Check(ctx, g, h, 4, true)
	if err == nil || !strings.Contains(err.Error(), "channel dependency cycle") || strings.Count(err.Error(), " -> ") < 2 {
		t.Fatalf("adaptive C1: got %v, want a printed cycle", err)
	}
	t.Logf("adaptive C1 rejected: %v", err)
	h.SetVariant(false, false)
	if err := Check(ctx, g, &nonAtomic{h}, 4, true); err == nil || !strings.Contains(err.Error(), "atomically") {
		t.Fatalf("C2 not atomic under wormhole: got %v", err)
	}
	if err := Check(ctx, g, &nonAtomic{h}, 4, false); err != nil {
		t.Fatalf("C2 not atomic under virtual cut-through: %v", err)
	}
	if err := Check(ctx, g, &noShortEscape{h}, 4, true); err == nil || !strings.Contains(err.Error(), "does not") {
		t.Fatalf("short messages without C1: got %v", err)
	}
}
