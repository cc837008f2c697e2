package workload

import (
	"fmt"
	"math"
	"slices"

	"github.com/icnsim/icnsim/clock"
	"github.com/icnsim/icnsim/fabric"
	"github.com/icnsim/icnsim/link"
	"github.com/icnsim/icnsim/topology"
)

// Job is a program placed on the nodes of a network, its ranks ready to
// run as those nodes' sources and sinks.
type Job struct {
	sh    *jobShared
	ranks []*Rank
	prog  Program
	nodes []int
}

// jobShared is what every rank of a job reads and none writes.
type jobShared struct {
	topo        topology.Topology // names nodes in panics
	packetFlits int64
	iterations  int
}

// NewJob places prog's ranks on nodes (rank r on nodes[r]) of t, whose
// packets are at most packetFlits flits; each rank runs its program
// iterations times.
func NewJob(prog Program, iterations int, nodes []int, t topology.Topology, packetFlits int) (*Job, error) {
	if len(nodes) != len(prog) {
		return nil, fmt.Errorf("workload: %d nodes for %d ranks", len(nodes), len(prog))
	}
	if packetFlits < 1 {
		return nil, fmt.Errorf("workload: packets of %d flits", packetFlits)
	}
	if iterations < 1 {
		return nil, fmt.Errorf("workload: %d iterations", iterations)
	}
	if err := prog.Check(); err != nil {
		return nil, err
	}
	sh := &jobShared{topo: t, packetFlits: int64(packetFlits), iterations: iterations}
	j := &Job{sh: sh, ranks: make([]*Rank, len(prog)), prog: prog, nodes: slices.Clone(nodes)}
	for r, ops := range prog {
		rk, err := newRank(sh, r, ops, nodes)
		if err != nil {
			return nil, err
		}
		j.ranks[r] = rk
	}
	return j, nil
}

// MaxZeroLoadMessages is the most messages ZeroLoadCycles follows (it keeps
// every message's arrival).
const MaxZeroLoadMessages = 1 << 22

// ZeroLoadCycles is the job's completion time on an idle network
// (Program.ZeroLoadCycles) under latency, the zero-load latency of a
// message between two nodes; an error for a job of more than
// MaxZeroLoadMessages messages.
func (j *Job) ZeroLoadCycles(latency func(src, dst, flits int) int) (int64, error) {
	msgs := 0
	for _, ops := range j.prog {
		for _, o := range ops {
			if o.Kind == Send {
				msgs++
			}
		}
	}
	if msgs*j.sh.iterations > MaxZeroLoadMessages {
		return 0, fmt.Errorf("%d messages: the zero-load bound follows at most %d", msgs*j.sh.iterations, MaxZeroLoadMessages)
	}
	return j.prog.ZeroLoadCycles(ZeroLoad{Iterations: j.sh.iterations, Nodes: j.nodes, Latency: latency})
}

// Ranks is the job's ranks in order.
func (j *Job) Ranks() []*Rank { return j.ranks }

// Install makes each rank of the job its node's source and sink in srcs
// and sinks (one per node), passing what it receives on to the sink it
// replaces; the other nodes keep theirs.
func (j *Job) Install(srcs []fabric.Source, sinks []fabric.Sink) {
	for _, rk := range j.ranks {
		rk.sink = sinks[rk.node]
		srcs[rk.node], sinks[rk.node] = rk, rk
	}
}

// Nodes is the node of each rank.
func (j *Job) Nodes() []int { return slices.Clone(j.nodes) }

// Done reports whether every rank's program has ended (read only while the
// network is paused).
func (j *Job) Done() bool {
	for _, rk := range j.ranks {
		if !rk.finished {
			return false
		}
	}
	return true
}

// Computing reports whether a rank is in a compute step at cycle now (read
// only while the network is paused): a job whose ranks compute moves no
// flit, and has not stalled.
func (j *Job) Computing(now clock.Cycle) bool {
	for _, rk := range j.ranks {
		if rk.busy > now {
			return true
		}
	}
	return false
}

// Result is what a job's ranks recorded.
type Result struct {
	Ranks    int
	Finished int // ranks whose programs ended
	// CompletionCycles is the cycle in which the last rank's program ended
	// (every rank starts at cycle 0); valid when Finished = Ranks.
	CompletionCycles int64
	// IterationCycles is each iteration's time: the cycle the last rank
	// ended it, less the cycle the last rank ended the one before (0 for
	// the first).
	IterationCycles []int64
	// Messages received, and their latency from the send's posting to the
	// arrival of their last packet.
	Messages                 int64
	MessageLatencyMeanCycles float64
	MessageLatencyMaxCycles  int64
}

// Result reads what the ranks recorded (only while the network is paused).
func (j *Job) Result() Result {
	res := Result{Ranks: len(j.ranks)}
	var ends []int64
	var sum float64
	for _, rk := range j.ranks {
		if rk.finished {
			res.Finished++
			res.CompletionCycles = max(res.CompletionCycles, int64(rk.finishAt))
		}
		for i, e := range rk.iterEnds {
			if i == len(ends) {
				ends = append(ends, 0)
			}
			ends[i] = max(ends[i], e)
		}
		res.Messages += rk.messages
		sum += float64(rk.latencySum)
		res.MessageLatencyMaxCycles = max(res.MessageLatencyMaxCycles, rk.latencyMax)
	}
	if res.Messages > 0 {
		res.MessageLatencyMeanCycles = sum / float64(res.Messages)
	}
	prev := int64(0)
	for _, e := range ends {
		res.IterationCycles = append(res.IterationCycles, e-prev)
		prev = e
	}
	return res
}

// pairOffset is where the sequence numbers of src's packets to dst begin:
// a hash of the pair below 2^31, so that the numbers of one source differ
// across destinations (a routing may hash a packet's source and number)
// and a pair's count of up to 2^31 packets never wraps.
func pairOffset(src, dst int32) uint32 {
	x := uint64(uint32(src))<<32 | uint64(uint32(dst))
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	x ^= x >> 31
	return uint32(x) & 0x7fffffff
}

// op is a step as a rank runs it: a Send's peer slot and destination node,
// a Recv's peer slot and message index within the iteration.
type op struct {
	kind OpKind
	slot int32 // Send: index in sendSeq; Recv, Await: index in from
	msg  int32 // Recv, Await: the message's index among those from its peer in one iteration; Send: the peer's rank
	dst  int32 // Send: the peer's node
	n    int64 // Send: flits; Compute: cycles; Until: the cycle
}

// peerIn is what a rank keeps of the messages from one peer. Within one
// iteration, ends[m] is the pair's packets up to and including message
// m (known from the program); over the run, message g of the pair is
// message g mod len(ends) of iteration g / len(ends). The messages from
// base on that are not done yet have their packets arrived and their
// state in rings (a power of two long, grown when a sender runs further
// ahead), so a rank's memory does not grow with the iterations.
type peerIn struct {
	src   int32    // the peer's node
	rank  int32    // the peer's rank
	ends  []uint32 // per iteration
	base  uint64   // the first message not done
	got   []uint32 // ring: packets arrived of message g at g & (len-1)
	state []uint8  // ring: msgPosted, msgDone
}

const (
	msgPosted uint8 = 1 << iota
	msgDone
)

// slot is the ring index of message g, growing the rings to hold it.
func (p *peerIn) slot(g uint64) int {
	if g-p.base >= uint64(len(p.got)) {
		n := len(p.got)
		for g-p.base >= uint64(n) {
			n *= 2
		}
		got, state := make([]uint32, n), make([]uint8, n)
		for i := p.base; i < p.base+uint64(len(p.got)); i++ {
			got[i&uint64(n-1)], state[i&uint64(n-1)] = p.got[i&uint64(len(p.got)-1)], p.state[i&uint64(len(p.got)-1)]
		}
		p.got, p.state = got, state
	}
	return int(g & uint64(len(p.got)-1))
}

// Rank is one rank of a job: its node's source and sink.
type Rank struct {
	sh   *jobShared
	rank int32
	node int32
	ops  []op // one iteration
	pc   int32
	iter int32       // the iteration under way
	busy clock.Cycle // the end of the compute step under way; -1 none
	// outstanding is the receives posted and not yet done.
	outstanding int32
	finished    bool
	finishAt    clock.Cycle
	sendSeq     []uint32 // per send slot: packets sent to that peer so far
	from        []peerIn // sorted by src
	sink        fabric.Sink
	iterEnds    []int64
	// outbox holds the posted sends whose packets are not all in the
	// source queue yet, oldest first from head: the queue is kept a few
	// packets deep (queueDepth) rather than holding whole messages.
	outbox []pendingSend
	head   int
	// fillAt is when the rank next tops the source queue up (clock.Never
	// while the outbox is empty): on its own schedule, never because a
	// packet arrived, so that what the interface holds does not depend on
	// when deliveries happen (the ioq switch's adapter takes every packet
	// it is given into its admission queues at once).
	fillAt clock.Cycle

	messages, latencySum, latencyMax int64
	rec                              *recorder // nil unless the job records a trace
}

func newRank(sh *jobShared, r int, ops []Op, nodes []int) (*Rank, error) {
	rk := &Rank{sh: sh, rank: int32(r), node: int32(nodes[r]), busy: -1, fillAt: clock.Never, iterEnds: make([]int64, 0, sh.iterations)}
	sendSlot := map[int]int32{}
	recvPeer := map[int]int{} // peer rank -> index in from (before sorting)
	for _, o := range ops {
		x := op{kind: o.Kind, n: o.Cycles}
		switch o.Kind {
		case Send:
			s, ok := sendSlot[o.Peer]
			if !ok {
				s = int32(len(rk.sendSeq))
				sendSlot[o.Peer] = s
				rk.sendSeq = append(rk.sendSeq, 0)
			}
			x.slot, x.dst, x.n, x.msg = s, int32(nodes[o.Peer]), o.Flits, int32(o.Peer)
		case Recv:
			i, ok := recvPeer[o.Peer]
			if !ok {
				i = len(rk.from)
				recvPeer[o.Peer] = i
				rk.from = append(rk.from, peerIn{src: int32(nodes[o.Peer]), rank: int32(o.Peer)})
			}
			p := &rk.from[i]
			prev := uint64(0)
			if n := len(p.ends); n > 0 {
				prev = uint64(p.ends[n-1])
			}
			end := prev + uint64((o.Flits+sh.packetFlits-1)/sh.packetFlits)
			if end*uint64(sh.iterations) > math.MaxInt32 {
				return nil, fmt.Errorf("rank %d receives more than 2^31 packets from rank %d over %d iterations", r, o.Peer, sh.iterations)
			}
			x.slot, x.msg = int32(i), int32(len(p.ends))
			p.ends = append(p.ends, uint32(end))
		case Await:
			x.slot, x.msg = int32(recvPeer[o.Peer]), int32(o.Msg) // Check: its receive is posted before it
		case Until:
			x.n = o.Cycles
		}
		rk.ops = append(rk.ops, x)
	}
	// Peers sorted by node, for the search on each arrival; the steps'
	// slots follow.
	order := make([]int, len(rk.from))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return int(rk.from[a].src - rk.from[b].src) })
	at := make([]int32, len(order))
	sorted := make([]peerIn, len(order))
	for k, i := range order {
		at[i] = int32(k)
		sorted[k] = rk.from[i]
		n := 2
		for n < 2*len(sorted[k].ends) {
			n *= 2
		}
		sorted[k].got, sorted[k].state = make([]uint32, n), make([]uint8, n)
	}
	rk.from = sorted
	for i := range rk.ops {
		if k := rk.ops[i].kind; k == Recv || k == Await {
			rk.ops[i].slot = at[rk.ops[i].slot]
		}
	}
	return rk, nil
}

// Node is the node the rank runs on.
func (rk *Rank) Node() int { return int(rk.node) }

// ClosedLoop marks Rank as a fabric.ClosedLoop.
func (rk *Rank) ClosedLoop() {}

// Name is the rank's name with its node's, for errors.
func (rk *Rank) Name() string {
	return fmt.Sprintf("rank %d on %s", rk.rank, rk.sh.topo.NodeName(int(rk.node)))
}

// pendingSend is a posted send with packets left to queue.
type pendingSend struct {
	dst, slot int32
	left      int64       // flits not yet queued
	posted    clock.Cycle // the packets' generation cycle: latency counts from the posting
}

// queueDepth is the most packets a rank keeps in its node's source queue:
// enough that the interface never waits for the next one (the rank tops it
// up before the last of them can leave), few enough that a rank posting
// many large messages holds them as counts, not packets.
const queueDepth = 4

// Generate runs the rank's program from where it stands until a step
// must wait: for a compute step's end or for a receive (the next arrival
// wakes it); meanwhile it keeps the source queue topped up with the
// packets of its posted sends, and returns the cycle it next needs to.
func (rk *Rank) Generate(now clock.Cycle, q *fabric.SourceQueue) clock.Cycle {
	next := rk.step(now)
	if rk.head < len(rk.outbox) && (rk.fillAt == clock.Never || now >= rk.fillAt) {
		rk.fillAt = rk.fill(now, q)
	}
	return min(next, rk.fillAt)
}

// fill tops the source queue up from the outbox and returns the cycle by
// which it must do so again (clock.Never with nothing left to queue): when
// all but the last queued packet could have left.
func (rk *Rank) fill(now clock.Cycle, q *fabric.SourceQueue) clock.Cycle {
	for q.Len() < queueDepth && rk.head < len(rk.outbox) {
		s := &rk.outbox[rk.head]
		size := min(s.left, rk.sh.packetFlits)
		q.PushSeq(s.posted, int(s.dst), int(size), 0, pairOffset(rk.node, s.dst)+rk.sendSeq[s.slot])
		rk.sendSeq[s.slot]++
		if s.left -= size; s.left == 0 {
			rk.head++
		}
	}
	if rk.head == len(rk.outbox) {
		rk.outbox, rk.head = rk.outbox[:0], 0
		return clock.Never
	}
	// The queue's packets leave one at a time, each taking at least as
	// many cycles as it has flits: all but the last cannot be gone
	// before their flits have been sent.
	ahead := int64(0)
	for i := 0; i+1 < q.Len(); i++ {
		ahead += int64(q.Peek(i).Size)
	}
	return now + clock.Cycle(max(1, ahead))
}

// step runs the program until it must wait, and returns the cycle its
// compute step ends (clock.Never where it waits for a receive or has
// ended).
func (rk *Rank) step(now clock.Cycle) clock.Cycle {
	for int(rk.iter) < rk.sh.iterations {
		if int(rk.pc) == len(rk.ops) {
			rk.pc, rk.iter = 0, rk.iter+1
			continue
		}
		o := &rk.ops[rk.pc]
		switch o.kind {
		case Compute:
			if rk.busy < 0 {
				rk.busy = now + clock.Cycle(o.n)
			}
			if now < rk.busy {
				return rk.busy
			}
			rk.busy = -1
			if rk.rec != nil {
				rk.rec.compute += o.n
			}
		case Send:
			rk.outbox = append(rk.outbox, pendingSend{dst: o.dst, slot: o.slot, left: o.n, posted: now})
			if rk.rec != nil {
				rk.rec.event(now, int(o.msg), o.n)
			}
		case Until:
			// Like a compute step: the cycles it waits are recorded as
			// the program's own (a re-recorded open-loop replay keeps them).
			if rk.busy < 0 {
				rk.busy = max(now, clock.Cycle(o.n))
				if rk.rec != nil {
					rk.rec.compute += int64(rk.busy - now)
				}
			}
			if now < rk.busy {
				return rk.busy
			}
			rk.busy = -1
		case Await:
			p := &rk.from[o.slot]
			g := uint64(rk.iter)*uint64(len(p.ends)) + uint64(o.msg)
			if g >= p.base && p.state[p.slot(g)]&msgDone == 0 {
				return clock.Never
			}
			if rk.rec != nil {
				rk.rec.waited(now, MessageRef{From: int(p.rank), Index: int(g)})
			}
		case Recv:
			p := &rk.from[o.slot]
			g := uint64(rk.iter)*uint64(len(p.ends)) + uint64(o.msg)
			if g >= p.base {
				if st := &p.state[p.slot(g)]; *st&msgDone == 0 {
					*st |= msgPosted
					rk.outstanding++
				}
			}
			if rk.rec != nil {
				rk.rec.posted = append(rk.rec.posted, MessageRef{From: int(p.rank), Index: int(g)})
			}
		case Wait:
			if rk.outstanding > 0 {
				return clock.Never
			}
			if r := rk.rec; r != nil {
				r.waited(now, r.posted...)
				r.posted = r.posted[:0]
			}
		case Mark:
			rk.iterEnds = append(rk.iterEnds, int64(now))
			if rk.rec != nil {
				rk.rec.event(now, PeerMark, 0)
			}
		}
		rk.pc++
	}
	if rk.outstanding > 0 {
		return clock.Never // the program's end waits for its receives
	}
	if !rk.finished {
		rk.finished, rk.finishAt = true, now
	}
	return clock.Never
}

// Delivered counts a packet to the message it belongs to (completing it
// when it was the last) and passes it on to the node's sink.
func (rk *Rank) Delivered(now clock.Cycle, f *link.Flit) {
	if rk.sink != nil {
		rk.sink.Delivered(now, f)
	}
	i, ok := slices.BinarySearchFunc(rk.from, f.Src, func(p peerIn, src int32) int { return int(p.src - src) })
	if !ok {
		return // not from a rank this one receives from (other traffic)
	}
	p := &rk.from[i]
	k := f.Seq - pairOffset(f.Src, rk.node)
	per := p.ends[len(p.ends)-1]
	iter, within := k/per, k%per
	m := sortSearch(p.ends, within)
	g := uint64(iter)*uint64(len(p.ends)) + uint64(m)
	if int(iter) >= rk.sh.iterations || g < p.base {
		panic(fmt.Sprintf("%s at cycle %d: packet %d of node %d's packets to it, message %d (of %d per iteration, %d iterations), which is not expected", rk.Name(), now, k, f.Src, g, len(p.ends), rk.sh.iterations))
	}
	at := p.slot(g)
	p.got[at]++
	start := uint32(0)
	if m > 0 {
		start = p.ends[m-1]
	}
	if p.got[at] < p.ends[m]-start {
		return
	}
	if p.state[at]&msgPosted != 0 {
		rk.outstanding--
	}
	p.state[at] |= msgDone
	for mask := uint64(len(p.got) - 1); p.state[p.base&mask]&msgDone != 0; p.base++ {
		p.got[p.base&mask], p.state[p.base&mask] = 0, 0
	}
	lat := int64(now) - f.Gen
	rk.messages++
	rk.latencySum += lat
	rk.latencyMax = max(rk.latencyMax, lat)
}

// sortSearch is the first index of ends whose value is above k.
func sortSearch(ends []uint32, k uint32) int {
	lo, hi := 0, len(ends)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if ends[mid] <= k {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}

// MessageRef names a message by its sender and its index among the
// sender's messages to the receiver.
type MessageRef struct{ From, Index int }

// Kinds of a recorded or traced event beside a send (Peer >= 0).
const (
	PeerMark = -1 // a mark: the end of an iteration
	PeerWait = -2 // a wait: the program waited for messages after computing
)

// RecordedEvent is a send (Peer >= 0), a mark or a wait of one rank, as a
// recording job saw it: the cycle, the messages its program waited for
// since its previous event, and the cycles it computed after them. The
// event happened at the later of the previous event and those messages'
// arrivals, plus the compute: what the program does, not what the network
// did, so that a replay on another network (or alone) waits as the
// program would.
type RecordedEvent struct {
	Peer  int
	Flits int64
	At    int64
	After []MessageRef
	Delay int64
}

// recorder is what a rank of a recording job keeps: the events, and what
// the program has waited for (deps) and computed since the last one;
// posted are the receives posted since its last wait.
type recorder struct {
	events  []RecordedEvent
	deps    []MessageRef
	posted  []MessageRef
	compute int64
}

func (r *recorder) event(now clock.Cycle, peer int, flits int64) {
	r.events = append(r.events, RecordedEvent{Peer: peer, Flits: flits, At: int64(now), After: r.deps, Delay: r.compute})
	r.deps, r.compute = nil, 0
}

// waited adds the messages a wait covered (the receives posted since the
// last wait, or an awaited message) to the next event's dependencies; a
// compute before it first becomes a wait event of its own, so that the
// event times keep the program's order: wait, compute, wait, compute.
func (r *recorder) waited(now clock.Cycle, refs ...MessageRef) {
	if len(refs) == 0 {
		return
	}
	if r.compute > 0 {
		r.event(now, PeerWait, 0)
	}
	r.deps = append(r.deps, refs...)
}

// Record makes every rank record its events from now on (before the run):
// a trace of the job (Trace), which allocates per message.
func (j *Job) Record() {
	for _, rk := range j.ranks {
		rk.rec = &recorder{}
	}
}

// Trace is what the ranks recorded (read only while the network is
// paused), as a trace whose results carry motif's name: each event with
// its cycle and what it waited for, so that it replays open loop at the
// recorded cycles or closed loop after its dependencies, and either way,
// on the same network, as the job ran. Messages are numbered in the order
// of their senders' ranks and sends.
func (j *Job) Trace(motif string) (*Trace, error) {
	if len(j.ranks) == 0 || j.ranks[0].rec == nil {
		return nil, fmt.Errorf("workload: the job did not record (Job.Record before the run)")
	}
	tr := &Trace{Motif: motif, Nodes: slices.Clone(j.nodes)}
	type pairIdx struct{ from, to, index int }
	ids := map[pairIdx]int{}
	next := 0
	for r, rk := range j.ranks {
		count := map[int]int{}
		for _, ev := range rk.rec.events {
			if ev.Peer >= 0 {
				ids[pairIdx{r, ev.Peer, count[ev.Peer]}] = next
				count[ev.Peer]++
				next++
			}
		}
	}
	type placed struct {
		ev        TraceEvent
		rank, seq int
	}
	var all []placed
	next = 0
	for r, rk := range j.ranks {
		for i, ev := range rk.rec.events {
			te := TraceEvent{Rank: r, Peer: ev.Peer, Flits: ev.Flits, At: ev.At, Delay: ev.Delay, Timed: true, Dependent: true}
			if ev.Peer >= 0 {
				te.ID = next
				next++
			}
			for _, m := range ev.After {
				id, ok := ids[pairIdx{m.From, r, m.Index}]
				if !ok {
					return nil, fmt.Errorf("workload: rank %d received message %d from rank %d, which it never sent", r, m.Index, m.From)
				}
				te.After = append(te.After, id)
			}
			slices.Sort(te.After)
			all = append(all, placed{te, r, i})
		}
	}
	slices.SortStableFunc(all, func(a, b placed) int {
		if a.ev.At != b.ev.At {
			return int(a.ev.At - b.ev.At)
		}
		if a.rank != b.rank {
			return a.rank - b.rank
		}
		return a.seq - b.seq
	})
	for _, p := range all {
		tr.Events = append(tr.Events, p.ev)
	}
	return tr, nil
}
