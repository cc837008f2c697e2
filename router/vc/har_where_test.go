package vc

import (
	"context"
	"flag"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/icnsim/icnsim/actor"
	"github.com/icnsim/icnsim/clock"
	"github.com/icnsim/icnsim/fabric"
	"github.com/icnsim/icnsim/link"
	"github.com/icnsim/icnsim/routing"
	"github.com/icnsim/icnsim/topology/grid"
)

// Where the cycles of Hybrid-HAR's slowest short messages go: in the
// source queue, in the upper network (from injection until the head enters
// the connection channel CCS, or until delivery for a message that never
// moves down), in CCS's buffer (until the head leaves it for C2 or C1) and
// in the lower network (until the tail is delivered). Within each
// network, the cycles the head waited at the front of a buffer for an
// output VC are counted apart from the rest (moving, and waiting for
// credits).

var harWhere = flag.Bool("har.where", false, "trace where the cycles of Hybrid-HAR's slowest short messages go, on the paper's 16x16 mesh (transpose 0.20, uniform 0.36)")

var harWhereCases = flag.Bool("har.where.cases", false, "trace where the cycles of the slowest short messages go in issue 53's three cases (uniform 0.36 without long messages under Hybrid-HAR and DOR, transpose 0.20 under Hybrid-HAR at 0% and 50% long), 4- and 8-flit buffers, tail-sent and all-empty")

// shortTrace is one short message's way through the network.
type shortTrace struct {
	gen, inj       int64 // generated; head left the NI
	ccsIn, ccsOut  int64 // head entered CCS's buffer, left it (-1: never)
	delivered      int64
	hopsDown       uint8 // router-to-router hops taken when it moved down
	hops           uint8
	waitUp, waitDn int32 // cycles the head waited for an output VC: upper network, lower network
	waitCCS        int32 // of them in CCS's buffer
	// waitC2 and queuedC2 are the lower network's head waits and queued
	// cycles in a C2 buffer (the rest of the lower network's, beside
	// CCS's, are in C1's).
	waitC2, queuedC2 int32
	waitDnLong       int32 // of the lower network's, those while a long message held the C1 it may take
	// queuedUp and queuedDn count the cycles the head sat in a buffer
	// behind another message (not at the front), queuedDnLong those with
	// a long message ahead of it in that buffer.
	// queuedCCS those in CCS's buffer (not in queuedDn).
	queuedUp, queuedDn, queuedDnLong, queuedCCS int32
}

// parts is the message's latency split into source, upper, CCS and lower.
func (m *shortTrace) parts() (src, up, ccs, low int64) {
	src = m.inj - m.gen
	if m.ccsIn < 0 {
		return src, m.delivered - m.inj, 0, 0
	}
	return src, m.ccsIn - m.inj, m.ccsOut - m.ccsIn, m.delivered - m.ccsOut
}

// traceSink records deliveries into the traces.
type traceSink struct {
	msgs map[uint64]*shortTrace
	done []*shortTrace
}

func (s *traceSink) Delivered(now clock.Cycle, f *link.Flit) {
	if f.Class != 0 {
		return
	}
	key := uint64(f.Src)<<32 | uint64(f.Seq)
	m := s.msgs[key]
	if m == nil {
		m = &shortTrace{ccsIn: -1, ccsOut: -1}
	}
	delete(s.msgs, key)
	m.gen, m.inj, m.delivered, m.hops = f.Gen, f.Inj(), int64(now), f.Hops
	s.done = append(s.done, m)
}

// traceShort follows every short message between cycles: the heads that
// wait at the front of a buffer for an output VC, and the messages that
// enter and leave CCS's buffer.
func traceShort(n *Network, now int64, msgs map[uint64]*shortTrace) {
	h := n.Routing.(*grid.HAR).Layout()
	get := func(f *link.Flit) *shortTrace {
		key := uint64(f.Src)<<32 | uint64(f.Seq)
		m := msgs[key]
		if m == nil {
			m = &shortTrace{ccsIn: -1, ccsOut: -1}
			msgs[key] = m
		}
		return m
	}
	ccs := h.ConnectionPorts[0]
	c1 := h.C1[0] | h.C1[1]
	c2 := h.C2
	// c1Long: a head waiting for a VC in the lower network at router rt
	// finds a C1 it may take held by a long message.
	c1Long := func(rt *Router, s *inVC) bool {
		c := &rt.cands[s.cand]
		V := int(rt.vcs)
		for g := 0; g < int(c.N); g++ {
			for pm := c.G[g].Ports; pm != 0; pm &= pm - 1 {
				p := routing.TrailingZeros(pm)
				for vm := c.G[g].VCs & c1; vm != 0; vm &= vm - 1 {
					ov := &rt.outs[p*V+routing.TrailingZeros(vm)]
					if ov.owner >= 0 && rt.pkts[rt.ivc[ov.owner].pkFront].hdr.Class == 1 {
						return true
					}
				}
			}
		}
		return false
	}
	for _, rt := range n.Routers {
		V := int(rt.vcs)
		for p := 0; p < int(rt.ports); p++ {
			for m := rt.port[p].nonEmpty; m != 0; m &= m - 1 {
				v := routing.TrailingZeros(m)
				s := &rt.ivc[p*V+v]
				d := s.pkFront
				lower := p == ccs || routing.Bit(v)&h.Lower != 0
				longAhead := false
				for k := 0; k < int(s.pkLen); k++ {
					pd := &rt.pkts[d]
					d = pd.next
					front := k == 0
					behindLong := longAhead
					longAhead = longAhead || pd.hdr.Class == 1
					if pd.hdr.Class != 0 {
						continue
					}
					if !front {
						// The head is in this buffer, behind another message.
						tr := get(&pd.hdr)
						if p == ccs {
							tr.queuedCCS++
						} else if lower {
							tr.queuedDn++
							if behindLong {
								tr.queuedDnLong++
							}
							if routing.Bit(v)&c2 != 0 {
								tr.queuedC2++
							}
						} else {
							tr.queuedUp++
						}
					}
					if p != ccs && !(front && s.state == vcRouted) {
						continue
					}
					tr := get(&pd.hdr)
					if p == ccs && tr.ccsIn < 0 {
						tr.ccsIn, tr.hopsDown = now, pd.hdr.Hops
					}
					if front && s.state == vcRouted {
						switch {
						case p == ccs:
							tr.waitCCS++
							tr.waitDn++
						case lower:
							tr.waitDn++
							if routing.Bit(v)&c2 != 0 {
								tr.waitC2++
							}
						default:
							tr.waitUp++
						}
						if lower && c1Long(rt, s) {
							tr.waitDnLong++
						}
					}
					if front && p == ccs && s.departed > 0 && tr.ccsOut < 0 {
						tr.ccsOut = now
					}
				}
			}
		}
	}
}

// whereShortWaits runs c on the 16x16 mesh (k x k) for warm+measure
// cycles and a drain, and returns the traces of the short messages
// generated in the measurement window.
func whereShortWaits(t *testing.T, k int, c shortLongRun, warm, measure clock.Cycle, seed uint64) []*shortTrace {
	t.Helper()
	g, cfg, poisson := harMixRun(t, k, c, seed)
	N := g.Nodes()
	end := warm + measure
	srcs := make([]fabric.Source, N)
	for i := range srcs {
		srcs[i] = &stopAt{poisson[i], end}
	}
	sink := &traceSink{msgs: map[uint64]*shortTrace{}}
	sinks := make([]fabric.Sink, N)
	for i := range sinks {
		sinks[i] = sink
	}
	n := build(t, g, cfg, srcs, sinks)
	acts, units := n.Actors()
	var checkErr error
	drain := end + 4*measure
	_, err := actor.Run(context.Background(), actor.Serial, 1, actor.Spec{Actors: acts, Units: units, To: drain, Chunk: 1,
		Hook: func(next clock.Cycle) bool {
			traceShort(n, int64(next)-1, sink.msgs)
			if next%1000 == 0 {
				checkErr = n.Check(next)
			}
			tot := n.Totals()
			return checkErr != nil || (next > end && tot.PacketsDelivered == tot.PacketsGenerated)
		}})
	if err != nil || checkErr != nil {
		t.Fatal(err, checkErr)
	}
	var out []*shortTrace
	for _, m := range sink.done {
		if m.gen >= int64(warm) && m.gen < int64(end) {
			out = append(out, m)
		}
	}
	return out
}

// stopAt is a source that generates nothing from cycle end on.
type stopAt struct {
	harPoisson
	end clock.Cycle
}

func (s *stopAt) Generate(now clock.Cycle, q *fabric.SourceQueue) clock.Cycle {
	if now >= s.end {
		return clock.Never
	}
	return s.harPoisson.Generate(now, q)
}

// checkTraces: every short message's parts are non-negative and add up to
// its latency, and its head waited no longer in a network than it spent
// there.
func checkTraces(t *testing.T, c shortLongRun, ms []*shortTrace) {
	t.Helper()
	for _, m := range ms {
		src, up, ccs, low := m.parts()
		if src < 0 || up < 0 || ccs < 0 || low < 0 || src+up+ccs+low != m.delivered-m.gen ||
			(m.ccsIn >= 0) != (m.ccsOut >= 0) || int64(m.waitUp+m.queuedUp) > up || int64(m.waitCCS+m.queuedCCS) > ccs ||
			int64(m.waitDn-m.waitCCS+m.queuedDn) > low || m.waitDnLong > m.waitDn || m.queuedDnLong > m.queuedDn ||
			m.waitC2 > m.waitDn-m.waitCCS || m.queuedC2 > m.queuedDn {
			t.Fatalf("%v: a short message's trace does not add up: %+v", c, *m)
		}
	}
}

// TestHybridHARWhereShortWaits: the tracer's parts add up on an 8x8 mesh;
// with -har.where it prints, on the paper's 16x16 mesh at transpose 0.20
// and uniform 0.36 of the wire capacity and every mix with short
// messages, for tail-sent, upper-empty and all-empty, where the cycles of
// the short messages slower than 600 cycles and of the ten slowest go;
// with -har.where.cases the same for issue 53's three cases (uniform 0.36
// without long messages under Hybrid-HAR and the DOR baseline, transpose
// 0.20 under Hybrid-HAR without long messages and with half the volume in
// them), 4- and 8-flit buffers, tail-sent and all-empty:
//
//	go test ./router/vc -run TestHybridHARWhereShortWaits -har.where -v -timeout 0
//	go test ./router/vc -run TestHybridHARWhereShortWaits -har.where.cases -v -timeout 0
func TestHybridHARWhereShortWaits(t *testing.T) {
	if !*harWhere && !*harWhereCases {
		c := shortLongRun{routing: "hybrid-har", pattern: "transpose", load: 0.3, longPct: 50, buffer: 8}
		ms := whereShortWaits(t, 8, c, 500, 1500, 1)
		checkTraces(t, c, ms)
		down := 0
		for _, m := range ms {
			if m.ccsIn >= 0 {
				down++
			}
		}
		if len(ms) < 100 || down == 0 {
			t.Fatalf("%d short messages traced, %d moved down: the tracer saw too little", len(ms), down)
		}
		return
	}
	var cases []shortLongRun
	if *harWhere {
		for _, pl := range []struct {
			pattern string
			load    float64
		}{{"transpose", 0.20}, {"uniform", 0.36}} {
			for _, longPct := range []float64{0, 25, 50, 75} {
				for _, free := range []grid.HARFree{grid.HARTailSent, grid.HARUpperEmpty, grid.HARAllEmpty} {
					cases = append(cases, shortLongRun{routing: "hybrid-har", pattern: pl.pattern, load: pl.load, longPct: longPct, buffer: 8, free: free})
				}
			}
		}
	}
	if *harWhereCases {
		for _, buffer := range []int{4, 8} {
			for _, free := range []grid.HARFree{grid.HARTailSent, grid.HARAllEmpty} {
				for _, rt := range []string{"hybrid-har", "har-dor"} {
					cases = append(cases, shortLongRun{routing: rt, pattern: "uniform", load: 0.36, buffer: buffer, free: free})
				}
				for _, longPct := range []float64{0, 50} {
					cases = append(cases, shortLongRun{routing: "hybrid-har", pattern: "transpose", load: 0.20, longPct: longPct, buffer: buffer, free: free})
				}
			}
		}
	}
	t.Log(whereReport(t, cases))
}

// whereReport runs each case on the paper's 16x16 mesh (10,000 cycles of
// warm-up, 50,000 measured) and reports where the cycles of all its
// short messages, of those slower than 600 cycles and of the ten slowest
// go, and the three slowest one by one.
func whereReport(t *testing.T, cases []shortLongRun) string {
	t.Helper()
	var b strings.Builder
	for _, c := range cases {
		ms := whereShortWaits(t, 16, c, 10_000, 50_000, 1)
		checkTraces(t, c, ms)
		fmt.Fprintf(&b, "\n%v: %d short messages", c, len(ms))
		report := func(label string, sel []*shortTrace) {
			var src, up, ccs, low, wUp, wCCS, wDn, lat, down, wDnLong, qUp, qDn, qDnLong, qCCS, wC2, qC2 int64
			for _, m := range sel {
				s, u, cc, l := m.parts()
				src, up, ccs, low = src+s, up+u, ccs+cc, low+l
				wUp, wCCS, wDn = wUp+int64(m.waitUp), wCCS+int64(m.waitCCS), wDn+int64(m.waitDn)
				wDnLong, qUp, qDn, qDnLong = wDnLong+int64(m.waitDnLong), qUp+int64(m.queuedUp), qDn+int64(m.queuedDn), qDnLong+int64(m.queuedDnLong)
				qCCS, wC2, qC2 = qCCS+int64(m.queuedCCS), wC2+int64(m.waitC2), qC2+int64(m.queuedC2)
				lat += m.delivered - m.gen
				if m.ccsIn >= 0 {
					down++
				}
			}
			if len(sel) == 0 {
				fmt.Fprintf(&b, "\n  %-22s none", label)
				return
			}
			f := func(x int64) float64 { return float64(x) / float64(len(sel)) }
			fmt.Fprintf(&b, "\n  %-16s %5d msgs, %5.1f%% down; latency %6.1f = source %5.1f + upper %5.1f (head waiting %5.1f, queued %4.1f) + CCS %5.1f (head waiting %5.1f, queued %4.1f) + lower %6.1f (head waiting %6.1f, of which in C2 %5.1f; queued %5.1f, of which in C2 %5.1f, behind a long message %5.1f); of the CCS and lower head waits, with a long message holding the C1 wanted %5.1f",
				label, len(sel), 100*f(down), f(lat), f(src), f(up), f(wUp), f(qUp), f(ccs), f(wCCS), f(qCCS), f(low), f(wDn-wCCS), f(wC2), f(qDn), f(qC2), f(qDnLong), f(wDnLong))
		}
		report("all", ms)
		var slow []*shortTrace
		for _, m := range ms {
			if m.delivered-m.gen > 600 {
				slow = append(slow, m)
			}
		}
		report("slower than 600", slow)
		slices.SortFunc(ms, func(a, b *shortTrace) int { return int((b.delivered - b.gen) - (a.delivered - a.gen)) })
		report("ten slowest", ms[:min(10, len(ms))])
		for _, m := range ms[:min(3, len(ms))] {
			s, u, cc, l := m.parts()
			fmt.Fprintf(&b, "\n    latency %5d: source %4d, upper %4d (head waiting %4d), CCS %4d (head waiting %4d, queued %4d), lower %4d (head waiting %4d, in C2 %4d; queued %4d, in C2 %4d, behind long %4d); moved down after %d of %d hops",
				m.delivered-m.gen, s, u, m.waitUp, cc, m.waitCCS, m.queuedCCS, l, m.waitDn-m.waitCCS, m.waitC2, m.queuedDn, m.queuedC2, m.queuedDnLong, m.hopsDown, m.hops)
		}
	}
	return b.String()

}
