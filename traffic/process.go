package traffic

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"unsafe"

	"github.com/icnsim/icnsim/clock"
	"github.com/icnsim/icnsim/fabric"
	"github.com/icnsim/icnsim/link"
)

// Processes lists the arrival processes.
func processDocs() map[string]string {
	return map[string]string{
		"bernoulli":     "each cycle a packet is generated with probability load/mean_packet_flits",
		"poisson":       "packets arrive as a Poisson process of rate load/mean_packet_flits per cycle (several may arrive in one cycle)",
		"saturation":    "the source is always backlogged: a new packet is generated whenever the source queue is empty",
		"collective":    "packets_per_node packets are queued at every node at cycle 0, and nothing after",
		"ramp":          "the ramp-load method: Bernoulli arrivals whose offered load rises linearly from 0 at cycle 0 to load at ramp_cycles, then stays",
		"request-reply": "closed loop: each node issues requests (Bernoulli, at most max_outstanding unanswered) and answers the requests it receives with replies, on virtual networks of their own; load counts requests and replies",
		"on-off":        "bursty: each node alternates ON periods (Bernoulli arrivals at the peak rate load x (on + off) / on) and silent OFF periods, of geometric lengths with means on_cycles and off_cycles (a two-state Markov chain, started in its stationary state); load is the long-run average",
		"job":           "closed loop: the ranks of a job send as their programs say (package workload makes these sources; New refuses it)",
	}
}

// ProcessNames lists the arrival processes in a fixed order.
func ProcessNames() []string {
	return []string{"bernoulli", "poisson", "saturation", "collective", "ramp", "on-off", "request-reply", "job"}
}

// OfferedLoad reports whether a process offers load_flits_per_node_cycle
// (on average, in a ramp at its end); the others are closed (collective,
// job) or backlogged (saturation).
func OfferedLoad(process string) bool {
	return process == "bernoulli" || process == "poisson" || process == "ramp" || process == "on-off" || process == "request-reply"
}

// SteadyLoad reports whether a process offers a constant long-run load.
func SteadyLoad(process string) bool {
	return process == "bernoulli" || process == "poisson" || process == "on-off" || process == "request-reply"
}

// ProcessDoc describes an arrival process.
func ProcessDoc(name string) string { return processDocs()[name] }

// Config is the traffic of one run.
type Config struct {
	Pattern string
	PatternParams
	Process        string
	LoadFlits      float64 // offered load, flits/node/cycle (bernoulli, poisson)
	PacketsPerNode int     // collective burst size
	// Sizes: fixed PacketFlits, or bimodal when LongFlits > 0: a share
	// LongVolumeShare of the flits (not packets) in LongFlits-flit packets.
	PacketFlits     int
	LongFlits       int
	LongVolumeShare float64
	// Classes, when it has two or more entries, makes the traffic a mix
	// of traffic classes (message class k, Class k's packets of its own
	// size) each carrying its share of the offered flits; PacketFlits,
	// LongFlits and LongVolumeShare are then unused. Empty: one class.
	Classes []Class
	// PhaseCycle > 0 switches to PhasePattern for packets generated from that cycle on.
	PhaseCycle   int64
	PhasePattern string
	// RampCycles is the length of the ramp (ramp process).
	RampCycles int64
	// OnCycles and OffCycles are the mean lengths of the on-off process's
	// ON and OFF periods.
	OnCycles, OffCycles float64
	// Self is what a node does with a packet to itself (SelfMode).
	Self SelfMode
	// RequestReply configures the request-reply process.
	RequestReply RequestReply
	// QueuePackets > 0 bounds the source queue (bernoulli, poisson and
	// ramp processes): a packet that arrives while the queue holds that
	// many waits outside it and the process draws no further arrival until
	// it has entered (FSIN's NIC injection buffer, drop = 0). A packet's
	// latency then counts from its entry into the queue, as FSIN's delay
	// does. 0: unbounded (every arrival enters at once).
	QueuePackets int
}

// Class is one traffic class of a mix (Config.Classes): the share of the
// offered flits (not packets) it carries, 0..1, and its packets' size.
type Class struct {
	VolumeShare float64
	PacketFlits int
}

// OfferedAt is the ramp process's offered load at cycle t, flits/node/cycle.
func (c *Config) OfferedAt(t float64) float64 {
	return c.LoadFlits * min(max(t, 0), float64(c.RampCycles)) / float64(c.RampCycles)
}

// PeakLoad is the on-off process's load during an ON period, flits/node/cycle.
func (c *Config) PeakLoad() float64 { return c.LoadFlits * (c.OnCycles + c.OffCycles) / c.OnCycles }

// MaxPacketFlits is the largest packet the configuration generates.
func (c *Config) MaxPacketFlits() int {
	if c.Process == "request-reply" {
		return max(c.RequestReply.RequestFlits, c.RequestReply.ReplyFlits)
	}
	if len(c.Classes) > 0 {
		m := 0
		for _, k := range c.Classes {
			m = max(m, k.PacketFlits)
		}
		return m
	}
	return max(c.PacketFlits, c.LongFlits)
}

// MeanPacketFlits is the mean packet size in flits.
func (c *Config) MeanPacketFlits() float64 {
	if len(c.Classes) > 0 {
		// Packets per flit: the sum over the classes of share / size.
		var perFlit float64
		for _, k := range c.Classes {
			perFlit += k.VolumeShare / float64(k.PacketFlits)
		}
		return 1 / perFlit
	}
	if c.LongFlits <= 0 || c.LongVolumeShare <= 0 {
		return float64(c.PacketFlits)
	}
	// A share s of volume in long packets: packets per flit = (1-s)/S + s/L.
	s := c.LongVolumeShare
	return 1 / ((1-s)/float64(c.PacketFlits) + s/float64(c.LongFlits))
}

// longPacketShare is the probability that a packet is long.
func (c *Config) longPacketShare() float64 {
	if c.LongFlits <= 0 || c.LongVolumeShare <= 0 {
		return 0
	}
	return c.LongVolumeShare / float64(c.LongFlits) * c.MeanPacketFlits()
}

// classCumulative is, per traffic class, the probability that a packet
// is of that class or a lower one (a class's packet share is its volume
// share over its size, times the mean packet size); nil for one class.
func (c *Config) classCumulative() []float64 {
	if len(c.Classes) == 0 {
		return nil
	}
	mean, cum, acc := c.MeanPacketFlits(), make([]float64, len(c.Classes)), 0.0
	for k, cl := range c.Classes {
		acc += cl.VolumeShare / float64(cl.PacketFlits) * mean
		cum[k] = acc
	}
	cum[len(cum)-1] = 1 // rounding: the last class takes what remains
	return cum
}

// New returns one Source per node. Node i draws from PCG stream (seed, i).
func New(c Config, g Geometry, seed uint64) ([]fabric.Source, error) {
	if c.Process == "job" {
		return nil, errors.New(`traffic: process "job": a job's sources are its ranks (package workload)`)
	}
	pat, phase, err := check(c, g, seed)
	if err != nil {
		return nil, err
	}
	silent, err := Silent(c, g, seed)
	if err != nil {
		return nil, err
	}
	reg := Patterns()
	rate := c.LoadFlits / c.MeanPacketFlits() // packets per node per cycle
	if c.Process == "on-off" {
		rate = c.PeakLoad() / c.MeanPacketFlits() // during an ON period
	}
	if c.Process == "request-reply" {
		rate = c.RequestReply.RequestRate(c.LoadFlits) // requests per node per cycle
	}
	longP, classCum := c.longPacketShare(), c.classCumulative()
	srcs := make([]fabric.Source, g.Nodes)
	for i := range srcs {
		if silent != nil && silent[i] {
			srcs[i] = fabric.Idle{}
			continue
		}
		s := &source{node: i, nodes: g.Nodes, cfg: &c, pat: pat, phase: phase, rate: rate, longP: longP, classCum: classCum,
			permutes: reg[c.Pattern].Permutes, phasePermutes: reg[c.PhasePattern].Permutes,
			rng: rand.New(rand.NewPCG(seed, uint64(i)))}
		if rate > 0 && rate < 1 {
			s.logq = math.Log1p(-rate)
		}
		if c.Process == "on-off" {
			s.logOn, s.logOff = math.Log1p(-1/c.OnCycles), math.Log1p(-1/c.OffCycles)
		}
		srcs[i] = s
		if c.Process == "request-reply" {
			srcs[i] = newRequestReply(*s, &c.RequestReply)
		}
	}
	return srcs, nil
}

// Check reports the errors New would for c on geometry g, without making
// the sources.
func Check(c Config, g Geometry) error {
	_, _, err := check(c, g, 0)
	return err
}

// check validates c and makes its patterns.
func check(c Config, g Geometry, seed uint64) (pat, phase Pattern, err error) {
	var errs []error
	pp := c.PatternParams
	pp.Seed = seed
	if pat, err = NewPattern(c.Pattern, g, pp); err != nil {
		errs = append(errs, err)
	}
	if c.PhaseCycle > 0 {
		if phase, err = NewPattern(c.PhasePattern, g, pp); err != nil {
			errs = append(errs, fmt.Errorf("phase: %w", err))
		}
	}
	if _, ok := processDocs()[c.Process]; !ok {
		errs = append(errs, fmt.Errorf("unknown process %q (allowed: %s)", c.Process, strings.Join(ProcessNames(), ", ")))
	}
	if c.Process == "ramp" && c.RampCycles < 1 {
		errs = append(errs, fmt.Errorf("ramp process needs ramp_cycles >= 1, got %d", c.RampCycles))
	}
	if OfferedLoad(c.Process) && (c.LoadFlits <= 0 || c.LoadFlits > 1) {
		errs = append(errs, fmt.Errorf("load = %g flits/node/cycle out of range (allowed: > 0 and <= 1)", c.LoadFlits))
	}
	if c.Process == "on-off" {
		if !(c.OnCycles >= 1) || !(c.OffCycles >= 1) || math.IsInf(c.OnCycles, 0) || math.IsInf(c.OffCycles, 0) {
			errs = append(errs, fmt.Errorf("on-off periods of %g and %g cycles (allowed: finite means >= 1 cycle)", c.OnCycles, c.OffCycles))
		} else if peak := c.PeakLoad(); peak > 1 {
			errs = append(errs, fmt.Errorf("on-off peak load %g flits/node/cycle (load %g x (on %g + off %g) / on) above 1", peak, c.LoadFlits, c.OnCycles, c.OffCycles))
		}
	}
	if c.QueuePackets < 0 || c.QueuePackets > MaxQueuePackets {
		errs = append(errs, fmt.Errorf("source queue bound of %d packets out of range (allowed: 0 for unbounded, or 1..%d)", c.QueuePackets, MaxQueuePackets))
	} else if c.QueuePackets > 0 && (!OfferedLoad(c.Process) || c.Process == "request-reply") {
		errs = append(errs, fmt.Errorf("a bounded source queue applies to the bernoulli, poisson, ramp and on-off processes, not %q", c.Process))
	}
	if c.Process == "request-reply" {
		errs = append(errs, c.RequestReply.check()...)
		if c.LongFlits > 0 {
			errs = append(errs, fmt.Errorf("long packets (%d flits) apply to the open-loop processes; request-reply sends requests and replies of their own sizes", c.LongFlits))
		}
	}
	if c.Process == "collective" && c.PacketsPerNode < 1 {
		errs = append(errs, fmt.Errorf("packets_per_node = %d out of range (allowed: >= 1)", c.PacketsPerNode))
	}
	if c.PacketFlits < 1 || c.PacketFlits > 65535 || c.LongFlits < 0 || c.LongFlits > 65535 {
		errs = append(errs, fmt.Errorf("packet sizes %d and %d flits out of range (allowed: 1..65535)", c.PacketFlits, c.LongFlits))
	}
	errs = append(errs, c.checkClasses()...)
	if c.LongVolumeShare < 0 || c.LongVolumeShare > 1 {
		errs = append(errs, fmt.Errorf("long_volume_share = %g out of range (allowed: 0..1)", c.LongVolumeShare))
	}
	if c.Self > SelfRedraw {
		errs = append(errs, fmt.Errorf("self-traffic choice %d unknown (allowed: %s)", c.Self, strings.Join(selfNames(), ", ")))
	}
	if c.Self != SelfLoopback && g.Nodes < 2 {
		errs = append(errs, fmt.Errorf("self = %q needs another node to send to; the network has %d", c.Self, g.Nodes))
	}
	return pat, phase, errors.Join(errs...)
}

// checkClasses checks a mix of traffic classes: 2..link.MaxClasses of
// them, shares above 0 summing to 1, sizes in range, open-loop processes
// only and no long packets beside them.
func (c *Config) checkClasses() []error {
	if len(c.Classes) == 0 {
		return nil
	}
	var errs []error
	if len(c.Classes) < 2 || len(c.Classes) > link.MaxClasses {
		errs = append(errs, fmt.Errorf("%d traffic classes (allowed: 2..%d, or none)", len(c.Classes), link.MaxClasses))
	}
	sum := 0.0
	for k, cl := range c.Classes {
		if !(cl.VolumeShare > 0 && cl.VolumeShare <= 1) {
			errs = append(errs, fmt.Errorf("traffic class %d's volume share %g out of range (allowed: > 0 and <= 1)", k, cl.VolumeShare))
		}
		if cl.PacketFlits < 1 || cl.PacketFlits > 65535 {
			errs = append(errs, fmt.Errorf("traffic class %d's packets of %d flits out of range (allowed: 1..65535)", k, cl.PacketFlits))
		}
		sum += cl.VolumeShare
	}
	if math.Abs(sum-1) > 1e-9 {
		errs = append(errs, fmt.Errorf("traffic classes' volume shares sum to %g (allowed: 1)", sum))
	}
	if c.LongFlits > 0 || c.Process == "request-reply" || c.Process == "job" {
		errs = append(errs, fmt.Errorf("traffic classes apply to the open-loop processes without long packets (process %q, long packets of %d flits)", c.Process, c.LongFlits))
	}
	return errs
}

// MaxQueuePackets is the largest source-queue bound.
const MaxQueuePackets = 1 << 20

// SourceBytes is the memory New takes per node for configuration c: the
// source with its random stream (and its entry in the list New returns),
// a source queue's first four packets, and the permutation of a
// random-pair pattern (one int per node, in each phase that uses it).
func SourceBytes(c Config) int64 {
	b := int64(unsafe.Sizeof(source{})) + 32 + 16 + 4*int64(unsafe.Sizeof(fabric.Packet{}))
	for _, p := range []string{c.Pattern, c.PhasePattern} {
		if p == "random-pair" {
			b += 8
		}
	}
	return b
}

type source struct {
	node  int
	nodes int
	cfg   *Config
	pat   Pattern
	phase Pattern
	// permutes and phasePermutes: pat and phase are permutations.
	permutes, phasePermutes bool
	rng                     *rand.Rand
	rate                    float64 // packets per cycle
	logq                    float64 // log(1-rate), for geometric gaps
	longP                   float64
	// classCum is the traffic classes' cumulative packet shares
	// (Config.classCumulative); nil for one class.
	classCum []float64
	next     float64     // Poisson: time of the next arrival
	nextB    clock.Cycle // Bernoulli, on-off: cycle of the next arrival
	// on-off: whether an ON period is under way, and the cycle it or the
	// OFF period ends (the first cycle of the next period).
	on     bool
	flipAt clock.Cycle
	logOn  float64 // log(1 - 1/on_cycles), for geometric period lengths
	logOff float64 // log(1 - 1/off_cycles)
	init   bool
	// pending: an arrival waits for room in a bounded source queue.
	pending bool
}

func (s *source) push(now clock.Cycle, q *fabric.SourceQueue) {
	size, class := s.cfg.PacketFlits, uint8(0)
	if s.longP > 0 && s.rng.Float64() < s.longP {
		size, class = s.cfg.LongFlits, 1
	}
	if s.classCum != nil {
		u, k := s.rng.Float64(), 0
		for k < len(s.classCum)-1 && u >= s.classCum[k] {
			k++
		}
		size, class = s.cfg.Classes[k].PacketFlits, uint8(k)
	}
	if d, ok := s.dest(now); ok {
		q.Push(now, d, size, class)
	}
}

// dest draws the destination of a packet generated at cycle now under
// the pattern of its phase and the self mode; false: none (a fixed point
// of a permutation under self = "skip" sends nothing).
func (s *source) dest(now clock.Cycle) (int, bool) {
	pat, permutes := s.pat, s.permutes
	if s.phase != nil && int64(now) >= s.cfg.PhaseCycle {
		pat, permutes = s.phase, s.phasePermutes
	}
	d := pat.Dest(s.node, s.rng)
	if d == s.node {
		switch s.cfg.Self {
		case SelfSkip:
			if permutes {
				return 0, false
			}
			for i := 0; d == s.node && i < maxRedraws; i++ {
				d = pat.Dest(s.node, s.rng)
			}
			if d == s.node {
				d = otherNode(s.node, s.nodes, s.rng)
			}
		case SelfRedraw:
			d = otherNode(s.node, s.nodes, s.rng)
		}
	}
	return d, true
}

// arrive enters an arrival into the source queue, or, when a bounded
// queue is full, keeps it waiting (pending) and reports false: the process
// pauses until it has entered.
func (s *source) arrive(now clock.Cycle, q *fabric.SourceQueue) bool {
	if s.full(q) {
		s.pending = true
		return false
	}
	s.push(now, q)
	return true
}

// periodGap draws a geometric period length (>= 1 cycle) of mean
// 1/(1-exp(logq)) cycles; a mean of 1 is 1.
func (s *source) periodGap(logq float64) clock.Cycle {
	if logq == math.Inf(-1) || logq == 0 {
		return 1
	}
	g := math.Floor(math.Log(1-s.rng.Float64()) / logq)
	if !(g < float64(MaxGapCycles)) {
		return MaxGapCycles
	}
	return 1 + clock.Cycle(g)
}

// onOff runs the on-off process at cycle now: the period flips when it
// ends (a new length drawn), and during an ON period arrivals come at
// the peak rate, Bernoulli.
func (s *source) onOff(now clock.Cycle, q *fabric.SourceQueue) clock.Cycle {
	if !s.init {
		// Stationary from cycle 0: ON with probability on / (on + off).
		s.init = true
		s.on = s.rng.Float64() < s.cfg.OnCycles/(s.cfg.OnCycles+s.cfg.OffCycles)
		logq := s.logOff
		if s.on {
			logq = s.logOn
		}
		s.flipAt = now + s.periodGap(logq)
		s.nextB = now + s.geometricGap() - 1
	}
	for now >= s.flipAt {
		s.on = !s.on
		logq := s.logOff
		if s.on {
			logq = s.logOn
			// A new ON period's first arrival, counted from its start.
			s.nextB = s.flipAt + s.geometricGap() - 1
		}
		s.flipAt += s.periodGap(logq)
	}
	if s.on && now >= s.nextB {
		if !s.arrive(now, q) {
			return now + 1
		}
		s.nextB = now + s.geometricGap()
	}
	return s.onOffNext(now)
}

// onOffNext is the next cycle the on-off process needs: the next arrival
// within the ON period, else the period's end.
func (s *source) onOffNext(now clock.Cycle) clock.Cycle {
	if s.on && s.nextB < s.flipAt {
		return max(s.nextB, now+1)
	}
	return max(s.flipAt, now+1)
}

// MaxGapCycles is the longest gap between two arrivals that
// geometricGap draws: a longer one (at a rate below about 1e-18 packets
// per cycle, where it would overflow a cycle count) is this one, which no
// run reaches (measure.max_cycles is at most 2^60).
const MaxGapCycles clock.Cycle = 1 << 62

// geometricGap draws the number of cycles to the next Bernoulli arrival
// (>= 1), exact up to MaxGapCycles.
func (s *source) geometricGap() clock.Cycle {
	if s.rate >= 1 {
		return 1
	}
	u := 1 - s.rng.Float64() // (0, 1]
	g := math.Floor(math.Log(u) / s.logq)
	if s.rate <= 0 || !(g < float64(MaxGapCycles)) { // a rate that underflowed to 0: no arrival
		return MaxGapCycles
	}
	return 1 + clock.Cycle(g)
}

// cycleAt is the cycle of a Poisson arrival time, MaxGapCycles for one
// beyond it (a rate so low that the time overflows a cycle count).
func cycleAt(t float64) clock.Cycle {
	if !(t < float64(MaxGapCycles)) {
		return MaxGapCycles
	}
	return clock.Cycle(t)
}

// full reports whether a bounded source queue has no room.
func (s *source) full(q *fabric.SourceQueue) bool {
	return s.cfg.QueuePackets > 0 && q.Len() >= s.cfg.QueuePackets
}

// admitPending lets a waiting arrival into a bounded source queue when
// there is room, and reports whether the process may go on drawing.
func (s *source) admitPending(now clock.Cycle, q *fabric.SourceQueue) bool {
	if !s.pending {
		return true
	}
	if s.full(q) {
		return false
	}
	s.push(now, q)
	s.pending = false
	return true
}

func (s *source) Generate(now clock.Cycle, q *fabric.SourceQueue) clock.Cycle {
	if s.pending {
		if !s.admitPending(now, q) {
			return now + 1
		}
		// The process resumes from now: the paused arrival clock restarts.
		switch s.cfg.Process {
		case "poisson":
			s.next = float64(now) + s.rng.ExpFloat64()/s.rate
			return max(cycleAt(s.next), now+1)
		case "bernoulli":
			s.nextB = now + s.geometricGap()
			return s.nextB
		case "on-off":
			s.nextB = now + s.geometricGap()
			return s.onOffNext(now)
		}
		return now + 1 // ramp: the next cycle's trial
	}
	switch s.cfg.Process {
	case "collective":
		if now == 0 {
			for range s.cfg.PacketsPerNode {
				s.push(now, q)
			}
		}
		return clock.Never
	case "ramp":
		// One Bernoulli trial per cycle at the cycle's rate.
		if s.rng.Float64() < s.cfg.OfferedAt(float64(now))/s.cfg.MeanPacketFlits() {
			s.arrive(now, q)
		}
		return now + 1
	case "saturation":
		if q.Len() == 0 {
			s.push(now, q)
		}
		return now + 1
	case "on-off":
		return s.onOff(now, q)
	case "poisson":
		if !s.init {
			s.init = true
			s.next = s.rng.ExpFloat64() / s.rate
		}
		for s.next < float64(now+1) {
			if !s.arrive(now, q) {
				return now + 1
			}
			s.next += s.rng.ExpFloat64() / s.rate
		}
		return cycleAt(s.next)
	default: // bernoulli
		if !s.init {
			s.init = true
			s.nextB = now + s.geometricGap() - 1
		}
		if now >= s.nextB {
			if !s.arrive(now, q) {
				return now + 1
			}
			s.nextB = now + s.geometricGap()
		}
		return s.nextB
	}
}
