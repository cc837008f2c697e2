package study

import (
	"slices"
	"strings"

	"github.com/icnsim/icnsim/report"
)

// keyLabels are the words figures show for the configuration keys that
// studies sweep most, with units.
func keyLabels() map[string]string {
	return map[string]string{
		"traffic.load_flits_per_node_cycle":  "Offered load (flits/node/cycle)",
		"traffic.load_of_wire_capacity":      "Offered load (share of wire capacity)",
		"traffic.load_of_bisection":          "Offered load (share of 2 x bisection bandwidth)",
		"traffic.pattern":                    "Traffic pattern",
		"traffic.process":                    "Injection process",
		"traffic.packet_flits":               "Packet size (flits)",
		"traffic.hotspot_source_fraction":    "Share of sources sending to the hot spot",
		"traffic.hotspot_fraction":           "Share of packets to the hot spot",
		"traffic.self":                       "Packets to the source",
		"traffic.source_queue_packets":       "Source queue bound (packets)",
		"router.vc.selection":                "Selection function",
		"router.vc.selection_ties":           "Selection ties",
		"router.vc.arbitration":              "Arbitration",
		"router.vc.switch_allocator":         "Switch allocator",
		"router.vc.islip_iterations":         "iSLIP iterations",
		"router.vc.vc_allocation_cycles":     "VC allocation stage (cycles)",
		"router.vc.switch_allocation_cycles": "Switch allocation stage (cycles)",
		"router.vc.crossbar_cycles":          "Crossbar stage (cycles)",
		"router.vc.class_vcs":                "VCs per traffic class",
		"router.vc.class_share":              "Share between traffic classes",
		"router.vc.class_weights":            "Traffic class weights",
		"traffic.class_volume_percent":       "Volume per traffic class (%)",
		"traffic.class_packet_flits":         "Packet size per traffic class (flits)",
		"network.topology":                   "Topology",
		"router.kind":                        "Router",
		"router.routing":                     "Routing",
		"router.vc.vcs":                      "Virtual channels per port",
		"router.vc.buffer_flits":             "Buffer per VC (flits)",
		"router.vc.switching":                "Switching",
		"router.ioq.queues":                  "Queue organisation",
		"router.ioq.port_memory_bytes":       "Port memory (bytes)",
		"policy.injection":                   "Injection policy",
		"seed":                               "Seed",
		"workload.motif":                     "Motif",
		"workload.ranks":                     "Ranks",
		"workload.message_flits":             "Message size (flits)",
		"workload.message_bytes":             "Message size (bytes)",
		"workload.iterations":                "Iterations",
		"workload.compute_cycles":            "Compute step (cycles)",
		"workload.placement":                 "Placement",
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

// nameKeys are the keys whose values are names (a routing, a pattern, a
// mechanism): a figure names a point by the value's display name alone
// ("DOR", not "Routing = dor").
func nameKeys() []string {
	return []string{"router.routing", "traffic.pattern", "traffic.process", "policy.injection", "router.ioq.queues", "router.kind",
		"router.vc.switching", "network.topology", "router.vc.selection", "workload.motif", "workload.placement"}
}

// valueNames are the display names of values as the papers write them.
func valueNames() map[string]string {
	return map[string]string{
		// routings
		"dor": "DOR", "dor-dateline": "DOR (datelines)", "dor-2class": "DOR (2 classes)", "duato": "Duato", "hybrid-har": "Hybrid-HAR", "har-dor": "HAR-DOR",
		"min": "MIN", "val": "VAL", "ugal-l": "UGAL-L", "ugal-g": "UGAL-G", "par": "PAR", "fattree-static": "static (D-mod-k)", "fattree-adaptive": "adaptive",
		"shortest": "shortest path", "shortest-hops": "shortest path (hop classes)", "min-adaptive": "minimal adaptive",
		// mechanisms and switches
		"none": "no throttling", "noth": "no throttling", "recn": "RECN", "voq-net": "VOQnet", "voq-sw": "VOQsw", "1q": "one queue",
		"vct": "VCT", "wormhole": "wormhole", "ioq": "I/O-buffered switch", "vc": "VC router",
		// processes
		"bernoulli": "Bernoulli", "poisson": "Poisson", "saturation": "saturation", "collective": "collective", "ramp": "ramp", "on-off": "on-off",
	}
}

// keyPhrases are the phrases of keys that papers write with a symbol.
func keyPhrases() map[string]string {
	return map[string]string{
		"traffic.long_volume_percent": "P = {}%",
	}
}

// PhraseOf is how figures name the value v of key key: labels (a study's
// [plot.labels]) first, then the built-in names. A phrase with {} for the
// key ("P = {}%") takes the value's place; a key whose values are names
// shows the value's name alone ("DOR", "Hybrid-HAR"); any other key reads
// "words = value" (labels may name both).
func PhraseOf(labels map[string]string, key, v string) string {
	if t, ok := labels[key]; ok && strings.Contains(t, "{}") {
		return strings.ReplaceAll(t, "{}", v)
	}
	name := v
	if l, ok := labels[v]; ok {
		name = l
	} else if l, ok := valueNames()[v]; ok && slices.Contains(nameKeys(), key) {
		name = l
	}
	if slices.Contains(nameKeys(), key) {
		return name
	}
	if _, ok := labels[key]; !ok {
		if t, ok := keyPhrases()[key]; ok {
			return strings.ReplaceAll(t, "{}", name)
		}
	}
	words := NoUnit(KeyLabel(key))
	if l, ok := labels[key]; ok {
		words = l
	}
	return words + " = " + name
}

// NoUnit is a label without its unit in brackets ("Offered load
// (flits/node/cycle)" -> "Offered load").
func NoUnit(l string) string {
	if i := strings.LastIndex(l, " ("); i > 0 && strings.HasSuffix(l, ")") {
		return l[:i]
	}
	return l
}
