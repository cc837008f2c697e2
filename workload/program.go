package workload

import (
	"fmt"
	"slices"
)

// OpKind is what a step of a rank's program does.
type OpKind uint8

const (
	// Compute keeps the rank busy for Cycles cycles.
	Compute OpKind = iota
	// Send posts a message of Flits flits to rank Peer.
	Send
	// Recv posts the receive of the next message from rank Peer, of Flits
	// flits (the messages of one sender to one receiver are matched in
	// the order they were sent).
	Recv
	// Wait waits until every receive posted so far has completed.
	Wait
	// Mark ends an iteration: the rank records the cycle.
	Mark
	// Await waits until message Msg (counted from 0) of those Peer sends
	// this rank has arrived; the rank must have posted its receive.
	Await
	// Until waits until cycle Cycles.
	Until
)

func (k OpKind) String() string {
	if names := [...]string{Compute: "compute", Send: "send", Recv: "recv", Wait: "wait", Mark: "mark", Await: "await", Until: "until"}; int(k) < len(names) {
		return names[k]
	}
	return fmt.Sprintf("op(%d)", k)
}

// Op is one step of a rank's program.
type Op struct {
	Kind   OpKind
	Peer   int   // the other rank (Send, Recv, Await)
	Flits  int64 // the message's size (Send, Recv)
	Cycles int64 // Compute's length, Until's cycle
	Msg    int   // Await's message among those from Peer
}

func (o Op) String() string {
	switch o.Kind {
	case Send:
		return fmt.Sprintf("send %d flits to rank %d", o.Flits, o.Peer)
	case Recv:
		return fmt.Sprintf("recv %d flits from rank %d", o.Flits, o.Peer)
	case Compute:
		return fmt.Sprintf("compute %d cycles", o.Cycles)
	case Await:
		return fmt.Sprintf("await message %d from rank %d", o.Msg, o.Peer)
	case Until:
		return fmt.Sprintf("until cycle %d", o.Cycles)
	}
	return o.Kind.String()
}

// Program is the steps of every rank of a job: Program[r] is rank r's.
type Program [][]Op

// Ranks is the number of ranks.
func (p Program) Ranks() int { return len(p) }

// Check reports the first inconsistency of p: a peer outside the job, a
// rank that sends to itself, a size or a length below 1, or a pair whose
// sends and receives do not match one for one in order and size (a
// message nobody receives, or a receive nothing answers).
func (p Program) Check() error {
	sent := map[pair][]int64{}
	recvd := map[pair][]int64{}
	for r, ops := range p {
		for i, op := range ops {
			switch op.Kind {
			case Send, Recv:
				if op.Peer < 0 || op.Peer >= len(p) {
					return fmt.Errorf("rank %d step %d (%s): no rank %d in a job of %d", r, i, op, op.Peer, len(p))
				}
				if op.Peer == r {
					return fmt.Errorf("rank %d step %d (%s): a rank does not send to itself", r, i, op)
				}
				if op.Flits < 1 {
					return fmt.Errorf("rank %d step %d (%s): a message has at least 1 flit", r, i, op)
				}
				if op.Kind == Send {
					sent[pair{r, op.Peer}] = append(sent[pair{r, op.Peer}], op.Flits)
				} else {
					recvd[pair{op.Peer, r}] = append(recvd[pair{op.Peer, r}], op.Flits)
				}
			case Compute, Until:
				if op.Cycles < 0 {
					return fmt.Errorf("rank %d step %d: %s of %d cycles", r, i, op.Kind, op.Cycles)
				}
			case Await:
				if op.Peer < 0 || op.Peer >= len(p) || op.Msg < 0 {
					return fmt.Errorf("rank %d step %d (%s): no such message", r, i, op)
				}
				if op.Msg >= posted(p[r][:i], op.Peer) {
					return fmt.Errorf("rank %d step %d (%s): its receive is not posted before it", r, i, op)
				}
			case Wait, Mark:
			default:
				return fmt.Errorf("rank %d step %d: unknown step %v", r, i, op.Kind)
			}
		}
	}
	for _, pr := range sortedPairs(sent, recvd) {
		s, v := sent[pr], recvd[pr]
		for i := range max(len(s), len(v)) {
			switch {
			case i >= len(v):
				return fmt.Errorf("rank %d sends %d messages to rank %d, which receives %d from it: message %d (%d flits) is never received", pr.from, len(s), pr.to, len(v), i, s[i])
			case i >= len(s):
				return fmt.Errorf("rank %d receives %d messages from rank %d, which sends it %d: receive %d (%d flits) is never answered", pr.to, len(v), pr.from, len(s), i, v[i])
			case s[i] != v[i]:
				return fmt.Errorf("message %d from rank %d to rank %d: sent with %d flits, received as %d", i, pr.from, pr.to, s[i], v[i])
			}
		}
	}
	return nil
}

// posted is the number of receives from peer among ops.
func posted(ops []Op, peer int) int {
	n := 0
	for _, o := range ops {
		if o.Kind == Recv && o.Peer == peer {
			n++
		}
	}
	return n
}

// pair is a sender and a receiver.
type pair struct{ from, to int }

// sortedPairs is the pairs of a and b in order (for a deterministic first
// error).
func sortedPairs(a, b map[pair][]int64) []pair {
	var out []pair
	for k := range a {
		out = append(out, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			out = append(out, k)
		}
	}
	slices.SortFunc(out, func(x, y pair) int {
		if x.from != y.from {
			return x.from - y.from
		}
		return x.to - y.to
	})
	return out
}

// ZeroLoad is what Program.ZeroLoadCycles needs: the iterations, each
// rank's node, the zero-load latency of a message between two nodes, and
// optionally a function told of every message (its nodes, size and the
// cycle its first flit leaves its node).
type ZeroLoad struct {
	Iterations int
	Nodes      []int
	Latency    func(src, dst, flits int) int
	Sent       func(src, dst int, flits, start int64)
}

// ZeroLoadCycles is the program's completion time on an idle network, by
// its critical path: a rank runs its steps in order; a send posted at t
// leaves its node's interface when the interface has sent what was posted
// before it, one flit per cycle, and its last flit arrives Latency(src,
// dst, flits) cycles after it left (the zero-load latency of one packet of
// the message's size: packets follow each other without a gap); a receive
// completes when its message has arrived; a wait ends when the receives
// posted so far have; compute adds its cycles. Where no two messages meet
// in the network it is the job's completion time to the cycle; where they
// do, a lower bound (messages that share a channel only wait longer).
func (p Program) ZeroLoadCycles(z ZeroLoad) (int64, error) {
	P := len(p)
	arrival := map[pair][]int64{}
	taken := map[pair]int{}
	pc, iter := make([]int, P), make([]int, P)
	now, nicFree := make([]int64, P), make([]int64, P)
	pending := make([][]pair, P)
	index := make([][]int, P)
	// arrived takes the receives posted by r so far into now[r], if all
	// their messages have been sent.
	arrived := func(r int) bool {
		for i, k := range pending[r] {
			if index[r][i] >= len(arrival[k]) {
				return false
			}
		}
		for i, k := range pending[r] {
			now[r] = max(now[r], arrival[k][index[r][i]])
		}
		pending[r], index[r] = pending[r][:0], index[r][:0]
		return true
	}
	for {
		progress, done := false, 0
		for r := range P {
			for iter[r] < z.Iterations {
				if pc[r] == len(p[r]) {
					pc[r], iter[r] = 0, iter[r]+1
					continue
				}
				op := p[r][pc[r]]
				switch op.Kind {
				case Compute:
					now[r] += op.Cycles
				case Send:
					start := max(now[r], nicFree[r])
					nicFree[r] = start + op.Flits
					k := pair{r, op.Peer}
					arrival[k] = append(arrival[k], start+int64(z.Latency(z.Nodes[r], z.Nodes[op.Peer], int(op.Flits))))
					if z.Sent != nil {
						z.Sent(z.Nodes[r], z.Nodes[op.Peer], op.Flits, start)
					}
				case Recv:
					k := pair{op.Peer, r}
					pending[r], index[r] = append(pending[r], k), append(index[r], taken[k])
					taken[k]++
				case Until:
					now[r] = max(now[r], op.Cycles)
				}
				if op.Kind == Wait && !arrived(r) {
					break // a message it waits for is not sent yet
				}
				if op.Kind == Await {
					k := pair{op.Peer, r}
					if op.Msg >= len(arrival[k]) {
						break
					}
					now[r] = max(now[r], arrival[k][op.Msg])
				}
				pc[r]++
				progress = true
			}
			// The program's end waits for its receives too.
			if iter[r] == z.Iterations && arrived(r) {
				done++
			}
		}
		if done == P {
			return slices.Max(now), nil
		}
		if !progress {
			return 0, fmt.Errorf("the program waits for messages that are never sent")
		}
	}
}
