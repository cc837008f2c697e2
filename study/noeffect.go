package study

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// Keys a file sets that do nothing under the rest of its configuration: a
// load under a collective burst, a UGAL threshold under minimal routing,
// batch keys under the window method. Each is a warning (validate and run
// print them), not an error: the file means something, only not what it
// says; the warning names both keys so that the reader sees which one to
// change.

// noEffectRule is one key that takes effect only under a condition on
// another key.
type noEffectRule struct {
	key     string               // the key that may do nothing, e.g. "traffic.load_flits_per_node_cycle"
	other   string               // the key that decides, e.g. "traffic.process"
	applies func(c *Config) bool // whether key takes effect in c
	needs   string               // what other must be for key to take effect, in words
}

// noEffectRules are the rules, in the order of DefaultTOML's keys.
func noEffectRules() []noEffectRule {
	process := func(names ...string) func(c *Config) bool {
		return func(c *Config) bool { return slices.Contains(names, c.Traffic.Process) }
	}
	pattern := func(names ...string) func(c *Config) bool {
		return func(c *Config) bool {
			return slices.Contains(names, c.Traffic.Pattern) || c.Traffic.PhaseCycle > 0 && slices.Contains(names, c.Traffic.PhasePattern)
		}
	}
	method := func(name string) func(c *Config) bool {
		return func(c *Config) bool { return c.Measure.Method == name }
	}
	sat := func(c *Config) bool { return strings.HasPrefix(strings.TrimSpace(c.Policy.Injection), "sat") }
	entropy := func(c *Config) bool {
		inj := strings.TrimSpace(c.Policy.Injection)
		return !sat(c) && inj != "none" && inj != "noth"
	}
	rules := []noEffectRule{
		{"traffic.load_flits_per_node_cycle", "traffic.process", process("bernoulli", "poisson", "ramp", "on-off", "request-reply"), `"bernoulli", "poisson", "ramp", "on-off" or "request-reply" (collective queues a burst of packets_per_node packets; saturation keeps every source backlogged)`},
		{"traffic.packet_flits", "traffic.process", func(c *Config) bool { return c.Traffic.Process != "request-reply" }, `not "request-reply" (its requests and replies have request_flits and reply_flits)`},
		{"traffic.on_cycles", "traffic.process", process("on-off"), `"on-off"`},
		{"traffic.off_cycles", "traffic.process", process("on-off"), `"on-off"`},
		{"traffic.packets_per_node", "traffic.process", process("collective"), `"collective"`},
		{"traffic.ramp_cycles", "traffic.process", process("ramp"), `"ramp"`},
		{"traffic.source_queue_packets", "traffic.process", process("bernoulli", "poisson", "ramp", "on-off"), `"bernoulli", "poisson", "ramp" or "on-off"`},
		{"traffic.hotspot_fraction", "traffic.pattern", pattern("hotspot"), `"hotspot" (or phase_pattern, from phase_cycle on)`},
		{"traffic.hotspot_source_fraction", "traffic.pattern", pattern("hotspot-sources"), `"hotspot-sources" (or phase_pattern, from phase_cycle on)`},
		{"traffic.hotspot_node", "traffic.pattern", pattern("hotspot", "hotspot-sources"), `"hotspot" or "hotspot-sources" (or phase_pattern, from phase_cycle on)`},
		{"traffic.hot_region_fraction", "traffic.pattern", pattern("hot-region"), `"hot-region" (or phase_pattern, from phase_cycle on)`},
		{"traffic.phase_pattern", "traffic.phase_cycle", func(c *Config) bool { return c.Traffic.PhaseCycle > 0 }, "> 0"},
		{"traffic.long_volume_percent", "traffic.long_packet_flits", func(c *Config) bool { return c.Traffic.LongPacketFlits > 0 }, "> 0"},
		{"policy.sat_l", "policy.injection", sat, `"sat" (bare)`},
		{"policy.sat_k", "policy.injection", sat, `"sat" (bare)`},
		{"policy.sat_structure", "policy.injection", sat, `"sat" (bare)`},
		{"policy.sat_hop_latency_cycles", "policy.injection", sat, `"sat" or "sat(...)"`},
		{"policy.sat_node_latency_cycles", "policy.injection", sat, `"sat" or "sat(...)"`},
		{"policy.guard_cycles", "policy.injection", entropy, "an entropy-throttling model (base, hyst, gt.a, gt.x)"},
		{"policy.r_th_percent", "policy.injection", entropy, "an entropy-throttling model (base, hyst, gt.a, gt.x)"},
		{"policy.r_on_percent", "policy.injection", entropy, "an entropy-throttling model (base, hyst, gt.a, gt.x)"},
		{"policy.r_off_percent", "policy.injection", entropy, "an entropy-throttling model (base, hyst, gt.a, gt.x)"},
		{"policy.r_n_percent", "policy.injection", entropy, "an entropy-throttling model (base, hyst, gt.a, gt.x)"},
		{"measure.smooth_samples", "traffic.process", process("ramp"), `"ramp"`},
	}
	notJob := func(c *Config) bool { return c.Traffic.Process != "job" || c.Workload.BackgroundLoad > 0 }
	for _, k := range []string{"pattern", "phase_cycle"} {
		rules = append(rules, noEffectRule{"traffic." + k, "traffic.process", notJob, `not "job" (a job's ranks send to the peers their program names), or "job" with workload.background_load > 0`})
	}
	for _, k := range []string{"request_flits", "reply_flits", "service_cycles", "max_outstanding", "server_queue_packets", "virtual_networks"} {
		rules = append(rules, noEffectRule{"traffic." + k, "traffic.process", process("request-reply"), `"request-reply"`})
	}
	for _, k := range tagsOf(reflect.TypeOf(Workload{})) {
		rules = append(rules, noEffectRule{"workload." + k, "traffic.process", process("job"), `"job"`})
	}
	for _, k := range []string{"batch_cycles", "min_batches", "max_batches", "tolerance"} {
		rules = append(rules, noEffectRule{"measure." + k, "measure.method", method("batches"), `"batches"`})
	}
	for _, k := range []string{"batch_packets", "packet_batches"} {
		rules = append(rules, noEffectRule{"measure." + k, "measure.method", method("packet-batches"), `"packet-batches"`})
	}
	return rules
}

// noEffectWarnings are the warnings of the keys the file sets (set: in the
// file or swept by an axis) that take effect at none of its points, each
// with the file's line where it has one.
func (f *File) noEffectWarnings(set func(key string) bool) []string {
	var out []string
	for _, r := range noEffectRules() {
		if !set(r.key) || len(f.Points) == 0 {
			continue
		}
		if slices.ContainsFunc(f.Points, func(p Point) bool { return r.applies(&p.Config) }) {
			continue
		}
		line := lineOf(f.Source, strings.Split(r.key, "."))
		v, _ := keyValue(&f.Points[0].Config, r.key)
		what := fmt.Sprintf("%s = %s", r.key, formatValue(v))
		if i := slices.IndexFunc(f.Axes, func(a Axis) bool { return a.Key == r.key }); i >= 0 {
			line, what = f.Axes[i].line, fmt.Sprintf("%s (swept by axis[%d])", r.key, i)
		}
		ov, _ := keyValue(&f.Points[0].Config, r.other)
		decided := fmt.Sprintf("%s = %s", r.other, formatValue(ov))
		if slices.ContainsFunc(f.Axes, func(a Axis) bool { return a.Key == r.other }) {
			decided = r.other + " (at every value its axis sweeps)"
		}
		where := f.Path
		if line > 0 {
			where = fmt.Sprintf("%s:%d", where, line)
		}
		out = append(out, fmt.Sprintf("%s: warning: %s has no effect under %s: it applies where %s is %s",
			where, what, decided, r.other, r.needs))
	}
	return out
}
