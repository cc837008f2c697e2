package workload

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/icnsim/icnsim/clock"
	"github.com/icnsim/icnsim/fabric"
	"github.com/icnsim/icnsim/link"
	"github.com/icnsim/icnsim/topology/dragonfly"
	"github.com/icnsim/icnsim/topology/grid"
)

// TestProgramCheck: a program whose sends and receives do not pair up, in
// order and size, is refused with the rank, the step and what is wrong.
func TestProgramCheck(t *testing.T) {
	send := func(to int, f int64) Op { return Op{Kind: Send, Peer: to, Flits: f} }
	recv := func(from int, f int64) Op { return Op{Kind: Recv, Peer: from, Flits: f} }
	for _, c := range []struct {
		name string
		prog Program
		want string // "" valid
	}{
		{"paired", Program{{send(1, 4), send(1, 2)}, {recv(0, 4), recv(0, 2), {Kind: Wait}}}, ""},
		{"never received", Program{{send(1, 4), send(1, 2)}, {recv(0, 4), {Kind: Wait}}}, "message 1 (2 flits) is never received"},
		{"never answered", Program{{}, {recv(0, 4), {Kind: Wait}}}, "receive 0 (4 flits) is never answered"},
		{"size differs", Program{{send(1, 4)}, {recv(0, 5)}}, "sent with 4 flits, received as 5"},
		{"order differs", Program{{send(1, 4), send(1, 2)}, {recv(0, 2), recv(0, 4)}}, "sent with 4 flits, received as 2"},
		{"to itself", Program{{send(0, 4), recv(0, 4)}}, "does not send to itself"},
		{"outside the job", Program{{send(2, 4)}, {}}, "no rank 2 in a job of 2"},
		{"empty message", Program{{send(1, 0)}, {recv(0, 0)}}, "at least 1 flit"},
		{"negative compute", Program{{{Kind: Compute, Cycles: -1}}}, "compute of -1 cycles"},
	} {
		err := c.prog.Check()
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
}

// criticalSteps is the length of a program's longest chain of messages,
// each depending on the one before through a receive and a wait: with
// every message taking one cycle and nothing else taking any, the
// program's completion time.
func criticalSteps(t *testing.T, prog Program) int {
	t.Helper()
	type pr struct{ from, to int }
	arrival := map[pr][]int{}
	taken := map[pr]int{}
	pc, now := make([]int, len(prog)), make([]int, len(prog))
	var waitFor [][]pr
	var waitIdx [][]int
	waitFor, waitIdx = make([][]pr, len(prog)), make([][]int, len(prog))
	for left := true; left; {
		moved := false
		left = false
		for r, ops := range prog {
		run:
			for pc[r] < len(ops) {
				switch o := ops[pc[r]]; o.Kind {
				case Send:
					arrival[pr{r, o.Peer}] = append(arrival[pr{r, o.Peer}], now[r]+1)
				case Recv:
					k := pr{o.Peer, r}
					waitFor[r], waitIdx[r] = append(waitFor[r], k), append(waitIdx[r], taken[k])
					taken[k]++
				case Wait:
					for i, k := range waitFor[r] {
						if waitIdx[r][i] >= len(arrival[k]) {
							break run
						}
						now[r] = max(now[r], arrival[k][waitIdx[r][i]])
					}
					waitFor[r], waitIdx[r] = nil, nil
				}
				pc[r]++
				moved = true
			}
			left = left || pc[r] < len(ops)
		}
		if left && !moved {
			t.Fatal("the program deadlocks")
		}
	}
	return slices.Max(now)
}

// TestMotifSteps: every motif's program pairs its sends and receives, and
// its longest chain of dependent messages is the number of steps its
// documentation states, for job sizes from 1 to 64 (powers of two only
// where the motif needs them).
func TestMotifSteps(t *testing.T) {
	for _, name := range MotifNames() {
		m := Motifs()[name]
		for _, P := range []int{1, 2, 3, 7, 8, 12, 16, 27, 32, 64} {
			p := Params{Ranks: P, MessageFlits: 100, Iterations: 1, Root: min(3, P-1), Seed: 5}
			if m.Check(p) != "" {
				if P&(P-1) == 0 {
					t.Errorf("%s: %d ranks refused: %s", name, P, m.Check(p))
				}
				continue
			}
			prog, err := Build(name, p)
			if err != nil {
				t.Fatalf("%s/%d: %v", name, P, err)
			}
			if err := prog.Check(); err != nil {
				t.Fatalf("%s/%d: %v", name, P, err)
			}
			if got, want := criticalSteps(t, prog), m.Steps(p); got != want {
				t.Errorf("%s with %d ranks: %d steps on its longest chain, its documentation says %d", name, P, got, want)
			}
		}
	}
}

// TestHaloNeighbours: a rank inside a 3-D grid talks to 6 neighbours, or
// 26 with the diagonals; a corner of a non-periodic grid to 3 (7); on a
// periodic grid every rank to 6 (26).
func TestHaloNeighbours(t *testing.T) {
	peers := func(ops []Op) int {
		n := 0
		for _, o := range ops {
			if o.Kind == Send {
				n++
			}
		}
		return n
	}
	for _, c := range []struct {
		diagonals, periodic bool
		rank, want          int
	}{
		{false, false, 1 + 4 + 16, 6}, {true, false, 1 + 4 + 16, 26}, {false, false, 0, 3}, {true, false, 0, 7},
		{false, true, 0, 6}, {true, true, 0, 26},
	} {
		p := Params{Ranks: 64, MessageFlits: 8, Iterations: 1, Periodic: c.periodic}
		if got := peers(haloBody(p, c.rank, 3, c.diagonals)); got != c.want {
			t.Errorf("diagonals %v periodic %v rank %d: %d neighbours, want %d", c.diagonals, c.periodic, c.rank, got, c.want)
		}
	}
	if g := GridOf(Params{Ranks: 24}, 3); !slices.Equal(g, []int{3, 2, 4}) && !slices.Equal(g, []int{4, 3, 2}) && !slices.Equal(g, []int{2, 3, 4}) {
		t.Errorf("24 ranks in 3-D: grid %v, want sides 2, 3 and 4", g)
	}
}

// TestOutOfOrderArrival: a receiver places each packet by its number, not
// by its arrival: three messages from one sender whose packets arrive last
// first complete only when their own packets have all arrived, and the
// receiver's wait ends with the last of them.
func TestOutOfOrderArrival(t *testing.T) {
	mesh, _ := grid.NewMesh(2, 1)
	sizes := []int64{5, 2, 9}
	prog := Program{{}, {}}
	for _, s := range sizes {
		prog[0] = append(prog[0], Op{Kind: Send, Peer: 1, Flits: s})
		prog[1] = append(prog[1], Op{Kind: Recv, Peer: 0, Flits: s})
	}
	prog[1] = append(prog[1], Op{Kind: Wait})
	job, err := NewJob(prog, 1, []int{2, 3}, mesh, 2)
	if err != nil {
		t.Fatal(err)
	}
	srcs := []fabric.Source{fabric.Idle{}, fabric.Idle{}, fabric.Idle{}, fabric.Idle{}}
	job.Install(srcs, make([]fabric.Sink, 4))
	var q0, q1 fabric.SourceQueue
	if next := srcs[3].Generate(0, &q1); next != clock.Never {
		t.Fatalf("the receiver asks for cycle %d before anything arrived", next)
	}
	// The sender keeps at most queueDepth packets queued and asks to be
	// called again before they can all have left.
	var pkts []fabric.Packet
	for now, next := clock.Cycle(0), clock.Cycle(0); next != clock.Never; now = next {
		next = srcs[2].Generate(now, &q0)
		if q0.Len() > queueDepth {
			t.Fatalf("cycle %d: %d packets queued", now, q0.Len())
		}
		for q0.Len() > 0 {
			pkts = append(pkts, q0.Pop())
		}
	}
	if len(pkts) != 3+1+5 {
		t.Fatalf("%d packets sent for messages of %v flits in packets of 2", len(pkts), sizes)
	}
	rk := job.Ranks()[1]
	for i := len(pkts) - 1; i >= 0; i-- {
		p := pkts[i]
		f := link.Flit{Src: 2, Dst: 3, Seq: p.Seq, Size: p.Size, Index: p.Size - 1, Gen: p.Gen}
		rk.Delivered(clock.Cycle(10+len(pkts)-i), &f)
		srcs[3].Generate(clock.Cycle(10+len(pkts)-i), &q1)
		// Message 2 (packets 4-8) completes when packet 4 arrives, 1
		// (packet 3) at 3, 0 (packets 0-2) at 0.
		want := int64(0)
		switch {
		case i == 0:
			want = 3
		case i <= 3:
			want = 2
		case i == 4:
			want = 1
		}
		if rk.messages != want {
			t.Errorf("after packet %d arrived: %d messages complete, want %d", i, rk.messages, want)
		}
		if done := job.Done(); done != (i == 0) {
			t.Errorf("after packet %d arrived: job done %v", i, done)
		}
	}
	if r := job.Result(); r.Finished != 2 || r.CompletionCycles != int64(10+len(pkts)) || r.Messages != 3 {
		t.Errorf("result %+v", r)
	}
}

// TestPlacements: contiguous from first_node, random on distinct nodes,
// spread round robin over a dragonfly's groups, a list as given; what does
// not fit is refused with the key's words.
func TestPlacements(t *testing.T) {
	df, err := dragonfly.NewDragonfly(2, 4, 2, 0, dragonfly.Palmtree, 1)
	if err != nil {
		t.Fatal(err)
	}
	nodes, err := PlaceFree(df, 6, Placement{Kind: "contiguous", First: 3}, nil)
	if err != nil || !slices.Equal(nodes, []int{3, 4, 5, 6, 7, 8}) {
		t.Errorf("contiguous: %v %v", nodes, err)
	}
	nodes, err = PlaceFree(df, df.Nodes(), Placement{Kind: "random", Seed: 9}, nil)
	sorted := slices.Sorted(slices.Values(nodes))
	if err != nil || sorted[0] != 0 || sorted[len(sorted)-1] != df.Nodes()-1 || len(slices.Compact(sorted)) != df.Nodes() {
		t.Errorf("random over every node: %v %v", nodes, err)
	}
	groupNodes := df.Nodes() / df.Groups()
	nodes, err = PlaceFree(df, 2*df.Groups(), Placement{Kind: "spread"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for r, n := range nodes {
		if g := n / groupNodes; g != r%df.Groups() {
			t.Errorf("spread: rank %d on node %d of group %d, want group %d", r, n, g, r%df.Groups())
		}
	}
	for _, c := range []struct {
		ranks int
		pl    Placement
		want  string
	}{
		{df.Nodes() + 1, Placement{Kind: "contiguous"}, fmt.Sprintf("allowed 1..%d", df.Nodes())},
		{4, Placement{Kind: "contiguous", First: df.Nodes() - 2}, "run past the last node"},
		{2, Placement{Kind: "list", Nodes: []int{1}}, "lists 1 nodes for 2 ranks"},
		{2, Placement{Kind: "list", Nodes: []int{1, 1}}, "already holds rank 0"},
		{2, Placement{Kind: "list", Nodes: []int{1, -1}}, "nodes[1] = -1"},
		{2, Placement{Kind: "packed"}, `placement "packed"`},
	} {
		if _, err := PlaceFree(df, c.ranks, c.pl, nil); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want %q", c.pl, err, c.want)
		}
	}
}

func ExampleBuild() {
	prog, err := Build("allreduce-recursive-doubling", Params{Ranks: 4, MessageFlits: 64, Iterations: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, op := range prog[1] {
		fmt.Println(op)
	}
	// Output:
	// recv 64 flits from rank 0
	// send 64 flits to rank 0
	// wait
	// recv 64 flits from rank 3
	// send 64 flits to rank 3
	// wait
	// mark
}

// TestIterationsKeepMemory: a rank's state does not grow with the
// iterations, and a sender that runs ahead of its receiver (an incast's
// senders never wait) has its messages counted all the same.
func TestIterationsKeepMemory(t *testing.T) {
	mesh, _ := grid.NewMesh(2, 1)
	prog, err := Build("incast", Params{Ranks: 3, MessageFlits: 3, Iterations: 1})
	if err != nil {
		t.Fatal(err)
	}
	const iters = 50
	job, err := NewJob(prog, iters, []int{0, 1, 2}, mesh, 2)
	if err != nil {
		t.Fatal(err)
	}
	srcs := []fabric.Source{fabric.Idle{}, fabric.Idle{}, fabric.Idle{}, fabric.Idle{}}
	job.Install(srcs, make([]fabric.Sink, 4))
	root := job.Ranks()[0]
	if len(root.ops) != len(prog[0]) {
		t.Fatalf("the root holds %d steps for %d per iteration", len(root.ops), len(prog[0]))
	}
	var pkts [][]fabric.Packet
	for _, s := range []int{1, 2} {
		var q fabric.SourceQueue
		var got []fabric.Packet
		for now, next := clock.Cycle(0), clock.Cycle(0); next != clock.Never; now = next {
			next = srcs[s].Generate(now, &q)
			for q.Len() > 0 {
				got = append(got, q.Pop())
			}
		}
		pkts = append(pkts, got)
	}
	if len(pkts[0]) != 2*iters {
		t.Fatalf("a sender sent %d packets, want %d", len(pkts[0]), 2*iters)
	}
	srcs[0].Generate(0, &fabric.SourceQueue{})
	// Sender 2's packets all arrive first (it ran every iteration ahead),
	// then sender 1's.
	now := clock.Cycle(1)
	for k, s := range []int32{2, 1} {
		for _, p := range pkts[1-k] {
			f := link.Flit{Src: s, Dst: 0, Seq: p.Seq, Size: p.Size, Index: p.Size - 1, Gen: p.Gen}
			root.Delivered(now, &f)
			srcs[0].Generate(now, &fabric.SourceQueue{})
			now++
		}
	}
	if !job.Done() || root.messages != 2*iters || len(job.Result().IterationCycles) != iters {
		t.Errorf("done %v, %d messages, %d iterations: want every one", job.Done(), root.messages, len(job.Result().IterationCycles))
	}
	for _, p := range root.from {
		// Sender 2's 50 messages were all in flight at once: a ring of 64.
		if len(p.got) > 64 {
			t.Errorf("peer %d: a ring of %d for at most %d messages at once", p.src, len(p.got), iters)
		}
	}
	for _, rk := range job.Ranks()[1:] {
		if rk.head != 0 || len(rk.outbox) != 0 {
			t.Errorf("rank %d's outbox holds %d sends after all were sent", rk.rank, len(rk.outbox)-rk.head)
		}
	}
}

// TestPermutationCycles: the permutation is one cycle through every rank,
// each of the (P-1)! cycles about equally likely over seeds.
func TestPermutationCycles(t *testing.T) {
	for _, P := range []int{3, 4} {
		counts := map[string]int{}
		const seeds = 6000
		for seed := range uint64(seeds) {
			next := Cycle(P, seed)
			r, n := 0, 0
			for {
				r, n = next[r], n+1
				if r == 0 {
					break
				}
			}
			if n != P {
				t.Fatalf("%d ranks, seed %d: %v is not one cycle through every rank", P, seed, next)
			}
			counts[fmt.Sprint(next)]++
		}
		want := map[int]int{3: 2, 4: 6}[P]
		if len(counts) != want {
			t.Errorf("%d ranks: %d distinct cycles over %d seeds, want %d: %v", P, len(counts), seeds, want, counts)
		}
		for c, n := range counts {
			// Binomial with p = 1/want: 5 standard deviations.
			mean := float64(seeds) / float64(want)
			if d := float64(n) - mean; d*d > 25*mean*(1-1/float64(want)) {
				t.Errorf("%d ranks: cycle %s drawn %d times of %d, want about %.0f", P, c, n, seeds, mean)
			}
		}
	}
}

// TestTraceErrors: a malformed trace is refused with its file, line and
// what is wrong.
func TestTraceErrors(t *testing.T) {
	head := "icnsim-trace 1\nrank 0 node 0\nrank 1 node 1\n"
	for _, c := range []struct{ name, text, want string }{
		{"no magic", "send 0 0 1 4\n", "t.trace:1: not an icnsim trace"},
		{"empty", "# nothing\n", "empty"},
		{"malformed line", head + "sned 0 0 1 4\n", `t.trace:4: "sned": a line is`},
		{"short send", head + "send 0 0 1\n", "t.trace:4: a send line is"},
		{"short wait", head + "wait\n", "t.trace:4: a wait line is: wait RANK"},
		{"bad field", head + "send 0 0 1 4 at soon\n", `t.trace:4: cycle "soon": not a whole number`},
		{"negative size", head + "send 0 0 1 -4\n", "t.trace:4: size (flits) -4: allowed >= 1"},
		{"unknown rank", head + "send 0 2 1 4\n", "t.trace:4: rank 2: the trace has ranks 0..1"},
		{"unknown peer", head + "send 0 0 5 4\n", "t.trace:4: peer 5: the trace has ranks 0..1"},
		{"to itself", head + "send 0 1 1 4\n", "t.trace:4: message 0 from rank 1 to itself"},
		{"duplicate id", head + "send 0 0 1 4\nsend 0 1 0 4\n", "t.trace:5: message id 0 already used on line 4"},
		{"unknown dependency", head + "send 0 0 1 4 after 9\n", "t.trace:4: after message 9, which no send line has"},
		{"cycle", head + "send 0 0 1 4 after 1\nsend 1 1 0 4 after 0\n", "a cycle of dependencies"},
		{"rank out of order", "icnsim-trace 1\nrank 1 node 0\n", "t.trace:2: rank 1 out of order"},
		{"no ranks", "icnsim-trace 1\n", "no rank lines"},
	} {
		_, err := ReadTrace("t.trace", strings.NewReader(c.text))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
}

// TestTraceRoundTrip: a trace written and read back is the same trace,
// and its program pairs every send with a receive.
func TestTraceRoundTrip(t *testing.T) {
	tr := &Trace{Motif: "test", Nodes: []int{4, 0, 7}, Events: []TraceEvent{
		{ID: 0, Rank: 0, Peer: 1, Flits: 5, At: 0, Timed: true, Dependent: true},
		{ID: 1, Rank: 1, Peer: 2, Flits: 9, At: 30, After: []int{0}, Delay: 4, Timed: true, Dependent: true},
		{Rank: 2, Peer: PeerWait, At: 45, After: []int{1}, Delay: 6, Timed: true, Dependent: true},
		{Rank: 2, Peer: PeerMark, At: 60, Delay: 15, Timed: true, Dependent: true},
	}}
	var b strings.Builder
	if err := WriteTrace(&b, tr); err != nil {
		t.Fatal(err)
	}
	back, err := ReadTrace("rt", strings.NewReader(b.String()))
	if err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	for i := range back.Events {
		back.Events[i].Line = 0
	}
	if fmt.Sprint(back) != fmt.Sprint(tr) {
		t.Errorf("read back\n%v\nwrote\n%v", back, tr)
	}
	for _, timing := range []string{TimingDependencies, TimingRecorded, TimingBoth} {
		prog, err := back.Program(timing)
		if err != nil {
			t.Fatal(err)
		}
		if err := prog.Check(); err != nil {
			t.Errorf("%s: %v", timing, err)
		}
	}
}
