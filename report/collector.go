package report

import (
	"github.com/icnsim/icnsim/clock"
	"github.com/icnsim/icnsim/link"
)

// MaxClasses is the number of message classes measured separately.
const MaxClasses = 2

// Window is the measurement: packets generated in [From, To) are measured
// (their latency sampled), and flits arriving in [From, To) count as
// accepted throughput.
type Window struct {
	From, To clock.Cycle
}

// Collector observes the packets delivered at one node. It implements
// router.Sink and is owned by that node's NI alone.
type Collector struct {
	win           Window
	Latency       [MaxClasses]Histogram // from generation to tail arrival
	NetLatency    [MaxClasses]Histogram // from injection to tail arrival
	Hops          uint64                // router-to-router hops of measured packets
	AcceptedFlits uint64                // flits of packets whose tail arrived in the window
}

// NewCollectors returns one collector per node.
func NewCollectors(nodes int, w Window) []*Collector {
	cs := make([]*Collector, nodes)
	for i := range cs {
		cs[i] = &Collector{win: w}
	}
	return cs
}

// SetWindow changes the measurement window (only between runs of cycles).
func (c *Collector) SetWindow(w Window) { c.win = w }

// Delivered records the tail flit f of a packet that arrived at cycle now.
func (c *Collector) Delivered(now clock.Cycle, f *link.Flit) {
	if now >= c.win.From && now < c.win.To {
		c.AcceptedFlits += uint64(f.Size)
	}
	if g := clock.Cycle(f.Gen); g >= c.win.From && g < c.win.To {
		cl := min(int(f.Class), MaxClasses-1)
		c.Latency[cl].Record(uint64(int64(now) - f.Gen))
		c.NetLatency[cl].Record(uint64(int64(now) - f.Inj()))
		c.Hops += uint64(f.Hops)
	}
}
