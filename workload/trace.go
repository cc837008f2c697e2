package workload

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// A trace is a job written down message by message, in plain text, one
// event per line ('#' starts a comment; blank lines are skipped):
//
//	icnsim-trace 1
//	motif allreduce-ring            # the name its results carry (optional)
//	rank 0 node 12                  # where each rank runs, one line per rank
//	send 7 3 4 64 at 1520 after 2,5 +10
//	wait 3 at 1560 after 9 +40
//	mark 3 at 1600 after 7
//
// "send ID RANK PEER FLITS" is message ID (a number, unique in the file)
// from RANK to PEER of FLITS flits; "mark RANK" ends an iteration of RANK;
// "wait RANK" sends nothing: RANK waited for messages, then computed,
// before waiting for more (what one line's "after" and "+" cannot say).
// An event may give the cycle it happened at ("at T": replayed open loop,
// at that cycle) and what it waited for ("after ID,ID,..." and "+C": the
// messages that had to have arrived at RANK, or have been sent by it,
// and the cycles after them; replayed closed loop). A rank's events happen
// in the order of the file, each no earlier than the one before it. A
// rank finishes when its last event has happened and every message sent to
// it has arrived. Messages from one rank to another are received in the
// order they were sent (their order in the file).

// TraceEvent is one line of a trace: a send (Peer >= 0), a mark (Peer =
// PeerMark) or a wait (PeerWait).
type TraceEvent struct {
	Line  int // in the file, for errors
	ID    int // a send's message id
	Rank  int
	Peer  int // -1: a mark
	Flits int64
	// At is the cycle the event happened, -1 when the trace does not say.
	At int64
	// After are the messages the event waited for, and Delay the cycles
	// after the last of them (and after the rank's previous event).
	After []int
	Delay int64
	// Timed and Dependent say which of At and After/Delay the line gave.
	Timed, Dependent bool
}

// Trace is a parsed trace.
type Trace struct {
	Motif  string
	Nodes  []int // node of each rank
	Events []TraceEvent
}

// traceMagic is a trace's first line.
const traceMagic = "icnsim-trace 1"

// ReadTrace parses a trace; name is the file's name in errors, which give
// name:line and what is wrong.
func ReadTrace(name string, r io.Reader) (*Trace, error) {
	tr := &Trace{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	line := 0
	fail := func(format string, args ...any) error {
		return fmt.Errorf("%s:%d: %s", name, line, fmt.Sprintf(format, args...))
	}
	num := func(field, what string, lo int64) (int64, error) {
		v, err := strconv.ParseInt(field, 10, 64)
		if err != nil {
			return 0, fail("%s %q: not a whole number", what, field)
		}
		if v < lo {
			return 0, fail("%s %d: allowed >= %d", what, v, lo)
		}
		return v, nil
	}
	seenMagic := false
	ranks := map[int]bool{}
	ids := map[int]int{} // id -> line
	for sc.Scan() {
		line++
		text := sc.Text()
		if i := strings.IndexByte(text, '#'); i >= 0 {
			text = text[:i]
		}
		f := strings.Fields(text)
		if len(f) == 0 {
			continue
		}
		if !seenMagic {
			if strings.Join(f, " ") != traceMagic {
				return nil, fail("not an icnsim trace: the first line must be %q", traceMagic)
			}
			seenMagic = true
			continue
		}
		switch f[0] {
		case "motif":
			if len(f) != 2 {
				return nil, fail("motif takes one name")
			}
			tr.Motif = f[1]
		case "rank":
			if len(f) != 4 || f[2] != "node" {
				return nil, fail("a rank line is: rank RANK node NODE")
			}
			rk, err := num(f[1], "rank", 0)
			if err != nil {
				return nil, err
			}
			node, err := num(f[3], "node", 0)
			if err != nil {
				return nil, err
			}
			if int(rk) != len(tr.Nodes) {
				return nil, fail("rank %d out of order: rank lines go 0, 1, 2, ... (rank %d next)", rk, len(tr.Nodes))
			}
			tr.Nodes = append(tr.Nodes, int(node))
		case "send", "mark", "wait":
			ev := TraceEvent{Line: line, Peer: PeerMark, At: -1}
			if f[0] == "wait" {
				ev.Peer = PeerWait
			}
			rest := f[1:]
			if f[0] == "send" {
				if len(rest) < 4 {
					return nil, fail("a send line is: send ID RANK PEER FLITS [at CYCLE] [after ID,...] [+CYCLES]")
				}
				id, err := num(rest[0], "message id", 0)
				if err != nil {
					return nil, err
				}
				if prev, dup := ids[int(id)]; dup {
					return nil, fail("message id %d already used on line %d", id, prev)
				}
				ids[int(id)] = line
				peer, err := num(rest[2], "peer", 0)
				if err != nil {
					return nil, err
				}
				flits, err := num(rest[3], "size (flits)", 1)
				if err != nil {
					return nil, err
				}
				ev.ID, ev.Peer, ev.Flits = int(id), int(peer), flits
				rk, err := num(rest[1], "rank", 0)
				if err != nil {
					return nil, err
				}
				ev.Rank, rest = int(rk), rest[4:]
			} else {
				if len(rest) < 1 {
					return nil, fail("a %s line is: %s RANK [at CYCLE] [after ID,...] [+CYCLES]", f[0], f[0])
				}
				rk, err := num(rest[0], "rank", 0)
				if err != nil {
					return nil, err
				}
				ev.Rank, rest = int(rk), rest[1:]
			}
			for len(rest) > 0 {
				switch {
				case rest[0] == "at" && len(rest) > 1:
					at, err := num(rest[1], "cycle", 0)
					if err != nil {
						return nil, err
					}
					ev.At, ev.Timed, rest = at, true, rest[2:]
				case rest[0] == "after" && len(rest) > 1:
					for _, s := range strings.Split(rest[1], ",") {
						id, err := num(s, "message id", 0)
						if err != nil {
							return nil, err
						}
						ev.After = append(ev.After, int(id))
					}
					ev.Dependent, rest = true, rest[2:]
				case strings.HasPrefix(rest[0], "+"):
					d, err := num(rest[0][1:], "delay (cycles)", 0)
					if err != nil {
						return nil, err
					}
					ev.Delay, ev.Dependent, rest = d, true, rest[1:]
				default:
					return nil, fail("%q: expected at CYCLE, after ID,... or +CYCLES", rest[0])
				}
			}
			ranks[ev.Rank] = true
			tr.Events = append(tr.Events, ev)
		default:
			return nil, fail("%q: a line is icnsim-trace, motif, rank, send, wait or mark", f[0])
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if !seenMagic {
		return nil, fmt.Errorf("%s: empty: an icnsim trace starts with %q", name, traceMagic)
	}
	return tr, tr.check(name, ids)
}

// check reports a rank or peer without a rank line, a message to its own
// rank, a dependency on an unknown message or on one only its future
// holds, and a cycle of dependencies.
func (tr *Trace) check(name string, ids map[int]int) error {
	P := len(tr.Nodes)
	if P == 0 {
		return fmt.Errorf("%s: no rank lines: the trace places no rank", name)
	}
	at := func(ev TraceEvent, format string, args ...any) error {
		return fmt.Errorf("%s:%d: %s", name, ev.Line, fmt.Sprintf(format, args...))
	}
	sender := map[int]int{} // id -> index of its event
	for i, ev := range tr.Events {
		if ev.Rank >= P {
			return at(ev, "rank %d: the trace has ranks 0..%d (its rank lines)", ev.Rank, P-1)
		}
		if ev.Peer >= P {
			return at(ev, "peer %d: the trace has ranks 0..%d (its rank lines)", ev.Peer, P-1)
		}
		if ev.Peer == ev.Rank {
			return at(ev, "message %d from rank %d to itself", ev.ID, ev.Rank)
		}
		if ev.Peer >= 0 {
			sender[ev.ID] = i
		}
	}
	for _, ev := range tr.Events {
		for _, d := range ev.After {
			j, ok := sender[d]
			if !ok {
				return at(ev, "after message %d, which no send line has", d)
			}
			if s := tr.Events[j]; s.Rank != ev.Rank && s.Peer != ev.Rank {
				return at(ev, "after message %d, from rank %d to %d: a rank waits only for messages it sends or receives (this is rank %d's)", d, s.Rank, s.Peer, ev.Rank)
			}
		}
	}
	// A cycle: events in file order per rank, each after its dependencies
	// (a received message after its send event).
	deps := make([][]int, len(tr.Events))
	last := map[int]int{}
	for i, ev := range tr.Events {
		if j, ok := last[ev.Rank]; ok {
			deps[i] = append(deps[i], j)
		}
		last[ev.Rank] = i
		for _, d := range ev.After {
			deps[i] = append(deps[i], sender[d])
		}
	}
	state := make([]uint8, len(deps)) // 0 new, 1 on the path, 2 done
	var visit func(i int) []int
	visit = func(i int) []int {
		state[i] = 1
		for _, j := range deps[i] {
			switch state[j] {
			case 1:
				return []int{j, i}
			case 0:
				if c := visit(j); c != nil {
					return append(c, i)
				}
			}
		}
		state[i] = 2
		return nil
	}
	for i := range deps {
		if state[i] != 0 {
			continue
		}
		if c := visit(i); c != nil {
			var lines []string
			for _, k := range c {
				lines = append(lines, strconv.Itoa(tr.Events[k].Line))
			}
			return at(tr.Events[c[len(c)-1]], "the events of lines %s wait for each other (a cycle of dependencies)", strings.Join(slices.Compact(lines), " -> "))
		}
	}
	return nil
}

// WriteTrace writes tr in the trace format.
func WriteTrace(w io.Writer, tr *Trace) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, traceMagic)
	if tr.Motif != "" {
		fmt.Fprintf(bw, "motif %s\n", tr.Motif)
	}
	for r, n := range tr.Nodes {
		fmt.Fprintf(bw, "rank %d node %d\n", r, n)
	}
	for _, ev := range tr.Events {
		switch ev.Peer {
		case PeerMark:
			fmt.Fprintf(bw, "mark %d", ev.Rank)
		case PeerWait:
			fmt.Fprintf(bw, "wait %d", ev.Rank)
		default:
			fmt.Fprintf(bw, "send %d %d %d %d", ev.ID, ev.Rank, ev.Peer, ev.Flits)
		}
		if ev.Timed {
			fmt.Fprintf(bw, " at %d", ev.At)
		}
		if len(ev.After) > 0 {
			parts := make([]string, len(ev.After))
			for i, d := range ev.After {
				parts[i] = strconv.Itoa(d)
			}
			fmt.Fprintf(bw, " after %s", strings.Join(parts, ","))
		}
		if ev.Dependent {
			fmt.Fprintf(bw, " +%d", ev.Delay)
		}
		fmt.Fprintln(bw)
	}
	return bw.Flush()
}

// Timings of a trace's replay (Trace.Program).
const (
	// TimingDependencies: closed loop, each event after the messages it
	// waited for have arrived, and its delay.
	TimingDependencies = "dependencies"
	// TimingRecorded: open loop, each event at its recorded cycle.
	TimingRecorded = "recorded"
	// TimingBoth: each event at its recorded cycle or after its
	// dependencies and delay, whichever is later (netrace's rule).
	TimingBoth = "both"
)

// Program is the trace as a program for each rank, to run once: every
// message to the rank posted as a receive at the start; then its events
// in the order of the file, each a send, a wait or a mark, as timing says
// (TimingDependencies, TimingRecorded or TimingBoth; a recorded cycle
// missing where it is needed is an error); at the end, a wait for every
// message to the rank.
func (tr *Trace) Program(timing string) (Program, error) {
	closed := timing == TimingDependencies || timing == TimingBoth
	timed := timing == TimingRecorded || timing == TimingBoth
	if !closed && !timed {
		return nil, fmt.Errorf("trace timing %q (allowed: %s, %s, %s)", timing, TimingDependencies, TimingRecorded, TimingBoth)
	}
	P := len(tr.Nodes)
	prog := make(Program, P)
	type pr struct{ from, to int }
	index := map[int]int{} // message id -> its index among its sender's messages to its receiver
	from := map[int]int{}  // message id -> sender
	count := map[pr]int{}
	for _, ev := range tr.Events {
		if ev.Peer < 0 {
			continue
		}
		k := pr{ev.Rank, ev.Peer}
		index[ev.ID], from[ev.ID] = count[k], ev.Rank
		count[k]++
		prog[ev.Peer] = append(prog[ev.Peer], Op{Kind: Recv, Peer: ev.Rank, Flits: ev.Flits})
	}
	for _, ev := range tr.Events {
		ops := prog[ev.Rank]
		if closed {
			for _, d := range ev.After {
				if s := from[d]; s != ev.Rank { // a message it sent itself went before it
					ops = append(ops, Op{Kind: Await, Peer: s, Msg: index[d]})
				}
			}
			if ev.Delay > 0 {
				ops = append(ops, Op{Kind: Compute, Cycles: ev.Delay})
			}
		}
		if timed {
			if !ev.Timed {
				return nil, fmt.Errorf("line %d: no cycle (at CYCLE) to replay it at", ev.Line)
			}
			ops = append(ops, Op{Kind: Until, Cycles: ev.At})
		}
		switch ev.Peer {
		case PeerMark:
			ops = append(ops, Op{Kind: Mark})
		case PeerWait: // its waits and compute are all it does
		default:
			ops = append(ops, Op{Kind: Send, Peer: ev.Peer, Flits: ev.Flits})
		}
		prog[ev.Rank] = ops
	}
	for r := range prog {
		prog[r] = append(prog[r], Op{Kind: Wait})
	}
	return prog, nil
}
