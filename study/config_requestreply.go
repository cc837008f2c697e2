package study

import (
	"context"
	"fmt"

	"github.com/icnsim/icnsim/routing/deadlock"
	"github.com/icnsim/icnsim/topology"
	"github.com/icnsim/icnsim/traffic"
)

// validateRequestReply checks the request-reply process's keys
// (traffic.RequestReply): sizes, service, the outstanding requests and
// the server's queue, and the virtual networks, which split the VC
// router's VCs.
func (c *Config) validateRequestReply(add addFunc) {
	t := &c.Traffic
	if t.RequestFlits < 1 || t.RequestFlits > 65535 {
		add("traffic.request_flits", t.RequestFlits, "allowed: 1..65535 flits")
	}
	if t.ReplyFlits < 1 || t.ReplyFlits > 65535 {
		add("traffic.reply_flits", t.ReplyFlits, "allowed: 1..65535 flits")
	}
	if t.ServiceCycles < 0 || t.ServiceCycles > traffic.MaxServiceCycles {
		add("traffic.service_cycles", t.ServiceCycles, fmt.Sprintf("allowed: 0..%d cycles (from a request's arrival to its reply's queueing)", int64(traffic.MaxServiceCycles)))
	}
	if t.MaxOutstanding < 1 || t.MaxOutstanding > traffic.MaxOutstandingRequests {
		add("traffic.max_outstanding", t.MaxOutstanding, fmt.Sprintf("allowed: 1..%d requests a node may have unanswered (0 would never send)", traffic.MaxOutstandingRequests))
	}
	if t.ServerQueuePackets < 1 || t.ServerQueuePackets > traffic.MaxOutstandingRequests {
		add("traffic.server_queue_packets", t.ServerQueuePackets, fmt.Sprintf("allowed: 1..%d requests a server holds at once (received, in service, or answered and waiting to be sent)", traffic.MaxOutstandingRequests))
	}
	if t.VirtualNetworks != 1 && t.VirtualNetworks != 2 {
		add("traffic.virtual_networks", t.VirtualNetworks, "allowed: 2 (requests and replies on VCs of their own) or 1 (sharing every VC: message-dependent deadlock, refused unless router.allow_deadlock)")
	}
	if t.Process != "request-reply" {
		return
	}
	if k := c.Router.Kind; k != "vc" && k != "" {
		add("traffic.process", t.Process, fmt.Sprintf("request-reply runs on the VC router (router.kind = \"vc\"), whose VCs the virtual networks split; router.kind is %q", k))
	}
	if inj := c.Policy.Injection; inj != "" && inj != "none" {
		add("policy.injection", inj, `request-reply traffic runs without an injection policy: use "none"`)
	}
	if n := t.VirtualNetworks; n >= 1 && n <= 2 && c.Router.VC.VCs%n != 0 {
		add("router.vc.vcs", c.Router.VC.VCs, fmt.Sprintf("traffic.virtual_networks = %d splits the VCs evenly: use a multiple of %d", n, n))
	}
	if t.LongPacketFlits > 0 {
		add("traffic.long_packet_flits", t.LongPacketFlits, "request-reply sends requests of request_flits and replies of reply_flits: use 0")
	}
	if m := c.Measure.Method; m != "window" && m != "batches" {
		add("measure.method", m, `request-reply is measured by "window" or "batches"`)
	}
	// A request that finds its server full waits in the network for up
	// to a service time: the watchdog must not take that for a deadlock.
	if w, s := c.Measure.WatchdogCycles, t.ServiceCycles; w != 0 && s >= 0 && w <= 2*s+1000 {
		add("traffic.service_cycles", s, fmt.Sprintf("a request waits up to a service time for a full server: measure.watchdog_cycles = %d must be above 2 x service_cycles + 1000 = %d (raise it, or 0 for off)", w, 2*s+1000))
	}
	if c.nodeChannels() == 2 {
		add("traffic.process", t.Process, fmt.Sprintf("request-reply splits one channel's VCs into virtual networks; with network.%s.node_channels = 2 (a channel per message class) use 1", c.Network.Topology))
	}
}

// virtualNetworks is the number of virtual networks the VC router splits
// its VCs into: request-reply's, 1 for every other traffic.
func (c *Config) virtualNetworks() int {
	if c.Traffic.Process == "request-reply" {
		return c.Traffic.VirtualNetworks
	}
	return 1
}

// checkMessageClasses refuses request-reply traffic that can deadlock by
// its message classes (requests and replies sharing a virtual network),
// unless router.allow_deadlock; each network's routing has been checked
// by the channel-dependency check on its own VCs.
func (c *Config) checkMessageClasses(ctx context.Context, topo topology.Topology) error {
	if c.Traffic.Process != "request-reply" || c.Router.AllowDeadlock {
		return nil
	}
	reach, err := traffic.ReachOf(c.TrafficConfig(), traffic.GeometryOf(topo), c.Seed)
	if err != nil {
		return err
	}
	second := c.Traffic.VirtualNetworks - 1
	mc := deadlock.MessageClasses{
		Names:   []string{"request", "reply"},
		Network: []int{0, second},
		Answers: [][2]int{{0, 1}},
		Flows: func(class, src int, visit func(int)) {
			if class == 0 {
				reach.To(src, visit)
			} else {
				reach.From(src, visit) // a server answers the nodes that ask it
			}
		},
	}
	if err := deadlock.CheckMessageClasses(ctx, topo, mc); err != nil {
		if ctx.Err() != nil {
			return err
		}
		return &FieldError{Key: "traffic.virtual_networks", Value: c.Traffic.VirtualNetworks,
			Allowed: fmt.Sprintf("requests and replies can deadlock each other: %v; use 2 virtual networks, or router.allow_deadlock = true to run it anyway", err)}
	}
	return nil
}
