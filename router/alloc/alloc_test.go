package alloc

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

func TestPick(t *testing.T) {
	keys := [64]uint64{5, 3, 3, 9, 3}
	for _, c := range []struct {
		req  uint64
		keys *[64]uint64
		next uint8
		want int
	}{
		{0b1011, nil, 0, 0},
		{0b1011, nil, 1, 1},
		{0b1011, nil, 2, 3},
		{0b1011, nil, 4, 0},  // round to the lowest
		{0b1011, nil, 64, 0}, // 64 is past the last
		{0b11111, &keys, 0, 1},
		{0b11111, &keys, 2, 2},
		{0b11111, &keys, 3, 4}, // 1, 2, 4 tie at 3; first at or after 3
		{0b11111, &keys, 5, 1},
		{0b01001, &keys, 0, 0}, // 5 < 9
	} {
		if got := Pick(c.req, c.keys, c.next); got != c.want {
			t.Errorf("Pick(%b, keyed %v, %d) = %d, want %d", c.req, c.keys != nil, c.next, got, c.want)
		}
	}
}

func TestParse(t *testing.T) {
	for _, n := range ArbitrationNames() {
		if a, err := ParseArbitration(n); err != nil || a.String() != n {
			t.Errorf("ParseArbitration(%q) = %v, %v", n, a, err)
		}
	}
	for _, n := range AllocatorNames() {
		if a, err := ParseAllocator(n); err != nil || a.String() != n {
			t.Errorf("ParseAllocator(%q) = %v, %v", n, a, err)
		}
	}
	if a, err := ParseAllocator(""); err != nil || a != SeparableInputFirst {
		t.Errorf(`ParseAllocator("") = %v, %v; want the default`, a, err)
	}
	if _, err := ParseArbitration("oldest"); err == nil {
		t.Error(`ParseArbitration("oldest") accepted`)
	}
}

// matchOf runs one allocation and returns input -> output (-1 unmatched).
func matchOf(m *Matcher, reqs []uint64, key []uint64) []int {
	var inputs uint64
	for i, r := range reqs {
		m.Ask(i, r)
		if r != 0 {
			inputs |= 1 << i
		}
	}
	got := m.Match(inputs, key)
	out := make([]int, len(reqs))
	for i := range out {
		out[i] = -1
		if got>>i&1 != 0 {
			out[i] = m.Output(i)
		}
	}
	return out
}

// TestScriptedAllocations: each allocator's rule on request matrices
// worked by hand, over successive allocations (the pointers and the
// wavefront's diagonal carry over).
func TestScriptedAllocations(t *testing.T) {
	// Inputs 0..2 each request outputs 0 and 1; input 3 requests output 2.
	full := []uint64{0b011, 0b011, 0b011, 0b100}
	for _, c := range []struct {
		name  string
		kind  Allocator
		iters int
		req   []uint64
		key   []uint64
		want  [][]int // per allocation
	}{
		// Input-first: every input picks its first output (pointers at
		// 0), so inputs 0..2 all pick output 0, which grants input 0.
		// Then input 0's pointer is past output 0 (it picks 1) and output
		// 0's past input 0 (it grants 1 of 1 and 2). Then input 0's
		// pointer (2) wraps to output 0, input 1's is at 1, input 2's at 0:
		// output 0 (pointer 2) grants input 2, output 1 input 1.
		{"input-first", SeparableInputFirst, 1, full, nil, [][]int{{0, -1, -1, 2}, {1, 0, -1, 2}, {-1, 1, 0, 2}}},
		// Output-first: outputs 0 and 1 both grant input 0 (pointers at
		// 0), which accepts output 0; output 1's pointer does not move.
		// Next: output 0 grants 1, output 1 grants 0; both accepted. Then
		// output 0 (pointer 2) grants 2, output 1 (pointer 1) grants 1.
		{"output-first", SeparableOutputFirst, 1, full, nil, [][]int{{0, -1, -1, 2}, {1, 0, -1, 2}, {-1, 1, 0, 2}}},
		// iSLIP, one round: as output-first in round one.
		{"islip1", ISLIP, 1, full, nil, [][]int{{0, -1, -1, 2}, {1, 0, -1, 2}, {-1, 1, 0, 2}}},
		// iSLIP, two rounds: in the first allocation round two matches
		// output 1 to input 1 (grant pointer 0: the first of 1 and 2),
		// and the pointers do not move for it, so the next allocations
		// are the one-round ones.
		{"islip2", ISLIP, 2, full, nil, [][]int{{0, 1, -1, 2}, {1, 0, -1, 2}, {-1, 1, 0, 2}}},
		// Wavefront over 4x4, diagonals i+o = s mod 4 from s = 0 (o in
		// order): s=0 grants (0,0); s=1 (3,2); s=2 (1,1). Next from s=1:
		// (1,0), (0,1), (3,2). Next from s=2: (2,0), (1,1), then (3,2)
		// on s=5.
		{"wavefront", Wavefront, 1, full, nil, [][]int{{0, 1, -1, 2}, {1, 0, -1, 2}, {-1, 1, 0, 2}}},
		// Keyed input-first, keys static: input 2's requests are the
		// least (oldest), then input 1's, then 0's. All pick output 0
		// first, which grants 2. Next input 2 picks output 1 (its pointer
		// moved), granted; output 0 grants 1 over 0. Next input 1 picks 1
		// and 2 picks 0: 0 starves while older requests come.
		{"input-first keyed", SeparableInputFirst, 1, full, []uint64{
			5, 5, 0, 0,
			4, 4, 0, 0,
			1, 1, 0, 0,
			0, 0, 7, 0}, [][]int{{-1, -1, 0, 2}, {-1, 0, 1, 2}, {-1, 1, 0, 2}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := NewMatcher(c.kind, 4, c.iters)
			for k, want := range c.want {
				if got := matchOf(m, c.req, c.key); fmt.Sprint(got) != fmt.Sprint(want) {
					t.Fatalf("allocation %d: %v, want %v", k, got, want)
				}
			}
		})
	}
}

// checkMatching fails unless match is a matching of req: each input to
// one output it requests, each output to at most one input.
func checkMatching(t *testing.T, req []uint64, match []int) {
	t.Helper()
	var used uint64
	for i, o := range match {
		if o < 0 {
			continue
		}
		if req[i]>>o&1 == 0 {
			t.Fatalf("input %d matched to output %d, which it did not request (%b)", i, o, req[i])
		}
		if used>>o&1 != 0 {
			t.Fatalf("output %d matched twice: %v", o, match)
		}
		used |= 1 << o
	}
}

// maximal reports whether no unmatched input requests an unmatched output.
func maximal(req []uint64, match []int) bool {
	var used uint64
	for _, o := range match {
		if o >= 0 {
			used |= 1 << o
		}
	}
	for i, o := range match {
		if o < 0 && req[i]&^used != 0 {
			return false
		}
	}
	return true
}

// TestMatchingsOnRandomRequests: every allocator gives a matching of
// random request matrices; wavefront and iSLIP with as many rounds as
// ports give a maximal one; separable allocators match at least one input
// whenever there is a request.
func TestMatchingsOnRandomRequests(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for _, P := range []int{1, 2, 5, 8, 64} {
		for _, kind := range []Allocator{SeparableInputFirst, SeparableOutputFirst, ISLIP, Wavefront} {
			m := NewMatcher(kind, P, P)
			for trial := 0; trial < 300; trial++ {
				req := make([]uint64, P)
				var key []uint64
				if trial%2 == 1 {
					key = make([]uint64, P*P)
					for k := range key {
						key[k] = rng.Uint64N(4)
					}
				}
				any := false
				for i := range req {
					if rng.IntN(3) > 0 {
						req[i] = rng.Uint64() & (^uint64(0) >> (64 - P))
						any = any || req[i] != 0
					}
				}
				match := matchOf(m, req, key)
				checkMatching(t, req, match)
				n := 0
				for _, o := range match {
					if o >= 0 {
						n++
					}
				}
				if any && n == 0 {
					t.Fatalf("%v P=%d: requests %v, nothing matched", kind, P, req)
				}
				if (kind == ISLIP || kind == Wavefront) && !maximal(req, match) {
					t.Fatalf("%v P=%d: requests %v, matching %v is not maximal", kind, P, req, match)
				}
			}
		}
	}
}

// TestISLIPDesynchronises: under every input requesting every output,
// one-round iSLIP's pointers fall out of step after at most P allocations
// and it then matches every port in every allocation (McKeown 1999), where
// separable input-first with round-robin pointers keeps matching fewer.
func TestISLIPDesynchronises(t *testing.T) {
	const P = 8
	req := make([]uint64, P)
	for i := range req {
		req[i] = 1<<P - 1
	}
	m := NewMatcher(ISLIP, P, 1)
	for k := 0; k < 3*P; k++ {
		n := 0
		for _, o := range matchOf(m, req, nil) {
			if o >= 0 {
				n++
			}
		}
		if k >= P && n != P {
			t.Fatalf("allocation %d matched %d of %d ports", k, n, P)
		}
	}
}

func TestNewMatcherRejects(t *testing.T) {
	for _, c := range []struct {
		kind  Allocator
		ports int
	}{{ISLIP, 0}, {ISLIP, 65}, {Wavefront + 1, 4}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("NewMatcher(%v, %d) did not panic", c.kind, c.ports)
				}
			}()
			NewMatcher(c.kind, c.ports, 1)
		}()
	}
}

// TestWeightedShare: classes requesting all along are served in
// proportion to their weights, in the order start-time fair queueing
// gives (ties to the lower class); a class that was idle starts at the
// virtual time with no credit banked; units count (a packet of 4 flits
// costs 4 flits' turns).
func TestWeightedShare(t *testing.T) {
	for _, c := range []struct {
		name    string
		weights []int
		units   []uint64 // per class; 1 when nil
		present []uint8  // the requesting classes at each pick
		want    string   // the classes served
	}{
		// Costs 1 and 3; tags (F0, F1, V) after each pick: (1,0,0) (1,3,0)
		// (2,3,1) (3,3,2) (4,3,3) (4,6,3) (5,6,4) (6,6,5).
		{"3:1", []int{3, 1}, nil, repeatMask(0b11, 8), "01000100"},
		{"1:1", []int{1, 1}, nil, repeatMask(0b11, 6), "010101"},
		// Costs 2, 1, 2: class 1 every other pick, 0 and 2 in turn between.
		{"1:2:1", []int{1, 2, 1}, nil, repeatMask(0b111, 8), "01210121"},
		{"lone class", []int{3, 1}, nil, repeatMask(0b10, 4), "1111"},
		// Class 0 requests alone for 4 picks (F0 = 4, V = 3), then class 1
		// joins at the virtual time (start 3) and the two alternate: class
		// 1 banked no credit for its idle spell (it would have taken the
		// next four picks had it kept F1 = 0).
		{"returning class", []int{1, 1}, nil, append(repeatMask(0b01, 4), repeatMask(0b11, 4)...), "00001010"},
		{"packets of 4 flits against 1", []int{1, 1}, []uint64{4, 1}, repeatMask(0b11, 10), "0111101111"},
	} {
		t.Run(c.name, func(t *testing.T) {
			cost := ShareCosts(c.weights)
			var w WeightedShare
			got := ""
			for _, p := range c.present {
				k := w.Next(p)
				if p>>k&1 == 0 {
					t.Fatalf("served class %d, not among %b", k, p)
				}
				u := uint64(1)
				if c.units != nil {
					u = c.units[k]
				}
				w.Served(k, u, cost[k])
				got += fmt.Sprint(k)
			}
			if got != c.want {
				t.Fatalf("served %s, want %s", got, c.want)
			}
		})
	}
}

func repeatMask(m uint8, n int) []uint8 {
	out := make([]uint8, n)
	for i := range out {
		out[i] = m
	}
	return out
}

// TestWeightedShareLongRun: over many picks the shares match the weights
// to within one pick per class, and the tags' renumbering near overflow
// changes no decision.
func TestWeightedShareLongRun(t *testing.T) {
	weights := []int{7, 2, 100, 1}
	cost := ShareCosts(weights)
	var a, b WeightedShare
	b.virtual, b.finish = 1<<62-12345, [MaxShareClasses]uint64{1<<62 - 12345, 1<<62 - 12345, 1<<62 - 12345, 1<<62 - 12345}
	served := [MaxShareClasses]int{}
	const picks = 110 * 1000
	for i := range picks {
		ka, kb := a.Next(0b1111), b.Next(0b1111)
		if ka != kb {
			t.Fatalf("pick %d: class %d from tags near 0, %d from tags near 2^62", i, ka, kb)
		}
		a.Served(ka, 1, cost[ka])
		b.Served(kb, 1, cost[kb])
		served[ka]++
	}
	for k, w := range weights {
		want := picks * w / 110
		if d := served[k] - want; d < -1 || d > 1 {
			t.Errorf("class %d (weight %d) served %d of %d, want %d", k, w, served[k], picks, want)
		}
	}
	if got, err := ParseShare("weighted"); err != nil || got != ShareWeighted {
		t.Errorf("ParseShare(weighted) = %v, %v", got, err)
	}
	if _, err := ParseShare("fair"); err == nil {
		t.Error("ParseShare(fair) accepted")
	}
}
