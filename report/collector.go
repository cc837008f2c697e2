package report

import (
	"unsafe"

	"github.com/icnsim/icnsim/clock"
	"github.com/icnsim/icnsim/link"
)

// MaxClasses is the number of message classes measured separately.
const MaxClasses = link.MaxClasses

// Window is the measurement: packets generated in [From, To) are measured
// (their latency sampled), and flits arriving in [From, To) count as
// accepted throughput.
type Window struct {
	From, To clock.Cycle
}

// Collector observes the packets delivered at one node. It implements
// fabric.Sink and is owned by that node's NI alone. The histograms of
// message classes other than 0 are allocated when the node first receives
// a packet of that class: most runs have one class.
type Collector struct {
	win           Window
	latencyRange  uint64 // latencies a histogram holds from the start (SetLatencyRange)
	Hops          uint64 // router-to-router hops of measured packets
	AcceptedFlits uint64 // flits of packets whose tail arrived in the window
	first         ClassHistograms
	others        *[MaxClasses - 1]ClassHistograms
	flows         *flowCounts // per-flow counts (CountFlows); nil: none
}

// ClassHistograms are the latency histograms of one message class at one node.
type ClassHistograms struct {
	Latency    Histogram // from generation to tail arrival
	NetLatency Histogram // from injection to tail arrival
	// acceptedFlits counts the flits of the class's packets whose tail
	// arrived in the window, for classes above 0 (class 0's are the
	// collector's less the others': ClassAcceptedFlits).
	acceptedFlits uint64
}

// ClassAcceptedFlits is the flits of message class k's packets whose tail
// arrived in the window.
func (c *Collector) ClassAcceptedFlits(k int) uint64 {
	if c.others == nil {
		if k == 0 {
			return c.AcceptedFlits
		}
		return 0
	}
	if k > 0 {
		return c.others[k-1].acceptedFlits
	}
	a := c.AcceptedFlits
	for i := range c.others {
		a -= c.others[i].acceptedFlits
	}
	return a
}

// other returns the histograms of message class k > 0 (the last for a
// class above it), allocating them at the first.
func (c *Collector) other(k uint8) *ClassHistograms {
	if c.others == nil {
		c.others = new([MaxClasses - 1]ClassHistograms)
	}
	return &c.others[min(int(k), MaxClasses-1)-1]
}

// Class returns the histograms of message class k (0 <= k < MaxClasses),
// nil when the node has received no measured packet of that class.
func (c *Collector) Class(k int) *ClassHistograms {
	if k == 0 {
		return &c.first
	}
	if c.others == nil {
		return nil
	}
	return &c.others[k-1]
}

// CollectorBytes is the memory of one node's collector once it has
// received packets of one class: the collector and its two latency
// histograms reserved up to latencyRange cycles (SetLatencyRange).
func CollectorBytes(latencyRange uint64) int64 {
	buckets := max(int64(bucketOf(latencyRange))+1, 128)
	return int64(unsafe.Sizeof(Collector{})) + 8 + 2*buckets
}

// NewCollectors returns one collector per node.
func NewCollectors(nodes int, w Window) []*Collector {
	cs := make([]*Collector, nodes)
	for i := range cs {
		cs[i] = &Collector{win: w}
	}
	return cs
}

// SetLatencyRange makes each latency histogram hold latencies from 0 to
// maxCycles from its first value on (before any is recorded), so that a
// histogram grows only for a latency beyond what the network is expected
// to show: a run then allocates once per histogram below saturation,
// not at every new extreme.
func (c *Collector) SetLatencyRange(maxCycles uint64) { c.latencyRange = maxCycles }

// SetWindow changes the measurement window (only between runs of cycles).
func (c *Collector) SetWindow(w Window) { c.win = w }

// Delivered records the tail flit f of a packet that arrived at cycle now.
func (c *Collector) Delivered(now clock.Cycle, f *link.Flit) {
	if now >= c.win.From && now < c.win.To {
		c.AcceptedFlits += uint64(f.Size)
		if f.Class > 0 {
			c.other(f.Class).acceptedFlits += uint64(f.Size)
		}
	}
	if g := clock.Cycle(f.Gen); g >= c.win.From && g < c.win.To {
		h := &c.first
		if f.Class > 0 {
			h = c.other(f.Class)
		}
		if h.Latency.n == 0 && c.latencyRange > 0 {
			h.Latency.Reserve(c.latencyRange)
			h.NetLatency.Reserve(c.latencyRange)
		}
		h.Latency.Record(uint64(int64(now) - f.Gen))
		h.NetLatency.Record(uint64(int64(now) - f.Inj()))
		c.Hops += uint64(f.Hops)
		if c.flows != nil {
			c.flows.countFlow(f.Src, uint64(f.Size), uint64(int64(now)-f.Gen))
		}
	}
}
