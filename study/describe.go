package study

import (
	"slices"
	"strings"
)

// FixedWords says in words what every point of the study has in common: the
// network, the traffic, the routing and switching, the injection policy,
// as far as no axis sweeps them ("8x8 mesh, uniform traffic, Bernoulli
// injection, dor routing, VCT"). Figures print it under their title.
func (f *File) FixedWords() string {
	swept := func(keys ...string) bool {
		return slices.ContainsFunc(f.AxisKeys(), func(k string) bool { return slices.Contains(keys, k) })
	}
	c := &f.Config
	if len(f.Points) > 0 {
		c = &f.Points[0].Config
	}
	var parts []string
	networkSwept := slices.ContainsFunc(f.AxisKeys(), func(k string) bool { return strings.HasPrefix(k, "network.") })
	if t, _ := c.Network.table(); t != nil && !networkSwept {
		if w := t.Words(); w != "" {
			parts = append(parts, w)
		}
	}
	t := c.Traffic
	if !swept("traffic.pattern") && t.Pattern != "" {
		parts = append(parts, t.Pattern+" traffic")
	}
	if !swept("traffic.process") && t.Process != "" {
		parts = append(parts, t.Process+" injection")
	}
	r := c.Router
	if !swept("router.routing") && r.Routing != "" {
		parts = append(parts, r.Routing+" routing")
	}
	if !swept("router.ioq.queues", "router.kind") && r.Kind == "ioq" && r.IOQ.Queues != "" {
		parts = append(parts, r.IOQ.Queues+" queues")
	}
	if !swept("router.vc.switching", "router.kind") && r.Kind != "ioq" {
		switch r.VC.Switching {
		case "vct":
			parts = append(parts, "VCT")
		case "":
		default:
			parts = append(parts, r.VC.Switching+" switching")
		}
	}
	if !swept("policy.injection") && c.Policy.Injection != "" && c.Policy.Injection != "none" {
		parts = append(parts, "injection policy "+c.Policy.Injection)
	}
	return strings.Join(parts, ", ")
}
