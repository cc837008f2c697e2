package fabric

import (
	"testing"

	"github.com/icnsim/icnsim/clock"
	"github.com/icnsim/icnsim/link"
)

// TestSourceQueueIsFIFOAcrossGrowth pushes and pops in an interleaving that
// wraps the ring and makes it grow, and checks the order, Len, Front and
// Peek; a split queue takes the packets of class 1 and up.
func TestSourceQueueIsFIFOAcrossGrowth(t *testing.T) {
	var q, long SourceQueue
	q.SplitClasses(&long)
	next, want := 0, 0
	for round := range 50 {
		for range round % 7 {
			q.Push(int64ToCycle(next), next, 1+next%5, 0)
			next++
		}
		q.Push(0, -1, 1, 1) // to the split queue
		for range round % 4 {
			if q.Len() == 0 {
				break
			}
			if f, p := q.Front(), q.Peek(0); f.Dst != p.Dst || int(p.Dst) != want {
				t.Fatalf("round %d: front %d, peek %d, want %d", round, f.Dst, p.Dst, want)
			}
			if p := q.Pop(); int(p.Dst) != want || int(p.Size) != 1+want%5 || p.Gen != int64(want) {
				t.Fatalf("round %d: popped %+v, want packet %d", round, p, want)
			}
			want++
		}
		if q.Len() != next-want {
			t.Fatalf("round %d: Len %d, want %d", round, q.Len(), next-want)
		}
	}
	if long.Len() != 50 {
		t.Fatalf("split queue holds %d packets of class 1, want 50", long.Len())
	}
	if q.Bytes() < q.Len()*16 {
		t.Fatalf("Bytes %d for %d packets", q.Bytes(), q.Len())
	}
}

func int64ToCycle(n int) clock.Cycle { return clock.Cycle(n) }

// TestSinkChecks: a reassembly accepts a packet's flits in order only, and
// a flow order the packets of a source in sequence order only.
func TestSinkChecks(t *testing.T) {
	flit := func(src int32, seq uint32, index, size uint16) *link.Flit {
		return &link.Flit{Src: src, Seq: seq, Index: index, Size: size}
	}
	for _, c := range []struct {
		name  string
		flits []*link.Flit
		ok    []bool
	}{
		{"whole packets", []*link.Flit{flit(1, 0, 0, 2), flit(1, 0, 1, 2), flit(2, 5, 0, 1)}, []bool{true, true, true}},
		{"body first", []*link.Flit{flit(1, 0, 1, 2)}, []bool{false}},
		{"another packet between", []*link.Flit{flit(1, 0, 0, 3), flit(2, 0, 1, 3)}, []bool{true, false}},
		{"flit skipped", []*link.Flit{flit(1, 0, 0, 3), flit(1, 0, 2, 3)}, []bool{true, false}},
	} {
		var r Reassembly
		for i, f := range c.flits {
			if got := r.Accept(f); got != c.ok[i] {
				t.Errorf("%s: flit %d accepted %v, want %v (expected %s)", c.name, i, got, c.ok[i], r.Expected())
			}
		}
	}
	o := NewFlowOrder(3)
	for i, c := range []struct {
		src  int32
		seq  uint32
		want bool
	}{{0, 0, true}, {0, 2, true}, {0, 1, false}, {1, 0, true}, {0, 2, false}, {0, 3, true}} {
		if got := o.Accept(c.src, c.seq); got != c.want {
			t.Errorf("flow order step %d (%d/%d): %v, want %v", i, c.src, c.seq, got, c.want)
		}
	}
	if DeliveryCheck(3, 3, 7, 7) != nil || DeliveryCheck(3, 2, 7, 7) == nil || DeliveryCheck(3, 3, 7, 8) == nil {
		t.Error("DeliveryCheck: wrong verdict")
	}
	if PacketHash(1, 2, 3) == PacketHash(1, 3, 2) {
		t.Error("PacketHash does not tell a packet's sequence number from its destination")
	}
}
