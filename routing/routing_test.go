package routing

import (
	"testing"

	"github.com/icnsim/icnsim/link"
)

func TestClassMask(t *testing.T) {
	for _, c := range []struct {
		vcs, classes, class int
		want                uint64
	}{
		{6, 3, 0, 0b001001}, {6, 3, 2, 0b100100}, {7, 3, 0, 0b1001001},
		{2, 3, 2, 0b01}, // fewer VCs than classes: class c on VC c mod vcs
		{64, 1, 0, ^uint64(0)},
	} {
		if got := ClassMask(c.vcs, c.classes, c.class); got != c.want {
			t.Errorf("ClassMask(%d, %d, %d) = %b, want %b", c.vcs, c.classes, c.class, got, c.want)
		}
	}
	if AllVCs(3) != 0b111 || AllVCs(64) != ^uint64(0) {
		t.Errorf("AllVCs(3) = %b, AllVCs(64) = %x", AllVCs(3), AllVCs(64))
	}
}

// TestCandidatesLevels: Add keeps the current preference level and
// AddFallback opens the next; Ports is the union of every group's.
func TestCandidatesLevels(t *testing.T) {
	var c Candidates
	c.Add(0b0011, 1)
	c.Add(0b0100, 2)
	c.AddFallback(0b1000, 4)
	c.Add(0b0001, 8)
	if c.N != 4 || c.Level != [MaxGroups]uint8{0, 0, 1, 1} || c.Ports() != 0b1111 {
		t.Fatalf("N %d, levels %v, ports %b", c.N, c.Level, c.Ports())
	}
	defer func() {
		if recover() == nil {
			t.Error("a fifth group did not panic")
		}
	}()
	c.Add(1, 1)
}

// TestDrawIsAFunctionOfThePacket: the draw depends on the packet's source,
// sequence number and salt only, and Pick stays below n.
func TestDrawIsAFunctionOfThePacket(t *testing.T) {
	a := link.Flit{Src: 3, Seq: 9, Dst: 1, Hops: 2}
	b := link.Flit{Src: 3, Seq: 9, Dst: 7, Hops: 5, VC: 2}
	if Draw(&a, SaltFirst) != Draw(&b, SaltFirst) {
		t.Error("the draw depends on more than source, sequence number and salt")
	}
	if Draw(&a, SaltFirst) == Draw(&a, SaltSecond) {
		t.Error("the two salts give the same draw")
	}
	for seq := range uint32(1000) {
		f := link.Flit{Src: 1, Seq: seq}
		if p := Pick(Draw(&f, SaltFirst), 7); p < 0 || p >= 7 {
			t.Fatalf("Pick = %d, outside 0..6", p)
		}
	}
}

// maskQueues records the VC masks it is asked about.
type maskQueues struct{ masks []uint64 }

func (m *maskQueues) QueueFlits(p int) int { return m.QueueFlitsOn(p, ^uint64(0)) }
func (m *maskQueues) QueueFlitsOn(_ int, vcs uint64) int {
	m.masks = append(m.masks, vcs)
	return 0
}
func (m *maskQueues) CreditFlitsOn(p int, vcs uint64) int { return m.QueueFlitsOn(p, vcs) }

// TestNetworkQueues: a virtual network's view of a router's queues reads
// its own block of VCs, all of it for QueueFlits and the inner mask moved
// into it for QueueFlitsOn and CreditFlitsOn.
func TestNetworkQueues(t *testing.T) {
	for _, c := range []struct {
		base, per   int
		all, twoOne uint64
	}{{0, 2, 0b0011, 0b0010}, {2, 2, 0b1100, 0b1000}, {3, 3, 0b111000, 0b010000}} {
		q := &maskQueues{}
		v := &netQueues{q: q, base: c.base, per: c.per}
		v.QueueFlits(0)
		v.QueueFlitsOn(0, 0b10)
		v.CreditFlitsOn(0, 0b10)
		if q.masks[0] != c.all || q.masks[1] != c.twoOne || q.masks[2] != c.twoOne {
			t.Errorf("base %d, %d VCs: masks %b, want %b and %b (twice)", c.base, c.per, q.masks, c.all, c.twoOne)
		}
	}
}
