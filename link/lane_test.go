package link

import (
	"math/bits"
	"testing"

	"github.com/icnsim/icnsim/clock"
)

func TestLaneDelay(t *testing.T) {
	for _, lat := range []int{1, 2, 3, 4, 7} {
		l := NewLane[int]("test", lat)
		// Send on every third cycle; each value must appear exactly lat cycles later.
		for c := clock.Cycle(0); c < 40; c++ {
			if c%3 == 0 {
				l.Send(c, int(c))
			}
			got := l.Recv(c)
			want := c - clock.Cycle(lat)
			if want >= 0 && want%3 == 0 {
				if got == nil || *got != int(want) {
					t.Fatalf("latency %d, cycle %d: got %v, want %d", lat, c, got, want)
				}
			} else if got != nil {
				t.Fatalf("latency %d, cycle %d: got %d, want nothing", lat, c, *got)
			}
		}
	}
}

func TestLaneDoubleSendPanics(t *testing.T) {
	l := NewLane[int]("R(0,0).E->R(1,0).W", 1)
	l.Send(5, 1)
	defer func() {
		if recover() == nil {
			t.Fatal("second send in one cycle did not panic")
		}
	}()
	l.Send(5, 2)
}

func TestControlSteal(t *testing.T) {
	data := NewLane[Flit]("d", 1)
	steal := NewControl[int]("c", 1, Steal, data)
	ded := NewControl[int]("c2", 1, Dedicated, data)
	data.Send(3, Flit{})
	if steal.TrySend(3, 7) {
		t.Fatal("steal lane sent in a cycle in which the data lane carried a flit")
	}
	if !ded.TrySend(3, 7) {
		t.Fatal("dedicated lane refused to send")
	}
	if !steal.TrySend(4, 8) {
		t.Fatal("steal lane refused an idle cycle")
	}
	if v := steal.Recv(5); v == nil || *v != 8 {
		t.Fatalf("steal lane delivered %v, want 8 at cycle 5", v)
	}
}

func TestWireLatencies(t *testing.T) {
	// Three wires of one arena: the middle one carries, its neighbours
	// stay silent (each wire's ring is its own).
	ws := NewWires(3, 2, 5)
	for c := clock.Cycle(0); c < 30; c++ {
		if c%4 == 0 {
			ws.SendFlit(1, c, Flit{Seq: uint32(c)})
			ws.SendCredit(1, c, Credit{VC: uint16(c)})
		}
		for _, other := range []int{0, 2} {
			if f, _, hasCredit := ws.Recv(other, c); f != nil || hasCredit {
				t.Fatalf("cycle %d: wire %d received %v, %v", c, other, f, hasCredit)
			}
		}
		f, cr, hasCredit := ws.Recv(1, c)
		if want := c - 2; want >= 0 && want%4 == 0 {
			if f == nil || f.Seq != uint32(want) {
				t.Fatalf("cycle %d: flit %v, want seq %d", c, f, want)
			}
		} else if f != nil {
			t.Fatalf("cycle %d: unexpected flit %v", c, f)
		}
		if want := c - 5; want >= 0 && want%4 == 0 {
			if !hasCredit || cr.VC != uint16(want) {
				t.Fatalf("cycle %d: credit %v, want %d", c, cr, want)
			}
		} else if hasCredit {
			t.Fatalf("cycle %d: unexpected credit %v", c, cr)
		}
	}
}

// TestWiresExtraRings: wires of one arena with extra cycles of their own
// each deliver after their own latency, however long their neighbours',
// count what is in transit on their own rings, and hold rings of their
// own size (a long wire does not lengthen the others').
func TestWiresExtraRings(t *testing.T) {
	extra := []int32{0, 3, 0, 100, 7}
	const flitLat, creditLat = 2, 1
	ws := NewWiresExtra(len(extra), flitLat, creditLat, extra)
	for w, e := range extra {
		if got := ws.ExtraCycles(w); got != int(e) {
			t.Errorf("wire %d: ExtraCycles %d, want %d", w, got, e)
		}
	}
	var want int64
	for _, e := range extra {
		want += RingBytes(flitLat, creditLat, int(e))
	}
	if got := int64(ws.Bytes()); got != want {
		t.Errorf("arena of %v extra cycles holds %d bytes, want %d (each ring its own size)", extra, got, want)
	}
	if uniform := int64(len(extra) * RingSlots(flitLat, creditLat, 100) * int(WireSlotBytes)); int64(ws.Bytes()) >= uniform/2 {
		t.Errorf("arena holds %d bytes, not under half of %d (every ring as long as the longest)", ws.Bytes(), uniform)
	}
	const period = 3 // wire w sends a flit and a credit every period cycles, starting at cycle w
	for c := clock.Cycle(0); c < 400; c++ {
		for w := range extra {
			if c >= clock.Cycle(w) && (c-clock.Cycle(w))%period == 0 {
				ws.SendFlit(w, c, Flit{Seq: uint32(c), Dst: int32(w)})
				ws.SendCredit(w, c, Credit{VC: uint16(c)})
			}
		}
		for w, e := range extra {
			f, cr, hasCredit := ws.Recv(w, c)
			sentF, sentC := c-clock.Cycle(flitLat)-clock.Cycle(e), c-clock.Cycle(creditLat)-clock.Cycle(e)
			if sentF >= clock.Cycle(w) && (sentF-clock.Cycle(w))%period == 0 {
				if f == nil || f.Seq != uint32(sentF) || f.Dst != int32(w) {
					t.Fatalf("cycle %d: wire %d delivered %+v, want the flit of cycle %d", c, w, f, sentF)
				}
			} else if f != nil {
				t.Fatalf("cycle %d: wire %d delivered an unexpected flit %+v", c, w, f)
			}
			if sentC >= clock.Cycle(w) && (sentC-clock.Cycle(w))%period == 0 {
				if !hasCredit || cr.VC != uint16(sentC) {
					t.Fatalf("cycle %d: wire %d credit %v %v, want that of cycle %d", c, w, cr, hasCredit, sentC)
				}
			} else if hasCredit {
				t.Fatalf("cycle %d: wire %d delivered an unexpected credit %v", c, w, cr)
			}
		}
		if c == 200 {
			// Paused after the readers' cycle c: what they have not taken.
			for w, e := range extra {
				// Sent in cycles c-L+1..c, L its latency: one every period cycles.
				flits := make([]int32, 1<<16)
				ws.CountInTransit(w, c+1, flits, nil)
				n := 0
				for s := c - clock.Cycle(flitLat) - clock.Cycle(e) + 1; s <= c; s++ {
					if s >= clock.Cycle(w) && (s-clock.Cycle(w))%period == 0 {
						n++
					}
				}
				total := int32(0)
				for _, k := range flits {
					total += k
				}
				if int(total) != n {
					t.Errorf("cycle %d: wire %d has %d flits in transit, want %d", c, w, total, n)
				}
			}
		}
	}
}

// isOne is 1 for true and 0 for false.
func isOne(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// TestPollMask: a poll of several wires at once reports what Poll reports
// of each, on an arena of alike wires and on one with a ring per wire,
// for sets of ports with gaps, the first and the last wire included.
func TestPollMask(t *testing.T) {
	for _, ws := range []*Wires{NewWires(12, 1, 2), NewWiresExtra(12, 1, 2, []int32{0, 5, 0, 0, 9, 0, 1, 0, 0, 30, 0, 2})} {
		for c := clock.Cycle(0); c < 200; c++ {
			for w := range 12 {
				if (int(c)+w)%3 == 0 {
					ws.SendFlit(w, c, Flit{Seq: uint32(c)})
				}
				if (int(c)*7+w)%5 == 0 {
					ws.SendCredit(w, c, Credit{VC: 1})
				}
			}
			for _, first := range []int{0, 2} {
				for _, ports := range []uint64{0, 1, 0b1011, 0b1000_0000_01, 0b11_1111_1111} {
					flits, credits := ws.PollMask(first, ports, c)
					var wantF, wantC uint64
					for p := 0; p < 10; p++ {
						if ports>>p&1 == 0 {
							continue
						}
						_, _, hasFlit, hasCredit := ws.Poll(first+p, c)
						wantF |= isOne(hasFlit) << p
						wantC |= isOne(hasCredit) << p
					}
					if flits != wantF || credits != wantC {
						t.Fatalf("cycle %d, wires from %d, ports %b: flits %b credits %b, want %b %b", c, first, ports, flits, credits, wantF, wantC)
					}
				}
			}
			// The readers take what they saw (wires 0 and 1 by themselves,
			// the rest as a router's ports take what its poll reports), so
			// the writers can send again.
			for w := range 2 {
				ws.Take(w, c)
			}
			flits, credits := ws.PollMask(2, 0b11_1111_1111, c)
			for ; flits != 0; flits &= flits - 1 {
				ws.TakeFlit(2+bits.TrailingZeros64(flits), c)
			}
			for ; credits != 0; credits &= credits - 1 {
				ws.TakeCredit(2+bits.TrailingZeros64(credits), c)
			}
			for w := range 12 {
				if _, _, hasFlit, hasCredit := ws.Poll(w, c); hasFlit || hasCredit {
					t.Fatalf("cycle %d: wire %d still shows what it was taken", c, w)
				}
			}
		}
	}
}
