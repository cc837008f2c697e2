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
)

func (k OpKind) String() string {
	if names := [...]string{Compute: "compute", Send: "send", Recv: "recv", Wait: "wait", Mark: "mark"}; int(k) < len(names) {
		return names[k]
	}
	return fmt.Sprintf("op(%d)", k)
}

// Op is one step of a rank's program.
type Op struct {
	Kind   OpKind
	Peer   int   // the other rank (Send, Recv)
	Flits  int64 // the message's size (Send, Recv)
	Cycles int64 // Compute's length
}

func (o Op) String() string {
	switch o.Kind {
	case Send:
		return fmt.Sprintf("send %d flits to rank %d", o.Flits, o.Peer)
	case Recv:
		return fmt.Sprintf("recv %d flits from rank %d", o.Flits, o.Peer)
	case Compute:
		return fmt.Sprintf("compute %d cycles", o.Cycles)
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
			case Compute:
				if op.Cycles < 0 {
					return fmt.Errorf("rank %d step %d: compute of %d cycles", r, i, op.Cycles)
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
