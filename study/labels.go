package study

import (
	"strings"

	"github.com/icnsim/icnsim/report"
)

// keyLabels are the words figures show for the configuration keys that
// studies sweep most, with units.
func keyLabels() map[string]string {
	return map[string]string{
		"traffic.load_flits_per_node_cycle": "Offered load (flits/node/cycle)",
		"traffic.load_of_wire_capacity":     "Offered load (share of wire capacity)",
		"traffic.load_of_bisection":         "Offered load (share of 2 x bisection bandwidth)",
		"traffic.pattern":                   "Traffic pattern",
		"traffic.process":                   "Injection process",
		"traffic.packet_flits":              "Packet size (flits)",
		"traffic.hotspot_source_fraction":   "Share of sources sending to the hot spot",
		"traffic.hotspot_fraction":          "Share of packets to the hot spot",
		"traffic.self":                      "Packets to the source",
		"traffic.source_queue_packets":      "Source queue bound (packets)",
		"router.vc.selection":               "Selection function",
		"router.vc.selection_ties":          "Selection ties",
		"network.topology":                  "Topology",
		"router.kind":                       "Router",
		"router.routing":                    "Routing",
		"router.vc.vcs":                     "Virtual channels per port",
		"router.vc.buffer_flits":            "Buffer per VC (flits)",
		"router.vc.switching":               "Switching",
		"router.ioq.queues":                 "Queue organisation",
		"router.ioq.port_memory_bytes":      "Port memory (bytes)",
		"policy.injection":                  "Injection policy",
		"seed":                              "Seed",
	}
}

// KeyLabel returns the words for a configuration key in a figure: the
// registry's, else its last part in words with its unit
// ("router.vc.buffer_flits" -> "Buffer (flits)"; a metric's name gives the
// metric's label).
func KeyLabel(key string) string {
	if l, ok := keyLabels()[key]; ok {
		return l
	}
	if parts := strings.Split(key, "."); len(parts) == 3 && parts[0] == "network" {
		// A key of a family's table: the words of its leaf, which every
		// family that has it means alike.
		if l, ok := familyKeyLabels()[parts[2]]; ok {
			return l
		}
	}
	return report.Label(ShortKey(key))
}

// familyKeyLabels are the words of the keys of the families' tables
// (network.mesh.k, network.torus.k, ...), by leaf.
func familyKeyLabels() map[string]string {
	return map[string]string{"k": "Radix k", "levels": "Levels n", "concentration": "Endnodes per switch"}
}
