package dragonfly

import (
	"fmt"
	"strings"
	"testing"

	"github.com/icnsim/icnsim/link"
	"github.com/icnsim/icnsim/routing"
)

// creditQueues is a router's queues as a test sets them: used credits per
// output port (CreditFlitsOn), and nothing waiting.
type creditQueues map[int]int

func (q creditQueues) QueueFlits(int) int                { return 0 }
func (q creditQueues) QueueFlitsOn(int, uint64) int      { return 0 }
func (q creditQueues) CreditFlitsOn(p int, _ uint64) int { return q[p] }

// bookSimPath follows packet f from its source router under
// ugal-l-booksim, the source router's first hops seeing the used credits
// q (every other router empty queues), and returns each hop as
// "port/class" ("L" local, "G" global, "E" the sink) and the routers it
// visited.
func bookSimPath(t *testing.T, d *dragonflyRouting, f link.Flit, q creditQueues) (hops string, routers []int) {
	t.Helper()
	r, in := int(f.Src)/d.t.P, int(f.Src)%d.t.P
	for range 12 {
		routers = append(routers, r)
		var c routing.Candidates
		queues := routing.Queues(creditQueues{})
		if len(routers) == 1 {
			queues = q
		}
		d.Choose(r, in, &f, &c, queues, 0)
		if c.N != 1 || c.G[0].Ports&(c.G[0].Ports-1) != 0 {
			t.Fatalf("at router %d: %d groups, ports %b: not one port", r, c.N, c.G[0].Ports)
		}
		p := routing.TrailingZeros(c.G[0].Ports)
		if p < d.lp0 {
			return hops + "E", routers
		}
		cls := -1
		for k := 0; k < bookSimClasses; k++ {
			if c.G[0].VCs == d.class[k] {
				cls = k
			}
		}
		kind := "L"
		if d.t.IsGlobal(p) {
			kind = "G"
		}
		hops += fmt.Sprintf("%s%d ", kind, cls)
		f.VC = uint8(cls) // the VC of its class (3 VCs)
		peer := d.t.Peer(r, p)
		r, in = peer.Router, peer.Port
	}
	t.Fatalf("packet %d->%d not delivered in 12 hops: %s", f.Src, f.Dst, hops)
	return "", nil
}

// TestBookSimUGAL: ugal-l-booksim's rule and phases on a 72-node
// dragonfly (2 nodes a router, 4 routers a group, 9 groups), hop by hop.
// At the source router, with the minimal first port's used credits
// q_min and the non-minimal one's q_non: minimal when q_min <= 2*q_non +
// 30 (90 against 30: minimal, a tie; 91: Valiant's path). Minimal: a
// local hop in phase 1 (when the source router does not own the link),
// the global hop and all after it in phase 2. Valiant's: phase 0 to the
// intermediate node's router (into its group and on to it), then phase 1
// to the gateway, phase 2 from the global hop. An intermediate in the
// source group, or a destination there, is minimal whatever the queues
// (phase 1; phase 2 within the group).
func TestBookSimUGAL(t *testing.T) {
	df, err := NewDragonfly(2, 4, 2, 9, Palmtree, 0)
	if err != nil {
		t.Fatal(err)
	}
	d := newDragonflyRouting(df, 3, routing.ModeUGALLBookSim)
	PA := df.P * df.A
	// A packet from node 0 to group 5 whose intermediate router is in
	// neither, and not the router it enters its group by.
	f := link.Flit{Src: 0, Dst: int32(5*PA + 3), Size: 4}
	var ri int
	for f.Seq = 0; ; f.Seq++ {
		ri = d.bookSimIntermediate(&f)
		if g := ri / df.A; g != 0 && g != 5 && ri != d.entry(0, g, d.bookSimCopy(&f)) {
			break
		}
	}
	dst := int(f.Dst)
	pMin, pNon := d.firstHop(0, 5, dst%d.copies, dst), d.bookSimToward(0, ri, d.bookSimCopy(&f))
	if pMin == pNon {
		t.Fatalf("intermediate router %d: both paths leave by port %d", ri, pMin)
	}
	minimal, _ := bookSimPath(t, d, f, creditQueues{pMin: 90, pNon: 30})
	valiant, via := bookSimPath(t, d, f, creditQueues{pMin: 91, pNon: 30})
	t.Logf("0->%d (intermediate router %d): minimal %s, Valiant %s through routers %v", dst, ri, minimal, valiant, via)
	// Minimal: a local hop in phase 1 where the source router does not
	// own the link, the global hop in phase 2, a local hop in phase 2
	// where the landing router is not the destination's.
	wantMin := "G2 "
	if !df.IsGlobal(pMin) {
		wantMin = "L1 G2 "
	}
	if minimal != wantMin+"E" && minimal != wantMin+"L2 E" {
		t.Errorf("minimal path %q, want %q then the sink, directly or by a local hop in phase 2", minimal, wantMin)
	}
	// Valiant's: phase 0 up to and into the intermediate router, then 1
	// for the local hops to the gateway, 2 from the global hop on.
	phase, seen := 0, false
	for i, h := range strings.Fields(valiant) {
		if via[i] == ri {
			seen, phase = true, 1
		}
		switch {
		case h == "E":
		case h[0] == 'G' && phase >= 1:
			phase = 2
			fallthrough
		default:
			if int(h[1]-'0') != phase {
				t.Errorf("Valiant's path %s: hop %d (%s) at router %d in phase %d", valiant, i, h, via[i], phase)
			}
		}
	}
	if !seen {
		t.Errorf("Valiant's path %s through routers %v skips the intermediate router %d", valiant, via, ri)
	}
	// An intermediate in the source group: minimal, whatever the queues.
	for f.Seq = 0; d.bookSimIntermediate(&f)/df.A != 0; f.Seq++ {
	}
	if got, _ := bookSimPath(t, d, f, creditQueues{pMin: 1000}); got != minimal {
		t.Errorf("intermediate in the source group: %s, want the minimal %s", got, minimal)
	}
	// A destination in the source group: phase 2.
	f.Dst = int32(PA - 1)
	if got, _ := bookSimPath(t, d, f, creditQueues{}); got != "L2 E" {
		t.Errorf("within the group: %s, want L2 E", got)
	}
}
