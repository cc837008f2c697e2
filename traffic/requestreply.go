package traffic

import (
	"fmt"

	"github.com/icnsim/icnsim/clock"
	"github.com/icnsim/icnsim/fabric"
	"github.com/icnsim/icnsim/link"
)

// Message classes of the request-reply process.
const (
	RequestClass uint8 = 0
	ReplyClass   uint8 = 1
)

// RequestReply configures the request-reply process: each node is a
// client and a server at once. As a client it draws requests as a
// Bernoulli process of RequestRate() requests per cycle (the offered load
// of requests and replies together is load_flits_per_node_cycle), each of
// RequestFlits flits to its pattern's destination, with at most
// MaxOutstanding requests unanswered: an arrival while that many are
// outstanding waits, and the process draws no further arrival until it has
// been issued (a request counts outstanding from its issue, its
// generation cycle, to the arrival of its reply's tail). As a server it
// holds at most ServerQueuePackets requests at a time (being received, in
// service, or answered by a reply waiting to be injected); a request's
// head that finds it full waits in the network. ServiceCycles after a
// request's tail arrives, a reply of ReplyFlits flits goes back to its
// source, carrying the request's generation cycle: a reply's latency
// (message class 1) is the transaction's round trip, from the request's
// issue to the reply's tail, as BookSim2's transaction latency.
type RequestReply struct {
	RequestFlits, ReplyFlits int
	ServiceCycles            int64
	MaxOutstanding           int
	ServerQueuePackets       int
}

// MaxOutstandingRequests bounds RequestReply.MaxOutstanding and
// ServerQueuePackets.
const MaxOutstandingRequests = 1 << 16

// RequestRate is the requests a node offers per cycle at load
// loadFlits flits/node/cycle: a request and its reply carry
// RequestFlits+ReplyFlits flits.
func (r RequestReply) RequestRate(loadFlits float64) float64 {
	return loadFlits / float64(r.RequestFlits+r.ReplyFlits)
}

// check lists what is wrong with r.
func (r RequestReply) check() []error {
	var errs []error
	if r.RequestFlits < 1 || r.RequestFlits > 65535 || r.ReplyFlits < 1 || r.ReplyFlits > 65535 {
		errs = append(errs, fmt.Errorf("request and reply sizes %d and %d flits out of range (allowed: 1..65535)", r.RequestFlits, r.ReplyFlits))
	}
	if r.MaxOutstanding < 1 || r.MaxOutstanding > MaxOutstandingRequests {
		errs = append(errs, fmt.Errorf("max_outstanding = %d out of range (allowed: 1..%d requests)", r.MaxOutstanding, MaxOutstandingRequests))
	}
	if r.ServerQueuePackets < 1 || r.ServerQueuePackets > MaxOutstandingRequests {
		errs = append(errs, fmt.Errorf("server_queue_packets = %d out of range (allowed: 1..%d requests)", r.ServerQueuePackets, MaxOutstandingRequests))
	}
	if r.ServiceCycles < 0 || r.ServiceCycles > MaxServiceCycles {
		errs = append(errs, fmt.Errorf("service_cycles = %d out of range (allowed: 0..%d)", r.ServiceCycles, MaxServiceCycles))
	}
	return errs
}

// MaxServiceCycles bounds RequestReply.ServiceCycles.
const MaxServiceCycles = 1 << 40

// servedRequest is a request a server has received and not yet answered.
type servedRequest struct {
	due clock.Cycle // the cycle its reply is sent
	gen int64       // the request's generation cycle
	src int32       // its client
}

// requestReply is one node's request-reply process: a
// fabric.Responder. Its packets are numbered by one counter over both
// classes, so sequence numbers are unique per destination and rise in
// the order the packets are queued.
type requestReply struct {
	source      // the pattern, the random stream and the Bernoulli gaps (rate: requests per cycle)
	rr          *RequestReply
	sink        fabric.Sink
	seq         uint32
	outstanding int32
	waiting     bool // an arrival waits for an outstanding request to be answered
	// issued counts the requests issued (read while paused: RequestsIssued).
	issued uint64
	// The server: heads accepted whose tails have not arrived, and the
	// requests received, in arrival order (a ring that grows to at most
	// ServerQueuePackets).
	reserved      int32
	served        []servedRequest
	sHead, sCount int32
}

func newRequestReply(s source, rr *RequestReply) *requestReply {
	return &requestReply{source: s, rr: rr, served: make([]servedRequest, min(rr.ServerQueuePackets, 8))}
}

// serve adds a received request to the ring, doubling it (up to
// ServerQueuePackets, which Accept never lets it pass) when full.
func (p *requestReply) serve(s servedRequest) {
	if int(p.sCount) == len(p.served) {
		grown := make([]servedRequest, min(2*len(p.served), p.rr.ServerQueuePackets))
		for i := range p.sCount {
			grown[i] = p.served[(p.sHead+i)%int32(len(p.served))]
		}
		p.served, p.sHead = grown, 0
	}
	p.served[(p.sHead+p.sCount)%int32(len(p.served))] = s
	p.sCount++
}

// ClosedLoop marks requestReply as a fabric.ClosedLoop.
func (p *requestReply) ClosedLoop() {}

// Generate sends the replies whose service has ended and issues the
// requests that have arrived, while fewer than MaxOutstanding are
// unanswered.
func (p *requestReply) Generate(now clock.Cycle, q *fabric.SourceQueue) clock.Cycle {
	for p.sCount > 0 && p.served[p.sHead].due <= now {
		s := p.served[p.sHead]
		p.sHead = (p.sHead + 1) % int32(len(p.served))
		p.sCount--
		q.PushPacket(fabric.Packet{Gen: s.gen, Dst: s.src, Size: uint16(p.rr.ReplyFlits), Class: ReplyClass, Seq: p.seq})
		p.seq++
	}
	if !p.init {
		p.init = true
		p.nextB = now + p.geometricGap() - 1
	}
	if now >= p.nextB && p.outstanding < int32(p.rr.MaxOutstanding) {
		if d, ok := p.dest(now); ok {
			q.PushSeq(now, d, p.rr.RequestFlits, RequestClass, p.seq)
			p.seq++
			p.outstanding++
			p.issued++
		}
		// The process resumes from the issue: the arrival clock restarts.
		p.nextB = now + p.geometricGap()
		p.waiting = false
	} else if now >= p.nextB {
		p.waiting = true // woken by the reply that frees a slot
	}
	next := clock.Never
	if !p.waiting {
		next = p.nextB
	}
	if p.sCount > 0 {
		next = min(next, p.served[p.sHead].due)
	}
	return max(next, now+1)
}

// Accept takes a request's head when the server holds fewer than
// ServerQueuePackets requests, counting the replies still queued.
func (p *requestReply) Accept(_ clock.Cycle, _ *link.Flit, queuedReplies int) bool {
	if int(p.reserved)+int(p.sCount)+queuedReplies >= p.rr.ServerQueuePackets {
		return false
	}
	p.reserved++
	return true
}

// Delivered passes the packet to the node's sink, then serves a request
// (its reply due ServiceCycles from now) or counts a reply's request
// answered.
func (p *requestReply) Delivered(now clock.Cycle, f *link.Flit) {
	if p.sink != nil {
		p.sink.Delivered(now, f)
	}
	if f.Class == RequestClass {
		p.reserved--
		p.serve(servedRequest{due: now + clock.Cycle(p.rr.ServiceCycles), gen: f.Gen, src: f.Src})
		return
	}
	p.outstanding--
}

// RequestsIssued is the number of requests the request-reply sources
// among srcs have issued (read only while the network is paused): each
// one's reply carries its generation cycle, so the packets generated in a
// measurement window are twice the requests issued in it.
func RequestsIssued(srcs []fabric.Source) uint64 {
	var n uint64
	for _, s := range srcs {
		if p, ok := s.(*requestReply); ok {
			n += p.issued
		}
	}
	return n
}

// ChainSinks makes each request-reply source in srcs its node's sink too,
// passing what it receives on to the sink it replaces in sinks.
func ChainSinks(srcs []fabric.Source, sinks []fabric.Sink) {
	for i, s := range srcs {
		if p, ok := s.(*requestReply); ok {
			p.sink, sinks[i] = sinks[i], p
		}
	}
}

// Reach is where a configuration's packets may go: To(n) visits the
// nodes node n may send to, From(n) those that may send to node n.
// Patterns whose destinations are known (uniform, the permutations and
// those with a Spread rule) give them exactly; any other, or a pattern
// that changes during the run, gives every node (a superset).
type Reach struct {
	To, From func(n int, visit func(int))
}

// ReachOf is the reach of c's pattern on geometry g with the given seed
// (random-pair draws its permutation from it).
func ReachOf(c Config, g Geometry, seed uint64) (Reach, error) {
	spec, ok := Patterns()[c.Pattern]
	if !ok {
		return Reach{}, fmt.Errorf("unknown pattern %q", c.Pattern)
	}
	N := g.Nodes
	selfOK := c.Self == SelfLoopback
	all := func(n int, visit func(int)) {
		for d := range N {
			if d != n || selfOK {
				visit(d)
			}
		}
	}
	switch {
	case c.PhaseCycle > 0 || !spec.Permutes && spec.Spread == nil:
		// uniform is exact here; the others' superset
		return Reach{To: all, From: all}, nil
	case spec.Permutes:
		pp := c.PatternParams
		pp.Seed = seed
		pat, err := NewPattern(c.Pattern, g, pp)
		if err != nil {
			return Reach{}, err
		}
		// dest[s]: the destination, -1 none (a fixed point skipped), -2
		// any other node (a fixed point redrawn).
		dest := make([]int, N)
		from := make([][]int32, N)
		var redrawn []int
		for s := range N {
			switch d := pat.Dest(s, nil); {
			case d != s || selfOK:
				dest[s] = d
				from[d] = append(from[d], int32(s))
			case c.Self == SelfRedraw:
				dest[s] = -2
				redrawn = append(redrawn, s)
			default:
				dest[s] = -1
			}
		}
		return Reach{
			To: func(n int, visit func(int)) {
				switch d := dest[n]; {
				case d >= 0:
					visit(d)
				case d == -2:
					all(n, visit)
				}
			},
			From: func(n int, visit func(int)) {
				for _, s := range from[n] {
					visit(int(s))
				}
				for _, s := range redrawn {
					if s != n {
						visit(s)
					}
				}
			},
		}, nil
	}
	pp := c.PatternParams
	pp.Seed = seed
	from := make([][]int32, N)
	for s := range N {
		spec.Spread(g, pp, s, func(d int, _ float64) {
			if d != s || selfOK {
				from[d] = append(from[d], int32(s))
			}
		})
	}
	return Reach{
		To: func(n int, visit func(int)) {
			spec.Spread(g, pp, n, func(d int, _ float64) {
				if d != n || selfOK {
					visit(d)
				}
			})
		},
		From: func(n int, visit func(int)) {
			for _, s := range from[n] {
				visit(int(s))
			}
		},
	}, nil
}
