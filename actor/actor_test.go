package actor

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/icnsim/icnsim/clock"
	"github.com/icnsim/icnsim/link"
)

// ring is a toy actor: each passes a running hash to the next over a lane.
type ring struct {
	name string
	in   *link.Lane[uint64]
	out  *link.Lane[uint64]
	acc  uint64
	bomb clock.Cycle
}

func (r *ring) Name() string { return r.name }

func (r *ring) Tick(now clock.Cycle) {
	if now == r.bomb {
		panic("boom")
	}
	if v := r.in.Recv(now); v != nil {
		r.acc = r.acc*31 + *v
	}
	r.out.Send(now, r.acc+uint64(now))
}

func makeRing(n int, bomb clock.Cycle) ([]Actor, []*ring) {
	lanes := make([]*link.Lane[uint64], n)
	for i := range lanes {
		lanes[i] = link.NewLane[uint64]("l", 1+i%3)
	}
	as := make([]Actor, n)
	rs := make([]*ring, n)
	for i := range as {
		rs[i] = &ring{name: "ring " + string(rune('A'+i)), in: lanes[i], out: lanes[(i+1)%n], acc: uint64(i), bomb: bomb}
		as[i] = rs[i]
	}
	return as, rs
}

func TestExecutorsAgree(t *testing.T) {
	var want []uint64
	for _, c := range []struct {
		kind    Kind
		workers int
	}{{Serial, 1}, {Actors, 0}, {Shards, 1}, {Shards, 2}, {Shards, 3}, {Shards, 7}} {
		as, rs := makeRing(7, -1)
		hooks := 0
		next, err := Run(context.Background(), c.kind, c.workers, Spec{Actors: as, To: 500, Chunk: 16, Hook: func(clock.Cycle) bool { hooks++; return false }})
		if err != nil || next != 500 {
			t.Fatalf("%s/%d: next %d, err %v", c.kind, c.workers, next, err)
		}
		if want := (500 + 15) / 16; hooks != want {
			t.Errorf("%s/%d: hook called %d times, want %d (after every chunk, the last included)", c.kind, c.workers, hooks, want)
		}
		got := make([]uint64, len(rs))
		for i, r := range rs {
			got[i] = r.acc
		}
		if want == nil {
			want = got
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("%s/%d: actor %d state %x, serial %x", c.kind, c.workers, i, got[i], want[i])
			}
		}
	}
}

func TestPanicBecomesError(t *testing.T) {
	for _, k := range Kinds() {
		as, _ := makeRing(5, 42)
		_, err := Run(context.Background(), k, 2, Spec{Actors: as, To: 100, Chunk: 8})
		var pe *PanicError
		if !errors.As(err, &pe) || pe.Cycle != 42 || !strings.HasPrefix(pe.Actor, "ring ") || !strings.Contains(err.Error(), "boom") {
			t.Fatalf("%s: got %v, want a panic error at cycle 42 naming the actor", k, err)
		}
	}
}

func TestCancelStops(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	as, _ := makeRing(4, -1)
	next, err := Run(ctx, Shards, 2, Spec{Actors: as, To: 1 << 40, Chunk: 10, Hook: func(n clock.Cycle) bool {
		if n == 100 {
			cancel()
		}
		return false
	}})
	if !errors.Is(err, context.Canceled) || next < 100 || next > 110 {
		t.Fatalf("next %d, err %v; want cancellation between 100 and 110", next, err)
	}
}

// TestCancelStopsWithinAChunk: a cancelled context stops a run within a
// cycle or so, even when its chunks are long (a cycle of a very large
// network is slow, and a chunk of them would take minutes).
func TestCancelStopsWithinAChunk(t *testing.T) {
	for _, k := range Kinds() {
		ctx, cancel := context.WithCancel(context.Background())
		as, _ := makeRing(6, -1)
		time.AfterFunc(20*time.Millisecond, cancel)
		start := time.Now()
		next, err := Run(ctx, k, 2, Spec{Actors: as, To: 1 << 40, Chunk: 1 << 30})
		if !errors.Is(err, context.Canceled) || time.Since(start) > time.Second {
			t.Fatalf("%s: stopped after %v at cycle %d with %v; want context.Canceled within a second", k, time.Since(start), next, err)
		}
	}
}

func TestPartition(t *testing.T) {
	units := []int{0, 3, 6, 9, 12}
	for _, c := range []struct {
		w    int
		want [][2]int
	}{
		{1, [][2]int{{0, 15}}},
		{2, [][2]int{{0, 6}, {6, 15}}},
		{3, [][2]int{{0, 6}, {6, 9}, {9, 15}}},
		{5, [][2]int{{0, 3}, {3, 6}, {6, 9}, {9, 12}, {12, 15}}},
		{9, [][2]int{{0, 3}, {3, 6}, {6, 9}, {9, 12}, {12, 15}}},
	} {
		got := Partition(15, units, c.w)
		if len(got) != len(c.want) {
			t.Fatalf("w=%d: %v, want %v", c.w, got, c.want)
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Fatalf("w=%d: %v, want %v", c.w, got, c.want)
			}
		}
	}
}

// TestPanicInFirstActor: a panic in the actor that participant 0 (the
// calling goroutine) ticks must still release every other goroutine.
func TestPanicInFirstActor(t *testing.T) {
	for _, k := range Kinds() {
		as, rs := makeRing(9, -1)
		rs[0].bomb = 17
		_, err := Run(context.Background(), k, 3, Spec{Actors: as, To: 100, Chunk: 4})
		var pe *PanicError
		if !errors.As(err, &pe) || pe.Cycle != 17 || pe.Actor != "ring A" {
			t.Fatalf("%s: got %v", k, err)
		}
	}
}
