package ioq

import (
	"fmt"

	"github.com/icnsim/icnsim/clock"
	"github.com/icnsim/icnsim/link"
	"github.com/icnsim/icnsim/router/ioq/recn"
)

// saqs is what a recn.Port observes of the SAQs of one memory: line i's
// SAQ is queue base+i.
type saqs struct {
	m    *memory
	base int32
}

func (q *saqs) Flits(i int) int32 { return q.m.q[int(q.base)+i].flits }
func (q *saqs) Empty(i int) bool  { return q.m.q[int(q.base)+i].head < 0 }

// ctrlFIFO holds the RECN messages waiting for a link, oldest first.
type ctrlFIFO struct {
	msgs []recn.Msg
	head int
	most int // the most messages it has held at once
}

func (f *ctrlFIFO) len() int { return len(f.msgs) - f.head }

// push appends m; the sent messages ahead of the oldest waiting one are
// dropped once they are half of the slice, so a link whose FIFO never
// quite empties reuses its storage instead of growing.
func (f *ctrlFIFO) push(m recn.Msg) {
	if f.head > 0 && 2*f.head >= len(f.msgs) {
		n := copy(f.msgs, f.msgs[f.head:])
		f.msgs, f.head = f.msgs[:n], 0
	}
	f.msgs = append(f.msgs, m)
	f.most = max(f.most, f.len())
}

func (f *ctrlFIFO) pop() recn.Msg {
	m := f.msgs[f.head]
	f.head++
	return m
}

// recnPort is the RECN side of one memory: its policy state machine, the
// queues it observes, the switch its packets' routes are matched from, and
// the in-order pointers of its lines: the marker packets each blocked line
// still waits for, and how many.
type recnPort struct {
	recn.Port
	q       saqs
	from    int32 // this switch (ingress), the next one (egress), the attached one (adapter)
	marks   []marker
	pending []int32 // per line: marker packets not yet left
	// full is the set of its queues that may not receive (the full SAQs,
	// Feeders scope), as muted() is of those that may not send.
	full uint64
	// peakFlits is the most flits any of its SAQs has held at once since
	// the network was built; swapFlits the most a detection queue held
	// when it was swapped into a new SAQ (ingress).
	peakFlits, swapFlits int32
}

// saw notes the occupancy of queue q, a SAQ that just took a flit.
func (r *recnPort) saw(q int) {
	r.peakFlits = max(r.peakFlits, r.q.m.q[q].flits)
}

// marker is an in-order pointer: line waits for descriptor d to leave.
type marker struct{ line, d int32 }

// newRECNPort is the RECN side of memory m, whose SAQs follow its P
// standard or detection queues; Init it in place (it observes its own q).
func newRECNPort(sh *shared, m *memory, P, from int) recnPort {
	n := sh.recn.SAQs
	return recnPort{q: saqs{m: m, base: int32(P)}, from: int32(from), marks: make([]marker, 0, n*(n+1)), pending: make([]int32, n)}
}

// mark points the in-order pointer of line i, just allocated, at the last
// packet of queue mq (the standard or detection queue the line's flows
// used) and of each SAQ of a nearer point on its route (whose flows it now
// takes), blocking the SAQ until all of them have left.
func (r *recnPort) mark(pl *pool, g recn.Mesh, i int, mq int) {
	r.pending[i] = 0
	r.markTail(pl, i, mq)
	for m := r.Prefixes(g, int(r.from), i); m != 0; m &= m - 1 {
		r.markTail(pl, i, int(r.q.base)+trailing(m))
	}
	r.Lines[i].Blocked = r.pending[i] > 0
}

func (r *recnPort) markTail(pl *pool, i, q int) {
	if t := r.q.m.q[q].tail; t >= 0 {
		pl.p[t].marker = true
		r.marks = append(r.marks, marker{line: int32(i), d: t})
		r.pending[i]++
	}
}

// popped tells the port that descriptor d, an in-order marker, left.
func (r *recnPort) popped(d int32) {
	for k := 0; k < len(r.marks); {
		if r.marks[k].d != d {
			k++
			continue
		}
		i := r.marks[k].line
		r.marks[k] = r.marks[len(r.marks)-1]
		r.marks = r.marks[:len(r.marks)-1]
		if r.pending[i]--; r.pending[i] == 0 {
			r.Unblock(int(i))
		}
	}
}

// muted is the set of the memory's queues that may not send: the SAQs
// blocked by the in-order pointer or stopped by Xoff.
func (r *recnPort) muted() uint64 {
	var mute uint64
	for i := range r.Lines {
		if l := &r.Lines[i]; l.InUse && (l.Blocked || l.Stopped) {
			mute |= 1 << (int(r.q.base) + i)
		}
	}
	return mute
}

// fulls is the set of the memory's queues that may not receive (Feeders
// scope): the full SAQs.
func (r *recnPort) fulls() uint64 {
	var full uint64
	for i := range r.Lines {
		if l := &r.Lines[i]; l.InUse && l.Full {
			full |= 1 << (int(r.q.base) + i)
		}
	}
	return full
}

// recnSwitch is a switch's RECN state.
type recnSwitch struct {
	ing, egr []recnPort
	pend     []ctrlFIFO // per port: messages for its link
	work     []routed
}

// routed is a message from a port's outbox and the port it came from.
type routed struct {
	m      recn.Msg
	egress bool
	port   uint8
}

// newRECNPorts prepares the RECN state of switch s's P memories mems on
// one side; their SAQs follow the P detection (or standard) queues.
// Packets' routes are matched from next[p] at egress port p.
func newRECNPorts(sh *shared, s, P int, mems []memory, side recn.Side, next []int32) []recnPort {
	n := sh.recn.SAQs
	rs := make([]recnPort, P)
	lines := make([]recn.Line, P*n)
	for p := range rs {
		from := s
		if side == recn.Egress {
			from = int(next[p])
		}
		rs[p] = newRECNPort(sh, &mems[p], P, from)
		rs[p].Init(&sh.recn, side, s, p, lines[p*n:(p+1)*n], &rs[p].q)
	}
	return rs
}

func (s *Switch) rport(egress bool, p int) *recnPort {
	if egress {
		return &s.rc.egr[p]
	}
	return &s.rc.ing[p]
}

// after delivers what port p's last step put in its outbox, and whatever
// that causes inside the switch, queueing messages for links.
func (s *Switch) after(now clock.Cycle, egress bool, p int) {
	rc := s.rc
	s.collect(egress, p)
	for k := 0; k < len(rc.work); k++ {
		w := rc.work[k]
		if w.m.Port == recn.Link {
			rc.pend[w.port].push(w.m)
			continue
		}
		to := int(w.m.Port)
		r := s.rport(!w.egress, to)
		if i := r.Receive(int64(now), w.m, w.port); i >= 0 {
			mq := 0
			if w.egress { // an ingress line waits for the detection queue of its output
				mq = int(r.Lines[i].Parent)
			}
			r.mark(&s.pl, s.sh.mesh, i, mq)
		}
		s.collect(!w.egress, to)
	}
	rc.work = rc.work[:0]
}

func (s *Switch) collect(egress bool, p int) {
	r := s.rport(egress, p)
	r.q.m.mute, r.full = r.muted(), r.fulls()
	for _, m := range r.Out {
		s.rc.work = append(s.rc.work, routed{m: m, egress: egress, port: uint8(p)})
	}
	r.Out = r.Out[:0]
}

// recvControl applies the RECN message arriving at port p, if any:
// notifications and Xon/Xoff concern the egress side of p (they come from
// the ingress port the link feeds), deallocations and refusals its ingress
// side.
func (s *Switch) recvControl(now clock.Cycle, p int) {
	m := s.ctrl[int(s.in0)+p].Recv(now)
	if m == nil {
		return
	}
	egress := m.Kind == recn.Notify || m.Kind == recn.Xoff || m.Kind == recn.Xon
	r := s.rport(egress, p)
	if i := r.Receive(int64(now), *m, recn.Link); i >= 0 {
		r.mark(&s.pl, s.sh.mesh, i, 0)
	}
	s.after(now, egress, p)
}

// sendControl sends port p's oldest waiting RECN message on its link, if
// the lane may carry one this cycle: always with dedicated lanes, else only
// when no data flit is under way (between packets, or while the packet
// being sent waits for its next flit). It reports whether it sent.
func sendControl(now clock.Cycle, f *ctrlFIFO, lane *link.Lane[recn.Msg], l *outLink, pl *pool, dedicated bool) bool {
	if f.len() == 0 {
		return false
	}
	if !dedicated && l.cur >= 0 && pl.p[l.cur].have > pl.p[l.cur].sent {
		return false
	}
	lane.Send(now, f.pop())
	return true
}

// recnArrived is the RECN step after a packet's tail arrives in ingress
// queue q of port p: detection in a detection queue (and the swap of its
// packets into the new SAQ), or the SAQ's own thresholds.
func (s *Switch) recnArrived(now clock.Cycle, p, q int) {
	r := &s.rc.ing[p]
	P := len(s.ing)
	m := &s.ing[p]
	if q < P {
		i := r.Detected(int64(now), q, m.q[q].flits)
		if i >= 0 {
			sq := P + i
			m.q[q], m.q[sq] = m.q[sq], m.q[q]
			m.nonEmpty[0] = m.nonEmpty[0]&^(1<<q) | 1<<sq
			if x := &s.xf[p]; x.src >= 0 && int(x.srcQ) == q {
				x.srcQ = int32(sq)
			}
			r.swapFlits = max(r.swapFlits, m.q[sq].flits)
			r.saw(sq)
			r.Filled(i)
		}
	} else {
		r.Arrived(int64(now), q-P, 0)
	}
	s.after(now, false, p)
}

// recnEgressArrived is the RECN step after a packet's tail from ingress
// port from arrives in egress queue q of port o.
func (s *Switch) recnEgressArrived(now clock.Cycle, o, q, from int) {
	r := &s.rc.egr[o]
	if q == 0 {
		r.StandardArrived(from, s.egr[o].q[0].flits)
	} else {
		r.Arrived(int64(now), q-len(s.ing), from)
	}
	s.after(now, true, o)
}

// recnDeparted is the RECN step after a flit left queue q of a memory of
// port p (and, if d >= 0, descriptor d, an in-order marker, was popped).
func (s *Switch) recnDeparted(now clock.Cycle, egress bool, p, q int, d int32) {
	r := s.rport(egress, p)
	P := len(s.ing)
	if q >= P {
		r.Departed(q - P)
	}
	if d >= 0 {
		r.popped(d)
	}
	s.after(now, egress, p)
}

// recnSweep frees the idle SAQs of every port (every 64 cycles).
func (s *Switch) recnSweep(now clock.Cycle) {
	for p := range s.rc.ing {
		for _, egress := range [2]bool{false, true} {
			r := s.rport(egress, p)
			if r.InUse() > 0 {
				r.Sweep(int64(now))
				s.after(now, egress, p)
			}
		}
	}
}

// recnQueue is the queue of memory r for a packet to dst whose route from
// switch from on is matched against r's lines; std is the queue it takes
// when none matches.
func (sh *shared) recnQueue(r *recnPort, from int, dst int32, std int) (q int, line int) {
	if from < 0 {
		return std, -1
	}
	if i := r.Match(sh.mesh, from, dst); i >= 0 {
		return int(r.q.base) + i, i
	}
	return std, -1
}

// check verifies a port's RECN state against its memory: SAQs in use
// within the limit, the queues of free lines empty, the mute bits those
// of the blocked and stopped lines.
func (r *recnPort) check(name func() string) error {
	n := 0
	for i := range r.Lines {
		l := &r.Lines[i]
		if l.InUse && r.Find(l.Target) != i {
			return fmt.Errorf("%s: two CAM lines for %v", name(), l.Target)
		}
		q := &r.q.m.q[int(r.q.base)+i]
		if l.InUse {
			n++
		} else if q.head >= 0 || q.flits != 0 || q.reserved != 0 {
			return fmt.Errorf("%s: SAQ %d holds %d flits without a CAM line", name(), i, q.flits)
		}
		if l.Blocked != (r.pending[i] > 0) {
			return fmt.Errorf("%s: SAQ %d blocked %v with %d in-order pointers pending", name(), i, l.Blocked, r.pending[i])
		}
	}
	if n != r.InUse() || n > len(r.Lines) {
		return fmt.Errorf("%s: %d SAQs in use, counted %d, limit %d", name(), n, r.InUse(), len(r.Lines))
	}
	if r.q.m.mute != r.muted() {
		return fmt.Errorf("%s: queues muted %b, lines say %b", name(), r.q.m.mute, r.muted())
	}
	if r.full != r.fulls() {
		return fmt.Errorf("%s: queues full %b, lines say %b", name(), r.full, r.fulls())
	}
	return nil
}

// tickRECN is Tick under the recn organisation: control messages are read
// with the flits, idle SAQs swept every 64 cycles, the crossbar serves
// detection queues before SAQs, and each link carries a waiting control
// message before its next data packet (or beside it, on dedicated lanes).
// The crossbar is allocate's (detection queues before SAQs).
func (s *Switch) tickRECN(now clock.Cycle) {
	for m := s.conn; m != 0; m &= m - 1 {
		p := trailing(m)
		f, cq, hasF, hasC := s.wires.Take(int(s.in0)+p, now)
		if hasC && !s.links[p].creditBack(int(cq), s.sh) {
			panic(fmt.Sprintf("%s at cycle %d: credit overflow on %s", s.Name(), now, s.sh.topo.PortName(int(s.id), p)))
		}
		if hasF {
			s.arrive(now, p, f)
			if q := int(s.recvQ[p]); q >= len(s.ing) { // a flit into a SAQ
				s.rc.ing[p].saw(q)
			}
		}
		s.recvControl(now, p)
	}
	if now&63 == 0 {
		s.recnSweep(now)
	}
	s.allocate(now)
	P := int32(len(s.ing))
	for p := range s.xf {
		if x := &s.xf[p]; x.src >= 0 {
			s.cross(now, p)
			if x.dstQ >= P { // a flit into a SAQ
				s.rc.egr[x.out].saw(int(x.dstQ))
			}
		}
	}
	for m := s.conn; m != 0; m &= m - 1 {
		o := trailing(m)
		l := &s.links[o]
		if sendControl(now, &s.rc.pend[o], &s.ctrl[l.wire], l, &s.pl, s.sh.dedicated) && !s.sh.dedicated {
			continue
		}
		if l.cur >= 0 || s.egr[o].used > 0 {
			if _, sent := l.send(now, s.wires, &s.pl, &s.egr[o], s.sh, int(s.next[o]), s); sent && (l.lastQ >= P || l.poppedMarker >= 0) {
				s.recnDeparted(now, true, o, int(l.lastQ), l.poppedMarker)
			}
		}
	}
}

// grantSAQ grants input p a transfer to output o from one of its SAQs
// (round robin), if one's head may go.
func (s *Switch) grantSAQ(now clock.Cycle, p, o int) bool {
	m := &s.ing[p]
	P, n := len(s.ing), len(s.rc.ing[p].Lines)
	start := int(m.rr)
	if start < P || start >= P+n {
		start = P
	}
	for k := 0; k < n; k++ {
		i := start + k
		if i >= P+n {
			i -= n
		}
		if m.q[i].head >= 0 && m.mute>>i&1 == 0 && s.tryGrant(now, p, i, o) {
			m.rr = int32(i + 1)
			return true
		}
	}
	return false
}

// recnStep reads the adapter's RECN message, if any (notifications and
// Xon/Xoff from its switch), and sweeps its idle SAQs every 64 cycles.
func (a *Adapter) recnStep(now clock.Cycle) {
	m := a.ctrl[a.in].Recv(now)
	if m != nil {
		if i := a.rp.Receive(int64(now), *m, recn.Link); i >= 0 {
			a.rp.mark(&a.pl, a.sh.mesh, i, 0)
		}
	}
	sweep := now&63 == 0
	if sweep {
		a.rp.Sweep(int64(now))
	}
	if m != nil || sweep { // else nothing changed
		a.recnAfter()
	}
}

// recnDeparted is the RECN step after a flit left injection queue q (and,
// if d >= 0, in-order marker d was popped).
func (a *Adapter) recnDeparted(q int, d int32) {
	if q > 0 {
		a.rp.Departed(q - int(a.rp.q.base))
	}
	if d >= 0 {
		a.rp.popped(d)
	}
	a.recnAfter()
}

// recnAfter queues the adapter's outbox for its link (all of its messages
// go to its switch).
func (a *Adapter) recnAfter() {
	a.admBlocked = false // lines or full SAQs may have changed
	a.inj.mute, a.rp.full = a.rp.muted(), a.rp.fulls()
	for _, m := range a.rp.Out {
		a.pend.push(m)
	}
	a.rp.Out = a.rp.Out[:0]
}

// SAQStats counts a RECN network's SAQs: in use now and the most in use
// at once in any one port since ResetSAQPeaks and since the network was
// built (Run), at ingress ports and at egress ports (adapters' injection
// sides counted as egress), the allocations and refusals so far; the
// flits the SAQs hold now, in all and in the fullest, and the most any one
// SAQ has held at once since the network was built (PeakFlits), against
// its Xoff threshold (XoffFlits).
type SAQStats struct {
	InUseIngress, InUseEgress                 int
	MaxPerPortIngress, MaxPerPortEgress       int
	MaxPerPortIngressRun, MaxPerPortEgressRun int
	Allocations, Refusals                     uint64
	FlitsNow                                  int64
	FullestNow                                int32
	PeakFlitsIngress, PeakFlitsEgress         int32
	XoffFlits                                 int32
	// SwapFlitsMost is the most flits a detection queue held when it was
	// swapped into a new SAQ; ControlQueueMost the most RECN messages that
	// waited at once for one link (both since the network was built).
	SwapFlitsMost    int32
	ControlQueueMost int
}

// XoffBounds are the most flits a SAQ can hold under Xoff scope Feeders
// (package router/ioq/recn), given what st measured of the swaps and the
// control queues: an egress or injection SAQ takes one packet at a time
// and only below the Xoff threshold, so at most XoffFlits + P - 1 (P the
// largest packet); an ingress SAQ holds at most max(XoffFlits + P - 1,
// the largest detection queue swapped into a SAQ) when it sends its Xoff,
// and then takes what reaches it before the far end has the Xoff: the L
// flits on the link (its latency), the W + L - 1 the far end sends while
// the Xoff waits for the reverse link (W: a data packet's P - 1 flits
// when control shares the link, and one cycle for each of the at most
// ControlQueueMost - 1 messages ahead of it) and crosses it, and the rest
// of a packet it started, P - 1.
func XoffBounds(c Config, st SAQStats) (ingress, egress int32) {
	P, L := int32(c.MaxPacketFlits), int32(c.LinkLatencyCycles)
	w := int32(max(st.ControlQueueMost, 1)) - 1
	if !c.DedicatedControl {
		w += P - 1
	}
	egress = c.RECN.XoffFlits + P - 1
	ingress = max(egress, st.SwapFlitsMost) + 2*L + w + P - 2
	return ingress, egress
}

// SAQs returns the network's SAQ counts (zero under the other
// organisations). Call it only while the network is paused.
func (n *Network) SAQs() SAQStats {
	st := SAQStats{XoffFlits: n.sh.recn.XoffFlits}
	add := func(r *recnPort, ingress bool) {
		if ingress {
			st.InUseIngress += r.InUse()
			st.MaxPerPortIngress = max(st.MaxPerPortIngress, r.MaxInUse)
			st.MaxPerPortIngressRun = max(st.MaxPerPortIngressRun, r.RunMaxInUse)
			st.PeakFlitsIngress = max(st.PeakFlitsIngress, r.peakFlits)
		} else {
			st.InUseEgress += r.InUse()
			st.MaxPerPortEgress = max(st.MaxPerPortEgress, r.MaxInUse)
			st.MaxPerPortEgressRun = max(st.MaxPerPortEgressRun, r.RunMaxInUse)
			st.PeakFlitsEgress = max(st.PeakFlitsEgress, r.peakFlits)
		}
		st.Allocations += r.Allocations
		st.Refusals += r.Refusals
		if r.InUse() > 0 {
			for i := range r.Lines {
				f := r.q.Flits(i)
				st.FlitsNow += int64(f)
				st.FullestNow = max(st.FullestNow, f)
			}
		}
	}
	for _, s := range n.Switches {
		if s.rc == nil {
			return st
		}
		for p := range s.rc.ing {
			add(&s.rc.ing[p], true)
			add(&s.rc.egr[p], false)
			st.SwapFlitsMost = max(st.SwapFlitsMost, s.rc.ing[p].swapFlits)
			st.ControlQueueMost = max(st.ControlQueueMost, s.rc.pend[p].most)
		}
	}
	for _, a := range n.Adapters {
		add(a.rp, false)
		st.ControlQueueMost = max(st.ControlQueueMost, a.pend.most)
	}
	return st
}

// ResetSAQPeaks starts the per-port maxima of SAQs in use anew (at the
// start of a measurement window). Call it only while the network is paused.
func (n *Network) ResetSAQPeaks() {
	for _, s := range n.Switches {
		if s.rc == nil {
			return
		}
		for p := range s.rc.ing {
			s.rc.ing[p].ResetPeak()
			s.rc.egr[p].ResetPeak()
		}
	}
	for _, a := range n.Adapters {
		a.rp.ResetPeak()
	}
}
