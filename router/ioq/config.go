package ioq

import (
	"fmt"
	"slices"
	"strings"

	"github.com/icnsim/icnsim/router/ioq/recn"
)

// Org is a queue organisation: how the memory of a port is divided into
// queues.
type Org uint8

const (
	// OneQ keeps one FIFO queue per port memory, with credits for the
	// whole port.
	OneQ Org = iota
	// VOQSw divides every port memory equally into a queue per output port
	// of the switch the packets will leave (at ingress: this switch; at
	// egress and at an adapter: the next switch), with credits per queue.
	VOQSw
	// VOQNet divides every port memory equally into a queue per
	// destination endnode, with credits per queue.
	VOQNet
	// RECN shares every port memory among detection queues (ingress, one
	// per output port) or a standard queue (egress, adapters) and up to
	// RECN.SAQs set-aside queues allocated by package router/ioq/recn, with
	// credits per port and Xon/Xoff per SAQ.
	RECN
)

func orgNames() map[string]Org {
	return map[string]Org{"1q": OneQ, "voq-sw": VOQSw, "voq-net": VOQNet, "recn": RECN}
}

// Orgs lists the organisations' names.
func Orgs() []string {
	names := make([]string, 0, len(orgNames()))
	for n := range orgNames() {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// ParseOrg reads an organisation's name.
func ParseOrg(s string) (Org, error) {
	if o, ok := orgNames()[s]; ok {
		return o, nil
	}
	return 0, fmt.Errorf("unknown queue organisation %q (allowed: %s)", s, strings.Join(Orgs(), ", "))
}

func (o Org) String() string {
	for n, v := range orgNames() {
		if v == o {
			return n
		}
	}
	return fmt.Sprintf("org(%d)", uint8(o))
}

// Config is the switch, adapter and link configuration of a network.
type Config struct {
	Org Org
	// PortMemoryFlits is the memory of every ingress port, every egress
	// port and every adapter's injection side, in flits (the paper's
	// 128 KB is 16384 flits of 8 bytes).
	PortMemoryFlits int
	// RoutingDelayCycles is the time from a head flit's arrival at an
	// ingress port to its first request of the crossbar.
	RoutingDelayCycles  int
	LinkLatencyCycles   int // >= 1, switch-to-switch and adapter links
	CreditLatencyCycles int // >= 1
	MaxPacketFlits      int // largest packet the traffic will send
	MinPacketFlits      int // smallest (0: 1), which bounds the packets a memory holds
	// AllowDeadlock builds a routing that can deadlock (dimension order on
	// a torus without datelines), to study deadlock.
	AllowDeadlock bool
	// RECN configures the recn organisation (recn.Defaults for the paper's).
	RECN recn.Config
	// DedicatedControl sends RECN's control messages on lanes of their own;
	// by default they share the link with data, as the paper's control
	// packets do (a message takes the link for a cycle, never inside a
	// packet that is flowing, and goes before the next data packet).
	DedicatedControl bool
}

// memQueues is the number of queues laid out in every port memory: the
// split of queuesPer, or under RECN the detection queues (the standard
// queue is the first) and the SAQs after them.
func (c Config) memQueues(ports, nodes int) int {
	if c.Org == RECN {
		return ports + c.RECN.SAQs
	}
	return queuesPer(c.Org, ports, nodes)
}

// queuesPer is the number of queues that share every port memory equally
// under org o on a network of the given ports per switch and nodes (1 for
// the organisations whose queues share the whole memory).
func queuesPer(o Org, ports, nodes int) int {
	switch o {
	case VOQSw:
		return ports
	case VOQNet:
		return nodes
	}
	return 1
}

// QueueFlits is the capacity of one queue: the port memory, split equally
// among the queues of a VOQ organisation (floored to whole flits).
func (c Config) QueueFlits(ports, nodes int) int {
	return c.PortMemoryFlits / queuesPer(c.Org, ports, nodes)
}

// Validate reports what a network of the given ports per switch and nodes
// cannot be built with, as the name of the setting and what is wrong.
func (c Config) Validate(ports, nodes int) (setting string, err error) {
	switch {
	case c.PortMemoryFlits < 1:
		return "memory", fmt.Errorf("port memory of %d flits: at least 1", c.PortMemoryFlits)
	case c.QueueFlits(ports, nodes) < c.MaxPacketFlits:
		return "memory", fmt.Errorf("%s splits a port memory of %d flits into %d queues of %d flits, smaller than the largest packet (%d flits); virtual cut-through needs a whole packet per queue",
			c.Org, c.PortMemoryFlits, queuesPer(c.Org, ports, nodes), c.QueueFlits(ports, nodes), c.MaxPacketFlits)
	case c.MaxPacketFlits > 65535:
		return "packet", fmt.Errorf("packets of %d flits: at most 65535", c.MaxPacketFlits)
	case queuesPer(c.Org, ports, nodes) > 65535:
		return "org", fmt.Errorf("%s needs %d queues per port: at most 65535", c.Org, queuesPer(c.Org, ports, nodes))
	case c.LinkLatencyCycles < 1 || c.CreditLatencyCycles < 1:
		return "latency", fmt.Errorf("link and credit latencies must be >= 1 cycle")
	case c.RoutingDelayCycles < 0:
		return "delay", fmt.Errorf("routing delay %d: >= 0 cycles", c.RoutingDelayCycles)
	}
	if c.Org == RECN {
		if setting, err := c.RECN.Validate(c.PortMemoryFlits); err != nil {
			return "recn." + setting, err
		}
		if ports+c.RECN.SAQs > recn.MaxQueues {
			return "recn.saqs", fmt.Errorf("%d SAQs beside %d detection queues per port: at most %d queues per port memory (allowed: up to %d SAQs)", c.RECN.SAQs, ports, recn.MaxQueues, recn.MaxQueues-ports)
		}
	}
	return "", nil
}
